"""Personality reaching behaviour through rules in code (III-A4/5/8, VI-c): same rules, different traits."""

from __future__ import annotations

import pytest

from garp.mind.action import utility
from garp.mind.affordance_filter import CAP, Candidate, with_novel
from garp.mind.needs import DEFAULT_RATES, Needs
from garp.mind.persona import parse_traits
from garp.mind.personality import CompiledPersonality
from garp.mind.plan_repair import FREE_TIME, Friend, end_visit, seek_company
from garp.mind.plan_tree import PlanNode, PlanTree

H = 3600.0
HOME = "Mika's House"
FRIENDS = [Friend("Ren", "Ren's House", 0.48)]


def _evening() -> PlanTree:
    def n(a, b, d):
        return PlanNode(start=a * H, end=b * H, description=d, place=HOME, source="fallback")
    return PlanTree(day=0, nodes=[n(0, 7, "sleep"), n(7, 17.5, "read and tidy up"), n(17.5, 19, "free time"),
                                  n(19, 20, "have dinner"), n(20, 23, "relax at home"), n(23, 24, "sleep")])


def _needs(traits: str, t: float) -> Needs:
    p = CompiledPersonality(name="Mika", personality="", traits=parse_traits(traits), base_rates=dict(DEFAULT_RATES))
    needs = Needs(p.need_rates)
    needs.settle_day_so_far(t)
    return needs


@pytest.mark.parametrize("traits, visits", [("very extraverted", True), ("very introverted", False), ("", False)])
def test_same_evening_extravert_replans_a_visit_others_stay(traits, visits):
    t = 17 * H + 300
    needs, tree = _needs(traits, t), _evening()
    visit = seek_company(tree, t, home=HOME, social=needs.values["social"], social_rate=needs.rates["social"],
                         friends=FRIENDS)
    assert (visit is not None) == visits
    if visits:
        assert visit.place == "Ren's House" and visit.start == 17.5 * H and visit.end == 23 * H
        assert "Ren" in visit.description and tree.current(21 * H).place == "Ren's House"
        assert tree.current(23.5 * H).description == "sleep"  # sleep and the rest of the day untouched
    else:
        assert all(n.place == HOME for n in tree.nodes)


def test_a_visit_that_finds_the_friend_out_becomes_the_evening_at_home():
    t = 17 * H + 300
    needs, tree = _needs("very extraverted", t), _evening()
    visit = seek_company(tree, t, home=HOME, social=needs.values["social"], social_rate=needs.rates["social"],
                         friends=FRIENDS)
    assert visit.visiting == "Ren" and "over dinner" in visit.description
    back = end_visit(tree, visit, 18 * H, HOME)
    assert (back.start, back.end, back.place) == (18 * H, 23 * H, HOME)
    assert back.description == f"dinner and {FREE_TIME}"  # the shared dinner is eaten at home
    assert tree.current(17.75 * H).place == "Ren's House"  # the walk there already happened
    assert tree.current(21 * H).place == HOME and tree.current(23.5 * H).description == "sleep"


def test_no_visit_without_a_close_friend_or_free_time():
    t = 17 * H + 300
    needs = _needs("very extraverted", t)
    kw = dict(home=HOME, social=needs.values["social"], social_rate=needs.rates["social"])
    assert seek_company(_evening(), t, friends=[Friend("Ren", "Ren's House", 0.05)], **kw) is None
    assert seek_company(_evening(), t, friends=[Friend("Flatmate", HOME, 0.9)], **kw) is None
    busy = _evening()
    for node in busy.nodes:
        if node.description in ("free time", "relax at home"):
            node.description = "write the quarterly report"
    assert seek_company(busy, t, friends=FRIENDS, **kw) is None


def test_day_so_far_raises_needs_at_their_rates():
    fresh, evening = Needs(), Needs()
    evening.settle_day_so_far(17 * H, skip=["rest"])
    assert evening.values["social"] == pytest.approx(fresh.values["social"] + 10 * DEFAULT_RATES["social"])
    assert evening.values["hunger"] == pytest.approx(fresh.values["hunger"] + (17 - 13.25) * DEFAULT_RATES["hunger"])
    assert evening.values["rest"] == fresh.values["rest"]
    morning = Needs()
    morning.settle_day_so_far(6 * H)
    assert morning.values == fresh.values


def _cand(place: str, score: float = 0.5) -> Candidate:
    return Candidate(object_id=f"{place}/x", verb="sit", description=f"sit at {place}", place=place,
                     distance=100.0, sim=score, prox=0.5, own=0.0, score=score, relieves={"fun": 0.2})


def test_novelty_raises_an_unvisited_place_for_the_curious_only():
    needs = {"fun": 0.4}
    seen, new = _cand("Town Library"), _cand("Hobbs Cafe")
    visited = ["Noor's House", "Town Library"]
    curious, conventional = 0.75, -0.75
    assert utility(new, needs, curious, visited) > utility(seen, needs, curious, visited)
    assert utility(new, needs, conventional, visited) < utility(seen, needs, conventional, visited)
    assert utility(new, needs, 0.0, visited) == utility(seen, needs, 0.0, visited)


def test_novel_candidates_get_reserved_slots_one_per_place():
    base = [_cand("Town Library", 0.9 - i / 100) for i in range(CAP)]
    novel = [_cand("Hobbs Cafe", 0.4), _cand("Hobbs Cafe", 0.3), _cand("Park", 0.2)]
    merged = with_novel(base, novel)
    assert len(merged) == CAP
    assert [c.place for c in merged[-2:]] == ["Hobbs Cafe", "Park"]


def test_free_time_that_is_ending_offers_no_novel_places_for_the_next_block():
    """A curious agent out at 22:40 whose free time ends at 23:00 decides for the night's sleep:
    no public place is offered then (seen: a host sent to a library armchair to 'sleep')."""
    import types

    from garp.sim.messages import BodySnapshot, DecideJob
    from garp.sim.pipeline import Brain
    tree = _evening()
    curious = types.SimpleNamespace(personality=types.SimpleNamespace(axis_values=lambda: {"novelty": 0.75}),
                                    persona=types.SimpleNamespace(home=HOME))
    library = types.SimpleNamespace(place="Town Library")
    p = DecideJob(agent="Mika", asked_t=22.7 * H, due_t=22.7 * H, objects=(library,),
                  body=BodySnapshot(x=0.0, y=0.0, place="Ren's House", room=None), needs=None, current="", using=None,
                  recent_uses=(), company_at=None, friend_out=False, company_rooms=(), visited=("Ren's House",))
    sleep, relax = tree.current(23.5 * H), tree.current(21 * H)
    assert Brain._novel_objects(curious, tree, sleep, 22.7 * H, p) == []
    assert Brain._novel_objects(curious, tree, relax, 21 * H, p) == [library]
