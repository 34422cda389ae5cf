"""Scenario files: the pydantic model every `scenarios/*.json` goes through.

A scenario names the map, the cast (persona names, optional per-scenario overrides
such as a traits line), the start date and time, the clock speed, how long it runs,
the switches of Section V-E, scene hooks, memories / commitments / relationships
injected at the start, and the goal conditions checked over the event log (V-B, V-C).
"""

from __future__ import annotations

import re
from datetime import date
from typing import Annotated, Any, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from garp.mind.persona import NEED_NAMES
from garp.units import DAY_S

_HHMM = re.compile(r"^([01]\d|2[0-3]):[0-5]\d$")


def _check_hhmm(v: str) -> str:
    if not _HHMM.match(v):
        raise ValueError(f"time must be 'HH:MM' in 24-hour form, e.g. '18:30' (got {v!r})")
    return v


def hhmm_to_seconds(day: int, hhmm: str) -> float:
    """Game seconds since the start date's midnight for day offset `day` at `hhmm`."""
    h, m = (int(x) for x in hhmm.split(":"))
    return day * DAY_S + h * 3600.0 + m * 60.0


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Switches(_Strict):
    """Section V-E ablations; each can also be turned off on the command line."""

    minute_plans: bool = True
    emotions: bool = True
    needs: bool = True


class PersonaOverride(_Strict):
    """Per-scenario changes to a persona file (the personality pairs change only `traits`)."""

    traits: str | None = None
    lifestyle: str | None = None
    routine: str | None = None  # the scene's premise ("a free evening"): the day its plans start from
    home: str | None = None


class TimePoint(_Strict):
    day: int = Field(0, ge=0, le=30, description="days after the start date")
    time: str = Field(..., description="HH:MM")

    _t = field_validator("time")(_check_hhmm)

    @property
    def seconds(self) -> float:
        return hhmm_to_seconds(self.day, self.time)


class SeedMemory(_Strict):
    agent: str
    text: str = Field(..., min_length=3, max_length=400)
    day: int = Field(0, ge=0, le=30)
    time: str = "07:00"
    type: Literal["event", "thought", "chat", "reflection"] = "event"
    poignancy: int = Field(5, ge=1, le=10)
    location: str = ""

    _t = field_validator("time")(_check_hhmm)


class SeedCommitment(_Strict):
    """An arrangement already made before the scene starts (structured, see issue 5 §2)."""

    what: str
    day: int = Field(0, ge=0, le=30)
    start: str
    end: str
    place: str
    room: str = ""
    who: list[str] = Field(..., min_length=1)
    proposer: str

    _s = field_validator("start", "end")(_check_hhmm)


class Intention(_Strict):
    """An event someone means to gather people for (issue 19): only its owner knows it at the start.
    The owner's planner turns it into errands (invitation visits) and conversations carry it on."""

    owner: str
    what: str = Field(..., min_length=3, max_length=80)
    day: int = Field(0, ge=0, le=30)
    start: str
    end: str
    place: str
    room: str = ""
    invite: list[str] = Field(default_factory=list, description="whom the owner means to visit and invite; "
                              "others may still hear of it in conversation")
    open: bool = Field(False, description="anyone is welcome: a guest who accepts calls on close friends "
                       "who have not heard of it, to pass it on")

    _s = field_validator("start", "end")(_check_hhmm)


class SeedRelationship(_Strict):
    a: str
    b: str
    familiarity: float = Field(0.5, ge=0, le=1)
    trust: float = Field(0.5, ge=0, le=1)
    sentiment: float = Field(0.2, ge=-1, le=1)
    symmetric: bool = True


class SceneHook(_Strict):
    """A rule that belongs to one story and lasts only as long as the scene (III-A6)."""

    name: Literal["apology_floor", "invitation_round", "stage_nerves", "private_envy"]
    agents: list[str] = Field(default_factory=list)
    params: dict[str, float | str] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _invitation_params(self) -> "SceneHook":
        if self.name == "invitation_round":
            missing = [k for k in ("what", "start", "end", "place") if k not in self.params]
            if missing or len(self.agents) != 1:
                raise ValueError("invitation_round needs exactly one agent (the host) and params "
                                 f"what, start, end (HH:MM), place and optional day; missing: {missing}")
            for k in ("start", "end"):
                _check_hhmm(str(self.params[k]))
        return self


class TemperamentPrompt(_Strict):
    """Unsuffixed personality scenarios: ask at start which temperament runs, then replan."""

    agent: str
    choices: dict[str, str] = Field(..., min_length=2, description="answer label -> traits line")
    goals: dict[str, list["Goal"]] = Field(default_factory=dict, description="answer label -> its goals")


# ---- goal conditions (evaluated by garp.scenario.goals) ----

class NoFailures(_Strict):
    check: Literal["no_failures"]


class AllAgentsActive(_Strict):
    check: Literal["all_agents_active"]
    min_actions: int = Field(1, ge=1)


class AgentsInPlaceDuring(_Strict):
    check: Literal["agents_in_place_during"]
    agents: list[str] = Field(..., min_length=1)
    place: str
    room: str = ""
    start: TimePoint
    end: TimePoint
    min_minutes: float = Field(1.0, ge=0, description="game minutes each agent must be there inside the window")


class ChatOpenedBy(_Strict):
    check: Literal["chat_opened_by", "no_chat_opened_by"]
    agent: str


class NeverLeft(_Strict):
    check: Literal["never_left"]
    agent: str
    place: str


class SentimentAbove(_Strict):
    check: Literal["sentiment_above"]
    agent: str
    toward: str
    value: float = Field(..., ge=-1, le=1)


class SentimentAboveVariant(_Strict):
    check: Literal["sentiment_above_variant"]
    agent: str
    toward: str
    other_scenario: str


class PlacesVisited(_Strict):
    check: Literal["places_visited"]
    agent: str
    at_least: int | None = Field(None, ge=1)
    at_most: int | None = Field(None, ge=1)


class ChatBetween(_Strict):
    check: Literal["chat_between"]
    agents: list[str] = Field(..., min_length=2, max_length=2)


class CommitmentRecorded(_Strict):
    check: Literal["commitment_recorded"]
    agent: str = Field(..., description="the agent whose commitment book must hold the arrangement")
    what_contains: str = Field("", description="a word the arrangement's description must contain (any case)")


class NewsSpread(_Strict):
    check: Literal["news_spread"]
    what_contains: str = Field(..., description="a word of the event's description")
    host: str
    by: TimePoint = Field(..., description="hearing of it counts up to this time")
    heard_share: float = Field(0.0, ge=0, le=1, description="share of the cast (host excluded) who heard of it")
    came_share: float = Field(0.0, ge=0, le=1, description="share of the cast (host excluded) at its place during it")
    min_minutes: float = Field(20.0, ge=0, description="game minutes there that count as coming")
    second_hand: int = Field(0, ge=0, description="at least this many heard it from someone other than the host")


class CommitmentsCorrect(_Strict):
    check: Literal["commitments_correct"]
    what_contains: str
    host: str


class RelationshipAbove(_Strict):
    check: Literal["relationship_above"]
    agent: str
    toward: str
    dimension: Literal["sentiment", "trust", "familiarity"]
    value: float = Field(..., ge=-1, le=1)


class EmotionFelt(_Strict):
    check: Literal["emotion_felt"]
    agent: str
    labels: list[str] = Field(..., min_length=1, description="emotion labels any of which counts")
    min_intensity: float = Field(..., ge=0, le=1)
    before: TimePoint | None = Field(None, description="only states logged before this time count")


class ActivitiesDone(_Strict):
    check: Literal["activities_done"]
    agent: str
    activities: dict[str, list[str]] = Field(
        ..., min_length=1, description="activity label -> action verbs, any of which counts (meal: [eat, cook, snack])")


Goal = Annotated[
    Union[NoFailures, AllAgentsActive, AgentsInPlaceDuring, ChatOpenedBy, NeverLeft, SentimentAbove,
          SentimentAboveVariant, PlacesVisited, ChatBetween, CommitmentRecorded, RelationshipAbove,
          EmotionFelt, ActivitiesDone, NewsSpread, CommitmentsCorrect],
    Field(discriminator="check"),
]


class Scenario(_Strict):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    schema_ref: str | None = Field(None, alias="$schema", description="path of the JSON Schema, for editors")
    name: str = Field(..., pattern=r"^[a-z0-9_]+$")
    title: str = ""
    description: str = ""
    family: Literal["affective", "coordination", "personality", "scale", "basic"] = "basic"
    map: str = Field("town.tmx", description="file under assets/maps/")
    cast: list[str] = Field(..., min_length=1)
    persona_overrides: dict[str, PersonaOverride] = Field(default_factory=dict)
    start_places: dict[str, str] = Field(default_factory=dict, description="agent -> place name (default: home)")
    start_date: date = date(2026, 3, 2)
    start_time: str = "07:00"
    clock_speed: float = Field(300.0, gt=0, le=10000, description="game seconds per wall second (IV-A)")
    duration_hours: float = Field(..., gt=0, le=96)
    step_seconds: float = Field(60.0, gt=0, le=900, description="lockstep step in game seconds")
    switches: Switches = Field(default_factory=Switches)
    start_needs: dict[str, dict[str, float]] = Field(
        default_factory=dict, description="agent -> need -> level 0..1 at the start (hunger, rest, hygiene, social, fun, comfort)")
    hooks: list[SceneHook] = Field(default_factory=list)
    seed_memories: list[SeedMemory] = Field(default_factory=list)
    seed_commitments: list[SeedCommitment] = Field(default_factory=list)
    intentions: list[Intention] = Field(default_factory=list)
    relationships: list[SeedRelationship] = Field(default_factory=list)
    goals: list[Goal] = Field(default_factory=list)
    temperament_prompt: TemperamentPrompt | None = None

    _st = field_validator("start_time")(_check_hhmm)

    @field_validator("cast")
    @classmethod
    def _unique_cast(cls, v: list[str]) -> list[str]:
        if len(set(v)) != len(v):
            raise ValueError(f"cast names must be unique (got {v})")
        return v

    @model_validator(mode="after")
    def _names_in_cast(self) -> "Scenario":
        cast = set(self.cast)
        named: list[tuple[str, str]] = [(f"persona_overrides.{n}", n) for n in self.persona_overrides]
        named += [(f"start_places.{n}", n) for n in self.start_places]
        named += [(f"start_needs.{n}", n) for n in self.start_needs]
        for who, levels in self.start_needs.items():
            for need, v in levels.items():
                if need not in NEED_NAMES or not 0.0 <= v <= 1.0:
                    raise ValueError(f"start_needs.{who}.{need}: must be one of {', '.join(NEED_NAMES)} "
                                     f"with a level 0..1 (got {v})")
        named += [("seed_memories.agent", m.agent) for m in self.seed_memories]
        for c in self.seed_commitments:
            named += [("seed_commitments.who", w) for w in c.who] + [("seed_commitments.proposer", c.proposer)]
        for i in self.intentions:
            named += [("intentions.owner", i.owner)] + [("intentions.invite", n) for n in i.invite]
        for r in self.relationships:
            named += [("relationships.a", r.a), ("relationships.b", r.b)]
        for h in self.hooks:
            named += [(f"hooks.{h.name}.agents", a) for a in h.agents]
        if self.temperament_prompt:
            named.append(("temperament_prompt.agent", self.temperament_prompt.agent))
        for field, n in named:
            if n not in cast:
                raise ValueError(f"{field}: '{n}' is not in the cast {self.cast}")
        return self

    @property
    def start_seconds(self) -> float:
        return hhmm_to_seconds(0, self.start_time)

    @property
    def end_seconds(self) -> float:
        return self.start_seconds + self.duration_hours * 3600.0

    def hook(self, name: str) -> SceneHook | None:
        return next((h for h in self.hooks if h.name == name), None)


TemperamentPrompt.model_rebuild()
Scenario.model_rebuild()


def scenario_json_schema() -> dict[str, Any]:
    return Scenario.model_json_schema()
