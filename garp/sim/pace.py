"""A clock speed the model can keep up with (issue 17 §4).

`garp play` without `--speed` starts at the speed a measured throughput can serve for the
scene's cast; while playing, the scheduler's measured load says what speed would keep up.
"""

from __future__ import annotations

from dataclasses import dataclass

# What one agent asks of the model per game hour, in the unit the start-up probe measures
# (InferenceScheduler.measure_tok_s: completion tokens per wall second on requests of the town's
# mix): the tokens the probe would make in the machine time, generation and option scoring both,
# that one agent-hour of the 20-agent town took. Measured by benchmarks/town_load.py with live
# replies (its `demand_tok_per_agent_hour`): 125 at x10 and 132 at x20 before an interview's
# scoring went first and the embedder took one compute turn per list, 80 at x20 and 75 at x30
# after; 95 keeps a fifth above the higher of those, and the default it gives (x35 at 23.6 tok/s)
# measured 84 (it was 220 generated tokens when every text was generated, before ranking).
DEMAND_TOK_PER_AGENT_HOUR = 95.0
TARGET_LOAD = 0.8   # share of the throughput planned for: bursts (everyone's morning plan) need the rest
MIN_SPEED = 10.0    # slower than a game day in 2.4 wall hours is no longer a town to watch
SPEED_STEP = 5.0    # speeds are rounded down to a multiple of this (x30, not x31.7)


def sustainable_speed(tok_s: float, agents: int, *, ceiling: float,
                      demand: float = DEMAND_TOK_PER_AGENT_HOUR) -> float:
    """The clock speed whose demand is TARGET_LOAD of `tok_s`, between MIN_SPEED and `ceiling`
    (the scene's own speed: a small cast never runs faster than its author set)."""
    if tok_s <= 0 or agents <= 0:
        return max(MIN_SPEED, min(ceiling, MIN_SPEED))
    speed = TARGET_LOAD * tok_s * 3600.0 / (agents * demand)
    speed = SPEED_STEP * (speed // SPEED_STEP) if speed >= SPEED_STEP else speed
    return max(MIN_SPEED, min(ceiling, speed))


def keep_up_speed(speed: float, load: float) -> float:
    """The speed at which the demand measured at `speed` (machine s per wall s) is TARGET_LOAD:
    demand scales with game time per wall second."""
    if load <= 0:
        return speed
    fitted = speed * TARGET_LOAD / load
    return max(1.0, SPEED_STEP * (fitted // SPEED_STEP) if fitted >= SPEED_STEP else round(fitted))


@dataclass(frozen=True)
class StartPace:
    """How the starting speed was chosen, for the terminal and the HUD."""

    speed: float
    tok_s: float
    agents: int
    computed: float  # before clamping
    ceiling: float   # the scene's own speed, which it never exceeds

    def describe(self) -> str:
        why = (f"the model made {self.tok_s:.0f} tok/s, enough for {self.agents} agents at "
               f"x{self.computed:.1f}")  # not rounded: "about x30, rounded down to x25" read as a contradiction
        if self.computed < self.speed:
            why += f"; x{MIN_SPEED:g} is the slowest start"
        elif self.speed == self.ceiling < round(self.computed):
            why += f"; x{self.speed:g} is the scene's own speed"
        elif self.speed < round(self.computed):
            why += f", rounded down to a step of x{SPEED_STEP:g}"
        return f"clock x{self.speed:g}: {why} (press [ or ] to change)"


def start_pace(tok_s: float, agents: int, ceiling: float) -> StartPace:
    computed = TARGET_LOAD * tok_s * 3600.0 / (max(agents, 1) * DEMAND_TOK_PER_AGENT_HOUR)
    return StartPace(sustainable_speed(tok_s, agents, ceiling=ceiling), tok_s, agents, computed, ceiling)
