"""What a player sees of the characters in play (issue 23, the items left over): an interviewed
character really stops and answers, then carries on; a sleeper is drawn in its bed and a diner on
its chair, one figure per tile; the scene opens with each routine's activity, the plan tab shows the routine until the
model's plan arrives; the saturation notice describes now; a decision's reason reads as words."""

from __future__ import annotations

import concurrent.futures
import random
import types
from datetime import datetime

import pygame
import pytest

from garp.eventlog import EventLog
from garp.game import view_model as vm
from garp.game.app import App
from garp.game.hud import REFUSED_RECENT_S, Hud, Saturation
from garp.game.panels.agent_panel import AgentPanel
from garp.game.panels.plan import PROVISIONAL
from garp.game.phrasing import readable_why
from garp.game.renderer import Renderer, load_tmx
from garp.game.sprites import CharacterSprites
from garp.mind.agent import Activity, AgentMind
from garp.mind.persona import load_personas
from garp.sim.opening import open_with_object
from garp.sim.pause import ANSWERING, InterviewPause
from garp.sim.requests import Requests, may_use
from garp.units import TILE_PX
from garp.world.clock import GameClock

W, H = 1280, 720
DAWN = datetime(2025, 3, 3, 6, 0)  # before every routine's first block: the night's block runs


class Town:
    """The real map and world with real minds and the real Requests, no model: what play opens with."""

    def __init__(self, cast: tuple[str, ...], start: datetime = DAWN, lockstep: bool = False) -> None:
        from garp.sim.town_setup import load_town
        self.log = EventLog()
        self.town, registry, self.world, _ = load_town("town.tmx", self.log, random.Random(1))
        self.clock = GameClock(start)
        personas = load_personas()
        self.minds = {n: AgentMind(personas[n]) for n in cast}
        for name, mind in self.minds.items():
            self.world.add_agent(name, mind.persona.home)
        self.requests = Requests(world=self.world, clock=self.clock, minds=self.minds, scenario=None, perception=None,
                                 known_places=sorted(self.town.places), lockstep=lockstep, answer_delay_s=60.0)
        self.pause = InterviewPause(self.world, self.minds)

    def open_scene(self) -> None:
        """As Simulation._start does in play."""
        t = self.clock.t
        for mind in self.minds.values():
            mind.activity = open_with_object(self.world, mind, self.requests.opening_block(mind, t),
                                             self.requests.start_activity(mind, t), t, may_use)

    def update(self, wall_dt: float) -> None:
        self.world.step(self.clock.advance(wall_dt), self.clock.t)


@pytest.fixture(scope="module")
def renderer():
    pygame.init()
    pygame.display.set_mode((W, H))
    town = Town(("Mika",))
    return Renderer(load_tmx(town.town.path), CharacterSprites.load())


def _bed_of(world, name: str):
    return next(o for o in world.objects.in_place(world.bodies[name].place) if o.type == "bed" and name in o.owners)


def _map_rect(obj) -> pygame.Rect:
    w, h = obj.kind.size
    return pygame.Rect(obj.tile[0] * TILE_PX, obj.tile[1] * TILE_PX, w * TILE_PX, h * TILE_PX)


# ----------------------------------------------------------------------------- the opening
def test_play_and_headless_open_in_bed_at_dawn_until_each_ones_own_waking():
    for town in (Town(("Mika", "Ren")), Town(("Mika", "Ren"), lockstep=True)):
        town.open_scene()
        for name in ("Mika", "Ren"):
            act, body = town.minds[name].activity, town.world.bodies[name]
            assert act.description == "sleep" and act.kind == "use" and body.using == (_bed_of(town.world, name).id, "sleep")
            wake = town.requests.routine_day(town.minds[name], 0)[0].start  # the day's first block: waking
            assert act.end_t == wake
        # Mika "sleeps in when she can": her routine wakes her later than Ren
        assert town.minds["Mika"].activity.end_t > town.minds["Ren"].activity.end_t


def test_a_routine_block_that_names_no_object_here_stays_as_it_was():
    town = Town(("Mika", "Ren"), start=datetime(2025, 3, 3, 18, 0))
    town.open_scene()
    for mind in town.minds.values():
        assert mind.activity.kind == "stay" and mind.activity.description not in ("starting the day", "idle")


def test_the_sleeper_is_drawn_in_its_bed(renderer):
    town = Town(("Mika",))
    town.open_scene()
    bed = _map_rect(_bed_of(town.world, "Mika"))
    view = next(b for b in vm.town_bodies(town) if b.name == "Mika")
    assert view.pose == "lie" and bed.collidepoint(view.x, view.y) and view.bed == tuple(bed)
    assert view.activity == "sleep (Mika's bed)"
    app = App(town, renderer, (W, H))
    app.town.camera.center_on(*bed.center)
    surface = pygame.Surface((W, H))
    app.draw(surface)
    drawn = renderer.hits["Mika"].inflate(-8, -8)
    on_screen = pygame.Rect(app.town.camera.to_screen(bed.x, bed.y), bed.size)
    assert on_screen.contains(drawn) and drawn.height > drawn.width  # lying along the bed, inside it


def test_a_diner_sits_on_the_chair_facing_the_table_and_a_napper_lies_across_the_sofa():
    town = Town(("Mika", "Ren"))
    house = town.world.bodies["Mika"].place
    table = next(o for o in town.world.objects.in_place(house) if o.type == "dining_table")
    sofa = next(o for o in town.world.objects.in_place(house) if o.type == "sofa")
    assert town.world.settle("Mika", table.id, "eat", town.clock.t)
    assert town.world.settle("Ren", sofa.id, "nap", town.clock.t)
    views = {b.name: b for b in vm.town_bodies(town)}
    chair = next(o for o in town.world.objects.in_place(house) if o.type == "chair"
                 and o.tile == town.world.bodies["Mika"].tile)
    mika, ren = views["Mika"], views["Ren"]
    assert mika.pose == "sit" and _map_rect(chair).collidepoint(mika.x, mika.y)
    assert mika.facing == ("down" if table.y > mika.y else "up")
    assert ren.pose == "lie" and ren.bed == tuple(_map_rect(sofa)) and ren.bed[2] > ren.bed[3]


def test_the_plan_tab_shows_the_routine_until_the_models_plan_arrives():
    from garp.mind.plan_tree import PlanNode, PlanTree
    town = Town(("Mika",))
    town.open_scene()
    panel = AgentPanel(town, "Mika")
    lines = panel.select("Plan").lines()
    assert lines[0] == PROVISIONAL
    # Mika "sleeps in when she can" (her persona's lifestyle): the night runs to half past eight
    assert any(line.startswith("  23:00-08:30  sleep") and line.endswith("<- now") for line in lines)
    assert any("08:30-" in line and "wake up" in line for line in lines)
    assert panel.select("Decisions").lines()[1] == "sleep (from the routine; the model's plan is on its way)"
    town.minds["Mika"].plan = PlanTree(day=0, nodes=[PlanNode(start=6 * 3600, end=9 * 3600, description="lie in")])
    lines = panel.select("Plan").lines()
    assert PROVISIONAL not in lines and any("lie in" in line for line in lines)


# ----------------------------------------------------------------------------- the interview pause
def _walking(town: Town, name: str) -> Activity:
    t = town.clock.t
    assert town.world.walk_to(name, "Hobbs Cafe", t)
    town.minds[name].activity = Activity("walk", "walking to Hobbs Cafe", "Hobbs Cafe", start_t=t, end_t=t + 3600)
    return town.minds[name].activity


def test_an_interviewed_walker_stops_faces_the_viewer_and_resumes_with_its_remaining_time():
    town = Town(("Mika", "Ren"), start=datetime(2025, 3, 3, 18, 0))
    act = _walking(town, "Mika")
    for _ in range(5):
        town.update(0.2)
    body = town.world.bodies["Mika"]
    t_hold, left, at = town.clock.t, act.end_t - town.clock.t, (body.x, body.y)
    town.pause.hold("Mika", t_hold)
    for _ in range(20):
        town.update(0.2)
        assert (body.x, body.y) == at and body.facing == "down"
        view = next(b for b in vm.town_bodies(town) if b.name == "Mika")
        assert view.activity == ANSWERING and not view.moving
    town.pause.release("Mika", town.clock.t)
    assert town.minds["Mika"].activity is act and act.end_t - town.clock.t == pytest.approx(left)
    assert act.end_t - act.start_t == pytest.approx(3600)  # the same activity, moved by the pause
    town.update(0.2)
    assert (body.x, body.y) != at  # walking on along the same path
    assert next(b for b in vm.town_bodies(town) if b.name == "Mika").activity.startswith("walking to")


def test_results_for_a_held_agent_wait_together_and_others_flow():
    from garp.sim.messages import ChatHeld, Do, JobDone, Reply
    town = Town(("Mika", "Ren", "Maya"))
    town.pause.hold("Ren", 0.0)
    def go(name: str) -> Do:
        return Do(agent=name, place="Hobbs Cafe", description="go", duration_s=600.0, decision={})
    replies = [Reply(go("Mika"), 1, 0.0, 0.0, "decide"), Reply(JobDone(agent="Mika"), 1, 0.0, 0.0, "decide"),
               Reply(go("Ren"), 2, 0.0, 0.0, "decide"),
               Reply(JobDone(agent="Ren"), 2, 0.0, 0.0, "decide"),
               Reply(ChatHeld(agent="Maya", partner="Ren", lines=(), chat_id="c", place=""), 3, 0.0, 0.0, "converse")]
    assert town.pause.waiting(replies) == {2, 3}
    town.pause.release("Ren", 10.0)
    assert town.pause.waiting(replies) == set()


class PausingSim:
    """The parts of a Simulation the interview tab and the app use, over a real world and pause."""

    def __init__(self) -> None:
        self.inner = Town(("Mika", "Ren"), start=datetime(2025, 3, 3, 18, 0))
        self.world, self.clock, self.minds, self.log = (self.inner.world, self.inner.clock, self.inner.minds,
                                                        self.inner.log)
        self.pause, self.requests = self.inner.pause, self.inner.requests
        self.futures: list[concurrent.futures.Future] = []

    def interview(self, name: str, question: str) -> concurrent.futures.Future:
        self.pause.hold(name, self.clock.t)
        self.futures.append(concurrent.futures.Future())
        return self.futures[-1]

    def end_interview(self, name: str) -> None:
        self.pause.release(name, self.clock.t)

    def update(self, wall_dt: float) -> None:
        self.inner.update(wall_dt)


def test_closing_the_panel_lets_the_character_carry_on_before_the_answer(renderer):
    sim = PausingSim()
    app = App(sim, renderer, (W, H))
    app.jump_to("Mika")
    app.panel.select("Interview").submit("Where are you going?")
    assert sim.pause.holds("Mika")
    app.draw(pygame.Surface((W, H)))
    assert app.panel.header_lines()[1].startswith(ANSWERING)
    app.handle_event(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, unicode="\x1b", mod=0))
    assert app.panel is None and not sim.pause.holds("Mika") and not sim.futures[0].done()


# ----------------------------------------------------------------------------- HUD and decisions
def _stats(queue: int, refused: int, keep_up: float = 30.0) -> vm.HudStats:
    return vm.HudStats(date="", time="", speed=75.0, paused=False, queue_depth=queue, tok_s=40.0, agents=20,
                       bound=40, keep_up=keep_up, refused=refused)


def test_saturation_is_shown_while_requests_wait_or_were_just_refused_not_after_an_opening_burst():
    sat = Saturation()
    assert not sat.now(_stats(0, 25), 0.0)  # the opening burst, refused before the HUD looked: the queue is empty
    assert sat.now(_stats(3, 25), 1.0)  # requests waiting while over capacity: real saturation
    assert not sat.now(_stats(0, 25), 2.0)
    assert sat.now(_stats(0, 26), 3.0)  # one refused just now
    assert sat.now(_stats(0, 26), 3.0 + REFUSED_RECENT_S)
    assert not sat.now(_stats(0, 26), 3.5 + REFUSED_RECENT_S)
    assert not sat.now(_stats(5, 30, keep_up=0.0), 20.0)  # the model keeps up: no notice at all


def test_hud_line_drops_the_saturation_notice_beside_an_empty_queue():
    scheduler = types.SimpleNamespace(stats=lambda: {"queue_depth": 0, "bound": 40, "load": 3.0, "saturated": True,
                                                     "answered": {"admission": 12, "stale": 2}, "busy_share": 0.25,
                                                     "tok_s": 2.0})
    sim = types.SimpleNamespace(clock=GameClock(DAWN), scheduler=scheduler, minds={"A": 1})
    hud = Hud(sim)
    assert "model queue 0/40" in hud.line() and "saturated" not in hud.line()
    assert "model busy 25%, writing 2 tok/s" in hud.line()  # scoring keeps it busy without writing tokens


@pytest.mark.parametrize("why, expected", [
    ('model likelihood blended with utility 0.41: {"loglik": [-5.0, -5.8, -4.5], "combined": [0.3578, 0.30, 0.2]}',
     "The model judged how likely each option is here, blended with each option's utility (this one: 0.41): "
     'it scored 0.36, ahead of "nap (sofa)" at 0.30.'),
    ('model likelihood blended with utility 0.41: {"loglik": [-5.0, -4.5], "relevance": [0.5, 0.2], '
     '"combined": [0.6, 0.4]}',
     "The model judged how likely each option is here, blended with each option's utility (this one: 0.41) and its "
     'nearness to the goal: it scored 0.60, ahead of "nap (sofa)" at 0.40.'),
    ("utility fallback: admission: 40.1 s of work ahead, due in 20.0 s; best utility 0.41",
     "Code took the option with the best utility (0.41): the model had too much work queued "
     "(40.1 s of work ahead, due in 20.0 s)."),
    ("model skipped: the only candidate", "Code chose without asking the model: the only candidate."),
    ("the crossword fits the plan best", "the crossword fits the plan best"),
])
def test_a_decisions_reason_reads_as_words(why, expected):
    assert readable_why(why, ["read a book (bookshelf)", "nap (sofa)", "watch (tv)"], 0) == expected


def test_decisions_tab_why_line_has_no_json():
    from garp.mind.action import Decision
    from garp.mind.affordance_filter import Candidate
    mind = AgentMind(load_personas()["Mika"])
    cands = [Candidate(object_id=f"h/{v}", object_name=v, verb=v, description=f"{v} here", distance=10.0, sim=0.5,
                       prox=0.5, own=1.0, score=s) for v, s in (("read", 0.6), ("nap", 0.5))]
    mind.record_decision(Decision(agent="Mika", t=0.0, plan_item="free time", needs={}, candidates=cands,
                                  utilities=[0.4, 0.3], chosen=cands[0], chosen_index=0, mode="score",
                                  why='model likelihood blended with utility 0.40: {"loglik": [-1.0, -2.0], '
                                      '"combined": [0.52, 0.41]}').model_dump(mode="json"))
    sim = types.SimpleNamespace(minds={"Mika": mind}, clock=GameClock(DAWN), log=EventLog(),
                                world=types.SimpleNamespace(bodies={}))
    why = next(line for line in AgentPanel(sim, "Mika").select("Decisions").lines() if line.startswith("Why: "))
    assert "{" not in why and "scored 0.52, ahead of" in why and "at 0.41" in why


# ----------------------------------------------------------------------------- a real play simulation
@pytest.fixture(scope="module")
def dawn(tmp_path_factory, sim_engine):
    """Mika and Ren at 06:00 in play (real-time clock), the bundled model thinking in the background."""
    import json

    from garp.sim.wiring import build
    from sim_helpers import seeded_cache
    backend, embedder = sim_engine
    tmp = tmp_path_factory.mktemp("dawn")
    path = tmp / "dawn_pair.json"
    path.write_text(json.dumps({"name": "dawn_pair", "cast": ["Mika", "Ren"], "start_time": "06:00",
                                "duration_hours": 3, "clock_speed": 60, "goals": [{"check": "no_failures"}]}))
    args = types.SimpleNamespace(out=str(tmp / "run"), seed=7, cache=str(seeded_cache(tmp)), speed=60)
    sim = build(path, args, lockstep=False, backend=backend, embedder=embedder)
    yield sim
    sim.close()


@pytest.mark.model
def test_play_acts_from_the_first_frame_in_bed(dawn):
    views = {b.name: b for b in vm.town_bodies(dawn)}
    for name, mind in dawn.minds.items():
        assert mind.activity.description == "sleep" and mind.activity.kind == "use"
        bed = _map_rect(dawn.world.objects.get(dawn.world.bodies[name].using[0]))
        assert views[name].pose == "lie" and bed.collidepoint(views[name].x, views[name].y)
    assert dawn.log.of_kind("action_start")  # the beds are in use from the start, in the log too


@pytest.mark.model
def test_an_interviewed_character_stops_until_its_answer_then_carries_on(dawn):
    import time
    deadline = time.monotonic() + 300
    while dawn.opening_progress() is not None and time.monotonic() < deadline:  # the clock stands for first plans
        dawn.update(1 / 30)
        time.sleep(1 / 30)
    name, t = "Mika", dawn.clock.t
    assert dawn.world.walk_to(name, "Hobbs Cafe", t)
    act = dawn.minds[name].activity = Activity("walk", "walking to Hobbs Cafe", "Hobbs Cafe", start_t=t, end_t=t + 3600)
    body = dawn.world.bodies[name]
    dawn.update(0.5)
    future = dawn.interview(name, "Where are you going this morning?")
    at, t_hold, left = (body.x, body.y), dawn.clock.t, act.end_t - dawn.clock.t
    deadline = time.monotonic() + 300
    while not future.done() and time.monotonic() < deadline:
        dawn.update(1 / 30)
        assert (body.x, body.y) == at and body.facing == "down"
        assert next(b for b in vm.town_bodies(dawn) if b.name == name).activity == ANSWERING
        time.sleep(1 / 30)
    assert future.done() and dawn.clock.t > t_hold  # time went on while the character stood answering
    assert future.result().answer == "I'm on my way to Hobbs Cafe."  # from what its body is doing
    dawn.update(1 / 30)  # the main thread sees the answer: the character carries on
    assert not dawn.pause.holds(name) and dawn.minds[name].activity is act
    assert act.end_t - dawn.clock.t == pytest.approx(left - 1 / 30 * dawn.clock.speed, abs=1.0)
    for _ in range(10):
        dawn.update(1 / 30)
    assert (body.x, body.y) != at


@pytest.mark.model
def test_an_interviewed_character_tells_what_it_has_done_today_from_the_log(dawn):
    """The answer comes from the uses the world logged (in bed since 06:00), which no memory holds."""
    import time
    future = dawn.interview("Ren", "What have you been up to today?")
    deadline = time.monotonic() + 300
    while not future.done() and time.monotonic() < deadline:
        dawn.update(1 / 30)
        time.sleep(1 / 30)
    dawn.update(1 / 30)
    assert future.done() and future.result().answer == "Today I slept in my bed at home."


def test_one_figure_per_tile_diners_around_one_table_and_a_waiter_beside_them(renderer):
    cast = ("Mika", "Ren", "Maya", "Sam", "Jonah")
    town = Town(cast)
    house = town.world.bodies["Mika"].place
    table = next(o for o in town.world.objects.in_place(house) if o.type == "dining_table")
    for name in cast[:4]:
        town.world.bodies[name].x, town.world.bodies[name].y = town.world.bodies["Mika"].x, town.world.bodies["Mika"].y
        assert town.world.settle(name, table.id, "eat", town.clock.t)
    waiter = town.world.bodies["Jonah"]  # a fifth, refused, standing where the first diner stands
    waiter.x, waiter.y = town.world.bodies["Mika"].x, town.world.bodies["Mika"].y
    assert not town.world.start_use("Jonah", table.id, "eat", town.clock.t)
    assert len({town.world.bodies[n].tile for n in cast}) == 1  # the world stands them all on one tile
    views = {b.name: b for b in vm.town_bodies(town)}
    tiles = {n: (int(v.x) // TILE_PX, int(v.y) // TILE_PX) for n, v in views.items()}
    assert len(set(tiles.values())) == len(cast), tiles
    assert {tiles[n] for n in cast[:4]} == set(table.use_tiles)  # each diner at its own place at the table
    chairs = {o.tile for o in town.world.objects.in_place(house) if o.type == "chair"}
    assert all(views[n].pose == "sit" for n in cast[:4] if tiles[n] in chairs)
    assert town.town.place_at(views["Jonah"].x, views["Jonah"].y) == town.town.place_at(table.x, table.y)
    app = App(town, renderer, (W, H))
    app.town.camera.center_on(table.x, table.y)
    app.draw(pygame.Surface((W, H)))
    assert len({renderer.hits[n].center for n in cast}) == len(cast)  # five figures on screen, not one


def test_another_use_of_the_object_at_hand_ends_the_first_use_and_starts_its_own():
    """Greta chose to clear the dining table while eating at it and went on "eating" for two hours: the log, the
    table and the interview ("From 06:45 to 08:36 I had breakfast") kept the first use."""
    from garp.sim.apply import Applier
    from garp.sim.messages import Do, Reply
    town = Town(("Greta",))
    table = "gretas-house/dining-table"
    t = town.clock.t
    assert town.world.settle("Greta", table, "eat", t)
    applier = Applier(world=town.world, clock=town.clock, minds=town.minds, log=town.log, conversations=None,
                      lockstep=True, visit=town.requests.visit)
    clear = Do(agent="Greta", description="clear the table", place="Greta's House", duration_s=600.0, decision={},
               object_id=table, verb="clear")
    applier.apply(Reply(clear, 1, t + 900.0, 0.0, "decide"))
    assert town.world.bodies["Greta"].using == (table, "clear")
    assert [(e["kind"], e["verb"]) for e in town.log.events if e.get("object") == table and "verb" in e] == \
        [("action_start", "eat"), ("action_end", "eat"), ("action_start", "clear")]
    assert town.minds["Greta"].activity.kind == "use" and town.minds["Greta"].activity.verb == "clear"
