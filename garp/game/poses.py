"""Where and how a character is drawn while it uses an object (display only): lying in the bed or
on the sofa it sleeps or naps on, seated on the chair it sits on or at the table or desk it eats or
works at from a chair, standing otherwise. The world keeps the body where one uses the object;
only the picture moves onto it. One figure per tile: the k-th user of an object is drawn at the
object's k-th use tile, and a still figure on a tile another already shows steps aside in the
picture to a free tile near it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Iterable

from garp.units import TILE_PX
from garp.world.objects import SEAT_VERBS
from garp.world.world import tile_center

LIE_VERBS = frozenset({"sleep", "nap"})

Rect = tuple[float, float, float, float]  # map px: x, y, w, h
Tile = tuple[int, int]


@dataclass(frozen=True)
class Shape:
    """An object as drawing needs it."""

    rect: Rect      # its footprint
    blocks: bool    # one stands beside it (a table), not on it (a chair)
    seat: bool      # something to sit on
    slots: tuple[Tile, ...] = ()  # where its users are drawn, in arrival order


@dataclass(frozen=True)
class Pose:
    kind: str       # stand | sit | lie
    x: float        # map px the figure is drawn at: the feet's tile centre (stand, sit), the centre (lie)
    y: float
    facing: str
    rect: Rect | None = None  # lie: the footprint the figure lies in


def shape(tile: Tile, size: tuple[int, int], blocks: bool, verbs: Iterable[str],
          slots: Iterable[Tile] = ()) -> Shape:
    w, h = size
    return Shape((tile[0] * TILE_PX, tile[1] * TILE_PX, w * TILE_PX, h * TILE_PX), blocks,
                 any(v in SEAT_VERBS for v in verbs), tuple(tuple(t) for t in slots))


def _centre(rect: Rect) -> tuple[float, float]:
    return rect[0] + rect[2] / 2, rect[1] + rect[3] / 2


def _toward(x: float, y: float, tx: float, ty: float) -> str:
    dx, dy = tx - x, ty - y
    if abs(dx) >= abs(dy):
        return "right" if dx > 0 else "left"
    return "down" if dy > 0 else "up"


def _nearest_tile_centre(rect: Rect, x: float, y: float) -> tuple[float, float]:
    """The centre of the footprint tile nearest (x, y): where one sits on a long sofa or bench."""
    cols, rows = int(rect[2] // TILE_PX), int(rect[3] // TILE_PX)
    centres = [(rect[0] + (i + 0.5) * TILE_PX, rect[1] + (j + 0.5) * TILE_PX) for j in range(rows) for i in range(cols)]
    return min(centres, key=lambda c: math.dist(c, (x, y)))


class PoseMap:
    """The town's objects as shapes, and the seats by tile, to pose every character each frame."""

    def __init__(self, shapes: dict[str, Shape]) -> None:
        self.shapes = shapes
        self.seats: dict[Tile, str] = {}
        for oid, s in shapes.items():
            if s.seat and not s.blocks:
                for j in range(int(s.rect[3] // TILE_PX)):
                    for i in range(int(s.rect[2] // TILE_PX)):
                        self.seats[(int(s.rect[0] // TILE_PX) + i, int(s.rect[1] // TILE_PX) + j)] = oid

    def pose(self, x: float, y: float, facing: str, using: tuple[str, str] | None, slot: int = 0) -> Pose:
        """How a body at (x, y) using (object id, verb) as its `slot`-th user is drawn."""
        used = self.shapes.get(using[0]) if using else None
        if used is None:
            return Pose("stand", x, y, facing)
        if 0 < slot < len(used.slots):  # the first user is drawn where the world put it
            x, y = tile_center(used.slots[slot])
        if using[1] in LIE_VERBS:
            return Pose("lie", *_centre(used.rect), facing, used.rect)
        if used.seat and not used.blocks:
            return Pose("sit", *_nearest_tile_centre(used.rect, x, y), "down")
        if (int(x) // TILE_PX, int(y) // TILE_PX) in self.seats:  # on a chair at the table or desk it uses
            return Pose("sit", x, y, _toward(x, y, *_centre(used.rect)))
        return Pose("sit" if used.seat else "stand", x, y, facing)


def spread(figures: list[tuple[float, float, bool]], is_open: Callable[[Tile, Tile], bool]) -> list[tuple[float, float]]:
    """Where to draw still figures so that no two share a tile: (x, y, moving) in draw order; a
    still figure on a tile an earlier one shows moves to the nearest free tile within two for
    which `is_open(from_tile, tile)` holds (walkable, the same room), else stays. Walkers pass."""
    shown: set[Tile] = set()
    out = []
    for x, y, moving in figures:
        tile = (int(x) // TILE_PX, int(y) // TILE_PX)
        if not moving and tile in shown:
            ring = sorted(((tile[0] + dx, tile[1] + dy) for dx in range(-2, 3) for dy in range(-2, 3)),
                          key=lambda c: (max(abs(c[0] - tile[0]), abs(c[1] - tile[1])), abs(c[1] - tile[1]), c))
            free = next((c for c in ring if c not in shown and is_open(tile, c)), None)
            if free is not None:
                x, y = tile_center(free)
                tile = free
        if not moving:
            shown.add(tile)
        out.append((x, y))
    return out
