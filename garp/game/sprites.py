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
        self._frames: dict[tuple[int, str, int, float], pygame.Surface] = {}

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
        key = (idx, facing, col, zoom)
        surf = self._frames.get(key)
        if surf is None:
            base = self._cut(idx, facing, col)
            surf = base if zoom == 1.0 else pygame.transform.scale(
                base, (max(1, round(self.fw * zoom)), max(1, round(self.fh * zoom))))
            self._frames[key] = surf
        return surf
