"""AgentMind: everything one character is and has in mind, in one object.

It composes the persona and its compiled personality, needs, the emotion system,
relationships, the agent's view of the memory store, the plan, the commitment book,
the last decision (for the Decisions panel), a ring buffer of recent model calls (for
the inspector) and the flags the simulation uses (busy, booked, interviewed).

The main thread owns the mutable state here; the cognition thread reads snapshots and
sends back commands. `to_dict`/`from_dict` round-trip the state for save and restore
(memories live in the run's MemoryStore, not here).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Any

from garp.mind.commitments import CommitmentBook
from garp.mind.needs import Needs
from garp.mind.persona import Persona
from garp.mind.personality import CompiledPersonality, compile_personality, with_axis

# --- tunables ---------------------------------------------------------------------------
RECENT_CALLS = 40  # CallRecords kept per agent for the inspector
RECENT_DECISIONS = 20  # decisions kept per agent for the Decisions panel
RECENT_MOODS = 50  # emotion changes kept per agent for the Emotions panel


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


def _emotion_state(emotion: Any) -> dict[str, Any] | None:
    if emotion is None:
        return None
    return {"current": emotion.current.model_dump(), "history": [h.model_dump() for h in emotion.history],
            "enabled": emotion.enabled}


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
        # Subsystem objects attached by the simulation (their modules own their types).
        self.emotion: Any = None
        self.relationships: Any = None
        self.memory: Any = None
        self.plan: Any = None  # plan tree of the current day (garp.mind.plan_tree)
        self.plan_serial = 0  # which of the planner's trees `plan` is a copy of
        self.activity = Activity(place=persona.home)
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
        self.mood_history: deque[dict[str, Any]] = deque(maxlen=RECENT_MOODS)
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

    # --- personality ----------------------------------------------------------------------
    def set_traits(self, traits: str) -> None:
        """Re-derive everything the traits drive from the persona's pre-trait base values."""
        self.personality = compile_personality(self.persona, traits)
        self.traits = traits
        self.needs.set_rates(self.personality.need_rates)
        if self.relationships is not None:  # warmth scaling reads the compiled personality
            self.relationships.personality = self.personality
        if self.memory is not None:  # poignancy prompts carry the temperament sentence
            self.memory.personality_text = self.personality.personality_text

    def set_trait(self, axis: str, value: float) -> str:
        self.set_traits(with_axis(self.traits, axis, value))
        return self.traits

    # --- records ----------------------------------------------------------------------------
    def record_decision(self, decision: dict[str, Any]) -> None:
        self.last_decision = decision
        self.decisions.append(decision)

    def record_call(self, record: Any) -> None:
        self.calls.append(record)

    # --- save / restore ------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "traits": self.traits,
            "needs": {"values": dict(self.needs.values), "rates": dict(self.needs.rates),
                      "enabled": self.needs.enabled},
            "commitments": self.commitments.to_dict(),
            "emotion": _emotion_state(self.emotion),
            "relationships": _relationship_state(self.relationships),
            "plan": self.plan.to_dict() if self.plan is not None else None,
            "activity": self.activity.as_dict(),
            "last_decision": self.last_decision,
            "decisions": list(self.decisions),
            "booked_by": self.booked_by,
            "interviewed": self.interviewed,
            "planned_day": self.planned_day,
            "mood": dict(self.mood),
        }

    @classmethod
    def from_dict(cls, persona: Persona, data: dict[str, Any]) -> "AgentMind":
        """Restore a saved mind (memory is re-attached by the caller: it lives in the store)."""
        from garp.mind.emotion import EmotionState, EmotionSystem
        from garp.mind.plan_tree import PlanTree
        from garp.mind.relationships import Relationship, Relationships

        mind = cls(persona, traits=data.get("traits"), needs_enabled=data["needs"].get("enabled", True))
        mind.needs.values.update(data["needs"]["values"])
        mind.needs.rates.update(data["needs"]["rates"])
        mind.commitments = CommitmentBook.from_dict(data["commitments"])
        emo = data.get("emotion")
        if emo is not None:
            mind.emotion = EmotionSystem.for_persona(persona, enabled=emo.get("enabled", True))
            mind.emotion.history.clear()
            mind.emotion.history.extend(EmotionState.model_validate(h) for h in emo["history"])
            mind.emotion.current = EmotionState.model_validate(emo["current"])
        rels = data.get("relationships")
        if rels is not None:
            mind.relationships = Relationships(mind.name, mind.personality)
            mind.relationships.by_name = {n: Relationship.model_validate(r) for n, r in rels.items()}
        mind.plan = PlanTree.from_dict(data["plan"]) if data.get("plan") else None
        mind.activity = Activity(**data["activity"])
        mind.last_decision = data.get("last_decision")
        mind.decisions.extend(data.get("decisions", []))
        mind.booked_by = data.get("booked_by")
        mind.interviewed = bool(data.get("interviewed", False))
        mind.planned_day = int(data.get("planned_day", -1))
        mind.mood.update(data.get("mood") or {})
        mind.commitment_view = {c.id: c for c in mind.commitments.all()}
        return mind
