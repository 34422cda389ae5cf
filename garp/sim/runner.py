"""`garp run SCENARIO --headless`: the lockstep clock, no window, one event log."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import Any, Callable

# --- tunables ---------------------------------------------------------------------------
PROGRESS_EVERY_S = 1.0  # wall seconds between progress lines


def headless_env() -> None:
    """SDL dummy drivers and offline hub before anything imports pygame or transformers."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")


def progress_printer(label: str, stream=None) -> Callable[[Any], None]:
    stream = stream or sys.stderr
    state = {"last": 0.0, "t0": time.monotonic()}

    def show(sim: Any, final: bool = False) -> None:
        now = time.monotonic()
        if not final and now - state["last"] < PROGRESS_EVERY_S:
            return
        state["last"] = now
        start, end = sim.scenario.start_seconds, sim.scenario.end_seconds
        frac = min(1.0, (sim.clock.t - start) / max(1.0, end - start))
        st = sim.scheduler.stats()
        line = (f"\r{label}: {frac * 100:5.1f}%  game {sim.clock.date_label()}  "
                f"calls {st['calls']} (cache hits {st['cache_hits']})  wall {now - state['t0']:.0f}s")
        stream.write(line + ("\n" if final else ""))
        stream.flush()

    return show


def run_headless(scenario: str | Path, args: Any, *, hours: float | None = None,
                 progress: Callable[[Any], None] | None = None, backend: Any = None, embedder: Any = None):
    """Build, run to the end (or `hours`), close; returns the closed Simulation."""
    headless_env()
    from garp.sim.wiring import build
    sim = build(scenario, args, lockstep=True, backend=backend, embedder=embedder)
    try:
        end = sim.scenario.end_seconds if hours is None else sim.clock.t + hours * 3600.0
        while sim.clock.t < end:
            sim.step_lockstep()
            if progress:
                progress(sim)
        sim.finish()
    finally:
        sim.close()
    return sim


def cmd_run(args: Any) -> int:
    label = Path(str(args.scenario)).stem
    progress = progress_printer(label)
    sim = run_headless(args.scenario, args, hours=getattr(args, "hours", None), progress=progress)
    progress(sim, final=True)
    errors = sum(1 for e in sim.log.events if e["kind"] == "error")
    print(f"{label}: {len(sim.log.events)} events, {errors} errors -> {sim.log.path}")
    from garp.engine.health import health_verdict
    healthy, line = health_verdict(sim.log.events)
    if line:
        print(f"{label}: {line}", file=sys.stderr)
    return 0 if healthy else 1
