"""What crosses the thread boundary: one frozen class per job kind and per command kind.

A `Job` goes from the main thread to the cognition thread; it carries the game time it
was asked at and the game time its answer is due (once), plus snapshots of main-thread
state (copies, never live objects), so a job's inputs are fixed when it is asked. A
`Command` comes back: a validated result for the main thread to apply. The cognition
thread wraps each in a `Reply` tagged with the job's request id, asked-at and due times.
Each class's `kind` is the name the event log and the pending-request table use.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

# ---------------------------------------------------------------- snapshots


@dataclass(frozen=True, kw_only=True)
class BodySnapshot:
    """Where a body stood when the job was asked."""

    x: float
    y: float
    place: str
    room: str | None


@dataclass(frozen=True, kw_only=True)
class NeedsSnapshot:
    """An agent's needs when the job was asked (values and rates are copies)."""

    values: dict[str, float]
    rates: dict[str, float]
    urgent: str  # the urgent needs as prompt text ("" when none)
    summary: str


@dataclass(frozen=True, kw_only=True)
class UsingSnapshot:
    """The object activity a decision may carry on with (IV-B continuation)."""

    object_id: str
    verb: str
    plan_item: str
    carried_on: int  # decisions in a row that already carried on


@dataclass(frozen=True, kw_only=True)
class ChosenUse:
    """An object use a recent decision chose, and the plan item it was chosen for."""

    plan_item: str
    object_id: str
    verb: str
    duration_min: float  # the affordance's natural length


@dataclass(frozen=True, kw_only=True)
class Meeting:
    """An arranged meeting a conversation is held for."""

    what: str
    host: str


# ---------------------------------------------------------------- jobs (main -> cognition)


@dataclass(frozen=True, kw_only=True)
class Job:
    kind: ClassVar[str] = ""
    agent: str
    asked_t: float  # game time the main thread asked at
    due_t: float  # game time the answer is needed by (lockstep applies it then)

    def others(self) -> tuple[str, ...]:
        """Other agents whose minds this job writes to (a conversation's partner)."""
        return ()


@dataclass(frozen=True, kw_only=True)
class SeedJob(Job):
    kind: ClassVar[str] = "seed"


@dataclass(frozen=True, kw_only=True)
class PlanDayJob(Job):
    kind: ClassVar[str] = "plan_day"
    day: int
    fresh: bool  # a replan was offered: make the day anew even if one exists
    needs: NeedsSnapshot
    body: BodySnapshot
    first_decision_t: float  # game time the first decision is for (its decompositions go with the plan)


@dataclass(frozen=True, kw_only=True)
class DecideJob(Job):
    kind: ClassVar[str] = "decide"
    objects: tuple[Any, ...]  # WorldObject copies within reach
    body: BodySnapshot
    needs: NeedsSnapshot
    current: str  # the activity's description
    using: UsingSnapshot | None
    recent_uses: tuple[ChosenUse, ...]  # the uses recent decisions chose, latest first
    company_at: str | None  # the home where the agent keeps others company now (requests.company_home)
    friend_out: bool  # at a visit's house and the friend is not there
    company_rooms: tuple[str, ...]  # rooms others occupy at the agent's place
    visited: tuple[str, ...]  # places already visited on the decision's day, in order


@dataclass(frozen=True, kw_only=True)
class PerceiveJob(Job):
    kind: ClassVar[str] = "perceive"
    notes: tuple[str, ...]
    appraise: bool
    place: str
    needs: NeedsSnapshot


@dataclass(frozen=True, kw_only=True)
class ConverseJob(Job):
    kind: ClassVar[str] = "converse"
    partner: str
    chat_id: str
    place: str
    bodies: dict[str, BodySnapshot]
    activities: dict[str, str]
    clock_label: str
    meeting: Meeting | None = None
    doings: tuple[dict[str, Any], ...] = ()  # the log's day events (garp.mind.day_record), read on the cognition side

    def others(self) -> tuple[str, ...]:
        return (self.partner,)


# ---------------------------------------------------------------- commands (cognition -> main)


@dataclass(frozen=True, kw_only=True)
class Command:
    kind: ClassVar[str] = ""
    agent: str


@dataclass(frozen=True, kw_only=True)
class LogEvents(Command):
    """Events the job emitted, written when its results are applied (garp.sim.deferred)."""

    kind: ClassVar[str] = "log"
    events: tuple[dict[str, Any], ...]


@dataclass(frozen=True, kw_only=True)
class CallRecords(Command):
    kind: ClassVar[str] = "calls"
    records: tuple[Any, ...]  # garp.engine.lmfunction.CallRecord


@dataclass(frozen=True, kw_only=True)
class SetPlan(Command):
    """A new or changed day plan; `tree` is a copy the main thread owns."""

    kind: ClassVar[str] = "set_plan"
    tree: Any  # garp.mind.plan_tree.PlanTree
    day: int
    serial: int  # which of the planner's trees this is a copy of


@dataclass(frozen=True, kw_only=True)
class PlanMirror(Command):
    """The plan as the job left it (decompositions, commitments put in): refreshes the main
    thread's copy only when it is a copy of the same tree (`serial`)."""

    kind: ClassVar[str] = "plan_mirror"
    tree: Any
    serial: int


@dataclass(frozen=True, kw_only=True)
class Do(Command):
    kind: ClassVar[str] = "do"
    description: str
    place: str | None
    duration_s: float
    decision: dict[str, Any]
    object_id: str = ""
    verb: str = ""
    effects: dict[str, float] | None = None


@dataclass(frozen=True, kw_only=True)
class EmotionChanged(Command):
    kind: ClassVar[str] = "emotion"
    label: str
    intensity: float
    valence: float
    text: str
    cause: str
    t: float
    state: Any  # garp.mind.emotion.EmotionState copy, for the main thread's mirror


@dataclass(frozen=True, kw_only=True)
class RelationshipsChanged(Command):
    """Copies of the agent's relationships after a job changed them (the panels' mirror)."""

    kind: ClassVar[str] = "relationships"
    by_name: dict[str, Any]  # name -> garp.mind.relationships.Relationship copy


@dataclass(frozen=True, kw_only=True)
class CommitmentMade(Command):
    kind: ClassVar[str] = "commitment"
    commitment: Any  # garp.mind.commitments.Commitment copy
    t: float


@dataclass(frozen=True, kw_only=True)
class ChatHeld(Command):
    kind: ClassVar[str] = "chat"
    partner: str
    lines: tuple[tuple[str, str], ...]  # (speaker, text)
    chat_id: str
    place: str
    composed_t: float = 0.0  # game s the lines were composed for (play shows them when they arrive)
    news: bool = False  # a line told an event (an invitation or news passed on)


@dataclass(frozen=True, kw_only=True)
class JobFailed(Command):
    kind: ClassVar[str] = "failed"
    where: str
    message: str


@dataclass(frozen=True, kw_only=True)
class JobDone(Command):
    kind: ClassVar[str] = "done"
    partner: str | None = None


@dataclass(frozen=True)
class Reply:
    """A command as the main thread receives it: tagged with the job it answers."""

    command: Command
    request_id: int
    asked_t: float
    due_t: float
    job_kind: str

    @property
    def agent(self) -> str:
        return self.command.agent

