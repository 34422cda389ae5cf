"""Persona files: who a character is, validated by pydantic (paper III-A, III-A4).

A persona is authored JSON under `personas/`. `load_persona` turns any problem into one
`GarpError` naming the file, the field and what is allowed. The JSON Schema published in
`schemas/persona.schema.json` is generated from `Persona` by `write_schema()`.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from garp.datafile import load_model_file, write_json_schema
from garp.errors import GarpError
from garp.paths import PERSONAS, SCHEMAS

# --- temperament vocabulary (paper III-A4) ------------------------------------------
# axis -> (positive pole, negative pole); slider value > 0 means the first pole.
AXES: dict[str, tuple[str, str]] = {
    "sociability": ("extraverted", "introverted"),
    "order": ("organized", "disorganized"),
    "novelty": ("curious", "conventional"),
    "warmth": ("warm", "direct"),
}
# grade word -> weight g (paper III-A4)
GRADES: dict[str, float] = {"a bit": 0.25, "quite": 0.5, "very": 0.75, "extremely": 1.0}
POLE_AXIS: dict[str, str] = {pole: axis for axis, poles in AXES.items() for pole in poles}
ALLOWED_POLES = ", ".join(POLE_AXIS)
# other spellings a writer uses for a pole: read as the pole, shown with the pole's own word
POLE_SPELLINGS: dict[str, str] = {"extroverted": "extraverted", "organised": "organized",
                                  "disorganised": "disorganized"}
ALLOWED_GRADES = ", ".join(GRADES)

# Emotion labels shared by persona baselines and the emotion system (paper III-A3).
EMOTION_LABELS: tuple[str, ...] = (
    "neutral", "content", "calm", "joyful", "excited", "grateful", "hopeful",
    "bored", "lonely", "sad", "anxious", "frustrated", "angry", "guilty",
)
EmotionLabel = Literal[
    "neutral", "content", "calm", "joyful", "excited", "grateful", "hopeful",
    "bored", "lonely", "sad", "anxious", "frustrated", "angry", "guilty",
]
NEED_NAMES: tuple[str, ...] = ("hunger", "rest", "hygiene", "social", "fun", "comfort")


@dataclass(frozen=True)
class Trait:
    """One stated deviation from ordinary: a pole of one axis with a graded qualifier."""

    axis: str
    pole: str
    grade: str
    g: float

    @property
    def phrase(self) -> str:
        return f"{self.grade} {self.pole}"

    @property
    def signed(self) -> float:
        """Slider value: positive for an axis's first pole, negative for its second."""
        return self.g if AXES[self.axis][0] == self.pole else -self.g


def parse_traits(text: str) -> tuple[Trait, ...]:
    """Parse "very extraverted, a bit curious" into traits, keeping the author's order.

    Raises ValueError (with the allowed words) on an unknown pole or grade, or on two
    traits for one axis. An empty string means every axis is silent.
    """
    traits: list[Trait] = []
    seen: dict[str, str] = {}
    for raw in text.replace(" and ", ",").split(","):
        item = " ".join(raw.lower().split())
        if not item:
            continue
        grade = next((gw for gw in GRADES if item.startswith(gw + " ")), None)
        if grade is None:
            raise ValueError(
                f"trait '{item}' must start with a grade; allowed grades: {ALLOWED_GRADES} "
                f"(e.g. 'very curious')")
        pole = POLE_SPELLINGS.get(item[len(grade) + 1:], item[len(grade) + 1:])
        if pole not in POLE_AXIS:
            raise ValueError(f"trait '{item}' has unknown pole '{pole}'; allowed poles: {ALLOWED_POLES}")
        axis = POLE_AXIS[pole]
        if axis in seen:
            raise ValueError(
                f"traits '{seen[axis]}' and '{item}' are both on the {axis} axis; "
                f"state at most one pole per axis ({' or '.join(AXES[axis])})")
        seen[axis] = item
        traits.append(Trait(axis, pole, grade, GRADES[grade]))
    return tuple(traits)


# --- persona model ------------------------------------------------------------------

class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class EmotionalBaseline(_Strict):
    label: EmotionLabel = Field("calm", description="the mood this character returns to")
    valence: float = Field(0.1, ge=-1.0, le=1.0, description="baseline pleasantness, -1 (bad) to 1 (good)")
    intensity: float = Field(0.3, ge=0.0, le=1.0, description="baseline strength of the mood, 0 to 1")
    description: str = Field("", max_length=200, description="one sentence on how this character usually feels")


class NeedsProfile(_Strict):
    """Base need decay rates (unmet demand gained per game-hour) before temperament (III-A5)."""

    hunger: float = Field(0.03, ge=0.0, le=0.2, description="hunger rise per game-hour")
    rest: float = Field(0.022, ge=0.0, le=0.2, description="tiredness rise per game-hour")
    hygiene: float = Field(0.015, ge=0.0, le=0.2, description="hygiene need rise per game-hour")
    social: float = Field(0.022, ge=0.0, le=0.2, description="loneliness rise per game-hour")
    fun: float = Field(0.015, ge=0.0, le=0.2, description="boredom rise per game-hour")
    comfort: float = Field(0.011, ge=0.0, le=0.2, description="discomfort rise per game-hour")

    def rates(self) -> dict[str, float]:
        return {n: float(getattr(self, n)) for n in NEED_NAMES}


class InitialRelationship(_Strict):
    name: str = Field(..., min_length=1, description="the other character's name")
    familiarity: float = Field(0.5, ge=0.0, le=1.0, description="how well they know each other, 0 to 1")
    trust: float = Field(0.5, ge=0.0, le=1.0, description="how much this character trusts the other, 0 to 1")
    sentiment: float = Field(0.2, ge=-1.0, le=1.0, description="how this character feels about the other, -1 to 1")
    note: str = Field("", max_length=200, description="who the other is to this character, e.g. 'my housemate'")


class SeedMemory(_Strict):
    text: str = Field(..., min_length=1, max_length=400, description="the memory in natural language")
    type: Literal["event", "thought", "chat", "preference"] = Field("thought", description="memory type")
    poignancy: int | None = Field(None, ge=1, le=10, description="importance 1-10; omitted = scored by the model")
    condition: str | None = Field(
        None, max_length=120,
        description="makes this an authored rule: the condition under which it applies, shown as the memory's header")


class Persona(_Strict):
    """One character of the town, as authored in personas/NAME.json."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    schema_ref: str | None = Field(None, alias="$schema", description="path of the JSON Schema, for editors")
    name: str = Field(..., min_length=1, max_length=40, description="first name, unique in the town")
    age: int = Field(..., ge=1, le=120, description="age in years")
    occupation: str = Field("", max_length=80, description="what the character does for a living")
    personality: str = Field(..., min_length=1, max_length=600, description="free-text personality")
    traits: str = Field(
        "", max_length=200,
        description=(f"graded temperament, comma-separated '<grade> <pole>' items, at most one pole per axis; "
                     f"grades: {ALLOWED_GRADES}; poles: {ALLOWED_POLES} (also spelled {', '.join(POLE_SPELLINGS)}); "
                     "empty = all axes silent"))
    background: str = Field("", max_length=800, description="life story and circumstances")
    lifestyle: str = Field("", max_length=400, description="habits, e.g. when they wake and sleep")
    routine: str = Field("", max_length=400, description="an ordinary day in a sentence or two")
    home: str = Field(..., min_length=1, description="name of the home place on the map")
    workplace: str | None = Field(None, description="name of the workplace on the map, or null")
    emotional_baseline: EmotionalBaseline = Field(default_factory=EmotionalBaseline)
    needs_profile: NeedsProfile = Field(default_factory=NeedsProfile)
    chat_probability: float = Field(0.5, ge=0.0, le=1.0, description="authored chance of starting a chat, before temperament")
    sprite: int | None = Field(None, ge=0, description="index of the character sprite sheet")
    relationships: list[InitialRelationship] = Field(default_factory=list)
    seed_memories: list[SeedMemory] = Field(default_factory=list)

    @field_validator("traits")
    @classmethod
    def _check_traits(cls, v: str) -> str:
        parse_traits(v)
        return v

    @property
    def parsed_traits(self) -> tuple[Trait, ...]:
        return parse_traits(self.traits)


def load_persona(path: str | Path) -> Persona:
    """Load one persona file; any problem becomes one GarpError naming file and field."""
    return load_model_file(path, Persona, "persona file")


def housemates(persona: Persona, cast: dict[str, Persona]) -> tuple[str, ...]:
    """The others of the cast whose home is this persona's home."""
    return tuple(n for n, p in cast.items() if p.home == persona.home and n != persona.name)


def load_personas(directory: str | Path = PERSONAS) -> dict[str, Persona]:
    """Load every personas/*.json, keyed by name; duplicate names are an error."""
    directory = Path(directory)
    files = sorted(directory.glob("*.json"))
    if not files:
        raise GarpError(f"{directory}: no persona files (*.json) found")
    cast: dict[str, Persona] = {}
    for f in files:
        p = load_persona(f)
        if p.name in cast:
            raise GarpError(f"{f}: field 'name': '{p.name}' is already used by another persona; names must be unique")
        cast[p.name] = p
    return cast


def persona_schema() -> dict:
    schema = Persona.model_json_schema(by_alias=True)
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["$id"] = "persona.schema.json"
    return schema


def write_schema(path: str | Path | None = None) -> Path:
    """Write schemas/persona.schema.json, generated from the Persona model."""
    return write_json_schema(persona_schema(), path or SCHEMAS / "persona.schema.json")
