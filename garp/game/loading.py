"""The loading screen and a clean Ctrl-C.

`garp play` builds the simulation on a worker thread while the window draws what is
happening: each stage (map, model, embedder, memories, pace, start, pictures) with a tick when
done, its time, and the current detail ("Maya (3 of 20)"). Closing the window, Ctrl-Q or
Ctrl-C while loading ends the game as soon as the build returns (a model load cannot be
interrupted half way).

Ctrl-C in the terminal: SDL would turn SIGINT into a quit request only while the event
queue is pumped, and Python's default handler raises inside whatever runs. `on_sigint`
makes it a QUIT event the loop handles like closing the window; a second Ctrl-C raises
KeyboardInterrupt as usual.
"""

from __future__ import annotations

import signal
import threading
import time
from typing import Any, Callable

import pygame

from garp.game import text as T

STAGES = (
    ("map", "Reading the town map"),
    ("model", "Loading the language model"),
    ("embedder", "Loading the memory embedder"),
    ("memories", "Giving each character their memories"),
    ("pace", "Measuring the model's speed"),
    ("start", "Setting the scene"),
    ("pictures", "Drawing the town"),
)
FRAME_S = 1 / 20  # wall seconds between loading-screen frames


class LoadingScreen:
    """Which stage is running, since when, and how long the finished ones took (thread-safe)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.stage = ""
        self.detail = ""
        self.took: dict[str, float] = {}
        self._since = time.monotonic()
        self.cancelled = False

    def report(self, stage: str, detail: str = "") -> None:
        """The build's progress callback: `stage` has begun (or goes on with a new detail)."""
        now = time.monotonic()
        with self._lock:
            if stage != self.stage:
                if self.stage:
                    self.took[self.stage] = now - self._since
                self.stage, self._since = stage, now
            self.detail = detail

    def lines(self) -> list[str]:
        """One line per stage: done (with its time), running (with its detail) or waiting."""
        with self._lock:
            out = []
            for key, what in STAGES:
                if key in self.took:
                    out.append(f"[done] {what} ({self.took[key]:.1f} s)")
                elif key == self.stage:
                    detail = f": {self.detail}" if self.detail else ""
                    out.append(f"[....] {what}{detail} ({time.monotonic() - self._since:.0f} s)")
                else:
                    out.append(f"[    ] {what}")
            return out

    def draw(self, screen: pygame.Surface, title: str) -> None:
        text = T.shared_text()
        screen.fill(T.BG)
        w, h = screen.get_size()
        head = text.render(title, 24, T.FG, True)
        screen.blit(head, head.get_rect(midtop=(w // 2, h // 4)))
        x, y = w // 2 - 280, h // 4 + 60
        for line in self.lines():
            color = T.GOOD if line.startswith("[done]") else (T.WARN if line.startswith("[....]") else T.FG_DIM)
            screen.blit(text.render(line, 18, color), (x, y))
            y += 32
        if self.cancelled:
            note = text.render("Closing as soon as loading returns...", 16, T.WARN)
            screen.blit(note, (x, y + 16))


def load_in_background(screen: pygame.Surface, loading: LoadingScreen, build: Callable[[Callable], Any],
                       title: str) -> Any:
    """Run `build(progress)` on a worker thread, drawing the loading screen until it returns;
    its exception is raised here. A quit request meanwhile sets `loading.cancelled`."""
    box: dict[str, Any] = {}

    def work() -> None:
        try:
            box["result"] = build(loading.report)
        except BaseException as err:  # noqa: BLE001 — handed to the main thread
            box["error"] = err

    worker = threading.Thread(target=work, name="garp-loading", daemon=True)
    worker.start()
    while worker.is_alive():
        for ev in pygame.event.get():
            if ev.type == pygame.QUIT or (ev.type == pygame.KEYDOWN and ev.key == pygame.K_q
                                          and ev.mod & pygame.KMOD_CTRL):
                loading.cancelled = True
        loading.draw(screen, title)
        pygame.display.flip()
        worker.join(FRAME_S)
    if "error" in box:
        raise box["error"]
    return box["result"]


def on_sigint() -> Callable[[], None]:
    """Turn the first Ctrl-C into a QUIT event; returns the function that restores the old handler."""
    previous = signal.getsignal(signal.SIGINT)

    def handle(signum: int, frame: Any) -> None:
        signal.signal(signal.SIGINT, signal.default_int_handler)  # a second Ctrl-C interrupts for real
        if pygame.display.get_init():
            pygame.event.post(pygame.event.Event(pygame.QUIT))

    signal.signal(signal.SIGINT, handle)
    return lambda: signal.signal(signal.SIGINT, previous)
