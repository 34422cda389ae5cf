"""Character sprite sheet: frames by character, facing and walk phase; scaled frames cached per zoom.

The sheet (assets/sprites/characters.png) and its JSON index are made by
assets/make_assets.py. The index gives the frame size, the order of the facing rows,
the frames per walk cycle and how many characters the sheet holds.
"""

from __future__ import annotations

import json
import zlib
from pathlib import Path
from typing import Any

import pygame

from garp.errors import GarpError
from garp.paths import ASSETS

SHEET = ASSETS / "sprites" / "characters.png"
INDEX = ASSETS / "sprites" / "characters.json"
FACINGS = ("down", "left", "right", "up")
SEATED_ROWS = 24   # frame rows drawn for a seated figure: its legs are behind the seat or under the table
HEAD_ROWS = 17     # frame rows above the shoulders: what shows of a sleeper above the blanket
BLANKET = (88, 112, 168)
BLANKET_FOLD = (226, 228, 236)  # the turned-down sheet under the chin
BLANKET_EDGE = (40, 48, 80)


def _first(d: dict, *keys: str, default: Any = None) -> Any:
    for k in keys:
        if k in d:
            return d[k]
    return default


class CharacterSprites:
    """Frames cut from the sheet; `frame(name, facing, moving, phase, zoom)` is cached."""

    def __init__(self, sheet: pygame.Surface, index: dict, source: Path = INDEX) -> None:
        fw = _first(index, "frame_width", "frame_w", "width")
        fh = _first(index, "frame_height", "frame_h", "height")
        size = _first(index, "frame_size", "size")
        if size is not None and (fw is None or fh is None):
            fw, fh = (size, size) if isinstance(size, int) else size
        if not fw or not fh:
            raise GarpError(f"{source}: missing frame size; allowed keys: frame_width and frame_height (pixels)")
        self.fw, self.fh = int(fw), int(fh)
        self.facings = tuple(_first(index, "directions", "facings", default=FACINGS))
        self.walk = int(_first(index, "frames", "frames_per_direction", "walk_frames", default=3))
        chars = _first(index, "characters", "sprites", default=None)
        count = len(chars) if isinstance(chars, list) else int(_first(index, "count", default=0) or 0)
        if count <= 0:
            count = max(1, sheet.get_height() // (self.fh * len(self.facings)))
        self.count = count
        self.sheet = sheet
        rows = index.get("rows") if isinstance(index.get("rows"), dict) else {}
        # the index may name each character's first row: the persona name picks its own sprite
        self.assigned: dict[str, int] = {str(n): int(r) // len(self.facings) for n, r in rows.items()}
        self._frames: dict[tuple, pygame.Surface] = {}

    @classmethod
    def load(cls, sheet_path: Path = SHEET, index_path: Path = INDEX) -> "CharacterSprites":
        if not sheet_path.exists() or not index_path.exists():
            raise GarpError(f"{sheet_path}: character sprite sheet or its index {index_path.name} is missing; "
                            "make them with `python assets/make_assets.py`")
        try:
            index = json.loads(index_path.read_text(encoding="utf-8"))
        except json.JSONDecodeError as e:
            raise GarpError(f"{index_path}: not valid JSON at line {e.lineno}: {e.msg}") from None
        sheet = pygame.image.load(str(sheet_path))
        if pygame.display.get_surface() is not None:
            sheet = sheet.convert_alpha()
        return cls(sheet, index, index_path)

    def assign(self, name: str, index: int | None) -> None:
        """Give a character a sheet index (a persona's `sprite`); unnamed, unassigned ones hash to one."""
        if index is not None and name not in self.assigned:
            self.assigned[name] = int(index) % self.count

    def index_of(self, name: str) -> int:
        if name not in self.assigned:
            self.assigned[name] = zlib.crc32(name.encode()) % self.count
        return self.assigned[name]

    def _cut(self, idx: int, facing: str, col: int) -> pygame.Surface:
        row = idx * len(self.facings) + (self.facings.index(facing) if facing in self.facings else 0)
        return self.sheet.subsurface(pygame.Rect(col * self.fw, row * self.fh, self.fw, self.fh))

    def frame(self, name: str, facing: str, moving: bool, phase: float, zoom: float) -> pygame.Surface:
        idx = self.index_of(name)
        # walk cycle: standing frame 0; moving cycles 1..walk-1 then back through 0
        col = int((phase % 1.0) * self.walk) % self.walk if moving else 0
        return self._scaled(("stand", idx, facing, col), zoom, lambda: self._cut(idx, facing, col))

    def seated(self, name: str, facing: str, zoom: float) -> pygame.Surface:
        """The standing frame without its legs: drawn on a chair, the seat and the table hide them."""
        idx = self.index_of(name)
        rows = min(SEATED_ROWS, self.fh)
        return self._scaled(("sit", idx, facing), zoom,
                            lambda: self._cut(idx, facing, 0).subsurface(pygame.Rect(0, 0, self.fw, rows)))

    def lying(self, name: str, size: tuple[int, int], zoom: float) -> pygame.Surface:
        """A sleeper filling a bed of `size` map px: the head on the pillow end, a blanket over the
        rest. A bed longer than wide is lain along (head at the top); a sofa across (head left)."""
        idx = self.index_of(name)
        w, h = size
        return self._scaled(("lie", idx, w, h), zoom, lambda: self._compose_lying(idx, w, h))

    def _compose_lying(self, idx: int, w: int, h: int) -> pygame.Surface:
        across = w > h
        bw, bh = (h, w) if across else (w, h)  # drawn along, turned afterwards
        surf = pygame.Surface((bw, bh), pygame.SRCALPHA)
        head = self._cut(idx, "down", 0).subsurface(pygame.Rect(0, 0, self.fw, min(HEAD_ROWS, self.fh)))
        surf.blit(head, ((bw - self.fw) // 2, 2))
        cover = pygame.Rect(3, HEAD_ROWS - 2, bw - 6, bh - HEAD_ROWS - 2)
        pygame.draw.rect(surf, BLANKET, cover, border_radius=4)
        pygame.draw.rect(surf, BLANKET_FOLD, (cover.x, cover.y, cover.width, 5), border_top_left_radius=4,
                         border_top_right_radius=4)
        pygame.draw.rect(surf, BLANKET_EDGE, cover, 1, border_radius=4)
        return pygame.transform.rotate(surf, 90) if across else surf

    def _scaled(self, key: tuple, zoom: float, make) -> pygame.Surface:
        """A picture at a zoom level, made and scaled once."""
        surf = self._frames.get((key, zoom))
        if surf is None:
            base = make()
            surf = base if zoom == 1.0 else pygame.transform.scale(
                base, (max(1, round(base.get_width() * zoom)), max(1, round(base.get_height() * zoom))))
            self._frames[(key, zoom)] = surf
        return surf
