"""Screenshots of the real game window for the README (run under Xvfb).

    SDL_VIDEODRIVER=x11 xvfb-run -a -s "-screen 0 1280x720x24" \\
        .venv/bin/python docs/make_screenshots.py tour town 150 docs/screenshots
    SDL_VIDEODRIVER=x11 xvfb-run -a -s "-screen 0 1280x720x24" \\
        .venv/bin/python docs/make_screenshots.py presence docs/screenshots [dawn dinner seated]

`tour` plays SCENARIO in the real-time window for SECONDS wall-seconds, then selects the agent
with the most model calls and saves the town, every inspector tab and the event log.
`presence` shows the characters as a player first meets them: the town at its first frame
(asleep in bed at 06:00, the plan tab's routine); a dinner party: the HUD once its opening burst
is over, a guest stopped to answer an interview; someone seated on a chair at the table or desk
it uses and the reason for that choice in words. Each shot says what it shows and fails if
the game does not.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import Any, Callable

os.environ.setdefault("HF_HUB_OFFLINE", "1")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import pygame  # noqa: E402

from garp.cli import build_parser  # noqa: E402
from garp.game import view_model as vm  # noqa: E402
from garp.game.app import WINDOW, App, build_renderer, init_display  # noqa: E402
from garp.sim.pause import ANSWERING  # noqa: E402
from garp.sim.wiring import build  # noqa: E402

TABS = ("Decisions", "Plan", "Memories", "Emotions", "Persona", "Relations", "How it decided")
FRAME_S = 1 / 30  # wall seconds per frame while waiting for something to happen


def frames(app: App, screen: pygame.Surface, n: int, dt: float = 0.3) -> None:
    for _ in range(n):
        app.update(dt)
        app.draw(screen)
        pygame.display.flip()


def wait_for(app: App, screen: pygame.Surface, seen: Callable[[], Any], seconds: float) -> Any:
    """Play in real time until `seen()` is truthy (its value) or `seconds` pass (None)."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        found = seen()
        if found:
            return found
        frames(app, screen, 1, FRAME_S)
        time.sleep(FRAME_S)
    return None


def shot(app: App, screen: pygame.Surface, path: Path, what: str) -> None:
    frames(app, screen, 1, 0.0)
    pygame.image.save(screen, str(path))
    print(f"{path.name}: {what}")


def open_scene(scenario: str, speed: float | None = None) -> tuple[Any, App, pygame.Surface]:
    argv = ["play", "--scenario", scenario] + (["--speed", str(speed)] if speed else [])
    args = build_parser().parse_args(argv)
    screen = pygame.display.set_mode(WINDOW)
    sim = build(scenario, args)
    if speed:
        sim.clock.speed = speed
    return sim, App(sim, build_renderer(sim), screen.get_size()), screen


def tour(scenario: str, seconds: float, out: Path) -> None:
    sim, app, screen = open_scene(scenario)
    try:
        app.run(screen, seconds)
        name = max(sim.minds, key=lambda n: len(sim.minds[n].calls))
        app.town.select(name, center=True)
        shot(app, screen, out / "town.png", f"the town at {sim.clock.date_label()}")
        app.open_panel(name)
        for title in TABS:
            tab = app.panel.select(title)
            if title == "How it decided" and vm.calls(sim.minds[name]):
                c = vm.calls(sim.minds[name])[0]
                tab.select((c.function, c.t, c.raw[:40]))
            if title == "Plan":
                blocks = vm.plan_blocks(sim.minds[name])
                for b in blocks:
                    if b.key in vm.active_path(blocks, sim.clock.t) and b.children:
                        tab.toggle(b.key)
            frames(app, screen, 3)
            pygame.image.save(screen, str(out / f"panel_{title.lower().replace(' ', '_')}.png"))
        interview_shot(app, screen, out)
        app.open_panel(None)
        app.log_viewer.toggle()
        frames(app, screen, 2)
        pygame.image.save(screen, str(out / "event_log.png"))
    finally:
        sim.close()


TOUR_QUESTIONS = ("How are you feeling today?", "What are you up to right now?", "What did you do this morning?",
                  "Have you had lunch yet?", "What are you doing this evening?", "Who did you talk to today?")


def interview_shot(app: App, screen: pygame.Surface, out: Path) -> None:
    """The Interview tab after a player's first questions, each answered (or a minute gone)."""
    tab = app.panel.select("Interview")
    for question in TOUR_QUESTIONS:
        exchange = tab.submit(question)
        wait_for(app, screen, lambda: exchange is None or exchange.future is None or exchange.future.done(), 60)
    frames(app, screen, 3)
    pygame.image.save(screen, str(out / "panel_interview_answers.png"))


def _posed(sim: Any, pose: str, at_furniture: bool = False) -> vm.BodyView | None:
    """Someone drawn in `pose`; with `at_furniture`, on a chair at the table or desk it uses."""
    poses = vm.pose_map(sim.world.objects)
    for b in vm.town_bodies(sim):
        body = sim.world.bodies[b.name]
        used = poses.shapes.get(body.using[0]) if body.using else None
        if b.pose == pose and (not at_furniture or (used is not None and used.blocks and body.tile in poses.seats)):
            return b
    return None


def dawn(out: Path) -> None:
    """The town's first frame: asleep in bed, the plan tab on the routine."""
    sim, app, screen = open_scene("town")
    try:
        sleeper = _posed(sim, "lie")
        assert sleeper is not None, "nobody lies in bed at the first frame"
        app.town.camera.zoom_by(1)
        app.town.select(sleeper.name, center=True)
        shot(app, screen, out / "first_frame_in_bed.png", f"{sleeper.name} and housemates asleep at the first frame")
        app.open_panel(sleeper.name)
        app.panel.select("Plan")
        shot(app, screen, out / "plan_provisional.png", "the routine's plan, marked provisional, at the first frame")
    finally:
        sim.close()


def quiet_hud(sim: Any, app: App, screen: pygame.Surface, out: Path) -> None:
    """The HUD in the first minutes once the queue has emptied: preferably at a moment the two-minute
    load is still over capacity (the notice the old HUD kept up beside an empty queue)."""
    def empty(over: bool) -> bool:
        return "model queue 0/" in app.hud.line() and (bool(vm.hud_stats(sim).keep_up) or not over)
    over = wait_for(app, screen, lambda: empty(True), 120)
    assert over or wait_for(app, screen, lambda: empty(False), 120), "the model queue never emptied"
    assert not app.hud.saturated, "the HUD says saturated beside an empty queue"
    load = "the load figure over capacity" if over else "the load under capacity"
    shot(app, screen, out / "hud_after_opening.png", f"{load}, queue empty, no notice: {app.hud.line()}")


def dinner(out: Path) -> None:
    """A dinner party: the HUD after the opening, a guest stopped to answer an interview."""
    sim, app, screen = open_scene("dinner_party")
    try:
        quiet_hud(sim, app, screen, out)
        walker = wait_for(app, screen, lambda: max(((len(sim.world.bodies[b.name].path), b.name)
                                                    for b in vm.town_bodies(sim) if b.moving), default=(0, ""))[1], 300)
        assert walker, "nobody walked"
        app.jump_to(walker)
        app.panel.select("Interview").submit("What are you on your way to do?")
        frames(app, screen, 20, FRAME_S)
        view = next(b for b in vm.town_bodies(sim) if b.name == walker)
        assert view.activity == ANSWERING and not view.moving, "the interviewed walker did not stop"
        shot(app, screen, out / "interview_pause.png", f"{walker} stopped, facing the viewer, answering")
    finally:
        sim.close()


SEATED_SCENES = ("open_hours_conventional", "solitary_evening", "hard_words_warm")  # someone sits down early


def seated(out: Path) -> None:
    """Someone seated on a chair at the table or desk it uses, and the reason for it in words."""
    for scenario in SEATED_SCENES:
        sim, app, screen = open_scene(scenario)
        try:
            sitter = wait_for(app, screen, lambda: _posed(sim, "sit", at_furniture=True), 240)
            if sitter is None:
                continue
            app.town.camera.zoom_by(1)
            app.jump_to(sitter.name)
            frames(app, screen, 30, FRAME_S)
            shot(app, screen, out / "seated_at_table.png", f"{sitter.name} seated ({scenario}): {sitter.activity}")
            tab = app.panel.select("Decisions")
            frames(app, screen, 2, FRAME_S)
            tab.list.scroll_to_row(next(i for i, r in enumerate(tab.list.rows) if r.text == "Last choice"))
            shot(app, screen, out / "decisions_why.png", next(line for line in tab.lines() if line.startswith("Why: ")))
            return
        finally:
            sim.close()
    raise AssertionError(f"nobody sat down at a table or desk in {', '.join(SEATED_SCENES)}")


def _shared(sim: Any) -> Any:
    """An object two or more characters use at once (a table at dinner), if there is one."""
    return next((o for o in sim.world.objects.all() if len(o.users) >= 2), None)


def shared(out: Path) -> None:
    """Diners around one table, each drawn at its own place (one figure per tile)."""
    sim, app, screen = open_scene("dinner_party", speed=60.0)
    try:
        table = wait_for(app, screen, lambda: _shared(sim), 420)
        assert table is not None, "nobody shared an object in the dinner party's first two hours"
        frames(app, screen, 10, FRAME_S)
        app.town.camera.zoom_by(1)
        app.town.camera.center_on(table.x, table.y)
        frames(app, screen, 5, FRAME_S)
        users = ", ".join(table.users)
        shot(app, screen, out / "one_figure_per_tile.png", f"{users} using {table.name} at once, one figure per tile")
    finally:
        sim.close()


SCENES = {"dawn": dawn, "dinner": dinner, "seated": seated, "shared": shared}


def presence(out: Path, scenes: list[str]) -> None:
    for name in scenes or SCENES:
        SCENES[name](out)


def main(argv: list[str]) -> None:
    mode = argv[0] if argv and argv[0] in ("tour", "presence") else "tour"
    rest = argv[1:] if argv and argv[0] == mode else argv
    init_display()
    try:
        if mode == "presence":
            out = Path(rest[0] if rest else "docs/screenshots")
            out.mkdir(parents=True, exist_ok=True)
            presence(out, rest[1:])
        else:
            out = Path(rest[2] if len(rest) > 2 else "docs/screenshots")
            out.mkdir(parents=True, exist_ok=True)
            tour(rest[0] if rest else "town", float(rest[1]) if len(rest) > 1 else 150.0, out)
    finally:
        pygame.quit()


if __name__ == "__main__":
    main(sys.argv[1:])
