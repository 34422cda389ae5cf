"""AgentMind: everything one character is and has in mind, in one object.

It composes the persona and its compiled personality, needs, the emotion system,
relationships, the agent's view of the memory store, the plan, the commitment book,
the last decision (for the Decisions panel), a ring buffer of recent model calls (for
the inspector) and the flags the simulation uses (busy, booked, interviewed).

Who writes what: the main thread owns needs, activity, flags, the plan copy and the mirrors
(`mood`, `emotion_view`, `relationship_view`, `commitment_view`); the cognition thread owns
memory, emotion, relationships and the commitment book, and reaches the main thread only
through commands (garp.sim.messages). Build a mind with garp.mind.factory.make_mind.
`to_dict` / `restore` round-trip the state for save and resume (garp.sim.savegame; memories live in
the run's MemoryStore, not here; `from_dict` builds a mind from a saved one).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from garp.mind.commitments import CommitmentBook
from garp.mind.news import EventKnowledge
from garp.mind.needs import Needs
from garp.mind.persona import Persona
from garp.mind.personality import CompiledPersonality, compile_personality, with_axis
from garp.mind.plan_repair import is_sleep

if TYPE_CHECKING:
    from garp.mind.emotion import EmotionSystem
    from garp.mind.memory import AgentMemory
    from garp.mind.plan_tree import PlanTree
    from garp.mind.relationships import Relationships

# --- tunables ---------------------------------------------------------------------------
RECENT_CALLS = 40  # CallRecords kept per agent for the inspector
RECENT_DECISIONS = 20  # decisions kept per agent for the Decisions panel
RECENT_MOODS = 50  # emotion changes kept per agent for the Emotions panel
SLEEP_VERBS = frozenset(("sleep", "nap"))  # uses of a bed or a sofa during which the agent is asleep


@dataclass
class Activity:
    """What the body is doing now, as the main thread sees it."""

    kind: str = "idle"  # idle | walk | use | chat | wait
    description: str = "idle"
    place: str = ""
    object_id: str = ""
    verb: str = ""
    start_t: float = 0.0
    end_t: float = 0.0  # game time the activity is planned to end
    effects: dict[str, float] = field(default_factory=dict)  # need relief over the whole activity

    def as_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


@dataclass
class EmotionMirror:
    """The main thread's copy of an agent's emotion: what the panels read."""

    current: Any = None  # garp.mind.emotion.EmotionState
    history: deque[Any] = field(default_factory=lambda: deque(maxlen=RECENT_MOODS))

    def record(self, state: Any) -> None:
        self.current = state
        self.history.append(state)


def _emotion_state(emotion: Any) -> dict[str, Any] | None:
    if emotion is None:
        return None
    return {"current": emotion.current.model_dump(mode="json"), "baseline": emotion.baseline.model_dump(mode="json"),
            "history": [h.model_dump(mode="json") for h in emotion.history], "enabled": emotion.enabled}


def _relationship_state(rels: Any) -> dict[str, Any] | None:
    if rels is None:
        return None
    return {name: r.model_dump(mode="json") for name, r in rels.by_name.items()}


class AgentMind:
    def __init__(self, persona: Persona, *, needs_enabled: bool = True, traits: str | None = None) -> None:
        self.persona = persona
        self.name = persona.name
        self.base_traits = persona.traits  # the persona file's line (before any slider edit)
        self.traits = persona.traits if traits is None else traits
        self.personality: CompiledPersonality = compile_personality(persona, self.traits)
        self.needs = Needs(self.personality.need_rates, enabled=needs_enabled)
        self.commitments = CommitmentBook(self.name)
        self.events = EventKnowledge(self.name)  # events known and whom they were told (cognition side)
        self.household: tuple[str, ...] = ()  # the rest of the cast whose persona files give the same home
        # Cognition-owned subsystems, filled in by garp.mind.factory.make_mind (or from_dict).
        self.emotion: EmotionSystem | None = None
        self.relationships: Relationships | None = None
        self.memory: AgentMemory | None = None
        self.plan: PlanTree | None = None  # main thread's copy of the current day's plan
        self.plan_serial = 0  # which of the planner's trees `plan` is a copy of
        self.activity = Activity(place=persona.home)
        self.resume: Activity | None = None  # the use a talk paused, taken up again when the talk ends
        self.last_decision: dict[str, Any] | None = None
        self.decisions: deque[dict[str, Any]] = deque(maxlen=RECENT_DECISIONS)
        self.calls: deque[Any] = deque(maxlen=RECENT_CALLS)
        # flags
        self.booked_by: str | None = None  # conversation id while in a conversation
        self.interviewed = False
        self.pending: dict[str, int] = {}  # job kind -> outstanding request id
        self.planned_day: int = -1  # last day index a day plan was asked for
        self.wants_fresh_plan = False  # a replan was offered: the next day plan is made anew
        # main-thread mirrors of cognition-owned state, updated only by applied commands
        self.mood: dict[str, Any] = {"label": "neutral", "valence": 0.0, "intensity": 0.0, "text": "calm"}
        self.emotion_view = EmotionMirror()
        self.relationship_view: dict[str, Any] = {}  # name -> Relationship copy
        self.commitment_view: dict[str, Any] = {}

    # --- flags ---------------------------------------------------------------------------
    @property
    def booked(self) -> bool:
        return self.booked_by is not None

    @property
    def busy(self) -> bool:
        """Busy = cannot take a new conversation or interruption right now."""
        return self.booked or self.interviewed

    def asleep(self, t: float, place: str) -> bool:
        """Sleeping or napping, or at home between two sleeps while the plan says sleep: no one to chat
        with (housemates had struck up talks across the bedroom at 06:17 and gone back to bed)."""
        if self.activity.kind == "use":
            return self.activity.verb in SLEEP_VERBS
        node = self.plan.current(t) if self.plan is not None else None
        return self.activity.kind != "walk" and node is not None and is_sleep(node.description) \
            and place == self.persona.home

    # --- personality ----------------------------------------------------------------------
    def set_traits(self, traits: str) -> CompiledPersonality:
        """Main-thread half of a traits change: re-derive everything the traits drive from the
        persona's pre-trait base values; the compiled personality is an immutable value."""
        self.personality = compile_personality(self.persona, traits)
        self.traits = traits
        self.needs.set_rates(self.personality.need_rates)
        return self.personality

    def adopt_personality(self, personality: CompiledPersonality) -> None:
        """Cognition-thread half: the parts of the mind that think with the personality."""
        if self.relationships is not None:  # warmth scaling reads the compiled personality
            self.relationships.personality = personality
        if self.memory is not None:  # poignancy prompts carry the temperament sentence
            self.memory.personality_text = personality.personality_text

    def traits_with(self, axis: str, value: float) -> str:
        """The traits line with one axis moved (a persona slider)."""
        return with_axis(self.traits, axis, value)

    # --- mirrors ------------------------------------------------------------------------------
    def refresh_mirrors(self) -> None:
        """Copy cognition-owned state into the main thread's mirrors; only while no cognition
        thread runs (building, restoring, tests). Afterwards commands keep them current."""
        if self.emotion is not None:
            self.emotion_view = EmotionMirror(self.emotion.current.model_copy(), deque(
                (h.model_copy() for h in self.emotion.history), maxlen=RECENT_MOODS))
            self.mood = {"label": self.emotion.current.label, "valence": self.emotion.current.valence,
                         "intensity": self.emotion.current.intensity, "text": self.emotion.describe()}
        if self.relationships is not None:
            self.relationship_view = {n: r.model_copy(deep=True) for n, r in self.relationships.by_name.items()}

    # --- records ----------------------------------------------------------------------------
    def record_decision(self, decision: dict[str, Any]) -> None:
        self.last_decision = decision
        self.decisions.append(decision)

    def record_call(self, record: Any) -> None:
        self.calls.append(record)

    # --- save / restore ------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """Everything this mind holds as JSON values: the main thread's half and the cognition
        thread's half (take it where neither is changing, e.g. with the cognition thread idle)."""
        return {"name": self.name, **self.main_state(), **self.cognition_state()}

    def main_state(self) -> dict[str, Any]:
        return {
            "traits": self.traits,
            "needs": {"values": dict(self.needs.values), "rates": dict(self.needs.rates),
                      "enabled": self.needs.enabled},
            "plan": self.plan.to_dict() if self.plan is not None else None,
            "plan_serial": self.plan_serial,
            "activity": self.activity.as_dict(),
            "last_decision": self.last_decision,
            "decisions": list(self.decisions),
            "calls": [c.to_dict() for c in self.calls],
            "booked_by": self.booked_by,
            "interviewed": self.interviewed,
            "pending": dict(self.pending),
            "planned_day": self.planned_day,
            "wants_fresh_plan": self.wants_fresh_plan,
            "mood": dict(self.mood),
            "emotion_view": [h.model_dump(mode="json") for h in self.emotion_view.history],
            "relationship_view": {n: r.model_dump(mode="json") for n, r in self.relationship_view.items()},
            "commitment_view": [c.model_dump(mode="json") for c in self.commitment_view.values()],
        }

    def cognition_state(self) -> dict[str, Any]:
        return {
            "commitments": self.commitments.to_dict(),
            "events": self.events.state(),
            "emotion": _emotion_state(self.emotion),
            "relationships": _relationship_state(self.relationships),
            "memory": self.memory.state() if self.memory is not None else None,
        }

    @classmethod
    def from_dict(cls, persona: Persona, data: dict[str, Any]) -> "AgentMind":
        """A saved mind, built anew (memory is re-attached by the caller: it lives in the store)."""
        from garp.mind.emotion import EmotionSystem
        from garp.mind.relationships import Relationships
        mind = cls(persona, traits=data.get("traits"), needs_enabled=data["needs"].get("enabled", True))
        if data.get("emotion") is not None:
            mind.emotion = EmotionSystem.for_persona(persona, enabled=data["emotion"].get("enabled", True))
        if data.get("relationships") is not None:
            mind.relationships = Relationships(mind.name, mind.personality)
        mind.restore(data)
        return mind

    def restore(self, data: dict[str, Any]) -> None:
        """Put a built mind (garp.mind.factory.make_mind) back as `to_dict` saw it. The commitment
        book is filled in place: the planner holds the same book."""
        if data.get("traits") and data["traits"] != self.traits:
            self.adopt_personality(self.set_traits(data["traits"]))
        self.needs.values.update(data["needs"]["values"])
        self.needs.rates.update(data["needs"]["rates"])
        self.commitments.restore(data["commitments"])
        self.events.restore(data.get("events") or {})
        _restore_emotion(self.emotion, data.get("emotion"))
        _restore_relationships(self.relationships, data.get("relationships"))
        if self.memory is not None and data.get("memory") is not None:
            self.memory.restore(data["memory"])
        self._restore_main(data)

    def _restore_main(self, data: dict[str, Any]) -> None:
        from garp.engine.lmfunction import CallRecord
        from garp.mind.plan_tree import PlanTree
        self.plan = PlanTree.from_dict(data["plan"]) if data.get("plan") else None
        self.plan_serial = int(data.get("plan_serial", 0))
        self.activity = Activity(**data["activity"])
        self.last_decision = data.get("last_decision")
        self.decisions.clear()
        self.decisions.extend(data.get("decisions", []))
        self.calls.clear()
        self.calls.extend(CallRecord(**c) for c in data.get("calls", []))
        self.booked_by = data.get("booked_by")
        self.interviewed = bool(data.get("interviewed", False))
        self.pending = {k: int(v) for k, v in data.get("pending", {}).items()}
        self.planned_day = int(data.get("planned_day", -1))
        self.wants_fresh_plan = bool(data.get("wants_fresh_plan", False))
        self.refresh_mirrors()  # then the mirrors as the main thread last saw them (commands may lag)
        self.mood.update(data.get("mood") or {})
        self._restore_views(data)

    def _restore_views(self, data: dict[str, Any]) -> None:
        from garp.mind.commitments import Commitment
        from garp.mind.emotion import EmotionState
        from garp.mind.relationships import Relationship
        if "emotion_view" in data:
            history = [EmotionState.model_validate(h) for h in data["emotion_view"]]
            self.emotion_view = EmotionMirror(history[-1] if history else None, deque(history, maxlen=RECENT_MOODS))
        if "relationship_view" in data:
            self.relationship_view = {n: Relationship.model_validate(r) for n, r in data["relationship_view"].items()}
        views = data.get("commitment_view")
        if views is None:
            self.commitment_view = {c.id: c for c in self.commitments.all()}
        else:
            self.commitment_view = {c.id: c for c in (Commitment.model_validate(v) for v in views)}


def _restore_emotion(emotion: Any, data: dict[str, Any] | None) -> None:
    from garp.mind.emotion import EmotionState
    if emotion is None or data is None:
        return
    emotion.enabled = data.get("enabled", True)
    if data.get("baseline") is not None:
        emotion.baseline = EmotionState.model_validate(data["baseline"])
    emotion.history.clear()
    emotion.history.extend(EmotionState.model_validate(h) for h in data["history"])
    emotion.current = EmotionState.model_validate(data["current"])


def _restore_relationships(rels: Any, data: dict[str, Any] | None) -> None:
    from garp.mind.relationships import Relationship
    if rels is not None and data is not None:
        rels.by_name = {n: Relationship.model_validate(r) for n, r in data.items()}
