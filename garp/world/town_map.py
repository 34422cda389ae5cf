"""The town map: a Tiled `.tmx` file -> walkability grid, places, rooms, doors, object placements.

Simulation loads the map headless (`pytmx.TiledMap` without images); the game's renderer
loads the images itself (garp.game.renderer), so nothing here needs pygame.

Map conventions (what a designer puts in Tiled):
- tile layers `ground`, `walls`, `decoration`; a tile with the bool property
  `walkable = false` blocks movement wherever it is placed (walls, water, trees, fences);
  doors are ordinary walkable tiles (property `door = true`).
- object layer `places`: rectangles, property `kind` (home|cafe|school|library|park|shop|
  workplace) and for homes `owners` (comma-separated names).
- object layer `rooms`: rectangles, property `building` (a place name).
- object layer `doors`: points, property `building`.
- object layer `objects`: tile objects whose `type` is an object type id from
  `assets/objects.json`; optional `name` and `owner` property. Blocking objects
  (`blocks: true`) make their footprint unwalkable.
"""

from __future__ import annotations

import math
import os
import random
import re
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from garp.errors import GarpError
from garp.paths import ASSETS
from garp.units import TILE_PX
from garp.world.objects import SEAT_VERBS, ObjectRegistry, ObjectType, WorldObject, load_object_types
from garp.world.pathfinding import nearest_walkable

PLACE_KINDS = ("home", "cafe", "school", "library", "park", "shop", "workplace")
DEFAULT_OBJECT_TYPES = ASSETS / "objects.json"

Tile = tuple[int, int]


@dataclass
class Place:
    """A building, the park, or a room (then `building` names its building)."""

    name: str
    kind: str
    rect: tuple[float, float, float, float]  # x, y, w, h in px
    owners: list[str] = field(default_factory=list)
    building: str | None = None
    entrance: Tile = (0, 0)  # walkable tile inside, near the way in
    tiles: list[Tile] = field(default_factory=list)  # walkable tiles inside
    rooms: list["Place"] = field(default_factory=list)
    door: Tile | None = None

    @property
    def is_room(self) -> bool:
        return self.building is not None

    @property
    def full_name(self) -> str:
        return f"{self.building}: {self.name}" if self.building else self.name

    @property
    def center(self) -> tuple[float, float]:
        x, y, w, h = self.rect
        return (x + w / 2, y + h / 2)

    def contains(self, x: float, y: float) -> bool:
        rx, ry, rw, rh = self.rect
        return rx <= x < rx + rw and ry <= y < ry + rh

    def tile_rect(self) -> tuple[int, int, int, int]:
        x, y, w, h = self.rect
        return (int(x) // TILE_PX, int(y) // TILE_PX, max(1, int(round(w / TILE_PX))), max(1, int(round(h / TILE_PX))))

    def random_tile(self, rng: random.Random) -> Tile:
        return rng.choice(self.tiles) if self.tiles else self.entrance


@dataclass(frozen=True)
class ObjectPlacement:
    """One object as placed in the map, before it becomes a `WorldObject`."""

    map_id: int
    type: str
    name: str
    tile: Tile
    size: Tile
    owner: str | None


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower().replace("'s", "s")).strip("-") or "outdoors"


class TownMap:
    def __init__(self, path: Path, tmx, types: dict[str, ObjectType]) -> None:
        self.path = Path(path)
        self.tmx = tmx
        self.types = types
        self.tile_size = TILE_PX
        self.width, self.height = int(tmx.width), int(tmx.height)

    # ------------------------------------------------------------------ loading
    @classmethod
    def load(cls, path: str | Path, types: dict[str, ObjectType] | None = None) -> "TownMap":
        path = Path(path)
        if not path.is_file():
            raise GarpError(f"{path}: map file not found")
        types = types if types is not None else load_object_types(DEFAULT_OBJECT_TYPES)
        import pytmx

        try:
            tmx = pytmx.TiledMap(str(path))
        except GarpError:
            raise
        except Exception as e:  # pytmx raises bare Exceptions for missing tilesets and bad XML
            raise GarpError(f"{path}: cannot read the Tiled map: {e}") from None
        town = cls(path, tmx, types)
        if town.tmx.tilewidth != TILE_PX or town.tmx.tileheight != TILE_PX:
            raise GarpError(f"{path}: tiles are {tmx.tilewidth}x{tmx.tileheight} px; allowed: {TILE_PX}x{TILE_PX}")
        town._check_images()
        town._build()
        return town

    def _check_images(self) -> None:
        base = os.path.dirname(str(self.path))
        for ts in self.tmx.tilesets:
            if ts.source and not os.path.isfile(os.path.join(base, ts.source)):
                raise GarpError(f"{self.path}: tileset '{ts.name}' image file not found: {os.path.normpath(os.path.join(base, ts.source))}")
        for gid, props in self.tmx.tile_properties.items():
            src = props.get("source")
            if src and not os.path.isfile(os.path.join(base, src)):
                raise GarpError(f"{self.path}: tile image file not found: {os.path.normpath(os.path.join(base, src))} (tile gid {gid})")

    def _layer(self, name: str, kind):
        for layer in self.tmx.layers:
            if layer.name == name and isinstance(layer, kind):
                return layer
        return None

    def _build(self) -> None:
        import pytmx

        h, w = self.height, self.width
        blocked_gids = {gid for gid, p in self.tmx.tile_properties.items() if p.get("walkable") is False}
        walk = np.ones((h, w), dtype=bool)
        self.door_tiles: set[Tile] = set()
        door_gids = {gid for gid, p in self.tmx.tile_properties.items() if p.get("door") is True}
        for layer in self.tmx.layers:
            if isinstance(layer, pytmx.TiledTileLayer):
                data = np.asarray(layer.data, dtype=np.int64)
                if blocked_gids:
                    walk &= ~np.isin(data, list(blocked_gids))
                if door_gids:
                    for y, x in zip(*np.nonzero(np.isin(data, list(door_gids)))):
                        self.door_tiles.add((int(x), int(y)))
        self.static_walkable = walk.copy()  # without furniture
        self.placements = self._read_objects()
        for p in self.placements:
            if self.types[p.type].blocks:
                for j in range(p.size[1]):
                    for i in range(p.size[0]):
                        walk[p.tile[1] + j, p.tile[0] + i] = False
        self.walkable = walk
        self._read_places()

    def _objects_layer(self, name: str) -> list:
        import pytmx

        layer = self._layer(name, pytmx.TiledObjectGroup)
        return list(layer) if layer is not None else []

    def _read_objects(self) -> list[ObjectPlacement]:
        out = []
        for o in self._objects_layer("objects"):
            label = f"object {o.id}" + (f" '{o.name}'" if o.name else "")
            tid = o.type or o.__dict__.get("class") or o.properties.get("type")
            if not tid:
                raise GarpError(f"{self.path}: {label} in layer 'objects' has no type; set its class to one of: {', '.join(sorted(self.types))}")
            if tid not in self.types:
                raise GarpError(f"{self.path}: {label} has unknown object type '{tid}'; known types: {', '.join(sorted(self.types))}")
            tx, ty = int(math.floor(o.x / TILE_PX + 1e-6)), int(math.floor(o.y / TILE_PX + 1e-6))
            size = self.types[tid].size
            if tx < 0 or ty < 0 or tx + size[0] > self.width or ty + size[1] > self.height:
                raise GarpError(f"{self.path}: {label} (type '{tid}') at pixel ({o.x:g}, {o.y:g}) is outside the map "
                                f"({self.width}x{self.height} tiles of {TILE_PX} px)")
            owner = o.properties.get("owner") or None
            out.append(ObjectPlacement(int(o.id), tid, o.name or self.types[tid].name, (tx, ty), size, owner))
        return out

    def _read_places(self) -> None:
        self.places: dict[str, Place] = {}
        for o in self._objects_layer("places"):
            if not o.name:
                raise GarpError(f"{self.path}: place object {o.id} has no name")
            if o.name in self.places:
                raise GarpError(f"{self.path}: place name '{o.name}' is used twice (objects in layer 'places'); place names must be unique")
            kind = o.properties.get("kind", "")
            if kind not in PLACE_KINDS:
                raise GarpError(f"{self.path}: place '{o.name}' has kind '{kind}'; allowed: {', '.join(PLACE_KINDS)}")
            owners = [s.strip() for s in str(o.properties.get("owners", "")).split(",") if s.strip()]
            self.places[o.name] = Place(o.name, kind, (o.x, o.y, o.width, o.height), owners)
        if not self.places:
            raise GarpError(f"{self.path}: no places; add an object layer 'places' with named rectangles "
                            f"(property kind: {', '.join(PLACE_KINDS)})")
        self.rooms: list[Place] = []
        for o in self._objects_layer("rooms"):
            bname = o.properties.get("building", "")
            if bname not in self.places:
                raise GarpError(f"{self.path}: room object {o.id} '{o.name}' names building '{bname}', which is not in layer 'places'")
            room = Place(o.name or f"room {o.id}", "room", (o.x, o.y, o.width, o.height), self.places[bname].owners, building=bname)
            self.places[bname].rooms.append(room)
            self.rooms.append(room)
        self.doors: list[tuple[str, Tile]] = []
        for o in self._objects_layer("doors"):
            bname = o.properties.get("building", "")
            tile = (int(o.x) // TILE_PX, int(o.y) // TILE_PX)
            self.doors.append((bname, tile))
            if bname in self.places:
                self.places[bname].door = tile
        self._index_places()

    def _index_places(self) -> None:
        h, w = self.height, self.width
        self._bld_idx = np.full((h, w), -1, dtype=np.int32)
        self._room_idx = np.full((h, w), -1, dtype=np.int32)
        self._place_list = list(self.places.values())
        for i, p in enumerate(self._place_list):
            x, y, pw, ph = p.tile_rect()
            self._bld_idx[y:y + ph, x:x + pw] = i
        for i, r in enumerate(self.rooms):
            x, y, rw, rh = r.tile_rect()
            self._room_idx[y:y + rh, x:x + rw] = i
        for p in [*self._place_list, *self.rooms]:
            x, y, pw, ph = p.tile_rect()
            sub = self.walkable[y:y + ph, x:x + pw]
            p.tiles = [(x + int(i), y + int(j)) for j, i in zip(*np.nonzero(sub))]
            p.entrance = self._entrance(p)

    def _entrance(self, p: Place) -> Tile:
        inside = set(p.tiles)
        door = p.door if not p.is_room else self.places[p.building].door
        if door is not None:
            if not p.is_room:
                for dx, dy in ((0, 1), (0, -1), (1, 0), (-1, 0)):
                    t = (door[0] + dx, door[1] + dy)
                    if t in inside and t != door:
                        return t
            if inside:  # rooms: the tile nearest the building's door
                return min(inside, key=lambda t: ((t[0] - door[0]) ** 2 + (t[1] - door[1]) ** 2, t))
        cx, cy = p.center
        target = (int(cx) // TILE_PX, int(cy) // TILE_PX)
        if inside:
            return min(inside, key=lambda t: ((t[0] - target[0]) ** 2 + (t[1] - target[1]) ** 2, t))
        return nearest_walkable(self.walkable, target) or target

    # ------------------------------------------------------------------ queries
    def tile_of(self, x: float, y: float) -> Tile:
        return (int(x) // TILE_PX, int(y) // TILE_PX)

    def tile_center(self, tile: Tile) -> tuple[float, float]:
        return (tile[0] * TILE_PX + TILE_PX / 2, tile[1] * TILE_PX + TILE_PX / 2)

    def in_bounds(self, tile: Tile) -> bool:
        return 0 <= tile[0] < self.width and 0 <= tile[1] < self.height

    def is_walkable(self, tile: Tile) -> bool:
        return self.in_bounds(tile) and bool(self.walkable[tile[1], tile[0]])

    def building_at(self, x: float, y: float) -> Place | None:
        tx, ty = self.tile_of(x, y)
        if not self.in_bounds((tx, ty)):
            return None
        i = int(self._bld_idx[ty, tx])
        return self._place_list[i] if i >= 0 else None

    def place_at(self, x: float, y: float) -> Place | None:
        """The innermost place at a pixel: a room if there is one, else the building or park."""
        tx, ty = self.tile_of(x, y)
        if not self.in_bounds((tx, ty)):
            return None
        i = int(self._room_idx[ty, tx])
        return self.rooms[i] if i >= 0 else self.building_at(x, y)

    def room(self, building: str, name: str) -> Place:
        for r in self.place(building).rooms:
            if r.name.lower() == name.lower():
                return r
        rooms = ", ".join(r.name for r in self.place(building).rooms) or "none"
        raise GarpError(f"{self.path}: '{building}' has no room '{name}'; its rooms: {rooms}")

    def place(self, name: str) -> Place:
        try:
            return self.places[name]
        except KeyError:
            raise GarpError(f"{self.path}: no place named '{name}'; places: {', '.join(self.places)}") from None

    def homes_of(self, person: str) -> list[Place]:
        return [p for p in self.places.values() if p.kind == "home" and person in p.owners]

    def home_of(self, person: str) -> Place | None:
        homes = self.homes_of(person)
        return homes[0] if homes else None

    # ------------------------------------------------------------------ objects
    def build_objects(self, types: dict[str, ObjectType] | None = None) -> ObjectRegistry:
        """A fresh registry of the map's objects (all idle), ids like 'mayas-house/stove'."""
        types = types or self.types
        counts: dict[str, int] = {}
        objs = []
        seats = self._seat_tiles(types)
        for p in self.placements:
            if p.type not in types:
                raise GarpError(f"{self.path}: object {p.map_id} '{p.name}' has unknown object type '{p.type}'; known types: {', '.join(sorted(types))}")
            kind = types[p.type]
            cx = (p.tile[0] + kind.size[0] / 2) * TILE_PX
            cy = (p.tile[1] + kind.size[1] / 2) * TILE_PX
            building = self.building_at(cx, cy)
            room = self.place_at(cx, cy)
            bname = building.name if building else ""
            base = f"{_slug(bname)}/{p.type.replace('_', '-')}"
            counts[base] = counts.get(base, 0) + 1
            oid = base if counts[base] == 1 else f"{base}-{counts[base]}"
            owners = [p.owner] if p.owner else (list(building.owners) if building and building.kind == "home" else [])
            objs.append(WorldObject(
                id=oid, map_id=p.map_id, type=p.type, name=p.name, kind=kind, x=cx, y=cy, tile=p.tile, place=bname,
                room=room.name if room is not None and room.is_room else "", owners=owners,
                use_tiles=self._use_tiles(p, kind, room, seats)))
        return ObjectRegistry(objs)

    def _seat_tiles(self, types: dict[str, ObjectType]) -> set[Tile]:
        """Tiles of things one sits on where one stands (chairs, benches): a table's users sit there."""
        out: set[Tile] = set()
        for p in self.placements:
            kind = types.get(p.type)
            if kind is not None and not kind.blocks and any(a.verb in SEAT_VERBS for a in kind.affordances):
                out.update((p.tile[0] + i, p.tile[1] + j) for j in range(kind.size[1]) for i in range(kind.size[0]))
        return out

    def _use_tiles(self, p: ObjectPlacement, kind: ObjectType, room: Place | None,
                   seats: set[Tile]) -> list[Tile]:
        """Where its users stand, one body per tile, as many as it takes at once: on it if it does
        not block, else walkable neighbours in its room, chairs and the front first."""
        foot = [(p.tile[0] + i, p.tile[1] + j) for j in range(kind.size[1]) for i in range(kind.size[0])]
        if not kind.blocks:
            on = sorted(foot, key=lambda t: (not self.is_walkable(t), t[1], t[0]))
            return on[:kind.capacity]
        same_room = set(room.tiles) if room is not None and room.is_room else None
        ring: dict[Tile, tuple] = {}
        for (fx, fy) in foot:
            for dx, dy in ((0, 1), (0, -1), (-1, 0), (1, 0), (1, 1), (-1, 1), (1, -1), (-1, -1)):
                t = (fx + dx, fy + dy)
                if t not in foot and self.is_walkable(t) and (same_room is None or t in same_room):
                    side = 0 if dy == 1 and dx == 0 else 1 if dx == 0 or dy == 0 else 2
                    ring[t] = min(ring.get(t, side), side)
        if not ring:
            return [tuple(nearest_walkable(self.walkable, foot[0]))]
        front = min(ring, key=lambda t: (ring[t], t[1], t[0]))  # where a lone user stands
        rest = sorted((t for t in ring if t != front),
                      key=lambda t: (t not in seats or ring[t] == 2, ring[t], t[1], t[0]))
        return [front, *rest][:kind.capacity]
