"""Interactable objects: types and affordances (`assets/objects.json`), placed objects, registry.

An object type lists its affordances (a stove affords "cook"); each affordance declares
the needs it relieves over its full duration (paper III-A5) and may leave the object in
another state ("dirty" after cooking). A placed `WorldObject` has an observable state
that changes as agents use it; the `ObjectRegistry` tells only the subscribers of that
object about a change (perception connects an agent to the objects in its range, III-A7).

The registry is written by the world's single writer (the main thread); it takes no locks.
"""

from __future__ import annotations

import itertools
import math
from collections import defaultdict
from pathlib import Path
from typing import Any, Callable, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from garp.datafile import load_model_file
from garp.errors import GarpError

Need = Literal["hunger", "rest", "hygiene", "social", "fun", "comfort"]
NEEDS: tuple[str, ...] = ("hunger", "rest", "hygiene", "social", "fun", "comfort")

IDLE = "idle"
IN_USE = "in use"
SEAT_VERBS = frozenset({"sit", "relax", "attend"})  # a thing offering one of these is a seat
GRID_CELL_PX = 128  # spatial-hash cell for `near` queries (4 tiles of 32 px)


class Affordance(BaseModel):
    """One action an object offers (paper III intro: "a stove affords cook")."""

    model_config = ConfigDict(extra="forbid")
    verb: str = Field(min_length=2, max_length=30, pattern=r"^[a-z][a-z ]*$")
    description: str = Field(min_length=3, max_length=80, description="short text, embedded for the affordance filter (III-A8)")
    duration_min: float = Field(gt=0, le=720, description="game minutes for the full action")
    relieves: dict[Need, float] = Field(default_factory=dict, description="need -> total reduction over the full duration (III-A5)")
    capacity: int = Field(default=1, ge=1, le=8, description="users doing this at once")
    leaves_state: str | None = Field(default=None, description="state the object is left in when done (e.g. dirty)")
    available_in: list[str] = Field(default_factory=lambda: [IDLE, IN_USE], description="object states in which it can start")
    role: Literal["staff", "customer"] | None = Field(
        default=None, description="staff: offered only to those who work at the object's place (serving, the till); "
                                  "customer: only to those who do not (ordering, paying); none: to everyone")

    def offered_to(self, place: str | None, workplace: str | None) -> bool:
        """Whether someone working at `workplace` (None: nowhere) is offered this at an object in `place`."""
        return self.role is None or (self.role == "staff") == (bool(workplace) and place == workplace)

    @model_validator(mode="after")
    def _amounts(self) -> "Affordance":
        for need, amount in self.relieves.items():
            if not 0.0 <= amount <= 1.5:
                raise ValueError(f"relieves.{need} = {amount}: allowed 0.0..1.5")
        return self


class ObjectType(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(min_length=1, description="display name, e.g. 'stove'")
    sprite: str = Field(description="image path relative to assets/")
    size: tuple[int, int] = Field(default=(1, 1), description="footprint in tiles (w, h)")
    blocks: bool = Field(description="true if agents cannot walk through it")
    affordances: list[Affordance] = Field(min_length=1)
    states: list[str] = Field(default_factory=lambda: [IDLE, IN_USE])

    @model_validator(mode="after")
    def _states_known(self) -> "ObjectType":
        for base in (IDLE, IN_USE):
            if base not in self.states:
                raise ValueError(f"states must include '{base}' (got {self.states})")
        for a in self.affordances:
            for s in [a.leaves_state, *a.available_in]:
                if s is not None and s not in self.states:
                    raise ValueError(f"affordance '{a.verb}' uses state '{s}' not in states {self.states}")
        if len({a.verb for a in self.affordances}) != len(self.affordances):
            raise ValueError("affordance verbs must be unique within a type")
        return self

    def affordance(self, verb: str) -> Affordance | None:
        return next((a for a in self.affordances if a.verb == verb), None)

    @property
    def capacity(self) -> int:
        return max(a.capacity for a in self.affordances)


class ObjectTypesFile(BaseModel):
    """The whole `assets/objects.json` file."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)
    schema_ref: str | None = Field(default=None, alias="$schema")
    version: int = 1
    types: dict[str, ObjectType]


def load_object_types(path: str | Path) -> dict[str, ObjectType]:
    """Read and validate the object type file; GarpError names the file and the field."""
    return load_model_file(path, ObjectTypesFile, "object types file").types


def object_types_json_schema() -> dict:
    return ObjectTypesFile.model_json_schema(by_alias=True)


def _join_names(names: list[str]) -> str:
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


class WorldObject(BaseModel):
    """One placed object. `x, y` is the footprint centre in pixels; `tile` its top-left tile."""

    model_config = ConfigDict(arbitrary_types_allowed=True)
    id: str
    type: str
    name: str
    kind: ObjectType
    x: float
    y: float
    tile: tuple[int, int]
    place: str = ""
    room: str = ""
    owners: list[str] = Field(default_factory=list)
    state: str = IDLE
    users: dict[str, str] = Field(default_factory=dict, description="user -> affordance verb, in arrival order")
    use_tiles: list[tuple[int, int]] = Field(default_factory=list,
                                             description="one tile per user it takes at once: the world stands a "
                                             "user on the first, the picture draws the k-th user on the k-th")
    map_id: int | None = Field(default=None, description="the object's id in the Tiled map")
    base_state: str = IDLE  # state before the current users arrived
    pending_state: str | None = None  # leaves_state to apply when the last user leaves

    @property
    def affordances(self) -> list[Affordance]:
        return self.kind.affordances

    @property
    def use_tile(self) -> tuple[int, int] | None:
        """Where a lone user stands."""
        return self.use_tiles[0] if self.use_tiles else None

    @property
    def blocks(self) -> bool:
        return self.kind.blocks

    @property
    def footprint(self) -> list[tuple[int, int]]:
        w, h = self.kind.size
        return [(self.tile[0] + i, self.tile[1] + j) for j in range(h) for i in range(w)]

    def where(self) -> str:
        if self.room and self.place and self.room != self.place:
            return f"{self.place} {self.room.lower()}"
        return self.place or self.room

    def describe_state(self) -> str:
        """e.g. 'the stove in Maya's House kitchen is in use by Maya'."""
        where = self.where()
        label = f"the {self.kind.name}" + (f" in {where}" if where else "")
        if self.state == IN_USE and self.users:
            return f"{label} is in use by {_join_names(list(self.users))}"
        return f"{label} is {self.state}"

    def available_affordances(self) -> list[Affordance]:
        """Affordances that can start now (state allows it and there is room)."""
        out = []
        for a in self.kind.affordances:
            if self.users:  # joining: the affordance must allow sharing and the underlying state
                if IN_USE not in a.available_in or self.base_state not in a.available_in:
                    continue
            elif self.state not in a.available_in:
                continue
            same = sum(1 for v in self.users.values() if v == a.verb)
            if same < a.capacity and len(self.users) < self.kind.capacity:
                out.append(a)
        return out


StateCallback = Callable[[WorldObject, str, str, float], None]


class ObjectRegistry:
    """All placed objects, a spatial hash for range queries, and per-object change signals."""

    def __init__(self, objects: list[WorldObject]) -> None:
        self._objects: dict[str, WorldObject] = {}
        self._grid: dict[tuple[int, int], list[str]] = defaultdict(list)
        self._by_place: dict[str, list[str]] = defaultdict(list)
        for o in objects:
            if o.id in self._objects:
                raise GarpError(f"object id '{o.id}' is used twice; object ids must be unique")
            self._objects[o.id] = o
            self._grid[(int(o.x) // GRID_CELL_PX, int(o.y) // GRID_CELL_PX)].append(o.id)
            for key in {o.place, o.room} - {""}:
                self._by_place[key].append(o.id)
        self._subs: dict[str, dict[int, StateCallback]] = defaultdict(dict)
        self._token_owner: dict[int, str | None] = {}
        self._global: dict[int, StateCallback] = {}
        self._tokens = itertools.count(1)

    # ----- lookup -----
    def __len__(self) -> int:
        return len(self._objects)

    def __iter__(self):
        return iter(self._objects.values())

    def all(self) -> list[WorldObject]:
        return list(self._objects.values())

    def get(self, object_id: str) -> WorldObject:
        try:
            return self._objects[object_id]
        except KeyError:
            raise GarpError(f"unknown object id '{object_id}'") from None

    def in_place(self, place: str) -> list[WorldObject]:
        """Objects inside a building or a room (by name)."""
        return [self._objects[i] for i in self._by_place.get(place, [])]

    def near(self, x: float, y: float, radius: float) -> list[WorldObject]:
        """Objects whose centre is within `radius` px of (x, y), nearest first."""
        r2 = radius * radius
        c0, c1 = int((x - radius) // GRID_CELL_PX), int((x + radius) // GRID_CELL_PX)
        r0, r1 = int((y - radius) // GRID_CELL_PX), int((y + radius) // GRID_CELL_PX)
        found = []
        for cx in range(c0, c1 + 1):
            for cy in range(r0, r1 + 1):
                for oid in self._grid.get((cx, cy), ()):
                    o = self._objects[oid]
                    d2 = (o.x - x) ** 2 + (o.y - y) ** 2
                    if d2 <= r2:
                        found.append((d2, oid, o))
        found.sort(key=lambda t: (t[0], t[1]))
        return [o for _, _, o in found]

    # ----- save / restore -----
    def state(self) -> dict[str, dict[str, Any]]:
        """What changes while the town runs, per object: its state and users (a save)."""
        return {o.id: {"state": o.state, "users": dict(o.users), "base_state": o.base_state,
                       "pending_state": o.pending_state} for o in self._objects.values()}

    def restore(self, data: dict[str, dict[str, Any]]) -> None:
        """Put each object back as `state()` saw it; no signal fires (nothing changed then)."""
        for object_id, saved in data.items():
            obj = self.get(object_id)
            obj.state, obj.users = saved["state"], dict(saved["users"])
            obj.base_state, obj.pending_state = saved["base_state"], saved["pending_state"]

    # ----- signals -----
    def subscribe(self, object_id: str, callback: StateCallback) -> int:
        """Call `callback(obj, old_state, new_state, t)` when this object's state or users change."""
        self.get(object_id)
        token = next(self._tokens)
        self._subs[object_id][token] = callback
        self._token_owner[token] = object_id
        return token

    def subscribe_all(self, callback: StateCallback) -> int:
        """For the event log: hear every object's changes."""
        token = next(self._tokens)
        self._global[token] = callback
        self._token_owner[token] = None
        return token

    def unsubscribe(self, token: int) -> None:
        if token not in self._token_owner:
            return
        owner = self._token_owner.pop(token)
        if owner is None:
            self._global.pop(token, None)
        else:
            self._subs[owner].pop(token, None)

    def subscriber_count(self, object_id: str) -> int:
        return len(self._subs.get(object_id, {}))

    def _notify(self, obj: WorldObject, old: str, new: str, t: float) -> None:
        for cb in list(self._subs.get(obj.id, {}).values()) + list(self._global.values()):
            cb(obj, old, new, t)

    # ----- state changes -----
    def set_state(self, object_id: str, state: str, t: float, user: str | None = None) -> bool:
        """Force a state (e.g. a scenario hook breaks the stove). Returns True if it changed."""
        obj = self.get(object_id)
        if state not in obj.kind.states:
            raise GarpError(f"object '{object_id}' ({obj.type}): state '{state}' is not allowed; allowed: {obj.kind.states}")
        old = obj.state
        if state == old:
            return False
        obj.state = state
        if state != IN_USE:
            obj.users.clear()
            obj.base_state, obj.pending_state = state, None
        elif user is not None and user not in obj.users:
            obj.users[user] = ""
        self._notify(obj, old, state, t)
        return True

    def can_use(self, object_id: str, verb: str) -> bool:
        obj = self.get(object_id)
        return any(a.verb == verb for a in obj.available_affordances())

    def occupy(self, object_id: str, user: str, t: float, verb: str | None = None) -> bool:
        """`user` starts using the object (with `verb`, default its first available one).

        Returns False (no change) when the state does not allow it or it is full.
        """
        obj = self.get(object_id)
        if user in obj.users:
            return True
        options = obj.available_affordances()
        chosen = next((a for a in options if verb is None or a.verb == verb), None)
        if chosen is None:
            return False
        old = obj.state
        if not obj.users:
            obj.base_state, obj.pending_state = obj.state, None
        obj.users[user] = chosen.verb
        obj.state = IN_USE
        self._notify(obj, old, IN_USE, t)
        return True

    def release(self, object_id: str, user: str, t: float, completed: bool = True) -> None:
        """`user` stops. When the last user leaves the object takes the leaves_state of what was done."""
        obj = self.get(object_id)
        if user not in obj.users:
            return
        verb = obj.users.pop(user)
        aff = obj.kind.affordance(verb)
        if completed and aff is not None and aff.leaves_state is not None:
            obj.pending_state = aff.leaves_state
        old = obj.state
        if not obj.users:
            obj.state = obj.pending_state or obj.base_state
            obj.base_state, obj.pending_state = obj.state, None
        self._notify(obj, old, obj.state, t)

    def clean(self, object_id: str, t: float) -> bool:
        """Undo a left-behind state at once (dirty -> idle) the way the type's own cleaning affordance would."""
        obj = self.get(object_id)
        if obj.users:
            return False
        fix = next((a for a in obj.kind.affordances
                    if obj.state in a.available_in and a.leaves_state not in (None, obj.state)), None)
        if fix is None or obj.state in (IDLE, IN_USE):
            return False
        return self.set_state(object_id, fix.leaves_state, t)

    def reset(self, object_id: str, t: float) -> None:
        """Back to idle with no users (e.g. at the start of a scenario)."""
        self.set_state(object_id, IDLE, t)


def relief_rate(aff: Affordance, need: str) -> float:
    """Per game-minute reduction of `need` while doing `aff` (its total spread over the duration)."""
    return aff.relieves.get(need, 0.0) / aff.duration_min if aff.duration_min > 0 else 0.0


def distance(a: WorldObject, x: float, y: float) -> float:
    return math.hypot(a.x - x, a.y - y)
