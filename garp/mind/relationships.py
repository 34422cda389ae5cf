"""Relationships: familiarity, trust, sentiment, appraised after each conversation (paper III-A6).

After a conversation each participant's view is re-appraised by the model at temperature 0.
It answers with a one-line reason and two *named* changes; code maps the names to fixed
deltas, applies the active scene hooks, scales by warmth, clamps to what one conversation
may do, and falls back to the small nudge of an ordinary chat if the reply is unusable.
"""

from __future__ import annotations

import re
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Annotated, Any, Callable, Iterable, Iterator, Literal

from pydantic import BaseModel, Field, StringConstraints

from garp.engine.lmfunction import CallRecord, Candidate, LMFunction, chat
from garp.mind.line_candidates import APOLOGY, aimed_elsewhere, apologises, is_small_talk

# --- tunables (paper III-A6) ----------------------------------------------------------
SENTIMENT_CHANGES: dict[str, float] = {   # named change -> sentiment delta
    "much colder": -0.45, "colder": -0.25, "a little colder": -0.1, "unchanged": 0.0,
    "a little warmer": 0.1, "warmer": 0.25, "much warmer": 0.45,
}
TRUST_CHANGES: dict[str, float] = {       # named change -> trust delta
    "much less trusting": -0.4, "less trusting": -0.2, "a little less trusting": -0.1, "unchanged": 0.0,
    "a little more trusting": 0.1, "more trusting": 0.2, "much more trusting": 0.4,
}
SENTIMENT_CLAMP = 0.6          # |sentiment change| per conversation
TRUST_CLAMP = 0.5              # |trust change| per conversation
FAMILIARITY_CLAMP = 0.3        # familiarity gain per conversation (never negative)
FAMILIARITY_GAIN = 0.2         # gain x (1 - familiarity): knowing someone better saturates (ours;
                               # 0.9 -> 0.92 as in the paper's Fig. 10)
FALLBACK_DELTAS = (0.05, 0.02, 0.1)   # sentiment, trust, familiarity of an ordinary chat
STRANGER_FAMILIARITY = 0.05    # a first meeting creates the relationship at these values
STRANGER_TRUST = 0.5
STRANGER_SENTIMENT = 0.0
STRANGER_BELOW = 0.2           # familiarity under which the other is treated as a stranger (ours)
APOLOGY_FLOOR = 0.3            # the apology scenes' minimum sentiment gain
SMALL_TALK_CHANGE = 0.1        # |sentiment| and |trust| change a talk of nothing but small talk may make
# Anchored pattern (the grammar supports it): one capitalised line, bounded so that the
# reason cannot eat the token budget before the two named changes are written.
REASON_PATTERN = r"^[A-Z][^\"\\\n]{8,80}$"
REASON_CHARS = 100

SentimentName = Literal["much colder", "colder", "a little colder", "unchanged",
                        "a little warmer", "warmer", "much warmer"]
TrustName = Literal["much less trusting", "less trusting", "a little less trusting", "unchanged",
                    "a little more trusting", "more trusting", "much more trusting"]

STRANGER_FRIEND_RULE = (
    "Judge by the relationship. From a stranger, questions about things one would not tell a stranger "
    "are a reason for suspicion. From a friend, the same questions show concern, and only a lie, a threat "
    "or a betrayal makes the view much colder. Ordinary friendly small talk is at most a little warmer.")


class RelationshipChange(BaseModel):
    """What one conversation did to one participant's view of the other."""

    t: float
    partner: str
    sentiment: float
    trust: float
    familiarity: float
    reason: str = ""
    sentiment_name: str = ""
    trust_name: str = ""
    fallback: bool = False
    hooks: list[str] = Field(default_factory=list)


def feeling_toward(sentiment: float, *, first_person: bool = False) -> str:
    """How a sentiment reads: "likes" ("I like" with `first_person`), from "dislikes" to "is very fond of"."""
    s = sentiment
    third, first = (("dislikes", "dislike") if s <= -0.5 else ("feels cool toward", "feel cool toward") if s < -0.15
                    else ("feels neutral about", "feel neutral about") if s < 0.15 else ("likes", "like") if s < 0.5
                    else ("is very fond of", "am very fond of"))
    return first if first_person else third


class Relationship(BaseModel):
    """One character's view of another."""

    name: str
    familiarity: float = Field(STRANGER_FAMILIARITY, ge=0.0, le=1.0)
    trust: float = Field(STRANGER_TRUST, ge=0.0, le=1.0)
    sentiment: float = Field(STRANGER_SENTIMENT, ge=-1.0, le=1.0)
    note: str = ""
    last_interaction: float | None = None
    last_change: RelationshipChange | None = None

    @property
    def closeness(self) -> float:
        """familiarity x max(sentiment, 0): scales contagion and colours prompts (III-A6)."""
        return self.familiarity * max(self.sentiment, 0.0)

    @property
    def stranger(self) -> bool:
        return self.familiarity < STRANGER_BELOW

    def summary(self, owner: str) -> str:
        """Natural language for conversation and appraisal prompts."""
        n, f, s, tr = self.name, self.familiarity, self.sentiment, self.trust
        kind = ("a stranger to" if f < STRANGER_BELOW else "an acquaintance of" if f < 0.45
                else "someone well known to" if f < 0.8 else "someone very well known to")
        feel = feeling_toward(s)
        trust = ("does not trust" if tr < 0.25 else "trusts a little" if tr < 0.45 else "trusts"
                 if tr < 0.75 else "trusts completely")
        note = f" ({self.note})" if self.note else ""
        text = f"{n} is {kind} {owner}{note}. {owner} {feel} {n} and {trust} {n}."
        if self.last_change and self.last_change.reason:
            text += f" Last talk: {self.last_change.reason}"
        return text


# --- scene hooks ------------------------------------------------------------------------

@dataclass
class AppraisalContext:
    """Raw (pre-warmth) deltas that scene hooks may adjust, plus what they may look at."""

    owner: str
    partner: str
    lines: list[tuple[str, str]]
    sentiment: float
    trust: float
    familiarity: float
    applied: list[str] = field(default_factory=list)
    purpose: str = ""  # the arrangement the two met for, "" for a chance chat
    arranged_by: str = ""  # who arranged that meeting


Hook = Callable[[AppraisalContext], None]


def partner_apologised(ctx: AppraisalContext) -> bool:
    """The partner said sorry, or came to a meeting they arranged in order to apologise and
    spoke there: the owner knows what the meeting was for (a small model's lines may not say it)."""
    spoke = [text for speaker, text in ctx.lines if speaker == ctx.partner]
    if any(apologises(text, ctx.owner) for text in spoke):
        return True
    return bool(spoke) and ctx.arranged_by == ctx.partner and APOLOGY.search(ctx.purpose) is not None


class ApologyFloor:
    """An apology from the partner is worth at least this much sentiment (the apology scenes),
    once per pair: a later "sorry" in the same scene is small talk, not the scene's apology.
    Which pairs were credited is state a save keeps (`state` / `restore`)."""

    def __init__(self, min_sentiment_delta: float = APOLOGY_FLOOR) -> None:
        self.min_sentiment_delta = min_sentiment_delta
        self.credited: set[tuple[str, str]] = set()

    def __call__(self, ctx: AppraisalContext) -> None:
        if (ctx.owner, ctx.partner) in self.credited or not partner_apologised(ctx):
            return
        self.credited.add((ctx.owner, ctx.partner))
        if ctx.sentiment < self.min_sentiment_delta:
            ctx.sentiment = self.min_sentiment_delta
            ctx.applied.append("apology_floor")

    def state(self) -> list[list[str]]:
        return sorted([owner, partner] for owner, partner in self.credited)

    def restore(self, data: list[list[str]]) -> None:
        self.credited = {(owner, partner) for owner, partner in data}


def apology_floor(min_sentiment_delta: float = APOLOGY_FLOOR) -> Hook:
    return ApologyFloor(min_sentiment_delta)


HOOK_FACTORIES: dict[str, Callable[..., Hook]] = {"apology_floor": apology_floor}


@dataclass
class _Registered:
    name: str
    hook: Hook
    agents: frozenset[str] | None  # whose appraisals it adjusts; None = everyone's


class SceneHooks:
    """Story-specific appraisal rules, registered per scene and removed when it ends."""

    def __init__(self) -> None:
        self._hooks: dict[str, list[_Registered]] = {}

    def add(self, scene: str, hook: Hook | str, name: str | None = None, *,
            agents: Iterable[str] | None = None, **params) -> None:
        """Register a hook (a callable, or a factory name from HOOK_FACTORIES with `params`)
        for `scene`; `agents` limits it to those characters' appraisals."""
        if isinstance(hook, str):
            if hook not in HOOK_FACTORIES:
                raise ValueError(f"unknown relationship hook '{hook}'; allowed: {', '.join(HOOK_FACTORIES)}")
            try:
                name, hook = name or hook, HOOK_FACTORIES[hook](**params)
            except TypeError as e:
                raise ValueError(f"relationship hook '{hook}': bad parameters {sorted(params)} ({e})") from None
        who = frozenset(agents) if agents is not None else None
        self._hooks.setdefault(scene, []).append(_Registered(name or getattr(hook, "__name__", "hook"), hook, who))

    def end_scene(self, scene: str) -> None:
        self._hooks.pop(scene, None)

    def state(self) -> dict[str, list[Any]]:
        """Per scene, each hook's own state (None for a hook that keeps none), in order (a save)."""
        return {scene: [r.hook.state() if hasattr(r.hook, "state") else None for r in regs]
                for scene, regs in self._hooks.items()}

    def restore(self, data: dict[str, list[Any]]) -> None:
        """The same hooks are registered again by the scene; this gives them back their state."""
        for scene, states in data.items():
            for r, saved in zip(self._hooks.get(scene, []), states):
                if saved is not None and hasattr(r.hook, "restore"):
                    r.hook.restore(saved)

    def active(self) -> list[str]:
        return [r.name for regs in self._hooks.values() for r in regs]

    def apply(self, ctx: AppraisalContext) -> None:
        for regs in self._hooks.values():
            for r in regs:
                if r.agents is None or ctx.owner in r.agents:
                    r.hook(ctx)

    @contextmanager
    def scene(self, scene: str, *hooks: Hook | str, agents: Iterable[str] | None = None) -> Iterator["SceneHooks"]:
        for h in hooks:
            self.add(scene, h, agents=agents)
        try:
            yield self
        finally:
            self.end_scene(scene)


# --- the appraisal LM function ------------------------------------------------------------

class RelationshipReply(BaseModel):
    reason: Annotated[str, StringConstraints(pattern=REASON_PATTERN)]
    sentiment: SentimentName
    trust: TrustName


@dataclass
class RelationshipInputs:
    owner: str
    partner: str
    personality_text: str
    summary: str
    lines: list[tuple[str, str]]
    purpose: str = ""  # why they met, when the meeting was arranged
    arranged_by: str = ""  # who arranged that meeting


class RelationshipAppraisal(LMFunction[RelationshipInputs, RelationshipReply]):
    name = "relationship_appraisal"
    value = "appraisal"
    Output = RelationshipReply
    priority = 6
    temperature = 0.0  # a conversation is always judged the same way (III-A6)
    max_tokens = 110  # an 80-character reason + two names (+ reasoning field)

    def messages(self, inputs: RelationshipInputs, reasoning: bool) -> list[dict]:
        system = (
            "You judge how a conversation changed how one person sees another. Reply with JSON: reason "
            "(one short line), sentiment (one of: " + ", ".join(SENTIMENT_CHANGES) + "), trust (one of: "
            + ", ".join(TRUST_CHANGES) + "). " + STRANGER_FRIEND_RULE)
        convo = "\n".join(f"{s}: {t}" for s, t in inputs.lines) or "(nothing was said)"
        user = "\n".join([
            f"{inputs.owner}: {inputs.personality_text}",
            f"Before: {inputs.summary}",
            *([f"They met because: {inputs.purpose}."] if inputs.purpose else []),
            "Conversation:",
            convo,
            f"How did this conversation change how {inputs.owner} sees {inputs.partner}?",
        ])
        return chat(system, user)

    def candidates(self, inputs: RelationshipInputs) -> list[Candidate]:
        return [Candidate(reply, _verdict_text(inputs, reply), utility, source)
                for reply, utility, source in appraisal_options(inputs)]

    def rank_messages(self, inputs: RelationshipInputs) -> list[dict]:
        system = "You judge how a conversation changed how one person sees another. " + STRANGER_FRIEND_RULE
        return chat(system, self.messages(inputs, False)[-1]["content"])

    def fallback(self, inputs: RelationshipInputs) -> RelationshipReply:
        # Callers apply FALLBACK_DELTAS when the CallRecord says the fallback was used.
        return RelationshipReply(reason="An ordinary chat.", sentiment="unchanged", trust="unchanged")

    def check(self, inputs: RelationshipInputs, out: RelationshipReply) -> RelationshipReply:
        reason = " ".join(out.reason.split())
        if len(reason) > REASON_CHARS:
            reason = reason[:REASON_CHARS].rsplit(" ", 1)[0]
        if len(reason) < 3:
            raise ValueError("the reason is empty")
        return out.model_copy(update={"reason": reason})


# --- rank mode: verdicts code reads off what the partner said, for the model to rank ------------
_KIND = re.compile(r"\b(thanks?|thank you|glad|proud|kind of you|here for you|you can do|good at|i'd like that|"
                   r"i'd love|happy to|i'll help|help you|well done|congratulations|you're right|i forgive|"
                   r"that's all right|no harm done|missed you|means a lot)\b", re.I)
_HARSH = re.compile(r"\b(stupid|useless|shut up|leave me alone|your fault|pathetic|idiot|how dare|you always|"
                    r"you never|get lost|ridiculous|sick of you|fed up with you|hate you)\b", re.I)  # at the listener
_BETRAYAL = re.compile(r"\b(i lied|lied to|i'll hurt|threat\w*|cheated|stole|betray\w*|i'll make you)\b", re.I)
U_ORDINARY, U_UNCHANGED, U_CUED, U_CUED_MORE = 0.5, 0.4, 0.65, 0.55  # code's estimate of each verdict's fit


def appraisal_options(i: RelationshipInputs) -> list[tuple[RelationshipReply, float, str]]:
    """The verdicts worth ranking: an ordinary friendly chat and no change always; warmer ones when
    the partner apologised or was kind, colder ones when the partner was harsh or spoke of a
    betrayal (each with the line that makes it so as its reason); small talk offers no more."""
    said = [text for speaker, text in i.lines  # what the partner said to the owner beyond small talk
            if speaker == i.partner and not is_small_talk(text, i.partner, i.owner)
            and not aimed_elsewhere(text, i.owner)]
    cue = lambda pattern: next((t for t in said if pattern.search(t)), None)  # noqa: E731
    harsh, betrayal = cue(_HARSH), cue(_BETRAYAL)
    came_to_apologise = i.arranged_by == i.partner and APOLOGY.search(i.purpose) and \
        any(speaker == i.partner for speaker, _ in i.lines)
    sorry = next((t for t in said if apologises(t, i.owner)), None)
    apology = _because(i.partner, "apologised", sorry) if sorry else \
        f"{i.partner} came to apologise" if came_to_apologise else ""
    kind = cue(_KIND)
    out = [(_reply(f"A friendly chat with {i.partner}", "a little warmer", "unchanged"),
            U_ORDINARY - (0.2 if harsh or betrayal else 0.0), "ordinary"),
           (_reply(f"Nothing {i.partner} said changed much", "unchanged", "unchanged"), U_UNCHANGED,
            "unchanged")]
    if apology:
        out += [(_reply(apology, "warmer", "more trusting"), U_CUED + 0.05, "apology"),
                (_reply(apology, "much warmer", "more trusting"), U_CUED_MORE, "apology")]
    if kind:
        out.append((_reply(_because(i.partner, "was kind", kind), "warmer", "a little more trusting"), U_CUED, "kind"))
    if harsh:
        why = _because(i.partner, "was harsh", harsh)
        out += [(_reply(why, "colder", "less trusting"), U_CUED, "harsh"),
                (_reply(why, "a little colder", "a little less trusting"), U_CUED_MORE, "harsh")]
    if betrayal:
        out.append((_reply(_because(i.partner, "broke faith", betrayal), "much colder", "much less trusting"),
                    U_CUED + 0.05, "betrayal"))
    return out


def _because(partner: str, what: str, line: str) -> str:
    """'Maya apologised: I'm so sorry I missed the move' (a reason the pattern accepts)."""
    text = f"{partner} {what}: " + " ".join(re.sub(r"[\"\\\n]", "", line).split())
    if len(text) > REASON_CHARS - 20:  # whole words: the inspector shows it
        text = text[:REASON_CHARS - 20].rsplit(" ", 1)[0]
    return text.rstrip(" ,;:.!?")


def _reply(reason: str, sentiment: str, trust: str) -> RelationshipReply:
    return RelationshipReply(reason=reason[:1].upper() + reason[1:], sentiment=sentiment, trust=trust)


def _verdict_text(i: RelationshipInputs, r: RelationshipReply) -> str:
    """What the model scores: 'Jonah feels warmer toward Maya and more trusting. Maya apologised: ...'"""
    feel = f"{i.owner} feels no different toward {i.partner}" if r.sentiment == "unchanged" else \
        f"{i.owner} feels {r.sentiment} toward {i.partner}"
    trust = "" if r.trust == "unchanged" else f" and {r.trust}"
    return f"{feel}{trust}. {r.reason}."


def _clamp(v: float, lo: float, hi: float) -> float:
    return max(lo, min(hi, v))


def small_talk_bound(owner: str, partner: str, lines: Iterable[tuple[str, str]], ds: float,
                     dt: float) -> tuple[float, float]:
    """The model's named changes, held to "a little" when every line was a greeting, a goodbye or a
    stock reply: the rule the prompt states, which a small model does not keep ('much colder' after
    "There you are, Maya." / "Fair enough.")."""
    spoken = [(speaker, text) for speaker, text in lines if text.strip()]
    if not spoken or not all(is_small_talk(text, speaker, partner if speaker == owner else owner)
                             for speaker, text in spoken):
        return ds, dt
    return (_clamp(ds, -SMALL_TALK_CHANGE, SMALL_TALK_CHANGE), _clamp(dt, -SMALL_TALK_CHANGE, SMALL_TALK_CHANGE))


def saturated(change: float, sentiment: float) -> float:
    """A sentiment change, smaller by the feeling's strength when it leans the same way (warmer toward a friend,
    colder toward a foe: the room left, as familiarity saturates; ours); a change against the feeling is whole.
    Unsaturated, coworkers talking every half hour were at 1.0 by midday and "You matter to me." said to each."""
    return change * (1.0 - abs(sentiment)) if change * sentiment > 0 else change


class Relationships:
    """One character's view of everyone they know. `personality` (a CompiledPersonality) drives
    warmth scaling; `hooks` are the simulation's active scene hooks."""

    def __init__(self, owner: str, personality=None, hooks: SceneHooks | None = None) -> None:
        self.owner = owner
        self.personality = personality
        self.hooks = hooks
        self.by_name: dict[str, Relationship] = {}

    def seed(self, persona) -> None:
        """Initial relationships authored in the persona file."""
        for r in persona.relationships:
            if r.name != self.owner:
                self.by_name[r.name] = Relationship(name=r.name, familiarity=r.familiarity, trust=r.trust,
                                                    sentiment=r.sentiment, note=r.note)

    def get(self, name: str) -> Relationship | None:
        return self.by_name.get(name)

    def get_or_meet(self, name: str, t: float | None = None) -> Relationship:
        """The relationship, created at stranger values on a first meeting."""
        rel = self.by_name.get(name)
        if rel is None:
            rel = self.by_name[name] = Relationship(name=name, last_interaction=t)
        return rel

    def preseed(self, names: Iterable[str], t: float | None = None) -> None:
        for n in names:
            if n != self.owner:
                self.get_or_meet(n, t)

    def closeness(self, name: str) -> float:
        rel = self.by_name.get(name)
        return rel.closeness if rel else 0.0

    def summary(self, name: str) -> str:
        return self.get_or_meet(name).summary(self.owner)

    def inputs(self, partner: str, lines: list[tuple[str, str]], personality_text: str = "",
               purpose: str = "", arranged_by: str = "") -> RelationshipInputs:
        text = personality_text or (self.personality.personality_text if self.personality else "")
        return RelationshipInputs(self.owner, partner, text, self.summary(partner), list(lines), purpose, arranged_by)

    async def appraise(self, scheduler, partner: str, lines: list[tuple[str, str]], *, t: float,
                       deadline: float | None = None, purpose: str = "",
                       arranged_by: str = "") -> tuple[RelationshipChange, CallRecord | None]:
        """Re-appraise after a conversation; lines are (speaker, text) as spoken; `purpose` and
        `arranged_by` describe the arrangement the two met for, if any."""
        inputs = self.inputs(partner, lines, purpose=purpose, arranged_by=arranged_by)
        meeting = {"purpose": purpose, "arranged_by": arranged_by}
        if scheduler is None:
            return self.apply(partner, None, t=t, lines=lines, **meeting), None
        reply, rec = await scheduler.call(RelationshipAppraisal(), inputs, agent=self.owner, deadline=deadline,
                                          game_time=t)
        return self.apply(partner, None if rec.fallback_used else reply, t=t, lines=lines, **meeting), rec

    def apply(self, partner: str, reply: RelationshipReply | None, *, t: float,
              lines: list[tuple[str, str]] = (), purpose: str = "", arranged_by: str = "") -> RelationshipChange:
        """Named changes (or, for None, the ordinary-chat fallback) -> hooks -> warmth -> clamps."""
        rel = self.get_or_meet(partner, t)
        if reply is None:
            ds, dt, df = FALLBACK_DELTAS
        else:
            ds, dt = small_talk_bound(self.owner, partner, lines, SENTIMENT_CHANGES[reply.sentiment],
                                      TRUST_CHANGES[reply.trust])
            df = FAMILIARITY_GAIN * (1.0 - rel.familiarity)
        ds = saturated(ds, rel.sentiment)  # before the hooks: the apology floor stays a floor
        ctx = AppraisalContext(self.owner, partner, list(lines), ds, dt, df, purpose=purpose, arranged_by=arranged_by)
        if self.hooks is not None:
            self.hooks.apply(ctx)
        ds, dt, df = ctx.sentiment, ctx.trust, ctx.familiarity
        if self.personality is not None:
            ds = self.personality.scale_relationship_delta(ds)
            dt = self.personality.scale_relationship_delta(dt)
        ds = _clamp(ds, -SENTIMENT_CLAMP, SENTIMENT_CLAMP)
        dt = _clamp(dt, -TRUST_CLAMP, TRUST_CLAMP)
        df = _clamp(df, 0.0, FAMILIARITY_CLAMP)
        new_s = _clamp(rel.sentiment + ds, -1.0, 1.0)
        new_t = _clamp(rel.trust + dt, 0.0, 1.0)
        new_f = _clamp(rel.familiarity + df, 0.0, 1.0)
        change = RelationshipChange(
            t=t, partner=partner, sentiment=round(new_s - rel.sentiment, 6), trust=round(new_t - rel.trust, 6),
            familiarity=round(new_f - rel.familiarity, 6), reason=reply.reason if reply else "",
            sentiment_name=reply.sentiment if reply else "", trust_name=reply.trust if reply else "",
            fallback=reply is None, hooks=ctx.applied)
        rel.sentiment, rel.trust, rel.familiarity = new_s, new_t, new_f
        rel.last_interaction, rel.last_change = t, change
        return change


def preseed_scene(views: dict[str, Relationships], t: float | None = None) -> None:
    """Every pair in a populated scene gets a relationship (strangers where none was authored)."""
    for name, view in views.items():
        view.preseed((n for n in views if n != name), t)
