"""The town view headless: camera math, the real map and sprites rendered, click selection,
camera input, HUD keys and the event log viewer (SDL dummy driver)."""

from __future__ import annotations

import random
from datetime import datetime

import pygame
import pytest

from garp.eventlog import EventLog
from garp.game.app import App
from garp.game.camera import ZOOM_LEVELS, Camera
from garp.game.renderer import Renderer, head_rect, load_tmx
from garp.game.sprites import CharacterSprites
from garp.game.view_model import BodyView
from garp.world.clock import GameClock

W, H = 1280, 720


# ----------------------------------------------------------------------------- camera math
def test_camera_round_trip_and_zoom_keeps_the_anchor_fixed():
    cam = Camera(2880, 2048, W, H)
    cam.center_on(1000, 800)
    assert cam.center() == pytest.approx((1000, 800))
    sx, sy = cam.to_screen(1100, 850)
    assert cam.to_map(sx, sy) == pytest.approx((1100, 850))
    anchor = (300, 200)
    before = cam.to_map(*anchor)
    cam.zoom_by(1, anchor)
    assert cam.zoom == ZOOM_LEVELS[ZOOM_LEVELS.index(1.0) + 1]
    assert cam.to_map(*anchor) == pytest.approx(before)
    cam.pan_screen(150, -60)  # drag right/up: the map moves with the mouse
    assert cam.to_map(anchor[0] + 150, anchor[1] - 60) == pytest.approx(before)


def test_camera_clamps_to_the_map_and_zoom_levels():
    cam = Camera(2880, 2048, W, H)
    cam.pan_screen(10_000, 10_000)
    assert (cam.x, cam.y) == (0.0, 0.0)
    cam.pan_screen(-100_000, -100_000)
    assert cam.x == pytest.approx(2880 - W) and cam.y == pytest.approx(2048 - H)
    for _ in range(20):
        cam.zoom_by(-1)
    assert cam.zoom == ZOOM_LEVELS[0]
    cam.zoom_by(-1)
    assert cam.zoom == ZOOM_LEVELS[0]
    small = Camera(320, 320, W, H)  # a map smaller than the view is centred
    assert small.x == pytest.approx((320 - W) / 2)


# ----------------------------------------------------------------------------- the real town
class WalkSim:
    """The parts of a Simulation the window reads, over the real World: agents walk to objects."""

    def __init__(self, n: int = 3) -> None:
        from garp.mind.persona import load_personas
        from garp.sim.town_setup import load_town

        self.log = EventLog()
        town, registry, self.world, _ = load_town("town.tmx", self.log, random.Random(1))
        self.clock = GameClock(datetime(2025, 3, 3, 8, 0))
        self.minds: dict = {}
        self.personas = sorted(load_personas().values(), key=lambda p: p.name)[:n]
        for p in self.personas:
            self.world.add_agent(p.name, p.home)
        self.town = town
        self.rng = random.Random(1)
        self.objects = [o for o in registry.all() if o.affordances]

    def update(self, wall_dt: float) -> None:
        dt = self.clock.advance(wall_dt)
        self.world.step(dt, self.clock.t)


@pytest.fixture(scope="module")
def town():
    pygame.init()
    pygame.display.set_mode((W, H))
    sim = WalkSim()
    renderer = Renderer(load_tmx(sim.town.path), CharacterSprites.load())
    return sim, renderer


def _colors(surface: pygame.Surface, rect: pygame.Rect) -> int:
    arr = pygame.surfarray.array3d(surface.subsurface(rect))
    return len({tuple(c) for c in arr.reshape(-1, 3)[::11]})


def test_renderer_draws_map_characters_labels_and_bubbles(town):
    sim, renderer = town
    app = App(sim, renderer, (W, H))
    name = sim.personas[0].name
    body = sim.world.bodies[name]
    app.town.camera.center_on(body.x, body.y)
    sim.world.say(name, "Hello there, neighbour!", sim.clock.t, duration_s=600)
    surface = pygame.Surface((W, H))
    app.draw(surface)
    assert renderer.map_size == (sim.town.width * 32, sim.town.height * 32)
    assert _colors(surface, pygame.Rect(0, 40, W, H - 40)) > 200  # a textured pixel-art town, not flat fills
    assert set(renderer.hits) >= {name}
    sx, sy = app.town.camera.to_screen(body.x, body.y)
    rect = renderer.hits[name]
    assert rect.collidepoint(sx, sy)
    above = pygame.Rect(rect.x - 60, rect.y - 90, rect.width + 120, 90)  # label and bubble sit above
    assert _colors(surface, above.clip(surface.get_rect())) > 20


def test_crowded_labels_shrink_to_names_but_the_selected_keeps_its_activity(town):
    _, renderer = town
    cam = Camera(*renderer.map_size, W, H)
    cam.center_on(600, 600)
    diners = [BodyView(name=n, x=600 + 10 * i, y=600, activity="eating dinner at the kitchen table", place="kitchen",
                       using="", facing="down", moving=False, bubble="") for i, n in enumerate(["Ana", "Ben", "Cy"])]
    surface = pygame.Surface((W, H))
    renderer.draw(surface, cam, diners[:1], view=surface.get_rect())
    alone = renderer.label_rects["Ana"].height
    renderer.draw(surface, cam, diners, selected="Ben", view=surface.get_rect())
    rects = renderer.label_rects
    assert rects["Ben"].height == alone  # the selected one shows name and activity
    assert rects["Ana"].height < alone  # drawn into the crowd: name only
    assert rects["Ana"].collidelist([rects["Ben"], rects["Cy"]]) == -1 and not rects["Ben"].colliderect(rects["Cy"])
    stack = rects["Ana"].unionall([rects["Ben"], rects["Cy"]])
    assert stack.height < 3 * alone - alone // 3  # shorter than three full labels: it no longer climbs the wall


def test_a_label_never_covers_another_characters_face(town):
    """Ana sits on a sofa; Ben stands just behind her, so the place above Ana's head is Ben's face:
    her label moves aside and his face stays in view (seen in play: a label over a neighbour's head)."""
    _, renderer = town
    cam = Camera(*renderer.map_size, W, H)
    cam.center_on(600, 600)
    ana = BodyView(name="Ana", x=600, y=600, activity="relaxing on the sofa", place="home", using="sofa",
                   facing="down", moving=False, bubble="", pose="sit")
    ben = BodyView(name="Ben", x=608, y=578, activity="watching TV", place="home", using="",
                   facing="down", moving=False, bubble="Look at this!")
    surface = pygame.Surface((W, H))
    renderer.draw(surface, cam, [ben, ana], selected="Ana", view=surface.get_rect())
    rects, hits = renderer.label_rects, renderer.hits
    assert set(rects) == {"Ana", "Ben"}
    assert not rects["Ana"].colliderect(head_rect(hits["Ben"])), (rects["Ana"], head_rect(hits["Ben"]))
    assert not rects["Ben"].colliderect(head_rect(hits["Ana"]))


def test_click_selects_a_character_and_opens_its_panel_drag_pans(town):
    sim, renderer = town
    app = App(sim, renderer, (W, H))
    name = sim.personas[1].name
    body = sim.world.bodies[name]
    app.town.camera.center_on(body.x, body.y)
    surface = pygame.Surface((W, H))
    app.draw(surface)
    pos = tuple(int(v) for v in app.town.camera.to_screen(body.x, body.y - 8))
    app.handle_event(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=pos))
    app.handle_event(pygame.event.Event(pygame.MOUSEBUTTONUP, button=1, pos=pos))
    assert app.town.selected == name and app.panel is not None and app.panel.name == name
    assert app.town.rect.width == W - app.panel.rect.width or app.town.rect.width < W
    app.draw(surface)  # the selection ring: yellow pixels at the character's feet
    ring = pygame.surfarray.array3d(surface.subsurface(renderer.hits[name]))
    assert ((ring[..., 0] > 230) & (ring[..., 1] > 200) & (ring[..., 2] < 120)).any()
    x0, y0 = app.town.camera.x, app.town.camera.y
    start = (200, 300)
    app.handle_event(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=start))
    app.handle_event(pygame.event.Event(pygame.MOUSEMOTION, pos=(240, 280), rel=(40, -20), buttons=(1, 0, 0)))
    app.handle_event(pygame.event.Event(pygame.MOUSEBUTTONUP, button=1, pos=(240, 280)))
    z = app.town.camera.zoom
    assert (app.town.camera.x, app.town.camera.y) == pytest.approx((x0 - 40 / z, y0 + 20 / z))
    assert app.town.selected == name  # a drag is not a click
    app.handle_event(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, unicode="\x1b", mod=0))
    assert app.panel is None and app.town.selected is None


def test_tab_cycles_agents_and_hud_keys_drive_the_clock(town):
    sim, renderer = town
    app = App(sim, renderer, (W, H))
    names = sorted(sim.world.bodies)
    app.handle_event(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_TAB, unicode="\t", mod=0))
    assert app.town.selected == names[0] and app.panel.name == names[0]
    app.handle_event(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_TAB, unicode="\t", mod=0))
    assert app.town.selected == names[1]
    speed = sim.clock.speed
    app.handle_event(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RIGHTBRACKET, unicode="]", mod=0))
    assert sim.clock.speed > speed
    app.handle_event(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_SPACE, unicode=" ", mod=0))
    assert sim.clock.paused
    app.update(0.1)
    assert "PAUSED" in app.hud.line() and "3 agents" in app.hud.line()
    t = sim.clock.t
    app.update(0.5)
    assert sim.clock.t == t  # paused: no game time passes
    app.handle_event(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_SPACE, unicode=" ", mod=0))
    app.handle_event(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_F1, unicode="", mod=0))
    assert app.hud.show_help and any(line.startswith("Tab:") for line in app.hud.help_lines())


def test_agents_walk_and_the_log_viewer_filters_by_agent(town):
    sim, renderer = town
    app = App(sim, renderer, (W, H))
    a, b = sorted(sim.world.bodies)[:2]
    target = next(o for o in sim.objects if o.place == sim.world.bodies[a].place)
    assert sim.world.walk_to(a, target.id, sim.clock.t)
    x0 = sim.world.bodies[a].x, sim.world.bodies[a].y
    for _ in range(30):
        app.update(1 / 30)
    assert (sim.world.bodies[a].x, sim.world.bodies[a].y) != x0
    sim.log.emit("chat_line", sim.clock.t, agent=b, speaker=b, text="Lovely morning!")
    sim.log.emit("emotion", sim.clock.t, agent=a, label="happy", intensity=0.6, description="the sun is out")
    app.handle_event(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_l, unicode="l", mod=0))
    assert app.log_viewer.visible
    every = app.log_viewer.lines()
    assert any(f'{b}: "Lovely morning!"' in line for line in every)
    assert any(f"{a} feels happy (intensity 0.60): the sun is out" in line for line in every)
    app.log_viewer.set_agent(a)
    only_a = app.log_viewer.lines()
    assert only_a and all(b not in line or a in line for line in only_a)
    assert not any("Lovely morning!" in line for line in only_a)
    app.log_viewer.cycle_agent()
    assert app.log_viewer.agent == sorted(sim.world.bodies)[1]
    surface = pygame.Surface((W, H))
    app.update(1.0)
    app.draw(surface)
    assert _colors(surface, app.log_viewer.rect) > 10


def test_log_lines_for_real_event_shapes():
    from garp.game.log_viewer import event_agents, format_event

    start = {"kind": "chat_start", "t": 0, "initiator": "Mika", "partner": "Ren", "agents": ["Mika", "Ren"],
             "place": "Mika's House"}
    assert format_event(start) == "Conversation: Mika and Ren at Mika's House"
    assert event_agents(start) == {"Mika", "Ren"}
    rel = {"kind": "relationship", "t": 0, "agent": "Ren", "other": "Mika", "sentiment": 0.45, "trust": 0.6,
           "familiarity": 0.65, "delta": 0.1, "reason": "she was kind"}
    assert format_event(rel) == ("Ren about Mika: sentiment +0.45, trust 0.60, familiarity 0.65 "
                                 "(sentiment change +0.10) - she was kind")
    use = {"kind": "action_start", "t": 0, "agent": "Ludwig", "object": "ludwigs-house/bed", "verb": "sleep"}
    assert format_event(use) == "Ludwig starts: sleep (ludwigs-house/bed)"


def test_a_still_camera_draws_the_same_town_from_its_composed_ground_and_a_moved_one_follows(town):
    _, renderer = town
    cam = Camera(*renderer.map_size, W, H)
    walker = [BodyView(name="Ana", x=600, y=600, activity="walking", place="street", using="", facing="down",
                       moving=False, bubble="")]

    def frame(at: tuple[int, int]) -> pygame.Surface:
        cam.center_on(*at)
        surface = pygame.Surface((W, H))
        renderer.draw(surface, cam, walker, view=surface.get_rect())
        return surface

    fresh = pygame.image.tobytes(frame((600, 600)), "RGB")
    for _ in range(3):  # the second frame in one place composes the ground, the third reuses it
        still = frame((600, 600))
    assert pygame.image.tobytes(still, "RGB") == fresh
    moved = frame((900, 700))
    again = frame((900, 700))
    assert pygame.image.tobytes(moved, "RGB") == pygame.image.tobytes(again, "RGB") != fresh


def test_the_selected_characters_label_comes_first_and_every_label_stays_in_the_view(town):
    """Two characters side by side at the view's left edge: the selected one keeps the place above
    its head, and the other's label, pushed aside, is still inside the view."""
    _, renderer = town
    cam = Camera(*renderer.map_size, W, H)
    cam.center_on(0, 600)  # clamped: the map's left edge is the view's
    pair = [BodyView(name=n, x=x, y=600, activity="serving at the cafe counter", place="cafe", using="",
                     facing="down", moving=False, bubble="") for n, x in (("Ana", 40), ("Ben", 72))]
    surface = pygame.Surface((W, H))
    renderer.draw(surface, cam, pair, selected="Ana", view=surface.get_rect())
    rects, hits = renderer.label_rects, renderer.hits
    assert set(rects) == {"Ana", "Ben"}
    assert all(surface.get_rect().contains(r) for r in rects.values())
    assert rects["Ana"].bottom == hits["Ana"].top + 2 and rects["Ana"].left <= hits["Ana"].centerx <= rects["Ana"].right
    assert not rects["Ana"].colliderect(rects["Ben"])


def test_a_label_never_goes_under_the_hud_bar(town):
    """A character at the top of the view: its label is pushed below the rows the HUD bar covers."""
    _, renderer = town
    cam = Camera(*renderer.map_size, W, H)
    cam.center_on(600, 0)  # clamped: the map's top edge is the view's
    top = [BodyView(name="Ana", x=600, y=20, activity="walking to the computer at Town Office", place="", using="",
                    facing="down", moving=False, bubble="")]
    surface = pygame.Surface((W, H))
    renderer.draw(surface, cam, top, view=surface.get_rect(), covered_top=34)
    assert renderer.label_rects["Ana"].top >= 34


def test_a_narrow_hud_bar_drops_whole_parts_not_half_a_word():
    """With the inspector open the bar is narrower than its line: it read "... 20 ager"."""
    import types

    from garp.game import text as T
    from garp.game.hud import Hud
    stats = {"queue_depth": 0, "bound": 40, "tok_s": 5.0, "load": 0.5, "saturated": False, "endpoints": []}
    clock = types.SimpleNamespace(speed=50.0, paused=False, date_label=lambda: "Mon 2 Mar, 10:30", hhmm=lambda: "10:30")
    hud = Hud(types.SimpleNamespace(scheduler=types.SimpleNamespace(stats=lambda: stats), clock=clock,
                                    minds={f"A{k}": None for k in range(20)}))
    text = T.shared_text()
    whole = Hud._fitted(text, hud.line(), T.FG, 10_000)
    narrow = Hud._fitted(text, hud.line(), T.FG, whole.get_width() - 60)
    assert narrow.get_width() <= whole.get_width() - 60
    shown = "   ".join(hud.line().split("   ")[:-1])
    assert narrow.get_width() == text.render(shown, 16, T.FG, True).get_width()


def test_a_reflection_reads_as_sentences_in_the_event_log():
    """The log read "Felix reflects: It matters to me to learn to play the guitar.; Ren matters to me."."""
    from garp.game.log_viewer import format_event
    ev = {"kind": "reflection", "t": 0.0, "agent": "Felix",
          "insights": ["It matters to me to learn to play the guitar.", "Ren matters to me", "I like mornings!"]}
    assert format_event(ev).endswith(
        "Felix reflects: It matters to me to learn to play the guitar. Ren matters to me. I like mornings!")
