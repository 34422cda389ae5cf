"""Town renderer: map layers, characters with names and activities, speech bubbles, selection ring.

Speed comes from caching: the map's static layers are pre-rendered once into chunks
of CHUNK map pixels, each chunk is scaled once per zoom level (LRU bounded by pixels),
and every label and bubble surface is built once per distinct text.
"""

from __future__ import annotations

import zlib
from collections import OrderedDict
from pathlib import Path
from typing import Any

import pygame

from garp.game import text as T
from garp.game import view_model as vm
from garp.game.camera import Camera
from garp.game.lighting import Lighting, window_tiles
from garp.game.phrasing import plain_activity, shorten
from garp.game.sprites import CharacterSprites
from garp.units import TILE_PX

CHUNK = 256                      # map pixels per pre-rendered chunk side
CHUNK_CACHE_PIXELS = 40_000_000  # scaled chunk pixels kept (~160 MB of 32-bit surfaces)
LABEL_CACHE = 400                # composed name/activity labels kept
BUBBLE_W = 230                   # speech bubble text width (screen px)
LABEL_SIZE = 13                  # name label font size (px); constant on screen at every zoom
ABOVE_LAYER_WORDS = ("above", "roof", "canopy", "overhead")  # layers drawn over the characters
LABEL_ACTIVITY_MIN_ZOOM = 0.75   # below this zoom only names are shown (activities would overlap)
LABEL_TEXT_W = 190               # activity line width (screen px) before it wraps at a word
LABEL_LINES = 2                  # activity lines at most; the rest is shortened between words
LAYOUT_ROWS = 6                  # rows above its anchor a label may climb to find free space
SEAT_DROP = 10                   # map px below its tile's centre a seated figure's cut-off waist is drawn


def load_tmx(path: str | Path) -> Any:
    """Load a Tiled map with images (needs a display mode for convert_alpha)."""
    import pytmx.util_pygame  # imported lazily: pytmx pulls pygame image loading

    if pygame.display.get_surface() is None:
        pygame.display.set_mode((1, 1))
    return pytmx.util_pygame.load_pygame(str(path))


def _is_above(layer: Any) -> bool:
    props = getattr(layer, "properties", {}) or {}
    if str(props.get("above", "")).lower() in ("true", "1"):
        return True
    return any(w in str(getattr(layer, "name", "")).lower() for w in ABOVE_LAYER_WORDS)


class MapLayers:
    """The map's static pictures, split into below-characters and above-characters chunked surfaces."""

    def __init__(self, tmx: Any) -> None:
        self.tile_w = int(getattr(tmx, "tilewidth", TILE_PX))
        self.tile_h = int(getattr(tmx, "tileheight", TILE_PX))
        self.width = int(tmx.width) * self.tile_w
        self.height = int(tmx.height) * self.tile_h
        self.cols = (self.width + CHUNK - 1) // CHUNK
        self.rows = (self.height + CHUNK - 1) // CHUNK
        below, above = [], []
        for layer in tmx.visible_layers:
            (above if _is_above(layer) else below).append(layer)
        self.below = self._bake(below, opaque=True)
        self.above = self._bake(above, opaque=False) if above else {}

    def _bake(self, layers: list[Any], opaque: bool) -> dict[tuple[int, int], pygame.Surface]:
        chunks: dict[tuple[int, int], pygame.Surface] = {}

        def chunk(cx: int, cy: int) -> pygame.Surface:
            surf = chunks.get((cx, cy))
            if surf is None:
                surf = pygame.Surface((CHUNK, CHUNK), 0 if opaque else pygame.SRCALPHA)
                surf.fill((34, 40, 30) if opaque else (0, 0, 0, 0))
                chunks[(cx, cy)] = surf
            return surf

        for cy in range(self.rows if opaque else 0):
            for cx in range(self.cols):
                chunk(cx, cy)
        for layer in layers:
            if hasattr(layer, "tiles"):
                for x, y, image in layer.tiles():
                    self._blit(chunk, image, x * self.tile_w, y * self.tile_h + self.tile_h - image.get_height())
            elif hasattr(layer, "image") and getattr(layer, "image", None) is not None:  # image layer
                self._blit(chunk, layer.image, int(getattr(layer, "x", 0) or 0), int(getattr(layer, "y", 0) or 0))
            else:  # object group: tile objects carry images (pytmx moved y to their top edge)
                for obj in layer:
                    image = getattr(obj, "image", None)
                    if image is not None:
                        if (obj.width, obj.height) != image.get_size() and obj.width and obj.height:
                            image = pygame.transform.scale(image, (int(obj.width), int(obj.height)))
                        self._blit(chunk, image, int(obj.x), int(obj.y))
        return chunks

    def _blit(self, chunk, image: pygame.Surface, x: int, y: int) -> None:
        """Blit into every chunk the image overlaps (big objects cross chunk borders)."""
        w, h = image.get_size()
        for cy in range(max(0, y // CHUNK), min(self.rows - 1, (y + h - 1) // CHUNK) + 1):
            for cx in range(max(0, x // CHUNK), min(self.cols - 1, (x + w - 1) // CHUNK) + 1):
                chunk(cx, cy).blit(image, (x - cx * CHUNK, y - cy * CHUNK))


class ScaledChunks:
    """Chunk surfaces scaled to a zoom level, cached LRU by total pixels."""

    def __init__(self, chunks: dict[tuple[int, int], pygame.Surface]) -> None:
        self.chunks = chunks
        self._cache: OrderedDict[tuple[int, int, float], pygame.Surface] = OrderedDict()
        self._pixels = 0

    def get(self, cx: int, cy: int, zoom: float) -> pygame.Surface | None:
        base = self.chunks.get((cx, cy))
        if base is None or zoom == 1.0:
            return base
        key = (cx, cy, zoom)
        surf = self._cache.get(key)
        if surf is None:
            size = int(round(CHUNK * zoom)) + 1  # +1 px overlap hides seams between rounded chunks
            surf = pygame.transform.scale(base, (size, size))
            self._cache[key] = surf
            self._pixels += size * size
            while self._pixels > CHUNK_CACHE_PIXELS and self._cache:
                _, old = self._cache.popitem(last=False)
                self._pixels -= old.get_width() * old.get_height()
        else:
            self._cache.move_to_end(key)
        return surf


def _name_color(name: str) -> tuple[int, int, int]:
    h = zlib.crc32(name.encode())
    return (120 + h % 120, 120 + (h >> 8) % 120, 120 + (h >> 16) % 120)


class Renderer:
    """Draws the town view for a camera; holds every cache the town view needs."""

    def __init__(self, tmx: Any, sprites: CharacterSprites | None = None) -> None:
        self.layers = MapLayers(tmx)
        self.below = ScaledChunks(self.layers.below)
        self.above = ScaledChunks(self.layers.above)
        self.sprites = sprites or CharacterSprites.load()
        self._labels: OrderedDict[tuple, pygame.Surface] = OrderedDict()
        self.hits: dict[str, pygame.Rect] = {}  # screen rect of each character drawn last frame
        self.label_rects: dict[str, pygame.Rect] = {}  # screen rect of each name label drawn last frame
        self.lighting = Lighting(window_tiles(tmx), self.layers.tile_w)
        self._ground: pygame.Surface | None = None  # fill and below layers for the camera of _ground_key
        self._ground_key: tuple = ()
        self._last_key: tuple = ()

    @property
    def map_size(self) -> tuple[int, int]:
        return self.layers.width, self.layers.height

    # ------------------------------------------------------------ frame
    def draw(self, surface: pygame.Surface, camera: Camera, bodies: list[vm.BodyView],
             selected: str | None = None, view: pygame.Rect | None = None, t: float | None = None,
             covered_top: int = 0) -> None:
        """One frame of the town; `t` (game seconds) sets the light, None draws plain daylight.
        `covered_top` rows at the view's top lie under an overlay (the HUD bar): no label goes there."""
        view = view or surface.get_rect()
        clip = surface.get_clip()
        surface.set_clip(view)
        self._draw_ground(surface, camera, view)
        ordered = sorted(bodies, key=lambda b: b.y)
        self.hits, self.label_rects = {}, {}
        self._draw_bodies(surface, camera, ordered, selected, view)
        if self.layers.above:
            self._draw_chunks(surface, camera, self.above, view)
        self.lighting.draw(surface, camera, view, t)
        below_overlay = pygame.Rect(view.x, view.y + covered_top, view.w, view.h - covered_top)
        self._draw_labels(surface, camera.zoom, ordered, selected, below_overlay)
        surface.set_clip(clip)

    def _draw_ground(self, surface: pygame.Surface, camera: Camera, view: pygame.Rect) -> None:
        """The fill and the layers below the characters. Once the camera has stood still for a
        frame they are composed once and put down in one blit: most frames of play do not move
        it, and every chunk blit is time the model's threads lose (issue #17)."""
        key = (camera.x, camera.y, camera.zoom, view.size)
        if key != self._ground_key and key == self._last_key:
            self._ground = pygame.Surface(view.size, 0, surface)
            self._paint_ground(self._ground, camera, self._ground.get_rect())
            self._ground_key = key
        self._last_key = key
        if key == self._ground_key and self._ground is not None:
            surface.blit(self._ground, view)
        else:
            self._paint_ground(surface, camera, view)

    def _paint_ground(self, surface: pygame.Surface, camera: Camera, view: pygame.Rect) -> None:
        surface.fill((20, 24, 20), view)
        self._draw_chunks(surface, camera, self.below, view)

    def _draw_bodies(self, surface: pygame.Surface, camera: Camera, ordered: list[vm.BodyView],
                     selected: str | None, view: pygame.Rect) -> None:
        """Characters in the view, back to front; `hits` gets each one's screen rect."""
        z = camera.zoom
        for b in ordered:
            sx, sy = camera.to_screen(b.x, b.y)
            sx, sy = sx + view.x, sy + view.y
            if not (-64 < sx - view.x < view.width + 64 and -96 < sy - view.y < view.height + 64):
                continue
            frame, rect = self._figure(b, sx, sy, z)
            if b.name == selected:
                ring = pygame.Rect(0, 0, max(int(30 * z), rect.width), int(14 * z))
                ring.center = (int(sx), rect.bottom - int(2 * z)) if b.pose == "lie" else (int(sx), int(sy + 12 * z))
                pygame.draw.ellipse(surface, (255, 220, 80), ring, max(2, int(2 * z)))
            surface.blit(frame, rect)
            self.hits[b.name] = rect.inflate(8, 8)

    def _figure(self, b: vm.BodyView, sx: float, sy: float, z: float) -> tuple[pygame.Surface, pygame.Rect]:
        """The character's picture and where it goes on screen: standing with its feet at the bottom of
        its tile, seated a little lower on its seat, or lying over the bed it uses."""
        if b.pose == "lie" and b.bed is not None:
            frame = self.sprites.lying(b.name, (int(b.bed[2]), int(b.bed[3])), z)
            return frame, frame.get_rect(center=(int(sx), int(sy)))
        if b.pose == "sit":
            frame = self.sprites.seated(b.name, b.facing, z)
            return frame, frame.get_rect(midbottom=(int(sx), int(sy + SEAT_DROP * z)))
        frame = self.sprites.frame(b.name, b.facing, b.moving, b.anim_phase, z)
        return frame, frame.get_rect(midbottom=(int(sx), int(sy + 14 * z)))

    def _draw_labels(self, surface: pygame.Surface, z: float, ordered: list[vm.BodyView], selected: str | None,
                     view: pygame.Rect) -> None:
        """Labels front to back (the selected character's first), then bubbles, each placed inside the
        view where it hides no other (layout pass); a label with no free place nearby is left out
        (the panel names everyone)."""
        placed: list[pygame.Rect] = []
        bubbles: list[tuple[pygame.Surface, pygame.Rect]] = []
        heads = {name: head_rect(rect) for name, rect in self.hits.items()}
        for b in sorted(reversed(ordered), key=lambda b: b.name != selected):
            rect = self.hits.get(b.name)
            if rect is None:
                continue
            taken = placed + [h for name, h in heads.items() if name != b.name]  # never over another's face
            wanted = z >= LABEL_ACTIVITY_MIN_ZOOM or b.name == selected
            activity = plain_activity(b.activity or b.using) if wanted else ""
            label = self._label(b.name, activity, b.name == selected)
            home = label.get_rect(midbottom=(rect.centerx, rect.top + 2))
            if activity and b.name != selected and home.collidelist(taken) >= 0:
                # crowded (a shared table, a doorway): name only, so the stack stays short; the panel has the rest
                label = self._label(b.name, "", False)
                home = label.get_rect(midbottom=home.midbottom)
            lrect = place_free(home, taken, view)
            if lrect is None:
                continue
            placed.append(lrect)
            self.label_rects[b.name] = lrect
            surface.blit(label, lrect)
            if b.bubble:
                bubbles.append((self._bubble(b.bubble), lrect))
        placed += heads.values()
        for bubble, lrect in bubbles:  # after every label, placed clear of labels, faces and other bubbles
            brect = place_free(bubble.get_rect(midbottom=(lrect.centerx, lrect.top - 2)), placed, view)
            if brect is not None:
                surface.blit(bubble, brect)

    def _draw_chunks(self, surface, camera: Camera, chunks: ScaledChunks, view: pygame.Rect) -> None:
        x0, y0, w, h = camera.visible_rect()
        z = camera.zoom
        for cy in range(max(0, int(y0 // CHUNK)), min(self.layers.rows, int((y0 + h) // CHUNK) + 1)):
            for cx in range(max(0, int(x0 // CHUNK)), min(self.layers.cols, int((x0 + w) // CHUNK) + 1)):
                surf = chunks.get(cx, cy, z)
                if surf is not None:
                    surface.blit(surf, (view.x + round((cx * CHUNK - x0) * z), view.y + round((cy * CHUNK - y0) * z)))

    # ------------------------------------------------------------ cached pieces
    def _cached(self, key: tuple, build) -> pygame.Surface:
        surf = self._labels.get(key)
        if surf is None:
            surf = build()
            self._labels[key] = surf
            if len(self._labels) > LABEL_CACHE:
                self._labels.popitem(last=False)
        else:
            self._labels.move_to_end(key)
        return surf

    def _label(self, name: str, activity: str, selected: bool) -> pygame.Surface:
        def build() -> pygame.Surface:
            text = T.shared_text()
            top = text.render(name, LABEL_SIZE + 1, (255, 230, 120) if selected else _name_color(name), True)
            lines = [text.render(line, LABEL_SIZE - 1, (225, 228, 235)) for line in activity_lines(activity)]
            w = max([top.get_width()] + [s.get_width() for s in lines]) + 10
            h = top.get_height() + sum(s.get_height() for s in lines) + 4
            surf = pygame.Surface((w, h), pygame.SRCALPHA)
            pygame.draw.rect(surf, (15, 18, 24, 190), surf.get_rect(), border_radius=5)
            surf.blit(top, ((w - top.get_width()) // 2, 2))
            y = 2 + top.get_height()
            for line in lines:
                surf.blit(line, ((w - line.get_width()) // 2, y))
                y += line.get_height()
            return surf
        return self._cached(("label", name, activity, selected), build)

    def _bubble(self, say: str) -> pygame.Surface:
        def build() -> pygame.Surface:
            text = T.shared_text()
            lines = text.wrap(say, BUBBLE_W, 14)[:5]
            lh = text.line_height(14)
            w = max(text.font(14).size(line)[0] for line in lines) + 16
            h = lh * len(lines) + 12
            surf = pygame.Surface((w, h + 8), pygame.SRCALPHA)
            body = pygame.Rect(0, 0, w, h)
            pygame.draw.rect(surf, (250, 250, 245), body, border_radius=8)
            pygame.draw.rect(surf, (40, 40, 50), body, 2, border_radius=8)
            cx = w // 2
            pygame.draw.polygon(surf, (250, 250, 245), [(cx - 6, h - 2), (cx + 6, h - 2), (cx, h + 7)])
            pygame.draw.lines(surf, (40, 40, 50), False, [(cx - 6, h - 1), (cx, h + 7), (cx + 6, h - 1)], 2)
            for i, line in enumerate(lines):
                surf.blit(text.render(line, 14, (20, 20, 30)), (8, 6 + i * lh))
            return surf
        return self._cached(("bubble", say), build)

    def pick(self, pos: tuple[int, int]) -> str | None:
        """The character under a screen point (topmost = drawn last)."""
        found = None
        for name, rect in self.hits.items():
            if rect.collidepoint(pos):
                found = name
        return found


def activity_lines(activity: str) -> list[str]:
    """The activity wrapped at words into at most LABEL_LINES lines; the last one shortened between words."""
    if not activity:
        return []
    lines = T.shared_text().wrap(activity, LABEL_TEXT_W, LABEL_SIZE - 1)
    if len(lines) <= LABEL_LINES:
        return lines
    rest = " ".join(lines[LABEL_LINES - 1:])
    return lines[:LABEL_LINES - 1] + [shorten(rest, max(8, len(lines[LABEL_LINES - 1]) - 1))]


def head_rect(hit: pygame.Rect) -> pygame.Rect:
    """The upper third of a character's picture (`hit` is its click rect, 4 px wider each way):
    where its face is, which no other label or bubble may cover."""
    body = hit.inflate(-8, -8)
    return pygame.Rect(body.x, body.y, body.width, max(1, body.height // 3))


def place_free(rect: pygame.Rect, placed: list[pygame.Rect], bounds: pygame.Rect | None = None) -> pygame.Rect | None:
    """The first spot near `rect` that overlaps nothing in `placed`, recorded in `placed`: its own
    place, then half a label to either side, then one row higher, and so on, each kept inside
    `bounds` (a label pushed off the view would be lost); None when the neighbourhood is full
    (the label is left out rather than covering another)."""
    step_y, step_x = rect.height + 1, rect.width // 2 + 2
    for row in range(LAYOUT_ROWS + 1):
        for col in (0, -1, 1, -2, 2):
            spot = rect.move(col * step_x, -row * step_y)
            spot = spot.clamp(bounds) if bounds is not None else spot
            if spot.collidelist(placed) < 0:
                placed.append(spot)
                return spot
    return None
