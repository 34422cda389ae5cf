"""Lockstep determinism: two headless runs with the same seed and cached replies give the
same event log, and a live (recording) run matches them except for the `cached` flag."""

from __future__ import annotations

import asyncio
import json
import time
import types

import pytest

from sim_helpers import comparable, seeded_cache, short_scenario

def _run(scenario, tmp_path, tag, cache, backend, embedder):
    from garp.sim.runner import run_headless
    args = types.SimpleNamespace(out=str(tmp_path / tag), seed=7, cache=str(cache), live=False, record=False)
    sim = run_headless(scenario, args, backend=backend, embedder=embedder)
    return [json.loads(l) for l in (tmp_path / tag / "events.jsonl").read_text().splitlines()], sim


@pytest.mark.model
def test_two_runs_same_seed_and_cache_give_identical_logs(tmp_path, sim_engine):
    backend, embedder = sim_engine
    scenario = short_scenario(tmp_path, hours=0.75)
    cache = seeded_cache(tmp_path)
    live, _ = _run(scenario, tmp_path, "live", cache, backend, embedder)
    a, _ = _run(scenario, tmp_path, "a", cache, backend, embedder)
    b, _ = _run(scenario, tmp_path, "b", cache, backend, embedder)
    assert any(e["kind"] == "llm_call" for e in a)
    # every model reply comes from the cache (mode "code": code answered, no model was asked)
    assert all(e["cached"] for e in a if e["kind"] == "llm_call" and e["mode"] != "code"), "the replay must not call the model"
    assert a == b
    assert comparable(live) == comparable(a)
    # no wall-clock values in a lockstep log
    assert not any("latency_s" in e or "queue_wait_s" in e for e in a)


def test_cognition_thread_sequential_order_due_wait_and_failures():
    """Lockstep lane: jobs run in submission order, wait_due blocks only on due jobs,
    results carry request id and asked-at time, a failing job becomes a `failed` command."""
    import asyncio

    from garp.sim.cognition import CognitionThread
    from garp.sim.messages import Command, Do, JobFailed, PerceiveJob, SeedJob

    order: list[str] = []

    async def handler(job) -> list[Command]:
        await asyncio.sleep(0.05 if job.agent == "A" else 0.0)
        if isinstance(job, SeedJob):
            raise ValueError("bad reply")
        order.append(job.agent)
        return [Do(agent=job.agent, description=job.notes[0], place="", duration_s=60.0, decision={})]

    def on_error(job, err, tb):
        return [JobFailed(agent=job.agent, where=job.kind, message=str(err))]

    def perceive(agent: str, i: int) -> PerceiveJob:
        return PerceiveJob(agent=agent, asked_t=10.0 * i, due_t=100.0 + i, notes=(str(i),), appraise=False, place="",
                           needs=None)

    cog = CognitionThread(handler, sequential=True, on_error=on_error)
    cog.start()
    try:
        ids = [cog.submit(perceive("A", 0)), cog.submit(perceive("B", 1)),
               cog.submit(SeedJob(agent="C", asked_t=20.0, due_t=102.0))]
        assert cog.wait_due(100.5, timeout=5)  # only the first job is due by then
        assert cog.wait_idle(timeout=5)
        results = cog.drain()
    finally:
        cog.close()
    assert order == ["A", "B"]  # B waited for the slower A: same order on any machine
    assert [(r.request_id, r.command.kind, r.job_kind, r.asked_t, r.due_t) for r in results] == [
        (ids[0], "do", "perceive", 0.0, 100.0), (ids[1], "do", "perceive", 10.0, 101.0),
        (ids[2], "failed", "seed", 20.0, 102.0)]
    assert results[2].command.message == "bad reply" and results[0].command.description == "0"


def test_a_job_hands_its_talk_over_before_it_ends():
    """Play shows a talk's lines while the job still makes its memories: the early command reaches
    the main thread first, tagged as the job's reply; a job that sends nothing early is unchanged."""
    import threading

    from garp.sim.cognition import CognitionThread, send_early
    from garp.sim.messages import ChatHeld, Command, JobDone, PerceiveJob

    seen = threading.Event()

    async def handler(job) -> list[Command]:
        sent = send_early(ChatHeld(agent=job.agent, partner="B", lines=(("A", "Hi."),), chat_id="c", place=""))
        while sent and not seen.is_set():  # the memories take as long as the main thread needs to look
            await asyncio.sleep(0.01)
        return [JobDone(agent=job.agent, partner="B")]

    cog = CognitionThread(handler, sequential=False, on_error=lambda job, err, tb: [])
    cog.start()
    try:
        job_id = cog.submit(PerceiveJob(agent="A", asked_t=5.0, due_t=6.0, notes=(), appraise=False, place="",
                                        needs=None))
        first: list = []
        for _ in range(500):
            if first := cog.drain():
                break
            time.sleep(0.01)
        assert [(r.command.kind, r.request_id, r.due_t) for r in first] == [("chat", job_id, 6.0)]
        assert cog.outstanding_ids() == {job_id}  # still making its memories
        seen.set()
        assert cog.wait_idle(timeout=5)
        assert [r.command.kind for r in cog.drain()] == ["done"]
    finally:
        cog.close()
    assert send_early(JobDone(agent="A")) is False  # outside a job: the caller returns it itself


def test_deferred_log_keeps_cognition_events_for_the_main_thread(tmp_path):
    from garp.eventlog import EventLog
    from garp.sim.deferred import DeferredLog
    log = EventLog(tmp_path / "e.jsonl")
    d = DeferredLog(log)
    with d.capture() as got:
        d.emit("memory", 5.0, agent="A", text="x")
    assert log.events == [] and got == [{"kind": "memory", "t": 5.0, "agent": "A", "text": "x"}]
    d.emit("plan", 6.0, agent="A")
    assert [e["kind"] for e in log.events] == ["plan"]
