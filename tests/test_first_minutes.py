"""The first ten minutes of play (issue 23): wording, label layout, day and night, the camera
following the selection, go-to by name, the sorted searchable log, quitting, the interview's
progress and scroll, the Timeline tab, the talk overlay and the loading screen."""

from __future__ import annotations

import concurrent.futures
import os
import signal
import time
import types
from datetime import datetime
from itertools import combinations

import pygame
import pytest

from garp.eventlog import EventLog
from garp.game import view_model as vm
from garp.game.app import App
from garp.game.camera import Camera
from garp.game.loading import STAGES, LoadingScreen, load_in_background, on_sigint
from garp.game.panels.agent_panel import AgentPanel
from garp.game.phrasing import plain_activity, shorten
from garp.game.renderer import Renderer, activity_lines, load_tmx
from garp.game.sprites import CharacterSprites
from garp.game.text import shared_text
from garp.game.view_model import BodyView
from garp.mind.interview import InterviewResult
from garp.world.clock import GameClock
from test_game_render import WalkSim

W, H = 1280, 720


@pytest.fixture(scope="module")
def town():
    pygame.init()
    pygame.display.set_mode((W, H))
    sim = WalkSim()
    return sim, Renderer(load_tmx(sim.town.path), CharacterSprites.load())


def _key(key: int, unicode: str = "", mod: int = 0) -> pygame.event.Event:
    return pygame.event.Event(pygame.KEYDOWN, key=key, unicode=unicode, mod=mod)


def _type(app: App, text: str) -> None:
    for ch in text:
        app.handle_event(pygame.event.Event(pygame.TEXTINPUT, text=ch))


# ----------------------------------------------------------------------------- wording
@pytest.mark.parametrize("raw, shown", [
    ("work register (cash register)", "working at the cash register"),
    ("nap (Noor's bed)", "napping in Noor's bed"),
    ("nap (sofa)", "napping on the sofa"),
    ("walking to cash register (Hobbs Cafe)", "walking to the cash register at Hobbs Cafe"),
    ("walking to Ludwig's House", "walking to Ludwig's House"),
    ("keep on: work at home as a painter", "work at home as a painter"),
    ("shower (shower)", "taking a shower"),
    ("idle", ""),
])
def test_activity_text_reads_as_plain_english(raw, shown):
    assert plain_activity(raw) == shown


def test_shortening_cuts_between_words_and_never_on_a_dangling_word():
    text = "Visit Ludwig at Ludwig's House over dinner at seven with the whole family"
    short = shorten(text, 48)
    assert short == "Visit Ludwig at Ludwig's House over dinner..." and len(short) <= 48
    for limit in range(10, len(text)):
        cut = shorten(text, limit)[:-3]
        assert text.startswith(cut) and text[len(cut)] == " "  # whole words only
        assert cut.split()[-1] not in ("at", "over", "with", "the")


def test_label_activity_wraps_at_words_in_two_lines():
    activity = "head to Jonah's House for Maya comes over to apologise to Jonah after work"
    lines = activity_lines(activity)
    assert len(lines) == 2
    words = activity.split()
    assert lines[0].split() == words[:len(lines[0].split())]
    assert lines[1].endswith("...") and set(lines[1][:-3].split()) <= set(words)


# ----------------------------------------------------------------------------- labels
def test_labels_of_a_crowd_never_overlap(town):
    _, renderer = town
    cam = Camera(*renderer.map_size, W, H)
    cam.center_on(600, 600)
    crowd = [BodyView(name=f"Agent{i}", x=600 + 3 * (i % 3), y=600 + 2 * (i // 3), activity="shower (shower)",
                      place="", using="", facing="down", moving=False, bubble="Hello!" if i % 2 else "")
             for i in range(9)]
    surface = pygame.Surface((W, H))
    renderer.draw(surface, cam, crowd, selected="Agent4", view=surface.get_rect())
    rects = list(renderer.label_rects.values())
    assert len(rects) == 9  # everyone still has a label
    assert all(not a.colliderect(b) for a, b in combinations(rects, 2))


# ----------------------------------------------------------------------------- day and night
def _mean(surface: pygame.Surface, rect: pygame.Rect | None = None) -> float:
    arr = pygame.surfarray.array3d(surface.subsurface(rect) if rect else surface)
    return float(arr.mean())


def test_night_is_darker_than_noon_and_windows_are_lit(town):
    sim, renderer = town
    cam = Camera(*renderer.map_size, W, H)
    tx, ty = renderer.lighting.windows[len(renderer.lighting.windows) // 2]
    cam.center_on(tx * 32, ty * 32)
    means = {}
    for hour in (12, 23):
        surface = pygame.Surface((W, H))
        renderer.draw(surface, cam, [], view=surface.get_rect(), t=hour * 3600.0)
        means[hour] = surface
    assert _mean(means[23]) < 0.6 * _mean(means[12])
    sx, sy = (int(v) for v in cam.to_screen(tx * 32, ty * 32))
    pane = pygame.Rect(sx + 8, sy + 8, 16, 14)
    assert _mean(means[23], pane) > 1.5 * _mean(means[23])  # a lit window in the dark town
    arr = pygame.surfarray.array3d(means[23].subsurface(pane))
    assert arr[..., 0].mean() > arr[..., 2].mean() + 40  # warm light


# ----------------------------------------------------------------------------- camera and go-to
def test_camera_follows_the_selected_character_clear_of_the_panel(town):
    sim, renderer = town
    app = App(sim, renderer, (W, H))
    name = sim.personas[2].name
    body = sim.world.bodies[name]
    app.town.camera.center_on(body.x - 0.4 * W, body.y)  # the character near the right edge
    surface = pygame.Surface((W, H))
    app.draw(surface)
    pos = tuple(int(v) for v in app.town.camera.to_screen(body.x, body.y - 8))
    app.handle_event(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=pos))
    app.handle_event(pygame.event.Event(pygame.MOUSEBUTTONUP, button=1, pos=pos))
    assert app.panel is not None and app.town.follow
    for _ in range(60):
        app.update(1 / 30)
    app.draw(surface)
    sx, sy = app.town.camera.to_screen(body.x, body.y)
    inner = app.town.rect.inflate(-app.town.rect.width // 3, -app.town.rect.height // 3)
    assert inner.collidepoint(sx, sy) and not app.panel.rect.collidepoint(sx, sy)
    app.handle_event(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=(100, 300)))
    app.handle_event(pygame.event.Event(pygame.MOUSEMOTION, pos=(160, 300), rel=(60, 0), buttons=(1, 0, 0)))
    app.handle_event(pygame.event.Event(pygame.MOUSEBUTTONUP, button=1, pos=(160, 300)))
    assert not app.town.follow  # a drag hands the camera back to the player


def test_g_jumps_to_a_character_by_typed_name(town):
    sim, renderer = town
    app = App(sim, renderer, (W, H))
    target = sorted(sim.world.bodies)[1]
    app.handle_event(_key(pygame.K_g, "g"))
    app.update(0.0)
    assert app.goto.active and not app.town.keys_enabled  # typed letters do not pan the camera
    _type(app, target[1:4].lower())  # part of the name, any case
    assert app.goto.found()[0] == target
    app.handle_event(_key(pygame.K_RETURN, "\r"))
    assert app.town.selected == target and app.panel.name == target and not app.goto.active
    body = sim.world.bodies[target]
    assert app.town.rect.collidepoint(app.town.camera.to_screen(body.x, body.y))  # in view, left of the panel


# ----------------------------------------------------------------------------- event log
def test_log_is_sorted_by_game_time_and_searchable(town):
    sim, renderer = town
    app = App(sim, renderer, (W, H))
    a, b = sorted(sim.world.bodies)[:2]
    base = sim.clock.t + 7200
    sim.log.emit("chat_line", base + 600, agent=a, speaker=a, text="late line about apples")
    sim.log.emit("chat_line", base - 900, agent=b, speaker=b, text="early line about pears")  # applied late
    sim.log.emit("chat_line", base, agent=a, speaker=a, text="middle line about apples")
    app.handle_event(_key(pygame.K_l, "l"))
    lines = app.log_viewer.lines()
    mine = [line for line in lines if "line about" in line]
    assert [("late" in m, "middle" in m, "early" in m) for m in mine] == [(True, False, False), (False, True, False),
                                                                          (False, False, True)]
    app.handle_event(_key(pygame.K_SLASH, "/"))
    assert app.log_viewer.searching
    _type(app, "APPLES")
    found = app.log_viewer.lines()
    assert len(found) == 2 and all("apples" in line for line in found)
    app.handle_event(_key(pygame.K_RETURN, "\r"))
    assert not app.log_viewer.searching and app.log_viewer.visible
    surface = pygame.Surface((W, H))
    app.update(1.0)
    app.draw(surface)
    assert app.log_viewer.list.rows[-1].text == found[-1]


# ----------------------------------------------------------------------------- quitting
def _quit_posted() -> bool:
    return bool(pygame.event.get(pygame.QUIT))


def test_ctrl_q_and_esc_twice_quit_one_esc_does_not(town):
    sim, renderer = town
    app = App(sim, renderer, (W, H))
    pygame.event.clear()
    app.handle_event(_key(pygame.K_q, "\x11", pygame.KMOD_LCTRL))
    assert _quit_posted()
    app.handle_event(_key(pygame.K_ESCAPE, "\x1b"))
    assert not _quit_posted() and "Esc again" in app.hud.notice
    app.handle_event(_key(pygame.K_ESCAPE, "\x1b"))
    assert _quit_posted()
    app.cycle_agent()  # with a panel open, Esc closes it and does not quit
    app._esc_at = -10.0
    app.handle_event(_key(pygame.K_ESCAPE, "\x1b"))
    assert app.panel is None and not _quit_posted()
    app.handle_event(pygame.event.Event(pygame.QUIT))
    assert not app.running


def test_ctrl_c_becomes_a_quit_event():
    pygame.init()
    pygame.event.clear()
    restore = on_sigint()
    try:
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(0.05)
        assert _quit_posted()
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # a second Ctrl-C interrupts
    finally:
        restore()


# ----------------------------------------------------------------------------- interview
class FakeInterviewSim:
    def __init__(self) -> None:
        self.clock = GameClock(datetime(2025, 3, 3, 9, 30))
        self.log = EventLog()
        self.minds: dict = {}
        self.world = types.SimpleNamespace(bodies={})
        self.futures: list[concurrent.futures.Future] = []

    def interview(self, name: str, question: str) -> concurrent.futures.Future:
        self.futures.append(concurrent.futures.Future())
        return self.futures[-1]


def test_interview_shows_progress_then_scrolls_to_the_newest_answer(town):
    sim = FakeInterviewSim()
    panel = AgentPanel(sim, "Ren")
    tab = panel.select("Interview")
    surface = pygame.Surface((W, H))
    for i in range(4):
        tab.submit(f"Question {i}?")
        panel.update(0.3)
        assert "Ren is thinking... " in "\n".join(tab.lines())
        sim.futures[-1].set_result(InterviewResult(f"Question {i}?", "fact", f"Answer {i}. " + "I remember. " * 30))
        panel.update(0.3)
        panel.draw(surface)
    lines = tab.lines()
    assert "Ren: Answer 3. " in "\n".join(lines) and "thinking" not in "\n".join(lines)
    panel.draw(surface)
    rows = tab.list.rows
    newest = next(i for i, r in enumerate(rows) if r.text == "You: Question 3?")
    above = sum(tab.list._row_height(r, tab.list.rect.width, shared_text())[0] for r in rows[:newest])
    assert tab.list.scroll > 0 and tab.list.scroll == min(above, tab.list._content_h - tab.list.rect.height)


# ----------------------------------------------------------------------------- timeline and talk graph
@pytest.fixture(scope="module")
def noor_sim():
    from garp.mind.factory import make_mind
    from garp.mind.persona import load_personas

    persona = next(p for p in load_personas().values())
    # no memory store: the timeline and the overlay read needs, mirrors and the log only
    mind = make_mind(persona, store=None, embedder=None, scheduler=None, t=9 * 3600.0, seed_memories=False)
    log = EventLog()
    name, other = persona.name, vm.relationships(mind)[0].other
    for hour, hunger in ((7, 0.1), (8, 0.3), (9, 0.5)):
        log.emit("needs", hour * 3600.0, agent=name, values={"hunger": hunger, "rest": 0.2})
    log.emit("emotion", 8.5 * 3600, agent=name, label="happy", valence=0.6, intensity=0.5)
    log.emit("relationship", 8.7 * 3600, agent=name, other=other, sentiment=0.3, trust=0.5, familiarity=0.4)
    for pair in ((name, other), (other, name), (other, "Ada")):
        log.emit("chat_start", 9 * 3600.0, initiator=pair[0], partner=pair[1], agents=list(pair), chat_id=str(pair))
    sim = types.SimpleNamespace(minds={name: mind, other: mind, "Ada": mind}, clock=GameClock(datetime(2025, 3, 3, 9, 30)),
                                log=log, world=types.SimpleNamespace(bodies={}), update=lambda dt: None)
    return sim, name, other


def test_timeline_tab_charts_needs_emotion_and_relationships(noor_sim, town):
    sim, name, other = noor_sim
    panel = AgentPanel(sim, name)
    lines = panel.select("Timeline").lines()
    now_hunger = sim.minds[name].needs.values["hunger"]
    assert f"hunger: +0.10 -> {now_hunger:+.2f} (4 points)" in lines  # three snapshots and now
    assert any(line.startswith("valence: +0.60 -> ") for line in lines)
    assert any(line.startswith(f"{other}: +0.30 -> ") for line in lines)
    surface = pygame.Surface((W, H))
    panel.update(1.0)
    panel.draw(surface)
    chart = next(r for r in panel.current.list.rows if r.kind == "chart")
    assert chart.curves and pygame.surfarray.array3d(surface).std() > 10


def test_talk_overlay_counts_who_talked_to_whom(noor_sim, town):
    sim, name, other = noor_sim
    app = App(sim, town[1], (W, H))
    app.handle_event(_key(pygame.K_t, "t"))
    assert app.talk_graph.visible
    assert app.talk_graph.lines() == [f"{min(name, other)} - {max(name, other)}: 2 conversations",
                                      f"{min('Ada', other)} - {max('Ada', other)}: 1 conversation"]
    surface = pygame.Surface((W, H))
    app.update(1.0)
    app.draw(surface)
    pos = app.talk_graph.positions(app.talk_graph.rect.inflate(0, -30).move(0, 15))
    mid = ((pos[name][0] + pos[other][0]) // 2, (pos[name][1] + pos[other][1]) // 2)
    assert surface.get_at((mid[0] + 12, mid[1])) != surface.get_at((app.talk_graph.rect.x + 5, app.talk_graph.rect.bottom - 5))
    app.handle_event(_key(pygame.K_ESCAPE, "\x1b"))
    assert not app.talk_graph.visible


# ----------------------------------------------------------------------------- loading
def test_loading_screen_names_each_stage_and_raises_the_builds_error():
    pygame.init()
    screen = pygame.display.set_mode((W, H))
    loading = LoadingScreen()

    def build(progress):
        for key, _ in STAGES[:4]:
            progress(key, f"detail of {key}")
            time.sleep(0.06)
        return "the simulation"

    assert load_in_background(screen, loading, build, "Loading") == "the simulation"
    lines = loading.lines()
    assert all(line.startswith("[done]") for line in lines[:3])
    assert lines[3].startswith("[....] Giving each character their memories: detail of memories")
    assert lines[4].startswith("[    ]")

    def broken(progress):
        raise ValueError("no model file")

    with pytest.raises(ValueError, match="no model file"):
        load_in_background(screen, LoadingScreen(), broken, "Loading")
