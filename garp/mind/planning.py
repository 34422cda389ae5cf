"""Hierarchical planning (paper III-A1, Algorithm 1): the planning LM functions and the Planner.

The model writes a day plan of 5-8 activities (`DailyPlan`; `routine_activities` is its
fallback) and breaks blocks into hourly and minute steps (`HourlyDecomposition`,
`MinuteDecomposition`). The `Planner` runs them for one agent: every day plan goes
through the repair rules in code (plan_repair.py, VI-b) before it becomes the agent's
`PlanTree` (plan_tree.py); hourly and minute levels are decomposed lazily by a
buffer-zone lookahead (`Planner.due_decompositions`, run by garp.sim.pipeline).
"""

from __future__ import annotations

import math
import re
from datetime import date
from typing import Any, ClassVar

from pydantic import BaseModel, Field, field_validator

from garp.engine.lmfunction import Candidate, LMFunction, chat
from garp.mind.commitments import Commitment, CommitmentBook, hhmm, match_place, parse_hhmm, parse_time_of_day
from garp.mind.first_person import first_person
from garp.mind.plan_repair import is_sleep, plan_repair
from garp.mind.routine import alternatives, persona_day, skipped_meals
from garp.mind.plan_tree import (
    DAY_S, KEEP_ON, LOOKAHEAD_S, STEP_PREFIX, Level, NodeSource, PlanNode, PlanTree, nodes_from_times,
)

# --- tunables -------------------------------------------------------------------------
DAY_ACTIVITIES = (5, 8)  # activities per daily plan (III-A1)
HOUR_STEPS = (2, 6)  # subtasks per hourly decomposition (III-A1)
MINUTE_STEP_S = (5 * 60.0, 15 * 60.0)  # minute-level step length, game s (III-A1)


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
    value: ClassVar[str] = "plan"
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

    # -- rank mode: the persona's own day, and its evening alternatives ("..., or a walk")
    def candidates(self, inputs: DailyPlanInputs) -> list[Candidate]:
        day = routine_activities(inputs.ctx)
        plans = [(day, 1.0, "routine")]
        evening = [k for k, a in enumerate(day) if a.start >= "17:00" and not is_sleep(a.activity)]
        for alt in alternatives(inputs.ctx.routine)[:3] if evening else []:
            k = evening[-1]
            plans.append((day[:k] + [day[k].model_copy(update={"activity": alt[:50]})] + day[k + 1:], 0.8,
                          f"routine, or {alt}"))
        return [Candidate(DayPlanOut(activities=acts), "; ".join(f"{a.start} {a.activity}" for a in acts), u, src)
                for acts, u, src in plans]

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
    """The persona's own day (garp/mind/routine.py: word hours, ranges, parts of the day, meals,
    wake and bed times), filled where it leaves the day open from a plain working day (5-8 items)."""
    items, ranges = persona_day(ctx.routine, ctx.lifestyle, home=ctx.home, workplace=ctx.workplace,
                                place_of=lambda text: match_place(text, ctx.known_places))
    routine = [Activity(start=hhmm(i.hour * 3600), activity=i.what[:50], place=i.place[:24]) for i in items]
    routine = _fit_activities(routine)
    work = ctx.workplace or ctx.home
    doing = "work" if ctx.workplace else home_work(ctx.occupation)
    plain = [("07:00", "wake up and have breakfast", ctx.home), ("09:00", doing, work),
             ("12:30", "have lunch", work), ("13:30", doing, work), ("17:30", "free time", ctx.home),
             ("19:00", "have dinner", ctx.home), ("20:00", "relax at home", ctx.home), ("23:00", "sleep", ctx.home)]
    taken = [parse_hhmm(a.start) or 0.0 for a in routine]
    for s, a, p in plain:  # the plain day fills what the routine leaves open (always 5-8 items)
        secs = parse_hhmm(s) or 0.0
        covered = any(lo * 3600 <= secs < hi * 3600 for lo, hi in ranges)
        own = sum(a.activity != "free time" for a in routine)  # free time is no activity of the routine's
        if own < DAY_ACTIVITIES[0] and not covered and all(abs(secs - x) >= 3600 for x in taken):
            routine.append(Activity(start=s, activity=a, place=p[:24]))
            taken.append(secs)
    return _fit_activities(sorted(routine, key=lambda a: a.start))


def _fit_activities(acts: list[Activity]) -> list[Activity]:
    """At most DAY_ACTIVITIES[1]: meals and free time give way first, the routine's own clauses last."""
    spare = ("free time", "have lunch", "relax at home")
    while len(acts) > DAY_ACTIVITIES[1]:
        drop = next((a for a in acts if a.activity in spare), acts[-2])
        acts = [a for a in acts if a is not drop]
    return acts


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


class HourlyDecomposition(LMFunction):
    """A day activity → hourly subtasks (III-A1)."""

    name: ClassVar[str] = "hourly_decomposition"
    value: ClassVar[str] = "plan"
    Output: ClassVar[type[BaseModel]] = HourSteps
    priority: ClassVar[int] = 4
    temperature: ClassVar[float] = 0.3
    max_tokens: ClassVar[int] = 200

    def messages(self, inputs: DecomposeInputs, reasoning: bool) -> list[dict]:
        return _decompose_messages(inputs, "hourly", reasoning)

    def fallback(self, inputs: DecomposeInputs) -> HourSteps:
        # A fallback of a fallback step must not read "keep on: keep on: ..." in the plan panel.
        base = inputs.activity.removeprefix(KEEP_ON)
        return HourSteps(steps=[Step(start=hhmm(inputs.start), task=step_task(inputs.activity)),
                                Step(start=hhmm((inputs.start + inputs.end) / 2), task=step_task(f"{KEEP_ON}{base}"))])

    def check(self, inputs: DecomposeInputs, out: HourSteps) -> HourSteps:
        _steps_check(inputs, out.steps)
        return out

    # -- rank mode: the block split by patterns in code; the model picks the one that fits it
    def candidates(self, inputs: DecomposeInputs) -> list[Candidate]:
        out = [Candidate(self.fallback(inputs), f"{inputs.activity}, then keep on", 0.5, "keep on")]
        for source, tasks in step_patterns(inputs.activity.removeprefix(KEEP_ON), inputs.end - inputs.start):
            span = inputs.end - inputs.start
            steps = [Step(start=hhmm(inputs.start + span * k / len(tasks)), task=step_task(t)) for k, t in enumerate(tasks)]
            if len({st.start for st in steps}) == len(steps):
                out.append(Candidate(HourSteps(steps=steps), ", then ".join(tasks), 0.6, source))
        return out


_MEAL = re.compile(r"\b(breakfast|lunch|dinner|supper|eat|meal|cook)\w*", re.I)


def step_task(text: str, limit: int = 50) -> str:
    """A step's task within Step's 50 characters, cut at a word (never "apologi")."""
    return text if len(text) <= limit else text[:limit + 1].rsplit(" ", 1)[0].rstrip(",;:")


def step_patterns(activity: str, span_s: float) -> list[tuple[str, list[str]]]:
    """Ways to split a block into steps, by what kind of activity it is (sleep is not split)."""
    a = STEP_PREFIX.sub("", activity.strip())
    if is_sleep(a) or span_s < 20 * 60:
        return []
    if m := _MEAL.search(a):
        meal = m.group(0).lower() if m.group(0).lower() in ("breakfast", "lunch", "dinner", "supper") else "a meal"
        return [("meal", [f"prepare {meal}", f"eat {meal}", "tidy up"]), ("meal, short", [f"eat {meal}", "tidy up"])]
    long = span_s >= 2 * 3600
    pats = [("work with a break", [a, "take a short break", a])] if long else []
    return pats + [("start and keep on", [f"get started: {a}", a]), ("finish up", [a, f"finish up: {a}"])]


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
REMEMBERED_PLAN_CHARS = 300  # a remembered day plan is a memory: kept to a memory's length
_PLAN_ITEM = re.compile(r"(?:: |, )([^,:]+?) at (\d\d:\d\d)")


def plan_memory_prefix(name: str) -> str:
    return f"{name}'s plan for "


def plan_memory(name: str, weekday: str, nodes: list) -> str:
    """The day plan as its owner remembers it: "Maya's plan for Monday: work at 08:00, have lunch
    at 12:30, ...", waking hours only, without the places (the plan tab shows those)."""
    awake = [n for n in nodes if not is_sleep(n.description)]
    items = ", ".join(f"{n.description} at {hhmm(n.start)}" for n in awake)
    return f"{plan_memory_prefix(name)}{weekday}: {items}"[:REMEMBERED_PLAN_CHARS]


PLAN_LOOKBACK = 40  # recent thoughts searched for today's remembered day plan


def plan_today(mind: Any, t: float) -> list[tuple[str, float]]:
    """(what, seconds after midnight) of each block of today's day plan as the character remembers it,
    in the first person ("practise my scales"); none before it has one."""
    prefix = plan_memory_prefix(mind.persona.name)
    plan = next((r for r in mind.memory.recent(PLAN_LOOKBACK, ["thought"]) if r.description.startswith(prefix)
                 and r.created // DAY_S == t // DAY_S), None)
    if plan is None:
        return []
    return [(lower_first(first_person(what, mind.persona.name, pronouns=True)), start)
            for what, start in read_plan_memory(plan.description)]


def lower_first(text: str) -> str:
    return text[:1].lower() + text[1:] if text[:2] != "I " else text


def read_plan_memory(text: str) -> list[tuple[str, float]]:
    """(what, seconds after midnight) of each block of a remembered day plan (`plan_memory`)."""
    return [(what.strip(), start) for what, at in _PLAN_ITEM.findall(text)
            if (start := parse_hhmm(at)) is not None]


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

    def state(self) -> dict[str, Any]:
        """The plan tree, the context its prompts are made from and what was decomposed (a save;
        `records` is a debugging trail nothing reads back, so it is not kept)."""
        return {"tree": self.tree.to_dict() if self.tree is not None else None,
                "ctx": self.ctx.model_dump(mode="json") if self.ctx is not None else None,
                "decomposed": sorted([start, level] for start, level in self._decomposed)}

    def restore(self, data: dict[str, Any]) -> None:
        self.tree = PlanTree.from_dict(data["tree"]) if data.get("tree") else None
        self.ctx = PlanContext.model_validate(data["ctx"]) if data.get("ctx") else None
        self._decomposed = {(float(start), level) for start, level in data.get("decomposed", [])}

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
        source: NodeSource = "fallback" if rec.fallback_used else "routine" if rec.mode == "code" else "model"
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
                           start_date=ctx.start_date, skipped=skipped_meals(ctx.lifestyle))

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
