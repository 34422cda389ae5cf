"""The start-of-run question of an unsuffixed personality scenario (paper V-B).

A modal layer over the town: it names the agent, lists the scenario's temperament choices
as buttons (also keys 1..N) and consumes every input until the viewer answers. The app keeps
the clock paused while it is open; the answer goes to `sim.choose_temperament(label)`, which
applies the traits and asks the agent to replan under them.
"""

from __future__ import annotations

from typing import Any

import pygame

from garp.game import text as T
from garp.game import view_model as vm

BOX_W = 620        # px, the dialog's width (shrinks on small windows)
PAD = 24           # px, inner margin
BUTTON_H = 46      # px, one choice button
BUTTON_GAP = 12    # px between buttons
TITLE_SIZE = 24    # pt
BODY_SIZE = 17     # pt
FOOT_SIZE = 15     # pt
SHADE = (0, 0, 0, 170)  # the dimmed town behind the dialog
NUMBER_KEYS = {getattr(pygame, f"K_{i}"): i for i in range(1, 10)} | {
    getattr(pygame, f"K_KP{i}"): i for i in range(1, 10)}


class TemperamentPrompt:
    """Modal layer: open while `sim.temperament_pending`; `handle_event` eats all input."""

    def __init__(self, sim: Any) -> None:
        self.sim = sim
        tp = vm.attr(vm.attr(sim, "scenario"), "temperament_prompt")
        scenario = vm.attr(sim, "scenario")
        self.title = str(vm.attr(scenario, "title", default="") or vm.attr(scenario, "name", default="Tonight"))
        self.agent = str(vm.attr(tp, "agent", default=""))
        self.choices: dict[str, str] = dict(vm.attr(tp, "choices", default={}) or {})
        self.answer: str | None = None
        self.error: str | None = None
        self.hover: int | None = None
        self.buttons: list[pygame.Rect] = []

    @property
    def active(self) -> bool:
        return bool(vm.attr(self.sim, "temperament_pending", default=False)) and self.answer is None

    # ------------------------------------------------------------ content
    def labels(self) -> list[str]:
        return list(self.choices)

    def choice_line(self, i: int, label: str) -> str:
        traits = self.choices[label]
        shown = label if traits.strip().lower() == label.strip().lower() else f"{label}  ({traits})"
        return f"{i}. {shown}"

    def lines(self) -> list[str]:
        """What the dialog shows, top to bottom (the tests read this, not pixels)."""
        out = [self.title, f"Which temperament does {self.agent} have tonight?"]
        out += [self.choice_line(i, label) for i, label in enumerate(self.labels(), 1)]
        out.append(f"Click a choice or press 1-{len(self.choices)}. The clock waits for your answer, "
                   f"then {self.agent} replans the evening under it.")
        if self.error:
            out.append(self.error)
        return out

    # ------------------------------------------------------------ input
    def choose(self, label: str) -> None:
        from garp.errors import GarpError
        try:
            self.sim.choose_temperament(label)
        except GarpError as err:  # shown in the dialog; the question stays open
            self.error = str(err)
            return
        self.answer = label

    def _index_at(self, pos: tuple[int, int]) -> int | None:
        return next((i for i, r in enumerate(self.buttons) if r.collidepoint(pos)), None)

    def handle_event(self, ev: pygame.event.Event) -> bool:
        """Answer on a click or a number key; every other event is swallowed while open."""
        if not self.active:
            return False
        labels = self.labels()
        if ev.type == pygame.KEYDOWN and NUMBER_KEYS.get(ev.key, 0) in range(1, len(labels) + 1):
            self.choose(labels[NUMBER_KEYS[ev.key] - 1])
        elif ev.type == pygame.MOUSEMOTION:
            self.hover = self._index_at(ev.pos)
        elif ev.type == pygame.MOUSEBUTTONUP and ev.button == 1:
            i = self._index_at(ev.pos)
            if i is not None:
                self.choose(labels[i])
        return True

    # ------------------------------------------------------------ drawing
    def layout(self, size: tuple[int, int]) -> pygame.Rect:
        """The dialog's rect for a window size; also places the buttons."""
        text = T.shared_text()
        w = min(BOX_W, size[0] - 40)
        inner = w - 2 * PAD
        body = text.wrap(self.lines()[1], inner, BODY_SIZE)
        head = PAD + text.line_height(TITLE_SIZE, True) + 8 + len(body) * text.line_height(BODY_SIZE) + 18
        n = len(self.choices)
        foot = 14 + len(self._footer(inner)) * text.line_height(FOOT_SIZE) + PAD
        h = head + n * BUTTON_H + (n - 1) * BUTTON_GAP + foot
        box = pygame.Rect(0, 0, w, h)
        box.center = (size[0] // 2, size[1] // 2)
        self.buttons = [pygame.Rect(box.x + PAD, box.y + head + i * (BUTTON_H + BUTTON_GAP), inner, BUTTON_H)
                        for i in range(n)]
        return box

    def _footer(self, width: int) -> list[str]:
        text = T.shared_text()
        lines = self.lines()
        out = text.wrap(lines[2 + len(self.choices)], width, FOOT_SIZE)
        if self.error:
            out += text.wrap(self.error, width, FOOT_SIZE)
        return out

    def draw(self, surface: pygame.Surface) -> None:
        if not self.active:
            return
        text = T.shared_text()
        shade = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
        shade.fill(SHADE)
        surface.blit(shade, (0, 0))
        box = self.layout(surface.get_size())
        pygame.draw.rect(surface, T.BG, box, border_radius=10)
        pygame.draw.rect(surface, T.ACCENT, box, 2, border_radius=10)
        lines, inner = self.lines(), box.width - 2 * PAD
        y = box.y + PAD
        surface.blit(text.render(lines[0], TITLE_SIZE, T.ACCENT, True), (box.x + PAD, y))
        y += text.line_height(TITLE_SIZE, True) + 8
        for row in text.wrap(lines[1], inner, BODY_SIZE):
            surface.blit(text.render(row, BODY_SIZE, T.FG), (box.x + PAD, y))
            y += text.line_height(BODY_SIZE)
        for i, (rect, label) in enumerate(zip(self.buttons, self.labels())):
            fill = T.BG_HI if i == self.hover else T.BG_ALT
            pygame.draw.rect(surface, fill, rect, border_radius=6)
            pygame.draw.rect(surface, T.BORDER if i != self.hover else T.ACCENT, rect, 1, border_radius=6)
            key = text.render(f"{i + 1}", BODY_SIZE + 1, T.WARN, True)
            surface.blit(key, (rect.x + 14, rect.centery - key.get_height() // 2))
            shown = self.choice_line(i + 1, label).split(". ", 1)[1]
            label_surf = text.render(shown, BODY_SIZE + 1, T.FG, True)
            surface.blit(label_surf, (rect.x + 44, rect.centery - label_surf.get_height() // 2))
        y = self.buttons[-1].bottom + 14 if self.buttons else y
        for row in self._footer(inner):
            color = T.BAD if self.error and row in text.wrap(self.error, inner, FOOT_SIZE) else T.FG_DIM
            surface.blit(text.render(row, FOOT_SIZE, color), (box.x + PAD, y))
            y += text.line_height(FOOT_SIZE)
