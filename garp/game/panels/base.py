"""Base class of an agent-panel tab: build rows from the view model, draw, handle input."""

from __future__ import annotations

from typing import Any

import pygame

from garp.game.panels.widgets import Row, RowList

REBUILD_S = 0.25  # wall seconds between row rebuilds; the sim changes slower than the frame rate


class Tab:
    title = "Tab"

    def __init__(self, sim: Any, name: str) -> None:
        self.sim = sim
        self.name = name
        self.list = RowList()
        self._age = REBUILD_S  # build on first update

    @property
    def mind(self) -> Any:
        return (getattr(self.sim, "minds", None) or {}).get(self.name)

    def build(self) -> list[Row]:
        """The rows this tab shows now (subclasses read the view model here)."""
        return []

    def refresh(self) -> None:
        if not self.list.dragging():
            self.list.set_rows(self.build())
        self._age = 0.0

    def lines(self) -> list[str]:
        """The text of every row the tab draws (what tests assert on)."""
        self.refresh()
        return [line for row in self.list.rows for line in row.lines()]

    def update(self, dt: float) -> None:
        self._age += dt
        if self._age >= REBUILD_S:
            self.refresh()

    def handle_event(self, ev: pygame.event.Event) -> bool:
        used = self.list.handle_event(ev)
        if used and ev.type in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
            self.refresh()
        return used

    def draw(self, surface: pygame.Surface, rect: pygame.Rect) -> None:
        self.list.draw(surface, rect)
