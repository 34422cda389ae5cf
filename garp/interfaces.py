"""The interfaces where subsystems meet, in one place (structural: any object with these
members fits). Concrete classes: garp.engine.scheduler.InferenceScheduler, garp.engine.embedder.Embedder,
garp.eventlog.EventLog / garp.sim.deferred.DeferredLog, garp.world.clock.GameClock,
garp.sim.pipeline.Brain. Nothing here imports the rest of garp, so every layer may use it.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable


@runtime_checkable
class EventSink(Protocol):
    """Where events go: the run's EventLog, or the deferring front the cognition side logs through."""

    def emit(self, kind: str, t: float, **fields: Any) -> dict[str, Any] | None: ...


@runtime_checkable
class ModelScheduler(Protocol):
    """The one owner of the language model (garp.engine.scheduler)."""

    choice_mode: str

    async def call(self, fn: Any, inputs: Any, *, agent: str, deadline: float | None = None,
                   game_time: float = 0.0, retrieved: list | None = None) -> tuple[Any, Any]: ...

    def deadline_in(self, seconds: float) -> float: ...

    def stats(self) -> dict[str, Any]: ...

    def set_focus(self, names: frozenset[str]) -> None: ...   # agents the player sees or selected


@runtime_checkable
class TextEmbedder(Protocol):
    def embed(self, texts: list[str]) -> Any: ...

    async def aembed(self, texts: list[str]) -> Any: ...


@runtime_checkable
class Clock(Protocol):
    """Game time as the main thread reads it (garp.world.clock)."""

    t: float
    speed: float

    def day_index(self, t: float | None = None) -> int: ...

    def date_label(self, t: float | None = None) -> str: ...

    def wall_to_game(self, wall_s: float) -> float: ...

    def game_to_wall(self, game_s: float) -> float: ...


@runtime_checkable
class JobContext(Protocol):
    """What a cognition job's code needs from the Brain that runs it (garp.sim.pipeline.Brain)."""

    scenario: Any
    scheduler: ModelScheduler
    minds: dict[str, Any]
    log: EventSink
    known_places: list[str]
    homes: dict[str, str]  # agent -> home place
    workplaces: dict[str, str | None]  # agent -> workplace
    free_at: dict[str, float]  # agent -> seconds of the day its working day ends (its routine)
    switches: dict[str, bool]
    hooks: Any  # garp.sim.hooks.SceneHooks
    phrasebook: Any  # garp.mind.phrasebook.Phrasebook: the town's lines said today
    sequential: bool

    def deadline(self) -> float | None: ...

    def now(self, job: Any) -> float: ...

    def talk_time(self, job: Any) -> float: ...

    def talk_composed(self, started_t: float) -> None: ...

    def commit(self, mind: Any, c: Any, t: float) -> Any: ...


@runtime_checkable
class JobHandler(Protocol):
    """Turns one job into the commands for the main thread (the cognition thread's handler)."""

    async def handle(self, job: Any) -> list[Any]: ...
