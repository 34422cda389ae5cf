"""A character the player is interviewing stops and answers (main thread only).

While held, an agent stands where it was (a walk keeps its path), turned to the viewer, takes no
new decision, and results that would move it or end what it does wait; needs keep decaying but
its activity relieves nothing. When the answer is in, or the player closes its panel, it carries
on with the same activity for the same remaining time: the activity's times move by the pause.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from garp.mind.agent import AgentMind
from garp.sim.messages import Reply

ANSWERING = "answering your question"  # what the map label and the panel say while held


@dataclass
class Held:
    since_t: float  # game time the pause began
    facing: str     # the way the body faced before it turned to the viewer


class InterviewPause:
    """Who is held, since when; given the world it stops bodies in and the minds it pauses."""

    def __init__(self, world: Any, minds: dict[str, AgentMind]) -> None:
        self.world, self.minds = world, minds
        self._held: dict[str, Held] = {}

    def names(self) -> frozenset[str]:
        return frozenset(self._held)

    def holds(self, name: str) -> bool:
        return name in self._held

    def hold(self, name: str, t: float) -> None:
        """Stop the agent now (a second question while it answers changes nothing)."""
        if name not in self._held:
            self._held[name] = Held(t, self.world.hold(name))

    def release(self, name: str, t: float) -> None:
        """Carry on: the activity keeps its remaining time, a walk goes on."""
        held = self._held.pop(name, None)
        if held is None:
            return
        act = self.minds[name].activity
        act.start_t += t - held.since_t
        act.end_t += t - held.since_t
        self.world.let_go(name, held.facing)

    def waiting(self, replies: list[Reply]) -> set[int]:
        """Request ids whose results must wait for a held agent (every result of such a request
        waits, so they are applied together and in order)."""
        return {r.request_id for r in replies
                if r.agent in self._held or getattr(r.command, "partner", None) in self._held}
