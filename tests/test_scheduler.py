"""InferenceScheduler: deadline order, cancellation, asyncio use, fallbacks, stop."""

import asyncio
import threading
import time

import pytest

from garp.engine.lmfunction import new_record
from garp.engine.scheduler import InferenceScheduler
from test_lmfunction import Greet, NeverGlad, Reply


def _blocker(sched, gate):
    """Occupy the one general inference worker (workers=1) until `gate` is set."""
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
    sched = InferenceScheduler(llm_backend, workers=1).start()
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


def test_request_that_became_late_while_queued_is_stale(llm_backend, monkeypatch):
    monkeypatch.setattr("garp.engine.scheduler.STALE_AFTER_S", 0.1)
    sched = InferenceScheduler(llm_backend, workers=1).start()
    sched.costs.prior_s = 0.01  # unmeasured work looks small: admission lets it wait
    try:
        gate, order = threading.Event(), []
        _blocker(sched, gate)
        _, fut = sched.submit(*_job(order, "late"), priority=0, deadline=time.monotonic() + 0.05)
        time.sleep(0.3)
        gate.set()
        assert fut.result(10)[0].startswith("fallback:stale:") and order == []
        assert sched.stats()["answered"]["stale"] == 1
    finally:
        sched.stop()


def test_request_already_past_its_deadline_is_refused_at_once(llm_backend):
    sched = InferenceScheduler(llm_backend, workers=1).start()
    try:
        order = []
        _, fut = sched.submit(*_job(order, "late"), priority=0, deadline=time.monotonic() - 3600)
        assert fut.done() and fut.result()[0].startswith("fallback:admission: already") and order == []
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
    assert 0 < stats["busy_share"] <= 1  # the model was computing for part of the time since it started


def test_cancelled_task_skips_request_and_recorder_sees_calls(llm_backend):
    seen = []
    sched = InferenceScheduler(llm_backend, recorder=seen.append, workers=1).start()
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
    sched = InferenceScheduler(llm_backend, workers=1).start()
    gate = threading.Event()
    _blocker(sched, gate)
    _, fut = sched.submit_function(Greet(), {"name": "Tom"}, agent="Ana")
    _, cfut = sched.submit_choice([{"role": "user", "content": "?"}], ["a", "b"], agent="Ana", utilities=[0, 5])
    threading.Timer(0.2, gate.set).start()
    sched.stop()
    out, rec = fut.result(1)
    assert rec.fallback_used and rec.error == "scheduler stopped" and out == Greet().fallback({})
    assert cfut.result(1)[0] == 1


def test_admission_refuses_what_cannot_make_its_deadline_and_says_why(llm_backend):
    sched = InferenceScheduler(llm_backend, workers=1).start()
    try:
        gate = threading.Event()
        _blocker(sched, gate)
        sched.costs.learn(Greet.name, 1, 30.0)  # a greeting has been measured at 30 machine seconds
        _, fut = sched.submit_function(Greet(), {"name": "Tom"}, agent="Ana", deadline=time.monotonic() + 6)
        out, rec = fut.result(0)  # answered at once, not after waiting
        assert out == Greet().fallback({}) and rec.fallback_used
        assert rec.error.startswith("admission: ") and "s of work ahead, due in" in rec.error
        assert sched.stats()["answered"]["admission"] == 1 and sched.stats()["queue_depth"] == 0
        gate.set()
    finally:
        sched.stop()


def _served_order(llm_backend, enqueue) -> list[str]:
    """The order one worker serves what `enqueue(sched, order)` queued behind a held request."""
    sched = InferenceScheduler(llm_backend, workers=1).start()
    try:
        gate, order = threading.Event(), []
        _blocker(sched, gate)
        futs = enqueue(sched, order)
        gate.set()
        for f in futs:
            f.result(10)
        return order
    finally:
        sched.stop()


def test_interview_jumps_ahead_of_queued_plans(llm_backend):
    def enqueue(sched, order):
        far = time.monotonic() + 600
        futs = [sched.submit(*_job(order, f"plan{i}"), priority=4, deadline=far + i, value="plan")[1]
                for i in range(3)]
        return futs + [sched.submit(*_job(order, "interview"), priority=1, deadline=None, value="interview")[1]]
    assert _served_order(llm_backend, enqueue) == ["interview", "plan0", "plan1", "plan2"]


def test_lines_of_characters_in_focus_go_first(llm_backend):
    def enqueue(sched, order):
        soon = time.monotonic() + 300
        futs = [sched.submit(*_job(order, who), priority=1, deadline=soon + i, value="line", agent=who)[1]
                for i, who in enumerate(["Ana", "Ben", "Cleo"])]
        sched.set_focus(frozenset({"Cleo"}))  # the player selects Cleo while the lines wait
        return futs
    assert _served_order(llm_backend, enqueue) == ["Cleo", "Ana", "Ben"]


def test_queue_never_exceeds_its_bound_and_sheds_the_lowest_value(llm_backend):
    sched = InferenceScheduler(llm_backend, workers=1).start()
    sched.set_bound(3)
    try:
        gate, order, depths = threading.Event(), [], []
        _blocker(sched, gate)
        far = time.monotonic() + 600
        futs = {}
        for i, value in enumerate(["background", "plan", "line", "appraisal", "background", "line", "plan"]):
            futs[f"{value}{i}"] = sched.submit(*_job(order, f"{value}{i}"), priority=5, deadline=far,
                                               value=value, agent="Ana")[1]
            depths.append(sched.stats()["queue_depth"])
        assert max(depths) == 3 == sched.stats()["bound"]
        shed = sorted(n for n, f in futs.items() if f.done())
        assert shed == ["appraisal3", "background0", "background4", "plan6"]
        assert all(futs[n].result()[0].startswith("fallback:admission: queue full") for n in shed)
        gate.set()
        for f in futs.values():
            f.result(10)
        assert order == ["line2", "line5", "plan1"]
    finally:
        sched.stop()


def test_requests_without_a_deadline_are_never_refused(llm_backend):
    sched = InferenceScheduler(llm_backend, workers=1).start()
    sched.set_bound(1)
    try:
        gate, order = threading.Event(), []
        _blocker(sched, gate)
        sched.costs.learn("slow", 1, 1e6)  # even hopeless work waits when nothing is due
        futs = [sched.submit(*_job(order, f"n{i}"), priority=8, deadline=None, value="background",
                             cost_key="slow")[1] for i in range(5)]
        gate.set()
        assert [f.result(10)[0] for f in futs] == [f"n{i}" for i in range(5)]
        assert sched.stats()["answered"]["admission"] == 0
    finally:
        sched.stop()


def test_a_waiting_interview_takes_the_next_scoring_turn_before_earlier_waiters():
    """Three scoring passes wait for the turn; the interview's, which came last, goes first."""
    from garp.engine.threads import TurnLock, urgent

    turn, order = TurnLock(), []

    def score(name: str, is_interview: bool) -> None:
        with urgent(is_interview), turn:
            order.append(name)

    with turn:  # a pass in progress
        waiters = [threading.Thread(target=score, args=(f"choice {i}", False)) for i in range(2)]
        waiters.append(threading.Thread(target=score, args=("interview", True)))
        for w in waiters:
            w.start()
            time.sleep(0.05)
    for w in waiters:
        w.join(5)
    assert order[0] == "interview" and sorted(order[1:]) == ["choice 0", "choice 1"]
