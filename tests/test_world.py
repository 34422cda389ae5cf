"""World on the real town map: doors, walls, re-planning, object use and its log."""

import math
import random

import pytest

from garp.errors import GarpError
from garp.eventlog import EventLog
from garp.paths import MAPS
from garp.world.town_map import TownMap
from garp.world.world import TILE_PX, WALK_SPEED_PX_S, World

STOVE = "ludwigs-house/stove"


@pytest.fixture(scope="module")
def town():
    return TownMap.load(MAPS / "town.tmx")


@pytest.fixture
def world(town):
    log = EventLog()
    return World(town, town.build_objects(), log, random.Random(7))


def walk(world, name, t=0.0, dt=5.0, limit=20000):
    """Step until the body stops; returns (end time, tiles visited in order)."""
    body = world.bodies[name]
    tiles = [body.tile]
    for _ in range(limit):
        t += dt
        world.step(dt, t)
        if body.tile != tiles[-1]:
            tiles.append(body.tile)
        if not body.moving:
            return t, tiles
    raise AssertionError(f"{name} never stopped walking")


def test_walk_to_a_place_goes_through_both_doors_and_logs_arrive(world, town):
    body = world.add_agent("Ana", "Hobbs Cafe")
    assert body.place == "Hobbs Cafe"
    assert world.walk_to("Ana", "Ludwig's House", t=0)
    _, tiles = walk(world, "Ana")
    assert town.places["Hobbs Cafe"].door in tiles
    assert town.places["Ludwig's House"].door in tiles
    assert body.place == "Ludwig's House" and body.room in {r.name for r in town.places["Ludwig's House"].rooms}
    assert world.agents_in("Ludwig's House") == ["Ana"]
    move, = world.log.of_kind("move")
    assert (move["agent"], move["from"], move["to"]) == ("Ana", "Hobbs Cafe", "Ludwig's House")
    arrive, = world.log.of_kind("arrive")
    assert (arrive["agent"], arrive["place"], arrive["room"]) == ("Ana", "Ludwig's House", body.room)


def test_path_never_crosses_a_non_walkable_tile(world, town):
    world.add_agent("Ana", "Oliver's Flat")
    for target in ("Town Library", "Noor's House", "Johnson Park", "Corner Shop"):
        assert world.walk_to("Ana", target)
        _, tiles = walk(world, "Ana", dt=2.0)
        assert all(town.walkable[y, x] for x, y in tiles)
        # consecutive tiles touch (no teleport across a wall)
        assert all(max(abs(a[0] - b[0]), abs(a[1] - b[1])) == 1 for a, b in zip(tiles, tiles[1:]))
        assert world.bodies["Ana"].place == target


def test_walking_speed_is_two_tiles_per_game_minute(world):
    body = world.add_agent("Ana", "Johnson Park")
    assert world.walk_to("Ana", "Corner Shop")
    travelled, (x, y) = 0.0, (body.x, body.y)
    for i in range(1, 61):  # one game minute in one-second steps
        world.step(1.0, float(i))
        travelled += math.hypot(body.x - x, body.y - y)
        x, y = body.x, body.y
    assert WALK_SPEED_PX_S * 60 == pytest.approx(64)
    assert travelled == pytest.approx(2 * TILE_PX, abs=0.5)
    assert body.moving and body.facing in {"up", "down", "left", "right"}


def test_blocked_tile_ahead_makes_the_body_replan(world, town):
    body = world.add_agent("Ana", "Hobbs Cafe")
    assert world.walk_to("Ana", "Corner Shop")
    world.step(5.0, 5.0)
    # block a street tile (outside any building) well ahead on the planned path
    ahead = [tile for tile in body.path[5:] if town.building_at(*world_center(tile)) is None]
    blocked = ahead[len(ahead) // 2]
    world.block_tile(blocked)
    _, tiles = walk(world, "Ana", t=5.0)
    assert blocked not in tiles
    assert body.place == "Corner Shop"
    world.unblock_tile(blocked)
    assert blocked not in world.blocked


def test_unreachable_goal_fails_and_a_closed_door_stops_a_walk(world, town):
    world.add_agent("Ana", "Johnson Park")
    door = town.places["Town Office"].door
    world.block_tile(door)
    assert world.walk_to("Ana", "Town Office") is False
    assert not world.log.of_kind("move")
    world.unblock_tile(door)
    assert world.walk_to("Ana", "Town Office")
    world.step(5.0, 5.0)
    world.block_tile(door)  # the door closes while she walks
    events = []
    t = 5.0
    while world.bodies["Ana"].moving:
        t += 5.0
        events += world.step(5.0, t)
    assert [e.kind for e in events][-1] == "stuck"
    assert world.bodies["Ana"].place != "Town Office"


def test_start_and_finish_use_change_object_state_and_log(world):
    world.add_agent("Ana", "Ludwig's House")
    assert world.walk_to("Ana", STOVE)
    t, _ = walk(world, "Ana")
    assert world.start_use("Ana", STOVE, "cook", t)
    stove = world.objects.get(STOVE)
    assert stove.state == "in use" and stove.users == {"Ana": "cook"}
    assert world.bodies["Ana"].using == (STOVE, "cook")
    world.finish_use("Ana", t + 2400)
    assert stove.state == "dirty" and not stove.users
    assert world.bodies["Ana"].using is None
    start, = world.log.of_kind("action_start")
    end, = world.log.of_kind("action_end")
    assert (start["agent"], start["object"], start["verb"]) == ("Ana", STOVE, "cook")
    assert (end["agent"], end["object"], end["t"]) == ("Ana", STOVE, t + 2400)
    states = [(e["old"], e["new"]) for e in world.log.of_kind("object_state") if e["object"] == STOVE]
    assert states[-2:] == [("idle", "in use"), ("in use", "dirty")]
    assert world.start_use("Ana", STOVE, "cook", t + 2500) is False  # dirty: only "clean"
    assert world.start_use("Ana", STOVE, "clean", t + 2500)


def test_second_user_of_a_capacity_one_object_is_refused(world):
    for name in ("Ana", "Ben"):
        world.add_agent(name, "Ludwig's House")
        assert world.walk_to(name, STOVE)
        walk(world, name)
    assert world.start_use("Ana", STOVE, "cook", 100)
    assert world.start_use("Ben", STOVE, "cook", 101) is False
    assert world.bodies["Ben"].using is None
    assert [e["agent"] for e in world.log.of_kind("action_start")] == ["Ana"]


def test_out_of_reach_use_is_refused_and_walking_away_ends_use(world):
    world.add_agent("Ana", "Johnson Park")
    assert world.start_use("Ana", STOVE, "cook", 0) is False
    world.walk_to("Ana", STOVE)
    stove = world.objects.get(STOVE)
    assert world.bodies["Ana"].activity == f"walking to {stove.name} ({stove.place})"  # the label, not the id
    t, _ = walk(world, "Ana")
    assert world.can_reach("Ana", STOVE)
    assert world.start_use("Ana", STOVE, "cook", t)
    assert world.walk_to("Ana", "Johnson Park", t=t + 60)
    assert world.bodies["Ana"].using is None
    end, = world.log.of_kind("action_end")
    assert end["completed"] is False
    assert world.objects.get(STOVE).state == "idle"  # an interrupted cook leaves it clean


def test_speech_bubble_expires_and_queries(world):
    world.add_agent("Ana", "Johnson Park")
    world.add_agent("Ben", (41 * 32 + 16, 40 * 32 + 16))
    world.say("Ana", "Hello Ben!", t=0, duration_s=120)
    assert world.bodies["Ana"].bubble == ("Hello Ben!", 120)
    events = world.step(60, 60)
    assert [e.kind for e in events] == ["say"]
    world.step(60, 120)
    assert world.bodies["Ana"].bubble is None
    assert set(world.positions()) == {"Ana", "Ben"}
    assert world.distance("Ana", "Ben") == pytest.approx(
        math.dist(world.positions()["Ana"], world.positions()["Ben"]))
    assert world.agents_in("Johnson Park") == sorted(
        n for n in ("Ana", "Ben") if world.bodies[n].place == "Johnson Park")


def test_walk_to_room_and_pixel_targets(world, town):
    world.add_agent("Ana", "Johnson Park")
    assert world.walk_to("Ana", "Hobbs Cafe: Cafe Kitchen")
    walk(world, "Ana")
    assert world.bodies["Ana"].room == "Cafe Kitchen"
    x, y = world_center(town.places["Johnson Park"].entrance)
    assert world.walk_to("Ana", (x + 3, y - 5))
    walk(world, "Ana")
    assert (world.bodies["Ana"].x, world.bodies["Ana"].y) == (x + 3, y - 5)


def test_bad_names_are_clear_errors(world):
    world.add_agent("Ana", "Johnson Park")
    with pytest.raises(GarpError, match="Atlantis"):
        world.walk_to("Ana", "Atlantis")
    with pytest.raises(GarpError, match="Zed"):
        world.walk_to("Zed", "Johnson Park")
    with pytest.raises(GarpError, match="already"):
        world.add_agent("Ana", "Johnson Park")
    with pytest.raises(GarpError, match="Nowhere"):
        world.add_agent("Ben", "Nowhere")


def world_center(tile):
    return (tile[0] * TILE_PX + TILE_PX / 2, tile[1] * TILE_PX + TILE_PX / 2)
