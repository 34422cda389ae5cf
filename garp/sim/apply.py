"""Main-thread side, second half: applying the cognition thread's commands to the world and
to the minds' main-thread state (the main thread is the single writer). One method per
command type, chosen by type (functools.singledispatchmethod).
"""

from __future__ import annotations

from dataclasses import replace
from functools import singledispatchmethod
from typing import Any

from garp.interfaces import Clock, EventSink
from garp.mind.agent import Activity, AgentMind
from garp.sim.messages import (CallRecords, ChatHeld, Command, CommitmentMade, Do, EmotionChanged, JobDone, JobFailed,
                               LogEvents, PlanMirror, RelationshipsChanged, Reply, SetPlan)
from garp.sim.requests import STAY_S, first_decision_lead, friend_out

# --- tunables ---------------------------------------------------------------------------
CHAT_LINE_GAP_S = 30.0  # game seconds between two spoken lines (bubble pacing)
DEFAULT_USE_S = 30 * 60.0  # game s an activity lasts when a decision names no duration
RETRY_S = 5 * 60.0  # game s before deciding again after a failed walk or use


class Applier:
    """Applies replies at their due time; given the world and the clock it writes to and reads."""

    def __init__(self, *, world: Any, clock: Clock, minds: dict[str, AgentMind], log: EventSink, conversations: Any,
                 lockstep: bool, visit: Any) -> None:
        self.world, self.clock, self.minds, self.log = world, clock, minds, log
        self.conversations, self.lockstep = conversations, lockstep
        self.visit = visit  # Requests.visit: places seen today
        self.started_t = clock.t  # the scene's opening time (its routine activities give way to the plan)

    def apply(self, reply: Reply) -> None:
        self._apply(reply.command, reply, self.minds[reply.agent], self.clock.t)

    @singledispatchmethod
    def _apply(self, cmd: Command, reply: Reply, mind: AgentMind, t: float) -> None:
        raise ValueError(f"unknown command kind {cmd.kind!r} from job {reply.job_kind}")

    @_apply.register
    def _(self, cmd: LogEvents, reply: Reply, mind: AgentMind, t: float) -> None:
        for e in cmd.events:
            e = dict(e)
            self.log.emit(e.pop("kind"), e.pop("t"), **e)

    @_apply.register
    def _(self, cmd: CallRecords, reply: Reply, mind: AgentMind, t: float) -> None:
        for rec in cmd.records:
            if rec.agent in self.minds:
                self.minds[rec.agent].record_call(rec)
            extra = {} if self.lockstep else {"latency_s": round(rec.latency_s, 3),
                                              "queue_wait_s": round(rec.queue_wait_s, 3)}
            self.log.emit("llm_call", rec.game_time, agent=rec.agent, function=rec.function,
                          fallback_used=rec.fallback_used, cached=rec.cached, mode=rec.mode,
                          tokens=rec.completion_tokens, **extra, **rec.server_fields())
            if rec.unreachable:  # a dead backend is an error, not a quiet fallback (issue 20 §2)
                self.log.emit("error", rec.game_time, agent=rec.agent, where=f"model:{rec.function}",
                              message=rec.error or "model unreachable")

    @_apply.register
    def _(self, cmd: SetPlan, reply: Reply, mind: AgentMind, t: float) -> None:
        mind.plan, mind.plan_serial = cmd.tree, cmd.serial
        mind.planned_day = cmd.day
        if mind.activity.kind == "idle":
            mind.activity.end_t = min(mind.activity.end_t, t)
        elif mind.activity.start_t == self.started_t and mind.activity.kind in ("stay", "use"):
            # the routine activity the scene opened with (in play perhaps with its object in use) gives
            # way to the plan; in real time it goes on for one decision lead more, so the first choice
            # is made ahead of need too
            ahead = sum(m is not mind and m.plan is not None and m.activity.start_t == self.started_t
                        and m.activity.end_t > t for m in self.minds.values())  # opening activities still going
            mind.activity.end_t = t + first_decision_lead(self.clock, self.lockstep, ahead)

    @_apply.register
    def _(self, cmd: PlanMirror, reply: Reply, mind: AgentMind, t: float) -> None:
        if mind.plan_serial == cmd.serial:  # a copy of the tree this mind's plan came from
            mind.plan = cmd.tree

    @_apply.register
    def _(self, cmd: Do, reply: Reply, mind: AgentMind, t: float) -> None:
        self._do(mind, cmd, t)

    @_apply.register
    def _(self, cmd: EmotionChanged, reply: Reply, mind: AgentMind, t: float) -> None:
        mind.mood = {"label": cmd.label, "intensity": cmd.intensity, "valence": cmd.valence, "text": cmd.text}
        mind.emotion_view.record(cmd.state)
        self.log.emit("emotion", cmd.t, agent=mind.name, label=cmd.label, intensity=cmd.intensity,
                      valence=cmd.valence, cause=cmd.cause)

    @_apply.register
    def _(self, cmd: RelationshipsChanged, reply: Reply, mind: AgentMind, t: float) -> None:
        mind.relationship_view = dict(cmd.by_name)

    @_apply.register
    def _(self, cmd: CommitmentMade, reply: Reply, mind: AgentMind, t: float) -> None:
        c = cmd.commitment
        mind.commitment_view[c.id] = c
        self.log.emit("commitment", cmd.t, agent=mind.name, agents=list(c.participants), what=c.what,
                      place=c.place, start=c.start, end=c.end, host=c.host, source=c.source)

    @_apply.register
    def _(self, cmd: ChatHeld, reply: Reply, mind: AgentMind, t: float) -> None:
        self._chat(mind, cmd, t, reply.asked_t)

    @_apply.register
    def _(self, cmd: JobFailed, reply: Reply, mind: AgentMind, t: float) -> None:
        self.log.emit("error", t, agent=cmd.agent, where=cmd.where, message=cmd.message)

    @_apply.register
    def _(self, cmd: JobDone, reply: Reply, mind: AgentMind, t: float) -> None:
        if mind.pending.get(reply.job_kind) == reply.request_id:
            mind.pending.pop(reply.job_kind, None)
        if reply.job_kind != "converse":
            return
        for m in (mind, self.minds.get(cmd.partner)):
            if m is not None:
                if m.pending.get("converse") == reply.request_id:
                    m.pending.pop("converse", None)
                m.booked_by = None
        if cmd.partner:
            self.conversations.release(mind.name, cmd.partner)
            self.conversations.start_cooldown(mind.name, cmd.partner, t)

    # --- doing ----------------------------------------------------------------------------------
    def _do(self, mind: AgentMind, d: Do, t: float) -> None:
        mind.record_decision(d.decision)
        mind.resume = None  # a choice made since a talk paused a use replaces it
        target = d.object_id or d.place
        duration = float(d.duration_s or DEFAULT_USE_S)
        body = self.world.bodies[mind.name]
        effects = dict(d.effects or {})
        if d.object_id and body.using == (d.object_id, d.verb):  # carrying on
            mind.activity = Activity("use", d.description, body.place, d.object_id, d.verb, t, t + duration, effects)
            return
        # another use of the object at hand ends this one first and needs no walk (breakfast eaten, the table is
        # cleared): kept as one use, Greta "ate" at the dining table from 06:45 to 08:36 while clearing it
        beside = bool(d.object_id) and body.using is not None and body.using[0] == d.object_id
        if body.using:
            self.world.finish_use(mind.name, t)
        if beside and self.world.start_use(mind.name, d.object_id, d.verb, t):
            mind.activity = Activity("use", d.description, body.place, d.object_id, d.verb, t, t + duration, effects)
            return
        if target and self.world.walk_to(mind.name, target, t):
            mind.activity = Activity("walk", d.description, d.place, d.object_id, d.verb, t, t + duration, effects)
            return
        if d.object_id and self.world.start_use(mind.name, d.object_id, d.verb, t):
            mind.activity = Activity("use", d.description, body.place, d.object_id, d.verb, t, t + duration, effects)
            return
        mind.activity = Activity("idle", d.description, body.place, start_t=t, end_t=t + RETRY_S)

    def on_world_event(self, ev: Any) -> None:
        """An arrival starts the use the walk was for (or a stay); a stuck walk retries soon."""
        mind = self.minds.get(ev.agent)
        if mind is None or ev.kind not in ("arrive", "stuck") or mind.activity.kind != "walk":
            return
        act, t, place = mind.activity, ev.t, self.world.bodies[ev.agent].place
        if ev.kind == "arrive":
            self.visit(ev.agent, t)
        span = act.end_t - act.start_t
        if ev.kind == "stuck":
            mind.activity = Activity("idle", act.description, place, start_t=t, end_t=t + RETRY_S)
            return
        if act.object_id and self.world.start_use(ev.agent, act.object_id, act.verb, t):
            mind.activity = Activity("use", act.description, place, act.object_id, act.verb, t, t + span, act.effects)
        elif act.object_id:  # taken or out of reach: decide again soon
            mind.activity = Activity("idle", act.description, place, start_t=t, end_t=t + RETRY_S)
        else:
            mind.activity = Activity("stay", act.description, place, start_t=t, end_t=t + max(span, STAY_S))
        if friend_out(self.world, mind, t):
            mind.activity.end_t = t  # nobody to visit: decide again now, not after waiting in an empty house

    def _chat(self, mind: AgentMind, d: ChatHeld, t: float, asked_t: float) -> None:
        """`asked_t`: when the two met; `d.composed_t`: the time the lines were made for (the log
        keeps both: in play the lines are shown when they arrive)."""
        a, b = mind.name, d.partner
        if not d.lines:
            return
        self.log.emit("chat_start", t, initiator=a, partner=b, agents=[a, b], place=d.place, chat_id=d.chat_id,
                      asked_t=round(asked_t, 1), composed_t=round(d.composed_t, 1))
        for i, (speaker, text) in enumerate(d.lines):
            tl = t + i * CHAT_LINE_GAP_S
            self.log.emit("chat_line", tl, agent=speaker, text=text, chat_id=d.chat_id)
            self.world.say(speaker, text, tl, duration_s=CHAT_LINE_GAP_S * 2)
        end = t + len(d.lines) * CHAT_LINE_GAP_S
        self.conversations.note_talk(a, b, t, news=d.news)
        self.log.emit("chat_end", end, initiator=a, partner=b, chat_id=d.chat_id, lines=len(d.lines))
        for n in (a, b):
            m = self.minds[n]
            m.needs.conversation()
            body = self.world.bodies[n]
            m.resume = paused_use(m.activity, body.using, end - t)
            if body.using and m.resume is None:  # talking ends what they were doing
                self.world.finish_use(n, t)
            m.pending.pop("decide", None)
            m.activity = Activity("chat", f"talking with {b if n == a else a}", body.place, start_t=t, end_t=end)


def resumed(paused: Activity, using: tuple[str, str] | None, t: float) -> Activity:
    """The use a talk paused, carried on at `t` (to `t` if it would have ended before) while the body still
    holds its object; otherwise idle, to decide again now."""
    if using != (paused.object_id, paused.verb):
        return Activity("idle", paused.description, paused.place, start_t=t, end_t=t)
    return paused if paused.end_t > t else replace(paused, end_t=t)


def paused_use(act: Activity, using: tuple[str, str] | None, talk_s: float) -> Activity | None:
    """The use `act` a talk of `talk_s` game s pauses, to be taken up again when the talk ends (a play had
    Felix leave his lunch for a chat at 12:35 and sit down to it again at 13:03); None when the body is
    using nothing the activity is about. Shifted by the talk, so the relief over its span is unchanged."""
    if act.kind != "use" or using is None or using != (act.object_id, act.verb):
        return None
    return replace(act, start_t=act.start_t + talk_s, end_t=act.end_t + talk_s)
