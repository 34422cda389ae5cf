# Two commands: `make play` and `make test`. Both create the virtual environment on first
# use through tools/setup_env.py (pre-flight checks, CPU torch, a portable llama.cpp build,
# the project, the bundled models, then `garp doctor --quick`).
#
# LLAMA_BUILD picks the llama.cpp instruction set (README "llama.cpp builds"):
#   portable (default: AVX2/FMA/F16C on x86-64, the platform default on ARM and Apple),
#   avx512 (adds AVX-512, never AMX), native (this CPU's everything: opt-in), cuda, metal, vulkan.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
LLAMA_BUILD ?= portable
export LLAMA_BUILD

.PHONY: play test setup doctor bench clean llama

$(STAMP): pyproject.toml tools/setup_env.py
	$(PY) tools/setup_env.py $(VENV)
	touch $(STAMP)

setup: $(STAMP)

# Rebuild llama.cpp after changing LLAMA_BUILD (e.g. `make llama LLAMA_BUILD=cuda`).
llama:
	rm -f $(STAMP)
	$(MAKE) setup

doctor: $(STAMP)
	$(BIN)/garp doctor

play: $(STAMP)
	$(BIN)/garp play $(ARGS)

# The doctor runs first so a llama.cpp build this CPU cannot run fails with one clear sentence.
test: $(STAMP)
	$(BIN)/garp doctor --quick
	SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy HF_HUB_OFFLINE=1 $(BIN)/python -m pytest -q $(ARGS)

bench: $(STAMP)
	for b in benchmarks/*.py; do echo "== $$b"; $(BIN)/python $$b || exit 1; done

clean:
	rm -rf $(VENV) runs .pytest_cache
