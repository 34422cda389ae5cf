"""Object types, affordances and the registry's state changes (issue 3 section 1, paper III intro / III-A5)."""

import json

import pytest

from garp.errors import GarpError
from garp.paths import ASSETS, SCHEMAS
from garp.world.objects import (
    IDLE, IN_USE, NEEDS, ObjectRegistry, WorldObject, load_object_types, object_types_json_schema, relief_rate,
)


@pytest.fixture(scope="module")
def types():
    return load_object_types(ASSETS / "objects.json")


def make(types, oid, tid, x=0.0, y=0.0, place="Maya's House", room="Kitchen", owners=("Maya",)):
    return WorldObject(id=oid, type=tid, name=types[tid].name, kind=types[tid], x=x, y=y,
                       tile=(int(x) // 32, int(y) // 32), place=place, room=room, owners=list(owners))


def test_types_file_is_valid_and_covers_the_needs(types):
    assert len(types) >= 25
    assert types["stove"].affordance("cook").relieves["hunger"] > 0
    assert types["bed"].affordance("sleep").relieves["rest"] >= 0.9
    relieved = {n for t in types.values() for a in t.affordances for n in a.relieves}
    assert relieved == set(NEEDS)
    for t in types.values():
        assert (ASSETS / t.sprite).is_file(), t.sprite


def test_published_schema_matches_the_model():
    published = json.loads((SCHEMAS / "object-types.schema.json").read_text())
    assert published == json.loads(json.dumps(object_types_json_schema()))


def test_bad_types_file_names_file_and_field(tmp_path, types):
    raw = json.loads((ASSETS / "objects.json").read_text())
    raw["types"]["stove"]["affordances"][0]["relieves"] = {"sleepiness": 0.2}
    bad = tmp_path / "objects.json"
    bad.write_text(json.dumps(raw))
    with pytest.raises(GarpError) as e:
        load_object_types(bad)
    assert str(bad) in str(e.value) and "stove" in str(e.value) and "sleepiness" in str(e.value)
    raw["types"]["stove"]["affordances"][0]["relieves"] = {"hunger": 0.5}
    raw["types"]["stove"]["affordances"][0]["leaves_state"] = "on fire"
    bad.write_text(json.dumps(raw))
    with pytest.raises(GarpError, match="on fire"):
        load_object_types(bad)


def test_describe_state_names_place_room_and_user(types):
    reg = ObjectRegistry([make(types, "stove", "stove")])
    assert reg.get("stove").describe_state() == "the stove in Maya's House kitchen is idle"
    assert reg.occupy("stove", "Maya", 10.0, "cook")
    assert reg.get("stove").describe_state() == "the stove in Maya's House kitchen is in use by Maya"


def test_subscribers_hear_only_their_object(types):
    reg = ObjectRegistry([make(types, "stove", "stove"), make(types, "fridge", "fridge", x=40)])
    heard_stove, heard_fridge, heard_all = [], [], []
    tok = reg.subscribe("stove", lambda o, old, new, t: heard_stove.append((o.id, old, new, t)))
    reg.subscribe("fridge", lambda o, old, new, t: heard_fridge.append((o.id, old, new, t)))
    reg.subscribe_all(lambda o, old, new, t: heard_all.append(o.id))
    reg.occupy("stove", "Maya", 5.0, "cook")
    assert heard_stove == [("stove", IDLE, IN_USE, 5.0)] and heard_fridge == []
    reg.release("stove", "Maya", 45.0)
    assert heard_stove[-1] == ("stove", IN_USE, "dirty", 45.0) and heard_fridge == []
    reg.unsubscribe(tok)
    reg.set_state("stove", IDLE, 50.0)
    assert len(heard_stove) == 2 and heard_all == ["stove", "stove", "stove"]
    assert reg.subscriber_count("stove") == 0 and reg.subscriber_count("fridge") == 1


def test_capacity_is_respected(types):
    reg = ObjectRegistry([make(types, "bench", "bench", place="Johnson Park", room="", owners=()),
                          make(types, "stove", "stove")])
    assert reg.occupy("bench", "Ana", 0.0, "sit") and reg.occupy("bench", "Bo", 0.0, "sit")
    assert not reg.occupy("bench", "Cy", 0.0, "sit")
    assert reg.get("bench").describe_state().endswith("in use by Ana and Bo")
    assert reg.occupy("stove", "Maya", 0.0, "cook")
    assert not reg.occupy("stove", "Priya", 0.0, "cook")
    reg.release("bench", "Ana", 1.0)
    assert reg.get("bench").state == IN_USE and reg.occupy("bench", "Cy", 1.0, "sit")


def test_leaves_state_dirty_then_clean(types):
    reg = ObjectRegistry([make(types, "stove", "stove")])
    reg.occupy("stove", "Maya", 0.0, "cook")
    reg.release("stove", "Maya", 40.0)
    stove = reg.get("stove")
    assert stove.state == "dirty" and stove.describe_state().endswith("is dirty")
    assert [a.verb for a in stove.available_affordances()] == ["clean"]
    assert not reg.occupy("stove", "Priya", 41.0, "cook")
    assert reg.occupy("stove", "Priya", 41.0, "clean")
    reg.release("stove", "Priya", 51.0)
    assert stove.state == IDLE and reg.can_use("stove", "cook")


def test_clean_helper_follows_the_cleaning_affordance(types):
    reg = ObjectRegistry([make(types, "stove", "stove"), make(types, "fridge", "fridge")])
    assert not reg.clean("stove", 0.0)  # already idle
    reg.set_state("stove", "dirty", 1.0)
    assert reg.clean("stove", 2.0) and reg.get("stove").state == IDLE
    assert not reg.clean("fridge", 2.0)


def test_interrupted_use_does_not_leave_state(types):
    reg = ObjectRegistry([make(types, "stove", "stove")])
    reg.occupy("stove", "Maya", 0.0, "cook")
    reg.release("stove", "Maya", 5.0, completed=False)
    assert reg.get("stove").state == IDLE


def test_set_state_rejects_unknown_state(types):
    reg = ObjectRegistry([make(types, "stove", "stove")])
    with pytest.raises(GarpError, match="allowed"):
        reg.set_state("stove", "exploded", 0.0)
    with pytest.raises(GarpError, match="unknown object id"):
        reg.get("nope")


def test_near_matches_brute_force(types):
    objs = [make(types, f"p{i}", "plant", x=(i * 37) % 900, y=(i * 53) % 700) for i in range(60)]
    reg = ObjectRegistry(objs)
    for (x, y, r) in ((100, 100, 150), (450, 350, 300), (0, 0, 40)):
        want = sorted((o for o in objs if (o.x - x) ** 2 + (o.y - y) ** 2 <= r * r),
                      key=lambda o: ((o.x - x) ** 2 + (o.y - y) ** 2, o.id))
        assert [o.id for o in reg.near(x, y, r)] == [o.id for o in want]
    assert [o.id for o in reg.in_place("Kitchen")] == [o.id for o in objs]


def test_relief_rate_spreads_total_over_duration(types):
    cook = types["stove"].affordance("cook")
    assert relief_rate(cook, "hunger") == pytest.approx(cook.relieves["hunger"] / cook.duration_min)
    assert relief_rate(cook, "hygiene") == 0.0
