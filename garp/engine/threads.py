"""The thread budget (issue #17): one place decides how many threads each compute user gets.

llama.cpp's CPU threads meet at a spinning barrier after every operation, so a thread that
loses its core to another busy thread stalls all of them: on 2 cores, two llama.cpp
processes of 2 threads each fell from ~55 to ~1.5 tok/s. So the threads that compute
together never outnumber the cores:
- llama.cpp gets every core. Keeping one free for the game's render thread was measured and
  lost: in the 20-agent town on 2 cores (benchmarks/town_load.py, 75x, drawing every frame)
  1 thread made 26-28 tok/s and 2 threads 33-38; the frame loop sleeps most of each frame;
- torch (the embedder) computes under `COMPUTE`, the lock a batch step holds, so an
  embedding never runs beside a decode; it takes turns with llama.cpp on the same cores and
  gets the same number of intra-op threads (and one inter-op thread), as the recordings were
  made (vectors differ in the 7th decimal between 1 and 2 torch threads).
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Iterator
from dataclasses import dataclass


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

_URGENT = threading.local()


@contextlib.contextmanager
def urgent(flag: bool = True) -> Iterator[None]:
    """Mark the calling thread's work as a waiting player's (an interview) while the block runs."""
    before = getattr(_URGENT, "on", False)
    _URGENT.on = flag
    try:
        yield
    finally:
        _URGENT.on = before


def is_urgent() -> bool:
    return bool(getattr(_URGENT, "on", False))


class TurnLock:
    """One holder at a time; a thread marked `urgent` goes ahead of every other waiter, so a
    player's interview waits for the scoring pass in progress only, not for each one queued."""

    def __init__(self) -> None:
        self._cv = threading.Condition(threading.Lock())
        self._held = False
        self._urgent_waiting = 0

    def __enter__(self) -> "TurnLock":
        mine = is_urgent()
        with self._cv:
            self._urgent_waiting += mine
            while self._held or (not mine and self._urgent_waiting):
                self._cv.wait()
            self._urgent_waiting -= mine
            self._held = True
        return self

    def __exit__(self, *exc) -> None:
        with self._cv:
            self._held = False
            self._cv.notify_all()


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


def thread_budget(cores: int | None = None) -> ThreadBudget:
    n = cores or usable_cores()
    return ThreadBudget(cores=n, llama=n, torch=n)


def limit_torch(torch) -> None:
    """Set torch's pools before its first parallel op (set_num_interop_threads refuses afterwards)."""
    torch.set_num_threads(thread_budget().torch)
    try:
        torch.set_num_interop_threads(1)
    except RuntimeError:  # already running parallel work: the intra-op limit above still holds
        pass
