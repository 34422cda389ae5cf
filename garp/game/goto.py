"""Go to a character by name: G opens a small type-ahead box; Enter jumps to the first match.

While open it takes every key, so typed letters do not pan the camera or toggle overlays.
Matches are names starting with the typed text first, then names containing it.
"""

from __future__ import annotations

from typing import Callable

import pygame

from garp.game import text as T

MAX_SHOWN = 6   # matching names listed beside the box
BOX_W = 520
BOX_H = 40


def matches(names: list[str], typed: str) -> list[str]:
    """Names matching `typed` (case-insensitive): prefixes first, then substrings, each sorted."""
    q = typed.strip().lower()
    if not q:
        return sorted(names)
    starts = sorted(n for n in names if n.lower().startswith(q))
    return starts + sorted(n for n in names if q in n.lower() and n not in starts)


class GoToBox:
    """A layer: the type-ahead box. `on_pick(name)` is called with the chosen character."""

    def __init__(self, names: Callable[[], list[str]], on_pick: Callable[[str], None]) -> None:
        self.names = names
        self.on_pick = on_pick
        self.active = False
        self.typed = ""

    def open(self) -> None:
        self.active, self.typed = True, ""

    def close(self) -> None:
        self.active, self.typed = False, ""

    def found(self) -> list[str]:
        return matches(self.names(), self.typed)

    def handle_event(self, ev: pygame.event.Event) -> bool:
        if not self.active:
            return False
        if ev.type == pygame.TEXTINPUT:
            self.typed = (self.typed + ev.text)[:40]
        elif ev.type == pygame.KEYDOWN:
            if ev.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
                found = self.found()
                self.close()
                if found:
                    self.on_pick(found[0])
            elif ev.key == pygame.K_ESCAPE:
                self.close()
            elif ev.key == pygame.K_BACKSPACE:
                self.typed = self.typed[:-1]
        else:
            return False
        return True

    def draw(self, surface: pygame.Surface, width: int) -> None:
        if not self.active:
            return
        text = T.shared_text()
        box = pygame.Rect(0, 44, min(BOX_W, width - 20), BOX_H)
        box.centerx = width // 2
        pygame.draw.rect(surface, T.BG, box, border_radius=6)
        pygame.draw.rect(surface, T.ACCENT, box, 2, border_radius=6)
        found = self.found()
        shown = ", ".join(found[:MAX_SHOWN]) + (" ..." if len(found) > MAX_SHOWN else "")
        line = f"Go to: {self.typed}|   " + (shown or "no one by that name")
        surf = text.render(line, 16, T.FG if found else T.WARN)
        clip = surface.get_clip()
        surface.set_clip(box.inflate(-16, 0))
        surface.blit(surf, (box.x + 12, box.y + (BOX_H - surf.get_height()) // 2))
        surface.set_clip(clip)
