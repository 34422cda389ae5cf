"""The start-of-run temperament question (paper V-B) in the game window, headless (SDL dummy):
the real free_evening Simulation with the bundled model, the real App and its modal layer."""

from __future__ import annotations

import os
import time
import types

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402
import pytest  # noqa: E402

from garp.game.app import App, build_renderer  # noqa: E402
from sim_helpers import seeded_cache  # noqa: E402

W, H = 1280, 720


@pytest.fixture(scope="module")
def screen():
    pygame.init()
    return pygame.display.set_mode((W, H))


@pytest.fixture
def play(tmp_path, sim_engine, screen):
    """Build free_evening as `garp play` does (real time, no --trait unless given)."""
    from garp.sim.wiring import build

    backend, embedder = sim_engine
    made = []

    def make(trait: str | None = None):
        for old in made:  # one backend: never two simulations calling it at once
            old.close()
        args = types.SimpleNamespace(out=str(tmp_path / f"run{len(made)}"), seed=5, trait=trait,
                                     cache=str(seeded_cache(tmp_path)))
        sim = build("free_evening", args, lockstep=False, backend=backend, embedder=embedder)
        made.append(sim)
        return sim, App(sim, build_renderer(sim), (W, H))

    yield make
    for sim in made:
        sim.close()


def _frames(app: App, screen: pygame.Surface, n: int, events=()) -> None:
    for i in range(n):
        app.frame(0.1, screen, list(events) if i == 0 else [])


def test_prompt_asks_then_the_click_applies_the_traits(play, screen):
    sim, app = play()
    mika = sim.minds["Mika"]
    social_before, adjectives_before = mika.needs.rates["social"], mika.personality.adjectives
    assert sim.temperament_pending and app.prompt is not None
    lines = app.prompt.lines()
    assert lines[0] == "A free evening"
    assert "Which temperament does Mika have tonight?" in lines
    assert "1. very extraverted" in lines and "2. very introverted" in lines
    t0 = sim.clock.t
    # Modal: Tab and Space reach nothing below; the clock does not move.
    keys = [pygame.event.Event(pygame.KEYDOWN, key=k, unicode="", mod=0) for k in (pygame.K_TAB, pygame.K_SPACE)]
    _frames(app, screen, 5, keys)
    assert sim.clock.t == t0 and sim.clock.paused and app.panel is None and sim.temperament_pending
    # The dialog is drawn centred over the dimmed town, one button per choice.
    assert len(app.prompt.buttons) == 2
    assert all(abs(b.centerx - W // 2) < 2 for b in app.prompt.buttons)
    assert screen.get_at(app.prompt.buttons[1].center)[:3] != screen.get_at((5, H - 5))[:3]
    target = app.prompt.buttons[1].center
    app.handle_event(pygame.event.Event(pygame.MOUSEMOTION, pos=target, rel=(0, 0), buttons=(0, 0, 0)))
    app.handle_event(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=target))
    app.handle_event(pygame.event.Event(pygame.MOUSEBUTTONUP, button=1, pos=target))
    assert app.prompt is None and not sim.temperament_pending and not sim.clock.paused
    assert mika.traits == "very introverted"
    assert mika.personality.adjectives == "introverted" != adjectives_before
    assert mika.needs.rates["social"] < social_before  # Eq. 2: introverts' social need decays slower
    assert [e["answer"] for e in sim.log.of_kind("temperament")] == ["very introverted"]
    assert mika.planned_day == -1  # replans under the answer
    # The clock runs again once answered and the cast's first plans (Mika's under her answer) are in.
    _frames(app, screen, 1)
    assert "planning the day" in app.hud.line() and sim.clock.t == t0
    deadline = time.monotonic() + 120
    while sim.clock.t == t0 and time.monotonic() < deadline:
        _frames(app, screen, 1)
        time.sleep(0.05)
    assert sim.clock.t > t0 and "planning" not in app.hud.line()
    _frames(app, screen, 3)  # a plan that came in is applied at its due time, one step on
    assert mika.planned_day == 0
    plans = [e for e in sim.log.of_kind("plan") if e["agent"] == "Mika" and e.get("level") == "day"]
    assert plans and plans[-1]["t"] == t0  # made while the clock stood


def test_number_key_answers_and_trait_option_skips_the_prompt(play, screen):
    sim, app = play()
    _frames(app, screen, 1)
    app.handle_event(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_1, unicode="1", mod=0))
    assert app.prompt is None and sim.minds["Mika"].traits == "very extraverted"
    assert sim.goals()[-1].check == "agents_in_place_during"  # the answer's goals now apply

    sim2, app2 = play(trait="very introverted")  # `garp play --trait ...`: no question asked
    assert not sim2.temperament_pending and app2.prompt is None and not sim2.clock.paused
    assert sim2.minds["Mika"].traits == "very introverted"
