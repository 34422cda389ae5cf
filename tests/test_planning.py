"""Plan repair (VI-b, commitments), the plan tree, and a real-model day plan (III-A1)."""

import asyncio
import types
from datetime import date

import pytest

from garp.mind.commitments import CommitmentBook, make_commitment
from garp.mind.plan_repair import FREE_TIME, MEALS, is_meal, is_sleep, plan_repair
from garp.mind.plan_tree import DAY_S, PlanNode, PlanTree, nodes_from_times
from garp.mind.planning import (
    DecomposeInputs, HourlyDecomposition, HourSteps, PlanContext, Planner, Step, is_time_only, minute_steps,
)

START = date(2026, 1, 1)  # day 0 = 1 Jan, day 1 = 2 Jan, day 2 = 3 Jan
PLACES = ["Ludwig's House", "Erica's House", "Hobbs Cafe", "Library", "Park", "School Music Room", "Shop"]
HOME = "Erica's House"


def day_plan(items, day=1):
    return nodes_from_times(items, day)


def assert_valid(nodes, day):
    d0 = day * DAY_S
    assert nodes[0].start == d0 and nodes[-1].end == d0 + DAY_S
    for a, b in zip(nodes, nodes[1:]):
        assert a.end == b.start, f"gap or overlap between {a.label()} and {b.label()}"
    assert all(n.end > n.start for n in nodes)
    assert all(n.place in PLACES for n in nodes)
    assert is_sleep(nodes[0].description) and is_sleep(nodes[-1].description)
    for meal, (lo, hi, _, _) in MEALS.items():
        assert any(is_meal(n.description) and n.start < d0 + hi and n.end > d0 + lo for n in nodes), meal


def test_wrong_day_event_removed_preparation_kept():
    raw = day_plan([("07:00", "wake up", "home"), ("09:00", "work at the cafe", "Hobbs cafe"),
                    ("12:00", "buy a gift for the party", "shop"),
                    ("15:00", "attend the party on 3 Jan", "Ludwigs house"),
                    ("17:00", "read books", "library"), ("21:00", "watch TV", "home")])
    out = plan_repair(raw, day=1, home=HOME, known_places=PLACES, start_date=START)
    descs = [n.description for n in out]
    assert "attend the party on 3 Jan" not in descs
    assert "buy a gift for the party" in descs
    assert_valid(out, 1)
    # the same block on its own day stays
    raw2 = day_plan([("07:00", "wake up", "home"), ("15:00", "attend the party on 3 Jan", "Ludwigs house")], day=2)
    assert any("party" in n.description for n in plan_repair(raw2, day=2, home=HOME, known_places=PLACES,
                                                               start_date=START))


def test_other_days_commitment_without_date_is_removed():
    party = make_commitment("birthday party", 2 * DAY_S + 19 * 3600, "Ludwig's House", "Ludwig")
    raw = day_plan([("08:00", "breakfast", "home"), ("18:00", "go to the birthday party", "Ludwig's House"),
                    ("16:00", "bake a cake for the birthday party", "home")])
    out = plan_repair(raw, day=1, home=HOME, known_places=PLACES, other_commitments=[party], start_date=START)
    descs = [n.description for n in out]
    assert "go to the birthday party" not in descs
    assert "bake a cake for the birthday party" in descs


def test_overlaps_fixed_gaps_filled_places_mapped():
    raw = [PlanNode(start=DAY_S + 8 * 3600, end=DAY_S + 11 * 3600, description="read at the library", place="the libary"),
           PlanNode(start=DAY_S + 10 * 3600, end=DAY_S + 12 * 3600, description="walk in the park", place="Central Park"),
           PlanNode(start=DAY_S + 14 * 3600, end=DAY_S + 15 * 3600, description="coffee", place="Atlantis"),
           PlanNode(start=DAY_S + 16 * 3600, end=DAY_S + 17 * 3600, description="practice piano", place="music room")]
    out = plan_repair(raw, day=1, home=HOME, known_places=PLACES, start_date=START)
    assert_valid(out, 1)
    by = {n.description: n for n in out}
    assert by["read at the library"].place == "Library"
    assert by["walk in the park"].place == "Park"
    assert by["coffee"].place == HOME  # unknown place → home
    assert by["practice piano"].place == "School Music Room"
    lib = [n for n in out if n.description == "read at the library"]
    assert max(n.end for n in lib) <= DAY_S + 10 * 3600  # the later block won the overlap
    # the 15:00-16:00 gap is covered by extending the previous activity (or free time at home)
    at = next(n for n in out if n.contains(DAY_S + 15.5 * 3600))
    assert at.description in ("coffee", FREE_TIME)


def test_missing_commitment_reinserted_at_time_and_place_with_travel():
    book = CommitmentBook("Erica")
    jam = book.add(make_commitment("jam session", DAY_S + 18 * 3600, "School Music Room", "Ludwig",
                                   participants=["Erica"], source="heard-from-host", heard_from="Ludwig"))
    raw = day_plan([("07:00", "wake up", "home"), ("09:00", "work", "Hobbs Cafe"), ("17:00", "watch TV", "home"),
                    ("22:00", "sleep", "home")])
    out = plan_repair(raw, day=1, home=HOME, known_places=PLACES, commitments=book.for_day(1), start_date=START)
    assert_valid(out, 1)
    block = next(n for n in out if n.commitment_id == jam.id and n.description == "jam session")
    assert (block.start, block.end, block.place, block.source) == (jam.start, jam.end, "School Music Room", "commitment")
    travel = next(n for n in out if n.end == jam.start)
    assert travel.commitment_id == jam.id and travel.place == "School Music Room"
    # the TV evening resumes after the jam
    assert any(n.description == "watch TV" and n.start >= jam.end for n in out)


def test_a_guest_coming_to_ones_own_home_needs_no_walk_there():
    """Jonah is at home when Maya comes over: his plan has no "head to Jonah's House" before it."""
    book = CommitmentBook("Erica")
    visit = book.add(make_commitment("Maya comes over", DAY_S + 16 * 3600, HOME, "Maya", participants=["Erica"],
                                     source="heard-from-host", heard_from="Maya"))
    raw = day_plan([("07:00", "wake up", HOME), ("12:00", "paint", HOME), ("18:00", "watch TV", HOME),
                    ("22:00", "sleep", HOME)])
    out = plan_repair(raw, day=1, home=HOME, known_places=PLACES, commitments=book.for_day(1), start_date=START)
    assert_valid(out, 1)
    assert [n.description for n in out if n.commitment_id == visit.id] == ["Maya comes over"]


def test_steps_split_again_keep_one_step_word_and_whole_words():
    from garp.mind.planning import step_patterns, step_task
    for _, tasks in step_patterns("finish up: Maya comes over to apologise to Jonah", 3600):
        assert not any(t.count("finish up") + t.count("get started") > 1 for t in tasks), tasks
        assert all(step_task(t) == t or not step_task(t).endswith("apologi") for t in tasks)
    assert step_task("get started: Maya comes over to apologise to Jonah at home") == \
        "get started: Maya comes over to apologise to Jonah"


def test_travel_lead_covers_the_longest_walk_in_the_bundled_town():
    """Leaving the 'head to' lead before a commitment gets anyone anywhere in town on time."""
    from garp import paths
    from garp.mind.plan_repair import COMMITMENT_TRAVEL_LEAD_S
    from garp.world.pathfinding import find_path
    from garp.world.town_map import TownMap
    from garp.world.world import WALK_SPEED_PX_S
    town = TownMap.load(paths.ASSETS / "maps" / "town.tmx")
    doors = [town._entrance(p) for p in town.places.values() if not p.is_room]
    longest = max(len(find_path(town.walkable, a, b) or []) for i, a in enumerate(doors) for b in doors[i + 1:])
    walk_s = longest * 32 / WALK_SPEED_PX_S
    assert 30 * 60 < walk_s <= COMMITMENT_TRAVEL_LEAD_S


def test_sleep_and_meals_inserted_into_a_bare_plan():
    raw = day_plan([("09:00", "paint", "home"), ("11:00", "garden", "Park"), ("18:00", "read", "Library")], day=0)
    out = plan_repair(raw, day=0, home=HOME, known_places=PLACES)
    assert_valid(out, 0)
    assert [n.description for n in out if n.source == "repair" and is_meal(n.description)] == \
        ["have breakfast", "have lunch", "have dinner"]
    lunch = next(n for n in out if n.description == "have lunch")
    assert lunch.place == "Park"  # lunch where the agent is at the time


def test_an_early_risers_breakfast_is_not_put_inside_the_shift_after_it():
    """Arjun's "05:30 wake up and have breakfast" ended at 06:00, where the breakfast window began, so
    repair added "07:30 have breakfast" inside his 06:00-15:00 kitchen shift."""
    raw = day_plan([("05:30", "wake up and have breakfast", "home"), ("06:00", "cafe kitchen", "Hobbs Cafe"),
                    ("15:00", "read", "home")], day=0)
    out = plan_repair(raw, day=0, home=HOME, known_places=PLACES)
    assert [n.description for n in out if n.description == "have breakfast"] == []
    assert next(n for n in out if n.description == "cafe kitchen").start == 6 * 3600


def test_tree_current_boundary_and_replace_window_keeps_structure():
    nodes = plan_repair(day_plan([("07:00", "wake", "home"), ("09:00", "work", "Hobbs Cafe"),
                                  ("17:00", "walk", "Park")]), day=1, home=HOME, known_places=PLACES)
    tree = PlanTree(day=1, nodes=nodes)
    t = DAY_S + 10 * 3600
    work = tree.current(t)
    assert work.description == "work"
    kids = nodes_from_times([("09:00", "check emails", None), ("10:30", "serve coffee", None)], 1, "hour",
                            window=(work.start, work.end))
    tree.replace_window(work.start, work.end, kids)
    assert tree.current(t).description == "check emails"
    assert tree.next_boundary(t) == DAY_S + 10.5 * 3600
    replan = nodes_from_times([("11:00", "fix the espresso machine", None)], 1, "hour", window=(t + 3600, work.end))
    tree.replace_window(t + 3600, work.end, replan)
    assert [c.description for c in work.children] == ["check emails", "serve coffee", "fix the espresso machine"]
    assert [n.description for n in tree.nodes] == [n.description for n in nodes]  # day level untouched
    again = PlanTree.from_dict(tree.to_dict())
    assert again == tree and again.current(t + 7200).description == "fix the espresso machine"
    mins = minute_steps(nodes_from_times([("10:00", "a", None), ("10:02", "b", None), ("10:40", "c", None)], 1,
                                         "minute", window=(DAY_S + 36000, DAY_S + 39600)))
    assert all(5 * 60 <= n.end - n.start <= 15 * 60 for n in mins)


def test_a_run_of_leaves_saying_the_same_is_one_activity():
    nodes = plan_repair(day_plan([("07:00", "wake", "home"), ("09:00", "read", "Library"),
                                  ("12:00", "have lunch", "Library")]), day=1, home=HOME, known_places=PLACES)
    tree = PlanTree(day=1, nodes=nodes)
    read = tree.current(DAY_S + 9.5 * 3600)
    kids = nodes_from_times([("09:00", "read", None), ("10:00", "keep on: read", None), ("11:00", "Read", None)],
                            1, "hour", window=(read.start, read.end))
    tree.replace_window(read.start, read.end, [k.model_copy(update={"place": "Library"}) for k in kids])
    assert tree.current(DAY_S + 9.5 * 3600).end == DAY_S + 10 * 3600  # the leaf is one hour ...
    assert tree.run_end(DAY_S + 9.5 * 3600) == DAY_S + 12 * 3600  # ... the activity runs until lunch
    assert tree.run_end(DAY_S + 12.5 * 3600) == tree.current(DAY_S + 12.5 * 3600).end


@pytest.mark.model
def test_real_model_day_plan_is_repaired_valid(scheduler):
    book = CommitmentBook("Erica")
    jam = book.add(make_commitment("jam session", DAY_S + 18 * 3600, "School Music Room", "Ludwig",
                                   participants=["Erica"], source="heard-from-host"))
    ctx = PlanContext(name="Erica", age=27, adjectives="quite extraverted, a bit curious", occupation="barista",
                      lifestyle="wakes at 7, sleeps at 23", routine="works at Hobbs Cafe, plays guitar in the evening",
                      home=HOME, workplace="Hobbs Cafe", emotion="content", urgent_needs="Erica is hungry",
                      known_places=PLACES, start_date=START)
    planner = Planner(scheduler, book, agent="Erica")
    tree = asyncio.run(planner.make_day(1, ctx, date_label="Friday 2 January"))
    assert planner.records and planner.records[0].function == "daily_plan"
    assert_valid(tree.nodes, 1)
    assert any(n.commitment_id == jam.id and n.start == jam.start and n.place == jam.place for n in tree.nodes)
    due = planner.due_decompositions(DAY_S + 8.75 * 3600)
    assert due and all(n.start <= DAY_S + 9.25 * 3600 for n in due)


# --- perception reactions (III-A7) ---------------------------------------------------------
def _stove_registry():
    from garp.paths import ASSETS
    from garp.world.objects import ObjectRegistry, WorldObject, load_object_types

    kind = load_object_types(ASSETS / "objects.json")["stove"]
    stove = WorldObject(id="stove-1", type="stove", name=kind.name, kind=kind, x=64, y=64, tile=(2, 2),
                        place="Maya's House", room="Kitchen", owners=["Maya"])
    return ObjectRegistry([stove])


def test_reaction_planned_object_taken_triggers_replan_and_memory():
    from garp.mind.reaction import react_to_state_change
    from garp.world.perception import PerceptionEvent

    reg = _stove_registry()
    reg.occupy("stove-1", "Tom", 100.0, "cook")
    ev = PerceptionEvent("object_state", "Maya", "stove-1", reg.get("stove-1").describe_state(), "idle", "in use", 100.0)
    r = react_to_state_change(ev, agent="Maya", planned_object_id="stove-1", planned_verb="cook",
                              home="Maya's House", registry=reg)
    assert r.replan and r.update_affordances
    assert r.memory_text == "Maya saw Tom using the stove in Maya's House kitchen"  # as she remembers it
    assert r.appraise  # a stranger cooking in Maya's kitchen is salient
    other = react_to_state_change(ev, agent="Ana", planned_object_id="bed-2", home="Ana's House", registry=reg)
    assert other.memory_text and not other.replan and not other.appraise
    own = PerceptionEvent("object_state", "Tom", "stove-1", "the stove is in use by Tom", "idle", "in use", 100.0)
    assert react_to_state_change(own, agent="Tom", planned_object_id="stove-1", registry=reg).memory_text is None
    reg.release("stove-1", "Tom", 200.0)
    freed = PerceptionEvent("object_state", "Maya", "stove-1", "the stove is idle", "in use", "idle", 200.0)
    after = react_to_state_change(freed, agent="Maya", registry=reg).memory_text
    assert after == "Maya noticed the stove in Maya's House kitchen was dirty"  # what cooking left behind
    from garp.mind.reaction import remembered
    bench = types.SimpleNamespace(kind=types.SimpleNamespace(name="bench"), where=lambda: "Park", state="idle")
    assert remembered("Maya", bench, {}, "the bench in Park is idle") is None  # free again: nothing to remember
    broken = PerceptionEvent("object_state", "Ana", "stove-9", "the stove is broken", "idle", "broken", 5.0)
    rb = react_to_state_change(broken, agent="Ana", planned_object_id="stove-9")
    assert rb.appraise and rb.replan
    enter = PerceptionEvent("object_enter", "Ana", "stove-1", "the stove is idle", "", "idle", 5.0)
    re_ = react_to_state_change(enter, agent="Ana")
    assert re_.update_affordances and re_.memory_text is None and not re_.replan


class FallbackScheduler:
    """Answers every call with the function's declared fallback, as the real scheduler does when the model fails."""

    def __init__(self):
        self.calls = []

    async def call(self, fn, inputs, *, agent, deadline=None, game_time=0.0, retrieved=None):
        from garp.engine.lmfunction import new_record

        self.calls.append(fn.name)
        rec = new_record(agent, fn.name, game_time, fn.messages(inputs, False))
        rec.fallback_used, rec.error = True, "model unavailable"
        return fn.fallback(inputs), rec


def test_planner_orchestration_on_fallbacks_keeps_structure_and_commitments():
    sched = FallbackScheduler()
    book = CommitmentBook("Erica")
    ctx = PlanContext(name="Erica", age=27, adjectives="curious", home=HOME, workplace="Hobbs Cafe",
                      routine="07:00 wake up; 08:30 walk to work; 09:00 make coffee at Hobbs Cafe; 18:00 guitar",
                      known_places=PLACES, start_date=START)
    planner = Planner(sched, book, agent="Erica", minute_level=True)
    tree = asyncio.run(planner.make_day(1, ctx))
    assert_valid(tree.nodes, 1)
    assert any(n.description == "make coffee at Hobbs Cafe" for n in tree.nodes)  # the persona's routine
    assert all(n.source in ("fallback", "repair") for n in tree.nodes)
    # a commitment made during the day is in the plan at once
    jam = planner.add_commitment(make_commitment("jam session", DAY_S + 20 * 3600, "School Music Room", "Ludwig",
                                                 source="heard-from-host"))
    assert_valid(tree.nodes, 1)
    assert any(n.commitment_id == jam.id and n.start == jam.start for n in tree.nodes)
    day_level = [(n.start, n.description) for n in tree.nodes]
    t = DAY_S + 9.5 * 3600
    due = planner.due_decompositions(t)
    assert due
    for node in due:  # the buffer-zone lookahead, as the cognition pipeline runs it
        asyncio.run(planner.decompose(node, t=t))
    assert tree.current(t).level in ("hour", "minute")
    assert not any(n.start > t + 1800 and n.children for n in tree.nodes)  # nothing beyond the buffer zone
    assert [(n.start, n.description) for n in tree.nodes] == day_level  # broader structure kept
    assert sched.calls[0] == "daily_plan" and "hourly_decomposition" in sched.calls


@pytest.mark.parametrize("routine", ["", "07:00 wake up", "wakes at 7, 13:00 lunch at the Park, 19:30 dinner",
                                     "06:00 run; 07:00 shower; 08:00 work at Library; 12:00 lunch; 13:00 work; "
                                     "17:00 gym; 19:00 dinner; 21:00 read; 22:30 sleep"])
def test_routine_fallback_is_always_a_valid_day_plan(routine):
    from garp.mind.planning import DailyPlan, DailyPlanInputs

    ctx = PlanContext(name="Erica", home=HOME, workplace="Hobbs Cafe", routine=routine, known_places=PLACES)
    out = DailyPlan().fallback(DailyPlanInputs(ctx=ctx, day=0, date_label="1 Jan"))
    assert 5 <= len(out.activities) <= 8
    nodes = nodes_from_times([(a.start, a.activity, a.place) for a in out.activities], 0, "day", "fallback")
    assert_valid(plan_repair(nodes, day=0, home=HOME, known_places=PLACES), 0)


def test_a_meal_the_character_skips_is_not_put_back_by_the_repair():
    """Felix "skips breakfast": his routine left it out, then the repair gave him one at 07:30, and a play
    showed him eat it twice. The day his planner keeps has lunch and dinner and no breakfast."""
    from garp.mind.planning import DailyPlan, DailyPlanInputs, Planner

    lifestyle = "Felix stays up far too late, skips breakfast, and eats enormous dinners."
    ctx = PlanContext(name="Felix", home=HOME, workplace="Hobbs Cafe", lifestyle=lifestyle,
                      routine="Lectures or shifts during the day, friends and games in the evening.", known_places=PLACES)
    planner = Planner(None, CommitmentBook("Felix"), agent="Felix")
    planner.ctx = ctx
    acts = DailyPlan().fallback(DailyPlanInputs(ctx=ctx, day=0, date_label="1 Jan")).activities
    day = planner.repair(nodes_from_times([(a.start, a.activity, a.place) for a in acts], 0, "day", "routine"), 0)
    meals = [n.description for n in day if is_meal(n.description)]
    assert not any("breakfast" in m for m in meals) and any("lunch" in m for m in meals) and \
        any("dinner" in m for m in meals), meals
    everyone = plan_repair(nodes_from_times([(a.start, a.activity, a.place) for a in acts], 0, "day", "routine"),
                           day=0, home=HOME, known_places=PLACES)
    assert any("breakfast" in n.description for n in everyone)  # one who skips nothing is given it


def test_routine_fallback_works_at_home_unless_retired():
    from garp.mind.planning import routine_activities
    composer = PlanContext(name="Ludwig", home=HOME, occupation="composer and music teacher", known_places=PLACES)
    doing = [a.activity for a in routine_activities(composer) if a.start == "09:00"]
    assert doing == ["work at home as a composer and music teacher"]
    retired = PlanContext(name="Greta", home=HOME, occupation="retired landlady", known_places=PLACES)
    assert [a.activity for a in routine_activities(retired) if a.start == "09:00"] == ["read and tidy up"]
    artist = PlanContext(name="Ren", home=HOME, occupation="illustrator", known_places=PLACES)
    assert [a.activity for a in routine_activities(artist) if a.start == "09:00"] == ["work at home as an illustrator"]


def test_steps_that_only_name_a_time_are_rejected():
    for text in ["13:30", "1:30", "  ", "1.00", "20:00 - 23:", "7 pm"]:
        assert is_time_only(text), text
    for text in ["read a book", "keep on: relax", "9 to 5 shift"]:
        assert not is_time_only(text), text
    ctx = PlanContext(name="Erica", age=30, home=HOME, known_places=PLACES)
    inputs = DecomposeInputs(ctx=ctx, activity="free time", place=HOME, start=17.5 * 3600, end=19 * 3600)
    fn = HourlyDecomposition()
    with pytest.raises(ValueError):
        fn.check(inputs, HourSteps(steps=[Step(start="17:30", task="17:30"), Step(start="18:15", task="read")]))
    ok = HourSteps(steps=[Step(start="17:30", task="read a novel"), Step(start="18:15", task="water plants")])
    assert fn.check(inputs, ok) is ok
    assert not any(is_time_only(s.task) for s in fn.fallback(inputs).steps)


def test_decomposition_fallback_never_nests_keep_on():
    from garp.mind.plan_tree import KEEP_ON
    from garp.mind.planning import DecomposeInputs, MinuteDecomposition

    ctx = PlanContext(name="Erica", home=HOME, workplace="Hobbs Cafe", known_places=PLACES)
    inner = DecomposeInputs(ctx=ctx, activity=KEEP_ON + "read and tidy up", place=HOME, start=3600.0, end=7200.0)
    tasks = [s.task for s in MinuteDecomposition().fallback(inner).steps]
    assert tasks[-1] == "keep on: read and tidy up" and not any("keep on: keep on" in t for t in tasks)


@pytest.mark.parametrize("raw, shown", [("2.0: Arjun's work", "Arjun's work"), ("Step 3 - knead the dough", "knead the dough"),
                                        ("1. sweep the floor", "sweep the floor"), ("12:30 lunch", "12:30 lunch")])
def test_step_numbering_is_not_part_of_the_task(raw, shown):
    assert Step(start="10:00", task=raw).task == shown


def test_a_working_day_goes_on_after_lunch():
    """Sam's "Office from nine to five" once became work until 12:30 and a lunch (then hours of
    "tidy up") until five: lunch inside the working day lasts an hour, and work resumes."""
    from garp.mind.routine import persona_day
    items, _ = persona_day("Office from nine to five, then walking around town.", "", home="Greta's House",
                           workplace="Town Office", place_of=lambda text: None)
    day = [(i.hour, i.what, i.place) for i in items]
    assert (12.5, "have lunch", "Town Office") in day and (13.5, "work", "Town Office") in day
    assert [i.hour for i in items if i.what == "work"] == [9.0, 13.5]


TOWN = ["Ludwig's House", "Lena's House", "Oliver's Flat", "Oak Hill School", "Town Office", "Johnson Park"]


def test_a_persona_day_puts_clauses_where_they_say_and_dinner_does_not_take_the_evening():
    """Seen in play: Lena's "lessons at school" at her house, Oliver's "a sandwich at his desk" at his
    flat in the middle of his office day, and "19:00-23:30 have dinner" for Ludwig."""
    from garp.mind.planning import routine_activities

    def day(name, home, workplace, routine, lifestyle=""):
        ctx = PlanContext(name=name, home=home, workplace=workplace, routine=routine, lifestyle=lifestyle,
                          known_places=TOWN)
        return {a.start: (a.activity, a.place) for a in routine_activities(ctx)}
    lena = day("Lena", "Lena's House", "Oak Hill School",
               "Scales and repertoire in the morning, lessons at school, more practice at night.")
    assert lena["10:30"] == ("lessons at school", "Oak Hill School")
    oliver = day("Oliver", "Oliver's Flat", "Town Office", "Office from nine to five, a sandwich at his desk, "
                 "a walk home the long way, dinner and a crossword.")
    assert oliver["12:30"] == ("a sandwich at his desk", "Town Office") and is_meal("a sandwich at his desk")
    ludwig = day("Ludwig", "Ludwig's House", None, "Mornings at the piano, evenings composing or playing "
                 "with friends.", "Ludwig goes to bed after midnight.")
    assert ludwig["19:00"] == ("have dinner", "Ludwig's House")
    assert ludwig["20:00"] == ("evenings composing or playing with friends", "Ludwig's House")
