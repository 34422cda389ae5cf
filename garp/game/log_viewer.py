"""In-game event log viewer: conversations, actions, emotion and relationship changes, filterable by agent
and searchable.

It reads the run's `EventLog` incrementally (only events appended since the last frame
are formatted), so it stays cheap on long runs. Results reach the log when they are
applied, not always in game-time order, so each entry is inserted at its game time: the
list reads newest first by the clock. `/` (or a click on the box) focuses the search box;
typed text filters the lines, Enter or Esc leaves the box.
"""

from __future__ import annotations

import bisect
from typing import Any

import pygame

from garp.game import text as T
from garp.game import view_model as vm
from garp.game.panels.widgets import Button, Row, RowList

SHOWN_KINDS = ("chat_start", "chat_line", "chat_end", "action_start", "action_end", "emotion", "relationship",
               "arrive", "reflection", "commitment", "need_urgent", "trait", "error")
AGENT_KEYS = ("agent", "speaker", "listener", "other", "target", "partner", "initiator", "by")
AGENT_LIST_KEYS = ("participants", "agents", "members")
MAX_ROWS = 400  # newest lines drawn (all stay filterable)
WIDTH_FRACTION = 0.55
REBUILD_S = 0.25  # wall seconds between rebuilds of the shown rows


def event_agents(ev: dict) -> set[str]:
    names = {str(ev[k]) for k in AGENT_KEYS if isinstance(ev.get(k), str) and ev.get(k)}
    for k in AGENT_LIST_KEYS:
        if isinstance(ev.get(k), (list, tuple)):
            names.update(str(n) for n in ev[k])
    return names


def _get(ev: dict, *keys: str, default: str = "") -> str:
    for k in keys:
        if ev.get(k) not in (None, ""):
            return str(ev[k])
    return default


def _num(ev: dict, key: str, fmt: str) -> str:
    v = ev.get(key)
    return format(float(v), fmt) if isinstance(v, (int, float)) else ""


def format_event(ev: dict) -> str:
    """One readable line for a log event."""
    kind = ev.get("kind", "")
    who = _get(ev, "agent", "speaker", "initiator")
    people = [str(p) for p in (ev.get("agents") or ev.get("participants") or [who, _get(ev, "partner", "other")]) if p]
    line = _chat_line(kind, ev, who, people) or _state_line(kind, ev, who)
    if line is not None:
        return line
    skip = {"kind", "t"} | set(AGENT_KEYS)
    rest = ", ".join(f"{k}={v}" for k, v in ev.items() if k not in skip and not isinstance(v, (dict, list)))
    return f"{who} {kind.replace('_', ' ')}: {rest}"[:300]


def _chat_line(kind: str, ev: dict, who: str, people: list[str]) -> str | None:
    """Conversation events and actions."""
    if kind == "chat_line":
        return f"{who}: \"{_get(ev, 'text', 'line')}\""
    if kind == "chat_start":
        place = _get(ev, "place")
        return "Conversation: " + " and ".join(people) + (f" at {place}" if place else "")
    if kind == "chat_end":
        n = _get(ev, "lines")
        return "Conversation ends: " + " and ".join(people) + (f" ({n} lines)" if n else "")
    if kind in ("action_start", "action_end"):
        what = _get(ev, "description", "activity") or " ".join(
            x for x in (_get(ev, "verb"), f"({_get(ev, 'object', 'object_id')})" if ev.get("object") else "") if x)
        return f"{who} {'starts' if kind == 'action_start' else 'stops'}: {what}".strip()
    if kind == "arrive":
        return f"{who} arrives at {_get(ev, 'place', 'destination', 'to')}"
    return None


def _state_line(kind: str, ev: dict, who: str) -> str | None:
    """Changes of mind: emotion, relationship, commitment, reflection, temperament."""
    if kind == "emotion":
        inten, val = _num(ev, "intensity", ".2f"), _num(ev, "valence", "+.2f")
        detail = ", ".join(x for x in (inten and f"intensity {inten}", val and f"valence {val}") if x)
        cause = _get(ev, "cause", "description", "explanation")
        return f"{who} feels {_get(ev, 'label', 'emotion')}" + (f" ({detail})" if detail else "") + \
            (f": {cause}" if cause else "")
    if kind == "relationship":
        parts = [f"{k} {_num(ev, k, '+.2f' if k == 'sentiment' else '.2f')}"
                 for k in ("sentiment", "trust", "familiarity") if ev.get(k) is not None]
        delta = _num(ev, "delta", "+.2f")
        reason = _get(ev, "reason")
        return (f"{who} about {_get(ev, 'other', 'target')}: " + ", ".join(parts) +
                (f" (sentiment change {delta})" if delta else "") + (f" - {reason}" if reason else ""))
    if kind == "commitment":
        start = ev.get("start")
        when = f" at {vm.hhmm(float(start))}" if isinstance(start, (int, float)) else ""
        return f"{who} commits: {_get(ev, 'what')}{when}" + (f" ({_get(ev, 'place')})" if ev.get("place") else "")
    if kind == "reflection":
        return f"{who} reflects: " + " ".join(_sentence(str(i)) for i in (ev.get("insights") or [])[:3])
    if kind == "trait":
        return f"{who}'s temperament edited: {_get(ev, 'traits') or 'silent'}"
    return None


class LogViewer:
    """A layer: scrollable, newest-first list of what happened; click an agent button to filter."""

    def __init__(self, sim: Any) -> None:
        self.sim = sim
        self.visible = False
        self.agent: str | None = None
        self.entries: list[tuple[float, int, str, set[str], str]] = []  # (t, arrival, kind, agents, line), by t
        self._seen = 0
        self.search = ""
        self.searching = False  # the search box has the keyboard
        self.search_rect = pygame.Rect(0, 0, 0, 0)
        self.list = RowList()
        self.rect = pygame.Rect(0, 0, 0, 0)
        self._age = REBUILD_S

    def toggle(self) -> None:
        self.visible = not self.visible
        self.searching = False

    def agents(self) -> list[str]:
        return sorted((vm.attr(self.sim, "minds", default={}) or {}).keys()
                      or (vm.attr(vm.attr(self.sim, "world"), "bodies", default={}) or {}).keys())

    def set_agent(self, name: str | None) -> None:
        self.agent = name
        self.list.scroll = 0
        self._age = REBUILD_S  # rebuild on the next update

    def cycle_agent(self, step: int = 1) -> None:
        options: list[str | None] = [None] + self.agents()
        i = options.index(self.agent) if self.agent in options else 0
        self.set_agent(options[(i + step) % len(options)])

    def pull(self) -> None:
        events = vm.attr(vm.attr(self.sim, "log"), "events", default=[]) or []
        new = events[self._seen:]
        self._seen += len(new)
        for i, ev in enumerate(new, start=self._seen - len(new)):
            if ev.get("kind") in SHOWN_KINDS:  # sorted by game time; equal times keep their arrival order
                bisect.insort(self.entries, (float(ev.get("t", 0.0)), i, ev["kind"], event_agents(ev), format_event(ev)),
                              key=lambda e: (e[0], e[1]))

    def set_search(self, text: str) -> None:
        self.search = text
        self.list.scroll = 0
        self._age = REBUILD_S

    def lines(self) -> list[str]:
        """The log lines currently shown (newest game time first), after the agent filter and the search."""
        self.pull()
        needle = self.search.strip().lower()
        shown = []
        for t, _, _, agents, line in reversed(self.entries):
            if self.agent is not None and self.agent not in agents:
                continue
            text = f"{vm.day_time(t)}  {line}"
            if needle and needle not in text.lower():
                continue
            shown.append(text)
            if len(shown) >= MAX_ROWS:
                break
        return shown

    def _rows(self) -> list[Row]:
        buttons = [Button("all", lambda: self.set_agent(None), self.agent is None)]
        buttons += [Button(n, lambda n=n: self.set_agent(n), self.agent == n) for n in self.agents()]
        rows = [Row(kind="buttons", buttons=buttons[i:i + 6]) for i in range(0, len(buttons), 6)]
        shown = self.lines()
        empty = f"Nothing matches '{self.search}'." if self.search.strip() else "Nothing has happened yet."
        rows += [Row(line, "mono") for line in shown] or [Row(empty, color=T.FG_DIM)]
        return rows

    # ------------------------------------------------------------ layer protocol
    def _search_key(self, ev: pygame.event.Event) -> bool:
        """Typing into the focused search box."""
        if ev.type == pygame.TEXTINPUT:
            self.set_search((self.search + ev.text)[:60])
        elif ev.type == pygame.KEYDOWN and ev.key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_ESCAPE):
            self.searching = False
        elif ev.type == pygame.KEYDOWN and ev.key == pygame.K_BACKSPACE:
            self.set_search(self.search[:-1])
        elif ev.type != pygame.KEYDOWN:
            return False
        return True

    def handle_event(self, ev: pygame.event.Event) -> bool:
        if not self.visible:
            return False
        if self.searching and self._search_key(ev):
            return True
        if ev.type == pygame.KEYDOWN:
            if ev.key == pygame.K_ESCAPE:
                self.visible = False
                return True
            if ev.key in (pygame.K_SLASH, pygame.K_KP_DIVIDE) or (ev.key == pygame.K_f and ev.mod & pygame.KMOD_CTRL):
                self.searching = True
                return True
            if ev.key in (pygame.K_LEFT, pygame.K_RIGHT):
                self.cycle_agent(1 if ev.key == pygame.K_RIGHT else -1)
                return True
            return False
        if ev.type == pygame.MOUSEBUTTONDOWN and self.rect.collidepoint(ev.pos):
            self.searching = ev.button == 1 and self.search_rect.collidepoint(ev.pos)
            self.list.handle_event(ev)
            return True
        if ev.type == pygame.MOUSEWHEEL and self.rect.collidepoint(pygame.mouse.get_pos()):
            return self.list.handle_event(ev)
        return False

    def update(self, dt: float) -> None:
        self._age += dt
        if self.visible and self._age >= REBUILD_S:
            self._age = 0.0
            self.list.set_rows(self._rows())

    def draw(self, surface: pygame.Surface) -> None:
        if not self.visible:
            return
        w, h = surface.get_size()
        self.rect = pygame.Rect(10, 50, int(w * WIDTH_FRACTION), h - 100)
        pygame.draw.rect(surface, T.BG, self.rect, border_radius=6)
        pygame.draw.rect(surface, T.BORDER, self.rect, 2, border_radius=6)
        text = T.shared_text()
        title = "Event log - " + (self.agent or "all agents") + "   (Left/Right: agent, L/Esc: close)"
        surface.blit(text.render(title, 16, T.FG, True), (self.rect.x + 10, self.rect.y + 8))
        self._draw_search(surface, text)
        if not self.list.rows:
            self.list.set_rows(self._rows())
        top = self.search_rect.bottom + 6
        self.list.draw(surface, pygame.Rect(self.rect.x, top, self.rect.width, self.rect.bottom - top - 6))

    def _draw_search(self, surface: pygame.Surface, text: T.Text) -> None:
        self.search_rect = pygame.Rect(self.rect.x + 10, self.rect.y + 34, self.rect.width - 20, 30)
        box = self.search_rect
        pygame.draw.rect(surface, T.BG_ALT, box, border_radius=4)
        pygame.draw.rect(surface, T.ACCENT if self.searching else T.BORDER, box, 2, border_radius=4)
        shown = self.search + ("|" if self.searching else "") if (self.search or self.searching) \
            else "Search (press /) ..."
        surf = text.render(shown, 15, T.FG if self.search or self.searching else T.FG_DIM)
        surface.blit(surf, (box.x + 8, box.y + (box.height - surf.get_height()) // 2))


def _sentence(text: str) -> str:
    """An insight as a sentence of its own ("Ren matters to me." not "...guitar.; Ren ...")."""
    text = text.strip()
    return text if text.endswith((".", "!", "?")) else text + "."
