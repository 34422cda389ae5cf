"""Does the installed llama.cpp build run on this CPU? Find out in a child process.

A llama.cpp library compiled for instructions the CPU does not allow (AMX or AVX-512 on a
virtual machine that advertises but does not enable them, a venv copied from another
machine) kills the process with SIGILL on the first decode: a Python fatal error with no
hint of the cause. So the model is first loaded and run in a child process; if the child
dies by a signal the user gets one sentence naming the build flag that fixes it. A probe
that passed is remembered per (library files, CPU flags), so it costs ~1 s once per machine.

Run as `python -m garp.engine.native_probe MODEL THREADS TOKENS`: prints one JSON object.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import platform
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from garp.errors import GarpError

PROBE_PROMPT = "The town square was quiet in the morning. The baker"
PROBE_TIMEOUT_S = 180  # a healthy probe takes ~1 s; a 2-core machine under load may take far longer
REBUILD_HINT = ("rebuild llama-cpp-python for a portable instruction set: `make clean && make test` "
                "(the Makefile's default LLAMA_BUILD=portable), or by hand `CMAKE_ARGS=\"-DGGML_NATIVE=OFF "
                "-DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DGGML_AVX512=OFF -DGGML_AMX_TILE=OFF "
                "-DGGML_AMX_INT8=OFF\" pip install --force-reinstall --no-cache-dir llama-cpp-python==0.3.36`")


@dataclass(frozen=True)
class ProbeResult:
    system_info: str  # llama.cpp's compiled-in CPU features ("AVX2 = 1 | AMX_INT8 = 0 | ...")
    threads: int
    load_s: float
    tokens: int
    tokens_per_s: float
    text: str


def _cpuinfo_field(*names: str) -> str | None:
    """The first /proc/cpuinfo value under one of `names` (Linux), else None."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith(names):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return None


def cpu_flags() -> list[str]:
    """The CPU's advertised feature flags (Linux /proc/cpuinfo; elsewhere the machine name)."""
    flags = _cpuinfo_field("flags", "Features")
    return sorted(set(flags.split())) if flags else [platform.machine()]


def cpu_model() -> str:
    return _cpuinfo_field("model name") or platform.processor() or platform.machine()


def _library_files() -> list[Path]:
    spec = importlib.util.find_spec("llama_cpp")
    if spec is None or not spec.submodule_search_locations:
        raise GarpError("llama-cpp-python is not installed; run `make test` (it builds it) "
                        "or `pip install llama-cpp-python==0.3.36`")
    lib = Path(list(spec.submodule_search_locations)[0]) / "lib"
    return sorted(p for p in lib.glob("*") if p.is_file())


def build_key() -> str:
    """Identifies this library build on this CPU: a copied venv or a rebuild gets a new key."""
    h = hashlib.sha256(" ".join(cpu_flags()).encode())
    for p in _library_files():
        st = p.stat()
        h.update(f"{p.name}:{st.st_size}:{int(st.st_mtime)}".encode())
    return h.hexdigest()[:16]


def _marker() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "garp" / "native-probe-ok.json"


def probe(model_path: Path, threads: int, tokens: int = 16, python: str = sys.executable) -> ProbeResult:
    """Load and run the model in a child process; a crash becomes a `GarpError` that says why."""
    cmd = [python, "-m", "garp.engine.native_probe", str(model_path), str(threads), str(tokens)]
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=PROBE_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        raise GarpError(f"llama.cpp did not generate {tokens} tokens within {PROBE_TIMEOUT_S} s with "
                        f"{threads} threads; the machine is overloaded or the build is broken") from None
    if done.returncode < 0:
        raise GarpError(_crash_message(-done.returncode))
    if done.returncode != 0:
        tail = (done.stderr.strip().splitlines() or ["no output"])[-1]
        raise GarpError(f"llama.cpp could not run the model {model_path}: {tail}")
    return ProbeResult(**json.loads(done.stdout.strip().splitlines()[-1]))


def _crash_message(signum: int) -> str:
    try:
        name = signal.Signals(signum).name
    except ValueError:
        name = f"signal {signum}"
    if signum == signal.SIGILL:
        advertised = [f for f in cpu_flags() if f.startswith(("amx", "avx512"))]
        why = (f" (this CPU advertises {', '.join(advertised[:4])}, which a virtual machine may not enable)"
               if advertised else "")
        return (f"llama.cpp crashed with SIGILL (illegal instruction): llama-cpp-python was compiled for "
                f"CPU instructions this machine does not allow{why}; {REBUILD_HINT}")
    return f"llama.cpp crashed with {name} while generating; {REBUILD_HINT}, or report the crash"


def ensure_runs(model_path: Path, threads: int) -> None:
    """Probe once per (build, CPU); raise a clear `GarpError` instead of dying in-process."""
    if os.environ.get("GARP_SKIP_NATIVE_PROBE") == "1":
        return
    key, marker = build_key(), _marker()
    try:
        if json.loads(marker.read_text()).get("key") == key:
            return
    except (OSError, ValueError, AttributeError):
        pass
    probe(model_path, threads, tokens=4)
    try:
        marker.parent.mkdir(parents=True, exist_ok=True)
        marker.write_text(json.dumps({"key": key, "checked": time.strftime("%Y-%m-%d %H:%M:%S")}))
    except OSError:
        pass  # an unwritable cache only means the probe runs again next time


def _child(model_path: str, threads: int, tokens: int) -> None:
    import llama_cpp

    start = time.perf_counter()
    llm = llama_cpp.Llama(model_path=model_path, n_ctx=512, n_threads=threads, n_threads_batch=threads,
                          verbose=False)
    loaded = time.perf_counter()
    out = llm.create_completion(PROBE_PROMPT, max_tokens=tokens, temperature=0.0, seed=0)
    spent = time.perf_counter() - loaded
    made = int(out["usage"]["completion_tokens"])
    print(json.dumps({"system_info": llama_cpp.llama_print_system_info().decode(errors="replace").strip(),
                      "threads": threads, "load_s": round(loaded - start, 3), "tokens": made,
                      "tokens_per_s": round(made / spent, 1) if spent > 0 else 0.0,
                      "text": out["choices"][0]["text"]}))


if __name__ == "__main__":
    _child(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]))
