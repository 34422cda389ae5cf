"""Small pixel-art toolkit on pygame surfaces: colours, noise, boxes, outlines."""

from __future__ import annotations

import random

import pygame

T = 32  # tile size in px
INK = (38, 30, 42)  # outline colour


def surf(w: int = T, h: int = T) -> pygame.Surface:
    return pygame.Surface((w, h), pygame.SRCALPHA)


def shade(c, f: float):
    return tuple(max(0, min(255, int(v * f))) for v in c[:3])


def rect(s, x, y, w, h, c) -> None:
    s.fill(c, (x, y, w, h))


def px(s, x, y, c) -> None:
    if 0 <= x < s.get_width() and 0 <= y < s.get_height():
        s.set_at((x, y), c)


def speckle(s, area, base, rng: random.Random, density=0.25, spread=0.12) -> None:
    """Per-pixel brightness noise so flat fills read as texture."""
    x0, y0, w, h = area
    for y in range(y0, y0 + h):
        for x in range(x0, x0 + w):
            if rng.random() < density:
                px(s, x, y, shade(base, 1 + rng.uniform(-spread, spread)))


def outline(s: pygame.Surface, color=INK) -> pygame.Surface:
    """Paint a 1 px dark outline around every opaque region (the classic sprite look)."""
    alpha = pygame.surfarray.array_alpha(s) > 0
    dil = alpha.copy()
    dil[1:, :] |= alpha[:-1, :]
    dil[:-1, :] |= alpha[1:, :]
    dil[:, 1:] |= alpha[:, :-1]
    dil[:, :-1] |= alpha[:, 1:]
    edge = dil & ~alpha
    rgb = pygame.surfarray.pixels3d(s)
    a = pygame.surfarray.pixels_alpha(s)
    rgb[edge] = color
    a[edge] = 255
    del rgb, a
    return s


def box(s, x, y, w, h, top_h, col, *, top=None, rim=True) -> None:
    """A 3/4-view block: lighter top face of height `top_h`, darker front face below."""
    top = top or shade(col, 1.15)
    rect(s, x, y, w, top_h, top)
    rect(s, x, y + top_h, w, h - top_h, shade(col, 0.85))
    if rim:
        rect(s, x, y + top_h, w, 1, shade(col, 0.7))
        rect(s, x + 1, y + 1, w - 2, 1, shade(top, 1.12))
    rect(s, x, y, w, 1, INK)
    rect(s, x, y + h - 1, w, 1, INK)
    rect(s, x, y, 1, h, INK)
    rect(s, x + w - 1, y, 1, h, INK)


def shadow(s, x, y, w, h, alpha=70) -> None:
    sh = pygame.Surface((w, h), pygame.SRCALPHA)
    pygame.draw.ellipse(sh, (20, 30, 20, alpha), (0, 0, w, h))
    s.blit(sh, (x, y))


def ellipse(s, c, r, width=0) -> None:
    pygame.draw.ellipse(s, c, r, width)


def circle(s, c, center, radius, width=0) -> None:
    pygame.draw.circle(s, c, center, radius, width)


def line(s, c, a, b) -> None:
    pygame.draw.line(s, c, a, b)


def flip_h(s: pygame.Surface) -> pygame.Surface:
    return pygame.transform.flip(s, True, False)
