"""Walking character sprites: 4 directions x 3 frames, 32x32 cells, one look per character."""

from __future__ import annotations

import random
from dataclasses import dataclass

import pygame

from art.pixels import flip_h, outline, px, rect, shade, shadow, surf

DIRECTIONS = ("down", "left", "right", "up")
FRAMES = 3  # stand, step A, step B

SKINS = [(250, 214, 180), (236, 190, 150), (214, 160, 120), (176, 120, 84), (130, 86, 60), (96, 64, 46)]
HAIRS = [(40, 30, 28), (90, 56, 36), (160, 100, 50), (226, 190, 110), (200, 80, 40), (150, 150, 156),
         (236, 236, 230), (60, 40, 70), (30, 40, 70), (170, 60, 110)]
CLOTHES = [(200, 70, 70), (70, 110, 190), (70, 150, 100), (230, 180, 60), (150, 90, 170), (240, 130, 70),
           (60, 160, 170), (230, 230, 230), (60, 60, 70), (190, 110, 140), (120, 150, 70), (110, 80, 60)]
PANTS = [(60, 70, 110), (50, 50, 60), (110, 80, 60), (90, 110, 80), (150, 140, 120), (40, 60, 90)]


@dataclass(frozen=True)
class Look:
    skin: tuple
    hair: tuple
    shirt: tuple
    pants: tuple
    style: str  # short | long | bun | spiky | bald | pony
    skirt: bool = False
    glasses: bool = False
    beard: bool = False


def random_look(rng: random.Random) -> Look:
    return Look(rng.choice(SKINS), rng.choice(HAIRS), rng.choice(CLOTHES), rng.choice(PANTS),
                rng.choice(["short", "long", "bun", "spiky", "pony", "short"]),
                skirt=rng.random() < 0.25, glasses=rng.random() < 0.2, beard=rng.random() < 0.12)


def _legs(s, look: Look, frame: int, side: bool) -> None:
    shoe = (50, 40, 40)
    if side:
        a, b = {0: (0, 0), 1: (-2, 2), 2: (2, -2)}[frame]
        rect(s, 14 + a, 24, 4, 5, shade(look.pants, 0.85)); rect(s, 14 + a, 29, 5, 2, shoe)
        rect(s, 15 + b, 24, 4, 5, look.pants); rect(s, 15 + b, 29, 5, 2, shoe)
        return
    la, ra = {0: (0, 0), 1: (-1, 1), 2: (1, -1)}[frame]
    rect(s, 12, 24, 3, 5 + la, look.pants); rect(s, 12, 29 + la, 4, 2, shoe)
    rect(s, 17, 24, 3, 5 + ra, look.pants); rect(s, 16, 29 + ra, 4, 2, shoe)
    if look.skirt:
        rect(s, 10, 22, 12, 4, shade(look.shirt, 0.8))


def _body(s, look: Look, frame: int, d: str) -> None:
    shirt = look.shirt
    if d in ("left", "right"):
        rect(s, 12, 16, 8, 9, shirt); rect(s, 12, 16, 2, 9, shade(shirt, 1.15))
        swing = {0: 0, 1: 2, 2: -2}[frame]
        rect(s, 15 + swing, 17, 3, 6, shade(shirt, 0.85)); rect(s, 15 + swing, 23, 3, 2, look.skin)
        if look.skirt:
            rect(s, 11, 22, 10, 4, shade(shirt, 0.8))
        return
    rect(s, 10, 16, 12, 9, shirt)
    rect(s, 10, 16, 12, 1, shade(shirt, 1.2)); rect(s, 19, 17, 3, 8, shade(shirt, 0.85))
    sw = {0: 0, 1: 1, 2: -1}[frame]
    rect(s, 8, 17 + sw, 2, 6, shade(shirt, 0.9)); rect(s, 8, 23 + sw, 2, 2, look.skin)
    rect(s, 22, 17 - sw, 2, 6, shade(shirt, 0.8)); rect(s, 22, 23 - sw, 2, 2, look.skin)
    if d == "down":
        rect(s, 14, 16, 4, 2, shade(look.skin, 0.95))  # neck / collar


def _head(s, look: Look, d: str) -> None:
    skin, hair = look.skin, look.hair
    hl = shade(hair, 1.3)
    if d == "up":
        rect(s, 10, 4, 12, 12, skin)
        rect(s, 10, 3, 12, 12, hair); rect(s, 11, 4, 6, 2, hl)
        rect(s, 10, 13, 12, 2, shade(hair, 0.8)); rect(s, 15, 5, 1, 6, shade(hair, 0.85))
        for cx in (10, 21):  # round the crown
            s.set_at((cx, 3), (0, 0, 0, 0))
        if look.style in ("long", "pony"):
            rect(s, 10, 14, 12, 5, hair)
        if look.style == "bun":
            rect(s, 13, 0, 6, 4, hair)
        if look.style == "bald":
            rect(s, 11, 4, 10, 9, skin); rect(s, 10, 11, 12, 3, hair)
        return
    if d in ("left", "right"):
        rect(s, 11, 4, 10, 12, skin)
        rect(s, 11, 4, 10, 1, shade(skin, 1.05))
        px(s, 13, 10, (40, 30, 40)); px(s, 13, 9, (40, 30, 40))
        rect(s, 10, 9, 1, 3, skin)  # nose
        rect(s, 14, 13, 2, 1, shade(skin, 0.8))
        if look.style != "bald":
            rect(s, 12, 2, 10, 5, hair); rect(s, 17, 4, 5, 9, hair); rect(s, 13, 3, 5, 1, hl)
        else:
            rect(s, 17, 8, 4, 4, hair)
        if look.style in ("long",):
            rect(s, 17, 4, 5, 14, hair)
        if look.style == "pony":
            rect(s, 21, 7, 3, 9, hair)
        if look.style == "bun":
            rect(s, 19, 1, 5, 5, hair)
        if look.style == "spiky":
            for x in (12, 15, 18):
                px(s, x, 1, hair); px(s, x + 1, 1, hair)
        if look.glasses:
            rect(s, 11, 9, 4, 1, (40, 40, 50)); rect(s, 12, 9, 2, 2, (40, 40, 50))
        if look.beard:
            rect(s, 11, 12, 6, 4, hair)
        return
    # down
    rect(s, 10, 4, 12, 12, skin)
    rect(s, 19, 5, 3, 11, shade(skin, 0.9))
    rect(s, 13, 9, 2, 3, (40, 30, 40)); rect(s, 18, 9, 2, 3, (40, 30, 40))
    px(s, 13, 9, (250, 250, 250)); px(s, 18, 9, (250, 250, 250))
    rect(s, 11, 12, 2, 1, (240, 150, 140)); rect(s, 20, 12, 2, 1, (240, 150, 140))
    rect(s, 15, 13, 3, 1, shade(skin, 0.7))
    if look.style != "bald":
        rect(s, 10, 2, 12, 5, hair); rect(s, 9, 4, 2, 7, hair); rect(s, 22, 4, 1, 7, hair)
        rect(s, 12, 3, 5, 1, hl)
        for cx in (10, 21):  # round the crown
            s.set_at((cx, 2), (0, 0, 0, 0))
    else:
        rect(s, 9, 7, 2, 5, hair); rect(s, 22, 7, 1, 5, hair)
    if look.style == "long":
        rect(s, 8, 6, 3, 13, hair); rect(s, 21, 6, 3, 13, hair)
    if look.style == "pony":
        rect(s, 22, 6, 2, 6, hair)
    if look.style == "bun":
        rect(s, 13, 0, 6, 3, hair); px(s, 14, 0, hl)
    if look.style == "spiky":
        for x in (10, 13, 16, 19):
            rect(s, x, 0, 2, 2, hair)
    if look.glasses:
        rect(s, 12, 9, 4, 3, (40, 40, 50)); rect(s, 17, 9, 4, 3, (40, 40, 50)); rect(s, 16, 10, 1, 1, (40, 40, 50))
        px(s, 13, 10, (190, 220, 240)); px(s, 18, 10, (190, 220, 240))
    if look.beard:
        rect(s, 11, 12, 10, 4, hair); rect(s, 14, 13, 4, 1, shade(skin, 0.7))


def frame(look: Look, d: str, f: int) -> pygame.Surface:
    if d == "right":
        return flip_h(frame(look, "left", f))
    s = surf()
    side = d in ("left", "right")
    _legs(s, look, f, side)
    _body(s, look, f, d)
    _head(s, look, d)
    outline(s)
    out = surf()
    shadow(out, 8, 27, 16, 5, 60)
    out.blit(s, (0, 0))
    return out


def sheet(looks: list[Look]) -> pygame.Surface:
    """Four rows per character (down, left, right, up); columns = frames (0 stand, 1-2 steps)."""
    out = surf(32 * FRAMES, 32 * len(DIRECTIONS) * len(looks))
    for c, look in enumerate(looks):
        for di, d in enumerate(DIRECTIONS):
            for f in range(FRAMES):
                out.blit(frame(look, d, f), (f * 32, (c * len(DIRECTIONS) + di) * 32))
    return out
