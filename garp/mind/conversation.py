"""Conversations (paper III-A9, VI-g): who talks, booking, lines, and what follows.

Initiation: range check → booking/cooldown → a guard that keeps chatter from making
someone late for a planned joint activity → the personality chat gate p′ (withdrawn
agents less likely) → the model's decide-to-talk. A meeting held by arrangement (both at
the place of a commitment that is about the two of them) skips range, gate and the
decision: they came to talk, and its purpose goes into both speakers' line prompts and
the appraisal. A conversation is booked like an
object from set-up until both participants have written it to memory, and it pauses
a gathering without ending it (`paused_activity`). Up to three lines per participant;
each line prompt carries persona with temperament sentence, mood-congruent memories,
emotion, relationship, the conversation so far, THEN voice exemplars as tone to match,
then urgent thoughts. Afterwards `conversation_effects` returns one summary per
participant, the lines for relationship appraisal and contagion, and the commitments.
"""

from __future__ import annotations

import itertools
import math
import re
from datetime import date
from typing import Any, Callable, ClassVar

from pydantic import BaseModel, ConfigDict, Field

from garp.engine.lmfunction import LMFunction, chat
from garp.mind.commitments import (
    Commitment, CommitmentExtraction, ExtractionInputs, commitments_from_extraction, parse_time_of_day,
)

# --- tunables (paper III-A9) -----------------------------------------------------------------
CHAT_RANGE_PX = 96.0  # interaction range, map pixels (3 tiles)
COOLDOWN_S = 1002.0  # per-pair cooldown, game seconds (~16.7 game-minutes, III-A9 / Table II)
GUARD_WINDOW_S = 30 * 60.0  # no chat when a commitment starts within this and the agent is not there yet
WITHDRAWN_FACTOR = 0.5  # withdrawn agents start chats this much less often (III-A3 mechanism 5)
WITHDRAWN_VALENCE = -0.4  # valence at or below this counts as withdrawn
WITHDRAWN_LABELS = frozenset({"sad", "lonely", "guilty"})
MAX_TURNS_EACH = 3  # lines per participant (III-A9: 6 lines in all)
MAX_LINE_WORDS = 30  # a spoken line is cut to this many words
LINE_GAME_S = 20.0  # game seconds stamped between lines when no clock is given
MEMORIES_PER_LINE = 3  # retrieved memories in each line prompt
MEETING_EARLY_S = 15 * 60.0  # an arranged meeting may begin this long before its start, game s (ours)
_FAREWELL = re.compile(r"\b(bye|goodbye|see you|got to go|gotta go|get going|take care)\b", re.I)

# Prompt wording a small model echoes instead of speaking.
_SCAFFOLD = re.compile(r"last line|next line|tone to match|conversation so far|write .{0,20}reply|"
                       r"just said:|on \w+'s mind:|\bremembers:|"
                       r"^\w+'s (?:next )?(?:reply|answer|response|line)\W*$", re.I)
# A scaffold label the model sometimes writes before the line itself: "Lena's next line to Dara:",
# "Lena's reply:", "Lena (to Dara):" -> cleaned off; what follows is the line.
_LABEL = re.compile(r"^\s*[\w' ]{0,30}?(?:'s)?\s*(?:next line|line|reply|answer|response)?(?:\s*(?:to|for)\s+\w+)?"
                    r"\s*(?:\([^)]{0,30}\))?\s*:\s*", re.I)
REPEAT_OVERLAP = 0.8  # word-set overlap at which a line counts as repeating an earlier one



def _norm(text: str) -> str:
    return " ".join(re.findall(r"[a-z0-9']+", text.lower()))


def clean_line(line: str, speaker: str, listener: str) -> str:
    """Strip quotes and a leading speaker or scaffold label ("Lena's next line to Dara:")."""
    text = " ".join(line.split()).strip().strip('"').strip()
    for _ in range(2):
        m = _LABEL.match(text)
        if not m:
            break
        label = m.group(0).lower()
        names = (speaker.lower() in label or listener.lower() in label)
        if not (names or re.search(r"next line|reply|response|answer", label)):
            break  # a colon inside ordinary speech ("Listen: ...") is kept
        text = text[m.end():].strip().strip('"').strip()
    return text


def repeats(a: str, b: str) -> bool:
    """Normalised line `a` repeats `b`: equal, or nearly the same words."""
    if not a or not b:
        return False
    if a == b:
        return True
    wa, wb = set(a.split()), set(b.split())
    return min(len(wa), len(wb)) >= 3 and len(wa & wb) / min(len(wa), len(wb)) >= REPEAT_OVERLAP \
        and abs(len(wa) - len(wb)) <= 2


def self_repeating(norm: str, n: int = 3, times: int = 3) -> bool:
    """A line in which one n-word phrase comes back `times` times or more (a looping model)."""
    words = norm.split()
    grams = [" ".join(words[i:i + n]) for i in range(len(words) - n + 1)]
    return any(grams.count(g) >= times for g in set(grams))


def is_withdrawn(label: str, valence: float) -> bool:
    return label in WITHDRAWN_LABELS or valence <= WITHDRAWN_VALENCE


class SocialState(BaseModel):
    """What initiation needs to know about one agent right now."""

    name: str
    x: float
    y: float
    place: str = ""
    activity: str = ""
    chat_probability: float = 0.5  # personality p′ (III-A4)
    emotion: str = "calm"
    emotion_label: str = "neutral"
    valence: float = 0.0
    relationship: str = ""  # this agent's view of the other
    next_commitment: str = ""  # what
    next_commitment_start: float | None = None
    next_commitment_end: float | None = None
    next_commitment_place: str | None = None
    next_commitment_id: str = ""
    next_commitment_host: str = ""
    next_commitment_with: list[str] = Field(default_factory=list)  # its participants

    def heading_to_commitment(self, t: float) -> bool:
        """About to start (or already in) a commitment somewhere else."""
        if self.next_commitment_start is None or self.next_commitment_place is None:
            return False
        end = self.next_commitment_end if self.next_commitment_end is not None else self.next_commitment_start
        soon = self.next_commitment_start - t <= GUARD_WINDOW_S and t < max(end, self.next_commitment_start)
        return soon and self.place != self.next_commitment_place


class Meeting(BaseModel):
    """Two people at the place of an arrangement that is about them (e.g. an apology)."""

    commitment_id: str
    what: str
    host: str  # who arranged it: speaks first
    partner: str


def _names(text: str, name: str) -> bool:
    return re.search(rf"\b{re.escape(name)}\b", text, re.I) is not None


def arranged_meeting(a: SocialState, b: SocialState, t: float) -> Meeting | None:
    """The arrangement one of them hosts and both are at now, when it is about the two of them:
    its description names the other ("Tomas apologises to Jonah over coffee", "invite Ren to
    the party"). The other need not hold it (an invitation visit is the host's errand). A party
    or a recital names only its host and is no meeting of two."""
    return _hosted_meeting(a, b, t) or _hosted_meeting(b, a, t)


def _hosted_meeting(host: SocialState, other: SocialState, t: float) -> Meeting | None:
    cid, place, start, end = host.next_commitment_id, host.next_commitment_place, host.next_commitment_start, \
        host.next_commitment_end
    if not cid or host.next_commitment_host != host.name or start is None or place is None:
        return None
    if not (start - MEETING_EARLY_S <= t < (end if end is not None else start)):
        return None
    if host.place != place or other.place != place or other.name not in host.next_commitment_with:
        return None
    if not _names(host.next_commitment, other.name):
        return None
    return Meeting(commitment_id=cid, what=host.next_commitment, host=host.name, partner=other.name)


class Booking(BaseModel):
    id: str
    a: str
    b: str
    t: float
    paused: dict[str, str | None] = Field(default_factory=dict)


class ConversationManager:
    """Scene-wide: range, gate, guard, cooldown and booking of conversations."""

    def __init__(self, *, talk_range_px: float = CHAT_RANGE_PX, cooldown_s: float = COOLDOWN_S) -> None:
        self.talk_range_px, self.cooldown_s = talk_range_px, cooldown_s
        self._last: dict[frozenset, float] = {}
        self._booked: dict[str, str] = {}
        self._bookings: dict[str, Booking] = {}
        self._meetings_held: set[tuple[str, frozenset]] = set()
        self._ids = itertools.count(1)  # per town, so a run's chat ids do not depend on earlier runs

    # range, cooldown
    def in_range(self, a: SocialState, b: SocialState) -> bool:
        return math.hypot(a.x - b.x, a.y - b.y) <= self.talk_range_px

    def on_cooldown(self, a: str, b: str, t: float) -> bool:
        last = self._last.get(frozenset((a, b)))
        return last is not None and t - last < self.cooldown_s

    def start_cooldown(self, a: str, b: str, t: float) -> None:
        self._last[frozenset((a, b))] = t

    # booking (VI-g: a finishing conversation still owns its participants)
    def is_booked(self, name: str) -> bool:
        return name in self._booked

    def booking_of(self, name: str) -> Booking | None:
        cid = self._booked.get(name)
        return self._bookings.get(cid) if cid else None

    def book(self, a: str, b: str, t: float, paused: dict[str, str | None] | None = None) -> str | None:
        """Reserve both participants; None when either is already in a conversation."""
        if a == b or a in self._booked or b in self._booked:
            return None
        cid = f"chat-{next(self._ids)}"
        self._bookings[cid] = Booking(id=cid, a=a, b=b, t=t, paused=dict(paused or {}))
        self._booked[a] = self._booked[b] = cid
        return cid

    def paused_activity(self, name: str) -> str | None:
        """The gathering/activity a conversation paused for `name` (resume it afterwards)."""
        booking = self.booking_of(name)
        return booking.paused.get(name) if booking else None

    def release(self, a: str, b: str) -> dict[str, str | None]:
        """Both have written the conversation to memory: free them; returns the paused activities."""
        cid = self._booked.get(a)
        if cid is None or self._booked.get(b) != cid:
            return {}
        booking = self._bookings.pop(cid)
        self._booked.pop(a, None)
        self._booked.pop(b, None)
        return booking.paused

    # arranged meetings: held once per arrangement and pair
    def meeting(self, a: SocialState, b: SocialState, t: float) -> Meeting | None:
        m = arranged_meeting(a, b, t)
        return None if m is None or (m.commitment_id, frozenset((a.name, b.name))) in self._meetings_held else m

    def hold_meeting(self, m: Meeting) -> None:
        self._meetings_held.add((m.commitment_id, frozenset((m.host, m.partner))))

    # gate and guard
    @staticmethod
    def gate(a: SocialState, rng) -> bool:
        p = a.chat_probability * (WITHDRAWN_FACTOR if is_withdrawn(a.emotion_label, a.valence) else 1.0)
        return rng.random() < p

    @staticmethod
    def guard(a: SocialState, b: SocialState, t: float) -> bool:
        """True when chatting would pre-empt a planned activity (someone is heading to a commitment)."""
        return a.heading_to_commitment(t) or b.heading_to_commitment(t)

    def precheck(self, a: SocialState, b: SocialState, t: float, rng, *, meeting: bool = False) -> tuple[bool, str]:
        """All code-side conditions, cheapest first; the rng is drawn only if everything else passes.
        At an arranged `meeting` they find each other anywhere in the place and came to talk: no
        range and no gate."""
        if not meeting and not self.in_range(a, b):
            return False, "out of range"
        if self.is_booked(a.name) or self.is_booked(b.name):
            return False, "already in a conversation"
        if self.on_cooldown(a.name, b.name, t):
            return False, "cooldown"
        if self.guard(a, b, t):
            return False, "heading to a commitment"
        if not meeting and not self.gate(a, rng):
            return False, "chat probability gate"
        return True, "ok"

    async def decide(self, a: SocialState, b: SocialState, scheduler, t: float,
                     deadline: float | None = None) -> tuple[bool, Any]:
        inputs = TalkInputs(speaker=a.name, other=b.name, speaker_activity=a.activity, other_activity=b.activity,
                            relationship=a.relationship, emotion=a.emotion,
                            withdrawn=is_withdrawn(a.emotion_label, a.valence))
        out, rec = await scheduler.call(DecideToTalk(), inputs, agent=a.name, deadline=deadline, game_time=t)
        return bool(out.talk), rec


# --- LM functions ---------------------------------------------------------------------------
class TalkInputs(BaseModel):
    speaker: str
    other: str
    speaker_activity: str
    other_activity: str
    relationship: str
    emotion: str
    withdrawn: bool = False


class TalkOut(BaseModel):
    talk: bool


class DecideToTalk(LMFunction):
    """Should the speaker start a conversation now? (III-A9)"""

    name: ClassVar[str] = "decide_to_talk"
    Output: ClassVar[type[BaseModel]] = TalkOut
    priority: ClassVar[int] = 3
    temperature: ClassVar[float] = 0.0
    max_tokens: ClassVar[int] = 40

    def messages(self, inputs: TalkInputs, reasoning: bool) -> list[dict]:
        system = ("You decide whether a character starts a conversation with someone nearby. Consider what "
                  "both are doing, how they get along and the character's mood. Answer talk true or false.")
        lines = [f"{inputs.speaker} is {inputs.speaker_activity or 'idle'}.",
                 f"{inputs.other} is {inputs.other_activity or 'idle'}.",
                 f"Relationship: {inputs.relationship or 'they do not know each other'}",
                 f"Mood: {inputs.emotion}" + (" (withdrawn, not in the mood for company)" if inputs.withdrawn else ""),
                 f"Does {inputs.speaker} talk to {inputs.other} now?"]
        return chat(system, "\n".join(lines))

    def fallback(self, inputs: TalkInputs) -> TalkOut:
        return TalkOut(talk=not inputs.withdrawn)


class LineInputs(BaseModel):
    speaker: str
    listener: str
    persona_text: str
    emotion: str
    relationship: str
    memories: list[str] = Field(default_factory=list)
    history: list[str] = Field(default_factory=list)  # "Name: text"
    exemplars: list[str] = Field(default_factory=list)
    urgent_thoughts: list[str] = Field(default_factory=list)
    reserved: bool = False
    place: str = ""
    purpose: str = ""  # the arrangement the two met for ("Tomas apologises to Jonah over coffee")
    last_turn: bool = False


class LineOut(BaseModel):
    # min_length makes the grammar refuse a bare name, which the 135M model likes to answer
    line: str = Field(..., min_length=12, max_length=160)


def _cut_words(text: str, limit: int = MAX_LINE_WORDS) -> str:
    words = text.split()
    if len(words) <= limit:
        return text
    cut = " ".join(words[:limit])
    stop = max(cut.rfind("."), cut.rfind("!"), cut.rfind("?"))
    return cut[: stop + 1] if stop > len(cut) // 2 else cut


class ConversationLine(LMFunction):
    """One spoken line (III-A9); checked against empty, repeated and parroted lines."""

    name: ClassVar[str] = "conversation_line"
    Output: ClassVar[type[BaseModel]] = LineOut
    priority: ClassVar[int] = 1
    temperature: ClassVar[float] = 0.7
    max_tokens: ClassVar[int] = 80

    def messages(self, inputs: LineInputs, reasoning: bool) -> list[dict]:
        system = ("You write the next spoken line of a conversation in a small town. Reply with one short line "
                  f"(under {MAX_LINE_WORDS} words) that the speaker says, in character, answering what was just "
                  "said. Do not repeat earlier lines. Tone lines show how the speaker sounds: match the tone, "
                  "never copy their words.")
        i = inputs
        lines = [f"Speaker: {i.speaker}. {i.persona_text}"]
        lines += [f"{i.speaker} remembers: " + "; ".join(i.memories)] if i.memories else []
        lines += [f"Mood: {i.emotion}", f"About {i.listener}: {i.relationship or 'not well known'}"]
        if i.place:
            lines.append(f"Place: {i.place}")
        if i.purpose:
            lines.append(f"They met because: {i.purpose}.")
        lines.append("Conversation so far:\n" + ("\n".join(i.history) if i.history else "(nothing yet)"))
        lines += [f"Tone to match (do not copy): {' / '.join(i.exemplars)}"] if i.exemplars else []
        lines += [f"On {i.speaker}'s mind: " + "; ".join(i.urgent_thoughts)] if i.urgent_thoughts else []
        if i.reserved:
            lines.append(f"{i.speaker} is reserved: keep it brief and propose no plans.")
        if not i.history:
            ask = f"{i.speaker} meets {i.listener}. Write what {i.speaker} says to start the chat" + (
                ", about why they met." if i.purpose else ".")
        else:
            last = i.history[-1].split(":", 1)[-1].strip()
            ask = f'{i.listener} just said: "{last}" Write {i.speaker}\'s reply' + (
                ", wrapping up the chat." if i.last_turn else ".")
        lines.append(ask)
        return chat(system, "\n".join(lines))

    def fallback(self, inputs: LineInputs) -> LineOut:
        said = {_norm(h.split(":", 1)[-1]) for h in inputs.history}
        options = ([f"I should get going. See you, {inputs.listener}."] if inputs.last_turn else []) + [
            f"Hi {inputs.listener}, how are you doing?" if not inputs.history else "I see. Good to talk with you.",
            "Mm, that makes sense.", "Right. Anyway, nice to catch up.", f"Take care, {inputs.listener}."]
        return LineOut(line=next((o for o in options if _norm(o) not in said), options[-1]))

    def check(self, inputs: LineInputs, out: LineOut) -> LineOut:
        text = clean_line(out.line, inputs.speaker, inputs.listener)
        if len(_norm(text).split()) < 2:
            raise ValueError("empty line")
        if _SCAFFOLD.search(text):
            raise ValueError("echoes the prompt instead of speaking")
        norm = _norm(text)
        if self_repeating(norm):
            raise ValueError("the line keeps repeating itself")
        if any(repeats(norm, _norm(h.split(":", 1)[-1])) for h in inputs.history):
            raise ValueError("repeats an earlier line")
        if sum(bool(_norm(m)) and _norm(m) in norm for m in inputs.memories) >= 2:
            raise ValueError("recites the prompt's memories")
        for ex in inputs.exemplars:
            ex_n = _norm(ex)
            if ex_n and (ex_n in norm or norm in ex_n):
                raise ValueError("parrots a voice exemplar")
        return out.model_copy(update={"line": _cut_words(text)})


class SummaryInputs(BaseModel):
    owner: str
    partner: str
    lines: list[str]
    place: str = ""


class SummaryOut(BaseModel):
    summary: str = Field(..., min_length=20, max_length=200)


class ConversationSummary(LMFunction):
    """One summary memory per participant (III-A9, VI-e: one memory per conversation)."""

    name: ClassVar[str] = "conversation_summary"
    Output: ClassVar[type[BaseModel]] = SummaryOut
    priority: ClassVar[int] = 5
    temperature: ClassVar[float] = 0.0
    max_tokens: ClassVar[int] = 70

    def messages(self, inputs: SummaryInputs, reasoning: bool) -> list[dict]:
        system = ("You summarise a conversation in one sentence from one participant's point of view: who they "
                  "talked with, what about, and any plan made with its time and place.")
        user = (f"Conversation between {inputs.owner} and {inputs.partner}"
                + (f" at {inputs.place}" if inputs.place else "") + ":\n" + "\n".join(inputs.lines)
                + f"\nSummary for {inputs.owner}:")
        return chat(system, user)

    def fallback(self, inputs: SummaryInputs) -> SummaryOut:
        said = next((l.split(":", 1)[-1].strip() for l in inputs.lines if l.startswith(inputs.partner)), "")
        text = f"{inputs.owner} talked with {inputs.partner}" + (f" at {inputs.place}" if inputs.place else "")
        text += f"; {inputs.partner} said: \"{_cut_words(said, 20)}\"" if said else " for a while."
        return SummaryOut(summary=text[:200].ljust(20, "."))

    def check(self, inputs: SummaryInputs, out: SummaryOut) -> SummaryOut:
        text = " ".join(out.summary.split())
        if len(text.split()) < 4:
            raise ValueError("summary too short")
        if any(_norm(text) == _norm(l.split(":", 1)[-1]) for l in inputs.lines):
            raise ValueError("summary only repeats a line")
        return out.model_copy(update={"summary": text})


# --- running a conversation -------------------------------------------------------------------
class SpeakerContext(BaseModel):
    """One participant as the line prompts see them (built by the integrator)."""

    model_config = ConfigDict(arbitrary_types_allowed=True)
    name: str
    persona_text: str  # personality text with the temperament sentence (III-A4)
    emotion: str = "calm"
    relationship: str = ""  # summary of how they see the other participant
    exemplars: list[str] = Field(default_factory=list)  # voice lines of the two strongest traits
    urgent_thoughts: list[str] = Field(default_factory=list)
    reserved: bool = False  # introverted or reserved: brief, no plans (III-A4 mechanism 3)
    memory: Any = None  # AgentMemory: mood-congruent retrieval per line (III-A2)
    memories: list[str] = Field(default_factory=list)  # used when `memory` is None
    place: str = ""
    purpose: str = ""  # the arrangement this meeting is for ("" = a chance chat)


class SpokenLine(BaseModel):
    speaker: str
    text: str
    t: float
    call_id: int | None = None
    fallback: bool = False


class Transcript(BaseModel):
    participants: list[str]
    place: str = ""
    start_t: float
    end_t: float
    lines: list[SpokenLine] = Field(default_factory=list)

    def as_text(self) -> list[str]:
        return [f"{l.speaker}: {l.text}" for l in self.lines]


def _memory_text(m: Any) -> str:
    rec = getattr(m, "record", m)
    return str(getattr(rec, "description", rec))


async def _retrieve(ctx: SpeakerContext, query: str, t: float) -> list[str]:
    if ctx.memory is None:
        return ctx.memories[:MEMORIES_PER_LINE]
    try:
        found = await ctx.memory.retrieve(query, t=t, k=MEMORIES_PER_LINE)
    except Exception:  # noqa: BLE001 — a failed lookup costs context, never the conversation
        return ctx.memories[:MEMORIES_PER_LINE]
    return [_memory_text(m) for m in found]


async def run_conversation(a_ctx: SpeakerContext, b_ctx: SpeakerContext, scheduler, t: float, *,
                           max_turns_each: int = MAX_TURNS_EACH, on_line: Callable[[SpokenLine], Any] | None = None,
                           now: Callable[[], float] | None = None, deadline_s: float | None = None,
                           records: list | None = None) -> Transcript:
    """Alternate lines, `a` first, up to `max_turns_each` each; stops early after a farewell."""
    tr = Transcript(participants=[a_ctx.name, b_ctx.name], place=a_ctx.place or b_ctx.place, start_t=t, end_t=t)
    order = [a_ctx, b_ctx]
    total = 2 * max_turns_each
    for k in range(total):
        sp, ls = order[k % 2], order[(k + 1) % 2]
        t_line = now() if now else t + k * LINE_GAME_S
        query = tr.lines[-1].text if tr.lines else f"{ls.name} {ls.relationship}"
        inputs = LineInputs(speaker=sp.name, listener=ls.name, persona_text=sp.persona_text, emotion=sp.emotion,
                            relationship=sp.relationship, memories=await _retrieve(sp, query, t_line),
                            history=tr.as_text(), exemplars=sp.exemplars, urgent_thoughts=sp.urgent_thoughts,
                            reserved=sp.reserved, place=tr.place, purpose=sp.purpose, last_turn=k >= total - 2)
        deadline = scheduler.deadline_in(deadline_s) if deadline_s is not None and hasattr(scheduler, "deadline_in") else None
        out, rec = await scheduler.call(ConversationLine(), inputs, agent=sp.name, deadline=deadline, game_time=t_line)
        if records is not None:
            records.append(rec)
        line = SpokenLine(speaker=sp.name, text=out.line, t=t_line, call_id=rec.id, fallback=rec.fallback_used)
        tr.lines.append(line)
        tr.end_t = t_line
        if on_line is not None:
            on_line(line)
        if k >= 1 and _FAREWELL.search(line.text) and k % 2 == 1:
            break
    return tr


class ConversationEffects(BaseModel):
    """What to apply after a conversation; the integrator writes memories, appraises, releases."""

    conversation_id: str | None = None
    participants: list[str]
    summaries: dict[str, str]  # participant -> summary memory text
    lines: list[str]  # "Name: text" for relationship appraisal and emotion contagion
    commitments: dict[str, Commitment] = Field(default_factory=dict)  # participant -> their view of it
    cooldown_pair: tuple[str, str]
    end_t: float


def names_a_time(lines: list[str]) -> bool:
    """Cheap pre-check: a conversation that names no time cannot have made an arrangement."""
    return any(parse_time_of_day(l.split(":", 1)[-1], allow_vague=True) is not None for l in lines)


async def conversation_effects(tr: Transcript, scheduler, *, known_places: list[str], known_agents: list[str] = (),
                               start_date: date | None = None, clock_label: str = "",
                               conversation_id: str | None = None, records: list | None = None) -> ConversationEffects:
    """Summaries (one model call each), extracted commitments (one call, only if a time was named)."""
    a, b = tr.participants
    lines = tr.as_text()
    summaries: dict[str, str] = {}
    for owner, partner in ((a, b), (b, a)):
        out, rec = await scheduler.call(ConversationSummary(), SummaryInputs(owner=owner, partner=partner, lines=lines,
                                                                              place=tr.place),
                                        agent=owner, game_time=tr.end_t)
        summaries[owner] = out.summary
        if records is not None:
            records.append(rec)
    commitments: dict[str, Commitment] = {}
    if names_a_time(lines):
        inputs = ExtractionInputs(speakers=[a, b], lines=lines, now_t=tr.end_t, start_date=start_date,
                                  known_places=list(known_places), known_agents=list(known_agents),
                                  clock_label=clock_label)
        out, rec = await scheduler.call(CommitmentExtraction(), inputs, agent=a, game_time=tr.end_t)
        if records is not None:
            records.append(rec)
        commitments = commitments_from_extraction(inputs, out)
    return ConversationEffects(conversation_id=conversation_id, participants=[a, b], summaries=summaries,
                               lines=lines, commitments=commitments, cooldown_pair=(a, b), end_t=tr.end_t)
