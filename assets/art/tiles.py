"""Terrain, floor, wall, door and nature tiles for the town tileset (32x32 each)."""

from __future__ import annotations

import random

import pygame

from art.pixels import T, box, circle, ellipse, outline, px, rect, shade, shadow, speckle, surf

GRASS = (108, 172, 74)
DIRT = (201, 165, 112)
WATER = (72, 146, 206)
N, E, S, W = 1, 2, 4, 8  # neighbour bits for autotiles (bit set = same terrain there)

# wall palettes: (top cap, exterior face, mortar)
WALL_PALETTES = {
    "brick": ((122, 72, 60), (178, 92, 70), (140, 118, 104)),
    "plaster": ((112, 96, 84), (226, 206, 166), (196, 176, 140)),
    "wood": ((92, 66, 52), (150, 104, 68), (112, 76, 50)),
    "stone": ((84, 88, 100), (150, 152, 160), (116, 118, 126)),
    "blue": ((70, 80, 110), (112, 140, 186), (88, 110, 150)),
    "green": ((70, 96, 74), (132, 170, 128), (100, 132, 98)),
}
INTERIOR = {"paper": (232, 222, 196), "stripe": (214, 198, 170), "wains": (150, 108, 74)}


def grass(rng: random.Random, flowers: bool = False) -> pygame.Surface:
    s = surf()
    rect(s, 0, 0, T, T, GRASS)
    speckle(s, (0, 0, T, T), GRASS, rng, 0.35, 0.1)
    for _ in range(rng.randint(3, 6)):  # tufts
        x, y = rng.randrange(2, 30), rng.randrange(3, 30)
        dark = shade(GRASS, 0.78)
        px(s, x, y, dark); px(s, x - 1, y - 1, dark); px(s, x + 1, y - 1, dark)
        px(s, x, y - 2, shade(GRASS, 1.2))
    if flowers:
        for _ in range(rng.randint(2, 4)):
            x, y = rng.randrange(3, 29), rng.randrange(3, 29)
            c = rng.choice([(250, 240, 250), (250, 220, 80), (240, 120, 150)])
            for dx, dy in ((0, -1), (-1, 0), (1, 0), (0, 1)):
                px(s, x + dx, y + dy, c)
            px(s, x, y, (250, 200, 60))
    return s


def _edge_tile(base, border, rng, mask, texture) -> pygame.Surface:
    """Autotile: terrain in the middle; a ragged border of `border` on sides whose bit is unset."""
    s = surf()
    rect(s, 0, 0, T, T, base)
    texture(s, rng)
    for side in (N, E, S, W):
        if mask & side:
            continue
        for i in range(T):
            depth = 3 + (1 if rng.random() < 0.4 else 0) + (1 if (i // 4) % 2 else 0)
            for d in range(depth + 1):
                c = border if d < depth else shade(base, 0.8)
                x, y = {N: (i, d), S: (i, T - 1 - d), W: (d, i), E: (T - 1 - d, i)}[side]
                px(s, x, y, c)
    return s


def dirt(rng: random.Random, mask: int) -> pygame.Surface:
    def tex(s, r):
        speckle(s, (0, 0, T, T), DIRT, r, 0.3, 0.08)
        for _ in range(5):
            x, y = r.randrange(2, 30), r.randrange(2, 30)
            px(s, x, y, shade(DIRT, 0.75)); px(s, x + 1, y, shade(DIRT, 1.15))
    s = _edge_tile(DIRT, GRASS, rng, mask, tex)
    return s


def water(rng: random.Random, mask: int) -> pygame.Surface:
    def tex(s, r):
        speckle(s, (0, 0, T, T), WATER, r, 0.2, 0.06)
        for _ in range(4):
            x, y = r.randrange(3, 24), r.randrange(4, 28)
            rect(s, x, y, 5, 1, shade(WATER, 1.3))
    s = _edge_tile(WATER, (160, 140, 110), rng, mask, tex)
    for side in (N, E, S, W):  # grass beyond the sandy rim
        if not mask & side:
            for i in range(T):
                x, y = {N: (i, 0), S: (i, T - 1), W: (0, i), E: (T - 1, i)}[side]
                px(s, x, y, GRASS)
    return s


def cobble(rng: random.Random) -> pygame.Surface:
    s = surf()
    base = (168, 164, 156)
    rect(s, 0, 0, T, T, shade(base, 0.7))
    for row in range(4):
        off = 4 if row % 2 else 0
        for col in range(-1, 4):
            x, y = col * 8 + off, row * 8
            c = shade(base, rng.uniform(0.9, 1.1))
            rect(s, x + 1, y + 1, 6, 6, c)
            px(s, x + 1, y + 1, shade(c, 1.15)); px(s, x + 6, y + 6, shade(c, 0.85))
    return s


def planks(rng: random.Random, base) -> pygame.Surface:
    s = surf()
    for row in range(4):
        c = shade(base, rng.uniform(0.93, 1.07))
        rect(s, 0, row * 8, T, 8, c)
        speckle(s, (0, row * 8, T, 7), c, rng, 0.2, 0.06)
        for _ in range(2):  # grain
            x = rng.randrange(0, 26)
            rect(s, x, row * 8 + rng.randrange(2, 6), rng.randrange(3, 7), 1, shade(c, 0.9))
        rect(s, 0, row * 8 + 7, T, 1, shade(base, 0.7))
        seam = (row * 13 + rng.randrange(4, 12)) % T
        rect(s, seam, row * 8, 1, 7, shade(base, 0.72))
    return s


def checker(a, b, size=8) -> pygame.Surface:
    s = surf()
    for y in range(0, T, size):
        for x in range(0, T, size):
            c = a if (x // size + y // size) % 2 == 0 else b
            rect(s, x, y, size, size, c)
            rect(s, x, y, size, 1, shade(c, 1.06))
    return s


def bath_tiles() -> pygame.Surface:
    s = surf()
    rect(s, 0, 0, T, T, (150, 176, 190))
    for y in range(0, T, 8):
        for x in range(0, T, 8):
            rect(s, x + 1, y + 1, 7, 7, (214, 232, 238))
            px(s, x + 2, y + 2, (240, 250, 252))
    return s


def carpet(rng: random.Random, base) -> pygame.Surface:
    s = surf()
    rect(s, 0, 0, T, T, base)
    speckle(s, (0, 0, T, T), base, rng, 0.5, 0.05)
    for y in range(2, T, 8):
        for x in range(2 + (y // 8 % 2) * 4, T, 8):
            px(s, x, y, shade(base, 1.18))
    return s


def slabs(rng: random.Random, base) -> pygame.Surface:
    s = surf()
    rect(s, 0, 0, T, T, shade(base, 0.8))
    for (x, y, w, h) in ((0, 0, 16, 16), (16, 0, 16, 16), (0, 16, 16, 16), (16, 16, 16, 16)):
        c = shade(base, rng.uniform(0.95, 1.05))
        rect(s, x + 1, y + 1, w - 1, h - 1, c)
        speckle(s, (x + 1, y + 1, w - 2, h - 2), c, rng, 0.15, 0.05)
        rect(s, x + 1, y + 1, w - 1, 1, shade(c, 1.08))
    return s


# ---------------- walls and doors ----------------

def wall_top(pal: str) -> pygame.Surface:
    cap = WALL_PALETTES[pal][0]
    s = surf()
    rect(s, 0, 0, T, T, cap)
    rect(s, 0, 0, T, 2, shade(cap, 1.25))
    rect(s, 0, 0, 2, T, shade(cap, 1.12))
    rect(s, T - 2, 0, 2, T, shade(cap, 0.78))
    for y in range(4, T, 8):
        rect(s, 4, y, T - 8, 1, shade(cap, 0.9))
    return s


def _face_texture(s, pal: str, y0: int) -> None:
    face, mortar = WALL_PALETTES[pal][1], WALL_PALETTES[pal][2]
    rect(s, 0, y0, T, T - y0, mortar)
    if pal in ("wood", "blue", "green"):  # siding boards
        for i, y in enumerate(range(y0, T, 5)):
            rect(s, 0, y, T, 4, shade(face, 1.0 + 0.04 * (i % 2)))
            rect(s, 0, y + 3, T, 1, shade(face, 0.78))
    else:  # bricks / blocks
        h = 6 if pal == "brick" else 8
        for i, y in enumerate(range(y0, T, h)):
            off = (h if i % 2 else 0)
            for x in range(-off, T, h * 2):
                c = shade(face, 1.0 + ((x * 7 + y * 3) % 5 - 2) * 0.03)
                rect(s, x + 1, y + 1, h * 2 - 1, h - 1, c)
                rect(s, x + 1, y + 1, h * 2 - 1, 1, shade(c, 1.1))


def wall_face(pal: str, window: bool = False) -> pygame.Surface:
    """South-facing exterior wall: a cap strip, then the facade (brick, boards or stone)."""
    cap = WALL_PALETTES[pal][0]
    s = surf()
    rect(s, 0, 0, T, 7, cap)
    rect(s, 0, 0, T, 2, shade(cap, 1.25))
    rect(s, 0, 6, T, 1, shade(cap, 0.7))
    _face_texture(s, pal, 7)
    if window:
        box(s, 7, 11, 18, 14, 0, (90, 70, 60), rim=False)
        rect(s, 8, 12, 16, 12, (140, 196, 230))
        rect(s, 8, 12, 16, 4, (186, 224, 246))
        rect(s, 15, 12, 2, 12, (230, 230, 230))
        rect(s, 8, 17, 16, 1, (230, 230, 230))
        px(s, 10, 14, (250, 250, 255)); px(s, 11, 13, (250, 250, 255))
        rect(s, 6, 25, 20, 2, (120, 90, 70))  # sill
    rect(s, 0, T - 2, T, 2, shade(WALL_PALETTES[pal][2], 0.6))
    return s


def wall_inner(pal: str) -> pygame.Surface:
    """Wall seen from inside a room: cap, wallpaper with stripes, wooden wainscot."""
    cap = WALL_PALETTES[pal][0]
    s = surf()
    rect(s, 0, 0, T, 7, cap)
    rect(s, 0, 0, T, 2, shade(cap, 1.25))
    rect(s, 0, 6, T, 1, shade(cap, 0.7))
    rect(s, 0, 7, T, 16, INTERIOR["paper"])
    for x in range(2, T, 8):
        rect(s, x, 7, 2, 16, INTERIOR["stripe"])
    rect(s, 0, 23, T, 9, INTERIOR["wains"])
    rect(s, 0, 23, T, 1, shade(INTERIOR["wains"], 1.25))
    for x in range(0, T, 8):
        rect(s, x, 25, 1, 6, shade(INTERIOR["wains"], 0.8))
    rect(s, 0, T - 2, T, 2, shade(INTERIOR["wains"], 0.6))
    return s


def door(pal: str) -> pygame.Surface:
    s = wall_face(pal)
    rect(s, 5, 6, 22, 26, (96, 64, 44))  # frame
    rect(s, 7, 8, 18, 24, (150, 98, 56))
    rect(s, 9, 10, 6, 8, shade((150, 98, 56), 0.85)); rect(s, 17, 10, 6, 8, shade((150, 98, 56), 0.85))
    rect(s, 9, 21, 6, 9, shade((150, 98, 56), 0.85)); rect(s, 17, 21, 6, 9, shade((150, 98, 56), 0.85))
    rect(s, 21, 19, 2, 2, (240, 200, 90))
    rect(s, 7, 8, 18, 1, (186, 130, 80))
    rect(s, 4, 30, 24, 2, (120, 110, 100))  # step
    return s


# ---------------- nature and street decoration (transparent) ----------------

def tree_2x2(rng: random.Random, leaf=(64, 140, 66)) -> pygame.Surface:
    s = surf(64, 64)
    shadow(s, 10, 48, 44, 14, 80)
    rect(s, 28, 38, 8, 18, (112, 76, 50)); rect(s, 28, 38, 3, 18, (140, 98, 64))
    rect(s, 26, 54, 12, 3, (96, 64, 42))
    blobs = [(32, 24, 20), (20, 30, 13), (44, 30, 13), (26, 14, 12), (40, 14, 12), (32, 36, 12)]
    for (x, y, r) in blobs:
        circle(s, shade(leaf, 0.8), (x, y + 2), r)
    for (x, y, r) in blobs:
        circle(s, leaf, (x, y), r - 1)
    for (x, y, r) in blobs:
        circle(s, shade(leaf, 1.22), (x - r // 3, y - r // 3), max(2, r // 3))
    for _ in range(40):
        x, y = rng.randrange(12, 52), rng.randrange(4, 44)
        if s.get_at((x, y)).a:
            px(s, x, y, shade(leaf, rng.choice([0.8, 1.3])))
    return outline(s)


def bush(rng: random.Random, leaf=(70, 150, 70), berries=None) -> pygame.Surface:
    s = surf()
    shadow(s, 3, 22, 26, 9)
    for (x, y, r) in ((11, 18, 8), (21, 18, 8), (16, 12, 8)):
        circle(s, shade(leaf, 0.85), (x, y + 1), r)
        circle(s, leaf, (x, y), r - 1)
        circle(s, shade(leaf, 1.25), (x - 2, y - 3), 2)
    if berries:
        for _ in range(5):
            px(s, rng.randrange(8, 24), rng.randrange(8, 22), berries)
    return outline(s)


def flowers(rng: random.Random, color) -> pygame.Surface:
    s = surf()
    for _ in range(7):
        x, y = rng.randrange(4, 28), rng.randrange(6, 28)
        rect(s, x, y, 1, 3, (60, 120, 50))
        for dx, dy in ((0, -1), (-1, 0), (1, 0), (0, 1)):
            px(s, x + dx, y - 1 + dy, color)
        px(s, x, y - 1, (250, 220, 90))
    return s


def rock(rng: random.Random) -> pygame.Surface:
    s = surf()
    shadow(s, 4, 20, 24, 9)
    ellipse(s, (128, 126, 122), (6, 10, 20, 14))
    ellipse(s, (156, 154, 150), (8, 10, 13, 8))
    return outline(s)


def fence(horizontal: bool) -> pygame.Surface:
    s = surf()
    wood, dark = (190, 150, 100), (130, 96, 62)
    if horizontal:
        for x in (2, 16, 30):
            rect(s, x - 2, 8, 4, 20, wood); rect(s, x - 2, 8, 1, 20, shade(wood, 1.15))
        rect(s, 0, 12, T, 3, wood); rect(s, 0, 20, T, 3, wood)
        rect(s, 0, 15, T, 1, dark); rect(s, 0, 23, T, 1, dark)
    else:
        rect(s, 14, 0, 4, T, wood); rect(s, 14, 0, 1, T, shade(wood, 1.15)); rect(s, 17, 0, 1, T, dark)
        for y in (4, 20):
            rect(s, 12, y, 8, 3, shade(wood, 0.9))
    return s


def hedge(mid: bool = False) -> pygame.Surface:
    """Seamless hedge; `mid` is the piece with more hedge below it (no front shadow, full height)."""
    s = surf()
    leaf = (58, 128, 62)
    rng = random.Random(7)
    top = 0 if mid else 4
    rect(s, 0, top, T, T - top if mid else 24, leaf)
    rect(s, 0, top, T, 10, shade(leaf, 1.12))
    speckle(s, (0, top, T, (T - top) if mid else 24), leaf, rng, 0.55, 0.22)
    if not mid:
        for x in range(0, T, 3):  # leafy top edge
            px(s, x, 3, shade(leaf, 1.2)); px(s, x + 1, 2 + (x % 2), shade(leaf, 1.05))
        rect(s, 0, 27, T, 2, shade(leaf, 0.65))
        rect(s, 0, 29, T, 2, (40, 70, 40, 90))
    return s


def lily(rng: random.Random) -> pygame.Surface:
    s = surf()
    for _ in range(3):
        x, y = rng.randrange(6, 24), rng.randrange(6, 24)
        circle(s, (70, 150, 80), (x, y), 4); rect(s, x, y - 4, 1, 4, (40, 100, 60))
        circle(s, shade((70, 150, 80), 1.2), (x - 1, y - 1), 1)
    px(s, 20, 20, (250, 200, 220)); px(s, 21, 20, (250, 160, 200)); px(s, 20, 21, (250, 160, 200))
    return s


def reeds(rng: random.Random) -> pygame.Surface:
    s = surf()
    for _ in range(9):
        x = rng.randrange(4, 28)
        hgt = rng.randrange(8, 16)
        rect(s, x, 30 - hgt, 1, hgt, (80, 130, 60))
        if rng.random() < 0.5:
            rect(s, x, 30 - hgt, 2, 4, (130, 90, 60))
    return s


def lamp() -> pygame.Surface:
    s = surf()
    shadow(s, 10, 26, 12, 5)
    rect(s, 15, 8, 3, 21, (60, 64, 76)); rect(s, 15, 8, 1, 21, (100, 104, 120))
    rect(s, 12, 27, 9, 3, (60, 64, 76))
    box(s, 11, 0, 11, 10, 3, (70, 74, 86), rim=False)
    rect(s, 13, 4, 7, 5, (255, 236, 160))
    return s


def mailbox() -> pygame.Surface:
    s = surf()
    shadow(s, 8, 26, 16, 5)
    rect(s, 15, 16, 3, 12, (110, 80, 56))
    box(s, 9, 6, 15, 12, 4, (66, 104, 180))
    rect(s, 21, 4, 2, 6, (210, 60, 50))
    return s


def signpost() -> pygame.Surface:
    s = surf()
    shadow(s, 8, 26, 16, 5)
    rect(s, 15, 12, 3, 17, (120, 86, 56))
    box(s, 5, 4, 22, 11, 2, (186, 140, 90))
    for y in (8, 11):
        rect(s, 8, y, 16, 1, (110, 80, 56))
    return s


def flower_bed(rng: random.Random) -> pygame.Surface:
    s = surf()
    rect(s, 1, 6, 30, 24, (150, 110, 80))  # wooden edging
    rect(s, 2, 7, 28, 22, (92, 64, 44))
    speckle(s, (2, 7, 28, 22), (92, 64, 44), rng, 0.4, 0.15)
    for _ in range(14):
        x, y = rng.randrange(3, 27), rng.randrange(8, 26)
        circle(s, (66, 136, 60), (x + 1, y + 1), 2)
    for _ in range(9):
        x, y = rng.randrange(4, 26), rng.randrange(6, 24)
        c = rng.choice([(240, 90, 100), (250, 210, 70), (200, 120, 230), (250, 250, 250), (250, 150, 60)])
        rect(s, x, y, 3, 3, c); px(s, x + 1, y + 1, (250, 230, 120)); px(s, x, y, shade(c, 1.15))
    rect(s, 1, 29, 30, 1, (100, 72, 50))
    return s


def rug(base) -> pygame.Surface:
    s = surf()
    rect(s, 2, 2, 28, 28, shade(base, 0.8))
    rect(s, 4, 4, 24, 24, base)
    rect(s, 7, 7, 18, 18, shade(base, 1.15))
    rect(s, 10, 10, 12, 12, base)
    for x in range(3, 30, 3):
        px(s, x, 1, (230, 220, 200)); px(s, x, 30, (230, 220, 200))
    return s


