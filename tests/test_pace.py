"""The starting clock speed follows the model's throughput and the cast; the HUD says when the
model is saturated and what speed would keep up (issue 17 §4). Pure functions, no model."""

import types

from garp.game.hud import Hud
from garp.sim.pace import DEMAND_TOK_PER_AGENT_HOUR, MIN_SPEED, keep_up_speed, start_pace, sustainable_speed


def test_default_speed_grows_with_throughput_and_shrinks_with_the_cast():
    twenty_slow = sustainable_speed(50.0, 20, ceiling=300)
    assert sustainable_speed(100.0, 20, ceiling=300) > twenty_slow  # a faster model serves a faster clock
    assert sustainable_speed(50.0, 5, ceiling=300) > twenty_slow     # a smaller cast asks for less
    # the demand at the chosen speed is within the planned share of the throughput
    assert 20 * DEMAND_TOK_PER_AGENT_HOUR * twenty_slow / 3600 <= 0.8 * 50.0


def test_default_speed_stays_in_its_range():
    assert sustainable_speed(10_000.0, 2, ceiling=300) == 300   # never faster than the scene's own speed
    assert sustainable_speed(1.0, 20, ceiling=75) == MIN_SPEED   # never a crawl
    assert sustainable_speed(0.0, 20, ceiling=75) == MIN_SPEED   # no measurement: the floor


def test_start_pace_explains_itself():
    pace = start_pace(45.0, 20, ceiling=75)
    assert pace.speed == sustainable_speed(45.0, 20, ceiling=75)
    assert f"x{pace.speed:g}" in pace.describe() and "45 tok/s" in pace.describe() and "20 agents" in pace.describe()
    # a start below the speed named says why: the step it was rounded to, the scene's own speed, the floor
    assert start_pace(19.0, 20, ceiling=75).describe().startswith(
        "clock x25: the model made 19 tok/s, enough for 20 agents at x28.8, rounded down to a step of x5")
    assert "x10 is the scene's own speed" in start_pace(19.0, 20, ceiling=10).describe()
    assert "x10 is the slowest start" in start_pace(3.0, 20, ceiling=75).describe()


def test_keep_up_speed_scales_the_speed_by_the_measured_load():
    assert keep_up_speed(75.0, 2.0) == 30.0   # twice the work the model can do: 0.8 / 2 of the speed
    assert keep_up_speed(75.0, 0.0) == 75.0


def test_hud_shows_the_queue_bound_and_what_speed_would_keep_up():
    stats = {"queue_depth": 40, "bound": 40, "tok_s": 12.0, "load": 2.0, "saturated": True, "endpoints": []}
    sched = types.SimpleNamespace(stats=lambda: stats)
    clock = types.SimpleNamespace(speed=75.0, paused=False, date_label=lambda: "Mon 08:00", hhmm=lambda: "08:00")
    hud = Hud(types.SimpleNamespace(scheduler=sched, clock=clock, minds={"Ana": None}))
    assert "model queue 40/40" in hud.line() and "model saturated: x30 would keep up" in hud.line()
    stats.update(saturated=False, load=0.5, queue_depth=3)
    hud.update(1.0)
    assert "model queue 3/40" in hud.line() and "saturated" not in hud.line()
