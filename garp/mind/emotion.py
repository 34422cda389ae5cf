"""Emotion: appraisal by the model, a history of 20 states, contagion, consolidation (paper III-A3).

The model appraises salient events from the personality (with its temperament sentence),
the appraisal-coupling rule, the baseline, the situation plus the needs summary, and the
recent trajectory. Code clamps its reply; any failure keeps the current state, relaxed a
little toward the baseline. With the system switched off the state stays at the baseline.
"""

from __future__ import annotations

import re
from collections import deque
from dataclasses import dataclass, field
from typing import Annotated, Iterable

from pydantic import BaseModel, Field, StringConstraints

from garp.engine.lmfunction import CallRecord, LMFunction, chat
from garp.mind.persona import EMOTION_LABELS, EmotionalBaseline, EmotionLabel

# --- tunables (paper III-A3) ----------------------------------------------------------
HISTORY_SIZE = 20                # rolling history of states
TRAJECTORY_SHOWN = 4             # recent states put in the appraisal prompt (our default)
APPRAISAL_TEMPERATURE = 0.4      # paper gives no value; mild variety between characters (ours)
FALLBACK_RELAX = 0.1             # fraction of the way back to baseline when appraisal fails (ours)
CONTAGION_CAP = 0.1              # max valence nudge per conversation
CONTAGION_PER_KEYWORD = 0.05     # nudge per net emotional keyword before closeness scaling (ours)
CONSOLIDATION_MIN_INTENSITY = 0.6  # memories above this get more stability during reflection
CONSOLIDATION_BOOST = 0.5        # stability gain per reflection (ours), capped at STABILITY_CAP
STABILITY_CAP = 5.0              # Ebbinghaus sigma upper bound (III-A2)
WITHDRAWN_LABELS = {"sad", "anxious", "guilty", "frustrated", "angry"}  # chat initiation (III-A3 (5))
WITHDRAWN_VALENCE = -0.3         # ... when also this unpleasant
WITHDRAWN_INTENSITY = 0.5        # ... and at least this strong
WITHDRAWN_CHAT_FACTOR = 0.5      # multiplier on chat probability while withdrawn (ours)
DESCRIPTION_CHARS = 100          # longer descriptions are cut at a word boundary by `check`
# Anchored pattern (the grammar supports it): a capitalised sentence of at least two words,
# bounded so a rambling model still closes the JSON within max_tokens.
DESCRIPTION_PATTERN = r"^[A-Z][a-z']* [^\"\\\n]{3,80}$"

POSITIVE_LABELS = {"content", "joyful", "excited", "grateful", "hopeful"}
NEGATIVE_LABELS = {"bored", "lonely", "sad", "anxious", "frustrated", "angry", "guilty"}

POSITIVE_WORDS = {
    "happy", "glad", "great", "wonderful", "love", "lovely", "excited", "thanks", "thank", "fun",
    "amazing", "proud", "hope", "delighted", "joy", "laugh", "beautiful", "nice", "awesome",
    "fantastic", "cheerful", "grateful", "relieved", "enjoy", "brilliant", "welcome", "congratulations",
}
NEGATIVE_WORDS = {
    "sad", "worried", "worry", "afraid", "scared", "angry", "upset", "lonely", "hate", "awful",
    "terrible", "nervous", "anxious", "miserable", "annoyed", "hurt", "cry", "stress", "stressed",
    "frustrated", "guilty", "disappointed", "tired", "horrible", "fear", "sorry",
}
_WORD = re.compile(r"[a-z']+")


class EmotionState(BaseModel):
    """One emotional state: categorical label plus dimensional intensity/valence."""

    label: EmotionLabel = "neutral"
    intensity: float = Field(0.0, ge=0.0, le=1.0)
    valence: float = Field(0.0, ge=-1.0, le=1.0)
    description: str = ""
    t: float = 0.0
    cause: str = ""

    @classmethod
    def from_baseline(cls, b: EmotionalBaseline, t: float = 0.0) -> "EmotionState":
        return cls(label=b.label, intensity=b.intensity, valence=b.valence, description=b.description,
                   t=t, cause="baseline")

    def short(self) -> str:
        return f"{self.label} ({self.intensity:.1f})"


class EmotionReply(BaseModel):
    """The model's appraisal. The description comes first so the small model states the
    situation before naming a label (it then picks more fitting labels). No numeric bounds
    in the schema (the grammar cannot enforce them); `EmotionAppraisal.check` clamps."""

    description: Annotated[str, StringConstraints(pattern=DESCRIPTION_PATTERN)]
    label: EmotionLabel
    intensity: float
    valence: float


@dataclass
class AppraisalInputs:
    name: str
    personality_text: str
    appraisal_rule: str
    baseline: EmotionState
    current: EmotionState
    situation: str
    needs_summary: str = ""
    trajectory: list[EmotionState] = field(default_factory=list)


def _cut(text: str, limit: int) -> str:
    """Shorten to at most `limit` characters, at a word boundary."""
    return text if len(text) <= limit else text[:limit].rsplit(" ", 1)[0]


def _fits(text: str) -> bool:
    return re.match(DESCRIPTION_PATTERN, text) is not None


def _clamp(v: float, lo: float, hi: float) -> float:
    return max(lo, min(hi, float(v)))


class EmotionAppraisal(LMFunction[AppraisalInputs, EmotionReply]):
    name = "emotion_appraisal"
    value = "appraisal"
    Output = EmotionReply
    priority = 5
    temperature = APPRAISAL_TEMPERATURE
    max_tokens = 110  # label + two numbers + an 80-character sentence (+ reasoning field)

    def messages(self, inputs: AppraisalInputs, reasoning: bool) -> list[dict]:
        system = (
            "You judge how a character feels right now. Reply with JSON: description (one short sentence "
            f"on how they feel and why), label (one of {', '.join(EMOTION_LABELS)}), intensity from 0 "
            "(faint) to 1 (overwhelming), and valence from -1 (very unpleasant) to 1 (very pleasant). "
            + inputs.appraisal_rule)
        trail = ", ".join(s.short() for s in inputs.trajectory) or "none"
        b = inputs.baseline
        user = "\n".join([
            f"Character: {inputs.personality_text}",
            f"Usual mood: {b.label}. {b.description}".strip(),
            f"Recent feelings, oldest first: {trail}",
            f"Current feeling: {inputs.current.short()}. {inputs.current.description}".strip(),
            f"What just happened: {inputs.situation} {inputs.needs_summary}".strip(),
            f"How does {inputs.name} feel now?",
        ])
        return chat(system, user)

    def fallback(self, inputs: AppraisalInputs) -> EmotionReply:
        c, b = inputs.current, inputs.baseline
        return EmotionReply(
            label=c.label,
            intensity=round(c.intensity + (b.intensity - c.intensity) * FALLBACK_RELAX, 4),
            valence=round(c.valence + (b.valence - c.valence) * FALLBACK_RELAX, 4),
            description=c.description if _fits(c.description) else f"{inputs.name} feels {c.label}.")

    def check(self, inputs: AppraisalInputs, out: EmotionReply) -> EmotionReply:
        intensity = _clamp(out.intensity, 0.0, 1.0)
        valence = _clamp(out.valence, -1.0, 1.0)
        description = _cut(" ".join(out.description.split()), DESCRIPTION_CHARS)
        if len(description.split()) < 2:
            raise ValueError("the description is not a sentence")
        # The model's own sentence is more reliable than its label: if the sentence names a
        # label and not the chosen one, take the first one it names.
        named = [w for w in _WORD.findall(description.lower()) if w in EMOTION_LABELS and w != "neutral"]
        label = out.label if not named or out.label in named else named[0]
        # A label and a valence of opposite sign is a contradiction: the label wins.
        if label in POSITIVE_LABELS and valence < 0 or label in NEGATIVE_LABELS and valence > 0:
            valence = -valence
        return EmotionReply(label=label, intensity=intensity, valence=valence, description=description)


def contagion_nudge(partner_lines: Iterable[str], closeness: float) -> float:
    """Valence nudge from the partner's emotional words, scaled by closeness, capped at ±0.1."""
    pos = neg = 0
    for line in partner_lines:
        for w in _WORD.findall(line.lower()):
            pos += w in POSITIVE_WORDS
            neg += w in NEGATIVE_WORDS
    raw = CONTAGION_PER_KEYWORD * (pos - neg) * _clamp(closeness, 0.0, 1.0)
    return _clamp(raw, -CONTAGION_CAP, CONTAGION_CAP)


class EmotionSystem:
    """One character's current emotion, baseline and rolling history."""

    def __init__(self, owner: str, baseline: EmotionState, *, enabled: bool = True) -> None:
        self.owner = owner
        self.baseline = baseline
        self.enabled = enabled
        self.history: deque[EmotionState] = deque(maxlen=HISTORY_SIZE)
        self.current = baseline
        self.history.append(baseline)

    @classmethod
    def for_persona(cls, persona, *, enabled: bool = True, t: float = 0.0) -> "EmotionSystem":
        return cls(persona.name, EmotionState.from_baseline(persona.emotional_baseline, t), enabled=enabled)

    def set(self, state: EmotionState) -> EmotionState:
        if not self.enabled:
            return self.current
        self.current = state
        self.history.append(state)
        return state

    def inputs(self, personality_text: str, appraisal_rule: str, situation: str,
               needs_summary: str = "") -> AppraisalInputs:
        trail = list(self.history)[-TRAJECTORY_SHOWN:]
        return AppraisalInputs(self.owner, personality_text, appraisal_rule, self.baseline, self.current,
                               situation, needs_summary, trail)

    async def appraise(self, scheduler, personality, situation: str, *, t: float, needs_summary: str = "",
                       deadline: float | None = None) -> tuple[EmotionState, CallRecord | None]:
        """Appraise a salient event; `personality` is a CompiledPersonality."""
        if not self.enabled:
            return self.current, None
        inputs = self.inputs(personality.personality_text, personality.appraisal_rule, situation, needs_summary)
        if scheduler is None:
            reply, rec = EmotionAppraisal().fallback(inputs), None
        else:
            reply, rec = await scheduler.call(EmotionAppraisal(), inputs, agent=self.owner, deadline=deadline,
                                              game_time=t)
        state = EmotionState(**reply.model_dump(), t=t, cause=situation[:120])
        return self.set(state), rec

    def apply_contagion(self, partner_lines: Iterable[str], closeness: float, *, t: float,
                        partner: str = "") -> float:
        """After a conversation: nudge valence by the partner's emotional words (III-A3)."""
        if not self.enabled:
            return 0.0
        nudge = contagion_nudge(partner_lines, closeness)
        if nudge:
            c = self.current
            self.set(c.model_copy(update={"valence": _clamp(c.valence + nudge, -1.0, 1.0), "t": t,
                                          "cause": f"mood caught from {partner}".strip()}))
        return nudge

    # -- what planning, action choice, conversation and chat initiation read (III-A3 (2)-(5))
    def describe(self) -> str:
        """"anxious (0.7): worried about the recital" for prompts and panels."""
        c = self.current
        return f"{c.label} ({c.intensity:.1f})" + (f": {c.description}" if c.description else "")

    def tone(self) -> str:
        """A sentence for conversation prompts: current emotion colours the line's tone."""
        c = self.current
        strength = "slightly " if c.intensity < 0.35 else "very " if c.intensity > 0.75 else ""
        return f"{self.owner} feels {strength}{c.label}." + (f" {c.description}" if c.description else "")

    def withdrawn(self) -> bool:
        """Withdrawn characters are less likely to start a conversation (III-A3 (5))."""
        c = self.current
        return (self.enabled and c.label in WITHDRAWN_LABELS and c.valence <= WITHDRAWN_VALENCE
                and c.intensity >= WITHDRAWN_INTENSITY)

    def chat_multiplier(self) -> float:
        return WITHDRAWN_CHAT_FACTOR if self.withdrawn() else 1.0

    def trajectory(self, n: int = TRAJECTORY_SHOWN) -> list[EmotionState]:
        return list(self.history)[-n:]


def consolidate(store, records: Iterable) -> list[str]:
    """Reflection-time consolidation: intense memories (> 0.6) become more stable (III-A3).

    `records` are MemoryRecords formed since the last reflection; returns the ids boosted.
    """
    boosted = []
    for r in records:
        r = store.get(r.id) or r  # the stored copy carries the latest stability
        if r.emotion_intensity > CONSOLIDATION_MIN_INTENSITY and r.stability < STABILITY_CAP:
            store.update(r.id, stability=min(STABILITY_CAP, r.stability + CONSOLIDATION_BOOST))
            boosted.append(r.id)
    return boosted
