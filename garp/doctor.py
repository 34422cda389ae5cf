"""`garp doctor`: can this machine run the town? One report, one clear verdict.

It prints the CPU and the features it advertises, the instruction sets llama.cpp was
compiled for, a tokens/s figure from the bundled model run in a child process (so a build
that crashes on this CPU is reported with the fix instead of killing the command), the
torch build the embedder uses, and where the game's data files were found. `--quick`
skips the embedder (its torch import takes ~5 s). Exit code 0 when everything works.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
from importlib import metadata

from garp import paths
from garp.engine import native_probe
from garp.errors import GarpError

SHOWN_FLAGS = ("sse4_2", "avx", "avx2", "fma", "f16c", "bmi2", "avx512f", "avx512_vnni", "avx512_bf16",
               "amx_tile", "amx_int8", "amx_bf16", "neon", "asimd", "sve")  # what ggml's kernels care about
PROBE_TOKENS = 64


def _version(package: str) -> str:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return "not installed"


def _cpu_section() -> dict:
    flags = set(native_probe.cpu_flags())
    return {"model": native_probe.cpu_model(), "machine": platform.machine(), "cores": os.cpu_count(),
            "usable_cores": len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count(),
            "features": [f for f in SHOWN_FLAGS if f in flags]}


def _model_section(model: str | None, threads: int | None) -> dict:
    from garp.engine.models import resolve_model

    spec = resolve_model(model)
    n = threads or spec.profile.n_threads or os.cpu_count() or 1
    result = native_probe.probe(spec.path, n, tokens=PROBE_TOKENS)
    return {"name": spec.name, "path": str(spec.path), "llama_cpp_python": _version("llama-cpp-python"),
            "compiled_for": result.system_info, "threads": result.threads, "load_s": result.load_s,
            "tokens": result.tokens, "tokens_per_s": result.tokens_per_s}


def _embedder_section() -> dict:
    import torch

    from garp.engine.embedder import DIM, Embedder

    vec = Embedder().embed_one("The baker opens the cafe at six.")
    if vec.shape != (DIM,):
        raise GarpError(f"embedder returned a vector of shape {vec.shape}, expected ({DIM},)")
    return {"torch": torch.__version__, "cuda": torch.version.cuda, "torch_threads": torch.get_num_threads(),
            "dim": int(vec.shape[0])}


def _data_section() -> dict:
    missing = [str(p) for p in (paths.MAPS, paths.PERSONAS, paths.SCENARIOS, paths.MODELS) if not p.is_dir()]
    if missing:
        raise GarpError(f"game data not found: {', '.join(missing)}; run garp from a checkout of the project "
                        "or set GARP_DATA_DIR to the folder that holds assets/, personas/, scenarios/ and models/")
    return {"data_dir": str(paths.DATA_ROOT), "runs_dir": str(paths.RUNS)}


def run_checks(model: str | None, threads: int | None, quick: bool) -> dict:
    report = {"python": f"{platform.python_version()} ({sys.executable})", "cpu": _cpu_section(),
              "data": _data_section(), "model": _model_section(model, threads)}
    if not quick:
        report["embedder"] = _embedder_section()
    return report


def _print_report(r: dict) -> None:
    cpu, m = r["cpu"], r["model"]
    print(f"python      {r['python']}")
    print(f"cpu         {cpu['model']} ({cpu['machine']}), {cpu['usable_cores']} of {cpu['cores']} cores usable")
    print(f"            advertises: {' '.join(cpu['features']) or 'none of the listed'}")
    print(f"llama.cpp   llama-cpp-python {m['llama_cpp_python']}, compiled for: {m['compiled_for']}")
    print(f"model       {m['name']} ({m['path']})")
    print(f"generation  {m['tokens']} tokens at {m['tokens_per_s']} tok/s with {m['threads']} threads "
          f"(load {m['load_s']} s)")
    if "embedder" in r:
        e = r["embedder"]
        build = f"CUDA {e['cuda']}" if e["cuda"] else "CPU build"
        print(f"embedder    torch {e['torch']} ({build}), {e['torch_threads']} threads, {e['dim']}-d vectors")
    print(f"data        {r['data']['data_dir']} (runs go to {r['data']['runs_dir']})")
    print("doctor: everything works")


def cmd_doctor(args: argparse.Namespace) -> int:
    report = run_checks(args.model, args.threads, args.quick)
    if args.json:
        print(json.dumps(report))
    else:
        _print_report(report)
    return 0
