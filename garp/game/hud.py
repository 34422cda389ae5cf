"""HUD: date and time, speed, pause, model queue depth / bound and throughput, the speed that would
keep up while the model is saturated (`Saturation`: requests waiting, or refused just now), agent
count, model servers (load per server, a red banner while one is down); the help overlay.

Keys handled here: space pause, [ / ] slower/faster, F1 help. (Tab, G, L, T, Esc and Ctrl-Q belong
to the app.) The bar also shows a short-lived notice (`flash`), e.g. "Press Esc again to quit".
"""

from __future__ import annotations

import math
import time
from typing import Any

import pygame

from garp.game import text as T
from garp.game import view_model as vm

HUD_H = 34
BANNER_H = 26  # the red "model server unreachable" bar under the HUD
STATS_EVERY_S = 0.5  # wall seconds between reads of the scheduler's stats
PACE_NOTICE_S = 10.0  # wall seconds the starting speed's explanation stays in the bar
REFUSED_RECENT_S = 10.0  # wall seconds a request refused for lack of model time keeps "saturated" up

CONTROLS = (
    ("Space", "pause / resume the clock"),
    ("[  /  ]", "slower / faster"),
    ("Mouse drag, arrows, WASD", "pan the camera"),
    ("Wheel, + / -", "zoom"),
    ("Click a character", "select it and open its panel"),
    ("Tab", "select the next character (the camera follows it)"),
    ("G", "go to a character: type part of a name, Enter"),
    ("L", "event log (Left/Right: agent, / : search)"),
    ("T", "who talked to whom"),
    ("Esc", "close the panel or overlay"),
    ("Esc twice, Ctrl-Q", "quit"),
    ("F1", "this help"),
)


class Saturation:
    """Whether "model saturated" describes now. The scheduler's load averages two minutes, so an
    opening burst it refused stays in that figure long after the queue has emptied: the notice is
    shown while the load is over capacity and requests wait, or were refused in the last
    REFUSED_RECENT_S."""

    def __init__(self) -> None:
        self._refused: int | None = None  # the count seen last; the first read is the baseline
        self._refused_at = -math.inf

    def now(self, stats: vm.HudStats, wall_s: float) -> bool:
        if self._refused is not None and stats.refused > self._refused:
            self._refused_at = wall_s
        self._refused = stats.refused
        return bool(stats.keep_up) and (stats.queue_depth > 0 or wall_s - self._refused_at <= REFUSED_RECENT_S)


class Hud:
    """Top bar with the clock and model stats; also owns the F1 help overlay."""

    def __init__(self, sim: Any) -> None:
        self.sim = sim
        self.show_help = False
        self._stats = vm.hud_stats(sim)
        self._saturation = Saturation()
        self.saturated = self._saturation.now(self._stats, time.monotonic())
        self._age = 0.0
        self._bar: pygame.Surface | None = None
        self.notice = ""
        self._notice_left = 0.0  # wall seconds the notice stays
        pace = vm.attr(sim, "start_pace")
        if pace is not None:  # say once why the clock starts at this speed
            self.flash(pace.describe(), PACE_NOTICE_S)

    def line(self) -> str:
        s = self._stats
        state = "PAUSED" if s.paused else f"speed x{s.speed:g}"
        if s.planning and not s.paused:  # the clock stands until the cast's first plans are in
            state = f"planning the day ({s.planning[0]} of {s.planning[1]}), then x{s.speed:g}"
        servers = "".join(f"   {e['name']} " + (f"{e['form']} {e['in_flight']}/{e['limit']} {e['calls']} calls"
                                                  if e["up"] else "DOWN") for e in s.endpoints)
        queue = f"model queue {s.queue_depth}/{s.bound}" if s.bound else f"model queue {s.queue_depth}"
        saturated = f"   model saturated: x{s.keep_up:g} would keep up" if self.saturated else ""
        busy = f"model busy {s.busy:.0%}, writing {s.tok_s:.0f} tok/s"
        return (f"{s.date or s.time}   {state}   {queue}   {busy}{saturated}   "
                f"{s.agents} agent{'' if s.agents == 1 else 's'}{servers}   F1 help")

    @staticmethod
    def _fitted(text, line: str, color, width: int) -> pygame.Surface:
        """The line rendered whole, or without its last parts ("20 agents", "F1 help") when a panel
        leaves the bar too narrow: cut at a part, not in the middle of a word ("20 ager"). Parts are
        measured with the font, so only the line drawn is rendered (and cached)."""
        parts, font = line.split("   "), text.font(16, True)
        while len(parts) > 1 and font.size("   ".join(parts))[0] > width:
            parts.pop()
        return text.render("   ".join(parts), 16, color, True)

    def banner(self) -> str:
        """A warning while model servers are down (issue 20 §2): empty when all are up."""
        down = [e for e in self._stats.endpoints if not e["up"]]
        if not down:
            return ""
        where = ("the other servers take their requests" if len(down) < len(self._stats.endpoints)
                 else "agents act on their fallbacks (code)")
        names = ", ".join(f"{e['name']} ({e['down_s']:.0f} s)" for e in down)
        return f"Model server unreachable: {names}; {where}"

    def flash(self, message: str, seconds: float) -> None:
        self.notice, self._notice_left = message, seconds

    def help_lines(self) -> list[str]:
        return [f"{key}: {what}" for key, what in CONTROLS]

    def handle_event(self, ev: pygame.event.Event) -> bool:
        if ev.type != pygame.KEYDOWN:
            return False
        clock = vm.attr(self.sim, "clock")
        if ev.key == pygame.K_F1:
            self.show_help = not self.show_help
        elif ev.key == pygame.K_ESCAPE and self.show_help:
            self.show_help = False
        elif ev.key == pygame.K_SPACE and clock is not None:
            clock.toggle_pause()
        elif ev.key == pygame.K_LEFTBRACKET and clock is not None:
            clock.slower()
        elif ev.key == pygame.K_RIGHTBRACKET and clock is not None:
            clock.faster()
        else:
            return False
        self._stats = vm.hud_stats(self.sim)
        return True

    def update(self, dt: float) -> None:
        self._age += dt
        self._notice_left -= dt
        if self._notice_left <= 0:
            self.notice = ""
        if self._age >= STATS_EVERY_S:
            self._age = 0.0
            self._stats = vm.hud_stats(self.sim)
            self.saturated = self._saturation.now(self._stats, time.monotonic())
        else:  # the clock line changes every frame; the scheduler stats need not
            fresh = vm.clock_stats(self.sim)
            self._stats.date, self._stats.paused, self._stats.speed = fresh.date, fresh.paused, fresh.speed
            self._stats.planning = fresh.planning

    def draw(self, surface: pygame.Surface, width: int | None = None) -> None:
        text = T.shared_text()
        w = width or surface.get_width()
        if self._bar is None or self._bar.get_width() != w:
            self._bar = pygame.Surface((w, HUD_H), pygame.SRCALPHA)
            self._bar.fill((*T.BG, 220))
        surface.blit(self._bar, (0, 0))
        color = T.WARN if self._stats.paused else T.FG
        line = self._fitted(text, self.line(), color, w - 20)
        surface.blit(line, (10, 8), pygame.Rect(0, 0, w - 20, HUD_H))
        if self.notice and line.get_width() + 30 < w:
            surface.blit(text.render(self.notice, 16, T.WARN, True), (line.get_width() + 30, 8),
                         pygame.Rect(0, 0, w - line.get_width() - 40, HUD_H))
        if banner := self.banner():
            pygame.draw.rect(surface, T.BAD, (0, HUD_H, w, BANNER_H))
            surface.blit(text.render(banner, 15, T.FG, True), (10, HUD_H + 5))
        if self.show_help:
            self._draw_help(surface, text)

    def _draw_help(self, surface: pygame.Surface, text: T.Text) -> None:
        lines = self.help_lines()
        h = 50 + 26 * len(lines)
        r = pygame.Rect(0, 0, 640, h)
        r.center = (surface.get_width() // 2, surface.get_height() // 2)
        pygame.draw.rect(surface, T.BG, r, border_radius=8)
        pygame.draw.rect(surface, T.ACCENT, r, 2, border_radius=8)
        surface.blit(text.render("Controls", 18, T.ACCENT, True), (r.x + 16, r.y + 12))
        for i, (key, what) in enumerate(CONTROLS):
            y = r.y + 44 + 26 * i
            surface.blit(text.render(key, 15, T.WARN, True), (r.x + 16, y))
            surface.blit(text.render(what, 15, T.FG), (r.x + 240, y))
