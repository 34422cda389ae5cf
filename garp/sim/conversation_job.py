"""The cognition side of one conversation (III-A9): decide to talk, the lines, and what
follows — one summary memory each, relationship appraisal, emotion contagion and the
commitments made. Both participants stay booked until this job has written everything.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from garp.mind.agent import AgentMind
from garp.mind.conversation import ConversationManager, SocialState
from garp.mind.dialogue import SpeakerContext, call_deadline, conversation_effects, run_conversation
from garp.sim.cognition import REQUEST_DEADLINE_WALL_S, Command, Job

if TYPE_CHECKING:
    from garp.sim.pipeline import Brain


def social_state(mind: AgentMind, other: str, body: dict[str, Any], activity: str) -> SocialState:
    mood = mind.mood
    return SocialState(name=mind.name, x=body["x"], y=body["y"], place=body["place"], activity=activity,
                       chat_probability=mind.personality.chat_probability, emotion=mood.get("text", "calm"),
                       emotion_label=mood.get("label", "neutral"), valence=float(mood.get("valence", 0.0)))


def speaker(brain: "Brain", mind: AgentMind, other: str, place: str, topic: str, purpose: str = "") -> SpeakerContext:
    emotions = brain.switches["emotions"]
    soc = mind.personality.trait("sociability")
    thoughts = list(mind.memory.urgent_thoughts) + ([topic] if topic else [])
    return SpeakerContext(name=mind.name, persona_text=mind.personality.personality_text,
                          emotion=mind.emotion.tone() if emotions else f"{mind.name} feels calm.",
                          relationship=mind.relationships.summary(other), exemplars=mind.personality.voice_lines(),
                          urgent_thoughts=thoughts[-3:], reserved=bool(soc and soc.pole == "introverted"),
                          memory=mind.memory, place=place, purpose=purpose)


async def converse(brain: "Brain", job: Job, a: AgentMind, b: AgentMind) -> list[Command]:
    t, p = job.asked_t, job.payload
    place = p.get("place", "")
    bodies = p["bodies"]
    sa = social_state(a, b.name, bodies[a.name], p["activities"][a.name])
    sb = social_state(b, a.name, bodies[b.name], p["activities"][b.name])
    sa.relationship = a.relationships.summary(b.name)
    topic = brain.hooks.topic(a.name, b.name)
    reply_topic = brain.hooks.topic(b.name, a.name)  # a host who came to invite but was greeted first
    meeting = p.get("meeting") or {}  # an arranged meeting: {"what", "host"}
    purpose = meeting.get("what", "")
    # an invitation errand or a meeting always talks; otherwise the model decides (III-A9)
    if not topic and not reply_topic and not purpose:
        talk, _ = await ConversationManager().decide(sa, sb, brain.scheduler, t, deadline=brain.deadline())
        if not talk:
            brain.log.emit("chat_declined", t, agent=a.name, partner=b.name)
            return []
    # without a deadline a request waits behind every request that has one, while both stay booked
    per_call_s = None if brain.sequential else REQUEST_DEADLINE_WALL_S
    tr = await run_conversation(speaker(brain, a, b.name, place, topic, purpose),
                                speaker(brain, b, a.name, place, reply_topic, purpose),
                                brain.scheduler, t, deadline_s=per_call_s)
    eff = await conversation_effects(tr, brain.scheduler, known_places=brain.known_places,
                                     known_agents=list(brain.minds), start_date=brain.scenario.start_date,
                                     clock_label=p.get("clock_label", ""), conversation_id=p.get("chat_id"),
                                     deadline_s=per_call_s)
    pairs = [(l.speaker, l.text) for l in tr.lines]
    commands: list[Command] = []
    for me, other in ((a, b), (b, a)):
        summary = eff.summaries.get(me.name) or f"{me.name} talked with {other.name}."
        emo = me.emotion.current
        await me.memory.remember(summary, t=tr.end_t, type="chat", location=place, emotion=emo.label,
                                       intensity=emo.intensity)
        change, _ = await me.relationships.appraise(brain.scheduler, other.name, pairs, t=tr.end_t, purpose=purpose,
                                                    arranged_by=meeting.get("host", ""),
                                                    deadline=call_deadline(brain.scheduler, per_call_s))
        rel = me.relationships.get(other.name)
        brain.log.emit("relationship", tr.end_t, agent=me.name, other=other.name, sentiment=round(rel.sentiment, 4),
                       trust=round(rel.trust, 4), familiarity=round(rel.familiarity, 4),
                       delta=round(change.sentiment, 4), hooks=list(change.hooks), reason=change.reason[:120])
        if brain.switches["emotions"]:
            theirs = [text for who, text in pairs if who == other.name]
            nudge = me.emotion.apply_contagion(theirs, me.relationships.closeness(other.name), t=tr.end_t,
                                               partner=other.name)
            if nudge:
                commands.append(emotion_command(me, tr.end_t))
    for name, c in eff.commitments.items():
        clashes = (brain.minds[n].commitments.hosted_clash(c) for n in c.participants if n in brain.minds)
        clash = next(filter(None, clashes), None)
        if clash is not None:
            brain.log.emit("commitment_refused", tr.end_t, agent=name, what=c.what, clash=clash.what)
            continue
        commands.append(brain.commit(brain.minds[name], c, tr.end_t))
    heard = brain.hooks.heard_from_host(a.name, b.name, tr.end_t) or brain.hooks.heard_from_host(b.name, a.name, tr.end_t)
    if heard is not None:
        guest = b if heard.host == a.name else a
        commands.append(brain.commit(guest, heard, tr.end_t))
    commands.insert(0, Command(a.name, "chat", {"partner": b.name, "lines": [[s, x] for s, x in pairs],
                                                "chat_id": p.get("chat_id", ""), "place": place}))
    return commands


def emotion_command(mind: AgentMind, t: float) -> Command:
    c = mind.emotion.current
    return Command(mind.name, "emotion", {"label": c.label, "intensity": round(c.intensity, 3),
                                          "valence": round(c.valence, 3), "text": mind.emotion.describe(),
                                          "cause": c.cause[:120], "t": t})
