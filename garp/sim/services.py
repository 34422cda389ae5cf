"""Main-thread side of the simulation: what to ask the cognition thread, and how to apply
its answers to the world and the minds (the main thread is the single writer).

Ownership: the main thread owns the world, bodies, object states, needs and activities;
the cognition thread owns what an agent thinks (memory, plan tree, commitments, emotion,
relationships). Payloads carry snapshots of main-thread state, so a job's inputs are
fixed when it is asked and a headless run does not depend on machine speed.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from garp.mind.agent import Activity, AgentMind
from garp.mind.plan_tree import DAY_S, nodes_from_times
from garp.mind.planning import PlanContext, routine_activities
from garp.mind.reaction import react_to_state_change
from garp.sim.cognition import Command, Job

if TYPE_CHECKING:
    from garp.sim.simulation import Simulation

# --- tunables ---------------------------------------------------------------------------
CANDIDATE_RADIUS_PX = 2400.0  # objects farther than this are not offered (III-A8's last radius)
PERCEIVE_MIN_GAP_S = 90 * 60.0  # game s between two perception jobs of one agent (call reduction, IV-B)
APPRAISE_MIN_GAP_S = 60 * 60.0  # game s between two perception-triggered appraisals (Table I: ~20 a day)
MAX_OBSERVATIONS = 3  # observations folded into one perception memory
CHAT_LINE_GAP_S = 30.0  # game seconds between two spoken lines (bubble pacing)
DEFAULT_USE_S = 30 * 60.0  # game s an activity lasts when a decision names no duration
STAY_S = 30 * 60.0  # game s an agent stays at a place it walked to without an object
PRIVATE_ROOM_WORDS = ("Bed", "Bath", "Toilet", "Wash")  # rooms of a home a guest does not use
RETRY_S = 5 * 60.0  # game s before deciding again after a failed walk or use


@dataclass
class Services:
    """Everything the simulation is built from (see garp.sim.wiring.build)."""

    scenario: Any
    log: Any
    world: Any
    clock: Any
    scheduler: Any
    embedder: Any
    store: Any
    minds: dict[str, AgentMind]
    perception: Any
    brain: Any  # garp.sim.pipeline.Brain: the cognition handlers
    switches: dict[str, bool]
    calls: Any  # garp.sim.wiring.CallSink
    closers: list[Any] = field(default_factory=list)
    run_dir: Any = None
    last_perceive: dict[str, float] = field(default_factory=dict)
    visited: dict[str, dict[int, list[str]]] = field(default_factory=dict)  # agent -> day -> places, in order

    # --- jobs asked at start ------------------------------------------------------------------
    def seed_jobs(self, t: float) -> list[Job]:
        for name, mind in self.minds.items():  # the hours of the day before the scene (needs.py)
            mind.needs.settle_day_so_far(t, skip=self.scenario.start_needs.get(name, {}))
            self._visit(name, t)
        return [Job(agent=n, kind="seed", asked_t=t, due_t=t) for n in sorted(self.minds)]

    def start_activity(self, mind: AgentMind, t: float) -> Activity:
        """What an agent is doing when the scene opens, from its routine (code, no model): it
        carries on with it until its day plan arrives, so it is never idle waiting (IV-A)."""
        p, place = mind.persona, self.world.bodies[mind.name].place
        ctx = PlanContext(name=mind.name, home=p.home, workplace=p.workplace, routine=p.routine,
                          lifestyle=p.lifestyle, known_places=self.brain.known_places)
        day = int(t // DAY_S)
        block = next((n for n in nodes_from_times([(a.start, a.activity, a.place) for a in routine_activities(ctx)],
                                                  day) if n.contains(t)), None)
        what = block.description if block else "starting the day"
        if block is not None and block.place and block.place != place:
            what = f"getting ready: {what}"
        return Activity("stay", what, place, start_t=t, end_t=block.end if block else t + STAY_S)

    # --- payloads (snapshots of main-thread state) -------------------------------------------
    def _body_snapshot(self, name: str) -> dict[str, Any]:
        b = self.world.bodies[name]
        return {"x": b.x, "y": b.y, "place": b.place, "room": b.room}

    def _visit(self, name: str, t: float) -> None:
        """Remember the places an agent has been today (novelty of action choice, III-A8)."""
        place = self.world.bodies[name].place
        seen = self.visited.setdefault(name, {}).setdefault(int(t // DAY_S), [])
        if place and place not in seen:
            seen.append(place)

    def _needs(self, mind: AgentMind) -> dict[str, Any]:
        return {"values": mind.needs.snapshot(), "rates": dict(mind.needs.rates), "urgent": mind.needs.describe_urgent(mind.name),
                "summary": mind.needs.summary(mind.name)}

    def plan_payload(self, sim: "Simulation", mind: AgentMind, t: float) -> dict[str, Any]:
        fresh, mind.wants_fresh_plan = mind.wants_fresh_plan, False
        return {"day": sim.clock.day_index(t), "fresh": fresh, **self._needs(mind), "body": self._body_snapshot(mind.name),
                "first_decision_t": t + sim.first_decision_lead()}

    def decide_payload(self, sim: "Simulation", mind: AgentMind, due: float) -> dict[str, Any]:
        body = self.world.bodies[mind.name]
        block = mind.plan.current_day_node(due) if mind.plan is not None else None
        guest_at = block.place if block is not None and block.place == body.place else None
        objects = [o.model_copy(update={"users": dict(o.users)})
                   for o in self.world.objects.near(body.x, body.y, CANDIDATE_RADIUS_PX)
                   if _may_use(o, mind, guest_at)]
        self._visit(mind.name, sim.clock.t)
        act, last = mind.activity, mind.last_decision or {}
        using = ({"object_id": act.object_id, "verb": act.verb, "plan_item": str(last.get("plan_item", "")),
                  "carried_on": _carried_on(mind)}
                 if act.kind == "use" and act.object_id and last.get("plan_item") else None)
        return {"t_due": due, "objects": objects, "body": self._body_snapshot(mind.name), **self._needs(mind),
                "current": act.description, "using": using, "guest_at": guest_at,
                "friend_out": self.friend_out(mind, due),
                "company_rooms": sorted({b.room for n, b in self.world.bodies.items()
                                         if n != mind.name and b.place == body.place and b.room}),
                "visited": list(self.visited.get(mind.name, {}).get(int(due // DAY_S), []))}

    def converse_payload(self, sim: "Simulation", initiator: str, partner: str, t: float, chat_id: str) -> dict[str, Any]:
        return {"partner": partner, "chat_id": chat_id, "place": self.world.bodies[initiator].place,
                "bodies": {n: self._body_snapshot(n) for n in (initiator, partner)},
                "activities": {n: self.minds[n].activity.description for n in (initiator, partner)},
                "clock_label": sim.clock.date_label(t)}

    # --- perception ------------------------------------------------------------------------------
    def perceive(self, sim: "Simulation", t: float) -> None:
        """III-A7: perception events → reaction rules (main thread, live registry) → a memory job."""
        if self.perception is None:
            return
        self.perception.update(self.world.positions(), t)
        for name in sorted(self.minds):
            mind = self.minds[name]
            notes, appraise, replan = [], False, False
            for e in self.perception.events_for(name):
                if e.kind == "agent_enter":
                    notes.append(f"{mind.name} sees {e.object_id} nearby")
                    continue
                r = react_to_state_change(e, agent=name, planned_object_id=mind.activity.object_id or None,
                                          planned_verb=mind.activity.verb or None, home=mind.persona.home,
                                          registry=self.world.objects)
                if r.memory_text:
                    notes.append(r.memory_text)
                appraise |= r.appraise
                replan |= r.replan
            if replan and mind.activity.kind == "walk" and not mind.booked:
                mind.activity.end_t = t  # the planned object is gone: decide again now (step 5)
                mind.pending.pop("decide", None)
            notes = list(dict.fromkeys(notes))
            if not notes or mind.booked or "perceive" in mind.pending:
                continue
            since = t - self.last_perceive.get(name, -math.inf)
            if since < (APPRAISE_MIN_GAP_S if appraise else PERCEIVE_MIN_GAP_S):
                continue
            self.last_perceive[name] = t
            sim.submit(name, "perceive", due_t=t + sim.answer_delay_s,
                       payload={"notes": notes[:MAX_OBSERVATIONS], "appraise": appraise,
                                "place": self.world.bodies[name].place, **self._needs(mind)})

    # --- applying results ----------------------------------------------------------------------
    def apply(self, sim: "Simulation", cmd: Command) -> None:
        mind = self.minds[cmd.agent]
        t = sim.clock.t
        kind, d = cmd.kind, cmd.data
        if kind == "log":
            for e in d["events"]:
                e = dict(e)
                sim.log.emit(e.pop("kind"), e.pop("t"), **e)
        elif kind == "calls":
            for rec in d["records"]:
                self.minds[rec.agent].record_call(rec) if rec.agent in self.minds else None
                extra = {} if sim.lockstep else {"latency_s": round(rec.latency_s, 3),
                                                 "queue_wait_s": round(rec.queue_wait_s, 3)}
                sim.log.emit("llm_call", rec.game_time, agent=rec.agent, function=rec.function,
                             fallback_used=rec.fallback_used, cached=rec.cached, mode=rec.mode,
                             tokens=rec.completion_tokens, **extra, **rec.server_fields())
                if rec.unreachable:  # a dead backend is an error, not a quiet fallback (issue 20 §2)
                    sim.log.emit("error", rec.game_time, agent=rec.agent, where=f"model:{rec.function}",
                                 message=rec.error or "model unreachable")
        elif kind == "set_plan":
            mind.plan = d["tree"]
            mind.planned_day = d["day"]
            if mind.activity.kind == "idle":
                mind.activity.end_t = min(mind.activity.end_t, t)
            elif mind.activity.start_t == sim.started_t and mind.activity.kind == "stay":
                # the routine activity the scene opened with gives way to the plan; in real time
                # it goes on for one decision lead more, so the first choice is made ahead of need too
                mind.activity.end_t = t + sim.first_decision_lead()
        elif kind == "do":
            self._do(sim, mind, d, t)
        elif kind == "emotion":
            mind.mood = {k: d[k] for k in ("label", "intensity", "valence", "text")}
            sim.log.emit("emotion", d["t"], agent=mind.name, label=d["label"], intensity=d["intensity"],
                         valence=d["valence"], cause=d["cause"])
        elif kind == "commitment":
            c = d["commitment"]
            mind.commitment_view[c.id] = c
            sim.log.emit("commitment", d["t"], agent=mind.name, agents=list(c.participants), what=c.what,
                         place=c.place, start=c.start, end=c.end, host=c.host, source=c.source)
        elif kind == "chat":
            self._chat(sim, mind, d, t)
        elif kind == "failed":
            sim.log.emit("error", t, agent=cmd.agent, where=d["where"], message=d["message"])
        elif kind == "done":
            self._done(sim, mind, cmd, t)
        else:
            raise ValueError(f"unknown command kind {kind!r} from job {cmd.job_kind}")

    def _done(self, sim: "Simulation", mind: AgentMind, cmd: Command, t: float) -> None:
        if mind.pending.get(cmd.job_kind) == cmd.request_id:
            mind.pending.pop(cmd.job_kind, None)
        if cmd.job_kind == "converse":
            partner = cmd.data.get("partner")
            for m in (mind, self.minds.get(partner)):
                if m is not None:
                    if m.pending.get("converse") == cmd.request_id:
                        m.pending.pop("converse", None)
                    m.booked_by = None
            if partner:
                sim.conversations.release(mind.name, partner)
                sim.conversations.start_cooldown(mind.name, partner, t)

    def _do(self, sim: "Simulation", mind: AgentMind, d: dict[str, Any], t: float) -> None:
        mind.record_decision(d["decision"])
        target = d.get("object_id") or d.get("place")
        duration = float(d.get("duration_s") or DEFAULT_USE_S)
        body = self.world.bodies[mind.name]
        if d.get("object_id") and body.using and body.using[0] == d["object_id"]:
            mind.activity = Activity("use", d["description"], body.place, d["object_id"], d["verb"], t, t + duration,
                                     dict(d.get("effects") or {}))
            return
        if body.using:
            self.world.finish_use(mind.name, t)
        if target and self.world.walk_to(mind.name, target, t):
            mind.activity = Activity("walk", d["description"], d.get("place", ""), d.get("object_id", ""),
                                     d.get("verb", ""), t, t + duration, dict(d.get("effects") or {}))
            return
        if d.get("object_id") and self.world.start_use(mind.name, d["object_id"], d["verb"], t):
            mind.activity = Activity("use", d["description"], body.place, d["object_id"], d["verb"], t, t + duration,
                                     dict(d.get("effects") or {}))
            return
        mind.activity = Activity("idle", d["description"], body.place, start_t=t, end_t=t + RETRY_S)

    def on_world_event(self, sim: "Simulation", ev: Any) -> None:
        mind = self.minds.get(ev.agent)
        if mind is None or ev.kind not in ("arrive", "stuck") or mind.activity.kind != "walk":
            return
        act, t = mind.activity, ev.t
        if ev.kind == "arrive":
            self._visit(ev.agent, t)
        span = act.end_t - act.start_t
        if ev.kind == "stuck":
            mind.activity = Activity("idle", act.description, self.world.bodies[ev.agent].place, start_t=t, end_t=t + RETRY_S)
            return
        if act.object_id and self.world.start_use(ev.agent, act.object_id, act.verb, t):
            mind.activity = Activity("use", act.description, self.world.bodies[ev.agent].place, act.object_id,
                                     act.verb, t, t + span, act.effects)
        elif act.object_id:  # taken or out of reach: decide again soon
            mind.activity = Activity("idle", act.description, self.world.bodies[ev.agent].place, start_t=t, end_t=t + RETRY_S)
        else:
            mind.activity = Activity("stay", act.description, self.world.bodies[ev.agent].place, start_t=t,
                                     end_t=t + max(span, STAY_S))
        if ev.kind == "arrive" and self.friend_out(mind, t):
            mind.activity.end_t = t  # nobody to visit: decide again now, not after waiting in an empty house

    def friend_out(self, mind: AgentMind, t: float) -> bool:
        """At the home of the friend the plan's company visit is for, and the friend is not there."""
        node = mind.plan.current_day_node(t) if mind.plan is not None else None
        if node is None or not node.visiting or self.world.bodies[mind.name].place != node.place:
            return False
        friend = self.world.bodies.get(node.visiting)
        return friend is None or friend.place != node.place

    def _chat(self, sim: "Simulation", mind: AgentMind, d: dict[str, Any], t: float) -> None:
        a, b = mind.name, d["partner"]
        lines: list[list[str]] = d["lines"]
        if not lines:
            return
        sim.log.emit("chat_start", t, initiator=a, partner=b, agents=[a, b], place=d.get("place", ""),
                     chat_id=d["chat_id"])
        for i, (speaker, text) in enumerate(lines):
            tl = t + i * CHAT_LINE_GAP_S
            sim.log.emit("chat_line", tl, agent=speaker, text=text, chat_id=d["chat_id"])
            self.world.say(speaker, text, tl, duration_s=CHAT_LINE_GAP_S * 2)
        end = t + len(lines) * CHAT_LINE_GAP_S
        sim.log.emit("chat_end", end, initiator=a, partner=b, chat_id=d["chat_id"], lines=len(lines))
        for n in (a, b):
            m = self.minds[n]
            m.needs.conversation()
            body = self.world.bodies[n]
            if body.using:  # talking pauses what they were doing
                self.world.finish_use(n, t)
            m.pending.pop("decide", None)
            m.activity = Activity("chat", f"talking with {b if n == a else a}", body.place, start_t=t, end_t=end)

    # --- shutdown ------------------------------------------------------------------------------
    def close(self) -> None:
        for c in reversed(self.closers):
            try:
                c()
            except Exception:  # noqa: BLE001 — closing must finish even if one part fails
                pass


def _carried_on(mind: AgentMind) -> int:
    """How many decisions in a row carried on with the same activity (action choice's limit)."""
    n = 0
    for d in reversed(mind.decisions):
        if d.get("mode") != "continue":
            return n
        n += 1
    return n


def _may_use(obj: Any, mind: AgentMind, guest_at: str | None = None) -> bool:
    """Homes are private: only owners (residents own their home's shared objects) use objects inside them; a guest
    whose plan has them at that home right now (a visit) uses the shared rooms only."""
    place = obj.place or ""
    if not place.endswith(("House", "Flat")):
        return True
    if mind.name in (obj.owners or []):
        return True
    if place == mind.persona.home:  # a housemate's own things (a bed has one owner) stay theirs
        return not obj.owners
    return place == guest_at and not any(w in (obj.room or "") for w in PRIVATE_ROOM_WORDS)
