"""The conversation itself and what follows (paper III-A9, VI-g).

Up to three lines per participant; each line prompt carries persona with temperament
sentence, mood-congruent memories, emotion, relationship, the conversation so far, THEN
voice exemplars as tone to match, then urgent thoughts; each line is checked against empty,
repeated, parroted and scaffold-echoing output. Afterwards `conversation_effects` returns
one summary per participant, the lines for relationship appraisal and contagion, and the
commitments. Who talks and the booking that holds both participants until they have
written the conversation to memory (VI-g) are in `garp.mind.conversation`.
"""

from __future__ import annotations

import re
from datetime import date
from typing import Any, Callable, ClassVar

from pydantic import BaseModel, ConfigDict, Field

from garp.engine.lmfunction import Candidate, LMFunction, chat
from garp.mind.commitments import (
    Commitment, CommitmentExtraction, ExtractionInputs, commitments_from_extraction, parse_time_of_day,
)
from garp.mind.day_talk import DayTalk
from garp.mind.line_candidates import FAREWELL, fallback_lines, line_options, repeats
from garp.mind.news import ACTS, NewsItem
from garp.mind.phrasebook import Phrasebook
from garp.textclean import plain as _plain

# --- tunables (paper III-A9) -----------------------------------------------------------------
MAX_TURNS_EACH = 3  # lines per participant (III-A9: 6 lines in all)
MAX_LINE_WORDS = 30  # a spoken line is cut to this many words
LINE_GAME_S = 20.0  # game seconds stamped between lines when no clock is given
MEMORIES_PER_LINE = 3  # retrieved memories in each line prompt

# Prompt wording a small model echoes instead of speaking.
_SCAFFOLD = re.compile(r"last line|next line|tone to match|conversation so far|write .{0,20}reply|"
                       r"just said:|on \w+'s mind:|\bremembers:|"
                       r"^\w+'s (?:next )?(?:reply|answer|response|line)\W*$", re.I)
# A scaffold label the model sometimes writes before the line itself: "Lena's next line to Dara:",
# "Lena's reply:", "Lena (to Dara):" -> cleaned off; what follows is the line.
_LABEL = re.compile(r"^\s*[\w' ]{0,30}?(?:'s)?\s*(?:next line|line|reply|answer|response)?(?:\s*(?:to|for)\s+\w+)?"
                    r"\s*(?:\([^)]{0,30}\))?\s*:\s*", re.I)


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


def self_repeating(norm: str, n: int = 3, times: int = 3) -> bool:
    """A line in which one n-word phrase comes back `times` times or more (a looping model)."""
    words = norm.split()
    grams = [" ".join(words[i:i + n]) for i in range(len(words) - n + 1)]
    return any(grams.count(g) >= times for g in set(grams))


# --- LM functions ---------------------------------------------------------------------------
class LineInputs(BaseModel):
    speaker: str
    listener: str
    persona_text: str
    emotion: str
    relationship: str
    memories: list[str] = Field(default_factory=list)
    rules: list[str] = Field(default_factory=list)  # those of `memories` that are authored rules: heeded, not said
    history: list[str] = Field(default_factory=list)  # "Name: text"
    exemplars: list[str] = Field(default_factory=list)
    urgent_thoughts: list[str] = Field(default_factory=list)
    reserved: bool = False
    place: str = ""
    purpose: str = ""  # the arrangement the two met for ("Tomas apologises to Jonah over coffee")
    last_turn: bool = False
    familiarity: float = 0.5  # how well the speaker knows the listener (greetings in rank mode)
    sentiment: float = 0.0  # how the speaker feels towards the listener (what warm words it says to them)
    news: list[NewsItem] = Field(default_factory=list)  # events the speaker may tell the listener about
    said_before: list[str] = Field(default_factory=list)  # lines said to the listener in earlier talks
    said_lately: list[str] = Field(default_factory=list)  # lines said to anyone lately (stock replies not again)
    spent: list[str] = Field(default_factory=list)  # lines (plain) the town has said enough today (phrasebook)
    offer: NewsItem | None = None  # the event the listener's last line invited the speaker to
    t: float = 0.0  # game time of the line ("tomorrow at 18:00")
    day: DayTalk = Field(default_factory=DayTalk)  # what the speaker can tell of its day (garp.mind.day_talk)


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
    value: ClassVar[str] = "line"
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
        said = {_plain(h.split(":", 1)[-1]) for h in inputs.history}
        options = ([f"I should get going. See you, {inputs.listener}."] if inputs.last_turn else []) + \
            fallback_lines(inputs.listener, opening=not inputs.history)
        return LineOut(line=next((o for o in options if _plain(o) not in said), options[-1]))

    def check(self, inputs: LineInputs, out: LineOut) -> LineOut:
        text = clean_line(out.line, inputs.speaker, inputs.listener)
        if len(_plain(text).split()) < 2:
            raise ValueError("empty line")
        if _SCAFFOLD.search(text):
            raise ValueError("echoes the prompt instead of speaking")
        norm = _plain(text)
        if self_repeating(norm):
            raise ValueError("the line keeps repeating itself")
        if any(repeats(norm, _plain(h.split(":", 1)[-1])) for h in inputs.history):
            raise ValueError("repeats an earlier line")
        if sum(bool(_plain(m)) and _plain(m) in norm for m in inputs.memories) >= 2:
            raise ValueError("recites the prompt's memories")
        for ex in inputs.exemplars:
            ex_n = _plain(ex)
            if ex_n and (ex_n in norm or norm in ex_n):
                raise ValueError("parrots a voice exemplar")
        return out.model_copy(update={"line": _cut_words(text)})

    # -- rank mode: lines built in code (garp.mind.line_candidates), the model picks the one that fits
    def candidates(self, inputs: LineInputs) -> list[Candidate]:
        return [Candidate(LineOut(line=o.text), o.text, o.utility, o.source) for o in line_options(inputs)]

    def rank_messages(self, inputs: LineInputs) -> list[dict]:
        system, user = (m["content"] for m in self.messages(inputs, False))
        return chat(system, user.rsplit("\n", 1)[0] + f"\n{inputs.speaker} says:")

    def prior_messages(self, inputs: LineInputs) -> list[dict]:
        system = self.messages(inputs, False)[0]["content"]
        return chat(system, f"{inputs.speaker} says:")


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
    value: ClassVar[str] = "plan"
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
        if any(_plain(text) == _plain(l.split(":", 1)[-1]) for l in inputs.lines):
            raise ValueError("summary only repeats a line")
        return out.model_copy(update={"summary": text})

    # -- rank mode: what each substantial line says, reported; the model picks what the talk was about
    def candidates(self, inputs: SummaryInputs) -> list[Candidate]:
        o, p = inputs.owner, inputs.partner
        head = f"{o} talked with {p}" + (f" at {inputs.place}" if inputs.place else "")
        out = [Candidate(SummaryOut(summary=f"{head} for a while."), f"{head} for a while.", 0.3, "plain")]
        for line in inputs.lines:
            who, _, said = line.partition(":")
            said = _cut_words(said.strip().strip('"'), 20)
            if len(said.split()) < 4 or FAREWELL.search(said):
                continue  # greetings, farewells and fillers say nothing about the talk
            text = (f'{head}; {p} said: "{said}"' if who == p else f'{head} and told {p}: "{said}"')[:200]
            timed = parse_time_of_day(said, allow_vague=True) is not None  # an arrangement is worth keeping
            out.append(Candidate(SummaryOut(summary=text), text, 0.5 + 0.3 * timed + 0.01 * len(said.split()),
                                 f"line:{who}"))
        return out

    def rank_messages(self, inputs: SummaryInputs) -> list[dict]:
        return self.messages(inputs, False)

    def prior_messages(self, inputs: SummaryInputs) -> list[dict]:
        return chat(self.messages(inputs, False)[0]["content"], f"Summary for {inputs.owner}:")


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
    familiarity: float = 0.5  # how well this participant knows the other
    sentiment: float = 0.0  # how this participant feels towards the other
    news: list[NewsItem] = Field(default_factory=list)  # events this participant may tell the other about
    said_before: list[str] = Field(default_factory=list)  # what it said to the other in earlier talks
    said_lately: list[str] = Field(default_factory=list)  # what it said to anyone lately
    day: DayTalk = Field(default_factory=DayTalk)  # its day so far and next, and what the other is seen doing


class SpokenLine(BaseModel):
    speaker: str
    text: str
    t: float
    call_id: int | None = None
    fallback: bool = False
    act: str = ""  # "invite:<event id>", "relay:...", "accept:...", "decline:..." (garp.mind.news)


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


async def _retrieve(ctx: SpeakerContext, query: str, t: float) -> tuple[list[str], list[str]]:
    """The memories for this line, and which of them are authored rules (a record with a header)."""
    if ctx.memory is None:
        return ctx.memories[:MEMORIES_PER_LINE], []
    try:
        found = await ctx.memory.retrieve(query, t=t, k=MEMORIES_PER_LINE)
    except Exception:  # noqa: BLE001 — a failed lookup costs context, never the conversation
        return ctx.memories[:MEMORIES_PER_LINE], []
    texts = [_memory_text(m) for m in found]
    return texts, [t for t, m in zip(texts, found) if getattr(getattr(m, "record", m), "header", "")]


def call_deadline(scheduler, deadline_s: float | None) -> float | None:
    """A deadline `deadline_s` wall seconds from now (None: no deadline, as in lockstep)."""
    return scheduler.deadline_in(deadline_s) if deadline_s is not None and hasattr(scheduler, "deadline_in") else None


async def run_conversation(a_ctx: SpeakerContext, b_ctx: SpeakerContext, scheduler, t: float, *,
                           max_turns_each: int = MAX_TURNS_EACH, on_line: Callable[[SpokenLine], Any] | None = None,
                           now: Callable[[], float] | None = None, deadline_s: float | None = None,
                           records: list | None = None, phrasebook: Phrasebook | None = None) -> Transcript:
    """Alternate lines, `a` first, up to `max_turns_each` each; stops early after a farewell.
    `phrasebook`: the town's count of lines said today (none said too often; each line noted)."""
    tr = Transcript(participants=[a_ctx.name, b_ctx.name], place=a_ctx.place or b_ctx.place, start_t=t, end_t=t)
    order = [a_ctx, b_ctx]
    total = 2 * max_turns_each
    news = {c.name: list(c.news) for c in order}
    offer: dict[str, NewsItem | None] = {c.name: None for c in order}
    for k in range(total):
        sp, ls = order[k % 2], order[(k + 1) % 2]
        t_line = now() if now else t + k * LINE_GAME_S
        query = tr.lines[-1].text if tr.lines else f"{ls.name} {ls.relationship}"
        memories, rules = await _retrieve(sp, query, t_line)
        inputs = LineInputs(speaker=sp.name, listener=ls.name, persona_text=sp.persona_text, emotion=sp.emotion,
                            relationship=sp.relationship, memories=memories, rules=rules,
                            history=tr.as_text(), exemplars=sp.exemplars, urgent_thoughts=sp.urgent_thoughts,
                            reserved=sp.reserved, place=tr.place, purpose=sp.purpose, last_turn=k >= total - 2,
                            familiarity=sp.familiarity, sentiment=sp.sentiment, news=news[sp.name],
                            offer=offer[sp.name], t=t_line, said_before=sp.said_before, said_lately=sp.said_lately, day=sp.day,
                            spent=sorted(phrasebook.spent(t_line)) if phrasebook else [])
        out, rec = await scheduler.call(ConversationLine(), inputs, agent=sp.name,
                                        deadline=call_deadline(scheduler, deadline_s), game_time=t_line)
        if records is not None:
            records.append(rec)
        act = line_act(rec)
        _tell(act, sp.name, ls.name, news, offer)
        line = SpokenLine(speaker=sp.name, text=out.line, t=t_line, call_id=rec.id, fallback=rec.fallback_used,
                          act=act)
        tr.lines.append(line)
        tr.end_t = t_line
        if phrasebook is not None:
            phrasebook.note(line.text, t_line)
        if on_line is not None:
            on_line(line)
        if k >= 1 and FAREWELL.search(line.text) and k % 2 == 1:
            break
    return tr


def _tell(act: str, speaker: str, listener: str, news: dict[str, list[NewsItem]],
          offer: dict[str, NewsItem | None]) -> None:
    """After a line: an event told is the listener's to answer next and no longer the speaker's news."""
    offer[speaker] = None
    if act.startswith(("invite:", "relay:")):
        item = next(n for n in news[speaker] if n.event_id == act.split(":", 1)[1])
        news[speaker] = [n for n in news[speaker] if n is not item]
        offer[listener] = item


def line_act(rec: Any) -> str:
    """What a ranked line did with an event ("invite:<id>"...), from the candidate's source; "" otherwise."""
    source = str((rec.parsed or {}).get("source", ""))  # a line said is heard, whoever picked it
    return source if source.split(":", 1)[0] in ACTS else ""


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
                               conversation_id: str | None = None, records: list | None = None,
                               deadline_s: float | None = None, extract: bool = True) -> ConversationEffects:
    """Summaries (one model call each), extracted commitments (one call, only if a time was named);
    each call due `deadline_s` wall seconds after it is asked (None: no deadline)."""
    a, b = tr.participants
    lines = tr.as_text()
    summaries: dict[str, str] = {}
    for owner, partner in ((a, b), (b, a)):
        out, rec = await scheduler.call(ConversationSummary(), SummaryInputs(owner=owner, partner=partner, lines=lines,
                                                                              place=tr.place),
                                        agent=owner, deadline=call_deadline(scheduler, deadline_s), game_time=tr.end_t)
        summaries[owner] = out.summary
        if records is not None:
            records.append(rec)
    commitments: dict[str, Commitment] = {}
    if extract and names_a_time(lines):
        inputs = ExtractionInputs(speakers=[a, b], lines=lines, now_t=tr.end_t, start_date=start_date,
                                  known_places=list(known_places), known_agents=list(known_agents),
                                  clock_label=clock_label)
        out, rec = await scheduler.call(CommitmentExtraction(), inputs, agent=a,
                                        deadline=call_deadline(scheduler, deadline_s), game_time=tr.end_t)
        if records is not None:
            records.append(rec)
        commitments = commitments_from_extraction(inputs, out)
    return ConversationEffects(conversation_id=conversation_id, participants=[a, b], summaries=summaries,
                               lines=lines, commitments=commitments, cooldown_pair=(a, b), end_t=tr.end_t)
