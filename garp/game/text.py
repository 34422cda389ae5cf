"""Fonts, cached text surfaces, word wrapping and the game's colour palette.

Rendering text is the most expensive thing the HUD and labels do each frame, so
every rendered string is cached (bounded LRU) by (text, size, colour, bold).
"""

from __future__ import annotations

from collections import OrderedDict

import pygame

from garp.paths import ASSETS

TEXT_CACHE_SIZE = 2000  # rendered strings kept; labels and panel rows repeat every frame
FONT_FILES = ("DejaVuSans.ttf",)

# palette (dark panels, light text: contrast ratio > 7:1)
BG = (24, 27, 35)
BG_ALT = (33, 37, 48)
BG_HI = (52, 60, 80)
FG = (235, 236, 240)
FG_DIM = (170, 176, 190)
ACCENT = (110, 170, 255)
GOOD = (110, 200, 120)
WARN = (240, 180, 70)
BAD = (235, 90, 80)
BORDER = (80, 88, 110)


def _font_path(bold: bool) -> str | None:
    for name in FONT_FILES:
        local = ASSETS / "fonts" / (name.replace(".ttf", "-Bold.ttf") if bold else name)
        if local.exists():
            return str(local)
    found = pygame.font.match_font("dejavusans", bold=bold)
    return found or None


class Text:
    """Shared font and text-surface cache (one per process; fonts need pygame.font.init)."""

    def __init__(self) -> None:
        if not pygame.font.get_init():
            pygame.font.init()
        self._fonts: dict[tuple[int, bool], pygame.font.Font] = {}
        self._cache: OrderedDict[tuple, pygame.Surface] = OrderedDict()
        self._wraps: OrderedDict[tuple, list[str]] = OrderedDict()

    def font(self, size: int, bold: bool = False) -> pygame.font.Font:
        key = (size, bold)
        if key not in self._fonts:
            path = _font_path(bold)
            font = pygame.font.Font(path, size)
            if path is None and bold:
                font.set_bold(True)
            self._fonts[key] = font
        return self._fonts[key]

    def render(self, text: str, size: int = 15, color=FG, bold: bool = False) -> pygame.Surface:
        key = (text, size, tuple(color), bold)
        surf = self._cache.get(key)
        if surf is not None:
            self._cache.move_to_end(key)
            return surf
        surf = self.font(size, bold).render(text, True, color)
        self._cache[key] = surf
        if len(self._cache) > TEXT_CACHE_SIZE:
            self._cache.popitem(last=False)
        return surf

    def line_height(self, size: int, bold: bool = False) -> int:
        return self.font(size, bold).get_linesize()

    def wrap(self, text: str, width: int, size: int = 15, bold: bool = False) -> list[str]:
        """Greedy word wrap to `width` pixels; keeps explicit newlines; splits over-long words (cached)."""
        key = (text, width, size, bold)
        lines = self._wraps.get(key)
        if lines is None:
            lines = self._wrap(str(text), max(8, width), size, bold)
            self._wraps[key] = lines
            if len(self._wraps) > TEXT_CACHE_SIZE:
                self._wraps.popitem(last=False)
        return lines

    def _wrap(self, text: str, width: int, size: int, bold: bool) -> list[str]:
        font = self.font(size, bold)
        lines: list[str] = []
        for para in str(text).split("\n"):
            words = para.split(" ")
            cur = ""
            for word in words:
                trial = f"{cur} {word}" if cur else word
                if font.size(trial)[0] <= width:
                    cur = trial
                    continue
                if cur:
                    lines.append(cur)
                while font.size(word)[0] > width and len(word) > 1:
                    cut = max(1, int(len(word) * width / max(1, font.size(word)[0])) - 1)
                    lines.append(word[:cut])
                    word = word[cut:]
                cur = word
            lines.append(cur)
        return lines


_shared: Text | None = None


def shared_text() -> Text:
    global _shared
    if _shared is None:
        _shared = Text()
    return _shared
