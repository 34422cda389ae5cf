"""Perception (III-A7): objects in range are connected, state changes arrive as events."""

import pytest

from garp.errors import GarpError
from garp.paths import ASSETS
from garp.world.objects import ObjectRegistry, WorldObject, load_object_types
from garp.world.perception import Perception, ids

TYPES = load_object_types(ASSETS / "objects.json")


def obj(object_id: str, type_name: str, tile: tuple[int, int]) -> WorldObject:
    kind = TYPES[type_name]
    w, h = kind.size
    return WorldObject(id=object_id, type=type_name, name=kind.name, kind=kind,
                       x=tile[0] * 32 + w * 16, y=tile[1] * 32 + h * 16, tile=tile,
                       place="Test House", room="Kitchen")


@pytest.fixture
def registry():
    # stove at tile (2, 2), fridge at (3, 2); bench far away at (40, 2)
    return ObjectRegistry([obj("stove1", "stove", (2, 2)), obj("fridge1", "fridge", (3, 2)),
                           obj("bench1", "bench", (40, 2))])


def center(tx, ty):
    return (tx * 32 + 16, ty * 32 + 16)


def test_objects_entering_range_are_connected_and_leaving_disconnected(registry):
    p = Perception(registry, radius_px=128)
    events = p.update({"Ana": center(2, 4)}, t=0)
    assert sorted(ids(events, "object_enter")) == ["fridge1", "stove1"]
    assert registry.subscriber_count("stove1") == 1
    assert registry.subscriber_count("bench1") == 0
    assert p.objects_seen("Ana") == {"stove1", "fridge1"}
    assert any("stove" in e.description for e in events if e.object_id == "stove1")

    events = p.update({"Ana": center(38, 4)}, t=60)
    assert sorted(ids(events, "object_leave")) == ["fridge1", "stove1"]
    assert ids(events, "object_enter") == ["bench1"]
    assert registry.subscriber_count("stove1") == 0
    assert registry.subscriber_count("fridge1") == 0
    assert registry.subscriber_count("bench1") == 1


def test_state_change_in_range_reaches_the_agent(registry):
    p = Perception(registry, radius_px=128)
    p.update({"Ana": center(2, 4), "Ben": center(38, 4)}, t=0)
    p.drain()  # discard the enter events
    assert registry.occupy("stove1", "Cal", t=100, verb="cook")
    ana = p.events_for("Ana")
    assert [e.kind for e in ana] == ["object_state"]
    e = ana[0]
    assert (e.agent, e.object_id, e.old, e.new, e.t) == ("Ana", "stove1", "idle", "in use", 100)
    assert "in use by Cal" in e.description
    assert p.events_for("Ana") == []  # drained
    assert p.events_for("Ben") == []  # out of range: nothing


def test_no_event_after_the_object_left_range(registry):
    p = Perception(registry, radius_px=128)
    p.update({"Ana": center(2, 4)}, t=0)
    p.update({"Ana": center(30, 10)}, t=60)
    p.drain()
    registry.occupy("stove1", "Cal", t=120, verb="cook")
    registry.release("stove1", "Cal", t=200)
    assert p.events_for("Ana") == []


def test_release_leaves_dirty_state_event(registry):
    p = Perception(registry, radius_px=128)
    p.update({"Ana": center(2, 4)}, t=0)
    registry.occupy("stove1", "Ana", t=10, verb="cook")
    registry.release("stove1", "Ana", t=2410)
    states = [(e.old, e.new) for e in p.drain() if e.kind == "object_state"]
    assert states == [("idle", "in use"), ("in use", "dirty")]


def test_agents_enter_and_leave_each_others_range(registry):
    p = Perception(registry, radius_px=128)
    events = p.update({"Ana": center(10, 10), "Ben": center(12, 10), "Cal": center(30, 10)}, t=0)
    assert ids([e for e in events if e.agent == "Ana"], "agent_enter") == ["Ben"]
    assert ids([e for e in events if e.agent == "Ben"], "agent_enter") == ["Ana"]
    assert not [e for e in events if e.agent == "Cal" and e.kind == "agent_enter"]

    events = p.update({"Ana": center(10, 10), "Ben": center(28, 10), "Cal": center(30, 10)}, t=60)
    assert ids([e for e in events if e.agent == "Ana"], "agent_leave") == ["Ben"]
    assert ids([e for e in events if e.agent == "Cal"], "agent_enter") == ["Ben"]
    assert p.agents_seen("Ben") == {"Cal"}

    events = p.update({"Ana": center(10, 10), "Ben": center(28, 10)}, t=120)  # Cal removed
    assert ids([e for e in events if e.agent == "Ben"], "agent_leave") == ["Cal"]


def test_ranges_recomputed_only_on_tile_change_or_throttle(registry):
    p = Perception(registry, radius_px=128, throttle_s=60)
    p.update({"Ana": center(2, 4)}, t=0)
    assert p.checks == 1
    for i in range(10):  # small moves inside the same tile, within the throttle
        p.update({"Ana": (80 + i, 144)}, t=i)
    assert p.checks == 1
    p.update({"Ana": center(3, 4)}, t=20)
    assert p.checks == 2
    p.update({"Ana": center(3, 4)}, t=90)
    assert p.checks == 3


def test_removed_agent_is_disconnected(registry):
    p = Perception(registry, radius_px=128)
    p.update({"Ana": center(2, 4)}, t=0)
    p.update({}, t=10)
    assert registry.subscriber_count("stove1") == 0
    p.update({"Ana": center(2, 4)}, t=20)
    p.close()
    assert registry.subscriber_count("stove1") == 0


def test_bad_radius_is_a_clear_error(registry):
    with pytest.raises(GarpError, match="radius_px"):
        Perception(registry, radius_px=0)


def test_on_the_real_map_a_neighbour_cooking_reaches_the_agent_in_the_kitchen():
    import random

    from garp.paths import MAPS
    from garp.world.town_map import TownMap
    from garp.world.world import World

    town = TownMap.load(MAPS / "town.tmx")
    world = World(town, town.build_objects(), None, random.Random(1))
    perception = Perception(world.objects)
    world.add_agent("Ana", "Ludwig's House: Kitchen")
    world.add_agent("Ben", "Ludwig's House: Kitchen")
    world.add_agent("Cal", "Corner Shop")
    perception.update(world.positions(), t=0)
    assert "ludwigs-house/stove" in perception.objects_seen("Ana")
    assert "Ben" in perception.agents_seen("Ana")
    perception.drain()
    assert world.walk_to("Ben", "ludwigs-house/stove")
    t = 0.0
    while world.bodies["Ben"].moving:
        t += 5.0
        world.step(5.0, t)
        perception.update(world.positions(), t)
    assert world.start_use("Ben", "ludwigs-house/stove", "cook", t)
    seen = [e for e in perception.events_for("Ana") if e.kind == "object_state"]
    assert [e.description for e in seen] == ["the stove in Ludwig's House kitchen is in use by Ben"]
    assert not [e for e in perception.events_for("Cal") if e.kind == "object_state"]
