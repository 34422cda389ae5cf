"""Hierarchical planning (paper III-A1, Algorithm 1) with plans repaired in code (VI-b).

A day plan of 5-8 activities comes from the model; `plan_repair` then makes it valid:
times in order inside the day, no overlaps, no gaps, night sleep and three meals, blocks
that put a dated event on the wrong day removed (their preparation kept), every
commitment of the day present at its time and place (the paper's party failures were
guests whose plan dropped the party), places mapped to the map. Hourly and minute
levels are decomposed lazily by a buffer-zone lookahead (`Planner.due_decompositions`).
"""

from __future__ import annotations

import math
import re
from datetime import date
from typing import ClassVar, Iterable, Literal

from pydantic import BaseModel, Field, field_validator

from garp.engine.lmfunction import LMFunction, chat
from garp.mind.commitments import (
    Commitment, CommitmentBook, content_words, hhmm, match_place, parse_day_index, parse_hhmm,
    parse_time_of_day,
)

# --- tunables -------------------------------------------------------------------------
DAY_S = 86400.0  # game seconds per day (ARCHITECTURE conventions)
DAY_ACTIVITIES = (5, 8)  # activities per daily plan (III-A1)
HOUR_STEPS = (2, 6)  # subtasks per hourly decomposition (III-A1)
MINUTE_STEP_S = (5 * 60.0, 15 * 60.0)  # minute-level step length, game s (III-A1)
LOOKAHEAD_S = (15 * 60.0, 30 * 60.0)  # buffer zone: decompose blocks this far ahead (III-A1)
MIN_BLOCK_S = 5 * 60.0  # shorter blocks are merged into their neighbour
WAKE_S = 7 * 3600.0  # default end of night sleep
WAKE_LATEST_S = 10 * 3600.0  # morning sleep never runs past this when the plan starts late
BEDTIME_S = 23 * 3600.0  # default start of night sleep
NIGHT_SLEEP_EARLIEST_S = 20 * 3600.0  # a sleep block starting after this counts as the night
# Head out this long (game s) before a commitment to arrive in time: the bundled town's longest
# door-to-door walk is 92 tiles, 46 game min at 2 tiles/min, plus the walk inside the buildings.
COMMITMENT_TRAVEL_LEAD_S = 50 * 60.0
# meal -> (window start, window end, preferred start, duration), game seconds of the day
MEALS: dict[str, tuple[float, float, float, float]] = {
    "breakfast": (6 * 3600.0, 10.5 * 3600, 7.5 * 3600, 30 * 60.0),
    "lunch": (11.5 * 3600, 14.5 * 3600, 12.5 * 3600, 45 * 60.0),
    "dinner": (17.5 * 3600, 21.5 * 3600, 19 * 3600.0, 60 * 60.0),
}
FREE_TIME = "free time at home"

_SLEEP_RE = re.compile(r"\b(sleep|sleeping|asleep|go(?:es)? to bed|bedtime|in bed)\b", re.I)
_MEAL_RE = re.compile(r"\b(breakfast|brunch|lunch|dinner|supper|eat|eating|meal|dine|dining)\b", re.I)
_PREP_RE = re.compile(
    r"\b(buy|buying|get|getting|prepare|preparing|prep|shop|shopping|wrap|wrapping|bake|baking|"
    r"make|making|practi[cs]e|rehears\w*|plan|planning|organi[sz]e|invit\w*|decorat\w*|choose|"
    r"pick|write|send|tell|remind|pack|ready|gift|present|before)\b|\bfor (?:the|tomorrow|his|her|their|my)\b",
    re.I)

Level = Literal["day", "hour", "minute"]
NodeSource = Literal["model", "repair", "commitment", "fallback"]


class PlanNode(BaseModel):
    """One block of the plan tree; times are absolute game seconds."""

    start: float
    end: float
    description: str
    place: str | None = None
    room: str | None = None  # a commitment's room: the agent acts inside it
    level: Level = "day"
    children: list["PlanNode"] = Field(default_factory=list)
    source: NodeSource = "model"
    commitment_id: str | None = None

    def contains(self, t: float) -> bool:
        return self.start <= t < self.end

    def label(self) -> str:
        return f"{hhmm(self.start)}-{hhmm(self.end)} {self.description}" + (f" @ {self.place}" if self.place else "")

    def piece(self, start: float, end: float) -> "PlanNode":
        kids = [c for c in self.children if c.end > start and c.start < end]
        return self.model_copy(update={"start": start, "end": end, "children": kids})


class PlanTree(BaseModel):
    """One day's plan: day-level nodes with hour and minute children (III-A1)."""

    day: int
    nodes: list[PlanNode] = Field(default_factory=list)

    def path(self, t: float) -> list[PlanNode]:
        """Nodes containing `t`, from the day level down."""
        out, level = [], self.nodes
        while node := next((n for n in level if n.contains(t)), None):
            out.append(node)
            level = node.children
        return out

    def current(self, t: float) -> PlanNode | None:
        p = self.path(t)
        return p[-1] if p else None

    def current_day_node(self, t: float) -> PlanNode | None:
        p = self.path(t)
        return p[0] if p else None

    def next_boundary(self, t: float) -> float | None:
        """Earliest start or end of any node after `t` (when the current leaf changes)."""
        times = [x for n in self._walk() for x in (n.start, n.end) if x > t]
        return min(times, default=None)

    def leaves(self) -> list[PlanNode]:
        return sorted((n for n in self._walk() if not n.children), key=lambda n: n.start)

    def run_end(self, t: float) -> float | None:
        """End of the run of back-to-back leaves that say the same as the leaf at `t` ("read",
        "keep on: read", "read" ...): one activity, however finely the plan was cut."""
        leaves = self.leaves()
        k = next((i for i, n in enumerate(leaves) if n.contains(t)), None)
        if k is None:
            return None
        end = leaves[k].end
        for n in leaves[k + 1:]:
            if n.start > end or not same_activity(n, leaves[k]):
                break
            end = n.end
        return end

    def _walk(self) -> Iterable[PlanNode]:
        stack = list(self.nodes)
        while stack:
            n = stack.pop()
            yield n
            stack.extend(n.children)

    def replace_window(self, t0: float, t1: float, nodes: list[PlanNode]) -> None:
        """Replace what the plan says for [t0, t1) at the level of `nodes`, keeping the rest.

        Day-level nodes are spliced into the top level; hour/minute nodes go into the
        children of the node one level up that contains them, so the broader structure
        (the day's activities, their times) survives a local replan (III-A1).
        """
        if not nodes:
            return
        level = nodes[0].level
        if level == "day":
            self.nodes = _splice(self.nodes, t0, t1, nodes)
            return
        parent_level = "day" if level == "hour" else "hour"
        for parent in (n for n in self._walk() if n.level == parent_level):
            lo, hi = max(t0, parent.start), min(t1, parent.end)
            if lo >= hi:
                continue
            mine = [n.piece(max(n.start, lo), min(n.end, hi)) for n in nodes if n.end > lo and n.start < hi]
            parent.children = _splice(parent.children, lo, hi, mine) if parent.children else mine

    def to_dict(self) -> dict:
        return self.model_dump()

    @classmethod
    def from_dict(cls, data: dict) -> "PlanTree":
        return cls.model_validate(data)


def goal_text(description: str, place: str | None = None) -> str:
    """What a plan item says to do, without the "keep on: " of a continued block or a repeat of
    its own place ("read at Ludwig's House" @ Ludwig's House is "read")."""
    text = description.removeprefix(KEEP_ON).strip()
    if place and text.lower().endswith(f" at {place}".lower()):
        text = text[: -len(f" at {place}")].strip()
    return text or description


def activity_key(description: str, place: str | None = None) -> str:
    return " ".join(goal_text(description, place).lower().split())


def same_activity(a: PlanNode, b: PlanNode) -> bool:
    return a.place == b.place and activity_key(a.description, a.place) == activity_key(b.description, b.place)


def _splice(seq: list[PlanNode], t0: float, t1: float, new: list[PlanNode]) -> list[PlanNode]:
    """Cut [t0, t1) out of a sorted node list (trimming partial overlaps) and insert `new`."""
    out: list[PlanNode] = []
    for n in seq:
        if n.end <= t0 or n.start >= t1:
            out.append(n)
            continue
        if n.start < t0:
            out.append(n.piece(n.start, t0))
        if n.end > t1:
            out.append(n.piece(t1, n.end))
    return sorted(out + list(new), key=lambda n: n.start)


# --- plan repair (pure) -----------------------------------------------------------------
def is_sleep(desc: str) -> bool:
    return bool(_SLEEP_RE.search(desc))


def is_meal(desc: str) -> bool:
    return bool(_MEAL_RE.search(desc))


def is_preparation(desc: str) -> bool:
    return bool(_PREP_RE.search(desc))


def _protected(n: PlanNode) -> bool:
    return n.source == "commitment"


def _wrong_day(desc: str, day: int, start_date: date | None, other: list[Commitment],
               today: list[Commitment], place_words: set[str]) -> bool:
    """True for a block that schedules an event for another day (and is not preparation)."""
    if is_preparation(desc):
        return False
    ref = parse_day_index(desc, day, start_date)
    if ref is not None and ref != day:
        return True
    words = content_words(desc) - place_words
    def hits(c: Commitment) -> bool:
        cw = content_words(c.what) - place_words
        return bool(words and cw) and len(words & cw) / min(len(words), len(cw)) >= 0.5
    return any(hits(c) for c in other) and not any(hits(c) for c in today)


def _insert(nodes: list[PlanNode], new: PlanNode) -> list[PlanNode]:
    """Insert `new`, splitting whatever it overlaps (the overlapped activity resumes after)."""
    return _splice(nodes, new.start, new.end, [new])


def _free_slot(nodes: list[PlanNode], lo: float, hi: float, prefer: float, dur: float) -> float | None:
    """A start in [lo, hi - dur] near `prefer` that overlaps no commitment or sleep block."""
    blocked = [(n.start, n.end) for n in nodes if _protected(n) or is_sleep(n.description)]
    cands = sorted({prefer, lo, *[e for _, e in blocked]}, key=lambda s: abs(s - prefer))
    for s in cands:
        if lo <= s <= hi - dur and not any(a < s + dur and s < b for a, b in blocked):
            return s
    return None


def plan_repair(nodes: list[PlanNode], *, day: int, home: str, known_places: list[str],
                commitments: list[Commitment] = (), other_commitments: list[Commitment] = (),
                start_date: date | None = None) -> list[PlanNode]:
    """Turn any list of day-level blocks into a valid day plan (see module docstring).

    `commitments` are this day's (they are put back if missing); `other_commitments`
    are other days' (blocks that hold them today are removed, preparation stays).
    """
    d0, d1 = day * DAY_S, (day + 1) * DAY_S
    today = [c for c in commitments if c.day == day]
    other = [c for c in other_commitments if c.day != day]
    place_words = {w for p in known_places for w in content_words(p)}
    out: list[PlanNode] = []
    for n in sorted(nodes, key=lambda n: (n.start, n.end)):
        desc = " ".join(n.description.split())
        start, end = max(n.start, d0), min(n.end, d1)
        if not desc or end - start <= 0 or n.source == "commitment":
            continue
        if _wrong_day(desc, day, start_date, other, today, place_words):
            continue
        place = match_place(n.place, known_places, home) or home
        out.append(n.model_copy(update={"start": start, "end": end, "description": desc,
                                        "place": place, "level": "day"}))
    # Overlaps: a later-starting block wins (the model lists starts, not durations).
    fixed: list[PlanNode] = []
    for n in out:
        if fixed and n.start < fixed[-1].end:
            prev = fixed[-1]
            if n.start <= prev.start:
                fixed.pop()
            else:
                fixed[-1] = prev.piece(prev.start, n.start)
        fixed.append(n)
    out = fixed
    for c in today:  # every commitment of the day, at its time and place
        out = _put_commitment(out, c, d0, d1)
    out = _ensure_sleep(out, d0, d1, home)
    out = _ensure_meals(out, d0, home)
    return _close_gaps(out, d0, d1, home)


def _put_commitment(nodes: list[PlanNode], c: Commitment, d0: float, d1: float) -> list[PlanNode]:
    start, end = max(c.start, d0), min(c.end, d1)
    if end <= start:
        return nodes
    block = PlanNode(start=start, end=end, description=c.what, place=c.place, room=c.room, level="day",
                     source="commitment", commitment_id=c.id)
    nodes = _insert(nodes, block)
    lead_start = max(d0, start - COMMITMENT_TRAVEL_LEAD_S)
    if lead_start < start and not any(_protected(n) and n.end > lead_start and n.start < start for n in nodes):
        nodes = _insert(nodes, PlanNode(start=lead_start, end=start, description=f"head to {c.place} for {c.what}",
                                        place=c.place, level="day", source="commitment", commitment_id=c.id))
    return nodes


def _ensure_sleep(nodes: list[PlanNode], d0: float, d1: float, home: str) -> list[PlanNode]:
    def sleep(a: float, b: float) -> PlanNode:
        return PlanNode(start=a, end=b, description="sleep", place=home, level="day", source="repair")
    if not any(is_sleep(n.description) and n.start <= d0 + 3600 for n in nodes):
        awake = [n.start for n in nodes if not is_sleep(n.description) and n.start > d0]
        wake = min(awake[0] if awake else d0 + WAKE_S, d0 + WAKE_LATEST_S)
        if nodes and nodes[0].start <= d0 and not is_sleep(nodes[0].description):
            wake = d0 + WAKE_S
        wake = min([wake] + [n.start for n in nodes if _protected(n)])
        if wake > d0:
            nodes = _insert(nodes, sleep(d0, wake))
    if not any(is_sleep(n.description) and n.start >= d0 + NIGHT_SLEEP_EARLIEST_S for n in nodes):
        bed = d0 + BEDTIME_S
        for n in nodes:
            if _protected(n) and n.start < d1 and n.end > bed:
                bed = n.end
        if bed < d1:
            nodes = _insert(nodes, sleep(bed, d1))
    return nodes


def _ensure_meals(nodes: list[PlanNode], d0: float, home: str) -> list[PlanNode]:
    for meal, (lo, hi, prefer, dur) in MEALS.items():
        lo, hi, prefer = d0 + lo, d0 + hi, d0 + prefer
        if any(is_meal(n.description) and n.start < hi and n.end > lo for n in nodes):
            continue
        s = _free_slot(nodes, lo, hi, prefer, dur)
        if s is None:
            continue
        here = next((n for n in nodes if n.contains(s)), None)
        place = here.place if meal == "lunch" and here and here.place else home
        nodes = _insert(nodes, PlanNode(start=s, end=s + dur, description=f"have {meal}", place=place,
                                        level="day", source="repair"))
    return nodes


def _close_gaps(nodes: list[PlanNode], d0: float, d1: float, home: str) -> list[PlanNode]:
    """No gaps (extend the previous activity or free time at home), no slivers, merged repeats."""
    nodes = sorted(nodes, key=lambda n: n.start)
    out: list[PlanNode] = []
    cursor = d0
    for n in nodes:
        if n.start > cursor:
            prev = out[-1] if out else None
            if prev is not None and not _protected(prev) and not is_meal(prev.description):
                out[-1] = prev.model_copy(update={"end": n.start})
            else:
                out.append(PlanNode(start=cursor, end=n.start, description=FREE_TIME, place=home,
                                    level="day", source="repair"))
        n = n.model_copy(update={"start": max(n.start, cursor)})
        if n.end > n.start:
            out.append(n)
            cursor = n.end
    if cursor < d1:
        if out and not _protected(out[-1]):
            out[-1] = out[-1].model_copy(update={"end": d1})
        else:
            out.append(PlanNode(start=cursor, end=d1, description="sleep", place=home, level="day", source="repair"))
    merged: list[PlanNode] = []
    for n in out:
        prev = merged[-1] if merged else None
        same = prev is not None and prev.description.lower() == n.description.lower() and prev.place == n.place \
            and prev.commitment_id == n.commitment_id
        tiny = prev is not None and n.end - n.start < MIN_BLOCK_S and not _protected(n) and not _protected(prev)
        if same or tiny:
            merged[-1] = prev.model_copy(update={"end": n.end, "children": prev.children + n.children})
        else:
            merged.append(n)
    return merged


def nodes_from_times(items: list[tuple[str, str, str | None]], day: int, level: Level = "day",
                     source: NodeSource = "model", window: tuple[float, float] | None = None) -> list[PlanNode]:
    """("HH:MM", description, place) items → contiguous nodes, each ending where the next starts."""
    d0 = day * DAY_S
    lo, hi = window or (d0, d0 + DAY_S)
    timed = []
    for hm, desc, place in items:
        secs = parse_hhmm(hm)
        if secs is None and (secs := parse_time_of_day(hm, allow_vague=False)) is None:
            continue
        t = d0 + secs
        if lo <= t < hi and desc.strip():
            timed.append((t, desc.strip(), place))
    timed.sort(key=lambda x: x[0])
    uniq = [x for i, x in enumerate(timed) if i == 0 or x[0] > timed[i - 1][0]]
    if uniq and level != "day":
        uniq[0] = (lo, uniq[0][1], uniq[0][2])  # sub-plans start with their parent
    return [PlanNode(start=t, end=(uniq[i + 1][0] if i + 1 < len(uniq) else hi), description=desc,
                     place=place, level=level, source=source) for i, (t, desc, place) in enumerate(uniq)]


# --- LM functions -------------------------------------------------------------------------
HHMM_PATTERN = r"^([01][0-9]|2[0-3]):[0-5][0-9]$"


class PlanContext(BaseModel):
    """What planning prompts need about the agent now (built by the integrator)."""

    name: str
    age: int = 30
    adjectives: str = ""  # bare trait adjectives, never the temperament sentence (III-A4, VI-c)
    occupation: str = ""
    lifestyle: str = ""
    routine: str = ""
    home: str
    workplace: str | None = None
    reflections: list[str] = Field(default_factory=list)
    emotion: str = "calm"
    urgent_needs: str = ""
    known_places: list[str] = Field(default_factory=list)
    start_date: date | None = None


class DailyPlanInputs(BaseModel):
    ctx: PlanContext
    day: int
    date_label: str
    commitments: list[str] = Field(default_factory=list)  # "19:00 jam session at School"


class Activity(BaseModel):
    start: str = Field(..., pattern=HHMM_PATTERN, description="start time, 24-hour HH:MM")
    activity: str = Field(..., min_length=2, max_length=50, description="what the character does")
    place: str = Field(..., max_length=24, description="a place from the list")


class DayPlanOut(BaseModel):
    activities: list[Activity] = Field(..., min_length=DAY_ACTIVITIES[0], max_length=DAY_ACTIVITIES[1])


def _distinct_check(descs: list[str], need: int) -> None:
    if len({d.strip().lower() for d in descs}) < need:
        raise ValueError(f"plan collapsed: fewer than {need} distinct activities")


class DailyPlan(LMFunction):
    """Day plan of 5-8 activities with start times (III-A1). No filled-in example (VI-b)."""

    name: ClassVar[str] = "daily_plan"
    Output: ClassVar[type[BaseModel]] = DayPlanOut
    priority: ClassVar[int] = 4
    temperature: ClassVar[float] = 0.3
    max_tokens: ClassVar[int] = 360

    def messages(self, inputs: DailyPlanInputs, reasoning: bool) -> list[dict]:
        system = ("You plan one day for a character in a small town. List 5 to 8 activities in time "
                  "order from waking up to going to sleep. Each activity has a start time (24-hour HH:MM), "
                  "a short description and one place taken from the list of places. Include meals. "
                  "Keep every commitment at its time and place; do not schedule events of other days."
                  + (" First write a short reasoning." if reasoning else ""))
        c = inputs.ctx
        lines = [f"Name: {c.name}, age {c.age}" + (f", {c.occupation}" if c.occupation else ""),
                 f"Traits: {c.adjectives or 'ordinary'}"]
        lines += [f"Lifestyle: {c.lifestyle}"] if c.lifestyle else []
        lines += [f"Routine: {c.routine}"] if c.routine else []
        lines += [f"Home: {c.home}"] + ([f"Work: {c.workplace}"] if c.workplace else [])
        lines += [f"Places: {', '.join(c.known_places)}"]
        lines += [f"Earlier reflections: {'; '.join(c.reflections[:3])}"] if c.reflections else []
        lines += [f"Mood: {c.emotion}"] + ([f"Needs: {c.urgent_needs}"] if c.urgent_needs else [])
        lines += [f"Commitments today: {'; '.join(inputs.commitments)}"] if inputs.commitments else []
        lines.append(f"Plan {c.name}'s day for {inputs.date_label}.")
        return chat(system, "\n".join(lines))

    def fallback(self, inputs: DailyPlanInputs) -> DayPlanOut:
        return DayPlanOut(activities=routine_activities(inputs.ctx))

    def check(self, inputs: DailyPlanInputs, out: DayPlanOut) -> DayPlanOut:
        places = {p.lower() for p in inputs.ctx.known_places} | {inputs.ctx.name.lower()}
        real = [a for a in out.activities if a.activity.strip().lower() not in places]  # a bare place is no activity
        if any(is_time_only(a.activity) for a in out.activities):
            raise ValueError("an activity names a time, not what the character does")
        _distinct_check([a.activity for a in real], 3)
        if len({a.start for a in real}) < 3:
            raise ValueError("plan collapsed: fewer than 3 distinct start times")
        return out


def home_work(occupation: str) -> str:
    """The plain day's working hours for someone with no workplace: a composer, painter or
    illustrator works at home; someone retired or without an occupation keeps house."""
    job = occupation.strip().lower()
    if not job or re.search(r"\b(retired|unemployed|none)\b", job):
        return "read and tidy up"
    article = "an" if job[0] in "aeiou" else "a"
    return f"work at home as {article} {job}"[:50]


def routine_activities(ctx: PlanContext) -> list[Activity]:
    """The persona's routine as a plan: its "HH:MM ..." clauses over a plain working day."""
    found: dict[str, Activity] = {}
    for clause in re.split(r"[;,.]\s+|\n|\bthen\b", f"{ctx.routine}. {ctx.lifestyle}"):
        tod = parse_time_of_day(clause, allow_vague=False)
        desc = re.sub(r"\b(at|from|around|by)?\s*\d{1,2}([:.]\d{2})?\s*(am|pm)?\b", "", clause, flags=re.I).strip(" ,.-")
        if tod is not None and tod >= 12 * 3600 and re.search(r"\b(wake|wakes|get up|gets up|rise|breakfast|morning)\b", clause, re.I):
            tod -= 12 * 3600  # "wakes at 7" is the morning, whatever the bare-hour rule says
        if tod is not None and len(desc) >= 3 and tod < DAY_S:
            place = match_place(desc, ctx.known_places, ctx.home) or ctx.home
            found.setdefault(hhmm(tod), Activity(start=hhmm(tod), activity=desc[:50], place=place[:24]))
    work = ctx.workplace or ctx.home
    doing = "work" if ctx.workplace else home_work(ctx.occupation)
    plain = [("07:00", "wake up and have breakfast", ctx.home), ("09:00", doing, work),
             ("12:30", "have lunch", work), ("13:30", doing, work), ("17:30", "free time", ctx.home),
             ("19:00", "have dinner", ctx.home), ("20:00", "relax at home", ctx.home), ("23:00", "sleep", ctx.home)]
    routine = sorted(found.values(), key=lambda a: a.start)[:DAY_ACTIVITIES[1]]
    taken = [parse_hhmm(a.start) or 0.0 for a in routine]
    for s, a, p in plain:  # the plain day fills what the routine leaves open (always 5-8 items)
        secs = parse_hhmm(s) or 0.0
        if len(routine) < DAY_ACTIVITIES[1] and all(abs(secs - x) >= 3600 for x in taken):
            routine.append(Activity(start=s, activity=a, place=p[:24]))
            taken.append(secs)
    return sorted(routine, key=lambda a: a.start)


class DecomposeInputs(BaseModel):
    ctx: PlanContext
    activity: str
    place: str | None
    start: float
    end: float
    reason: str = ""  # why the window is replanned (III-A1 replanning), empty for first decomposition


_NUMBERING_RE = re.compile(r"^\s*(?:step\s*)?\d+(?:\.\d+)?\s*[:.)\-](?!\d)\s*", re.I)


class Step(BaseModel):
    start: str = Field(..., pattern=HHMM_PATTERN, description="start time HH:MM inside the block")
    task: str = Field(..., min_length=2, max_length=50)

    @field_validator("task")
    @classmethod
    def _drop_numbering(cls, task: str) -> str:
        """Small models number their steps ("2.0: work"); the plan panel shows the task only."""
        return _NUMBERING_RE.sub("", task) or task


class HourSteps(BaseModel):
    steps: list[Step] = Field(..., min_length=HOUR_STEPS[0], max_length=HOUR_STEPS[1])


def _decompose_messages(inputs: DecomposeInputs, unit: str, reasoning: bool) -> list[dict]:
    system = (f"You break one activity of a character's day into {unit} steps. Give each step a start "
              "time (HH:MM) inside the block, in time order, and a short task. Stay at the same place."
              + (" First write a short reasoning." if reasoning else ""))
    c = inputs.ctx
    lines = [f"Name: {c.name}; traits: {c.adjectives or 'ordinary'}; mood: {c.emotion}"]
    lines += [f"Needs: {c.urgent_needs}"] if c.urgent_needs else []
    lines += [f"Change: {inputs.reason}"] if inputs.reason else []
    lines.append(f"Block {hhmm(inputs.start)}-{hhmm(inputs.end)}: {inputs.activity}"
                 + (f" at {inputs.place}" if inputs.place else "") + ".")
    lines.append("Steps for this block:")
    return chat(system, "\n".join(lines))


_TIME_ONLY_RE = re.compile(r"^[\W_]*(?:\d{1,2}(?:[:.]\d{2})?\s*(?:am|pm|h)?[\W_]*)*$", re.I)


def is_time_only(text: str) -> bool:
    """True for a description that says nothing but a time ("13:30", "1:30 pm", "1.00") or nothing at all."""
    return bool(_TIME_ONLY_RE.match(text.strip()))


def _steps_check(inputs: DecomposeInputs, steps: list[Step]) -> None:
    bad = next((s.task for s in steps if is_time_only(s.task)), None)
    if bad is not None:
        raise ValueError(f"step {bad!r} names a time, not a task")
    day = int(inputs.start // DAY_S)
    nodes = nodes_from_times([(s.start, s.task, inputs.place) for s in steps], day, "hour",
                             window=(inputs.start, inputs.end))
    if not nodes:
        raise ValueError("no step starts inside the block")


KEEP_ON = "keep on: "  # the second half of a block the model failed to decompose


class HourlyDecomposition(LMFunction):
    """A day activity → hourly subtasks (III-A1)."""

    name: ClassVar[str] = "hourly_decomposition"
    Output: ClassVar[type[BaseModel]] = HourSteps
    priority: ClassVar[int] = 4
    temperature: ClassVar[float] = 0.3
    max_tokens: ClassVar[int] = 200

    def messages(self, inputs: DecomposeInputs, reasoning: bool) -> list[dict]:
        return _decompose_messages(inputs, "hourly", reasoning)

    def fallback(self, inputs: DecomposeInputs) -> HourSteps:
        # A fallback of a fallback step must not read "keep on: keep on: ..." in the plan panel.
        base = inputs.activity.removeprefix(KEEP_ON)
        return HourSteps(steps=[Step(start=hhmm(inputs.start), task=inputs.activity[:50]),
                                Step(start=hhmm((inputs.start + inputs.end) / 2), task=f"{KEEP_ON}{base}"[:50])])

    def check(self, inputs: DecomposeInputs, out: HourSteps) -> HourSteps:
        _steps_check(inputs, out.steps)
        return out


class MinuteDecomposition(HourlyDecomposition):
    """An hourly subtask → 5-15 minute steps (optional third tier, III-A1)."""

    name: ClassVar[str] = "minute_decomposition"
    priority: ClassVar[int] = 5

    def messages(self, inputs: DecomposeInputs, reasoning: bool) -> list[dict]:
        return _decompose_messages(inputs, "5 to 15 minute", reasoning)


def minute_steps(nodes: list[PlanNode]) -> list[PlanNode]:
    """Enforce 5-15 minute steps: slivers merge into the previous step, long ones split."""
    lo, hi = MINUTE_STEP_S
    merged: list[PlanNode] = []
    for n in nodes:
        if merged and n.end - n.start < lo:
            merged[-1] = merged[-1].model_copy(update={"end": n.end})
        else:
            merged.append(n)
    if len(merged) > 1 and merged[0].end - merged[0].start < lo:  # a leading sliver joins the next step
        merged = [merged[1].model_copy(update={"start": merged[0].start})] + merged[2:]
    out: list[PlanNode] = []
    for n in merged:
        pieces = max(1, math.ceil((n.end - n.start) / hi - 1e-9))
        step = (n.end - n.start) / pieces
        for i in range(pieces):
            end = n.end if i == pieces - 1 else n.start + (i + 1) * step
            out.append(n.model_copy(update={"start": n.start + i * step, "end": end, "level": "minute"}))
    return out


# --- orchestration ------------------------------------------------------------------------
def commitment_line(c: Commitment) -> str:
    return f"{hhmm(c.start)} {c.what} at {c.place}"


class Planner:
    """One agent's planning: day plan, lazy decomposition, window replanning (Algorithm 1).

    Every model result goes through repair; every call has a fallback; `records` keeps
    the CallRecords so the integrator can log them and the inspector can show them.
    """

    def __init__(self, scheduler, book: CommitmentBook, *, agent: str, minute_level: bool = False) -> None:
        self.scheduler, self.book, self.agent = scheduler, book, agent
        self.minute_level = minute_level
        self.tree: PlanTree | None = None
        self.ctx: PlanContext | None = None
        self.records: list = []
        self._decomposed: set[tuple[float, str]] = set()

    async def make_day(self, day: int, ctx: PlanContext, *, t: float | None = None,
                       date_label: str = "", deadline: float | None = None) -> PlanTree:
        """Ask the model for the day, repair it, keep it as `self.tree` (III-A1 daily planning)."""
        self.ctx = ctx
        todays = self.book.for_day(day)
        inputs = DailyPlanInputs(ctx=ctx, day=day, date_label=date_label or f"day {day + 1}",
                                 commitments=[commitment_line(c) for c in todays])
        out, rec = await self.scheduler.call(DailyPlan(), inputs, agent=self.agent, deadline=deadline,
                                             game_time=day * DAY_S if t is None else t)
        self.records.append(rec)
        source: NodeSource = "fallback" if rec.fallback_used else "model"
        raw = nodes_from_times([(a.start, a.activity, a.place) for a in out.activities], day, "day", source)
        self.tree = PlanTree(day=day, nodes=self.repair(raw, day))
        self._decomposed.clear()
        return self.tree

    def repair(self, nodes: list[PlanNode], day: int) -> list[PlanNode]:
        ctx = self.ctx
        assert ctx is not None, "make_day or set ctx first"
        others = [c for c in self.book.all() if c.day != day]
        return plan_repair(nodes, day=day, home=ctx.home, known_places=ctx.known_places,
                           commitments=self.book.for_day(day), other_commitments=others,
                           start_date=ctx.start_date)

    def add_commitment(self, c: Commitment) -> Commitment:
        """Record a commitment; if it is for the plan's day, the plan carries it at once."""
        stored = self.book.add(c)
        if self.tree is not None and stored.day == self.tree.day and self.ctx is not None:
            self.tree.nodes = self.repair(self.tree.nodes, self.tree.day)
        return stored

    def due_decompositions(self, t: float) -> list[PlanNode]:
        """Blocks starting within the buffer zone (or already running) not yet decomposed."""
        if self.tree is None:
            return []
        horizon = t + LOOKAHEAD_S[1]
        due = []
        for n in self.tree.nodes:
            if n.end > t and n.start <= horizon and not n.children and self._wants_children(n):
                due.append(n)
            if self.minute_level:
                due += [h for h in n.children if h.end > t and h.start <= horizon and not h.children
                        and self._wants_children(h) and h.end - h.start > MINUTE_STEP_S[1]]
        return due

    def _wants_children(self, n: PlanNode) -> bool:
        short = n.end - n.start <= (MINUTE_STEP_S[1] if n.level == "hour" else 3600.0)
        return not (short or is_sleep(n.description) or (n.start, n.level) in self._decomposed)

    async def decompose(self, node: PlanNode, *, t: float = 0.0, reason: str = "",
                        window: tuple[float, float] | None = None, deadline: float | None = None) -> list[PlanNode]:
        """Hour steps for a day block (or minute steps for an hour block), repaired into it."""
        assert self.ctx is not None and self.tree is not None, "make_day first"
        lo, hi = window or (node.start, node.end)
        fn = HourlyDecomposition() if node.level == "day" else MinuteDecomposition()
        inputs = DecomposeInputs(ctx=self.ctx, activity=node.description, place=node.place,
                                 start=lo, end=hi, reason=reason)
        out, rec = await self.scheduler.call(fn, inputs, agent=self.agent, deadline=deadline, game_time=t)
        self.records.append(rec)
        self._decomposed.add((node.start, node.level))
        level: Level = "hour" if node.level == "day" else "minute"
        source: NodeSource = "fallback" if rec.fallback_used else ("repair" if reason else "model")
        kids = nodes_from_times([(s.start, s.task, node.place) for s in out.steps], self.tree.day, level,
                                source, window=(lo, hi))
        if level == "minute":
            kids = minute_steps(kids)
        for k in kids:
            k.commitment_id = node.commitment_id
        self.tree.replace_window(lo, hi, kids)
        return kids

    async def lookahead(self, t: float) -> int:
        """Decompose everything in the buffer zone (III-A1); returns how many blocks."""
        due = self.due_decompositions(t)
        for n in due:
            await self.decompose(n, t=t)
        return len(due)

    async def replan_window(self, t: float, reason: str, *, deadline: float | None = None) -> list[PlanNode]:
        """Re-decompose the rest of the current day block after a change, keeping the day's structure.

        Commitments and sleep are not replanned: a blocked stove does not cancel a party.
        """
        if self.tree is None:
            return []
        node = self.tree.current_day_node(t)
        if node is None or node.source == "commitment" or is_sleep(node.description) or node.end - t < MIN_BLOCK_S:
            return []
        return await self.decompose(node, t=t, reason=reason, window=(t, node.end), deadline=deadline)
