"""The World: the single writer of world state (bodies, movement, object use).

It knows nothing of pygame or asyncio. The main thread calls `step(dt_game, t)` every frame
(or every lockstep step); the game reads `bodies`, the simulation reads the returned
`WorldEvent`s, and everything that happens is written to the run's `EventLog`.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from typing import Any

from garp.errors import GarpError
from garp.eventlog import EventLog
from garp.units import TILE_PX
from garp.world.objects import ObjectRegistry
from garp.world.pathfinding import find_path, nearest_walkable

Tile = tuple[int, int]

# --- tunables -----------------------------------------------------------------------------
# Walking speed: 2 tiles per game-minute = 64 px / 60 game-s (III intro: continuous movement).
WALK_SPEED_PX_S = 2 * TILE_PX / 60.0
# How close (px, centre to centre) a body must be to an object to use it: within ~1.5 tiles of
# any tile of the object's footprint, i.e. standing on an adjacent tile (III-A8 affordances).
USE_REACH_PX = 1.5 * TILE_PX
# Speech bubble lifetime when not given: game seconds (one wall-second is 300 game-s at 300×).
DEFAULT_BUBBLE_S = 600.0
# Animation phase advance: walk-cycle units per px walked (the renderer takes phase mod 1).
ANIM_PER_PX = 1.0 / TILE_PX


@dataclass(slots=True)
class WorldEvent:
    """Something that happened in the world this step; kinds mirror the event log."""

    kind: str  # move | arrive | stuck | action_start | action_end | say | object_state
    agent: str
    t: float
    data: dict[str, Any] = field(default_factory=dict)


@dataclass(slots=True)
class Body:
    """An agent's physical presence: position, path, what it is doing and saying."""

    name: str
    x: float
    y: float
    speed: float = WALK_SPEED_PX_S  # px per game-second
    path: list[Tile] = field(default_factory=list)  # remaining tiles to walk through
    goal: Tile | None = None
    goal_xy: tuple[float, float] | None = None  # exact end point inside the goal tile
    destination: str = ""  # what walk_to was asked for (place name, object id or "x,y")
    activity: str = "idle"
    using: tuple[str, str] | None = None  # (object_id, verb)
    place: str = ""  # building (or outdoor place) the body is in
    room: str = ""
    bubble: tuple[str, float] | None = None  # (text, until game-t)
    facing: str = "down"  # up | down | left | right
    moving: bool = False
    anim_phase: float = 0.0

    @property
    def tile(self) -> Tile:
        return (int(self.x) // TILE_PX, int(self.y) // TILE_PX)

    def state(self) -> dict[str, Any]:
        """Everything about the body as JSON values (a save)."""
        return {f: getattr(self, f) for f in self.__slots__}

    @classmethod
    def from_state(cls, data: dict[str, Any]) -> "Body":
        """A body as `state()` saved it: JSON lists become the tuples the world compares."""
        pair = lambda v: tuple(v) if v is not None else None  # noqa: E731 — four fields, one rule
        fixed = {"path": [tuple(p) for p in data["path"]], "goal": pair(data["goal"]),
                 "goal_xy": pair(data["goal_xy"]), "using": pair(data["using"]), "bubble": pair(data["bubble"])}
        return cls(**{**data, **fixed})


def tile_center(tile: Tile) -> tuple[float, float]:
    return (tile[0] * TILE_PX + TILE_PX / 2, tile[1] * TILE_PX + TILE_PX / 2)


class World:
    """Bodies, movement along A* paths, dynamic obstacles and object use."""

    def __init__(self, town: Any, registry: ObjectRegistry, log: EventLog | None,
                 rng: random.Random) -> None:
        self.town = town
        self.objects = registry
        self.log = log
        self.rng = rng  # the run's (garp.sim.wiring): where a new body stands in its place
        self.bodies: dict[str, Body] = {}
        self.blocked: set[Tile] = set()
        self.held: set[str] = set()  # bodies stopped where they stand (a player's interview); not saved
        self.t = 0.0
        self._pending: list[WorldEvent] = []
        self._object_token = registry.subscribe_all(self._on_object_state)

    # --- save / restore ---------------------------------------------------------------------
    def state(self) -> dict[str, Any]:
        """Bodies, blocked tiles, object states and the world's RNG, as JSON values (a save)."""
        return {"t": self.t, "bodies": {n: b.state() for n, b in self.bodies.items()},
                "blocked": sorted(list(b) for b in self.blocked), "objects": self.objects.state(),
                "rng": rng_state(self.rng)}

    def restore(self, data: dict[str, Any]) -> None:
        """Put the world back as `state()` saw it (no events: nothing happens, it already was)."""
        self.t = float(data["t"])
        self._pending = []  # a save is taken between steps, when no event waits
        self.held = set()
        self.bodies = {n: Body.from_state(b) for n, b in data["bodies"].items()}
        self.blocked = {tuple(b) for b in data["blocked"]}
        self.objects.restore(data["objects"])
        self.rng.setstate(rng_from_state(data["rng"]))

    # --- events ---------------------------------------------------------------------------
    def _emit(self, kind: str, agent: str, t: float, **data: Any) -> None:
        self._pending.append(WorldEvent(kind, agent, t, data))
        if self.log is not None:
            self.log.emit(kind, t, agent=agent, **data)

    # --- tiles ----------------------------------------------------------------------------
    def walkable(self, tile: Tile) -> bool:
        tx, ty = tile
        grid = self.town.walkable
        inside = 0 <= ty < grid.shape[0] and 0 <= tx < grid.shape[1]
        return inside and bool(grid[ty, tx]) and tile not in self.blocked

    def block_tile(self, tile: Tile) -> None:
        """Mark a tile impassable (a dynamic obstacle, a closed door); paths through it re-plan."""
        self.blocked.add(tuple(tile))

    def unblock_tile(self, tile: Tile) -> None:
        self.blocked.discard(tuple(tile))

    def _locate(self, body: Body) -> None:
        building = self.town.building_at(body.x, body.y)
        place = self.town.place_at(body.x, body.y)
        body.place = building.name if building is not None else (place.name if place else "")
        body.room = place.name if place is not None and place.name != body.place else ""

    # --- agents ---------------------------------------------------------------------------
    def add_agent(self, name: str, place_or_xy: str | tuple[float, float]) -> Body:
        """Spawn a body inside a place (a random walkable tile of it) or at a pixel position."""
        if name in self.bodies:
            raise GarpError(f"agent '{name}': already in the world; allowed: unique agent names")
        if isinstance(place_or_xy, str):
            tile = self._place_tile(place_or_xy)
            x, y = tile_center(tile)
        else:
            x, y = (float(v) for v in place_or_xy)
            start = (int(x) // TILE_PX, int(y) // TILE_PX)
            if not self.walkable(start):
                x, y = tile_center(self._nearest(start))
        body = Body(name, x, y)
        self._locate(body)
        self.bodies[name] = body
        return body

    def _place(self, name: str) -> Any:
        """A place by name, or a room as 'Building: Room' (e.g. "Hobbs Cafe: Cafe Kitchen")."""
        building, _, room = name.partition(": ")
        place = self.town.places.get(building)
        if place is not None and room:
            place = next((r for r in place.rooms if r.name == room), None)
        if place is None:
            known = ", ".join(sorted(self.town.places)) or "(none)"
            raise GarpError(f"place '{name}': not on the map; allowed: {known}")
        return place

    def _place_tile(self, name: str) -> Tile:
        place = self._place(name)
        tile = tuple(place.random_tile(self.rng))
        return tile if self.walkable(tile) else self._nearest(tile)

    def _nearest(self, tile: Tile) -> Tile:
        grid = self.town.walkable
        if self.blocked:
            grid = grid.copy()
            for bx, by in self.blocked:
                if 0 <= by < grid.shape[0] and 0 <= bx < grid.shape[1]:
                    grid[by, bx] = False
        found = nearest_walkable(grid, tile)
        if found is None:
            raise GarpError(f"map: no walkable tile near {tile}; the map has no open floor there")
        return tuple(found)

    def body(self, name: str) -> Body:
        try:
            return self.bodies[name]
        except KeyError:
            raise GarpError(f"agent '{name}': not in the world; allowed: "
                            f"{', '.join(sorted(self.bodies)) or '(none)'}") from None

    # --- walking --------------------------------------------------------------------------
    def walk_to(self, name: str, target: str | tuple[float, float], t: float | None = None) -> bool:
        """Start walking to a pixel position, a place name or next to an object.

        Returns False (and leaves the body where it is) when no path exists.
        """
        body = self.body(name)
        t = self.t if t is None else t
        goals, goal_xy, label, shown = self._goals(body, target)
        start = body.tile if self.walkable(body.tile) else self._nearest(body.tile)
        for goal in goals:
            path = self._path(start, goal)
            if path is not None:
                break
        else:
            return False
        if body.using is not None:
            self.finish_use(name, t, completed=False)
        body.path, body.goal, body.goal_xy, body.destination = path, goal, goal_xy, label
        body.moving = True
        body.activity = f"walking to {shown}"
        self._emit("move", name, t, **{"from": body.place, "to": label})
        return True

    def _path(self, start: Tile, goal: Tile) -> list[Tile] | None:
        path = find_path(self.town.walkable, start, goal, blocked=frozenset(self.blocked))
        if path is None:
            return None
        path = [tuple(p) for p in path]
        # Always pass through the start tile's centre first so no move cuts a wall corner.
        return path if path and path[0] == start else [start, *path]

    def _goals(self, body: Body, target: Any) -> tuple[list[Tile], tuple[float, float] | None, str, str]:
        """Candidate goal tiles (best first), an exact end point, a label for logs and the text a
        player reads over the walker (an object by its name and place, not its id)."""
        if isinstance(target, str) and target.partition(": ")[0] in self.town.places:
            return [self._place_tile(target)], None, target, target
        if isinstance(target, str):
            obj = self._object(target)
            shown = f"{obj.name} ({obj.place})" if obj.place else obj.name
            return self._object_goals(body, obj), None, target, shown
        x, y = (float(v) for v in target)
        tile = (int(x) // TILE_PX, int(y) // TILE_PX)
        label = f"{int(x)},{int(y)}"
        if self.walkable(tile):
            return [tile], (x, y), label, label
        return [self._nearest(tile)], None, label, label

    def _object(self, object_id: str) -> Any:
        try:
            return self.objects.get(object_id)
        except GarpError:
            raise GarpError(f"walk/use target '{object_id}': not a place or object on the map; "
                            "allowed: a place name, an object id or an (x, y) pixel position") from None

    def _object_goals(self, body: Body, obj: Any) -> list[Tile]:
        """Where to stand to use the object: its use tile, else walkable tiles next to its
        footprint (or on it, for things one stands on), nearest to the body first."""
        if obj.use_tile is not None and self.walkable(tuple(obj.use_tile)):
            return [tuple(obj.use_tile)]
        footprint = set(obj.footprint)
        around = {(fx + dx, fy + dy) for fx, fy in footprint
                  for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))}
        candidates = [c for c in around - footprint if self.walkable(c)]
        if not candidates:
            candidates = [c for c in footprint if self.walkable(c)]
        bx, by = body.x, body.y
        return sorted(candidates, key=lambda c: (math.dist(tile_center(c), (bx, by)), c))

    # --- stepping -------------------------------------------------------------------------
    def step(self, dt_game: float, t: float) -> list[WorldEvent]:
        """Advance movement by `dt_game` game seconds ending at game time `t`; return events."""
        self.t = t
        for body in self.bodies.values():
            if body.moving and body.name not in self.held:
                self._advance(body, body.speed * max(dt_game, 0.0), t)
            if body.bubble is not None and body.bubble[1] <= t:
                body.bubble = None
        events, self._pending = self._pending, []
        return events

    def _advance(self, body: Body, budget: float, t: float) -> None:
        while budget > 1e-9 and body.path:
            nxt = body.path[0]
            # The tile we stand on never blocks us; only the one we are about to enter does.
            if nxt != body.tile and not self.walkable(nxt) and not self._replan(body, t):
                return
            nxt = body.path[0]
            last = len(body.path) == 1
            tx, ty = body.goal_xy if last and body.goal_xy else tile_center(nxt)
            dx, dy = tx - body.x, ty - body.y
            dist = math.hypot(dx, dy)
            if dist > 0:
                body.facing = _facing(dx, dy)
            before = body.tile
            if dist <= budget:
                body.x, body.y = tx, ty
                budget -= dist
                body.path.pop(0)
            else:
                body.x += dx / dist * budget
                body.y += dy / dist * budget
                dist, budget = budget, 0.0
            body.anim_phase = (body.anim_phase + dist * ANIM_PER_PX) % 1.0
            if body.tile != before:
                self._locate(body)
        if not body.path:
            self._arrive(body, t)

    def _replan(self, body: Body, t: float) -> bool:
        """The next tile became impassable: find a new path from here, or stop."""
        here = body.tile
        path = self._path(here, body.goal) if body.goal and self.walkable(body.goal) else None
        if path is None:
            body.path, body.moving = [], False
            body.activity = "idle"
            self._emit("stuck", body.name, t, at=list(here), to=body.destination)
            return False
        body.path = path
        return True

    def _arrive(self, body: Body, t: float) -> None:
        body.moving = False
        body.activity = "idle"
        body.goal = body.goal_xy = None
        self._locate(body)
        self._emit("arrive", body.name, t, place=body.place, room=body.room,
                   to=body.destination)

    def hold(self, name: str) -> str:
        """Stop a body where it stands, turned to the viewer; a walk keeps its path and goes on at
        `let_go`. Returns the way it faced, for `let_go`."""
        body = self.body(name)
        self.held.add(name)
        facing, body.facing = body.facing, "down"
        return facing

    def let_go(self, name: str, facing: str) -> None:
        """A held body carries on (walking on along its path), facing as it did before."""
        self.held.discard(name)
        self.body(name).facing = facing

    # --- object use -----------------------------------------------------------------------
    def can_reach(self, name: str, object_id: str) -> bool:
        body, obj = self.body(name), self._object(object_id)
        if obj.use_tile is not None and body.tile == tuple(obj.use_tile):
            return True
        return any(math.dist(tile_center(tile), (body.x, body.y)) <= USE_REACH_PX + 1e-6
                   for tile in obj.footprint)

    def start_use(self, name: str, object_id: str, verb: str, t: float) -> bool:
        """Begin using an object (ends any earlier use). False if out of reach, if the
        object's state does not offer `verb` or if it is full."""
        body = self.body(name)
        obj = self._object(object_id)
        if body.moving or not self.can_reach(name, object_id):
            return False
        if body.using == (object_id, verb):
            return True
        if body.using is not None:
            self.finish_use(name, t, completed=False)
        if not self.objects.occupy(object_id, name, t, verb=verb):
            return False
        body.using = (object_id, verb)
        body.activity = f"{verb} ({obj.name})"
        self._emit("action_start", name, t, object=object_id, verb=verb, place=body.place, name=obj.name)
        return True

    def settle(self, name: str, object_id: str, verb: str, t: float) -> bool:
        """Open a scene with a body already using an object (in bed at dawn): put it where one
        uses the object and start the use, without a walk there. False, and the body left where it
        was, when the object cannot be used that way now."""
        body, obj = self.body(name), self._object(object_id)
        goals = self._object_goals(body, obj)
        if body.moving or not goals or not self.objects.can_use(object_id, verb):
            return False
        body.x, body.y = tile_center(goals[0])
        self._locate(body)
        return self.start_use(name, object_id, verb, t)

    def finish_use(self, name: str, t: float, completed: bool = True) -> None:
        """Stop using the current object; a completed use leaves its after-state (dirty...)."""
        body = self.body(name)
        if body.using is None:
            return
        object_id, verb = body.using
        self.objects.release(object_id, name, t, completed=completed)
        body.using = None
        body.activity = "idle"
        self._emit("action_end", name, t, object=object_id, verb=verb, place=body.place,
                   completed=completed)

    def _on_object_state(self, obj: Any, old: str, new: str, t: float) -> None:
        """Every object change, from any writer, goes to the log and the step's events."""
        self._emit("object_state", "", t, object=obj.id, old=old, new=new,
                   users=sorted(obj.users), description=obj.describe_state())

    # --- speech and queries ---------------------------------------------------------------
    def say(self, name: str, text: str, t: float, duration_s: float = DEFAULT_BUBBLE_S) -> None:
        self.body(name).bubble = (text, t + duration_s)
        self._pending.append(WorldEvent("say", name, t, {"text": text}))

    def close(self) -> None:
        """Stop listening to object changes (the world is being discarded)."""
        self.objects.unsubscribe(self._object_token)

    def positions(self) -> dict[str, tuple[float, float]]:
        return {name: (b.x, b.y) for name, b in self.bodies.items()}

    def agents_in(self, place: str) -> list[str]:
        return sorted(n for n, b in self.bodies.items() if place in (b.place, b.room))

    def distance(self, a: str, b: str) -> float:
        ba, bb = self.body(a), self.body(b)
        return math.hypot(ba.x - bb.x, ba.y - bb.y)


def rng_state(rng: random.Random) -> list[Any]:
    """A `random.Random`'s state as JSON values (its 625-word Mersenne state and gauss cache)."""
    version, words, gauss = rng.getstate()
    return [version, list(words), gauss]


def rng_from_state(data: list[Any]) -> tuple[Any, ...]:
    """The `setstate` argument `rng_state` was made from."""
    version, words, gauss = data
    return (version, tuple(words), gauss)


def _facing(dx: float, dy: float) -> str:
    if abs(dx) >= abs(dy):
        return "right" if dx > 0 else "left"
    return "down" if dy > 0 else "up"
