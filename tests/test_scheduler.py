"""InferenceScheduler: deadline order, cancellation, asyncio use, fallbacks, stop."""

import asyncio
import threading
import time

import pytest

from garp.engine.lmfunction import new_record
from garp.engine.scheduler import InferenceScheduler
from test_lmfunction import Greet, NeverGlad, Reply


def _blocker(sched, gate):
    """Occupy the single inference thread until `gate` is set."""
    started = threading.Event()

    def run():
        started.set()
        gate.wait(10)
        return "blocker", new_record("t", "block", 0.0, [])

    sched.submit(run, lambda reason: ("blocker", new_record("t", "block", 0.0, [])), priority=0, deadline=None)
    assert started.wait(10)


def _job(order, name):
    def run():
        order.append(name)
        return name, new_record("t", name, 0.0, [])
    return run, (lambda reason: (f"fallback:{reason}", new_record("t", name, 0.0, [])))


def test_deadline_then_priority_order_and_cancel(llm_backend):
    sched = InferenceScheduler(llm_backend).start()
    try:
        gate, order = threading.Event(), []
        _blocker(sched, gate)
        now = time.monotonic()
        futs = {}
        for name, prio, dl in [("late", 1, now + 50), ("none", 0, None), ("soon", 9, now + 5),
                               ("soon-urgent", 1, now + 5), ("cancel-me", 0, now + 1)]:
            rid, futs[name] = sched.submit(*_job(order, name), priority=prio, deadline=dl)
            if name == "cancel-me":
                assert sched.cancel(rid)
        assert sched.stats()["queue_depth"] == 5 and sched.stats()["in_flight"] == 1
        gate.set()
        assert futs["none"].result(10)[0] == "none"
        assert order == ["soon-urgent", "soon", "late", "none"] and futs["cancel-me"].cancelled()
    finally:
        sched.stop()


def test_stale_droppable_request_gets_fallback(llm_backend):
    sched = InferenceScheduler(llm_backend).start()
    try:
        order = []
        _, fut = sched.submit(*_job(order, "stale"), priority=0, deadline=time.monotonic() - 3600)
        assert fut.result(10)[0].startswith("fallback:stale") and order == []
    finally:
        sched.stop()


def test_async_call_while_another_thread_runs(scheduler):
    ticks = []
    stop = threading.Event()

    def render_loop():  # stands in for the pygame thread: it must keep running during inference
        while not stop.is_set():
            ticks.append(time.monotonic())
            time.sleep(0.005)

    t = threading.Thread(target=render_loop)
    t.start()

    async def main():
        a = asyncio.create_task(scheduler.call(Greet(), {"name": "Tom"}, agent="Ana", game_time=10.0))
        b = asyncio.create_task(scheduler.call(NeverGlad(), {"name": "Lea"}, agent="Ana"))
        return await asyncio.gather(a, b)

    try:
        (out_a, rec_a), (out_b, rec_b) = asyncio.run(main())
    finally:
        stop.set()
        t.join()
    assert isinstance(out_a, Reply) and not rec_a.fallback_used and rec_a.queue_wait_s >= 0
    assert out_b == NeverGlad().fallback({}) and rec_b.fallback_used  # check() rejected -> fallback
    assert len(ticks) > 10
    stats = scheduler.stats()
    assert stats["calls"] >= 2 and stats["tok_s"] > 0 and stats["queue_depth"] == 0


def test_cancelled_task_skips_request_and_recorder_sees_calls(llm_backend):
    seen = []
    sched = InferenceScheduler(llm_backend, recorder=seen.append).start()
    try:
        gate = threading.Event()
        _blocker(sched, gate)

        async def main():
            task = asyncio.create_task(sched.call(Greet(), {"name": "Tom"}, agent="Ana"))
            await asyncio.sleep(0.05)
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
            gate.set()
            return await sched.choose([{"role": "user", "content": "You are thirsty."}], ["drink water", "sleep"],
                                      agent="Ana", utilities=[1.0, 0.0])

        idx, rec = asyncio.run(main())
        assert idx in (0, 1) and rec.mode == "score" and not rec.fallback_used
        assert [r.function for r in seen] == ["block", "choose"]  # the cancelled greet never ran
    finally:
        sched.stop()


def test_stop_gives_pending_requests_fallbacks(llm_backend):
    sched = InferenceScheduler(llm_backend).start()
    gate = threading.Event()
    _blocker(sched, gate)
    _, fut = sched.submit_function(Greet(), {"name": "Tom"}, agent="Ana")
    _, cfut = sched.submit_choice([{"role": "user", "content": "?"}], ["a", "b"], agent="Ana", utilities=[0, 5])
    threading.Timer(0.2, gate.set).start()
    sched.stop()
    out, rec = fut.result(1)
    assert rec.fallback_used and rec.error == "scheduler stopped" and out == Greet().fallback({})
    assert cfut.result(1)[0] == 1
