"""A short two-agent headless run end to end with the real model, plus AgentMind state."""

from __future__ import annotations

import json
import types

import pytest

from garp.errors import GarpError
from garp.sim.requests import FIRST_CHOICE_SPACING_WALL_S
from sim_helpers import seeded_cache, short_scenario


@pytest.fixture(scope="module")
def run(tmp_path_factory, sim_engine):
    from garp.sim.runner import run_headless
    backend, embedder = sim_engine
    tmp = tmp_path_factory.mktemp("sim")
    scenario = short_scenario(tmp, hours=1.5)
    args = types.SimpleNamespace(out=str(tmp / "run"), seed=7, cache=str(seeded_cache(tmp)))
    sim = run_headless(scenario, args, backend=backend, embedder=embedder)
    events = [json.loads(l) for l in (tmp / "run" / "events.jsonl").read_text().splitlines()]
    return sim, events


@pytest.mark.model
def test_headless_run_plans_moves_uses_objects_and_logs(run):
    sim, events = run
    kinds = {e["kind"] for e in events}
    assert {"run_start", "plan", "decision", "action_start", "llm_call", "run_end"} <= kinds
    for name in ("Mika", "Ren"):
        plans = [e for e in events if e["kind"] == "plan" and e["agent"] == name and e.get("level") == "day"]
        assert plans and len(plans[0]["items"]) >= 5, f"{name} has no day plan"
        assert any(e["kind"] == "action_start" and e["agent"] == name for e in events), f"{name} used nothing"
        assert sim.minds[name].last_decision is not None
        assert sim.minds[name].calls, "the inspector's call ring buffer is empty"
    assert any(e["kind"] in ("move", "arrive") and e["t"] > events[0]["t"] for e in events)
    assert not [e for e in events if e["kind"] == "error"]
    calls = [e for e in events if e["kind"] == "llm_call"]
    assert {"agent", "function", "fallback_used", "cached"} <= set(calls[0])
    assert events[-1]["kind"] == "run_end" and events[-1]["t"] >= sim.scenario.end_seconds


@pytest.mark.model
def test_goals_of_the_short_run_pass(run):
    from garp.scenario.goals import check_goals
    sim, events = run
    results = check_goals(sim.goals(), events)
    assert all(r.passed for r in results), [r.detail for r in results if not r.passed]


def test_agent_mind_round_trip():
    from garp.mind.agent import AgentMind
    from garp.mind.commitments import make_commitment
    from garp.mind.emotion import EmotionSystem
    from garp.mind.persona import load_personas
    from garp.mind.relationships import Relationships
    persona = load_personas()["Ludwig"]
    mind = AgentMind(persona)
    mind.emotion = EmotionSystem.for_persona(persona)
    mind.relationships = Relationships("Ludwig", mind.personality)
    mind.relationships.get_or_meet("Erica", 10.0)
    mind.set_traits(mind.traits_with("sociability", -0.75))
    mind.needs.values["hunger"] = 0.7
    mind.commitments.add(make_commitment("jam session", 86400 + 18 * 3600, "Oak Hill School", "Ludwig",
                                         participants=["Erica"]))
    mind.record_decision({"plan_item": "practice piano", "chosen": "play piano-1"})
    data = json.loads(json.dumps(mind.to_dict(), default=str))
    back = AgentMind.from_dict(persona, data)
    assert back.traits == mind.traits and "introverted" in back.traits
    assert back.personality.chat_probability == mind.personality.chat_probability
    assert back.needs.values["hunger"] == 0.7
    assert [c.id for c in back.commitments.all()] == [c.id for c in mind.commitments.all()]
    assert back.last_decision == mind.last_decision
    assert back.relationships.get("Erica").familiarity == mind.relationships.get("Erica").familiarity
    assert back.emotion.current == mind.emotion.current
    assert json.loads(json.dumps(back.to_dict(), default=str)) == data


def test_unknown_trait_axis_is_a_clear_error():
    from garp.mind.agent import AgentMind
    from garp.mind.persona import load_personas
    mind = AgentMind(load_personas()["Ludwig"])
    with pytest.raises(GarpError) as e:
        mind.traits_with("bravery", 0.5)
    assert "sociability" in str(e.value)


@pytest.mark.model
def test_real_time_update_never_waits_for_the_model(tmp_path, sim_engine):
    """Play mode: update() returns at once while cognition works; results arrive later."""
    import time

    from garp.sim.wiring import build
    backend, embedder = sim_engine
    args = types.SimpleNamespace(out=str(tmp_path / "rt"), seed=7, cache=str(seeded_cache(tmp_path)), speed=300)
    sim = build(short_scenario(tmp_path, hours=1.0), args, lockstep=False, backend=backend, embedder=embedder)
    slowest = 0.0
    try:
        t0 = sim.clock.t
        start = time.monotonic()
        while time.monotonic() - start < 90 and not all(m.plan is not None for m in sim.minds.values()):
            t = time.monotonic()
            sim.update(1 / 30)
            slowest = max(slowest, time.monotonic() - t)
            time.sleep(1 / 30)
        assert sim.clock.t > t0
        assert any(m.plan is not None for m in sim.minds.values()), "no day plan arrived in 90 s"
        sim.interview("Mika", "What are you doing tonight?").result(timeout=120)
    finally:
        sim.close()
    assert slowest < 0.5, f"update() blocked for {slowest:.2f} s"


@pytest.mark.model
def test_agents_open_with_their_routine_and_make_the_first_choice_ahead_of_need(tmp_path, sim_engine):
    """No idle start (IV-A): each agent opens the scene doing what its routine says (code, no
    model); once its day plan arrives that goes on for one decision lead, so the first choice is
    made in time like every later one and no agent-time is spent waiting."""
    import time

    from garp.sim.wiring import build
    backend, embedder = sim_engine
    args = types.SimpleNamespace(out=str(tmp_path / "rt"), seed=7, cache=str(seeded_cache(tmp_path)), speed=300)
    sim = build(short_scenario(tmp_path, hours=2.0), args, lockstep=False, backend=backend, embedder=embedder)
    try:
        t0 = sim.clock.t
        for mind in sim.minds.values():
            assert mind.activity.kind in ("stay", "use") and mind.activity.description != "starting the day"
            assert mind.activity.end_t > t0
        start, planned_at, ends = time.monotonic(), {}, {}
        while time.monotonic() - start < 120 and not all(m.last_decision for m in sim.minds.values()):
            sim.update(1 / 30)
            time.sleep(1 / 30)
            for name, mind in sim.minds.items():
                if mind.plan is not None and name not in planned_at:  # the plan has just arrived
                    planned_at[name] = sim.clock.t
                    ends[name] = mind.activity.end_t
                    assert mind.activity.kind in ("stay", "use") and mind.activity.end_t > sim.clock.t, mind.activity
        assert all(m.last_decision for m in sim.minds.values()), "no first decision in 120 s"
        assert sum(sim.waiting_game_s.values()) == 0.0, sim.waiting_game_s
        # the clock stood at the start until every first plan was in, and the plans were made then
        hold, = sim.log.of_kind("opening_hold")
        assert hold["t"] == t0 and hold["plans_in"] == hold["cast"] == len(sim.minds) and hold["wall_s"] < 60
        assert {e["agent"] for e in sim.log.of_kind("plan") if e.get("level") == "day" and e["t"] == t0} == set(sim.minds)
        assert sim.opening_progress() is None
        # plans that came in together do not ask for their first choices at once: they are spaced
        first, second = sorted(ends.values())
        assert second - first >= sim.clock.wall_to_game(FIRST_CHOICE_SPACING_WALL_S) - 1e-6, ends
    finally:
        sim.close()


def test_a_housemates_own_bed_is_not_offered_shared_things_are():
    from garp.sim.requests import may_use
    maya = types.SimpleNamespace(name="Maya", persona=types.SimpleNamespace(home="Maya's House"))
    def obj(owners, room="Bedroom"):
        return types.SimpleNamespace(place="Maya's House", owners=owners, room=room)
    assert may_use(obj(["Maya"]), maya) and not may_use(obj(["Priya"]), maya)
    assert may_use(obj(["Maya", "Priya"], "Kitchen"), maya)
    guest = types.SimpleNamespace(name="Erica", persona=types.SimpleNamespace(home="Erica's House"))
    assert may_use(obj(["Maya", "Priya"], "Kitchen"), guest, "Maya's House")
    assert not may_use(obj(["Maya"]), guest, "Maya's House")


def test_a_cafes_kitchen_is_for_those_who_work_there():
    """A customer is not offered the cafe kitchen's fridge or stove (nothing kept one out of there); the cafe's
    hall is everyone's, and one who works nowhere is a customer everywhere."""
    from garp.sim.requests import may_use

    def person(name, workplace):
        return types.SimpleNamespace(name=name, persona=types.SimpleNamespace(home=f"{name}'s House", workplace=workplace))
    fridge = types.SimpleNamespace(place="Hobbs Cafe", owners=[], room="Cafe Kitchen")
    table = types.SimpleNamespace(place="Hobbs Cafe", owners=[], room="Hobbs Cafe")
    assert may_use(fridge, person("Arjun", "Hobbs Cafe")) and not may_use(fridge, person("Felix", "Oak Hill College"))
    assert may_use(table, person("Felix", "Oak Hill College")) and not may_use(fridge, person("Sam", None))


def test_company_is_kept_on_a_visit_and_by_the_host_of_a_gathering_not_on_an_ordinary_day():
    """Keeping company means using the rooms others are in. The rule was applied wherever the plan had a
    character, so at home a housemate asleep in the bedroom kept Erica there (she napped at 06:02 for breakfast)
    and at the cafe the hall kept its cook out of the kitchen; kept to visits only, a party's host left its
    guests in the dining room for the kitchen and the bedroom, and the party held a third of its talks."""
    from garp.sim.requests import company_home
    assert company_home("Maya's House", "Maya's House", "Erica's House") == "Maya's House"
    assert company_home("Erica's House", "Erica's House", "Erica's House") is None
    assert company_home("Erica's House", "Erica's House", "Erica's House", gathering=True) == "Erica's House"
    assert company_home("Hobbs Cafe", "Hobbs Cafe", "Erica's House") is None
    assert company_home("Hobbs Cafe", "Hobbs Cafe", "Erica's House", gathering=True) is None  # not a home
    assert company_home("Maya's House", "Hobbs Cafe", "Erica's House") is None  # not there yet
    assert company_home(None, "Maya's House", "Erica's House") is None


def test_every_model_call_of_a_job_shares_the_jobs_deadline():
    """A decision that chains a decomposition and a choice is late by one lead at most, not one per call."""
    import asyncio
    import itertools
    import types
    from garp.sim.cognition import REQUEST_DEADLINE_WALL_S
    from garp.sim.messages import SeedJob
    from garp.sim.pipeline import Brain

    clock = itertools.count(100.0, 5.0)  # every deadline asked for is later than the one before
    brain = Brain.__new__(Brain)
    brain.sequential = False
    brain.scheduler = types.SimpleNamespace(deadline_in=lambda s: next(clock) + s)
    brain.clock = types.SimpleNamespace(t=0.0, game_to_wall=lambda g: g / 300.0)
    brain.minds, brain.planners = {"Ada": None}, {"Ada": types.SimpleNamespace(tree=None)}
    seen = []

    async def probe(job, mind):
        seen.append(brain.deadline())
        await asyncio.sleep(0)
        seen.append(brain.deadline())
        return []

    async def no_reflection(job):
        return None

    brain._handlers, brain._maybe_reflect = {SeedJob: probe}, no_reflection
    asyncio.run(brain.handle(SeedJob(agent="Ada", asked_t=0.0, due_t=0.0)))
    asyncio.run(brain.handle(SeedJob(agent="Ada", asked_t=0.0, due_t=0.0)))
    assert seen[0] == seen[1] and seen[2] == seen[3] and seen[2] > seen[0]
    assert brain.deadline() is None  # outside a job
    # the deadline is the job's due point through the clock, never sooner than one request lead
    assert seen[0] == 100.0 + REQUEST_DEADLINE_WALL_S
    asyncio.run(brain.handle(SeedJob(agent="Ada", asked_t=0.0, due_t=300.0 * 60)))
    assert seen[-1] == 110.0 + 60.0


@pytest.mark.model
def test_a_visitor_who_finds_the_friend_out_goes_home(tmp_path, sim_engine):
    """Lonely Mika's company rule sends her to Ren's house while Ren works a late shift at the
    cafe: she finds nobody in, goes home for the evening and does not go back."""
    from pathlib import Path

    from garp.scenario.goals import check_goals
    from garp.sim.runner import run_headless
    backend, embedder = sim_engine
    args = types.SimpleNamespace(out=str(tmp_path / "run"), seed=0, cache=str(seeded_cache(tmp_path)))
    scenario = Path(__file__).parent / "scenarios" / "friend_out.json"
    sim = run_headless(scenario, args, backend=backend, embedder=embedder)
    events = sim.log.events
    visits = [e for e in events if e["kind"] == "plan" and e["agent"] == "Mika" and e.get("reason") == "social need"]
    assert visits and "visit Ren" in visits[0]["items"][0]
    missed = [e for e in events if e["kind"] == "plan" and e["agent"] == "Mika" and e.get("reason") == "friend not home"]
    assert len(missed) == 1 and "Mika's House" in missed[0]["items"][0], missed
    at_ren = [e for e in events if e["kind"] == "arrive" and e["agent"] == "Mika" and e["place"] == "Ren's House"]
    assert at_ren and at_ren[-1]["t"] <= missed[0]["t"], "she went back to the empty house"
    failed = [r.detail for r in check_goals(sim.goals(), events) if not r.passed]
    assert not failed, failed  # among them: Mika at home from 20:00 to 21:00 (her shop shift ends at 18:00)
    memories = [r.description for r in sim.minds["Mika"].memory.recent(40)]
    assert any("Ren was not at home" in m for m in memories), memories


def test_a_meal_planned_where_nothing_feeds_is_had_at_the_nearest_place_that_does():
    """Priya's lunch was planned at her work, the Town Library, where nothing feeds anyone: in a play she
    read and worked through her lunch hour. The meal goes to the nearest place that feeds her; a lunch
    planned at the cafe, or for one who may use the library's nothing, stays where it was."""
    from garp.paths import MAPS
    from garp.sim.pipeline import meal_place
    from garp.world.town_map import TownMap

    objects = tuple(TownMap.load(MAPS / "town.tmx").build_objects().all())
    desk = next(o for o in objects if o.place == "Town Library")
    job = types.SimpleNamespace(objects=objects, body=types.SimpleNamespace(x=desk.x, y=desk.y))
    moved = meal_place(job, "have lunch", "Town Library", "Town Library")
    assert moved != "Town Library" and any(o.place == moved and "eat" in {a.verb for a in o.affordances}
                                           for o in objects)
    assert meal_place(job, "have lunch", "Hobbs Cafe", "Town Library") == "Hobbs Cafe"
    # a water cooler is no lunch: the school's lunch goes where there is a meal too
    school = next(o for o in objects if o.place == "Oak Hill School")
    public = tuple(o for o in objects if not o.place.endswith(("House", "Flat")))  # no one's home is offered
    at_school = types.SimpleNamespace(objects=public, body=types.SimpleNamespace(x=school.x, y=school.y))
    assert meal_place(at_school, "have lunch", "Oak Hill School", "Oak Hill School") in ("Hobbs Cafe", "Town Office",
                                                                                       "Johnson Park")
    assert meal_place(job, "work", "Town Library", "Town Library") == "Town Library"  # not a meal
    # a guest not yet at the host's home is offered none of its things: the dinner party stays there
    away = types.SimpleNamespace(objects=tuple(o for o in objects if o.place != "Maya's House"), body=job.body)
    assert meal_place(away, "have dinner", "Maya's House", None) == "Maya's House"


def test_no_one_fed_is_offered_food_unless_a_meal_or_the_plan_is_about_it(embedder):
    """A play had Felix, just fed, take breakfast again at the cafe and carry on eating through his shift
    there: with no hunger, the table and the fridge are not offered for "lectures or shifts"; they are at
    a meal and to one who is hungry, and the stove is to the cafe's cook on her shift."""
    from garp.mind.affordance_filter import AffordanceEmbeddings, filter_affordances
    from garp.paths import MAPS
    from garp.sim.pipeline import sated_choices
    from garp.world.town_map import TownMap

    cafe = [o for o in TownMap.load(MAPS / "town.tmx").build_objects().all() if o.place == "Hobbs Cafe"]
    table = next(o for o in cafe if "eat" in {a.verb for a in o.affordances})
    shared = AffordanceEmbeddings(embedder)

    def offered(plan_item: str, hunger: float, workplace: str | None) -> set[str]:
        goal = embedder.embed([plan_item])[0]
        cands = filter_affordances(goal, (table.x, table.y), None, cafe, shared, agent="Felix", workplace=workplace)
        return {c.verb for c in sated_choices(cands, hunger, plan_item)}

    assert not offered("lectures or shifts", 0.05, None) & {"eat", "snack"}
    assert "eat" in offered("have breakfast", 0.05, None)
    assert "eat" in offered("lectures or shifts", 0.5, None) | offered("free time", 0.5, None)
    assert "cook" in offered("cafe kitchen", 0.05, "Hobbs Cafe")
