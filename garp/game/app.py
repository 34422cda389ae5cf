"""`garp play`: the game window. A 60 fps loop: `sim.update(dt)`, then draw the layer stack.

Layers (bottom to top): the town view, the agent panel, the event log viewer, the HUD
with its help overlay, and — while an unsuffixed personality scenario waits for the
viewer's temperament answer (V-B) — a modal prompt that takes all input and keeps the
clock paused. Input goes top-down and stops at the first layer that uses it,
except that a panel tab taking typed text (the interview box) gets keys first. The
loop never waits on the model, the embedder or the database: the simulation applies
whatever cognition results have arrived and the panels read plain state.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import Any

import pygame

from garp.game import text as T
from garp.game import view_model as vm
from garp.game.camera import PAN_SPEED, Camera
from garp.game.goto import GoToBox
from garp.game.hud import HUD_H, Hud
from garp.game.loading import LoadingScreen, load_in_background, on_sigint
from garp.game.log_viewer import LogViewer
from garp.game.panels.agent_panel import AgentPanel, panel_rect
from garp.game.renderer import Renderer, load_tmx
from garp.game.sprites import CharacterSprites
from garp.game.talk_graph import TalkGraph
from garp.game.temperament_prompt import TemperamentPrompt
from garp.paths import MAPS

WINDOW = (1280, 720)   # default window size (px); resizable
FPS = 60               # frame-rate target (issue 3, section 5)
MAX_DT = 0.1           # wall seconds one frame may advance the sim (a hitch must not jump the town)
# Python hands the GIL between threads every 5 ms by default; the model thread's Python-side
# sampling would then delay a frame by up to 5 ms per hand-off. 1 ms keeps frames smooth.
GIL_SWITCH_S = 0.001
# SDL on Linux presents a window through OpenGL when a GL driver is there. Without a GPU that
# driver is Mesa's llvmpipe, whose rasterizer threads (one per core) then fight llama.cpp's
# threads for the cores: the model kept 0.59 of its bare tok/s while the town was drawn, and
# 0.82-0.97 with SDL's plain X11 framebuffer (benchmarks/town_load.py, Xvfb at 24-bit depth).
# Set SDL_FRAMEBUFFER_ACCELERATION=1 to present through the GPU instead.
FRAMEBUFFER_HINT = ("SDL_FRAMEBUFFER_ACCELERATION", "0")
DRAG_THRESHOLD = 4     # px the mouse moves before a press becomes a drag instead of a click
FOLLOW_RATE = 4.0      # 1/s: how fast the camera closes the gap to the followed character
SAVE_NOTICE_S = 3.0  # wall seconds the HUD shows "Saved to ..." after an autosave
ESC_QUIT_S = 1.5       # wall seconds within which a second Esc (nothing open) quits
PAN_KEYS = {pygame.K_LEFT: (1, 0), pygame.K_a: (1, 0), pygame.K_RIGHT: (-1, 0), pygame.K_d: (-1, 0),
            pygame.K_UP: (0, 1), pygame.K_w: (0, 1), pygame.K_DOWN: (0, -1), pygame.K_s: (0, -1)}


def map_path(world: Any) -> Path:
    """The .tmx file of the world's town map."""
    town = vm.attr(world, "town")
    for candidate in (vm.attr(town, "path", "tmx_path"), vm.attr(vm.attr(town, "tmx"), "filename")):
        if candidate:
            return Path(candidate)
    return MAPS / "town.tmx"


class TownView:
    """The map with its characters: camera input, selection by click."""

    def __init__(self, sim: Any, renderer: Renderer, size: tuple[int, int]) -> None:
        self.sim = sim
        self.renderer = renderer
        self.camera = Camera(*renderer.map_size, *size)
        self.rect = pygame.Rect(0, 0, *size)
        self.selected: str | None = None
        self._press: tuple[int, int] | None = None
        self._dragging = False
        self.keys_enabled = True
        self.follow = False  # the camera keeps the selected character in view until the player pans
        self.focus: frozenset[str] = frozenset()  # who is on screen or selected, as the scheduler last heard

    def layout(self, rect: pygame.Rect) -> None:
        if rect.size != self.rect.size:
            self.camera.resize(rect.width, rect.height)
        self.rect = pygame.Rect(rect)

    def _body(self, name: str | None) -> Any:
        return (vm.attr(vm.attr(self.sim, "world"), "bodies", default={}) or {}).get(name) if name else None

    def select(self, name: str | None, center: bool = False) -> None:
        self.selected = name
        self.follow = name is not None
        body = self._body(name)
        if center and body is not None:
            self.camera.center_on(float(body.x), float(body.y))

    def click(self, pos: tuple[int, int]) -> str | None:
        """Select the character under a screen point (or clear the selection)."""
        self.select(self.renderer.pick(pos))
        return self.selected

    def follow_selected(self, dt: float) -> None:
        """Glide the camera toward the selected character (a walker stays in view, and a panel
        opening beside it does not hide it: the view's centre is left of the panel)."""
        body = self._body(self.selected) if self.follow else None
        if body is None:
            return
        cx, cy = self.camera.center()
        k = min(1.0, dt * FOLLOW_RATE)
        self.camera.center_on(cx + (float(body.x) - cx) * k, cy + (float(body.y) - cy) * k)

    def handle_event(self, ev: pygame.event.Event) -> bool:
        if ev.type == pygame.MOUSEBUTTONDOWN and self.rect.collidepoint(ev.pos):
            if ev.button == 1:
                self._press, self._dragging = ev.pos, False
                return True
            if ev.button in (4, 5):  # legacy wheel buttons; MOUSEWHEEL handles zoom
                return True
        if ev.type == pygame.MOUSEMOTION and self._press is not None:
            if not self._dragging and (abs(ev.pos[0] - self._press[0]) + abs(ev.pos[1] - self._press[1])
                                       >= DRAG_THRESHOLD):
                self._dragging = True
            if self._dragging:
                self.follow = False
                self.camera.pan_screen(*ev.rel)
            return True
        if ev.type == pygame.MOUSEBUTTONUP and ev.button == 1 and self._press is not None:
            if not self._dragging:
                self.click(ev.pos)
            self._press, self._dragging = None, False
            return True
        if ev.type == pygame.MOUSEWHEEL:
            mx, my = pygame.mouse.get_pos()
            if self.rect.collidepoint((mx, my)):
                self.camera.zoom_by(1 if ev.y > 0 else -1, (mx - self.rect.x, my - self.rect.y))
                return True
        if ev.type == pygame.KEYDOWN and ev.key in (pygame.K_PLUS, pygame.K_EQUALS, pygame.K_KP_PLUS):
            self.camera.zoom_by(1)
            return True
        if ev.type == pygame.KEYDOWN and ev.key in (pygame.K_MINUS, pygame.K_KP_MINUS):
            self.camera.zoom_by(-1)
            return True
        return False

    def update(self, dt: float) -> None:
        if self.keys_enabled:
            pressed = pygame.key.get_pressed()
            dx = sum(v[0] for k, v in PAN_KEYS.items() if pressed[k])
            dy = sum(v[1] for k, v in PAN_KEYS.items() if pressed[k])
            if dx or dy:
                self.follow = False
                self.camera.pan_screen(dx * PAN_SPEED * dt, dy * PAN_SPEED * dt)
        self.follow_selected(dt)

    def draw(self, surface: pygame.Surface) -> None:
        bodies = vm.town_bodies(self.sim)
        self.renderer.draw(surface, self.camera, bodies, self.selected, self.rect, t=vm.game_time(self.sim),
                           covered_top=HUD_H)
        focus = vm.in_view(bodies, self.camera.visible_rect(), self.selected)
        if focus != self.focus:  # the model spends its time first on what the player watches
            self.focus = focus
            vm.tell_focus(self.sim, focus)


class App:
    """Owns the layer stack; `frame(dt, surface)` runs one tick (also used headless by tests)."""

    def __init__(self, sim: Any, renderer: Renderer, size: tuple[int, int] = WINDOW) -> None:
        self.sim = sim
        self.size = size
        self.town = TownView(sim, renderer, size)
        self.hud = Hud(sim)
        self.log_viewer = LogViewer(sim)
        self.talk_graph = TalkGraph(sim)
        self.goto = GoToBox(self.agents, self.jump_to)
        self._esc_at = -ESC_QUIT_S  # wall time of the last Esc that found nothing to close
        self.panel: AgentPanel | None = None
        self.prompt: TemperamentPrompt | None = None
        self._was_paused = False
        self._saved_shown = vm.attr(sim, "last_save")
        self.running = True
        if vm.attr(sim, "temperament_pending", default=False):
            self._open_prompt()
        self._layout()
        names = self.agents()
        if names:  # start looking at someone, not at the map's corner
            self.town.select(names[0], center=True)
            self.town.select(None)

    def _layout(self) -> None:
        w, h = self.size
        town_w = w - panel_rect(self.size).width if self.panel else w
        self.town.layout(pygame.Rect(0, 0, town_w, h))

    def open_panel(self, name: str | None) -> None:
        if self.panel is not None and self.panel.name != name:
            self.panel.close()  # a character still answering the player carries on
        if name is None:
            self.panel = None
        elif self.panel is None or self.panel.name != name:
            active = self.panel.current.title if self.panel else None
            self.panel = AgentPanel(self.sim, name)
            if active:
                self.panel.select(active)
        self._layout()

    def agents(self) -> list[str]:
        return sorted((vm.attr(self.sim, "minds", default={}) or {}).keys()
                      or (vm.attr(vm.attr(self.sim, "world"), "bodies", default={}) or {}).keys())

    def cycle_agent(self) -> None:
        names = self.agents()
        if not names:
            return
        cur = self.town.selected
        nxt = names[(names.index(cur) + 1) % len(names)] if cur in names else names[0]
        self.town.select(nxt, center=True)
        self.open_panel(nxt)

    def jump_to(self, name: str) -> None:
        """Select a character, centre the camera on it and open its panel."""
        self.town.select(name, center=True)
        self.open_panel(name)

    def request_quit(self) -> None:
        """End the game the way closing the window does (the loop sees QUIT and stops)."""
        pygame.event.post(pygame.event.Event(pygame.QUIT))

    def _escape_with_nothing_open(self) -> None:
        """Esc with nothing to close: the first asks (a hint in the HUD), a second soon after quits."""
        now = time.monotonic()
        if now - self._esc_at <= ESC_QUIT_S:
            self.request_quit()
        else:
            self._esc_at = now
            self.hud.flash("Press Esc again to quit (or Ctrl-Q)", ESC_QUIT_S)

    # ------------------------------------------------------------ temperament question (V-B)
    def _open_prompt(self) -> None:
        """Ask which temperament runs tonight; the clock waits for the answer."""
        self.prompt = TemperamentPrompt(self.sim)
        clock = vm.attr(self.sim, "clock")
        self._was_paused = bool(vm.attr(clock, "paused", default=False))
        if clock is not None:
            clock.pause()

    def _close_prompt_if_answered(self) -> None:
        if self.prompt is None or self.prompt.active:
            return
        self.prompt = None
        clock = vm.attr(self.sim, "clock")
        if clock is not None and not self._was_paused:
            clock.resume()

    # ------------------------------------------------------------ input
    def _text_focus(self) -> bool:
        return bool(self.panel and getattr(self.panel.current, "wants_text", False))

    def handle_event(self, ev: pygame.event.Event) -> None:
        if ev.type == pygame.QUIT:
            self.running = False
            return
        if ev.type == pygame.VIDEORESIZE or ev.type == getattr(pygame, "WINDOWSIZECHANGED", -1):
            surf = pygame.display.get_surface()
            if surf is not None:
                self.resize(surf.get_size())
            return
        if ev.type == pygame.KEYDOWN and ev.key == pygame.K_q and ev.mod & pygame.KMOD_CTRL:
            self.request_quit()  # before any text box: Ctrl-Q always quits
            return
        if self.prompt is not None:  # modal: nothing below sees input until it is answered
            self.prompt.handle_event(ev)
            self._close_prompt_if_answered()
            return
        if self.goto.handle_event(ev):  # the type-ahead box takes every key while open
            return
        typed = ev.type == pygame.TEXTINPUT or (ev.type == pygame.KEYDOWN and ev.key != pygame.K_TAB)
        for focus in (self.log_viewer if self.log_viewer.searching else None,
                      self.panel if self._text_focus() else None):
            if typed and focus is not None and focus.handle_event(ev):
                self._after_layers(ev)  # Esc in the interview box closes the panel at once
                return
        for layer in (self.hud, self.talk_graph, self.log_viewer, self.panel, self.town):
            if layer is not None and layer.handle_event(ev):
                self._after_layers(ev)
                return
        if ev.type == pygame.KEYDOWN:
            self._app_key(ev)

    def _app_key(self, ev: pygame.event.Event) -> None:
        """Keys no layer used: Tab, L, T, G, Esc."""
        if ev.key == pygame.K_TAB:
            self.cycle_agent()
        elif ev.key == pygame.K_l:
            self.log_viewer.toggle()
        elif ev.key == pygame.K_t:
            self.talk_graph.toggle()
        elif ev.key == pygame.K_g:
            self.goto.open()
        elif ev.key == pygame.K_ESCAPE and self.town.selected:
            self.town.select(None)
            self.open_panel(None)
        elif ev.key == pygame.K_ESCAPE:
            self._escape_with_nothing_open()

    def _after_layers(self, ev: pygame.event.Event) -> None:
        """Keep the panel in step with the town selection and close a panel that asked to close."""
        if self.panel is not None and self.panel.closed:
            self.town.select(None)
            self.open_panel(None)
        elif ev.type == pygame.MOUSEBUTTONUP and self.town.selected != (self.panel.name if self.panel else None):
            self.open_panel(self.town.selected)

    def resize(self, size: tuple[int, int]) -> None:
        self.size = size
        self._layout()

    # ------------------------------------------------------------ frame
    def update(self, dt: float) -> None:
        self._close_prompt_if_answered()  # answered elsewhere (e.g. by the sim) also closes it
        # While the question is open the clock is paused: arrived results apply, no time passes.
        self.sim.update(0.0 if self.prompt is not None else min(dt, MAX_DT))
        self._announce_save()
        self.town.keys_enabled = not (self._text_focus() or self.goto.active or self.log_viewer.searching)
        self.town.update(dt)
        if self.panel is not None:
            self.panel.update(dt)
        self.log_viewer.update(dt)
        self.talk_graph.update(dt)
        self.hud.update(dt)

    def _announce_save(self) -> None:
        """An autosave the simulation just wrote shows as a HUD notice ("Saved to ...")."""
        saved = vm.attr(self.sim, "last_save")
        if saved is not None and saved != self._saved_shown:
            self._saved_shown = saved
            self.hud.flash(f"Saved to {saved}", SAVE_NOTICE_S)

    def draw(self, surface: pygame.Surface) -> None:
        self.town.draw(surface)
        if self.panel is not None:
            self.panel.draw(surface)
        self.log_viewer.draw(surface)
        self.talk_graph.draw(surface, self.town.rect.width)
        self.hud.draw(surface, self.town.rect.width)
        self.goto.draw(surface, self.town.rect.width)
        if self.prompt is not None:
            self.prompt.draw(surface)

    def frame(self, dt: float, surface: pygame.Surface, events: list[pygame.event.Event] = ()) -> None:
        for ev in events:
            self.handle_event(ev)
        self.update(dt)
        self.draw(surface)

    def run(self, screen: pygame.Surface, seconds: float | None = None) -> None:
        """The 60 fps window loop, until the window closes (or `seconds` of wall time pass)."""
        clock = pygame.time.Clock()
        end = None if seconds is None else time.monotonic() + seconds
        while self.running and (end is None or time.monotonic() < end):
            self.frame(clock.tick(FPS) / 1000.0, screen, pygame.event.get())
            pygame.display.flip()


def build_renderer(sim: Any) -> Renderer:
    tmx = load_tmx(map_path(vm.attr(sim, "world")))
    sprites = CharacterSprites.load()
    for name, mind in (vm.attr(sim, "minds", default={}) or {}).items():
        sprites.assign(name, vm.attr(vm.attr(mind, "persona"), "sprite"))
    return Renderer(tmx, sprites)


def _closing(screen: pygame.Surface) -> None:
    screen.fill(T.BG)
    surf = T.shared_text().render("Closing: waiting for the model call in progress...", 22, T.FG, True)
    screen.blit(surf, surf.get_rect(center=screen.get_rect().center))
    pygame.display.flip()
    pygame.event.pump()


def init_display() -> None:
    """What every game window starts with: the framebuffer hint, the GIL switch interval, pygame."""
    os.environ.setdefault(*FRAMEBUFFER_HINT)
    sys.setswitchinterval(GIL_SWITCH_S)
    pygame.init()


def cmd_play(args: Any) -> int:
    """Open the window and play a scenario in real time (or go on from a save with --resume)."""
    from garp.sim.wiring import build

    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    resume = getattr(args, "resume", None)
    if resume:
        from garp.sim.savegame import read_save
        read_save(resume)  # a bad path or file is refused before a window opens
    scenario = getattr(args, "scenario", None) or (None if resume else "town")
    label = scenario or f"{Path(resume).name} (resumed)"
    init_display()
    screen = pygame.display.set_mode(WINDOW, pygame.RESIZABLE)
    pygame.display.set_caption(f"GARP - {label}")
    restore_sigint = on_sigint()
    loading = LoadingScreen()
    title = f"Loading {label}"
    sim = load_in_background(screen, loading, lambda progress: build(scenario, args, progress=progress), title)
    run_dir = vm.attr(sim, "run_dir")
    print(f"garp: playing in {run_dir}; it is saved there as you play and when you quit "
          f"(resume with: garp play --resume {run_dir})", file=sys.stderr)
    try:
        _play(sim, screen, loading, title, args)
    finally:
        if pygame.display.get_surface() is not None:
            _closing(screen)
        sim.close()
        restore_sigint()
        pygame.quit()
    if sim.last_save is not None:
        print(f"garp: saved to {sim.last_save}; resume with: garp play --resume {sim.last_save.parent}",
              file=sys.stderr)
    return 0


def _play(sim: Any, screen: pygame.Surface, loading: LoadingScreen, title: str, args: Any) -> None:
    if getattr(args, "speed", None):
        sim.clock.speed = float(args.speed)
    loading.report("pictures", "map tiles and character sprites")
    loading.draw(screen, title)
    pygame.display.flip()
    app = App(sim, build_renderer(sim), screen.get_size())
    pygame.key.start_text_input()
    if not loading.cancelled:
        app.run(screen)
