"""The install works on this CPU, stays lean, and fails with one clear sentence when it cannot."""

from __future__ import annotations

import importlib.util
import json
import os
import platform
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from garp.engine import native_probe
from garp.errors import GarpError

REPO = Path(__file__).resolve().parent.parent
X86 = platform.machine().lower() in ("x86_64", "amd64")
sys.path.insert(0, str(REPO / "tools"))
import setup_env  # noqa: E402  (a stdlib-only script, not a package)


def _garp(*args: str, cwd: Path = REPO, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "garp.cli", *args], capture_output=True, text=True,
                          cwd=cwd, env=env or dict(os.environ), timeout=300)


def test_doctor_reports_cpu_build_and_speed():
    # One thread: on a loaded 2-core machine two OpenMP threads fall to ~1 tok/s (spin-waiting).
    done = _garp("doctor", "--quick", "--json", "--threads", "1")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout.strip().splitlines()[-1])
    model = report["model"]
    assert model["tokens"] > 0 and model["tokens_per_s"] > 0
    assert model["threads"] == 1 and model["compiled_for"].startswith("CPU")
    assert report["cpu"]["cores"] >= 1
    if X86:
        assert "avx2" in report["cpu"]["features"]


def test_default_build_carries_no_amx_or_avx512_kernels():
    """A VM may advertise AMX without enabling it: the default build must not use it."""
    build = os.environ.get("LLAMA_BUILD", "portable")
    info = native_probe.probe(setup_model_path(), threads=1, tokens=2).system_info
    if X86 and build == "portable":
        assert "AVX2 = 1" in info
        assert "AMX_INT8 = 1" not in info and "AVX512 = 1" not in info, info
    else:
        assert info.startswith("CPU")  # an opted-in build still has to run here


def setup_model_path() -> Path:
    from garp.engine.models import resolve_model

    return resolve_model(None).path


def test_a_crash_by_signal_names_the_build_flag(tmp_path):
    fake_python = tmp_path / "python"
    fake_python.write_text("#!/bin/sh\nkill -ILL $$\n")
    fake_python.chmod(0o755)
    with pytest.raises(GarpError) as err:
        native_probe.probe(tmp_path / "model.gguf", threads=1, python=str(fake_python))
    text = str(err.value)
    assert "SIGILL" in text and "illegal instruction" in text
    assert "GGML_NATIVE=OFF" in text and "LLAMA_BUILD=portable" in text


def test_a_passed_probe_is_remembered_per_build(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("GARP_SKIP_NATIVE_PROBE", raising=False)
    native_probe.ensure_runs(setup_model_path(), threads=1)
    marker = tmp_path / "garp" / "native-probe-ok.json"
    assert json.loads(marker.read_text())["key"] == native_probe.build_key()

    def must_not_run(*args, **kwargs):
        raise AssertionError("the probe ran again for a build already checked")

    monkeypatch.setattr(native_probe, "probe", must_not_run)
    native_probe.ensure_runs(setup_model_path(), threads=1)
    marker.write_text(json.dumps({"key": "another build"}))
    with pytest.raises(AssertionError):
        native_probe.ensure_runs(setup_model_path(), threads=1)


def test_setup_names_a_missing_compiler_with_its_package(tmp_path):
    env = {"PATH": str(tmp_path), "HOME": str(tmp_path)}  # no cc, gcc or clang on this PATH
    done = subprocess.run([sys.executable, str(REPO / "tools" / "setup_env.py"), str(tmp_path / "venv")],
                          capture_output=True, text=True, cwd=REPO, env=env, timeout=60)
    assert done.returncode == 2
    assert "no C/C++ compiler found" in done.stderr
    assert "build-essential" in done.stderr and "xcode-select --install" in done.stderr
    assert not (tmp_path / "venv").exists()  # nothing was built before the check failed


def test_setup_refuses_an_unknown_build_and_lists_the_allowed():
    with pytest.raises(SystemExit):
        setup_env.cmake_args("turbo")
    assert "AMX_INT8=OFF" in setup_env.cmake_args("avx512")
    if X86:
        args = setup_env.cmake_args("portable")
        assert "-DGGML_NATIVE=OFF" in args and "-DGGML_AVX512=OFF" in args and "-DGGML_AVX2=ON" in args


def test_wheel_cache_is_keyed_by_build_flags():
    portable = setup_env.wheel_dir(setup_env.cmake_args("portable"))
    assert portable != setup_env.wheel_dir(setup_env.cmake_args("native"))
    assert portable == setup_env.wheel_dir(setup_env.cmake_args("portable"))


def test_install_is_lean():
    """The bundled models' packages come without the CLI and ML stacks they declare."""
    for heavy in ("llm", "sentence_transformers", "sklearn"):
        assert importlib.util.find_spec(heavy) is None, f"{heavy} was installed"
    import torch

    assert torch.version.cuda is None, "a CUDA build of torch was installed on a CPU-only machine"


def test_installed_wheel_finds_its_data_outside_the_checkout(tmp_path):
    wheels, target, elsewhere = tmp_path / "wheels", tmp_path / "site", tmp_path / "elsewhere"
    elsewhere.mkdir()
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "-q"]
    subprocess.run(pip + ["wheel", "--no-deps", "--no-build-isolation", "-w", str(wheels), str(REPO)],
                   check=True, capture_output=True, timeout=300)
    wheel = next(wheels.glob("garp-*.whl"))
    names = zipfile.ZipFile(wheel).namelist()
    for data in ("garp/data/assets/maps/town.tmx", "garp/data/models/registry.json",
                 "garp/data/scenarios/town.json", "garp/data/personas/isabel.json"):
        assert data in names
    subprocess.run(pip + ["install", "--no-deps", "--target", str(target), str(wheel)],
                   check=True, capture_output=True, timeout=300)
    env = dict(os.environ, PYTHONPATH=str(target))
    env.pop("GARP_DATA_DIR", None)
    done = _garp("doctor", "--quick", "--json", cwd=elsewhere, env=env)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert Path(report["data"]["data_dir"]) == target / "garp" / "data"
    assert Path(report["data"]["runs_dir"]) == elsewhere / "runs"
