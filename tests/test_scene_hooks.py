"""Scene hooks of garp.sim.hooks: stage nerves rise toward the performance (V-B stage fright)."""

from __future__ import annotations

import json

import pytest

from garp.mind.commitments import make_commitment
from garp.mind.emotion import EmotionState
from garp.scenario.loader import load_scenario, scenario_path
from garp.sim.hooks import NERVES_PEAK_INTENSITY, OPENING_EMOTIONS, SceneHooks

H = 3600.0


@pytest.fixture(scope="module")
def hooks():
    return SceneHooks(load_scenario("stage_fright"))  # Lena's recital at 19:00, scene opens 14:00


def opening(t=14 * H):
    label, intensity, valence, desc = OPENING_EMOTIONS["stage_nerves"]
    return EmotionState(label=label, intensity=intensity, valence=valence, description=desc, t=t)


def test_nerves_climb_toward_the_recital(hooks):
    assert hooks.performance_t("Lena") == 19 * H
    assert hooks.rising_nerves("Lena", opening(), 14 * H) is None  # the opening state already holds
    mid = hooks.rising_nerves("Lena", opening(), 16.5 * H)
    assert mid["label"] == "anxious" and mid["intensity"] == pytest.approx(0.75) and mid["valence"] < -0.4
    late = hooks.rising_nerves("Lena", EmotionState(**mid, t=16.5 * H), 18.9 * H)
    assert mid["intensity"] < late["intensity"] < NERVES_PEAK_INTENSITY
    assert "19:00" in late["description"]


def test_nerves_hold_off_after_support_and_stop_at_the_show(hooks):
    reassured = EmotionState(label="hopeful", intensity=0.5, valence=0.3, t=17 * H)
    assert hooks.rising_nerves("Lena", reassured, 18 * H) is None
    calmer = EmotionState(label="neutral", intensity=0.3, valence=-0.1, t=17 * H)  # not positive: nerves return
    assert hooks.rising_nerves("Lena", calmer, 18 * H)["label"] == "anxious"
    assert hooks.rising_nerves("Lena", opening(), 19.5 * H) is None
    assert hooks.rising_nerves("Dara", opening(), 18 * H) is None  # only the performer


def demo_hook(name: str) -> SceneHooks:
    """A scenario with its intention run as the invitation_round demo hook instead."""
    from garp.scenario.schema import Scenario
    doc = json.loads(scenario_path(name).read_text())
    i = doc.pop("intentions")[0]
    params = {k: i[k] for k in ("what", "day", "start", "end", "place")} | ({"room": i["room"]} if i.get("room") else {})
    doc["hooks"] = doc.get("hooks", []) + [{"name": "invitation_round", "agents": [i["owner"]], "params": params}]
    return SceneHooks(Scenario.model_validate(doc))


def test_invitation_visits_see_working_guests_after_work_with_a_walk_between():
    from garp.mind.news import invitation_visits
    sc = load_scenario("birthday_party")  # scene opens 15:00, party tomorrow 18:00
    i = sc.intentions[0]
    event = make_commitment(i.what, 86400 + 18 * H, i.place, i.owner, participants=i.invite, end=86400 + 21 * H)
    homes = {"Ludwig": "Ludwig's House", "Erica": "Erica's House", "Oliver": "Oliver's Flat",
             "Mika": "Mika's House", "Ren": "Ren's House"}
    work = {"Ludwig": None, "Erica": "Hobbs Cafe", "Oliver": "Town Office", "Mika": "Corner Shop", "Ren": None}
    visits = invitation_visits(event, i.invite, homes, work, sc.start_seconds)
    assert visits == demo_hook("birthday_party").invitation_visits(homes, work)  # the demo hook plans the same
    assert visits[0].place == "Ren's House" and visits[0].start == 15.5 * H  # home all day: first
    seen = {g for v in visits for g in v.participants if g != "Ludwig"}
    assert seen == set(i.invite)  # every guest gets a visit before the party
    assert all(v.start >= 18 * H for v in visits[1:])  # the others are at work until the evening
    assert all(v.start % 86400 <= 21 * H for v in visits)  # nobody is called on late at night
    late = [v for v in visits if v.start >= 86400]  # a call left for the party's day finds the guest at work
    assert all(v.place == work[v.participants[0] if v.participants[0] != "Ludwig" else v.participants[1]]
               for v in late) and all(v.end <= event.start for v in visits)
    for a, b in zip(visits, visits[1:]):
        assert b.start - a.end >= 45 * 60  # time to walk across town
    assert all(v.host == "Ludwig" and v.end - v.start == 60 * 60 for v in visits)


def test_only_the_host_brings_up_the_invitation_whoever_speaks_first():
    jam = demo_hook("jam_session")
    said = jam.topic("Ludwig", "Erica")
    assert "jam session" in said and "Oak Hill School" in said and "tomorrow at 18:00" in said
    assert jam.topic("Erica", "Ludwig") == ""  # the guest has nothing to announce
    heard = jam.heard_from_host("Ludwig", "Erica", 20 * H)
    assert heard.source == "heard-from-host" and heard.heard_from == "Ludwig" and heard.start == 86400 + 18 * H


def test_the_jam_is_arranged_in_the_music_room_and_kept_there():
    import types
    from garp.mind.commitments import CommitmentBook
    from garp.mind.plan_tree import PlanTree
    from garp.mind.planning import PlanContext, Planner
    from garp.sim.pipeline import Brain
    host, event, guests = demo_hook("jam_session").invitation()
    assert (host, event.place, event.room, guests) == ("Ludwig", "Oak Hill School", "Music Room", ["Erica"])
    planner = Planner(None, CommitmentBook("Erica"), agent="Erica")
    planner.ctx = PlanContext(name="Erica", home="Erica's House", known_places=["Erica's House", "Oak Hill School"])
    planner.add_commitment(event)
    planner.tree = PlanTree(day=event.day, nodes=planner.repair([], event.day))
    block = planner.tree.current(event.start + 60)
    assert block.room == "Music Room"
    obj = lambda room: types.SimpleNamespace(place="Oak Hill School", room=room)  # noqa: E731
    objects = [obj("Classroom"), obj("Music Room"), obj("Classroom")]
    assert [o.room for o in Brain._in_room(objects, planner, block)] == ["Music Room"]
