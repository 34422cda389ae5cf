"""The cognition thread: an asyncio loop with one coroutine pipeline per agent.

The main thread submits `Job`s (garp.sim.messages: a snapshot of what the agent saw, the
game time it was asked at and the game time its answer is due); a handler coroutine turns
each job into `Command`s, which come back through a thread-safe queue as `Reply`s tagged
with the job's request id, asked-at and due times. The main thread applies them (it is the single writer of the world).

Two modes:
- real time (play): one worker per agent, so a slow reflection of one agent never holds
  up another's decision; the scheduler orders the model calls by deadline.
- lockstep (headless): one worker runs every job in submission order, so memory writes
  and retrievals happen in the same order on a fast or a slow machine; the lockstep
  runner waits for the jobs that are due before it advances the clock (DESIGN.md).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import itertools
import queue
import threading
import traceback
from contextvars import ContextVar
from typing import Any, Awaitable, Callable

from garp.sim.messages import Command, Job, Reply

# --- tunables ---------------------------------------------------------------------------
JOIN_TIMEOUT_S = 30.0  # wall seconds close() waits for the loop thread
# Play: a request's deadline, wall s (IV-A lead): a job's chained calls share one, each call of a
# conversation after the decision to talk gets its own. Past it (+ the scheduler's grace) the
# fallback answers. Lockstep passes none, so results never depend on speed.
REQUEST_DEADLINE_WALL_S = 20.0


Handler = Callable[[Job], Awaitable[list[Command]]]

# The running job's way to hand a command over before the job ends (set by the worker running it).
_SEND_EARLY: ContextVar[Callable[[Command], None] | None] = ContextVar("send_early", default=None)


def send_early(command: Command) -> bool:
    """Hand `command` to the main thread now, ahead of the running job's other commands (a talk's
    lines while its memories and appraisals are still being made: play shows them sooner). It
    waits for the job's due time like the rest; lockstep applies everything at that time, so
    nothing changes there. False outside a cognition job: the caller returns it with the others."""
    send = _SEND_EARLY.get()
    if send is None:
        return False
    send(command)
    return True


class CognitionThread:
    """Owns the background asyncio loop; the main thread talks to it only through queues."""

    def __init__(self, handler: Handler, *, sequential: bool, on_error: Callable[[Job, BaseException, str], list[Command]]):
        self._handler = handler
        self._on_error = on_error
        self.sequential = sequential
        self.results: queue.Queue[Reply] = queue.Queue()
        self._ids = itertools.count(1)
        self._lock = threading.Condition()
        self._outstanding: dict[int, Job] = {}
        self._loop = asyncio.new_event_loop()
        self._queues: dict[str, asyncio.Queue[tuple[int, Job]]] = {}
        self._workers: list[asyncio.Task] = []
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, name="garp-cognition", daemon=True)
        self._closed = False

    # --- lifecycle -------------------------------------------------------------------------
    def start(self) -> None:
        self._thread.start()
        self._ready.wait()

    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)
        self._loop.call_soon(self._ready.set)
        self._loop.run_forever()
        # cancel whatever is left so the loop closes cleanly
        pending = asyncio.all_tasks(self._loop)
        for task in pending:
            task.cancel()
        if pending:
            self._loop.run_until_complete(asyncio.gather(*pending, return_exceptions=True))
        self._loop.close()

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        if self._thread.is_alive():
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(JOIN_TIMEOUT_S)

    # --- submitting (main thread) --------------------------------------------------------------
    def submit(self, job: Job) -> int:
        """Queue a job; returns its request id."""
        job_id = next(self._ids)
        with self._lock:
            self._outstanding[job_id] = job
        self._loop.call_soon_threadsafe(self._enqueue, job_id, job)
        return job_id

    def next_id(self) -> int:
        """The request id the next job gets (a save keeps it: pending ids stay unique)."""
        n = next(self._ids)
        self._ids = itertools.count(n)
        return n

    def resume_ids(self, first: int) -> None:
        """Number the next jobs from `first` on (a resumed run continues the saved numbering)."""
        self._ids = itertools.count(first)

    def outstanding_ids(self) -> set[int]:
        with self._lock:
            return set(self._outstanding)

    def post(self, fn: Callable[[], None]) -> None:
        """Run `fn` on the cognition thread between jobs, in order with the jobs submitted
        before and after it (how the main thread changes cognition-owned state)."""
        self._loop.call_soon_threadsafe(fn)

    def run(self, coro: Awaitable[Any]) -> concurrent.futures.Future:
        """Run any coroutine on the cognition loop (interviews); returns a thread-safe future."""
        return asyncio.run_coroutine_threadsafe(coro, self._loop)

    def _enqueue(self, job_id: int, job: Job) -> None:
        lane = "all" if self.sequential else job.agent
        q = self._queues.get(lane)
        if q is None:
            q = self._queues[lane] = asyncio.Queue()
            self._workers.append(self._loop.create_task(self._worker(q), name=f"agent:{lane}"))
        q.put_nowait((job_id, job))

    def _sender(self, job_id: int, job: Job) -> Callable[[Command], None]:
        """Posts one of the job's commands to the main thread, tagged as its reply."""
        return lambda c: self.results.put(Reply(c, job_id, job.asked_t, job.due_t, job.kind))

    async def _worker(self, q: asyncio.Queue[tuple[int, Job]]) -> None:
        while True:
            job_id, job = await q.get()
            send = self._sender(job_id, job)
            token = _SEND_EARLY.set(send)
            try:
                commands = await self._handler(job)
            except asyncio.CancelledError:
                raise
            except BaseException as err:  # a failed job must never freeze its agent
                commands = self._on_error(job, err, traceback.format_exc(limit=6))
            finally:
                _SEND_EARLY.reset(token)
            for c in commands:
                send(c)
            with self._lock:
                self._outstanding.pop(job_id, None)
                self._lock.notify_all()

    # --- waiting (lockstep) -----------------------------------------------------------------------
    def outstanding(self) -> list[Job]:
        with self._lock:
            return list(self._outstanding.values())

    def wait_due(self, t: float, timeout: float | None = None) -> bool:
        """Block until no outstanding job is due at or before game time `t`."""
        with self._lock:
            return self._lock.wait_for(
                lambda: all(j.due_t > t for j in self._outstanding.values()), timeout)

    def wait_idle(self, timeout: float | None = None) -> bool:
        with self._lock:
            return self._lock.wait_for(lambda: not self._outstanding, timeout)

    def drain(self) -> list[Reply]:
        out = []
        while True:
            try:
                out.append(self.results.get_nowait())
            except queue.Empty:
                return out
