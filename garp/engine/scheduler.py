"""InferenceScheduler: the one owner of the model (paper Sec. IV-E).

Requests wait in a priority queue ordered by (deadline, priority, arrival). The scheduler
runs `backend.max_in_flight` workers: an embedded model decodes their requests together in
one batch (garp/engine/batch_engine.py), a server pool spreads them over its endpoints. The asyncio API
resolves futures on the caller's loop (via `call_soon_threadsafe`), so the cognition
loop awaits model calls while the game thread keeps rendering.

Deadlines are `time.monotonic()` seconds (use `deadline_in(seconds)`); requests
without a deadline go after all requests that have one.
"""

from __future__ import annotations

import asyncio
import collections
import concurrent.futures as cf
import contextlib
import heapq
import itertools
import math
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Callable

from garp.engine.lmfunction import (SCORE_PREFIX, CallRecord, LMFunction, best_utility, new_record,
                                    run_choice, run_function)
from garp.errors import GarpError

# Tunables
DEFAULT_CHOICE_MODE = "score"  # benchmarks/decision_modes.py: score beats generate on SmolLM2-135M
DEFAULT_BLEND = 0.5            # weight of caller utilities against model log-likelihood in score mode
DEFAULT_CALIBRATE = True       # score mode subtracts each option's likelihood without the situation (PMI)
STALE_AFTER_S = 5.0            # a droppable request this far past its deadline is answered by its fallback
TOK_WINDOW_S = 60.0            # throughput window for stats(), wall seconds
CHOICE_PRIORITY = 3            # action choice sits between conversation lines (1-2) and poignancy (8)


@dataclass(order=True)
class _Request:
    key: tuple
    id: int = field(compare=False)
    run: Callable[[], tuple[Any, CallRecord]] = field(compare=False)
    fallback: Callable[[str], tuple[Any, CallRecord]] = field(compare=False)
    future: cf.Future = field(compare=False)
    deadline: float | None = field(compare=False)
    droppable: bool = field(compare=False)
    enqueued: float = field(compare=False)


class InferenceScheduler:
    def __init__(self, backend, cache=None, recorder: Callable[[CallRecord], None] | None = None,
                 workers: int | None = None, seed: int = 0, choice_mode: str = DEFAULT_CHOICE_MODE):
        self.backend, self.cache, self.recorder, self.seed = backend, cache, recorder, seed
        self.choice_mode = choice_mode
        # an embedded model batches its concurrent requests, a server pool spreads them: both say how many
        self.workers = workers or getattr(backend, "max_in_flight", 1)
        self._heap: list[_Request] = []
        self._by_id: dict[int, _Request] = {}
        self._cv = threading.Condition()
        self._seq = itertools.count()
        self._ids = itertools.count(1)
        self._threads: list[threading.Thread] = []
        self._running = False
        self._in_flight = 0
        self._calls = 0
        self._tokens: collections.deque[tuple[float, int]] = collections.deque()
        self._started_at = time.monotonic()

    # ------------------------------------------------------------ lifecycle
    def start(self) -> "InferenceScheduler":
        with self._cv:
            if self._running:
                return self
            self._running = True
        for i in range(self.workers):
            t = threading.Thread(target=self._worker, name=f"garp-inference-{i}", daemon=True)
            t.start()
            self._threads.append(t)
        return self

    def stop(self) -> None:
        """Join the workers; requests still queued are answered by their fallbacks."""
        with self._cv:
            self._running = False
            pending, self._heap = self._heap, []
            self._cv.notify_all()
        for t in self._threads:
            t.join()
        self._threads.clear()
        for req in pending:
            self._by_id.pop(req.id, None)
            if req.future.set_running_or_notify_cancel():
                self._finish(req, req.fallback("scheduler stopped"))

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()

    @staticmethod
    def deadline_in(seconds: float) -> float:
        return time.monotonic() + seconds

    # ------------------------------------------------------------ submission
    def submit(self, run, fallback, *, priority: int, deadline: float | None, droppable: bool = True) -> tuple[int, cf.Future]:
        req_id = next(self._ids)
        fut: cf.Future = cf.Future()
        key = (deadline if deadline is not None else math.inf, priority, next(self._seq))
        req = _Request(key, req_id, run, fallback, fut, deadline, droppable, time.monotonic())
        with self._cv:
            if not self._running:
                raise GarpError("inference scheduler is not running: call start() first")
            heapq.heappush(self._heap, req)
            self._by_id[req_id] = req
            self._cv.notify()
        return req_id, fut

    def cancel(self, request_id: int) -> bool:
        """Cancel a queued request; a running one finishes but its result is dropped."""
        with self._cv:
            req = self._by_id.get(request_id)
        return bool(req and req.future.cancel())

    def submit_function(self, fn: LMFunction, inputs, *, agent: str, deadline: float | None = None,
                        game_time: float = 0.0, retrieved: list | None = None) -> tuple[int, cf.Future]:
        def run():
            with self._lease() as backend:
                out, rec = run_function(fn, inputs, backend, agent=agent, game_time=game_time,
                                        cache=self.cache, seed=self.seed, retrieved=retrieved)
                _served_by(rec, backend)
            return out, rec

        def fallback(reason: str):
            rec = new_record(agent, fn.name, game_time, [], retrieved)
            out = fn.fallback(inputs)
            rec.fallback_used, rec.error, rec.parsed = True, reason, out.model_dump(mode="json")
            return out, rec

        return self.submit(run, fallback, priority=fn.priority, deadline=deadline)

    async def call(self, fn: LMFunction, inputs, *, agent: str, deadline: float | None = None,
                   game_time: float = 0.0, retrieved: list | None = None):
        """Await one LM function call -> (output, CallRecord). Cancelling the task cancels the request."""
        _, fut = self.submit_function(fn, inputs, agent=agent, deadline=deadline, game_time=game_time,
                                      retrieved=retrieved)
        return await asyncio.wrap_future(fut)

    def call_sync(self, fn: LMFunction, inputs, *, agent: str, deadline: float | None = None,
                  game_time: float = 0.0, retrieved: list | None = None):
        return self.submit_function(fn, inputs, agent=agent, deadline=deadline, game_time=game_time,
                                    retrieved=retrieved)[1].result()

    def submit_choice(self, messages: list[dict], options: list[str], *, agent: str, utilities=None,
                      blend: float = DEFAULT_BLEND, mode: str | None = None, deadline: float | None = None,
                      game_time: float = 0.0, retrieved: list | None = None,
                      priority: int = CHOICE_PRIORITY, calibrate: bool = DEFAULT_CALIBRATE,
                      prefix: str = SCORE_PREFIX) -> tuple[int, cf.Future]:
        mode = mode or self.choice_mode
        if mode not in ("score", "generate"):
            raise GarpError(f"choice mode {mode!r}: must be 'score' or 'generate'")

        def run():
            kw = dict(agent=agent, utilities=utilities, blend=blend, cache=self.cache, seed=self.seed,
                      game_time=game_time, retrieved=retrieved, calibrate=calibrate, prefix=prefix)
            with self._lease() as backend:
                index, rec = run_choice(backend, messages, options, mode=mode, **kw)
                if mode == "score" and rec.fallback_used and not getattr(backend, "can_score", True):
                    # this endpoint has no prompt logprobs: generate this one call on it, and say so
                    index, rec = run_choice(backend, messages, options, mode="generate", **kw)
                    rec.note = f"{backend.endpoint_name} cannot score: constrained generation for this call"
                _served_by(rec, backend)
            return index, rec

        def fallback(reason: str):
            rec = new_record(agent, "choose", game_time, messages, retrieved, mode)
            index = best_utility(options, utilities)
            rec.fallback_used, rec.error, rec.parsed = True, reason, {"index": index, "choice": options[index]}
            return index, rec

        return self.submit(run, fallback, priority=priority, deadline=deadline)

    async def choose(self, messages: list[dict], options: list[str], *, agent: str, utilities=None,
                     blend: float = DEFAULT_BLEND, mode: str | None = None, deadline: float | None = None,
                     game_time: float = 0.0, retrieved: list | None = None,
                     calibrate: bool = DEFAULT_CALIBRATE, prefix: str = SCORE_PREFIX) -> tuple[int, CallRecord]:
        _, fut = self.submit_choice(messages, options, agent=agent, utilities=utilities, blend=blend, mode=mode,
                                    deadline=deadline, game_time=game_time, retrieved=retrieved,
                                    calibrate=calibrate, prefix=prefix)
        return await asyncio.wrap_future(fut)

    def choose_sync(self, messages, options, **kw) -> tuple[int, CallRecord]:
        return self.submit_choice(messages, options, **kw)[1].result()

    def _lease(self):
        """A server pool serves each call from one endpoint (a lease); an embedded model is itself."""
        lease = getattr(self.backend, "lease", None)
        return lease() if callable(lease) else contextlib.nullcontext(self.backend)

    # ------------------------------------------------------------ worker
    def _next(self) -> _Request | None:
        with self._cv:
            while True:
                while self._running and not self._heap:
                    self._cv.wait()
                if not self._running:
                    return None
                req = heapq.heappop(self._heap)
                self._by_id.pop(req.id, None)
                if req.future.set_running_or_notify_cancel():  # False: cancelled while queued
                    self._in_flight += 1
                    return req

    def _worker(self) -> None:
        while (req := self._next()) is not None:
            wait = time.monotonic() - req.enqueued
            try:
                if req.droppable and req.deadline is not None and time.monotonic() - req.deadline > STALE_AFTER_S:
                    result = req.fallback(f"stale: {time.monotonic() - req.deadline:.1f} s past its deadline")
                else:
                    result = req.run()
            except Exception as e:  # noqa: BLE001 — run_* never raise; this guards the fallback path too
                result = req.fallback(f"{type(e).__name__}: {e}")
            result[1].queue_wait_s = wait
            with self._cv:
                self._in_flight -= 1
            self._finish(req, result)

    def _finish(self, req: _Request, result: tuple[Any, CallRecord]) -> None:
        rec = result[1]
        now = time.monotonic()
        with self._cv:
            self._calls += 1
            if rec.completion_tokens and not rec.cached:
                self._tokens.append((now, rec.completion_tokens))
        if self.recorder is not None:
            try:
                self.recorder(rec)
            except Exception:  # noqa: BLE001 — a broken log sink must not kill inference
                pass
        if not req.future.cancelled():
            req.future.set_result(result)

    # ------------------------------------------------------------ observability
    def stats(self) -> dict:
        now = time.monotonic()
        with self._cv:
            while self._tokens and now - self._tokens[0][0] > TOK_WINDOW_S:
                self._tokens.popleft()
            window = min(TOK_WINDOW_S, max(now - self._started_at, 1e-6))
            out = {"queue_depth": len(self._heap), "in_flight": self._in_flight, "calls": self._calls,
                   "tok_s": sum(n for _, n in self._tokens) / window,
                   "cache_hits": getattr(self.cache, "hits", 0) if self.cache is not None else 0}
        endpoints = getattr(self.backend, "stats", None)  # a server pool: one dict per endpoint
        out["endpoints"] = endpoints() if callable(endpoints) else []
        return out


def _served_by(rec: CallRecord, backend: Any) -> None:
    """Copy what a server lease knows about the call into its record (nothing when embedded)."""
    rec.endpoint = getattr(backend, "endpoint_name", "")
    rec.unreachable = bool(getattr(backend, "unreachable", False))
