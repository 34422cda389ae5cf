"""Who talked to whom: a town overlay (key T) drawing the cast on a circle, one line per pair that
talked, thicker the more conversations they had, with the count on the line.

Counts come from the run's `chat_start` events (garp.timeline.talk_counts), refreshed a few
times a second, so the picture grows as the day goes on.
"""

from __future__ import annotations

import math
from typing import Any

import pygame

from garp import timeline as TL
from garp.game import text as T
from garp.game import view_model as vm

REFRESH_S = 0.5        # wall seconds between recounts
MAX_LINE_W = 9         # px, the pair that talked most
NODE_R = 7


class TalkGraph:
    """A layer: hidden until toggled; Esc or T closes it."""

    def __init__(self, sim: Any) -> None:
        self.sim = sim
        self.visible = False
        self.counts: dict[tuple[str, str], int] = {}
        self._age = REFRESH_S
        self.rect = pygame.Rect(0, 0, 0, 0)

    def toggle(self) -> None:
        self.visible = not self.visible
        self._age = REFRESH_S

    def names(self) -> list[str]:
        return sorted((vm.attr(self.sim, "minds", default={}) or {}).keys())

    def recount(self) -> None:
        self.counts = dict(TL.talk_counts(vm.attr(vm.attr(self.sim, "log"), "events", default=[]) or []))

    def lines(self) -> list[str]:
        """The pairs shown, most conversations first (what the tests read)."""
        self.recount()
        pairs = sorted(self.counts.items(), key=lambda kv: (-kv[1], kv[0]))
        return [f"{a} - {b}: {n} conversation{'s' if n != 1 else ''}" for (a, b), n in pairs]

    def handle_event(self, ev: pygame.event.Event) -> bool:
        if self.visible and ev.type == pygame.KEYDOWN and ev.key == pygame.K_ESCAPE:
            self.visible = False
            return True
        return False

    def update(self, dt: float) -> None:
        self._age += dt
        if self.visible and self._age >= REFRESH_S:
            self._age = 0.0
            self.recount()

    def positions(self, rect: pygame.Rect) -> dict[str, tuple[int, int]]:
        names = self.names()
        cx, cy = rect.center
        radius = min(rect.width, rect.height) // 2 - 70
        return {n: (int(cx + radius * math.cos(2 * math.pi * i / len(names) - math.pi / 2)),
                    int(cy + radius * math.sin(2 * math.pi * i / len(names) - math.pi / 2)))
                for i, n in enumerate(names)}

    def draw(self, surface: pygame.Surface, width: int) -> None:
        if not self.visible:
            return
        text = T.shared_text()
        size = min(width - 40, surface.get_height() - 90)
        self.rect = pygame.Rect(0, 44, size, size)
        self.rect.centerx = width // 2
        pygame.draw.rect(surface, T.BG, self.rect, border_radius=8)
        pygame.draw.rect(surface, T.BORDER, self.rect, 2, border_radius=8)
        surface.blit(text.render("Who talked to whom so far (T / Esc: close)", 16, T.FG, True),
                     (self.rect.x + 12, self.rect.y + 10))
        pos = self.positions(self.rect.inflate(0, -30).move(0, 15))
        top = max(self.counts.values(), default=1)
        for (a, b), n in sorted(self.counts.items(), key=lambda kv: kv[1]):
            if a in pos and b in pos:
                w = max(1, round(MAX_LINE_W * n / top))
                pygame.draw.line(surface, T.ACCENT, pos[a], pos[b], w)
                mid = ((pos[a][0] + pos[b][0]) // 2, (pos[a][1] + pos[b][1]) // 2)
                label = text.render(str(n), 13, T.WARN, True)
                back = label.get_rect(center=mid).inflate(6, 2)
                pygame.draw.rect(surface, T.BG, back, border_radius=3)  # the count stays legible over lines
                surface.blit(label, label.get_rect(center=mid))
        talked = {p for pair in self.counts for p in pair}
        for name, (x, y) in pos.items():
            pygame.draw.circle(surface, T.GOOD if name in talked else T.FG_DIM, (x, y), NODE_R)
            label = text.render(name, 14, T.FG if name in talked else T.FG_DIM)
            out = 1 if x >= self.rect.centerx else -1  # names sit outside the circle
            surface.blit(label, label.get_rect(midleft=(x + 12, y)) if out > 0 else label.get_rect(midright=(x - 12, y)))
        if not self.counts:
            msg = text.render("No conversations yet.", 15, T.FG_DIM)
            surface.blit(msg, msg.get_rect(center=self.rect.center))
