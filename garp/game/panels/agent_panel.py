"""The agent panel: a tabbed inspector on the right ~40% of the window (paper Fig. 1, 4-10)."""

from __future__ import annotations

from typing import Any

import pygame

from garp.game import text as T
from garp.game import view_model as vm
from garp.game.phrasing import plain_activity, shorten
from garp.game.panels.base import Tab
from garp.game.panels.calls import CallsTab
from garp.game.panels.decisions import DecisionsTab
from garp.game.panels.emotions import EmotionsTab
from garp.game.panels.interview import InterviewTab
from garp.game.panels.memories import MemoriesTab
from garp.game.panels.persona import PersonaTab
from garp.game.panels.plan import PlanTab
from garp.game.panels.relationships import RelationshipsTab
from garp.game.panels.timeline import TimelineTab

PANEL_FRACTION = 0.4   # of the window width
MIN_PANEL_W = 460      # px; below this tab titles do not fit
HEADER_H = 52
TAB_H = 30
TABS_PER_ROW = 4
HEADER_CHARS = 70      # header activity line, shortened between words
TAB_CLASSES = (DecisionsTab, PlanTab, MemoriesTab, EmotionsTab, PersonaTab, RelationshipsTab, TimelineTab,
               CallsTab, InterviewTab)


def panel_rect(window: tuple[int, int]) -> pygame.Rect:
    w = max(MIN_PANEL_W, int(window[0] * PANEL_FRACTION))
    return pygame.Rect(window[0] - w, 0, w, window[1])


class AgentPanel:
    """Inspector for one agent; a layer of the app's scene stack."""

    def __init__(self, sim: Any, name: str) -> None:
        self.sim = sim
        self.name = name
        self.tabs: list[Tab] = [cls(sim, name) for cls in TAB_CLASSES]
        self.active = 0
        self.rect = pygame.Rect(0, 0, 0, 0)
        self.closed = False

    def tab(self, title: str) -> Tab:
        return next(t for t in self.tabs if t.title.lower().startswith(title.lower()))

    def select(self, title: str) -> Tab:
        self.active = self.tabs.index(self.tab(title))
        self.tabs[self.active].refresh()
        return self.tabs[self.active]

    @property
    def current(self) -> Tab:
        return self.tabs[self.active]

    def header_lines(self) -> list[str]:
        body = next((b for b in vm.town_bodies(self.sim) if b.name == self.name), None)
        doing = plain_activity(body.activity) if body else ""
        # a walk names where it goes, and a place already named is not repeated
        where = f" at {body.place}" if body and body.place and not doing.startswith("walking") \
            and body.place not in doing else ""
        return [self.name, f"{doing}{where}".strip()]

    # ------------------------------------------------------------ layout
    def _tab_rects(self) -> list[pygame.Rect]:
        w = self.rect.width // TABS_PER_ROW
        return [pygame.Rect(self.rect.x + (i % TABS_PER_ROW) * w, self.rect.y + HEADER_H + (i // TABS_PER_ROW) * TAB_H,
                            w, TAB_H) for i in range(len(self.tabs))]

    def _body_rect(self) -> pygame.Rect:
        rows = (len(self.tabs) + TABS_PER_ROW - 1) // TABS_PER_ROW
        top = self.rect.y + HEADER_H + rows * TAB_H + 4
        return pygame.Rect(self.rect.x, top, self.rect.width, self.rect.bottom - top)

    def _close_rect(self) -> pygame.Rect:
        return pygame.Rect(self.rect.right - 40, self.rect.y + 10, 30, 30)

    # ------------------------------------------------------------ layer protocol
    def handle_event(self, ev: pygame.event.Event) -> bool:
        if self.closed:
            return False
        if ev.type == pygame.KEYDOWN and ev.key == pygame.K_ESCAPE:
            self.closed = True
            return True
        if ev.type in (pygame.KEYDOWN, pygame.TEXTINPUT) and getattr(self.current, "wants_text", False):
            return self.current.handle_event(ev)
        if ev.type == pygame.MOUSEBUTTONDOWN and ev.button == 1 and self.rect.collidepoint(ev.pos):
            if self._close_rect().collidepoint(ev.pos):
                self.closed = True
                return True
            for i, r in enumerate(self._tab_rects()):
                if r.collidepoint(ev.pos):
                    self.active = i
                    self.current.refresh()
                    return True
            self.current.handle_event(ev)
            return True  # clicks inside the panel never reach the town
        if ev.type == pygame.MOUSEWHEEL:
            return self.current.handle_event(ev) or self.rect.collidepoint(pygame.mouse.get_pos())
        if ev.type in (pygame.MOUSEMOTION, pygame.MOUSEBUTTONUP):
            return self.current.handle_event(ev)
        return False

    def close(self) -> None:
        """The panel goes away (closed, or another character chosen)."""
        self.tab("Interview").close()

    def update(self, dt: float) -> None:
        self.current.update(dt)
        interview = self.tab("Interview")
        if interview is not self.current:
            interview.poll()  # answers arrive even while another tab is open

    def draw(self, surface: pygame.Surface) -> None:
        self.rect = panel_rect(surface.get_size())
        text = T.shared_text()
        pygame.draw.rect(surface, T.BG, self.rect)
        pygame.draw.line(surface, T.BORDER, self.rect.topleft, self.rect.bottomleft, 2)
        title, sub = self.header_lines()
        surface.blit(text.render(title, 20, T.FG, True), (self.rect.x + 12, self.rect.y + 6))
        surface.blit(text.render(shorten(sub, HEADER_CHARS), 14, T.FG_DIM), (self.rect.x + 12, self.rect.y + 31))
        close = self._close_rect()
        pygame.draw.rect(surface, T.BG_HI, close, border_radius=4)
        x_surf = text.render("x", 18, T.FG, True)
        surface.blit(x_surf, x_surf.get_rect(center=close.center))
        for i, r in enumerate(self._tab_rects()):
            on = i == self.active
            pygame.draw.rect(surface, T.ACCENT if on else T.BG_ALT, r.inflate(-4, -4), border_radius=4)
            label = text.render(self.tabs[i].title, 14, T.BG if on else T.FG, on)
            surface.blit(label, label.get_rect(center=r.center))
        self.current.draw(surface, self._body_rect())
