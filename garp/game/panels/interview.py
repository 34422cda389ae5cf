"""Interview tab (seed: Interview Studio): ask the agent a question; the answer arrives from a Future
with the memories it used and their scores. While the model works a progress line counts the
seconds and the requests queued ahead; a new question and a new answer scroll into view. The
agent stops and answers (garp.sim.pause) until its answer is in or the panel closes, and starts no
conversation until the answer is in."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

import pygame

from garp.game import text as T
from garp.game import view_model as vm
from garp.game.panels.base import Tab
from garp.game.panels.widgets import FONT, PAD, Row
from garp.mind.interview import SCORE_EXPLAINED, score_parts

MAX_QUESTION = 300  # characters in the input box
INPUT_H = 40


@dataclass
class Exchange:
    question: str
    future: Any
    answer: str = ""
    memories: list[vm.RetrievedRow] = field(default_factory=list)
    error: str = ""
    asked_at: float = field(default_factory=time.monotonic)  # wall clock, for the progress line
    notice: str = ""  # e.g. the question was shortened

    @property
    def done(self) -> bool:
        return bool(self.answer or self.error)


class InterviewTab(Tab):
    title = "Interview"
    wants_text = True  # the panel routes key presses here while this tab is open

    def __init__(self, sim, name: str) -> None:
        super().__init__(sim, name)
        self.input = ""
        self.history: list[Exchange] = []

    def submit(self, question: str | None = None) -> Exchange | None:
        q = (question if question is not None else self.input).strip()
        if not q:
            return None
        self.input = ""
        try:
            fut = self.sim.interview(self.name, q)
            ex = Exchange(q, fut)
        except Exception as err:  # e.g. unknown agent; shown in the tab
            ex = Exchange(q, None, error=str(err))
        self.history.append(ex)
        self.refresh()
        self.show_newest()
        return ex

    def poll(self) -> None:
        """Collect finished answers without blocking the frame."""
        for ex in self.history:
            if ex.done or ex.future is None or not ex.future.done():
                continue
            try:
                result = ex.future.result()
                ex.answer = str(vm.attr(result, "answer", default=result))
                ex.question = result.question or ex.question  # as cleaned
                ex.notice = result.notice
                ex.memories = vm.retrieved_rows(result.memories)
            except Exception as err:
                ex.error = f"The interview failed: {err}"
            self.refresh()
            self.show_newest()

    def close(self) -> None:
        """The panel closes: an agent still answering carries on with what it was doing."""
        end = vm.attr(self.sim, "end_interview")
        if self.history and callable(end):
            end(self.name)

    def show_newest(self) -> None:
        """Scroll the newest question (and the answer under it) to the top of the tab."""
        rows = self.list.rows
        newest = max((i for i, r in enumerate(rows) if r.kind == "heading" and r.text.startswith("You: ")), default=0)
        self.list.scroll_to_row(newest)

    def progress_line(self, ex: Exchange) -> str:
        """What the player reads while the model works on an answer."""
        waited = time.monotonic() - ex.asked_at
        queued = vm.hud_stats(self.sim).queue_depth
        ahead = f"; {queued} model request{'s' if queued != 1 else ''} queued" if queued else ""
        return f"{self.name} is thinking... {waited:.0f} s{ahead}"

    def update(self, dt: float) -> None:
        self.poll()
        super().update(dt)

    def build(self) -> list[Row]:
        rows = [Row(f"Ask {self.name} a question and press Enter. {self.name} answers from memory.",
                    color=T.FG_DIM)]
        for ex in self.history:
            rows.append(Row(f"You: {ex.question}", "heading"))
            if ex.notice:
                rows.append(Row(ex.notice, color=T.FG_DIM))
            if ex.error:
                rows.append(Row(ex.error, color=T.BAD))
            elif not ex.answer:
                rows.append(Row(self.progress_line(ex), color=T.WARN))
            else:
                rows.append(Row(f"{self.name}: {ex.answer}", "block", color=T.GOOD))
                rows.append(Row(f"Sources, best first ({SCORE_EXPLAINED})", color=T.FG_DIM))
                for m in ex.memories:
                    rows.append(Row(f"{m.score:.2f}  {m.description}\n{score_parts(m.factors)}", "block", indent=1))
                if not ex.memories:
                    rows.append(Row("(no memories matched)", "mono", indent=1))
        return rows

    def handle_event(self, ev: pygame.event.Event) -> bool:
        if ev.type == pygame.TEXTINPUT:
            self.input = (self.input + ev.text)[:MAX_QUESTION]
            return True
        if ev.type == pygame.KEYDOWN:
            if ev.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
                self.submit()
                return True
            if ev.key == pygame.K_BACKSPACE:
                self.input = self.input[:-1]
                return True
            if ev.key == pygame.K_ESCAPE:
                return False
            return ev.unicode.isprintable() and ev.unicode != ""  # typed characters arrive as TEXTINPUT
        return super().handle_event(ev)

    def draw(self, surface: pygame.Surface, rect: pygame.Rect) -> None:
        body = pygame.Rect(rect.x, rect.y, rect.width, rect.height - INPUT_H - PAD)
        super().draw(surface, body)
        box = pygame.Rect(rect.x + PAD, rect.bottom - INPUT_H, rect.width - 2 * PAD, INPUT_H - 6)
        pygame.draw.rect(surface, T.BG_ALT, box, border_radius=4)
        pygame.draw.rect(surface, T.ACCENT, box, 2, border_radius=4)
        text = T.shared_text()
        shown = self.input or "Type a question..."
        surf = text.render(shown, FONT, T.FG if self.input else T.FG_DIM)
        clip = surface.get_clip()
        surface.set_clip(box.inflate(-12, 0))
        x = box.x + 8 - max(0, surf.get_width() - (box.width - 24))  # long input: show its tail
        surface.blit(surf, (x, box.y + (box.height - surf.get_height()) // 2))
        if self.input and (pygame.time.get_ticks() // 500) % 2 == 0:
            cx = x + surf.get_width() + 2
            pygame.draw.line(surface, T.FG, (cx, box.y + 8), (cx, box.bottom - 8), 2)
        surface.set_clip(clip)
