"""InferenceScheduler: the one owner of the model (paper Sec. IV-E).

Requests wait in a queue ranked by value, then deadline (garp.engine.admission): a waiting
player's interview first, then lines of characters in focus, close choices, other lines,
plans, clear choices, appraisals, and poignancy and reflection last. A request with a deadline
that cannot be served in time given the work ranked ahead of it is answered by its fallback at
once ("admission: ..."), one popped more than STALE_AFTER_S late likewise ("stale: ..."), and
the queue holds at most `bound` requests with deadlines (the lowest-value one is answered by code
when it is full). Requests without a deadline (lockstep runs, interviews) are never refused.

The scheduler runs `backend.max_in_flight` workers: an embedded model decodes their requests
together in one batch (garp/engine/batch_engine.py), a server pool spreads them over its
endpoints. The asyncio API resolves futures on the caller's loop (via `call_soon_threadsafe`),
so the cognition loop awaits model calls while the game renders.
Deadlines are `time.monotonic()` seconds (use `deadline_in(seconds)`).
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

from garp.engine import admission as adm
from garp.engine.lmfunction import (SCORE_PREFIX, CallRecord, LMFunction, answered_by_code, best_utility,
                                    new_record, run_choice, run_function)
from garp.engine.threads import urgent
from garp.errors import GarpError

# Tunables
DEFAULT_CHOICE_MODE = "score"  # benchmarks/decision_modes.py: score beats generate on SmolLM2-135M
DEFAULT_BLEND = 0.5            # weight of caller utilities against model log-likelihood in score mode
DEFAULT_CALIBRATE = True       # score mode subtracts each option's likelihood without the situation (PMI)
STALE_AFTER_S = 5.0            # a reply this late is still used; later, the fallback answers instead
BUSY_SAMPLE_S = 1.0            # wall seconds between samples of the model's busy time
TOK_WINDOW_S = 60.0            # throughput window for stats(), wall seconds
CHOICE_PRIORITY = 3            # action choice sits between conversation lines (1-2) and poignancy (8)
DEFAULT_BOUND = 64             # queued requests with deadlines; the game sets 2 x its cast (set_bound)
SATURATED_LOAD = 1.0           # demand (machine s per wall s) above which the model cannot keep up
MEASURE_SYSTEM = "You are one of the people of a small town. Answer in one or two short sentences."
MEASURE_PLACES = ("the bakery", "the park", "the library", "the harbour", "the school", "the cafe", "the pub", "the farm")


def measure_prompt(i: int) -> list[dict]:
    """A prompt of the town's mix (the recordings' mean call: ~320 prompt tokens, ~30 made), one
    per worker: a shared head, then memories of its own, so prompt processing is paid as in play."""
    memories = " ".join(f"[{k}] Day {k}: at {MEASURE_PLACES[(i + k) % 8]} a neighbour waved and we spoke "
                        f"about the weather." for k in range(14))
    return [{"role": "system", "content": MEASURE_SYSTEM},
            {"role": "user", "content": f"Memories: {memories}\nYou are at {MEASURE_PLACES[i % 8]}. What do you do?"}]


@dataclass(order=True)
class _Request:
    key: tuple  # (value rank, deadline, priority, arrival)
    id: int = field(compare=False)
    run: Callable[[], tuple[Any, CallRecord]] = field(compare=False)
    fallback: Callable[[str], tuple[Any, CallRecord]] = field(compare=False)
    future: cf.Future = field(compare=False)
    deadline: float | None = field(compare=False)
    droppable: bool = field(compare=False)
    enqueued: float = field(compare=False)
    cost: "_Cost" = field(compare=False)
    began: float = field(default=0.0, compare=False)  # the share clock when it started running


@dataclass(frozen=True)
class _Cost:
    """What a request is worth and what it will cost: its value class, the agent (for focus),
    whether its options are close, and its cost key, units (options) and estimated work."""

    value: str
    agent: str
    close: bool
    key: str
    units: int
    work_s: float


class InferenceScheduler:
    def __init__(self, backend, cache=None, recorder: Callable[[CallRecord], None] | None = None,
                 workers: int | None = None, seed: int = 0, choice_mode: str = DEFAULT_CHOICE_MODE):
        self.backend, self.cache, self.recorder, self.seed = backend, cache, recorder, seed
        self.choice_mode = choice_mode
        # an embedded model batches its concurrent requests, a server pool spreads them: both say how many
        self.workers = workers or getattr(backend, "max_in_flight", 1)
        self.bound = DEFAULT_BOUND
        self.focus: frozenset[str] = frozenset()
        self.costs = adm.CostModel()
        self.measured_tok_s = 0.0  # the quick figure from measure_tok_s(), 0 until measured
        self._heap: list[_Request] = []
        self._by_id: dict[int, _Request] = {}
        self._running_reqs: dict[int, _Request] = {}
        self._cv = threading.Condition()
        self._seq = itertools.count()
        self._ids = itertools.count(1)
        self._threads: list[threading.Thread] = []
        self._running = False
        self._in_flight = 0
        self._calls = 0
        self._counts: collections.Counter[str] = collections.Counter()
        self._tokens: collections.deque[tuple[float, int]] = collections.deque()
        self._started_at = time.monotonic()
        self._share = adm.ShareClock(self._started_at)
        self._busy_samples = collections.deque([(self._started_at, 0.0)])  # (wall t, busy_s), oldest first
        self._demand = adm.DemandMeter()

    # ------------------------------------------------------------ lifecycle
    def start(self) -> "InferenceScheduler":
        with self._cv:
            if self._running:
                return self
            self._running = True
        for i in range(self.workers + 1):  # the last one serves only a waiting player (_next)
            express = i == self.workers
            t = threading.Thread(target=self._worker, args=(express,), daemon=True,
                                 name="garp-inference-player" if express else f"garp-inference-{i}")
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
            self._answer_by_code(req, "scheduler stopped")

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()

    @staticmethod
    def deadline_in(seconds: float) -> float:
        return time.monotonic() + seconds

    # ------------------------------------------------------------ focus and bound
    def set_focus(self, names: frozenset[str]) -> None:
        """The characters the player sees or selected (an immutable value from the game's thread):
        their conversation lines rank above everyone else's."""
        names = frozenset(names)
        with self._cv:
            if names == self.focus:
                return
            self.focus = names
            for req in self._heap:
                req.key = (self._rank(req.cost),) + req.key[1:]
            heapq.heapify(self._heap)

    def set_bound(self, bound: int) -> None:
        """At most `bound` queued requests with deadlines (at least 1)."""
        with self._cv:
            self.bound = max(1, int(bound))

    def _rank(self, cost: _Cost) -> int:
        return adm.rank(cost.value, focused=cost.agent in self.focus, close=cost.close)

    # ------------------------------------------------------------ submission
    def submit(self, run, fallback, *, priority: int, deadline: float | None, droppable: bool = True,
               value: str = adm.PLAN, agent: str = "", close: bool = True, cost_key: str = "",
               units: int = 1) -> tuple[int, cf.Future]:
        """Queue `run` (or answer by `fallback` at once when admission refuses it)."""
        now = time.monotonic()
        cost = _Cost(value, agent, close, cost_key, units, self.costs.estimate(cost_key, units))
        req = _Request((0, math.inf, priority, next(self._seq)), next(self._ids), run, fallback, cf.Future(),
                       deadline, droppable, now, cost)
        with self._cv:
            if not self._running:
                raise GarpError("inference scheduler is not running: call start() first")
            req.key = (self._rank(cost), deadline if deadline is not None else math.inf) + req.key[2:]
            if deadline is not None:
                self._demand.add(now, cost.work_s)
            refused = self._admit(req, now)
            if refused is None:
                heapq.heappush(self._heap, req)
                self._by_id[req.id] = req
                refused = self._over_bound()
                self._cv.notify_all()  # the express worker waits for interviews only
        if refused is not None:
            self._answer_by_code(*refused)
        return req.id, req.future

    def _admit(self, req: _Request, now: float) -> tuple[_Request, str] | None:
        """(req, why) when it cannot be served by its deadline given the work ranked ahead of it."""
        if not req.droppable or req.deadline is None:
            return None
        ahead = self._in_flight_work(now) + sum(r.cost.work_s for r in self._heap if r.key < req.key)
        verdict = adm.admit(now, req.deadline, ahead, req.cost.work_s, STALE_AFTER_S)
        return None if verdict.reason is None else (req, verdict.reason)

    def _over_bound(self) -> tuple[_Request, str] | None:
        """When the queue holds more than `bound` requests with deadlines, its lowest-value one leaves."""
        sheddable = [r for r in self._heap if r.droppable and r.deadline is not None]
        if len(sheddable) <= self.bound:
            return None
        worst = max(sheddable)
        self._heap.remove(worst)
        heapq.heapify(self._heap)
        self._by_id.pop(worst.id, None)
        return worst, f"admission: queue full ({self.bound} queued); this was the lowest-value request"

    def _in_flight_work(self, now: float) -> float:
        """Estimated machine seconds the running requests still need."""
        share = self._share.now(now)
        return sum(max(0.0, r.cost.work_s - (share - r.began)) for r in self._running_reqs.values())

    def _answer_by_code(self, req: _Request, reason: str) -> None:
        if req.future.set_running_or_notify_cancel():
            self._finish(req, req.fallback(reason), refused=reason)

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
            return answered_by_code(fn, inputs, agent, game_time, retrieved, reason)

        return self.submit(run, fallback, priority=fn.priority, deadline=deadline, value=fn.value, agent=agent,
                           cost_key=fn.name)

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
                      blend: float = DEFAULT_BLEND, relevance: list[float] | None = None, mode: str | None = None,
                      deadline: float | None = None,
                      game_time: float = 0.0, retrieved: list | None = None,
                      priority: int = CHOICE_PRIORITY, calibrate: bool = DEFAULT_CALIBRATE,
                      prefix: str = SCORE_PREFIX) -> tuple[int, cf.Future]:
        mode = mode or self.choice_mode
        if mode not in ("score", "generate"):
            raise GarpError(f"choice mode {mode!r}: must be 'score' or 'generate'")

        def run():
            kw = dict(agent=agent, utilities=utilities, blend=blend, relevance=relevance, cache=self.cache,
                      seed=self.seed,
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

        return self.submit(run, fallback, priority=priority, deadline=deadline, value=adm.CHOICE, agent=agent,
                           close=adm.is_close(utilities), cost_key=f"choose:{mode}", units=len(options))

    async def choose(self, messages: list[dict], options: list[str], *, agent: str, utilities=None,
                     blend: float = DEFAULT_BLEND, relevance: list[float] | None = None, mode: str | None = None,
                     deadline: float | None = None, game_time: float = 0.0, retrieved: list | None = None,
                     calibrate: bool = DEFAULT_CALIBRATE, prefix: str = SCORE_PREFIX) -> tuple[int, CallRecord]:
        _, fut = self.submit_choice(messages, options, agent=agent, utilities=utilities, blend=blend,
                                    relevance=relevance, mode=mode, deadline=deadline, game_time=game_time,
                                    retrieved=retrieved, calibrate=calibrate, prefix=prefix)
        return await asyncio.wrap_future(fut)

    def choose_sync(self, messages, options, **kw) -> tuple[int, CallRecord]:
        return self.submit_choice(messages, options, **kw)[1].result()

    def _lease(self):
        """A server pool serves each call from one endpoint (a lease); an embedded model is itself."""
        lease = getattr(self.backend, "lease", None)
        return lease() if callable(lease) else contextlib.nullcontext(self.backend)

    # ------------------------------------------------------------ worker
    def _next(self, express: bool = False) -> tuple[_Request, str | None] | None:
        """The best request and, when it can no longer be served in time, why not. The express
        worker takes interviews only: a player's question never waits for a plan to finish
        decoding, only for a batch step (the embedded engine keeps a slot for it)."""
        with self._cv:
            while True:
                while self._running and not (self._heap and (not express or self._heap[0].key[0] == 0)):
                    self._cv.wait()
                if not self._running:
                    return None
                req = heapq.heappop(self._heap)
                self._by_id.pop(req.id, None)
                if not req.future.set_running_or_notify_cancel():  # cancelled while queued
                    continue
                now = time.monotonic()
                late = self._late(req, now)
                if late is None:
                    self._in_flight += 1
                    req.began = self._share.begin(now)
                    self._running_reqs[req.id] = req
                return req, late

    def _late(self, req: _Request, now: float) -> str | None:
        """Popped: stale when already too late, refused when its own work cannot end in time."""
        if not req.droppable or req.deadline is None:
            return None
        if now - req.deadline > STALE_AFTER_S:
            return f"stale: {now - req.deadline:.1f} s past its deadline"
        return adm.admit(now, req.deadline, self._in_flight_work(now), req.cost.work_s, STALE_AFTER_S).reason

    def _worker(self, express: bool = False) -> None:
        while (popped := self._next(express)) is not None:
            req, late = popped
            wait = time.monotonic() - req.enqueued
            try:
                with urgent(req.cost.value == adm.INTERVIEW):  # its scoring passes go first
                    result = req.fallback(late) if late else req.run()
            except Exception as e:  # noqa: BLE001 — run_* never raise; this guards the fallback path too
                result = req.fallback(f"{type(e).__name__}: {e}")
            result[1].queue_wait_s = wait
            if not late:
                self._ran(req, result[1])
            self._finish(req, result, refused=late)

    def _ran(self, req: _Request, rec: CallRecord) -> None:
        """A request left the model: its machine share teaches the cost model (cache hits teach nothing)."""
        with self._cv:
            self._in_flight -= 1
            self._running_reqs.pop(req.id, None)
            work = self._share.end(time.monotonic(), req.began)
            if not rec.cached and req.cost.key:
                self.costs.learn(req.cost.key, req.cost.units, work)

    def _finish(self, req: _Request, result: tuple[Any, CallRecord], refused: str | None) -> None:
        rec = result[1]
        now = time.monotonic()
        with self._cv:
            self._calls += 1
            self._counts[_outcome(rec, refused, req.deadline, now)] += 1
            if rec.completion_tokens and not rec.cached:
                self._tokens.append((now, rec.completion_tokens))
        if self.recorder is not None:
            try:
                self.recorder(rec)
            except Exception:  # noqa: BLE001 — a broken log sink must not kill inference
                pass
        if not req.future.cancelled():
            req.future.set_result(result)

    # ------------------------------------------------------------ throughput
    def measure_tok_s(self, tokens: int = 32) -> float:
        """A quick throughput figure before play: `workers` requests of the town's mix at once,
        straight to the backend (no cache), completion tokens per wall second (prompt included)."""
        def one(i: int):
            def run():
                with self._lease() as backend:
                    c = backend.complete(measure_prompt(i), max_tokens=tokens, temperature=0.0, seed=self.seed)
                return c.completion_tokens, new_record("", "measure", 0.0, [])
            return run

        start = time.monotonic()
        futures = [self.submit(one(i), lambda reason: (0, new_record("", "measure", 0.0, [])), priority=0,
                               deadline=None, value=adm.INTERVIEW)[1] for i in range(self.workers)]
        made = sum(f.result()[0] for f in futures)
        self.measured_tok_s = made / max(time.monotonic() - start, 1e-6)
        return self.measured_tok_s

    # ------------------------------------------------------------ observability
    def _busy_share(self, now: float) -> float:
        """Share of the last TOK_WINDOW_S wall seconds with a request on the model: in rank mode most
        of its work is scoring, which tok/s (generated tokens) does not show. Caller holds the lock."""
        busy = self._share.busy_at(now)
        if now - self._busy_samples[-1][0] >= BUSY_SAMPLE_S:
            self._busy_samples.append((now, busy))
        while len(self._busy_samples) > 1 and now - self._busy_samples[1][0] >= TOK_WINDOW_S:
            self._busy_samples.popleft()
        t0, b0 = self._busy_samples[0]
        return min(1.0, (busy - b0) / max(now - t0, 1e-6))

    def stats(self) -> dict:
        now = time.monotonic()
        with self._cv:
            while self._tokens and now - self._tokens[0][0] > TOK_WINDOW_S:
                self._tokens.popleft()
            window = min(TOK_WINDOW_S, max(now - self._started_at, 1e-6))
            load = self._demand.load(now)
            busy = self._busy_share(now)
            out = {"busy_share": busy, "queue_depth": len(self._heap), "bound": self.bound, "in_flight": self._in_flight,
                   "calls": self._calls, "tok_s": sum(n for _, n in self._tokens) / window,
                   "measured_tok_s": self.measured_tok_s, "load": load, "saturated": load > SATURATED_LOAD,
                   "work_ahead_s": self._in_flight_work(now) + sum(r.cost.work_s for r in self._heap),
                   "answered": {k: self._counts[k] for k in OUTCOMES},
                   "cache_hits": getattr(self.cache, "hits", 0) if self.cache is not None else 0}
        endpoints = getattr(self.backend, "stats", None)  # a server pool: one dict per endpoint
        out["endpoints"] = endpoints() if callable(endpoints) else []
        return out


# How a call ended (stats()["answered"]): by the model in time (or with no deadline) or late, by the
# model with an unusable reply (its fallback answered), by code for lateness, by code by admission.
OUTCOMES = ("model_on_time", "model_late", "invalid", "stale", "admission")


def _outcome(rec: CallRecord, refused: str | None, deadline: float | None, now: float) -> str:
    if refused is not None:
        return refused.split(":", 1)[0]  # "stale", "admission" (or "scheduler stopped")
    if rec.fallback_used:
        return "invalid"
    return "model_on_time" if deadline is None or now <= deadline else "model_late"


def _served_by(rec: CallRecord, backend: Any) -> None:
    """Copy what a server lease knows about the call into its record (nothing when embedded)."""
    rec.endpoint = getattr(backend, "endpoint_name", "")
    rec.unreachable = bool(getattr(backend, "unreachable", False))
