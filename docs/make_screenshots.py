"""Screenshots of the real game window for the README (run under Xvfb).

    SDL_VIDEODRIVER=x11 xvfb-run -a -s "-screen 0 1280x720x24" \
        .venv/bin/python docs/make_screenshots.py town 150 docs/screenshots

Plays SCENARIO in the real-time window for SECONDS wall-seconds, then selects the agent
with the most model calls and saves the town, every inspector tab and the event log.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import pygame  # noqa: E402

from garp.cli import build_parser  # noqa: E402
from garp.game import view_model as vm  # noqa: E402
from garp.game.app import GIL_SWITCH_S, WINDOW, App, build_renderer  # noqa: E402
from garp.sim.simulation import build_simulation  # noqa: E402

TABS = ("Decisions", "Plan", "Memories", "Emotions", "Persona", "Relations", "How it decided")


def frames(app: App, screen: pygame.Surface, n: int, dt: float = 0.3) -> None:
    for _ in range(n):
        app.update(dt)
        app.draw(screen)
        pygame.display.flip()


def main(scenario: str, seconds: float, out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    sys.setswitchinterval(GIL_SWITCH_S)
    args = build_parser().parse_args(["play", "--scenario", scenario])
    pygame.init()
    screen = pygame.display.set_mode(WINDOW)
    sim = build_simulation(scenario, args)
    try:
        app = App(sim, build_renderer(sim), screen.get_size())
        app.run(screen, seconds)
        name = max(sim.minds, key=lambda n: len(sim.minds[n].calls))
        app.town.select(name, center=True)
        frames(app, screen, 1)
        pygame.image.save(screen, str(out / "town.png"))
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
        app.open_panel(None)
        app.log_viewer.toggle()
        frames(app, screen, 2)
        pygame.image.save(screen, str(out / "event_log.png"))
        print(f"screenshots of {name} at {sim.clock.date_label()} -> {out}")
    finally:
        sim.close()
        pygame.quit()


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "town", float(sys.argv[2]) if len(sys.argv) > 2 else 150.0,
         Path(sys.argv[3] if len(sys.argv) > 3 else "docs/screenshots"))
