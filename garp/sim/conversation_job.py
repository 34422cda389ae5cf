"""The cognition side of one conversation (III-A9): decide to talk, the lines, and what
follows — one summary memory each, relationship appraisal, emotion contagion and the
commitments made. Both participants stay booked until this job has written everything.
"""

from __future__ import annotations

from typing import Any

from garp.interfaces import JobContext
from garp.mind.agent import AgentMind
from garp.mind.conversation import ConversationManager, SocialState
from garp.mind.dialogue import SpeakerContext, call_deadline, conversation_effects, run_conversation
from garp.mind.commitments import word_overlap
from garp.mind.day_record import day_so_far
from garp.mind.day_talk import day_talk
from garp.mind.news import friends_to_tell, heard, telling_visits
from garp.mind.persona import housemates
from garp.mind.planning import plan_today
from garp.sim.cognition import REQUEST_DEADLINE_WALL_S, send_early
from garp.sim.messages import BodySnapshot, ChatHeld, Command, ConverseJob, EmotionChanged, RelationshipsChanged


def social_state(mind: AgentMind, other: str, body: BodySnapshot, activity: str) -> SocialState:
    mood = mind.mood
    return SocialState(name=mind.name, x=body.x, y=body.y, place=body.place, activity=activity,
                       chat_probability=mind.personality.chat_probability, emotion=mood.get("text", "calm"),
                       emotion_label=mood.get("label", "neutral"), valence=float(mood.get("valence", 0.0)))


def speaker(brain: JobContext, mind: AgentMind, other: str, place: str, topic: str, purpose: str, t: float,
            days: dict[str, tuple]) -> SpeakerContext:
    """One participant's side of the talk; `days`: each one's day so far (`day_record.Done` values)."""
    emotions = brain.switches["emotions"]
    soc = mind.personality.trait("sociability")
    rel = mind.relationships.get_or_meet(other)
    # a thought about an event it knows is said as that event's invitation or news, not again in its own words
    events = [e.what for e in mind.events.known.values()]
    thoughts = [th for th in mind.memory.urgent_thoughts if not any(word_overlap(th, w) >= 0.5 for w in events)]
    thoughts += [topic] if topic else []
    return SpeakerContext(name=mind.name, persona_text=mind.personality.personality_text,
                          emotion=mind.emotion.tone() if emotions else f"{mind.name} feels calm.",
                          relationship=mind.relationships.summary(other), exemplars=mind.personality.voice_lines(),
                          urgent_thoughts=thoughts[-3:], reserved=bool(soc and soc.pole == "introverted"),
                          memory=mind.memory, place=place, purpose=purpose,
                          familiarity=rel.familiarity, sentiment=rel.sentiment,
                          news=mind.events.news_for(other, t, place), said_before=mind.events.said_to(other),
                          said_lately=mind.events.said_lately(),
                          day=day_talk(days[mind.name], plan_today(mind, t), mind.name, mind.persona.home, t,
                                       other, days[other], place))


async def converse(brain: JobContext, job: ConverseJob, a: AgentMind, b: AgentMind) -> list[Command]:
    """Decide to talk (unless the talk is an errand or a meeting), hold the conversation, then
    what follows it: memories, appraisals, contagion and commitments."""
    topic = brain.hooks.topic(a.name, b.name)
    reply_topic = brain.hooks.topic(b.name, a.name)  # a host who came to invite but was greeted first
    purpose = job.meeting.what if job.meeting else ""
    # an invitation errand or a meeting always talks; otherwise the model decides (III-A9)
    if not topic and not reply_topic and not purpose and not await _wants_to_talk(brain, job, a, b):
        brain.log.emit("chat_declined", job.asked_t, agent=a.name, partner=b.name)
        return []
    # without a deadline a request waits behind every request that has one, while both stay booked
    per_call_s = None if brain.sequential else REQUEST_DEADLINE_WALL_S
    started, t = brain.now(job), brain.talk_time(job)  # play: the lines are about the time they are shown
    days = {m.name: day_so_far(job.doings, m.name, t) for m in (a, b)}  # off the frame loop
    tr = await run_conversation(speaker(brain, a, b.name, job.place, topic, purpose, t, days),
                                speaker(brain, b, a.name, job.place, reply_topic, purpose, t, days),
                                brain.scheduler, t, deadline_s=per_call_s, phrasebook=brain.phrasebook)
    brain.talk_composed(started)
    pairs = [(l.speaker, l.text) for l in tr.lines]
    told = any(l.act for l in tr.lines)  # an event told in so many words needs no extraction from the lines
    held = ChatHeld(agent=a.name, partner=b.name, lines=tuple(pairs), chat_id=job.chat_id, place=job.place,
                    composed_t=t, news=told)
    # the lines go to the main thread now: play shows them while the memories below are made
    commands: list[Command] = [] if send_early(held) else [held]
    eff = await conversation_effects(tr, brain.scheduler, known_places=brain.known_places,
                                     known_agents=list(brain.minds), start_date=brain.scenario.start_date,
                                     clock_label=job.clock_label, conversation_id=job.chat_id,
                                     deadline_s=per_call_s, extract=not told)
    for me, other in ((a, b), (b, a)):
        commands += await _afterwards(brain, job, me, other, eff.summaries.get(me.name), pairs, tr.end_t, per_call_s)
    accepted = word_of_mouth(brain, tr, {a.name: a, b.name: b})
    return commands + _commitments(brain, a, b, {**eff.commitments, **accepted}, tr.end_t)


def word_of_mouth(brain: JobContext, tr: Any, minds: dict[str, AgentMind]) -> dict[str, Any]:
    """The acts of the lines (garp.mind.news): a listener told of an event learns it with its source
    (a `news_heard` event), and whoever accepted it is committed to it. Returns name -> commitment."""
    accepted: dict[str, Any] = {}
    for name, mind in minds.items():  # what each said, not to be said again to the other next time
        mind.events.note_said(next(n for n in minds if n != name), [l.text for l in tr.lines if l.speaker == name])
    for line in tr.lines:
        kind, _, event_id = line.act.partition(":")
        me = minds[line.speaker]
        other = next(m for n, m in minds.items() if n != line.speaker)
        event = me.events.known.get(event_id)
        if event is None:
            continue
        if kind in ("invite", "relay"):
            me.events.told_of(event_id, other.name)
            if other.events.learn(heard(event, other.name, me.name, line.t)):
                brain.log.emit("news_heard", line.t, agent=other.name, heard_from=me.name, host=event.host,
                               what=event.what, place=event.place, start=event.start)
        elif kind == "accept":
            accepted[me.name] = event
    return accepted


async def _wants_to_talk(brain: JobContext, job: ConverseJob, a: AgentMind, b: AgentMind) -> bool:
    """The model's decide-to-talk (III-A9) from both sides' situation when the job was asked; the one
    of the two with news to tell the other decides (the first to speak when both or neither have)."""
    news = a.events.news_for(b.name, job.asked_t, job.place)
    if not news and (theirs := b.events.news_for(a.name, job.asked_t, job.place)):
        a, b, news = b, a, theirs
    sa = social_state(a, b.name, job.bodies[a.name], job.activities[a.name])
    sb = social_state(b, a.name, job.bodies[b.name], job.activities[b.name])
    sa.relationship = a.relationships.summary(b.name)
    rel = a.relationships.get(b.name)
    told = f"{news[0].what} at {news[0].place} {news[0].when(job.asked_t)}" if news else ""
    talk, _ = await ConversationManager().decide(sa, sb, brain.scheduler, job.asked_t, deadline=brain.deadline(),
                                                 news=told, familiarity=rel.familiarity if rel else 0.0)
    return talk


async def _afterwards(brain: JobContext, job: ConverseJob, me: AgentMind, other: AgentMind, summary: str | None,
                      pairs: list[tuple[str, str]], end_t: float, per_call_s: float | None) -> list[Command]:
    """One speaker's side of what follows: the summary memory, the relationship appraisal and
    emotion contagion from what the other said."""
    summary = summary or f"{me.name} talked with {other.name}."
    emo = me.emotion.current
    await me.memory.remember(summary, t=end_t, type="chat", location=job.place, emotion=emo.label,
                             intensity=emo.intensity)
    change, _ = await me.relationships.appraise(brain.scheduler, other.name, pairs, t=end_t,
                                                purpose=job.meeting.what if job.meeting else "",
                                                arranged_by=job.meeting.host if job.meeting else "",
                                                deadline=call_deadline(brain.scheduler, per_call_s))
    rel = me.relationships.get(other.name)
    brain.log.emit("relationship", end_t, agent=me.name, other=other.name, sentiment=round(rel.sentiment, 4),
                   trust=round(rel.trust, 4), familiarity=round(rel.familiarity, 4),
                   delta=round(change.sentiment, 4), hooks=list(change.hooks), reason=change.reason[:120])
    out: list[Command] = [RelationshipsChanged(
        agent=me.name, by_name={n: r.model_copy(deep=True) for n, r in me.relationships.by_name.items()})]
    if not brain.switches["emotions"]:
        return out
    theirs = [text for who, text in pairs if who == other.name]
    nudge = me.emotion.apply_contagion(theirs, me.relationships.closeness(other.name), t=end_t, partner=other.name)
    return out + ([emotion_command(me, end_t)] if nudge else [])


def _commitments(brain: JobContext, a: AgentMind, b: AgentMind, made: dict[str, Any], end_t: float) -> list[Command]:
    """The commitments the conversation made (refused when they clash with one a participant
    hosts), and the event a guest heard about from its host (scene hook)."""
    out: list[Command] = []
    for name, c in made.items():
        clashes = (brain.minds[n].commitments.hosted_clash(c) for n in c.participants if n in brain.minds)
        clash = next(filter(None, clashes), None)
        if clash is not None:
            brain.log.emit("commitment_refused", end_t, agent=name, what=c.what, clash=clash.what)
            continue
        first = brain.minds[name].commitments.get(c.id) is None
        out.append(brain.commit(brain.minds[name], c, end_t))
        if first and c.open and c.host != name:
            out += pass_on_errands(brain, brain.minds[name], c, end_t)
    from_host = brain.hooks.heard_from_host(a.name, b.name, end_t) or brain.hooks.heard_from_host(b.name, a.name, end_t)
    if from_host is not None:  # the invitation_round demo hook only
        guest = b if from_host.host == a.name else a
        out.append(brain.commit(guest, from_host, end_t))
    return out


def pass_on_errands(brain: JobContext, mind: AgentMind, event: Any, t: float) -> list[Command]:
    """A guest who accepts an open event calls on its housemates and closest friends who have not heard of it, when
    they are free (their routine's working day over), as the host calls on its invitees."""
    closeness = {n: r.closeness for n, r in mind.relationships.by_name.items()}
    household = set(housemates(mind.persona, {n: m.persona for n, m in brain.minds.items()}))
    friends = friends_to_tell(event, mind.name, closeness, set(brain.minds), household)
    visits = telling_visits(event, mind.name, friends, brain.homes, brain.workplaces, brain.free_at, t) if friends else []
    return [brain.commit(mind, v, t) for v in visits]


def emotion_command(mind: AgentMind, t: float) -> Command:
    c = mind.emotion.current
    return EmotionChanged(agent=mind.name, label=c.label, intensity=round(c.intensity, 3), valence=round(c.valence, 3),
                          text=mind.emotion.describe(), cause=c.cause[:120], t=t, state=c.model_copy())
