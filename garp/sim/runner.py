"""`garp run SCENARIO --headless`: the lockstep clock, no window, one event log."""

from __future__ import annotations

import os
import signal
import sys
import threading
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


class StopOnInterrupt:
    """Ctrl-C (SIGINT) during a headless run ends it after the current step, so the last save is
    taken between steps, never from a half-done one."""

    def __init__(self) -> None:
        self.requested = False
        self._previous: Any = None

    def __enter__(self) -> "StopOnInterrupt":
        if threading.current_thread() is threading.main_thread():
            self._previous = signal.signal(signal.SIGINT, self._stop)
        return self

    def _stop(self, signum: int, frame: Any) -> None:
        self.requested = True

    def __exit__(self, *exc: object) -> None:
        if self._previous is not None:
            signal.signal(signal.SIGINT, self._previous)


def run_headless(scenario: str | Path, args: Any, *, hours: float | None = None,
                 progress: Callable[[Any], None] | None = None, backend: Any = None, embedder: Any = None):
    """Build (or resume), run to the end (or `hours` more), save and close; returns the closed
    Simulation (`interrupted` says whether Ctrl-C ended it early)."""
    headless_env()
    from garp.sim.wiring import build
    sim = build(scenario, args, lockstep=True, backend=backend, embedder=embedder)
    stop = StopOnInterrupt()
    try:
        end = sim.scenario.end_seconds if hours is None else sim.clock.t + hours * 3600.0
        with stop:
            while sim.clock.t < end and not stop.requested:
                sim.step_lockstep()
                if progress:
                    progress(sim)
        sim.finish()
    except BaseException:
        sim.close(save=False)  # a step that failed half-way is no state to resume from
        raise
    sim.close()
    sim.interrupted = stop.requested
    return sim


def resume_hint(command: str, sim: Any) -> str:
    """How to go on from the run's last save (printed when a run ends or is interrupted)."""
    if sim.last_save is None:
        return ""
    return f"saved to {sim.last_save}; resume with: garp {command} --resume {sim.last_save.parent}"


def cmd_run(args: Any) -> int:
    label = Path(str(args.scenario)).stem
    progress = progress_printer(label)
    sim = run_headless(args.scenario, args, hours=getattr(args, "hours", None), progress=progress)
    progress(sim, final=True)
    errors = sum(1 for e in sim.log.events if e["kind"] == "error")
    print(f"{label}: {len(sim.log.events)} events, {errors} errors -> {sim.log.path}")
    hint = resume_hint(f"run {args.scenario}", sim)
    if hint:
        print(f"{label}: {'interrupted; ' if sim.interrupted else ''}{hint}")
    if sim.interrupted:
        return 130
    from garp.engine.health import health_verdict
    healthy, line = health_verdict(sim.log.events)
    if line:
        print(f"{label}: {line}", file=sys.stderr)
    return 0 if healthy else 1
