"""Clock arithmetic: speed changes, pause, ladder, day/month/year rollover, labels, lockstep."""

from datetime import datetime

import pytest

from garp.errors import GarpError
from garp.world.clock import SPEED_LADDER, GameClock, LockstepClock


def test_starts_at_seconds_since_midnight_of_start_date():
    clock = GameClock(datetime(2025, 1, 2, 7, 0))
    assert clock.t == 7 * 3600
    assert clock.hhmm() == "07:00"
    assert clock.day_index() == 0


def test_default_speed_is_300_one_wall_second_is_five_game_minutes():
    clock = GameClock(datetime(2025, 1, 2, 7, 0))
    assert clock.speed == 300.0
    assert clock.advance(1.0) == 300.0
    assert clock.hhmm() == "07:05"


def test_speed_change_mid_run_applies_only_afterwards():
    clock = GameClock(datetime(2025, 1, 2, 7, 0), speed=300)
    clock.advance(2.0)  # 600 game s
    clock.speed = 60
    clock.advance(2.0)  # 120 game s
    assert clock.t == 25200 + 600 + 120


def test_pause_holds_time_and_resume_continues():
    clock = GameClock(datetime(2025, 1, 2, 7, 0))
    clock.advance(0.5)
    before = clock.t
    clock.pause()
    assert clock.advance(10.0) == 0.0
    assert clock.t == before
    assert clock.toggle_pause() is False
    clock.advance(1.0)
    assert clock.t == before + 300
    assert clock.toggle_pause() is True
    clock.resume()
    assert clock.paused is False


def test_a_hold_stands_the_clock_until_released_or_run_out_and_deadlines_allow_for_it():
    clock = GameClock(datetime(2025, 1, 2, 6, 0), speed=30)
    clock.hold(5.0)
    assert clock.held and clock.advance(2.0) == 0.0 and clock.t == 21600
    assert clock.game_to_wall(60) == 3.0 + 2.0  # what is left of the hold, then a game minute at x30
    assert clock.advance(4.0) == 30.0  # 3 s of hold left, then 1 s of play
    assert not clock.held and clock.t == 21630
    clock.hold(60.0)
    clock.release()
    assert not clock.held and clock.advance(1.0) == 30.0


def test_faster_and_slower_walk_the_ladder_and_stop_at_the_ends():
    clock = GameClock(datetime(2025, 1, 2), speed=300)
    assert clock.faster() == 600
    assert clock.faster() == 1200
    assert clock.faster() == 3000
    assert clock.faster() == 3000
    clock.speed = 300
    assert clock.slower() == 150
    for _ in range(len(SPEED_LADDER) + 2):
        clock.slower()
    assert clock.speed == SPEED_LADDER[0]


def test_off_ladder_speed_moves_to_neighbouring_rungs():
    clock = GameClock(datetime(2025, 1, 2), speed=100)
    assert clock.faster() == 150
    clock.speed = 100
    assert clock.slower() == 75


@pytest.mark.parametrize("bad", [0, -5, "fast", float("inf"), float("nan")])
def test_bad_speed_is_a_clear_error(bad):
    with pytest.raises(GarpError, match="speed"):
        GameClock(datetime(2025, 1, 2), speed=bad)
    clock = GameClock(datetime(2025, 1, 2))
    with pytest.raises(GarpError, match="speed"):
        clock.speed = bad


def test_day_rollover():
    clock = GameClock(datetime(2025, 1, 2, 23, 50))
    clock.advance(4.0)  # 20 game minutes
    assert clock.day_index() == 1
    assert clock.hhmm() == "00:10"
    assert clock.time_of_day_s() == 600
    assert clock.day_start() == 86400
    assert clock.datetime() == datetime(2025, 1, 3, 0, 10)


def test_month_and_year_rollover():
    clock = GameClock(datetime(2024, 12, 31, 23, 0))
    clock.advance(3600 / 300 * 2)  # two game hours
    assert clock.datetime() == datetime(2025, 1, 1, 1, 0)
    assert clock.date_label() == "Wed 1 Jan, 01:00"
    feb = GameClock(datetime(2024, 2, 28, 12, 0))
    assert feb.datetime(feb.t + 86400).day == 29  # leap year
    assert feb.datetime(feb.t + 2 * 86400).month == 3


def test_labels_for_explicit_times():
    clock = GameClock(datetime(2023, 1, 2, 7, 0))
    assert clock.date_label() == "Mon 2 Jan, 07:00"
    assert clock.date_label(7 * 3600 + 5 * 60 + 59) == "Mon 2 Jan, 07:05"
    assert clock.hhmm(86400 + 13 * 3600 + 30 * 60) == "13:30"
    assert clock.day_index(3 * 86400 - 1) == 2
    clock.pause()
    assert "paused" in clock.speed_label()


def test_lockstep_steps_exactly_and_ignores_speed():
    clock = LockstepClock(datetime(2025, 1, 2, 7, 0), step_s=60)
    for _ in range(90):
        assert clock.step() == 60
    assert clock.t == 25200 + 90 * 60
    assert clock.hhmm() == "08:30"
    clock.speed = 3000  # speed only affects wall/game conversion, never the step
    clock.step()
    assert clock.t == 25200 + 91 * 60
    assert clock.lockstep is True


def test_lockstep_many_small_steps_do_not_drift():
    clock = LockstepClock(datetime(2025, 1, 2), step_s=0.1)
    for _ in range(36000):
        clock.step()
    assert abs(clock.t - 3600.0) < 1e-9
    assert clock.hhmm() == "01:00"


def test_lockstep_wall_game_conversion_and_pause():
    clock = LockstepClock(datetime(2025, 1, 2, 7, 0), step_s=60, speed=300)
    assert clock.wall_to_game(20) == 6000  # a 20 wall-second lead is 100 game minutes at 300×
    assert clock.game_to_wall(900) == 3.0  # fifteen game-minutes are three wall-seconds
    assert clock.wall_per_step() == pytest.approx(0.2)
    clock.speed = 75
    assert clock.wall_to_game(20) == 1500
    clock.pause()
    assert clock.step() == 0.0
    assert clock.t == 25200


def test_lockstep_bad_step_is_a_clear_error():
    with pytest.raises(GarpError, match="step_s"):
        LockstepClock(datetime(2025, 1, 2), step_s=0)
