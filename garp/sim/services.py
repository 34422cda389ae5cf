"""The parts a Simulation is built from (see garp.sim.wiring.build), and their shutdown."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from garp.mind.agent import AgentMind


@dataclass
class Services:
    """Everything the simulation is built from; `closers` end them in reverse order."""

    scenario: Any
    log: Any
    deferred: Any  # garp.sim.deferred.DeferredLog over `log`: what the cognition side logs through
    world: Any
    clock: Any
    scheduler: Any
    embedder: Any
    store: Any
    minds: dict[str, AgentMind]
    perception: Any
    brain: Any  # garp.sim.pipeline.Brain: the cognition handlers
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
