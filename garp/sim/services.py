"""The parts a Simulation is built from (see garp.sim.wiring.build), and their shutdown."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from garp.interfaces import Clock, EventSink, JobHandler, ModelScheduler, TextEmbedder
from garp.mind.agent import AgentMind


@dataclass
class Services:
    """Everything the simulation is built from; `closers` end them in reverse order."""

    scenario: Any  # garp.scenario.schema.Scenario
    log: Any  # garp.eventlog.EventLog (an EventSink that also keeps and closes the run's events)
    deferred: EventSink  # garp.sim.deferred.DeferredLog over `log`: what the cognition side logs through
    world: Any  # garp.world.world.World
    clock: Clock
    scheduler: ModelScheduler
    embedder: TextEmbedder
    store: Any  # garp.engine.memory_store.MemoryStore
    minds: dict[str, AgentMind]
    perception: Any  # garp.world.perception.Perception
    brain: JobHandler  # garp.sim.pipeline.Brain: the cognition handlers
    known_places: list[str]  # every place of the town (prompts, opening routines)
    switches: dict[str, bool]
    calls: Any  # garp.sim.wiring.CallSink
    closers: list[Any] = field(default_factory=list)
    run_dir: Any = None

    def close(self) -> None:
        for c in reversed(self.closers):
            try:
                c()
            except Exception:  # noqa: BLE001 — closing must finish even if one part fails
                pass
