"""Game clocks: continuous (wall time × speed) for play, lockstep (fixed steps) for headless runs.

Game time `t` is a float of game seconds since midnight of the start date (ARCHITECTURE
conventions): a clock started at 07:00 begins at t = 25200, and day `d` starts at 86400·d.
"""

from __future__ import annotations

import bisect
from datetime import datetime, timedelta
from typing import Any

from garp.errors import GarpError
from garp.units import DAY_S

# --- tunables -----------------------------------------------------------------------------
# Default speed: game seconds per wall second; 300× = one wall-second is five game-minutes
# (paper III intro, IV-A).
DEFAULT_SPEED = 300.0
# Runtime speed ladder for faster()/slower() (× game seconds per wall second). 75× is the
# quarter speed the paper's party scenario runs at (IV-A); 150× doubles the inference budget.
SPEED_LADDER: tuple[float, ...] = (15.0, 30.0, 60.0, 75.0, 150.0, 300.0, 600.0, 1200.0, 3000.0)
# Lockstep step: game seconds advanced per headless step.
DEFAULT_STEP_S = 60.0


def _check_speed(speed: float) -> float:
    try:
        value = float(speed)
    except (TypeError, ValueError):
        raise GarpError(f"clock speed: {speed!r} is not a number; allowed: a number > 0 "
                        "(game seconds per wall second, e.g. 300)") from None
    if not value > 0 or value == float("inf"):
        raise GarpError(f"clock speed: {speed!r} is not allowed; allowed: a finite number > 0 "
                        "(game seconds per wall second, e.g. 300)")
    return value


class _ClockBase:
    """Read API shared by both clocks: game time → date, time of day and labels."""

    lockstep = False

    def __init__(self, start: datetime, speed: float = DEFAULT_SPEED) -> None:
        if not isinstance(start, datetime):
            raise GarpError(f"clock start: {start!r} is not a datetime; allowed: a date and time "
                            "such as 2025-01-02T07:00")
        self.start = start
        self.midnight = datetime(start.year, start.month, start.day, tzinfo=start.tzinfo)
        self.t = (start - self.midnight).total_seconds()
        self._speed = _check_speed(speed)
        self.paused = False

    # --- speed ----------------------------------------------------------------------------
    @property
    def speed(self) -> float:
        return self._speed

    @speed.setter
    def speed(self, value: float) -> None:
        self._speed = _check_speed(value)

    def faster(self) -> float:
        """Next ladder speed above the current one (stays at the top)."""
        i = bisect.bisect_right(SPEED_LADDER, self._speed)
        if i < len(SPEED_LADDER):
            self._speed = SPEED_LADDER[i]
        return self._speed

    def slower(self) -> float:
        """Next ladder speed below the current one (stays at the bottom)."""
        i = bisect.bisect_left(SPEED_LADDER, self._speed)
        if i > 0:
            self._speed = SPEED_LADDER[i - 1]
        return self._speed

    def game_to_wall(self, game_seconds: float) -> float:
        """Wall seconds that `game_seconds` of game time take at the current speed."""
        return game_seconds / self._speed

    def wall_to_game(self, wall_seconds: float) -> float:
        """Game seconds that pass in `wall_seconds` at the current speed (e.g. decision leads)."""
        return wall_seconds * self._speed

    # --- pause ----------------------------------------------------------------------------
    def pause(self) -> None:
        self.paused = True

    def resume(self) -> None:
        self.paused = False

    def toggle_pause(self) -> bool:
        self.paused = not self.paused
        return self.paused

    # --- save / restore ---------------------------------------------------------------------
    def state(self) -> dict[str, Any]:
        """Where the clock stands and how fast it runs (a save)."""
        return {"t": self.t, "speed": self._speed, "paused": self.paused}

    def restore(self, data: dict[str, Any]) -> None:
        self.t = float(data["t"])
        self._speed = _check_speed(data["speed"])
        self.paused = bool(data["paused"])

    # --- reading --------------------------------------------------------------------------
    def _t(self, t: float | None) -> float:
        return self.t if t is None else float(t)

    def datetime(self, t: float | None = None) -> datetime:
        return self.midnight + timedelta(seconds=self._t(t))

    def day_index(self, t: float | None = None) -> int:
        """0 on the start date, 1 the day after, ..."""
        return int(self._t(t) // DAY_S)

    def time_of_day_s(self, t: float | None = None) -> float:
        return self._t(t) % DAY_S

    def day_start(self, t: float | None = None) -> float:
        """Game time of the midnight that starts the day containing `t`."""
        return self.day_index(t) * DAY_S

    def hhmm(self, t: float | None = None) -> str:
        minutes = int(self.time_of_day_s(t) // 60)
        return f"{minutes // 60:02d}:{minutes % 60:02d}"

    def date_label(self, t: float | None = None) -> str:
        """E.g. 'Mon 2 Jan, 07:05'."""
        d = self.datetime(t)
        return f"{d:%a} {d.day} {d:%b}, {self.hhmm(t)}"

    def speed_label(self) -> str:
        shown = f"{self._speed:g}×"
        return f"{shown} (paused)" if self.paused else shown


class GameClock(_ClockBase):
    """Continuous clock: game time = wall time × speed, with pause, a speed ladder and a hold.

    A hold keeps the clock standing for up to a number of wall seconds while work the game
    cannot go on without is done (the town's first plans): unlike a pause it ends by itself,
    and `game_to_wall` counts what is left of it, so deadlines set meanwhile allow for it."""

    hold_left = 0.0  # wall seconds the clock still stands

    def hold(self, wall_s: float) -> None:
        self.hold_left = max(0.0, float(wall_s))

    def release(self) -> None:
        self.hold_left = 0.0

    @property
    def held(self) -> bool:
        return self.hold_left > 0

    def game_to_wall(self, game_seconds: float) -> float:
        """Wall seconds until `game_seconds` of game time have passed: the hold first."""
        return self.hold_left + game_seconds / self._speed

    def advance(self, wall_dt: float) -> float:
        """Add `wall_dt` wall seconds of play; returns the game seconds that passed (0 when paused
        or held; a hold runs out in wall time, paused or not)."""
        if wall_dt > 0 and self.hold_left > 0:
            used = min(self.hold_left, wall_dt)
            self.hold_left -= used
            wall_dt -= used
        if self.paused or wall_dt <= 0:
            return 0.0
        dt = wall_dt * self._speed
        self.t += dt
        return dt


class LockstepClock(_ClockBase):
    """Headless clock: `step()` advances exactly `step_s` game seconds, whatever the machine speed.

    `speed` is kept as the wall-per-step equivalent so leads given in wall seconds
    (e.g. start deciding 20 wall-seconds early, IV-A) convert to the same game time as in play.
    """

    lockstep = True

    def __init__(self, start: datetime, step_s: float = DEFAULT_STEP_S,
                 speed: float = DEFAULT_SPEED) -> None:
        super().__init__(start, speed)
        try:
            step = float(step_s)
        except (TypeError, ValueError):
            step = float("nan")
        if not step > 0 or step == float("inf"):
            raise GarpError(f"lockstep step_s: {step_s!r} is not allowed; allowed: a finite number "
                            "of game seconds > 0 (e.g. 60)")
        self.step_s = step
        self.steps = 0

    def state(self) -> dict[str, Any]:
        return {**super().state(), "steps": self.steps}

    def restore(self, data: dict[str, Any]) -> None:
        """The step count too: game time stays `start + steps·step_s`, as in an unbroken run."""
        super().restore(data)
        start_t = (self.start - self.midnight).total_seconds()
        self.steps = int(data.get("steps", round((self.t - start_t) / self.step_s)))  # a play save has none

    def step(self) -> float:
        """Advance one fixed step; returns the game seconds that passed (0 when paused)."""
        if self.paused:
            return 0.0
        self.steps += 1
        # Multiply rather than accumulate so long runs do not drift by float rounding.
        start_t = (self.start - self.midnight).total_seconds()
        self.t = start_t + self.steps * self.step_s
        return self.step_s

    def wall_per_step(self) -> float:
        """Wall seconds one step stands for at the equivalent speed."""
        return self.game_to_wall(self.step_s)
