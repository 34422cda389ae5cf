"""The thread budget (issue #17): one place decides how many threads each compute user gets.

llama.cpp's CPU threads meet at a spinning barrier after every operation, so a thread that
loses its core to another busy thread stalls all of them: on 2 cores, two llama.cpp
processes of 2 threads each fell from ~55 to ~1.5 tok/s. So the threads that compute
together never outnumber the cores:
- llama.cpp gets every core, minus one while a window is rendering on a machine of at most
  4 cores (the render thread is busy every frame);
- torch (the embedder) computes under `COMPUTE`, the lock a batch step holds, so an
  embedding never runs beside a decode; it takes turns with llama.cpp on the same cores and
  gets the same number of intra-op threads (and one inter-op thread). Headless runs keep
  every core for both, as the recordings were made (vectors differ in the 7th decimal
  between 1 and 2 torch threads).
"""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass

# Tunables
RENDER_RESERVE_MAX_CORES = 4  # up to this many cores, a rendering game keeps one core off llama.cpp



class FairLock:
    """First come, first served: the batch loop re-taking the lock after every step cannot
    starve a scoring pass or an embedding that is waiting for it."""

    def __init__(self) -> None:
        self._cv = threading.Condition(threading.Lock())
        self._next_ticket = self._serving = 0

    def __enter__(self) -> "FairLock":
        with self._cv:
            ticket, self._next_ticket = self._next_ticket, self._next_ticket + 1
            while ticket != self._serving:
                self._cv.wait()
        return self

    def __exit__(self, *exc) -> None:
        with self._cv:
            self._serving += 1
            self._cv.notify_all()


COMPUTE = FairLock()  # held by whoever computes on the cores: a batch step, a scoring pass, an embedding
_rendering = False


@dataclass(frozen=True)
class ThreadBudget:
    cores: int
    llama: int   # llama.cpp threads (generation and prompt processing)
    torch: int   # torch intra-op threads (the sentence embedder), taking turns with llama.cpp


def usable_cores() -> int:
    """Cores this process may run on (a container or `taskset` may allow fewer than the machine has)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def reserve_for_rendering(on: bool = True) -> None:
    """Called by the game before it loads the model: a window will be drawing every frame."""
    global _rendering
    _rendering = on


def thread_budget(cores: int | None = None, rendering: bool | None = None) -> ThreadBudget:
    n = cores or usable_cores()
    rendering = _rendering if rendering is None else rendering
    reserve = 1 if rendering and 1 < n <= RENDER_RESERVE_MAX_CORES else 0
    return ThreadBudget(cores=n, llama=max(1, n - reserve), torch=max(1, n - reserve))


def limit_torch(torch) -> None:
    """Set torch's pools before its first parallel op (set_num_interop_threads refuses afterwards)."""
    torch.set_num_threads(thread_budget().torch)
    try:
        torch.set_num_interop_threads(1)
    except RuntimeError:  # already running parallel work: the intra-op limit above still holds
        pass
