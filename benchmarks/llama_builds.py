"""What the portable llama.cpp build costs against builds tuned for this CPU.

Without arguments it measures the installed build. `--compare avx512 native` also builds
those variants (through tools/setup_env.py's flag-keyed wheel cache, ~5 min each on
2 cores the first time), installs each into a throw-away venv and measures it the same
way: the bundled model in a child process, greedy, `TOKENS` tokens, median of `ROUNDS`.
A build that dies on this CPU (SIGILL on a VM that advertises AMX without enabling it)
is reported as failed with the sentence `garp` shows the user. Never run two model
processes at once: each measurement runs alone.

Last line: {"builds": {name: {"tokens_per_s" | "failed"}}, "ratio_to_portable": {...}}
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tools"))

import setup_env  # noqa: E402

from garp.engine.models import resolve_model  # noqa: E402
from garp.engine.native_probe import probe  # noqa: E402
from garp.errors import GarpError  # noqa: E402

TOKENS = 128
ROUNDS = 3
THREADS = 2
LLAMA_DEPS = ("numpy", "typing-extensions", "diskcache", "jinja2", "pydantic")  # + what garp.engine imports


def measure(python: str) -> dict:
    model = resolve_model(None).path
    try:
        runs = [probe(model, THREADS, tokens=TOKENS, python=python) for _ in range(ROUNDS)]
    except GarpError as crash:
        return {"failed": str(crash)}
    return {"tokens_per_s": statistics.median(r.tokens_per_s for r in runs),
            "compiled_for": runs[0].system_info}


def venv_with_build(build: str, root: Path) -> str:
    """A venv holding only llama-cpp-python built as `build` (and what it imports)."""
    venv = root / build
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = str(venv / "bin" / "python")
    setup_env.install_llama(python, build)
    subprocess.run([python, "-m", "pip", "install", "--quiet", *LLAMA_DEPS], check=True)
    return python


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--compare", nargs="*", default=[], choices=["avx512", "native"],
                        help="also build and measure these variants")
    args = parser.parse_args()
    results = {"installed": measure(sys.executable)}
    os.environ["PYTHONPATH"] = str(REPO)  # a build's child imports garp from the checkout, llama_cpp from its venv
    with tempfile.TemporaryDirectory() as tmp:
        for build in args.compare:
            results[build] = measure(venv_with_build(build, Path(tmp)))
    base = results["installed"].get("tokens_per_s")
    ratios = {name: round(r["tokens_per_s"] / base, 3) for name, r in results.items()
              if base and "tokens_per_s" in r}
    for name, r in results.items():
        print(f"{name:10s} {r.get('tokens_per_s', 'failed')} tok/s  {r.get('compiled_for') or r.get('failed')}")
    print(json.dumps({"threads": THREADS, "tokens": TOKENS, "builds": results, "ratio_to_portable": ratios}))


if __name__ == "__main__":
    main()
