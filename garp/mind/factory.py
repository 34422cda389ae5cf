"""The one way to build a complete AgentMind: the game (garp.sim.wiring), the terminal
interview (garp.game.interview_cli) and the tests all use `make_mind`."""

from __future__ import annotations

from typing import Any

from garp.mind.agent import AgentMind
from garp.mind.emotion import EmotionSystem
from garp.mind.memory import AgentMemory
from garp.mind.persona import Persona
from garp.mind.relationships import Relationships, SceneHooks


def make_mind(persona: Persona, *, store: Any, embedder: Any, scheduler: Any, t: float, needs: bool = True,
              emotions: bool = True, rel_hooks: SceneHooks | None = None, score_inline: bool = False,
              start_needs: dict[str, float] | None = None, seed_memories: bool = True,
              household: tuple[str, ...] = ()) -> AgentMind:
    """A mind with its emotion, relationships (seeded from the persona) and memory (seeded unless
    `seed_memories` is off, e.g. when a saved store already holds them), mirrors filled in.
    `score_inline` scores poignancy before `remember` returns (lockstep runs)."""
    mind = AgentMind(persona, needs_enabled=needs)
    mind.household = household
    mind.emotion = EmotionSystem.for_persona(persona, enabled=emotions, t=t)
    mind.relationships = Relationships(persona.name, mind.personality, rel_hooks)
    mind.relationships.seed(persona)
    mind.needs.values.update(start_needs or {})
    mind.memory = AgentMemory(persona.name, store, embedder, scheduler,
                              personality_text=mind.personality.personality_text, score_inline=score_inline)
    if seed_memories:
        mind.memory.seed(persona, t)  # before any loop runs: a sync embed never blocks one
    mind.refresh_mirrors()
    return mind
