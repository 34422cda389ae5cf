"""The cognition handlers: what each kind of job does on the cognition thread.

One Brain serves every agent. Per agent the pipeline is: seed (scenario memories,
commitments, relationships) → day plan → buffer-zone decomposition + decision ahead of
need → perception (memory, optional appraisal, replan signal) → conversations →
reflection. Handlers read the job's snapshot and the agent's cognition-owned state
(memory, planner, commitments, emotion, relationships) and return Commands for the main
thread; they never touch the world.
"""

from __future__ import annotations

from contextvars import ContextVar
from datetime import timedelta
from typing import Any, Awaitable, Callable

from garp.interfaces import Clock, EventSink, ModelScheduler, TextEmbedder
from garp.mind.affordance_filter import AffordanceEmbeddings, filter_affordances, with_novel
from garp.mind.action import KEEP_MIN_DURATION_MIN, choose_action
from garp.mind.agent import AgentMind
from garp.mind.commitments import make_commitment
from garp.mind.emotion import EmotionState
from garp.mind.news import intention_event, invitation_visits
from garp.mind.phrasebook import Phrasebook
from garp.mind.routine import work_end_times
from garp.mind.plan_repair import Friend, end_visit, is_free_time, is_meal, is_sleep, seek_company
from garp.mind.plan_tree import PlanNode, PlanTree, activity_key, block_key, goal_text
from garp.mind.planning import PlanContext, Planner, plan_memory
from garp.mind.reflection import reflect
from garp.scenario.schema import Scenario, hhmm_to_seconds
from garp.sim.cognition import REQUEST_DEADLINE_WALL_S
from garp.sim.messages import (ChosenUse, Command, CommitmentMade, ConverseJob, DecideJob, Do, Job, JobDone,
                               NeedsSnapshot, PerceiveJob, PlanDayJob, PlanMirror, SeedJob, SetPlan)
from garp.sim.conversation_job import converse, emotion_command
from garp.sim.hooks import SceneHooks
from garp.units import DAY_S

# --- tunables ---------------------------------------------------------------------------
MIN_ACTIVITY_S = 10 * 60.0  # game s: an activity is never cut shorter than this by its plan block
JUST_BE_MAX_S = 30 * 60.0  # game s: being somewhere without an object is re-decided this often
MIN_TRIP_S = 30 * 60.0  # game s: a block elsewhere ending sooner than this is not set out for (our rule)
REFLECTIONS_SHOWN = 3  # earlier reflections put into the day-plan prompt (III-A1)
TALK_LAG_MAX_S = 30 * 60.0  # game s: a talk's lines are composed for at most this far ahead of the clock
TALK_LAG_WEIGHT = 0.5  # weight of the last talk's composing time in the running estimate

# The running job's deadline: one per job, however many model calls the job chains (a day plan,
# decompositions, the choice), so a late decision is bounded by one lead, not one per call.
_JOB_DEADLINE: ContextVar[float | None] = ContextVar("job_deadline", default=None)


def done_in_block(recent: tuple[ChosenUse, ...], plan_item: str) -> frozenset[tuple[str, str]]:
    """The short tasks (a shower, clearing the table) already chosen in this plan block: done once, not offered
    again until the plan moves on. Re-offered, the model chose Jonah's shower every 15 minutes from 08:08 to 12:30
    of a "painting" block with no easel at home."""
    key, done = block_key(plan_item), set()
    for use in recent:  # latest first: the block's uses end where another activity's begin
        if block_key(use.plan_item) != key:
            break
        if use.duration_min < KEEP_MIN_DURATION_MIN:
            done.add((use.object_id, use.verb))
    return frozenset(done)


class Brain:
    """The cognition handlers (a garp.interfaces.JobHandler and JobContext)."""

    def __init__(self, *, scenario: Scenario, scheduler: ModelScheduler, embedder: TextEmbedder, clock: Clock,
                 minds: dict[str, AgentMind], log: EventSink, known_places: list[str], switches: dict[str, bool],
                 homes: dict[str, str], rel_hooks: Any, sequential: bool) -> None:
        self.scenario, self.scheduler, self.embedder, self.clock = scenario, scheduler, embedder, clock
        self.minds, self.log, self.switches = minds, log, switches
        self.known_places, self.homes = known_places, homes
        self.workplaces = {n: m.persona.workplace for n, m in minds.items()}
        self.free_at = work_end_times({n: m.persona for n, m in minds.items()})  # when a friend may call
        self.rel_hooks = rel_hooks
        self.sequential = sequential
        self.hooks = SceneHooks(scenario)
        self.phrasebook = Phrasebook()  # how often each line was said in the town today
        self.talk_lag = 0.0  # game s a talk's lines took to compose lately (play shows them when they arrive)
        self.affordances = AffordanceEmbeddings(embedder)
        self.company_off_until: dict[str, float] = {}  # agent -> game s the company rule rests until
        self._trees: dict[str, tuple[int, PlanTree | None]] = {}  # agent -> (serial, tree it numbers)
        self.planners = {n: Planner(scheduler, m.commitments, agent=n, minute_level=switches["minute_plans"])
                         for n, m in minds.items()}
        self._handlers: dict[type[Job], Callable[[Any, AgentMind], Awaitable[list[Command]]]] = {
            SeedJob: self._job_seed, PlanDayJob: self._job_plan_day, DecideJob: self._job_decide,
            PerceiveJob: self._job_perceive, ConverseJob: self._job_converse}

    # --- save / restore (on the cognition thread, or while it is idle) ------------------------
    def state(self) -> dict[str, Any]:
        """Each agent's planner and plan number, the company rule's rests, the relationship hooks' state (a save)."""
        return {"planners": {n: p.state() for n, p in self.planners.items()},
                "serials": {n: serial for n, (serial, _) in self._trees.items()},
                "company_off_until": dict(self.company_off_until), "rel_hooks": self.rel_hooks.state(),
                "phrasebook": self.phrasebook.state()}

    def restore(self, data: dict[str, Any]) -> None:
        """The serial of each planner's current tree is kept, so a saved PlanMirror still matches."""
        for name, saved in data["planners"].items():
            self.planners[name].restore(saved)
        self._trees = {n: (int(serial), self.planners[n].tree) for n, serial in data["serials"].items()}
        self.company_off_until = {n: float(t) for n, t in data["company_off_until"].items()}
        self.rel_hooks.restore(data["rel_hooks"])
        self.phrasebook.restore(data.get("phrasebook", {}))  # older saves have none

    # --- dispatch --------------------------------------------------------------------------
    async def handle(self, job: Job) -> list[Command]:
        fn = self._handlers[type(job)]
        token = _JOB_DEADLINE.set(None if self.sequential else self._deadline_for(job))
        try:
            commands = await fn(job, self.minds[job.agent])
            if self.sequential:  # lockstep: every model call this job started is finished inside it
                for n in self._involved(job):
                    await self.minds[n].memory.drain()
            await self._maybe_reflect(job)
        finally:
            _JOB_DEADLINE.reset(token)
        return commands + self._mirrors(job) + [JobDone(agent=job.agent, partner=next(iter(job.others()), None))]

    def _deadline_for(self, job: Job) -> float:
        """Play: the wall time the job's answer is due (its game-time due point through the clock),
        but never sooner than one request lead from now, so an answer asked for late still gets
        its chance before the fallback (IV-A)."""
        until_due = self.clock.game_to_wall(job.due_t - self.clock.t)
        return self.scheduler.deadline_in(max(REQUEST_DEADLINE_WALL_S, until_due))

    def deadline(self) -> float | None:
        """The running job's deadline (None in lockstep, so results never depend on speed)."""
        return _JOB_DEADLINE.get()

    def now(self, job: Job) -> float:
        """The game time a job's work is about: when it was asked in lockstep (results never depend
        on speed); in play the clock's time, if later: a job that waited its turn says what is true
        when it is shown, not when it was asked."""
        return job.asked_t if self.sequential else max(job.asked_t, self.clock.t)

    def talk_time(self, job: Job) -> float:
        """The game time a talk's lines are composed for: `now`, and in play how long talks lately took
        to compose, since the lines are shown when they arrive ("Next on my list: lunch at 12:30" is
        still ahead then, and "since 09:00" counts to then)."""
        return self.now(job) + (0.0 if self.sequential else self.talk_lag)

    def talk_composed(self, started_t: float) -> None:
        """A talk whose composing began at clock time `started_t` has its lines ready (play only)."""
        if not self.sequential:
            took = min(TALK_LAG_MAX_S, max(0.0, self.clock.t - started_t))
            self.talk_lag += TALK_LAG_WEIGHT * (took - self.talk_lag)

    def _involved(self, job: Job) -> list[str]:
        return [job.agent, *job.others()]

    # --- seed -------------------------------------------------------------------------------
    def commit(self, mind: AgentMind, c: Any, t: float) -> Command:
        """Store a commitment (the plan carries it at once) and tell the main thread."""
        stored = self.planners[mind.name].add_commitment(c)
        return CommitmentMade(agent=mind.name, commitment=stored.model_copy(), t=t)

    def set_plan(self, name: str) -> SetPlan:
        """Hand a copy of the agent's current plan to the main thread (the planner keeps changing its own)."""
        tree = self.planners[name].tree
        return SetPlan(agent=name, tree=tree.model_copy(deep=True), day=tree.day, serial=self._serial(name))

    def _serial(self, name: str) -> int:
        """A number per plan tree the planner has made, so a mirror of a tree the main thread was
        never handed (its SetPlan was dropped as stale) does not replace the plan it has."""
        tree = self.planners[name].tree
        serial, numbered = self._trees.get(name, (0, None))
        if tree is not numbered:
            serial += 1
            self._trees[name] = (serial, tree)
        return serial

    def _mirrors(self, job: Job) -> list[Command]:
        """The plans as the job left them (decompositions, commitments put in), as copies."""
        return [PlanMirror(agent=n, tree=self.planners[n].tree.model_copy(deep=True), serial=self._serial(n))
                for n in self._involved(job) if self.planners[n].tree is not None]

    async def _job_seed(self, job: SeedJob, mind: AgentMind) -> list[Command]:
        t = job.asked_t
        out: list[Command] = []
        mind.memory.score_pending()  # persona seeds were written at build time; score them now
        for m in (x for x in self.scenario.seed_memories if x.agent == mind.name):
            await mind.memory.remember(m.text, t=min(t, hhmm_to_seconds(m.day, m.time)), type=m.type,
                                       location=m.location, poignancy=m.poignancy)
        for c in self.scenario.seed_commitments:
            if mind.name in c.who:
                start, end = hhmm_to_seconds(c.day, c.start), hhmm_to_seconds(c.day, c.end)
                own = c.proposer == mind.name
                out.append(self.commit(mind, make_commitment(
                    c.what, start, c.place, c.proposer, participants=c.who, end=end, created_t=t, room=c.room,
                    source="own" if own else "heard-from-host", heard_from=None if own else c.proposer), t))
        out += self._intentions(mind, t)
        inv = self.hooks.invitation()
        if inv and inv[0] == mind.name:
            out += [self.commit(mind, c, t) for c in [inv[1], *self.hooks.invitation_visits(self.homes, self.workplaces)]]
        for agent, state in self.hooks.opening_emotions():
            if agent == mind.name and self.switches["emotions"]:
                mind.emotion.set(EmotionState(**state, t=t, cause="scene"))
                out.append(emotion_command(mind, t))
        return out

    def _intentions(self, mind: AgentMind, t: float) -> list[Command]:
        """The events this mind means to gather people for (issue 19): its own commitment, known to it
        alone, and the invitation visits its planner makes of it (garp.mind.news)."""
        out: list[Command] = []
        for i in (x for x in self.scenario.intentions if x.owner == mind.name):
            event = intention_event(i.what, hhmm_to_seconds(i.day, i.start), hhmm_to_seconds(i.day, i.end), i.place,
                                    mind.name, i.invite, room=i.room or None, open_=i.open)
            mind.events.learn(event)
            visits = invitation_visits(event, i.invite, self.homes, self.workplaces, t)
            out += [self.commit(mind, c, t) for c in [event, *visits]]
        return out

    def _scene_nerves(self, mind: AgentMind, t: float) -> list[Command]:
        """Stage nerves rise as the performance nears (scene hook), checked at each decision."""
        state = self.hooks.rising_nerves(mind.name, mind.emotion.current, t) if self.switches["emotions"] else None
        if state is None:
            return []
        mind.emotion.set(EmotionState(**state, t=t, cause="scene: the performance nears"))
        return [emotion_command(mind, t)]

    # --- day plan ------------------------------------------------------------------------------
    def _context(self, mind: AgentMind, urgent: str) -> PlanContext:
        p = mind.persona
        reflections = [r.description for r in mind.memory.recent(40, types=["thought"])
                       if getattr(r, "evidence", None)][:REFLECTIONS_SHOWN]
        return PlanContext(name=mind.name, age=p.age, adjectives=mind.personality.adjectives, occupation=p.occupation,
                           lifestyle=p.lifestyle, routine=p.routine, home=p.home, workplace=p.workplace,
                           reflections=reflections, emotion=mind.emotion.describe() if self.switches["emotions"] else "calm",
                           urgent_needs=urgent, known_places=self.known_places,
                           start_date=self.scenario.start_date)

    async def _job_plan_day(self, job: PlanDayJob, mind: AgentMind) -> list[Command]:
        tree, day = self.planners[mind.name].tree, job.day
        if tree is not None and tree.day == day and not job.fresh:
            return [self.set_plan(mind.name)]  # an earlier decision made it
        out = await self._plan(mind, day, job.asked_t, job.needs.urgent)
        # the first decision's decompositions are made with the plan, while the agent still carries
        # on with its opening activity, so the decision itself is quick (IV-A)
        await self._lookahead(mind, self.planners[mind.name], job.first_decision_t, job.asked_t)
        return out

    async def _lookahead(self, mind: AgentMind, planner: Planner, t: float, asked_t: float) -> None:
        """Buffer-zone lookahead (III-A1): decompose the blocks starting soon after `t`."""
        for node in planner.due_decompositions(t):
            kids = await planner.decompose(node, t=asked_t, deadline=self.deadline())
            self.log.emit("plan", asked_t, agent=mind.name, level=kids[0].level if kids else "hour",
                          parent=node.label(), items=[k.label() for k in kids])

    async def _plan(self, mind: AgentMind, day: int, t: float, urgent: str) -> list[Command]:
        """Day plan (III-A1), repaired in code with the day's commitments put back."""
        planner = self.planners[mind.name]
        date = self.scenario.start_date + timedelta(days=day)
        tree = await planner.make_day(day, self._context(mind, urgent), t=t,
                                      date_label=f"{date:%A} {date.day} {date:%B %Y}", deadline=self.deadline())
        items = [n.label() for n in tree.nodes]
        self.log.emit("plan", t, agent=mind.name, day=day, level="day", items=items)
        summary = plan_memory(mind.name, f"{date:%A}", tree.nodes)
        await self._prefetch([n.description for n in tree.nodes] + [summary])
        await mind.memory.remember(summary, t=t, type="thought", poignancy=3)
        return [self.set_plan(mind.name)]

    async def _prefetch(self, texts: list[str]) -> None:
        """Embed a plan's goal texts in one batch when the plan is made, so each later decision
        finds its goal in the embedder's LRU instead of running the model for it (IV-B)."""
        if texts:
            await self.embedder.aembed(texts)

    # --- decision ahead of need -------------------------------------------------------------------
    async def _job_decide(self, job: DecideJob, mind: AgentMind) -> list[Command]:
        planner, t = self.planners[mind.name], job.due_t
        out = await self._replans(job, mind, planner)
        await self._lookahead(mind, planner, t, job.asked_t)
        node = self._plan_node(planner, t, job.body.place)
        plan_item = node.description if node else "free time"
        urgent = f". {job.needs.urgent}" if job.needs.urgent else ""
        goal = goal_text(plan_item, node.place if node else None) + urgent
        # however the plan changed, its new goals and this decision's goal go in one batch (IV-B)
        leaves = [goal_text(n.description, n.place) for n in planner.tree.leaves()] if planner.tree else []
        goal_vec = (await self.embedder.aembed(leaves + [goal]))[-1]
        target = meal_place(job, plan_item, node.place if node and node.place else None, mind.persona.workplace)
        objects, novel, how = self._offered(job, mind, planner, node, target)
        if how:
            return out + [self._just_be(mind, node, t, target, plan_item, job.asked_t, how)]
        block = planner.tree.current_day_node(t) if planner.tree is not None else None  # its steps are the model's
        candidates = self._candidates(job, mind, goal_vec, objects, novel, plan_item,
                                      arranged=block is not None and block.source == "commitment")
        return out + [await self._choose(job, mind, planner, node, plan_item, target, candidates)]

    async def _replans(self, job: DecideJob, mind: AgentMind, planner: Planner) -> list[Command]:
        """What changes the plan before a decision: a new day, a missed visit, the company rule, stage nerves."""
        t, out = job.due_t, []
        day = int(t // DAY_S)
        if planner.tree is None or planner.tree.day != day:  # the decision falls on a new day
            out += await self._plan(mind, day, job.asked_t, job.needs.urgent)
        out += await self._end_missed_visit(mind, planner, t, job.asked_t, job.friend_out)
        out += self._seek_company(mind, planner, t, job.asked_t, job.needs)
        return out + self._scene_nerves(mind, job.asked_t)

    def _offered(self, job: DecideJob, mind: AgentMind, planner: Planner, node: PlanNode | None,
                 target: str | None) -> tuple[list[Any], list[Any], str]:
        """The objects offered at the plan's place, the novel ones, and how to just be there
        ("just go", "stay") when there is nothing to use ("" when there is)."""
        here_place = job.body.place
        objects = self._in_room(list(job.objects), planner, node)
        novel = self._novel_objects(mind, planner.tree, node, job.due_t, job)
        if target and target != here_place:
            there = [o for o in objects if target in (o.place, o.room)]
            return there, novel, "" if there else "just go"
        here = [o for o in objects if o.place == here_place]
        if not here and target == here_place and not novel:  # e.g. a visit: being there is the activity
            return objects, novel, "stay"
        objects = here or objects
        if job.company_at == here_place:  # a guest keeps the hosts company, a host its guests (III-A9)
            objects = [o for o in objects if o.room in job.company_rooms] or objects
        return objects, novel, ""

    def _candidates(self, job: DecideJob, mind: AgentMind, goal_vec: Any, objects: list[Any], novel: list[Any],
                    plan_item: str, arranged: bool = False) -> list[Any]:
        """Eq. 3 filter over the offered objects, with novel places added for a curious agent (food only to
        the hungry, at a meal or at an arranged gathering: `sated_choices`)."""
        at = (job.body.x, job.body.y)
        work = mind.persona.workplace
        # the night's sleep belongs to the plan's sleep block (naps stay); left out before the filter ranks, or
        # the bed's sleep took one of its best-two places and the kitchen was never offered for breakfast
        out = frozenset() if is_sleep(plan_item) else frozenset(("sleep",))

        done = done_in_block(job.recent_uses, plan_item)

        def offered(objs: list[Any]) -> list[Any]:
            return filter_affordances(goal_vec, at, mind.persona.home, objs, self.affordances, agent=mind.name,
                                      workplace=work, leave_out=out, done=done)

        cands = with_novel(offered(objects), offered(novel)) if novel else offered(objects)
        return cands if arranged else sated_choices(cands, job.needs.values.get("hunger", 0.0), plan_item)

    async def _choose(self, job: DecideJob, mind: AgentMind, planner: Planner, node: PlanNode | None,
                      plan_item: str, target: str | None, candidates: list[Any]) -> Do:
        """The action choice (III-A8) and how long the chosen activity lasts within its plan block."""
        t = job.due_t
        decision = await choose_action(
            self.scheduler, agent=mind.name, plan_item=plan_item, personality_text=mind.personality.personality_text,
            emotion=mind.emotion.describe() if self.switches["emotions"] else "calm", needs=job.needs.values,
            urgent_needs=job.needs.urgent, candidates=candidates, t=t, mode=self.scheduler.choice_mode,
            deadline=self.deadline(), novelty=mind.personality.axis_values().get("novelty", 0.0),
            visited=list(job.visited), keep=self._keep(job, plan_item, target))
        record = decision.model_dump(mode="json")
        self._log_decision(mind.name, job.asked_t, record, decision.chosen)
        c = decision.chosen
        if c is None:
            return Do(agent=mind.name, place=target or mind.persona.home, description=plan_item,
                      duration_s=MIN_ACTIVITY_S, decision=record)
        full = c.duration_min * 60.0
        left = ((planner.tree.run_end(max(t, node.start)) or node.end) - t) if node else full
        duration = max(MIN_ACTIVITY_S, min(full, left))
        effects = {k: v * min(1.0, duration / full) for k, v in c.relieves.items()}
        return Do(agent=mind.name, object_id=c.object_id, verb=c.verb, place=c.place,
                  description=f"{c.verb} ({c.object_name}) for {plan_item}", duration_s=duration, effects=effects,
                  decision=record)

    @staticmethod
    def _keep(job: DecideJob, plan_item: str, place: str | None) -> tuple[str, str, int] | None:
        """The object and verb to carry on with when the plan still says the same thing and no
        need has become urgent (a continued activity needs no new choice, IV-B)."""
        using = job.using
        if not using or job.needs.urgent or activity_key(using.plan_item, place) != activity_key(plan_item, place):
            return None
        return using.object_id, using.verb, using.carried_on

    @staticmethod
    def _in_room(objects: list[Any], planner: Planner, node: Any) -> list[Any]:
        """A commitment that names a room ("the music room") is kept inside that room."""
        if node is None or planner.tree is None:
            return objects
        room = next((n.room for n in planner.tree.path(node.start) if n.room), None)
        inside = [o for o in objects if o.place == node.place and o.room == room] if room else []
        return inside or objects

    def _just_be(self, mind: AgentMind, node: Any, t: float, target: str, plan_item: str, asked_t: float,
                 how: str) -> Command:
        """No usable object at the plan's place: go (or stay) there for the rest of the block."""
        decision = {"agent": mind.name, "t": t, "plan_item": plan_item, "mode": "none",
                    "why": f"plan says {target}; no usable object there, so {how}", "candidates": []}
        self._log_decision(mind.name, asked_t, decision, None)
        left = (node.end - t) if node else MIN_ACTIVITY_S
        return Do(agent=mind.name, place=target, description=plan_item, decision=decision,
                  duration_s=min(JUST_BE_MAX_S, max(MIN_ACTIVITY_S, left)))

    def _plan_node(self, planner: Planner, t: float, here: str) -> Any:
        """The plan leaf to act on; a block elsewhere that is nearly over gives way to the next one."""
        tree = planner.tree
        if tree is None:
            return None
        day_node = tree.current_day_node(t)
        if (day_node is not None and day_node.place and day_node.place != here and day_node.source != "commitment"
                and day_node.end - t < MIN_TRIP_S):
            return tree.current(day_node.end) or tree.current(t)
        return tree.current(t)

    def _seek_company(self, mind: AgentMind, planner: Planner, t: float, asked_t: float,
                      needs: NeedsSnapshot) -> list[Command]:
        """Need-driven replan (plan_repair): free time becomes a visit when loneliness will outgrow it."""
        if not self.switches["needs"] or planner.tree is None or t < self.company_off_until.get(mind.name, 0.0):
            return []
        rels = mind.relationships
        friends = [Friend(n, self.homes.get(n, ""), rels.closeness(n)) for n in sorted(self.minds)
                   if n != mind.name and rels is not None]
        visit = seek_company(planner.tree, t, home=mind.persona.home, social=needs.values.get("social", 0.0),
                             social_rate=needs.rates.get("social", 0.0), friends=friends)
        if visit is None:
            return []
        return self._replanned(mind, planner, asked_t, "social need", visit)

    async def _end_missed_visit(self, mind: AgentMind, planner: Planner, t: float, asked_t: float,
                                friend_out: bool) -> list[Command]:
        """A company visit that finds the friend out ends: home for the rest of it, and the
        company rule rests until then (it would only send the agent back to the empty house)."""
        node = planner.tree.current_day_node(t) if planner.tree is not None and friend_out else None
        if node is None or not node.visiting:
            return []
        back = end_visit(planner.tree, node, t, mind.persona.home)
        self.company_off_until[mind.name] = back.end
        await mind.memory.remember(f"{mind.name} went to see {node.visiting} at {node.place}, "
                                   f"but {node.visiting} was not at home", t=asked_t, type="event", location=node.place)
        return self._replanned(mind, planner, asked_t, "friend not home", back)

    def _replanned(self, mind: AgentMind, planner: Planner, asked_t: float, reason: str, node: PlanNode) -> list[Command]:
        """Log a need-driven change of the day plan and hand the changed plan to the main thread."""
        self.log.emit("plan", asked_t, agent=mind.name, level="day", reason=reason, items=[node.label()])
        return [self.set_plan(mind.name)]

    @staticmethod
    def _novel_objects(mind: AgentMind, tree: Any, leaf: Any, t: float, job: DecideJob) -> list[Any]:
        """A curious agent who is out when free time begins is also offered public places not yet
        visited today (novelty preference, VI-c); the utility's novelty term does the rest. The
        free time is that of the block the decision acts for (`leaf`'s), not of one ending now."""
        block = tree.current_day_node(max(t, leaf.start)) if tree is not None and leaf is not None else None
        curious = mind.personality.axis_values().get("novelty", 0.0) > 0
        out_and_about = job.body.place != mind.persona.home  # free time at home stays at home
        if not curious or not out_and_about or block is None or not is_free_time(block, mind.persona.home):
            return []
        seen = set(job.visited)
        return [o for o in job.objects if o.place and o.place not in seen and o.place != block.place]

    def _log_decision(self, agent: str, t: float, record: dict[str, Any], chosen: Any) -> None:
        self.log.emit("decision", t, agent=agent, plan_item=record.get("plan_item"), mode=record.get("mode"),
                      chosen=f"{chosen.verb} {chosen.object_id}" if chosen is not None else None,
                      candidates=[f"{c['verb']} {c['object_id']} {c['score']:.2f}" for c in record.get("candidates", [])],
                      why=str(record.get("why", ""))[:160])

    # --- perception ------------------------------------------------------------------------------
    async def _job_perceive(self, job: PerceiveJob, mind: AgentMind) -> list[Command]:
        t = job.asked_t
        text = "; ".join(job.notes)
        await mind.memory.remember(text, t=t, type="event", location=job.place,
                                         emotion=mind.emotion.current.label, intensity=mind.emotion.current.intensity)
        if self.switches["emotions"] and job.appraise:
            await mind.emotion.appraise(self.scheduler, mind.personality, f"{mind.name} notices: {text}", t=t,
                                        needs_summary=job.needs.summary, deadline=self.deadline())
            return [emotion_command(mind, t)]
        return []

    # --- conversation -------------------------------------------------------------------------------
    async def _job_converse(self, job: ConverseJob, mind: AgentMind) -> list[Command]:
        return await converse(self, job, mind, self.minds[job.partner])

    # --- reflection ---------------------------------------------------------------------------------
    async def _maybe_reflect(self, job: Job) -> None:
        """Reflection (III-A2) after any job whose memories pushed poignancy past the threshold."""
        for name in self._involved(job):
            mind = self.minds[name]
            if not mind.memory.reflection_due():  # handle() has drained lockstep scores already
                continue
            emo = mind.emotion.current
            result = await reflect(mind.memory, self.scheduler, t=job.asked_t,
                                   personality_text=mind.personality.personality_text,
                                   emotion=emo.label, intensity=emo.intensity, people=list(self.minds))
            self.log.emit("reflection", job.asked_t, agent=name, questions=result.questions,
                          insights=[r.description for r in result.insights], consolidated=len(result.consolidated))


MEAL_RELIEF = 0.4  # hunger relief of a meal (a table to eat at, a stove, a picnic), not of a snack or a drink
SATED = 0.2  # hunger below which food is offered only at the plan's meals or where the plan is about it
FOOD_RELIEF = 0.25  # hunger relief of a snack or a meal (not of a drink or a coffee ordered at the counter)
PLAN_FIT = 0.3  # goal similarity of a use the plan is about ("cafe kitchen" and cooking at the stove)


def sated_choices(candidates: list[Any], hunger: float, plan_item: str) -> list[Any]:
    """The candidates less food no one would take: a snack or a meal when the agent is not hungry, outside the
    plan's meals, unless the plan is about it (a cook's shift). A play had Felix, just fed, take his breakfast
    again at the cafe and carry on eating through his shift there. (An arranged gathering keeps its food: with
    none, a birthday party's guests napped on the host's sofa and cleared the table.)"""
    if hunger >= SATED or is_meal(plan_item):
        return candidates
    return [c for c in candidates if c.relieves.get("hunger", 0.0) < FOOD_RELIEF or c.sim >= PLAN_FIT]


def feeds(obj: Any, workplace: str | None) -> bool:
    """Whether an object offers the agent a meal (a staff-only stove not, to a customer; a water cooler never)."""
    return any(a.relieves.get("hunger", 0.0) >= MEAL_RELIEF and a.offered_to(obj.place, workplace)
               for a in obj.affordances)


def meal_place(job: DecideJob, plan_item: str, target: str | None, workplace: str | None) -> str | None:
    """Where a meal of the plan is had: its planned place, unless the agent may use things there and none of them
    feeds it ("have lunch" at the workplace, and the workplace is a library), then the place nearest the agent that
    does (a cafe, home). A place whose things are not offered yet (a host's home before the guest arrives) stays."""
    there = [o for o in job.objects if o.place == target]
    if target is None or not is_meal(plan_item) or not there or any(feeds(o, workplace) for o in there):
        return target
    x, y = job.body.x, job.body.y
    nearest = min((o for o in job.objects if o.place and feeds(o, workplace)),
                  key=lambda o: ((o.x - x) ** 2 + (o.y - y) ** 2, o.id), default=None)
    return nearest.place if nearest is not None else target
