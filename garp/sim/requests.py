"""Main-thread side, first half: what to ask the cognition thread, as typed jobs.

Ownership: the main thread owns the world, bodies, object states, needs and activities;
the cognition thread owns what an agent thinks (memory, plan tree, commitments, emotion,
relationships). Every job carries snapshots of main-thread state (garp.sim.messages), so
its inputs are fixed when it is asked and a headless run does not depend on machine speed.
"""

from __future__ import annotations

import math
from typing import Any

from garp.interfaces import Clock
from garp.mind.agent import Activity, AgentMind
from garp.mind.plan_tree import PlanNode, nodes_from_times
from garp.mind.planning import PlanContext, routine_activities
from garp.mind.reaction import react_to_state_change
from garp.sim.messages import (BodySnapshot, ChosenUse, ConverseJob, DecideJob, Meeting, NeedsSnapshot, PerceiveJob,
                               PlanDayJob, SeedJob, UsingSnapshot)
from garp.sim.opening import overnight
from garp.units import DAY_S

# --- tunables ---------------------------------------------------------------------------
DECISION_LEAD_WALL_S = 20.0  # wall seconds before an activity ends to start choosing the next (IV-A)
CANDIDATE_RADIUS_PX = 2400.0  # objects farther than this are not offered (III-A8's last radius)
PERCEIVE_MIN_GAP_S = 90 * 60.0  # game s between two perception jobs of one agent (call reduction, IV-B)
APPRAISE_MIN_GAP_S = 60 * 60.0  # game s between two perception-triggered appraisals (Table I: ~20 a day)
MAX_OBSERVATIONS = 3  # observations folded into one perception memory
STAY_S = 30 * 60.0  # game s an agent stays at a place it walked to without an object
PRIVATE_ROOM_WORDS = ("Bed", "Bath", "Toilet", "Wash")  # rooms of a home a guest does not use
STAFF_ROOM_WORDS = ("Kitchen",)  # rooms of a cafe or shop for those who work there


FIRST_CHOICE_SPACING_WALL_S = 2.0  # wall s between the cast's first choices: a little under what one choice's option
                                   # scoring takes on 2 cores (ten at once were "25.3 s of work, due in 20 s")


def first_decision_lead(clock: Any, lockstep: bool, ahead: int = 0) -> float:
    """Game seconds the opening activity goes on after the day plan arrives: one decision lead in real
    time, and a spacing more for each of the `ahead` characters whose first choice is still to come, so
    plans that arrive together (the scene's start) do not ask for twenty choices at once; none in
    lockstep, where every answer is on time."""
    return 0.0 if lockstep else clock.wall_to_game(DECISION_LEAD_WALL_S + ahead * FIRST_CHOICE_SPACING_WALL_S)


def friend_out(world: Any, mind: AgentMind, t: float) -> bool:
    """At the home of the friend the plan's company visit is for, and the friend is not there."""
    node = mind.plan.current_day_node(t) if mind.plan is not None else None
    if node is None or not node.visiting or world.bodies[mind.name].place != node.place:
        return False
    friend = world.bodies.get(node.visiting)
    return friend is None or friend.place != node.place


class Requests:
    """Builds the jobs; given the world and the clock it snapshots them from."""

    def __init__(self, *, world: Any, clock: Clock, minds: dict[str, AgentMind], scenario: Any, perception: Any,
                 known_places: list[str], lockstep: bool, answer_delay_s: float) -> None:
        self.world, self.clock, self.minds = world, clock, minds
        self.scenario, self.perception, self.known_places = scenario, perception, known_places
        self.lockstep, self.answer_delay_s = lockstep, answer_delay_s
        self.last_perceive: dict[str, float] = {}
        self.visited: dict[str, dict[int, list[str]]] = {}  # agent -> day -> places, in order

    def state(self) -> dict[str, Any]:
        """When each agent last perceived and the places it has seen each day (a save)."""
        return {"last_perceive": dict(self.last_perceive),
                "visited": {n: [[day, places] for day, places in days.items()] for n, days in self.visited.items()}}

    def restore(self, data: dict[str, Any]) -> None:
        self.last_perceive = {n: float(t) for n, t in data["last_perceive"].items()}
        self.visited = {n: {int(day): list(places) for day, places in days} for n, days in data["visited"].items()}

    # --- at start ---------------------------------------------------------------------------
    def seed_jobs(self, t: float) -> list[SeedJob]:
        for name, mind in self.minds.items():  # the hours of the day before the scene (needs.py)
            mind.needs.settle_day_so_far(t, skip=self.scenario.start_needs.get(name, {}))
            self.visit(name, t)
        return [SeedJob(agent=n, asked_t=t, due_t=t) for n in sorted(self.minds)]

    def routine_day(self, mind: AgentMind, day: int) -> list[PlanNode]:
        """The persona's routine as the blocks of one day (code, no model)."""
        p = mind.persona
        ctx = PlanContext(name=mind.name, home=p.home, workplace=p.workplace, routine=p.routine,
                          lifestyle=p.lifestyle, known_places=self.known_places)
        return nodes_from_times([(a.start, a.activity, a.place) for a in routine_activities(ctx)], day,
                                source="fallback")

    def opening_block(self, mind: AgentMind, t: float) -> PlanNode | None:
        """The routine block running when the scene opens; before the day's first block, the night's."""
        nodes = self.routine_day(mind, int(t // DAY_S))
        return next((n for n in nodes if n.contains(t)), None) or overnight(nodes, t)

    def start_activity(self, mind: AgentMind, t: float) -> Activity:
        """What an agent is doing when the scene opens, from its routine (code, no model): it
        carries on with it until its day plan arrives, so it is never idle waiting (IV-A)."""
        place = self.world.bodies[mind.name].place
        block = self.opening_block(mind, t)
        what = block.description if block else "starting the day"
        if block is not None and block.place and block.place != place:
            what = f"getting ready: {what}"
        return Activity("stay", what, place, start_t=t, end_t=block.end if block else t + STAY_S)

    # --- snapshots ----------------------------------------------------------------------------
    def body(self, name: str) -> BodySnapshot:
        b = self.world.bodies[name]
        return BodySnapshot(x=b.x, y=b.y, place=b.place, room=b.room)

    def visit(self, name: str, t: float) -> None:
        """Remember the places an agent has been today (novelty of action choice, III-A8)."""
        place = self.world.bodies[name].place
        seen = self.visited.setdefault(name, {}).setdefault(int(t // DAY_S), [])
        if place and place not in seen:
            seen.append(place)

    @staticmethod
    def needs(mind: AgentMind) -> NeedsSnapshot:
        n = mind.needs
        return NeedsSnapshot(values=n.snapshot(), rates=dict(n.rates), urgent=n.describe_urgent(mind.name),
                             summary=n.summary(mind.name))

    # --- jobs -----------------------------------------------------------------------------------
    def plan_job(self, mind: AgentMind) -> PlanDayJob:
        t = self.clock.t
        fresh, mind.wants_fresh_plan = mind.wants_fresh_plan, False
        return PlanDayJob(agent=mind.name, asked_t=t, due_t=t + self.answer_delay_s, day=self.clock.day_index(t),
                          fresh=fresh, needs=self.needs(mind), body=self.body(mind.name),
                          first_decision_t=t + first_decision_lead(self.clock, self.lockstep))

    def decide_job(self, mind: AgentMind, due: float) -> DecideJob:
        body = self.world.bodies[mind.name]
        block = mind.plan.current_day_node(due) if mind.plan is not None else None
        company_at = company_home(block.place if block is not None else None, body.place, mind.persona.home,
                                  gathering=block is not None and block.commitment_id is not None)
        objects = tuple(o.model_copy(update={"users": dict(o.users)})
                        for o in self.world.objects.near(body.x, body.y, CANDIDATE_RADIUS_PX)
                        if may_use(o, mind, company_at))
        self.visit(mind.name, self.clock.t)
        return DecideJob(agent=mind.name, asked_t=self.clock.t, due_t=due, objects=objects, body=self.body(mind.name),
                         needs=self.needs(mind), current=mind.activity.description, using=_using(mind),
                         recent_uses=_recent_uses(mind),
                         company_at=company_at, friend_out=friend_out(self.world, mind, due),
                         company_rooms=tuple(sorted({b.room for n, b in self.world.bodies.items()
                                                     if n != mind.name and b.place == body.place and b.room})),
                         visited=tuple(self.visited.get(mind.name, {}).get(int(due // DAY_S), [])))

    def converse_job(self, initiator: str, partner: str, chat_id: str, meeting: Meeting | None,
                     doings: list[dict[str, Any]] = ()) -> ConverseJob:
        """`doings`: a copy of the log's day events (`day_record.DAY_EVENTS`): what the two did today."""
        t = self.clock.t
        pair = (initiator, partner)
        return ConverseJob(agent=initiator, asked_t=t, due_t=t + self.answer_delay_s, partner=partner,
                           chat_id=chat_id, place=self.world.bodies[initiator].place,
                           bodies={n: self.body(n) for n in pair},
                           activities={n: self.minds[n].activity.description for n in pair},
                           clock_label=self.clock.date_label(t), meeting=meeting,
                           doings=tuple(doings))

    # --- perception ------------------------------------------------------------------------------
    def perceive(self, t: float) -> list[PerceiveJob]:
        """III-A7: perception events → reaction rules (main thread, live registry) → memory jobs."""
        if self.perception is None:
            return []
        self.perception.update(self.world.positions(), t)
        jobs = []
        for name in sorted(self.minds):
            notes, appraise = self._observe(name, t)
            mind = self.minds[name]
            if not notes or mind.booked or "perceive" in mind.pending:
                continue
            since = t - self.last_perceive.get(name, -math.inf)
            if since < (APPRAISE_MIN_GAP_S if appraise else PERCEIVE_MIN_GAP_S):
                continue
            self.last_perceive[name] = t
            jobs.append(PerceiveJob(agent=name, asked_t=self.clock.t, due_t=t + self.answer_delay_s,
                                    notes=tuple(notes[:MAX_OBSERVATIONS]), appraise=appraise,
                                    place=self.world.bodies[name].place, needs=self.needs(mind)))
        return jobs

    def _observe(self, name: str, t: float) -> tuple[list[str], bool]:
        """One agent's perception events as notes; whether they call for an appraisal. A walk to
        an object that is gone ends now, so the agent decides again (III-A7 step 5)."""
        mind = self.minds[name]
        notes, appraise, replan = [], False, False
        for e in self.perception.events_for(name):
            if e.kind == "agent_enter":
                place = self.world.bodies[name].place
                notes.append(f"{mind.name} saw {e.object_id}" + (f" at {place}" if place else ""))
                continue
            r = react_to_state_change(e, agent=name, planned_object_id=mind.activity.object_id or None,
                                      planned_verb=mind.activity.verb or None, home=mind.persona.home,
                                      registry=self.world.objects)
            if r.memory_text:
                notes.append(r.memory_text)
            appraise |= r.appraise
            replan |= r.replan
        if replan and mind.activity.kind == "walk" and not mind.booked:
            mind.activity.end_t = t
            mind.pending.pop("decide", None)
        return list(dict.fromkeys(notes)), appraise


def _using(mind: AgentMind) -> UsingSnapshot | None:
    """The object activity the agent may carry on with, if the last decision chose it."""
    act, last = mind.activity, mind.last_decision or {}
    if act.kind != "use" or not act.object_id or not last.get("plan_item"):
        return None
    return UsingSnapshot(object_id=act.object_id, verb=act.verb, plan_item=str(last.get("plan_item", "")),
                         carried_on=_carried_on(mind))


def _recent_uses(mind: AgentMind) -> tuple[ChosenUse, ...]:
    """The object uses the agent's recent decisions chose, latest first (copies for the decision job)."""
    out = []
    for d in reversed(mind.decisions):
        c = d.get("chosen")
        if isinstance(c, dict) and c.get("object_id"):
            out.append(ChosenUse(plan_item=str(d.get("plan_item", "")), object_id=c["object_id"], verb=c["verb"],
                                 duration_min=float(c.get("duration_min", 0.0))))
    return tuple(out)


def _carried_on(mind: AgentMind) -> int:
    """How many decisions in a row carried on with the same activity (action choice's limit)."""
    n = 0
    for d in reversed(mind.decisions):
        if d.get("mode") != "continue":
            return n
        n += 1
    return n


def is_home(place: str) -> bool:
    """A place someone lives in (the town's homes are houses and flats), private to its residents."""
    return place.endswith(("House", "Flat"))


def company_home(plan_place: str | None, here: str, home: str, gathering: bool = False) -> str | None:
    """The home where a character keeps others company (uses the rooms they are in), if any: another's, where
    its plan has it now (a visit), or its own while a gathering it is committed to is on there (the host of a
    party). Elsewhere, and at home on an ordinary day, every room is its to use: the rule kept a cook out of the
    cafe kitchen and a housemate in the bedroom, napping at 06:02."""
    there = plan_place is not None and plan_place == here and is_home(plan_place)
    return plan_place if there and (plan_place != home or gathering) else None


def may_use(obj: Any, mind: AgentMind, guest_at: str | None = None) -> bool:
    """Homes are private: only owners (residents own their home's shared objects) use objects inside them; a guest
    whose plan has them at that home right now (a visit) uses the shared rooms only. Elsewhere the back rooms
    (a cafe's kitchen) are for those who work there."""
    place = obj.place or ""
    if not is_home(place):
        return place == mind.persona.workplace or not _in_room(obj, STAFF_ROOM_WORDS)
    if mind.name in (obj.owners or []):
        return True
    if place == mind.persona.home:  # a housemate's own things (a bed has one owner) stay theirs
        return not obj.owners
    return place == guest_at and not _in_room(obj, PRIVATE_ROOM_WORDS)


def _in_room(obj: Any, words: tuple[str, ...]) -> bool:
    """Whether the object stands in a room whose name holds one of `words` ("Bedroom", "Kitchen")."""
    return any(w in (obj.room or "") for w in words)
