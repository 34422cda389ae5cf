"""Rows and a scrollable row list: the one drawing primitive every panel tab uses.

A tab builds a list of `Row`s from the view model; `RowList` lays them out (with
word wrap), draws them, scrolls them and routes clicks and slider drags. Because
every tab draws only rows, `Row.lines()` is exactly the text a tab shows, which is
what the tests read.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import pygame

from garp.game import text as T

FONT = 15          # body text size (px); legible at 1280x720
SMALL = 14
HEADING = 16
PAD = 8
BAR_H = 22
SPARK_H = 48
CHART_H = 110      # timeline chart plot height (px)
LEGEND_COLS = 3    # curve names per legend line under a chart
SLIDER_H = 40
SCROLL_STEP = 48   # pixels per wheel notch


@dataclass
class Button:
    label: str
    action: Callable[[], None]
    active: bool = False


@dataclass
class Row:
    text: str = ""
    kind: str = "text"      # text | heading | bar | spark | chart | slider | buttons | block | mono
    value: float = 0.0      # bar value / slider stop
    lo: float = 0.0
    hi: float = 1.0
    color: tuple | None = None
    indent: int = 0
    mark: bool = False      # urgent need, kept commitment, selected call
    action: Callable[[], None] | None = None
    buttons: list[Button] = field(default_factory=list)
    series: list[float] = field(default_factory=list)
    on_release: Callable[[int], None] | None = None   # slider: called with the new stop
    curves: list[tuple[str, tuple, list[tuple[float, float]]]] = field(default_factory=list)  # chart: (name, rgb, points)
    span: tuple[float, float] | None = None  # chart: game-time axis (default: the points' own span)

    def lines(self) -> list[str]:
        if self.kind == "buttons":
            return [" ".join(f"[{b.label}]" + ("*" if b.active else "") for b in self.buttons)]
        if self.kind == "bar":
            return [f"{self.text} {self.value:.2f}" + (" URGENT" if self.mark else "")]
        if self.kind == "slider":
            return [f"{self.text} {int(self.value):+d}"]
        if self.kind == "chart":
            return [self.text] + [f"{name}: {pts[0][1]:+.2f} -> {pts[-1][1]:+.2f} ({len(pts)} points)"
                                  for name, _, pts in self.curves if pts]
        return [self.text] if self.text else []


class RowList:
    """Lays out, draws and scrolls rows inside a rectangle; handles their input."""

    def __init__(self) -> None:
        self.rows: list[Row] = []
        self.scroll = 0
        self.rect = pygame.Rect(0, 0, 100, 100)
        self._hits: list[tuple[pygame.Rect, Row, Button | None]] = []
        self._drag: tuple[Row, pygame.Rect] | None = None
        self._content_h = 0
        self._to_row: int | None = None  # next draw scrolls this row to the top

    def scroll_to_row(self, index: int) -> None:
        """On the next draw, scroll row `index` (negative: from the end) to the top, or as far as the
        content allows (the newest question and its answer, say)."""
        self._to_row = index

    def set_rows(self, rows: list[Row]) -> None:
        self.rows = rows

    # ------------------------------------------------------------ layout
    def _row_height(self, row: Row, width: int, text: T.Text) -> tuple[int, list]:
        if row.kind == "bar":
            return BAR_H + 4, []
        if row.kind == "spark":
            return SPARK_H + text.line_height(SMALL) + 6, []
        if row.kind == "chart":
            legend = (len(row.curves) + LEGEND_COLS - 1) // LEGEND_COLS
            return CHART_H + (legend + 1) * text.line_height(SMALL) + 10, []
        if row.kind == "slider":
            return SLIDER_H + 6, []
        if row.kind == "buttons":
            return text.line_height(FONT) + 12, []
        size = HEADING if row.kind == "heading" else (SMALL if row.kind == "mono" else FONT)
        avail = width - row.indent * 16 - 2 * PAD - (12 if row.kind == "block" else 0)
        paras = row.text.split("\n") if row.kind == "block" else [row.text]
        wrapped = []
        for i, para in enumerate(paras):
            color = None
            if len(paras) > 1:  # card: coloured header, body text, dim metadata line
                color = (row.color or T.ACCENT) if i == 0 else (T.FG_DIM if i == len(paras) - 1 and i > 1 else T.FG)
            wrapped += [(line, color) for line in text.wrap(para, avail, size, row.kind == "heading")]
        extra = 10 if row.kind in ("heading", "block") else 4
        return len(wrapped) * text.line_height(size, row.kind == "heading") + extra, wrapped

    def scroll_by(self, dy: int) -> None:
        self.scroll = max(0, min(self.scroll + dy, max(0, self._content_h - self.rect.height)))

    # ------------------------------------------------------------ drawing
    def draw(self, surface: pygame.Surface, rect: pygame.Rect) -> None:
        text = T.shared_text()
        self.rect = pygame.Rect(rect)
        self._hits = []
        laid = [(row, *self._row_height(row, self.rect.width, text)) for row in self.rows]
        self._content_h = sum(h for _, h, _ in laid) + 2 * PAD
        bottom = max(0, self._content_h - self.rect.height)
        if self._to_row is not None and laid:
            self.scroll = sum(h for _, h, _ in laid[:self._to_row % len(laid)])
            self._to_row = None
        self.scroll = max(0, min(self.scroll, bottom))
        clip = surface.get_clip()
        surface.set_clip(self.rect)
        y = self.rect.y + PAD - self.scroll
        for row, h, wrapped in laid:
            if y + h >= self.rect.y and y <= self.rect.bottom:
                self._draw_row(surface, row, pygame.Rect(self.rect.x, y, self.rect.width, h), wrapped, text)
            y += h
        if self._content_h > self.rect.height:  # scrollbar
            bar_h = max(20, int(self.rect.height * self.rect.height / self._content_h))
            top = self.rect.y + int((self.rect.height - bar_h) * self.scroll / max(1, bottom))
            pygame.draw.rect(surface, T.BORDER, (self.rect.right - 6, top, 4, bar_h), border_radius=2)
        surface.set_clip(clip)

    def _draw_row(self, surface, row: Row, r: pygame.Rect, wrapped: list, text: T.Text) -> None:
        x = r.x + PAD + row.indent * 16
        inner_w = r.right - PAD - x
        if row.kind == "bar":
            self._draw_bar(surface, row, r, x, inner_w, text)
        elif row.kind == "spark":
            self._draw_spark(surface, row, pygame.Rect(x, r.y, inner_w, SPARK_H), text)
        elif row.kind == "chart":
            draw_chart(surface, row, pygame.Rect(x, r.y, inner_w, r.height - 6), text)
        elif row.kind == "slider":
            self._draw_slider(surface, row, pygame.Rect(x, r.y, inner_w, SLIDER_H), text)
        elif row.kind == "buttons":
            self._draw_buttons(surface, row, r, x, text)
        else:
            self._draw_text(surface, row, r, x, inner_w, wrapped, text)

    def _draw_buttons(self, surface, row: Row, r: pygame.Rect, x: int, text: T.Text) -> None:
        bx = x
        for b in row.buttons:
            surf = text.render(b.label, FONT, T.BG if b.active else T.FG)
            br = pygame.Rect(bx, r.y + 3, surf.get_width() + 16, r.height - 6)
            pygame.draw.rect(surface, T.ACCENT if b.active else T.BG_HI, br, border_radius=4)
            surface.blit(surf, (br.x + 8, br.y + (br.height - surf.get_height()) // 2))
            self._hits.append((br, row, b))
            bx = br.right + 6

    def _draw_text(self, surface, row: Row, r: pygame.Rect, x: int, inner_w: int, wrapped: list,
                   text: T.Text) -> None:
        """Text rows: plain, heading, mono, or a block with a coloured edge."""
        size = HEADING if row.kind == "heading" else (SMALL if row.kind == "mono" else FONT)
        if row.kind == "block":
            pygame.draw.rect(surface, T.BG_HI if row.mark else T.BG_ALT, (x, r.y + 2, inner_w, r.height - 4),
                             border_radius=4)
            pygame.draw.rect(surface, row.color or T.ACCENT, (x, r.y + 2, 5, r.height - 4))
            x += 12
        ty = r.y + (5 if row.kind in ("heading", "block") else 2)
        base = T.FG if row.kind == "block" else ((row.color or T.FG) if row.kind != "heading" else T.ACCENT)
        for line, line_color in wrapped:
            surface.blit(text.render(line, size, line_color or base, row.kind == "heading"), (x, ty))
            ty += text.line_height(size, row.kind == "heading")
        if row.action is not None:
            self._hits.append((r, row, None))

    def _draw_bar(self, surface, row: Row, r: pygame.Rect, x: int, inner_w: int, text: T.Text) -> None:
        """A need, trust or valence bar; a signed one grows from the middle."""
        label = text.render(row.text, SMALL, T.FG)
        surface.blit(label, (x, r.y + 3))
        bx, bw = x + 92, inner_w - 92 - 52
        frac = (row.value - row.lo) / max(1e-9, row.hi - row.lo)
        pygame.draw.rect(surface, T.BG_ALT, (bx, r.y + 3, bw, BAR_H - 6), border_radius=3)
        fill = row.color or (T.BAD if row.mark else T.ACCENT)
        if row.lo < 0:  # signed bar grows from the middle
            mid = bx + bw // 2
            end = bx + int(bw * max(0.0, min(1.0, frac)))
            pygame.draw.rect(surface, fill, (min(mid, end), r.y + 3, abs(end - mid), BAR_H - 6), border_radius=3)
            pygame.draw.line(surface, T.FG_DIM, (mid, r.y + 1), (mid, r.y + BAR_H - 2))
        else:
            pygame.draw.rect(surface, fill, (bx, r.y + 3, int(bw * max(0.0, min(1.0, frac))), BAR_H - 6),
                             border_radius=3)
        val = f"{row.value:+.2f}" if row.lo < 0 else f"{row.value:.2f}"
        surface.blit(text.render(val + (" !" if row.mark else ""), SMALL, T.BAD if row.mark else T.FG),
                     (bx + bw + 6, r.y + 3))

    def _draw_spark(self, surface, row: Row, r: pygame.Rect, text: T.Text) -> None:
        pygame.draw.rect(surface, T.BG_ALT, r, border_radius=3)
        mid = r.y + r.height // 2
        pygame.draw.line(surface, T.BORDER, (r.x, mid), (r.right, mid))
        pts = row.series[-40:]
        if len(pts) >= 2:
            step = r.width / (len(pts) - 1)
            xy = [(r.x + i * step, mid - v * (r.height / 2 - 3)) for i, v in enumerate(pts)]
            pygame.draw.lines(surface, T.GOOD if pts[-1] >= 0 else T.BAD, False, xy, 2)
        elif pts:
            pygame.draw.circle(surface, T.ACCENT, (r.centerx, int(mid - pts[0] * (r.height / 2 - 3))), 3)
        surface.blit(text.render(row.text, SMALL, T.FG_DIM), (r.x, r.bottom + 2))

    def _draw_slider(self, surface, row: Row, r: pygame.Rect, text: T.Text) -> None:
        surface.blit(text.render(row.text, FONT, T.FG), (r.x, r.y))
        track = pygame.Rect(r.x + 8, r.y + 28, r.width - 16, 4)
        pygame.draw.rect(surface, T.BORDER, track)
        stops = int(row.hi - row.lo)
        for i in range(stops + 1):
            sx = track.x + track.width * i // stops
            pygame.draw.line(surface, T.FG_DIM, (sx, track.y - 5), (sx, track.y + 8))
        kx = track.x + int(track.width * (row.value - row.lo) / stops)
        pygame.draw.circle(surface, T.ACCENT, (kx, track.centery), 8)
        self._hits.append((pygame.Rect(r.x, r.y + 16, r.width, 26), row, None))

    # ------------------------------------------------------------ input
    def _stop_at(self, row: Row, r: pygame.Rect, mx: int) -> int:
        frac = (mx - r.x - 8) / max(1, r.width - 16)
        return int(round(row.lo + max(0.0, min(1.0, frac)) * (row.hi - row.lo)))

    def handle_event(self, ev: pygame.event.Event) -> bool:
        """Scroll, click buttons/rows, drag sliders. True when the event was used."""
        if ev.type == pygame.MOUSEWHEEL:
            if self.rect.collidepoint(pygame.mouse.get_pos()):
                self.scroll_by(-ev.y * SCROLL_STEP)
                return True
            return False
        if ev.type == pygame.MOUSEBUTTONDOWN and ev.button == 1 and self.rect.collidepoint(ev.pos):
            for r, row, button in self._hits:
                if r.collidepoint(ev.pos):
                    if button is not None:
                        button.action()
                    elif row.kind == "slider":
                        self._drag = (row, r)
                        row.value = self._stop_at(row, r, ev.pos[0])
                    elif row.action is not None:
                        row.action()
                    return True
            return True
        if ev.type == pygame.MOUSEMOTION and self._drag is not None:
            row, r = self._drag
            row.value = self._stop_at(row, r, ev.pos[0])
            return True
        if ev.type == pygame.MOUSEBUTTONUP and ev.button == 1 and self._drag is not None:
            row, r = self._drag
            self._drag = None
            row.value = self._stop_at(row, r, ev.pos[0])
            if row.on_release is not None:
                row.on_release(int(row.value))
            return True
        return False

    def dragging(self) -> bool:
        return self._drag is not None


def _hhmm(t: float) -> str:
    t = t % 86400
    return f"{int(t // 3600):02d}:{int(t % 3600 // 60):02d}"


def draw_chart(surface: pygame.Surface, row: Row, r: pygame.Rect, text: T.Text) -> None:
    """A time chart: every curve over the span of all points, value axis row.lo..row.hi, a
    legend in the curves' colours and the first and last times under the plot."""
    plot = pygame.Rect(r.x, r.y + 2, r.width, CHART_H)
    pygame.draw.rect(surface, T.BG_ALT, plot, border_radius=3)
    span = max(1e-9, row.hi - row.lo)
    if row.lo < 0 < row.hi:  # zero line of a signed value
        zy = plot.bottom - 3 - (0 - row.lo) / span * (plot.height - 6)
        pygame.draw.line(surface, T.BORDER, (plot.x, zy), (plot.right, zy))
    times = [t for _, _, pts in row.curves for t, _ in pts]
    if not times:
        surface.blit(text.render("(nothing recorded yet)", SMALL, T.FG_DIM), (plot.x + 8, plot.y + 8))
        return
    t0, t1 = row.span or (min(times), max(times))
    t1 = max(t1, t0 + 60.0)

    def xy(t: float, v: float) -> tuple[float, float]:
        fy = (max(row.lo, min(row.hi, v)) - row.lo) / span
        return plot.x + 3 + (t - t0) / (t1 - t0) * (plot.width - 6), plot.bottom - 3 - fy * (plot.height - 6)

    for _, color, pts in row.curves:
        if len(pts) >= 2:  # a step line: a value holds until the next event changes it
            steps = [xy(*pts[0])]
            for (ta, va), (tb, vb) in zip(pts, pts[1:]):
                steps += [xy(tb, va), xy(tb, vb)]
            pygame.draw.lines(surface, color, False, steps, 2)
        elif pts:
            pygame.draw.circle(surface, color, [int(c) for c in xy(*pts[0])], 3)
    lh = text.line_height(SMALL)
    y = plot.bottom + 2
    surface.blit(text.render(_hhmm(t0), SMALL, T.FG_DIM), (plot.x, y))
    end = text.render(_hhmm(t1), SMALL, T.FG_DIM)
    surface.blit(end, (plot.right - end.get_width(), y))
    col_w = plot.width // LEGEND_COLS
    for i, (name, color, _) in enumerate(row.curves):
        surface.blit(text.render(name, SMALL, color), (plot.x + (i % LEGEND_COLS) * col_w, y + lh * (1 + i // LEGEND_COLS)))
