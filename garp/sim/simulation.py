"""Simulation: the town, its minds, the clock and the log, driven from the main thread.

The main thread is the single writer: `update(wall_dt)` (play) or `step_lockstep()`
(headless) applies due cognition commands, advances the clock and the world, decays
needs, applies social relief and asks the cognition thread for what comes next. The
cognition thread (garp.sim.cognition + garp.sim.pipeline) never touches the world; it
returns validated commands tagged with request id and asked-at time, and a command
whose request is no longer current is dropped before any side effect.

Decisions ahead of need (IV-A): an agent starts choosing its next activity
`DECISION_LEAD_WALL_S` wall-seconds before the current one ends (converted to game time
with the clock speed); when the answer is late the agent keeps doing what it did. The scene
opens with each agent doing what its routine says for that hour (code, no model) until its
day plan arrives, so the first decision is made ahead of need like every later one.
"""

from __future__ import annotations

import concurrent.futures
import dataclasses
import logging
import random
import time
from pathlib import Path
from typing import Any

from garp.errors import GarpError
from garp.eventlog import EventLog
from garp.mind.agent import AgentMind
from garp.mind.day_record import DAY_EVENTS, arrived_at, day_before, day_so_far
from garp.scenario.schema import Scenario
from garp.mind.conversation import ConversationManager, SocialState
from garp.sim.apply import Applier, resumed
from garp.sim.cognition import CognitionThread
from garp.sim.messages import CallRecords, Command, Job, JobFailed, LogEvents, Meeting, Reply
from garp.sim.opening import open_with_object
from garp.sim.pause import InterviewPause
from garp.sim.requests import DECISION_LEAD_WALL_S, Requests, may_use
from garp.sim.savegame import (AUTOSAVE_GAME_MIN, COGNITION_SNAPSHOT_WALL_S, Autosave, Resume, cognition_state,
                                decode_held, encode_held, snapshot, write_save)
from garp.sim.services import Services
from garp.world.world import rng_from_state

log = logging.getLogger(__name__)

# --- tunables ---------------------------------------------------------------------------
FINISH_TIMEOUT_S = 120.0  # wall seconds a finished run waits for jobs still thinking
MAX_FRAME_GAME_S = 120.0  # game seconds one update() may advance (a long hitch must not teleport)
NEEDS_LOG_EVERY_S = 1800.0  # game seconds between `needs` snapshots in the event log (timelines, reports)
# Play: the clock stands at the scene's start until the cast's first day plans (with the
# decompositions of their first hour) are in, at most this many wall seconds. Twenty plans at once
# took longer than one request's lead, so the last few characters began their day on code's plans.
OPENING_HOLD_WALL_S = 60.0


async def answer_interview(mind: AgentMind, question: str, scheduler: Any, t: float, *, place: str, doing: Any,
                           doings: list[dict[str, Any]]) -> Any:
    """An interview on the cognition thread: what the character did today is read from the log's copy there,
    not on the frame loop."""
    from garp.mind.interview import interview
    return await interview(mind, question, scheduler, t, location=place, doing=doing,
                           done=day_so_far(doings, mind.name, t), yesterday=day_before(doings, mind.name, t),
                           began=arrived_at(doings, mind.name))


class Simulation:
    world: Any
    clock: Any
    log: EventLog
    minds: dict[str, AgentMind]
    scheduler: Any

    def __init__(self, scenario: Scenario, services: Services, *, lockstep: bool, rng: random.Random, seed: int = 0,
                 traits_choice: str | None = None, resume: Resume | None = None,
                 autosave_min: float = AUTOSAVE_GAME_MIN, scenario_ref: str = "") -> None:
        self.scenario = scenario
        self.scenario_ref = scenario_ref or scenario.name  # what `--resume` builds the scenario from
        self.traits_choice = traits_choice
        self.sv = services
        self.lockstep = lockstep
        self.rng = rng  # the run's one RNG (the chat gate); the world draws from a fork of it
        self.seed = seed
        self.log = services.log
        self.world, self.clock, self.scheduler = services.world, services.clock, services.scheduler
        self.minds: dict[str, AgentMind] = services.minds
        self.switches, self.deferred = services.switches, services.deferred
        self.cognition = CognitionThread(self._handle, sequential=lockstep, on_error=self._job_failed)
        self._held: list[Reply] = []  # results waiting for their due time (lockstep)
        self._interviews: dict[str, concurrent.futures.Future] = {}  # agent -> answer on its way
        self.pause = InterviewPause(self.world, self.minds)  # who stands answering the player
        self.conversations = ConversationManager()
        self._company: dict[str, bool] = {}
        self._needs_logged = -1  # index of the last NEEDS_LOG_EVERY_S slot logged
        self.waiting_game_s = {n: 0.0 for n in self.minds}  # late decisions (benchmark)
        self.active_game_s = {n: 0.0 for n in self.minds}
        # The earliest game time an answer can be applied after it is asked: one lockstep step.
        self.answer_delay_s = scenario.step_seconds
        self.temperament_pending = scenario.temperament_prompt is not None and traits_choice is None
        self.requests = Requests(world=self.world, clock=self.clock, minds=self.minds, scenario=scenario,
                                 perception=services.perception, known_places=services.known_places,
                                 lockstep=lockstep, answer_delay_s=self.answer_delay_s)
        self.applier = Applier(world=self.world, clock=self.clock, minds=self.minds, log=self.log,
                               conversations=self.conversations, lockstep=lockstep, visit=self.requests.visit)
        self._closed = False
        self._hold_since: float | None = None  # play: monotonic s the clock began to stand for the first plans
        self.start_pace: Any = None  # garp.sim.pace.StartPace when `garp play` chose the speed (wiring)
        self.cognition.start()
        self.run_dir: Path | None = services.run_dir
        self.last_save: Path | None = None  # the latest save written (the HUD shows it)
        self._cognition_half: concurrent.futures.Future | None = None  # play: an autosave on its way
        self._begin(traits_choice, resume)
        self.autosave = Autosave(autosave_min, self.clock.t)

    # --- start ---------------------------------------------------------------------------
    def _begin(self, traits_choice: str | None, resume: Resume | None) -> None:
        """A new scene starts; a resumed one takes up its save and says so in the log."""
        if resume is None:
            self._start(traits_choice)
            return
        self.restore(resume.data["simulation"], resume.data["rng"])
        self.log.emit("resumed", self.clock.t, **resume.report)

    def _start(self, traits_choice: str | None) -> None:
        t = self.clock.t
        self.log.emit("run_start", t, scenario=self.scenario.name, cast=list(self.minds), seed=self.seed,
                      lockstep=self.lockstep, switches=self.switches)
        for name, mind in self.minds.items():
            mind.activity = open_with_object(self.world, mind, self.requests.opening_block(mind, t),
                                             self.requests.start_activity(mind, t), t, may_use)
            body = self.world.bodies[name]
            self.log.emit("arrive", t, agent=name, place=body.place, room=body.room, to=body.place)
        if traits_choice is not None:
            self.choose_temperament(traits_choice)
        for job in self.requests.seed_jobs(t):
            self.submit(job)
        hold = getattr(self.clock, "hold", None)
        if hold is not None and not self.lockstep:  # headless runs never wait on wall time
            hold(OPENING_HOLD_WALL_S)
            self._hold_since = time.monotonic()

    def _hold_for_plans(self) -> None:
        """Play, at the start: ask for the plans still missing; once all are in (or the hold ran
        out) the clock runs, and the log says how long it stood and how many plans it had."""
        ready, cast = self._plans_in()
        if ready < cast and self.clock.held:
            self._ask_for_plans(self.clock.t)
            return
        self.clock.release()
        self.log.emit("opening_hold", self.clock.t, plans_in=ready, cast=cast,
                      wall_s=round(time.monotonic() - self._hold_since, 1))
        self._hold_since = None

    def _ask_for_plans(self, t: float) -> None:
        """Ask each character without a plan for today for one (also while the clock stands)."""
        day = self.clock.day_index(t)
        for mind in self.minds.values():
            if mind.planned_day < day and "plan_day" not in mind.pending:
                self.submit(self.requests.plan_job(mind))

    def opening_progress(self) -> tuple[int, int] | None:
        """(characters whose first plan is in, cast size) while the clock holds for them, else None."""
        return self._plans_in() if self._hold_since is not None else None

    def _plans_in(self) -> tuple[int, int]:
        day, arrived = self.clock.day_index(), {r.request_id for r in self._held if r.job_kind == "plan_day"}
        ready = sum(m.planned_day >= day and "plan_day" not in m.pending or m.pending.get("plan_day") in arrived
                    for m in self.minds.values())
        return ready, len(self.minds)

    def choose_temperament(self, answer: str) -> None:
        """Unsuffixed personality scenarios: apply the viewer's answer and replan under it."""
        tp = self.scenario.temperament_prompt
        if tp is None:
            raise GarpError(f"scenario {self.scenario.name}: has no temperament question")
        answer = next((k for k in tp.choices if k == answer or k.split()[-1] == answer.strip().lower()), answer)
        if answer not in tp.choices:
            raise GarpError(f"scenario {self.scenario.name}: temperament '{answer}' is not offered; "
                            f"allowed: {', '.join(tp.choices)}")
        self._set_traits(tp.agent, tp.choices[answer])
        self.traits_choice = answer  # a save names it, so a resumed headless run has its temperament
        self.temperament_pending = False
        self.log.emit("temperament", self.clock.t, agent=tp.agent, answer=answer, traits=tp.choices[answer])
        self.offer_replan(tp.agent)

    def goals(self) -> list[Any]:
        tp = self.scenario.temperament_prompt
        if tp is None:
            return list(self.scenario.goals)
        answer = next((e["answer"] for e in self.log.of_kind("temperament")), None)
        return list(self.scenario.goals) + list(tp.goals.get(answer, [])) if answer else list(self.scenario.goals)

    # --- public controls ------------------------------------------------------------------------
    def interview(self, name: str, question: str) -> concurrent.futures.Future:
        """Ask an agent a question on the cognition thread. It stops and answers (garp.sim.pause)
        until the answer is in or `end_interview`, and takes no conversation until the main
        thread sees the answer has come (`_collect`)."""
        mind = self._mind(name)
        mind.interviewed = True
        self.pause.hold(name, self.clock.t)
        future = self.cognition.run(answer_interview(mind, question, self.scheduler, self.clock.t,
                                                     place=self.world.bodies[name].place,
                                                     doing=dataclasses.replace(mind.activity, effects={}),  # a copy
                                                     doings=self.log.of_kind(*DAY_EVENTS)))  # a copy of the log
        self._interviews[name] = future
        return future

    def end_interview(self, name: str) -> None:
        """The player closed the agent's panel: it carries on now, even before the answer is in."""
        self.pause.release(self._mind(name).name, self.clock.t)

    def set_trait(self, name: str, axis: str, value: float) -> None:
        """A persona slider: the main thread's half now, the cognition thread's half as a command."""
        traits = self._mind(name).traits_with(axis, value)
        self._set_traits(name, traits)
        self.log.emit("trait", self.clock.t, agent=name, axis=axis, value=value, traits=traits)

    def _set_traits(self, name: str, traits: str) -> None:
        mind = self.minds[name]
        personality = mind.set_traits(traits)
        self.cognition.post(lambda: mind.adopt_personality(personality))

    def offer_replan(self, name: str) -> None:
        mind = self._mind(name)
        mind.planned_day = -1  # the next step asks for a fresh day plan under the current traits
        mind.wants_fresh_plan = True
        mind.pending.pop("plan_day", None)  # a plan still being made under the old traits is withdrawn
        mind.pending.pop("decide", None)
        mind.activity.end_t = min(mind.activity.end_t, self.clock.t)

    def _mind(self, name: str) -> AgentMind:
        if name not in self.minds:
            raise GarpError(f"agent '{name}': not in this scenario; allowed: {', '.join(self.minds)}")
        return self.minds[name]

    @property
    def done(self) -> bool:
        return self.clock.t >= self.scenario.end_seconds

    # --- driving ---------------------------------------------------------------------------------
    def update(self, wall_dt: float) -> None:
        """Play: advance by wall time; apply whatever results have arrived (never waits).
        As in lockstep, results due by the new time are applied before the agents tick, so an
        answer that arrived in time is not counted as a wait for the frame it lands in."""
        self._collect()
        if self._hold_since is not None:
            self._hold_for_plans()
        # a long hitch is clamped before the clock moves, so the clock and the world stay together
        dt = self.clock.advance(min(wall_dt, self.clock.game_to_wall(MAX_FRAME_GAME_S)))
        self._apply_due(self.clock.t)
        if dt > 0:
            self._advance(dt)
            self._maybe_autosave()

    def step_lockstep(self) -> None:
        """Headless: one fixed step; waits for every cognition result due by its end."""
        if self.temperament_pending:
            raise GarpError(f"scenario {self.scenario.name}: a headless run needs the temperament; "
                            f"pass --trait with one of: {', '.join(self.scenario.temperament_prompt.choices)}")
        t_next = self.clock.t + self.clock.step_s
        self.cognition.wait_due(t_next)
        self._collect()
        self.clock.step()
        self._apply_due(self.clock.t)
        self._advance(self.clock.step_s)
        self._maybe_autosave()

    def finish(self, timeout: float = FINISH_TIMEOUT_S) -> None:
        """End of a headless run: let running jobs end (their late results are not applied)."""
        self.cognition.wait_idle(timeout)

    # --- results -------------------------------------------------------------------------------
    def _collect(self) -> None:
        self._held.extend(self.cognition.drain())
        for name, future in list(self._interviews.items()):
            if future.done():  # the main thread owns the flag: cleared here, not on the cognition thread
                self.minds[name].interviewed = False
                self.pause.release(name, self.clock.t)
                del self._interviews[name]

    def _apply_due(self, t: float) -> None:
        """Apply results whose due time has come (an early decision waits for the end of the
        current activity; a late one is applied as soon as it arrives). Results for an agent the
        player is interviewing wait until it carries on."""
        due = [c for c in self._held if c.due_t <= t]
        waiting = self.pause.waiting(due)
        due = [c for c in due if c.request_id not in waiting]
        self._held = [c for c in self._held if c.due_t > t or c.request_id in waiting]
        due.sort(key=lambda r: (r.due_t, r.request_id))
        for reply in due:
            if self._stale(reply):
                continue
            try:
                self.applier.apply(reply)
            except Exception as err:  # noqa: BLE001 — a bad command must not stop the town
                self.log.emit("error", t, agent=reply.agent, where=f"apply:{reply.command.kind}",
                              message=str(err)[:300])

    def _stale(self, reply: Reply) -> bool:
        """A result is stale when its agent has since asked again for the same kind of thing."""
        mind = self.minds.get(reply.agent)
        if mind is None:
            return True
        current = mind.pending.get(reply.job_kind)
        if reply.job_kind in ("decide", "plan_day") and current is not None and current != reply.request_id:
            return True
        if reply.job_kind in ("decide", "plan_day") and current is None and reply.command.kind in ("do", "set_plan"):
            return True  # withdrawn (e.g. replan offered)
        return False

    # --- one step of the town ----------------------------------------------------------------------
    def _advance(self, dt: float) -> None:
        t = self.clock.t
        events = self.world.step(dt, t)
        for ev in events:
            self.applier.on_world_event(ev)
        self._needs(dt / 3600.0)
        self._log_needs(t)
        for job in self.requests.perceive(t):
            self.submit(job)
        self._conversations(t)
        for name, mind in self.minds.items():
            self._agent_tick(name, mind, t, dt)

    def _needs(self, hours: float) -> None:
        if not self.switches["needs"]:
            return
        for name, mind in self.minds.items():
            relieving = mind.activity.kind == "use" and not self.pause.holds(name)  # answering relieves nothing
            held = list(mind.activity.effects) if relieving else []
            mind.needs.decay(hours, held)
            if relieving and mind.activity.effects and mind.activity.end_t > mind.activity.start_t:
                span = mind.activity.end_t - mind.activity.start_t
                mind.needs.relieve(mind.activity.effects, fraction=hours * 3600.0 / span)
            body = self.world.bodies[name]
            company = any(o != name and self.world.bodies[o].place == body.place and body.place
                          for o in self.minds)
            if company and not self._company.get(name):
                mind.needs.join_company()
            elif company:
                mind.needs.in_company(hours)
            self._company[name] = company

    def _log_needs(self, t: float) -> None:
        """A snapshot of every agent's needs each NEEDS_LOG_EVERY_S (read by timelines and reports only)."""
        slot = int(t // NEEDS_LOG_EVERY_S)
        if slot == self._needs_logged or not self.switches["needs"]:
            return
        self._needs_logged = slot
        for name, mind in self.minds.items():
            self.log.emit("needs", t, agent=name, values={k: round(v, 3) for k, v in mind.needs.values.items()})

    def _agent_tick(self, name: str, mind: AgentMind, t: float, dt: float) -> None:
        if mind.booked or self.pause.holds(name):  # talking or answering the player: busy, not waiting
            self.active_game_s[name] += dt
            return
        if mind.planned_day < self.clock.day_index(t) and "plan_day" not in mind.pending:
            self.submit(self.requests.plan_job(mind))
        act = mind.activity
        if act.kind == "chat" and mind.resume is not None and t >= act.end_t:
            act = mind.activity = resumed(mind.resume, self.world.bodies[name].using, t)
            mind.resume = None
        if act.kind == "walk":
            self.active_game_s[name] += dt
            return
        lead = self.clock.wall_to_game(DECISION_LEAD_WALL_S)
        if "decide" not in mind.pending and mind.plan is not None and act.end_t - t <= lead:
            due = max(act.end_t, t + self.answer_delay_s)
            self.submit(self.requests.decide_job(mind, due))
        if t >= act.end_t and "decide" in mind.pending:
            self.waiting_game_s[name] += dt  # late decision: the agent keeps doing what it did (IV-A)
        else:
            self.active_game_s[name] += dt

    def _social(self, name: str, t: float) -> SocialState:
        mind, body = self.minds[name], self.world.bodies[name]
        nxt = next((c for c in sorted(mind.commitment_view.values(), key=lambda c: c.start) if c.end > t), None)
        return SocialState(
            name=name, x=body.x, y=body.y, place=body.place, activity=mind.activity.description,
            chat_probability=mind.personality.chat_probability, emotion=mind.mood.get("text", "calm"),
            emotion_label=mind.mood.get("label", "neutral"), valence=float(mind.mood.get("valence", 0.0)),
            next_commitment=nxt.what if nxt else "", next_commitment_start=nxt.start if nxt else None,
            next_commitment_end=nxt.end if nxt else None, next_commitment_place=nxt.place if nxt else None,
            next_commitment_id=nxt.id if nxt else "", next_commitment_host=nxt.host if nxt else "",
            next_commitment_with=list(nxt.participants) if nxt else [])

    def _conversations(self, t: float) -> None:
        """Range → booking/cooldown → guard → chat gate (III-A9); the model's decide-to-talk runs in the job."""
        names = sorted(n for n, m in self.minds.items()
                       if not m.busy and m.activity.kind not in ("walk", "chat") and "converse" not in m.pending
                       and not m.asleep(t, self.world.bodies[n].place))
        for i, a in enumerate(names):
            for b in names[i + 1:]:
                ma, mb = self.minds[a], self.minds[b]
                if ma.booked or mb.booked or self.world.bodies[a].place != self.world.bodies[b].place:
                    continue
                sa, sb = self._social(a, t), self._social(b, t)
                meeting = self.conversations.meeting(sa, sb, t)  # they came here to talk: its host speaks first
                # otherwise the more sociable one is the one who might speak first (III-A4 chat probability)
                if meeting is not None:
                    first, second = (sa, sb) if meeting.host == a else (sb, sa)
                else:
                    first, second = (sa, sb) if (sa.chat_probability, b) >= (sb.chat_probability, a) else (sb, sa)
                ok, why = self.conversations.precheck(first, second, t, self.rng, meeting=meeting is not None)
                if not ok:
                    if why == "chat probability gate":  # a declined chance waits out the cooldown too
                        self.conversations.start_cooldown(a, b, t)
                    continue
                chat_id = self.conversations.book(first.name, second.name, t)
                if chat_id is None:
                    continue
                for m in (ma, mb):
                    m.booked_by = chat_id
                if meeting is not None:
                    self.conversations.hold_meeting(meeting)
                held = Meeting(what=meeting.what, host=meeting.host) if meeting else None
                job_id = self.submit(self.requests.converse_job(first.name, second.name, chat_id, held,
                                                                doings=self.log.of_kind(*DAY_EVENTS)))
                self.minds[second.name].pending["converse"] = job_id

    # --- jobs ----------------------------------------------------------------------------------------
    def submit(self, job: Job) -> int:
        """Ask the cognition thread; the agent's pending table holds the request id per job kind."""
        job_id = self.cognition.submit(job)
        self.minds[job.agent].pending[job.kind] = job_id
        return job_id

    async def _handle(self, job: Job) -> list[Command]:
        with self.deferred.capture() as captured:
            commands = await self.sv.brain.handle(job)
        agents = None if self.lockstep else {job.agent, *job.others()}
        records = self.sv.calls.take(agents)
        head: list[Command] = [LogEvents(agent=job.agent, events=tuple(captured))] if captured else []
        if records:
            head.append(CallRecords(agent=job.agent, records=tuple(records)))
        return head + commands

    def _job_failed(self, job: Job, err: BaseException, tb: str) -> list[Command]:
        log.warning("cognition job %s for %s failed: %s", job.kind, job.agent, tb)
        return [JobFailed(agent=job.agent, where=f"cognition:{job.kind}",
                          message=f"{type(err).__name__}: {err}"[:300])]

    # --- save ----------------------------------------------------------------------------------------
    def _maybe_autosave(self) -> None:
        """Lockstep saves at once. Play asks the cognition thread for its half and writes the save on
        the frame it arrives, so a frame never waits for a job's turn on that thread."""
        if self._cognition_half is not None:
            if self._cognition_half.done():
                future, self._cognition_half = self._cognition_half, None
                self._write_save(future)
        elif self.autosave.due(self.clock.t):
            if self.lockstep:
                self.save()
            else:
                self._cognition_half = self.cognition.run(self._cognition_snapshot())

    def save(self) -> Path | None:
        """Write RUN_DIR/save.json now (garp.sim.savegame), between steps, waiting for the cognition
        thread's half. Lockstep first waits for that thread to be idle (its results are held either
        way, so nothing changes). None when no save could be written."""
        if self.run_dir is None:
            return None
        if self.lockstep:
            self.cognition.wait_idle(FINISH_TIMEOUT_S)
        return self._write_save(self.cognition.run(self._cognition_snapshot()))

    def _write_save(self, cognition: concurrent.futures.Future) -> Path | None:
        self._collect()  # every reply that has come is held, so the save keeps it
        try:
            half = cognition.result(COGNITION_SNAPSHOT_WALL_S)
        except Exception as err:  # noqa: BLE001 — a failed save must not end the town
            self.log.emit("error", self.clock.t, agent="", where="save", message=f"{type(err).__name__}: {err}"[:300])
            return None
        self.last_save = write_save(self.run_dir, snapshot(self, half))
        return self.last_save

    def state(self) -> dict[str, Any]:
        """The simulation's own part of a save (main thread, between steps)."""
        return {
            "conversations": self.conversations.state(), "requests": self.requests.state(),
            "started_t": self.applier.started_t, "company": dict(self._company), "needs_logged": self._needs_logged,
            "waiting_game_s": dict(self.waiting_game_s), "active_game_s": dict(self.active_game_s),
            "temperament_pending": self.temperament_pending, "held": encode_held(self._held),
            "next_request_id": self.cognition.next_id(), "outstanding": sorted(self.cognition.outstanding_ids()),
        }

    def restore(self, data: dict[str, Any], rng: list[Any]) -> None:
        """Take up a save's part (before any job is asked). Jobs still thinking when a play save was
        taken are asked again (their pending entries go), and so is an interview."""
        self.rng.setstate(rng_from_state(rng))
        self.conversations.restore(data["conversations"])
        self.requests.restore(data["requests"])
        self.applier.started_t = float(data["started_t"])
        self._company, self._needs_logged = dict(data["company"]), int(data["needs_logged"])
        self.waiting_game_s.update(data["waiting_game_s"])
        self.active_game_s.update(data["active_game_s"])
        self.temperament_pending = bool(data["temperament_pending"])
        self._held = decode_held(data["held"])
        self.cognition.resume_ids(int(data["next_request_id"]))
        lost = set(data["outstanding"])
        for mind in self.minds.values():
            mind.pending = {k: v for k, v in mind.pending.items() if v not in lost}
            mind.interviewed = False

    async def _cognition_snapshot(self) -> dict[str, Any]:
        return cognition_state(self.sv.brain, self.minds)

    # --- shutdown ----------------------------------------------------------------------------------
    def close(self, save: bool = True) -> None:
        """End the run: the log's `run_end`, then (with `save`) a last save, then the threads."""
        if self._closed:
            return
        self._closed = True
        self.log.emit("run_end", self.clock.t)
        if save:
            self.save()
        self.cognition.close()
        self.sv.close()
        self.log.close()
