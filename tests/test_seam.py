"""The seam between the game (main thread) and the minds (cognition thread): values only."""

from __future__ import annotations

import types

import pytest

from sim_helpers import seeded_cache, short_scenario


def _tree(day: int = 0):
    from garp.mind.plan_tree import PlanNode, PlanTree
    return PlanTree(day=day, nodes=[PlanNode(start=8 * 3600.0, end=12 * 3600.0, description="work", place="Cafe"),
                                    PlanNode(start=12 * 3600.0, end=13 * 3600.0, description="lunch")])


def _brain_and_applier(tree):
    from garp.mind.agent import AgentMind
    from garp.mind.persona import load_personas
    from garp.sim.apply import Applier
    from garp.sim.pipeline import Brain
    brain = Brain.__new__(Brain)
    brain.planners, brain._trees = {"Mika": types.SimpleNamespace(tree=tree)}, {}
    mind = AgentMind(load_personas()["Mika"])
    clock = types.SimpleNamespace(t=0.0)
    applier = Applier(world=None, clock=clock, minds={"Mika": mind}, log=None, conversations=None, lockstep=True,
                      visit=None)
    return brain, applier, mind


def _reply(cmd):
    from garp.sim.messages import Reply
    return Reply(cmd, 1, 0.0, 0.0, "plan_day")


def test_the_main_threads_plan_is_a_copy_the_planner_cannot_change():
    from garp.mind.plan_tree import PlanNode
    from garp.sim.messages import SeedJob
    planner_tree = _tree()
    brain, applier, mind = _brain_and_applier(planner_tree)
    applier.apply(_reply(brain.set_plan("Mika")))
    assert mind.plan is not planner_tree and mind.plan == planner_tree
    # the cognition side decomposes a block: the main thread's plan does not move under it
    planner_tree.nodes[0].children.append(PlanNode(start=8 * 3600.0, end=9 * 3600.0, description="open up",
                                                   level="hour"))
    assert mind.plan.nodes[0].children == []
    # until the job's results are applied: then it holds a fresh copy of the same tree
    mirror = brain._mirrors(SeedJob(agent="Mika", asked_t=0.0, due_t=0.0))
    applier.apply(_reply(mirror[0]))
    assert mind.plan == planner_tree and mind.plan is not planner_tree
    assert mind.plan.nodes[0].children is not planner_tree.nodes[0].children


def test_a_copy_of_a_tree_the_main_thread_was_not_handed_is_ignored():
    from garp.sim.messages import SeedJob
    first = _tree()
    brain, applier, mind = _brain_and_applier(first)
    applier.apply(_reply(brain.set_plan("Mika")))
    brain.planners["Mika"].tree = _tree(day=1)  # a new day's plan whose set_plan was dropped as stale
    applier.apply(_reply(brain._mirrors(SeedJob(agent="Mika", asked_t=0.0, due_t=0.0))[0]))
    assert mind.plan.day == 0


def test_jobs_and_commands_are_frozen():
    import dataclasses

    from garp.sim.messages import JobDone, SeedJob
    job = SeedJob(agent="Mika", asked_t=0.0, due_t=10.0)
    with pytest.raises(dataclasses.FrozenInstanceError):
        job.due_t = 20.0  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        JobDone(agent="Mika").partner = "Ren"  # type: ignore[misc]


@pytest.mark.model
def test_a_headless_run_hands_the_main_thread_copies(tmp_path, sim_engine):
    """In a real run, no mind's plan, emotion or relationships mirror is the cognition side's object."""
    from garp.sim.wiring import build
    backend, embedder = sim_engine
    args = types.SimpleNamespace(out=str(tmp_path / "run"), seed=0, cache=str(seeded_cache(tmp_path)))
    sim = build(short_scenario(tmp_path, hours=0.5), args, lockstep=True, backend=backend, embedder=embedder)
    try:
        for _ in range(6):
            sim.step_lockstep()
        sim.finish()
        brain = sim.sv.brain
        for name, mind in sim.minds.items():
            assert mind.plan is not None and mind.plan is not brain.planners[name].tree
            assert mind.emotion_view.current is not mind.emotion.current
            assert all(mind.relationship_view[n] is not r for n, r in mind.relationships.by_name.items())
    finally:
        sim.close()


def _methods(protocol) -> set[str]:
    return {n for n, v in vars(protocol).items() if callable(v) and not n.startswith("_")}


def test_the_concrete_classes_fit_the_seam_protocols(tmp_path):
    """Each Protocol in garp/interfaces.py names methods its concrete classes really have."""
    from datetime import datetime

    from garp import interfaces as I
    from garp.engine.embedder import Embedder
    from garp.engine.scheduler import InferenceScheduler
    from garp.eventlog import EventLog
    from garp.sim.deferred import DeferredLog
    from garp.sim.pipeline import Brain
    from garp.world.clock import GameClock, LockstepClock
    log = EventLog(tmp_path / "e.jsonl")
    assert isinstance(log, I.EventSink) and isinstance(DeferredLog(log), I.EventSink)
    start = datetime(2025, 3, 3, 8, 0)
    assert isinstance(GameClock(start), I.Clock) and isinstance(LockstepClock(start, step_s=60.0), I.Clock)
    for protocol, cls in ((I.ModelScheduler, InferenceScheduler), (I.TextEmbedder, Embedder),
                          (I.JobContext, Brain), (I.JobHandler, Brain)):
        assert all(callable(getattr(cls, m, None)) for m in _methods(protocol)), (protocol, cls)
    log.close()
