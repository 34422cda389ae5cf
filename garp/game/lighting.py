"""Day and night: a tinted overlay whose colour and strength follow the game clock, and lit
windows once it is dark.

The overlay colour is interpolated between keyframes of the hour (night blue, dawn and dusk
orange, clear day). Window tiles are found once in the map by their tileset property
`terrain` (wall_window_*, made by assets/make_assets.py); at night each gets a warm pane
and a soft glow on the ground below it, drawn over the darkness.
"""

from __future__ import annotations

from typing import Any

import pygame

from garp.game.camera import Camera

# (hour, tint rgb, alpha 0..255): darkness by time of day, interpolated linearly between rows
KEYFRAMES = (
    (0.0, (8, 12, 40), 170), (4.5, (8, 12, 40), 170), (6.0, (120, 70, 60), 95), (7.5, (255, 170, 90), 25),
    (8.5, (0, 0, 0), 0), (17.0, (0, 0, 0), 0), (18.5, (255, 130, 60), 45), (20.0, (40, 30, 80), 120),
    (21.5, (8, 12, 40), 170), (24.0, (8, 12, 40), 170),
)
WINDOW_TERRAIN = "wall_window"   # tileset property prefix of a window tile
WINDOW_MIN_ALPHA = 60            # darkness from which windows are lit
WINDOW_COLOR = (255, 214, 120)
GLOW_COLOR = (255, 190, 90)


def darkness(t: float) -> tuple[tuple[int, int, int], int]:
    """(tint, alpha) of the overlay at game time `t` (seconds; only the time of day matters)."""
    hour = (t % 86400.0) / 3600.0
    for (h0, c0, a0), (h1, c1, a1) in zip(KEYFRAMES, KEYFRAMES[1:]):
        if h0 <= hour <= h1:
            f = 0.0 if h1 == h0 else (hour - h0) / (h1 - h0)
            tint = tuple(int(round(x + (y - x) * f)) for x, y in zip(c0, c1))
            return tint, int(round(a0 + (a1 - a0) * f))
    return KEYFRAMES[-1][1], KEYFRAMES[-1][2]


def window_tiles(tmx: Any) -> list[tuple[int, int]]:
    """Map tiles that show a window, from the tileset's `terrain` property."""
    found: list[tuple[int, int]] = []
    props_of = getattr(tmx, "get_tile_properties_by_gid", None)
    if props_of is None:
        return found
    for layer in getattr(tmx, "visible_layers", []):
        if not hasattr(layer, "iter_data"):
            continue
        for x, y, gid in layer.iter_data():
            props = props_of(gid) if gid else None
            if props and str(props.get("terrain", "")).startswith(WINDOW_TERRAIN):
                found.append((x, y))
    return found


class Lighting:
    """Draws the clock's light over the town view (after characters, before labels)."""

    def __init__(self, windows: list[tuple[int, int]], tile: int = 32) -> None:
        self.windows = windows
        self.tile = tile
        self._overlay: pygame.Surface | None = None
        self._key: tuple | None = None
        self._windows: dict[tuple[float, float], pygame.Surface] = {}

    def draw(self, surface: pygame.Surface, camera: Camera, view: pygame.Rect, t: float | None) -> None:
        if t is None:
            return
        tint, alpha = darkness(t)
        if alpha <= 0:
            return
        key = (view.size, tint, alpha)
        if key != self._key:
            self._overlay = pygame.Surface(view.size, pygame.SRCALPHA)
            self._overlay.fill((*tint, alpha))
            self._key = key
        surface.blit(self._overlay, view.topleft)
        if alpha >= WINDOW_MIN_ALPHA:
            self._draw_windows(surface, camera, view, min(1.0, alpha / 170.0))

    def _window(self, zoom: float, strength: float) -> pygame.Surface:
        """One lit window (pane and the glow below it) at a zoom, cached by strength in tenths."""
        key = (zoom, round(strength, 1))
        surf = self._windows.get(key)
        if surf is None:
            size = self.tile * zoom
            surf = pygame.Surface((int(size * 1.8) + 1, int(size * 1.8) + 1), pygame.SRCALPHA)
            for i, alpha in enumerate((14, 14, 14)):  # three nested ellipses: a soft-edged pool of light
                pool = pygame.Rect(0, size * 0.7, size * 1.8, size * 1.0).inflate(-size * 0.5 * i, -size * 0.3 * i)
                pygame.draw.ellipse(surf, (*GLOW_COLOR, int(alpha * key[1])), pool)
            pygame.draw.rect(surf, (*WINDOW_COLOR, int(200 * key[1])),
                             pygame.Rect(size * 0.65, size * 0.25, size * 0.5, size * 0.45))
            self._windows[key] = surf
        return surf

    def _draw_windows(self, surface: pygame.Surface, camera: Camera, view: pygame.Rect, strength: float) -> None:
        z, x0, y0 = camera.zoom, camera.x, camera.y
        _, _, w, h = camera.visible_rect()
        lit = self._window(z, strength)
        for tx, ty in self.windows:
            mx, my = tx * self.tile, ty * self.tile
            if x0 - 2 * self.tile <= mx <= x0 + w and y0 - 2 * self.tile <= my <= y0 + h:
                surface.blit(lit, (view.x + (mx - x0) * z - 0.4 * self.tile * z, view.y + (my - y0) * z))
