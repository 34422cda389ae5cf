"""Interviews: the player asks an agent a question; it answers from its persona and memories.

Rules (seed "Interview Studio"): first person, in the agent's own voice, one or two
sentences, the persona and the retrieved memories are the complete factual record, and
"I don't recall" when the detail is absent. A rule-based classifier tells factual from
reflective questions and picks different instructions. Retrieval for an interview
re-ranks a pool from the agent's memory with relevance weighted highest, and the
exchange is stored as a chat memory so the agent remembers being interviewed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, ClassVar

from pydantic import BaseModel, Field

import numpy as np

from garp.engine.lmfunction import Candidate, LMFunction, chat
from garp.mind.answer_kind import (FAMILY_WORDS, GENERIC_VERBS, KIN_PATTERN, KIN_SAME, MEAL_SAME, SELF_ASKED, STOPWORDS,
                                    TIME_WORDS, asked_type, asks_about_past, kin_role, named_people, proper_names,
                                    states_type, stem, word_list)
from garp.mind.commitments import hhmm
from garp.mind.day_record import GO, MEALS, Done, covers, doing_now, meals_had, progressive, said, told, woke_at
from garp.mind.first_person import first_person, habits_in_first_person, memory_in_first_person, pronoun_in
from garp.mind.line_candidates import CANNED_TURNS
from garp.mind.planning import lower_first, plan_memory_prefix, plan_today
from garp.mind.relationships import feeling_toward
from garp.units import DAY_S
from garp.textclean import clean_line, listed, sentences

# --- tunables (seed: Interview Studio; paper III-A2 for the factor names) ---------------
POOL_K = 24            # memories nearest the question (raw cosine) before the interview re-ranking
USED_K = 5             # memories handed to a generating model ("the model only knows the five you hand it")
CANDIDATE_K = 6        # memories and persona facts offered as answers in rank mode
W_RELEVANCE = 1.0      # interview ranking: raw cosine decides; importance and recency only break near-ties
W_IMPORTANCE = 0.05
W_RECENCY = 0.05
W_LEXICAL = 0.15       # share of the question's content words the source shares
W_WHEN = 0.1           # the memory is from the time the question asks about ("this morning")
OUT_OF_WINDOW = 0.25   # an event from outside the time the question asks about ("last night" vs lunch today)
W_OPEN_RECALL = 0.3    # an event of the asked time answering "What did you do then?" (no topic to match)
W_TALK = 0.15          # a conversation answering a question about talking ("Who did you speak to?")
W_STATE = 0.3          # the character's state now (its feeling, its plan ahead) answering a question about it:
                       # the source exists only when the question asks for it, and no memory says it that way
W_FRAME = 0.2          # a source telling the kind of happening the question asks about (a worry, a hurt, a loss):
                       # the embedder misses "Anything troubling you?" ~ "I worry that the dry weather..."
W_PERSON = 0.15        # a source naming someone the question names ("What did Hugo want?")
W_HISTORY = 0.2        # the life story answering a question about the character's past ("before you ...")
PAST_PENALTY = 0.1     # a persona habit answering a question about a past event
TYPE_PENALTY = 0.75    # a source without the name, time or number the question asks for (0.6 to 0.9 tried on the
                       # tuning part, code's utilities alone: refusals of absent details 0.767 at 0.6, 0.793 from 0.75)
NAME_PENALTY = 1.0     # a source without a name (a title) when the question asks what someone or something is
                       # called: "my friend" does not answer "What's your friend's name?"
PERSON_PENALTY = 0.4   # a source not naming the person the question names ("Who is Yuki?")
TALKS_READ = 200       # the latest memories of talks read for whom the character talked with today
DAY_ITEMS = 12         # the latest things done today offered as sources
SUMMARY_ITEMS = 4      # things done (the longest) a source telling part of the day names
FELT = ("thought", "preference")  # memories that hold, not happen: no answer to "What did you have for breakfast?"
RECORDED = ("memory", "day")  # sources that happened at a time: memories and today's doings
MIN_COSINE = 0.3       # raw similarity below which a memory is not treated as on topic
RECALL_FLOOR = 0.41    # rank mode: the utility of "I don't recall" (an answer's fit must beat it; tuned on
                       # the tuning part of benchmarks/data/interview_eval.json)
MODEL_WEIGHT = 0.05    # rank mode: weight of the model's calibrated log-likelihood (nats/token) against cosine
INTERVIEW_PREDICATE = "was interviewed"  # marks the stored exchange, kept out of later interviews' sources
STATE_LABELS = {"state:feeling": "Feeling now", "state:plan": "Plan for today",  # state sources in the record
                "state:relation": "Relationship", "state:friends": "Friends", "state:doing": "Doing now",
                "state:self": "Who I am", "day": "What I did"}
FRIEND_FAMILIARITY = 0.45  # a relationship this familiar and warm is a friend the character names
FRIEND_SENTIMENT = 0.15
FRIENDS_NAMED = 4
PLAN_ITEMS = 4         # plan blocks an answer about the day ahead names
MAX_ANSWER_CHARS = 280  # output field cap (keeps the grammar small and the answer short)
MAX_QUESTION_CHARS = 300
MIN_ANSWER_WORDS = 3   # shorter replies are echoes or fragments
ECHO_OVERLAP = 0.7     # share of answer words found in the question (or a voice line) that makes it a copy
DEFAULT_EMOTION = "neutral"

FALLBACK_ANSWER = "I'm sorry, I don't recall that."
SCORE_EXPLAINED = ("score = fit (raw cosine, then the question's cues: time, kind of answer, shared words, "
                   "kind of happening, people named) "
                   "+ importance and recency as tie-breaks")
SHOWN_FACTORS = (("fit", "fit"), ("cosine", "cos"), ("penalty", "penalty"), ("lexical", "words"),
                 ("when", "when"), ("frame", "kind"), ("person", "who"), ("poignancy", "poig"), ("recency", "rec"))

REFLECTIVE_WORDS = (
    "why", "feel", "felt", "think", "thought", "learn", "learned", "taught", "teach", "mean to you",
    "believe", "opinion", "lesson", "reflect", "look back", "regret", "proud", "hope", "value",
    "important to you", "matter", "would you", "should", "how has", "how did it change", "what kind of person",
)
FACTUAL_INSTRUCTION = ("This is a factual question: answer using only what the memories explicitly state. "
                       "Use the most directly relevant memory as the answer and add no new detail.")
REFLECTIVE_INSTRUCTION = ("This is a reflective question: explain what your documented experiences taught you "
                          "or how you feel about them. Do not invent events.")

RULES = (
    "You are a character in a small town, being interviewed. Rules:\n"
    "- Speak in first person, with your own speech pattern.\n"
    "- Answer the latest question directly in one or two sentences.\n"
    "- Treat your self-description and your memories as the complete factual record.\n"
    "- If a requested detail is not in them, say you do not recall it. Never invent names, dates or events.\n"
    'Return only a JSON object: {"utterance": "your reply"}'
)


RANK_RULES = ("You are a character in a small town, being interviewed. You answer the interviewer's question "
              "truthfully, in the first person, in one sentence, and say you do not recall what you do not know.")
PRIOR_QUESTION = "Tell me something."  # the prior's question: how likely an answer is without the real one


def classify_question(question: str) -> str:
    """'reflective' when the question asks for meaning, feeling or opinion; otherwise 'factual'."""
    q = f" {question.lower()} "
    return "reflective" if any(re.search(rf"\b{re.escape(w)}\b", q) for w in REFLECTIVE_WORDS) else "factual"


class Utterance(BaseModel):
    """The interviewee's reply."""

    utterance: str = Field(min_length=1, max_length=MAX_ANSWER_CHARS, description="the answer, one or two sentences")


@dataclass
class InterviewInputs:
    name: str
    self_description: str
    speech: list[str]
    memories: list[str]
    question: str
    kind: str  # factual | reflective
    sources: list[tuple[str, str, float]] = field(default_factory=list)  # (first-person answer, source, utility)
    personality: str = ""  # the short personality text the ranking prompt carries


def _stems(text: str) -> set[str]:
    """Content-word stems for a cheap groundedness test."""
    return {stem(w) for w in word_list(text) if len(w) >= 4 and w not in STOPWORDS}


def _overlap(answer: list[str], other: list[str]) -> float:
    """Share of the answer's words that also occur in `other`."""
    if not answer or not other:
        return 0.0
    ref = set(other)
    return sum(1 for w in answer if w in ref) / len(answer)


def first_sentences(text: str, n: int = 2) -> str:
    return " ".join(sentences(text)[:n]).strip()


def _unwrapped(text: str) -> str:
    """A reply wrapped in one pair of quotes, without them; a quotation inside a reply is kept."""
    return text[1:-1].strip() if len(text) > 1 and text[0] == text[-1] == '"' and text.count('"') == 2 else text


def as_answer(text: str) -> str:
    """A source as said in answer: its first two sentences, ending as a sentence does (a
    quotation cut short is closed)."""
    said = first_sentences(text)[:MAX_ANSWER_CHARS]
    if not said or said.endswith((".", "!", "?", '"')):
        return said
    said = said[:MAX_ANSWER_CHARS - 2].rstrip(" ,;:")
    return said + ('."' if said.count('"') % 2 else ".")


class InterviewAnswer(LMFunction[InterviewInputs, Utterance]):
    name: ClassVar[str] = "interview_answer"
    value: ClassVar[str] = "interview"
    Output: ClassVar[type[BaseModel]] = Utterance
    priority: ClassVar[int] = 1       # a waiting player comes first
    temperature: ClassVar[float] = 0.0
    max_tokens: ClassVar[int] = 96

    def messages(self, inputs: InterviewInputs, reasoning: bool) -> list[dict]:
        memories = "\n".join(f"- {m}" for m in inputs.memories) or "- (no memory matches this question)"
        speech = " / ".join(f'"{s}"' for s in inputs.speech) or "plain, everyday speech"
        kind = FACTUAL_INSTRUCTION if inputs.kind == "factual" else REFLECTIVE_INSTRUCTION
        user = (f"You are {inputs.name}.\nSelf-description:\n{inputs.self_description}\n"
                f"Speech pattern (tone to match, never words to copy): {speech}\n"
                f"Relevant memories:\n{memories}\n{kind}\n"
                f"Interviewer: {inputs.question}")
        return chat(RULES, user)

    def check(self, inputs: InterviewInputs, out: Utterance) -> Utterance:
        """Rules in code: two sentences at most, in character, not an echo or a copied voice line,
        and a factual answer must be a source as said or rest on the record (share a content word with the
        memories, the self-description or the sources), so a ranked source is never refused as ungrounded."""
        text = first_sentences(_unwrapped(out.utterance.strip()))
        words = word_list(text)
        if len(words) < MIN_ANSWER_WORDS:
            raise ValueError("answer too short")
        low = text.lower()
        if "as an ai" in low or "language model" in low:
            raise ValueError("answer breaks character")
        if _overlap(words, word_list(inputs.question)) >= ECHO_OVERLAP:
            raise ValueError("answer echoes the question")
        if any(_overlap(words, word_list(v)) >= ECHO_OVERLAP for v in inputs.speech):
            raise ValueError("answer copies a voice exemplar")
        if text == FALLBACK_ANSWER:
            return Utterance(utterance=text)
        offered = [said for said, _, _ in inputs.sources]
        if inputs.kind == "factual" and text not in map(as_answer, offered):
            record = _stems(" ".join(inputs.memories + offered) + " " + inputs.self_description)
            if not (_stems(text) - _stems(inputs.question)) & record:  # a persona habit is on the record too
                raise ValueError("factual answer not grounded in the memories")
        return Utterance(utterance=text)

    def fallback(self, inputs: InterviewInputs) -> Utterance:
        return Utterance(utterance=FALLBACK_ANSWER)

    # -- rank mode: the answers are the sources in the first person, or "I don't recall"
    def candidates(self, inputs: InterviewInputs) -> list[Candidate]:
        said = [(as_answer(text), source, fit) for text, source, fit in inputs.sources]
        found = [Candidate(Utterance(utterance=text), text, fit, source) for text, source, fit in said]
        return found + [Candidate(Utterance(utterance=FALLBACK_ANSWER), FALLBACK_ANSWER, RECALL_FLOOR, "none")]

    def rank_messages(self, inputs: InterviewInputs) -> list[dict]:
        return chat(RANK_RULES, f"I am {inputs.name}. {inputs.personality}\nInterviewer: {inputs.question}")

    def prior_messages(self, inputs: InterviewInputs) -> list[dict]:
        return chat(RANK_RULES, f"I am {inputs.name}. {inputs.personality}\nInterviewer: {PRIOR_QUESTION}")

    def combine(self, pmi: list[float], utilities: list[float]) -> list[float]:
        return [u + MODEL_WEIGHT * p for u, p in zip(utilities, pmi)]


@dataclass
class UsedMemory:
    description: str
    score: float
    factors: dict[str, float]
    source: str = "memory"  # "memory" or "persona:<field>" (a fact of the self-description)
    created: float | None = None  # game time of a memory (questions about "this morning")
    kind: str = ""  # the memory's type: events and chats happen at a time, thoughts and preferences hold
    spoken: str = ""  # the source as the character says it (first person), set by interview_sources

    def as_dict(self) -> dict[str, Any]:
        return {"description": self.description, "score": round(self.score, 3), "source": self.source,
                "factors": {k: round(v, 3) for k, v in self.factors.items()}}


CUE_FACTORS = frozenset(("penalty", "lexical", "when", "frame", "person"))  # shown only where they applied


def score_parts(factors: dict[str, float]) -> str:
    """How a source's score was made, as the terminal and the Interview tab show it: the fit and the
    cosine always, the question's cues where they applied, the tie-breaks of a memory."""
    return "  ".join(f"{label} {factors[k]:.2f}" for k, label in SHOWN_FACTORS
                     if k in factors and (factors[k] or k not in CUE_FACTORS))


@dataclass
class InterviewResult:
    question: str
    kind: str
    answer: str
    memories: list[UsedMemory] = field(default_factory=list)
    call: Any = None  # CallRecord
    notice: str = ""  # what cleaning the question changed the asker should know (it was shortened)


def rerank(scored: list[Any], k: int = USED_K) -> list[UsedMemory]:
    """Interview ranking over a pool of memories by raw cosine similarity to the question (Eq. 1's
    min-max similarity gives 1.00 to its best memory even when nothing is on topic); importance
    and recency only break near-ties."""
    used = []
    for s in scored:
        f = dict(getattr(s, "factors", {}) or {})
        cosine = f.get("cosine", f.get("similarity", 0.0))
        score = W_RELEVANCE * cosine + W_IMPORTANCE * f.get("poignancy", 0.0) + W_RECENCY * f.get("recency", 0.0)
        rec = getattr(s, "record", s)
        used.append(UsedMemory(str(getattr(rec, "description", "")), score,
                               {"cosine": cosine, "cosine_stored": cosine, "similarity": f.get("similarity", 0.0),
                                "poignancy": f.get("poignancy", 0.0), "recency": f.get("recency", 0.0),
                                "emotion": f.get("emotion", 0.0)}, created=getattr(rec, "created", None),
                               kind=str(getattr(rec, "type", ""))))
    used.sort(key=lambda u: -u.score)
    return used[:k]


def persona_facts(persona: Any, household: tuple[str, ...] = ()) -> list[tuple[str, str]]:
    """(field, first-person sentence) for each fact of the self-description an answer may state;
    who else lives in the home comes from the cast (`household`) and from relationship notes."""
    facts: list[tuple[str, str]] = []
    if persona.occupation:  # one fact for the work and the workplace: "what do you do" and "where do you work"
        job, place = persona.occupation, persona.workplace or ""
        working = not _NOT_WORK.search(job)  # a pupil's or a retired character's "workplace" is where it helps out
        where = f" at {place}" if working and place and place.lower() not in job.lower() else ""
        facts.append(("occupation", f"{'I work as' if working else 'I am'} {_article(job)}{where}."))
    household = list(dict.fromkeys([*household, *(r.name for r in persona.relationships
                                                   if _HOUSEHOLD.search(r.note or ""))]))
    facts.append(("home", f"I live at {persona.home}" + (f" with {listed(household)}." if household else ".")))
    facts.append(("age", f"I am {persona.age} years old."))
    own = own_pronoun(persona) or True  # "he sold her": only the character's own pronouns are "I"
    if persona.routine:
        facts.append(("routine", "My usual day: " + lower_first(habits_in_first_person(persona.routine, persona.name,
                                                                                       own))))
    for fld in ("background", "lifestyle"):
        for sentence in sentences(getattr(persona, fld) or ""):
            if sentence.strip():
                facts.append((fld, first_person(sentence.strip(), persona.name, pronouns=own, series=True)))
    return facts


_NOT_WORK = re.compile(r"^(retired|former)\b|\b(pupil|student|schoolgirl|schoolboy)\b", re.I)  # "I am a retired ..."


def told_source(text: str, source: str, t: float, kind: str = "state") -> UsedMemory:
    """A source code words itself (a state now, a thing done today), said as it is, at game time `t`."""
    return UsedMemory(text, W_IMPORTANCE, {}, source, created=t, kind=kind, spoken=text)


def feeling_source(mind: Any, question: str, t: float) -> list[UsedMemory]:
    """How the character feels now, as a source, when the question asks how it feels now
    (the emotion state is not a memory, so retrieval cannot find it)."""
    state = getattr(getattr(mind, "emotion", None), "current", None)
    if state is None or not _FEELING_NOW.search(question) or _FELT_THEN.search(question):
        return []
    said = first_person(state.description, mind.persona.name, pronouns=True) if state.description else ""
    text = said if state.label in said.lower() else f"I feel {state.label}. {said}".strip()
    return [told_source(text, "state:feeling", t)]


def doing_source(doing: Any, question: str, t: float, name: str = "", home: str = "",
                 plan: list[tuple[str, float]] | None = None) -> list[UsedMemory]:
    """Where the character is or is going now ("Where are you going?"), or what it is doing ("What are you
    up to?", with what its plan has next), from its body's activity: a copy the main thread hands the
    interview (`Activity`), the saved one in the terminal."""
    if doing is None or not doing.place or _AHEAD_TIME.search(question):
        return []
    use, where = doing_now(doing), "home" if doing.place == home else doing.place
    now = progressive(use, name, home) if use is not None else f"on my way to {where}" if doing.kind == "walk" else ""
    if now and asks_doing(question, now):
        upcoming = [f"{what} at {hhmm(start)}" for what, start in plan or () if start > t % DAY_S][:1]
        return [told_source(f"Right now I'm {now}." + (f" Next: {upcoming[0]}." if upcoming else ""), "state:doing", t)]
    if not _WHERE_NOW.search(question):
        return []
    text = f"I'm on my way to {where}." if doing.kind == "walk" else \
        f"I'm at {where}" + (f", {progressive(use, name, home, with_place=False)}." if use is not None else ".")
    return [told_source(text, "state:doing", t)]


def asks_doing(question: str, now: str) -> bool:
    """Whether the question asks what the character is doing now: "What are you up to?", or "What are you
    cooking?" of one cooking now (`now`: "cooking at the stove"; asked of one doing something else, the
    question is about a habit or a thing, and the record answers it)."""
    if _DOING_ASKED.search(question):
        return True
    asked = _ACTIVITY_ASKED.search(question)
    return asked is not None and stem(asked.group(1).lower()) == stem(now.split()[0].lower())


def day_sources(done: tuple[Done, ...], question: str, t: float, name: str, home: str,
                yesterday: tuple[Done, ...] = ()) -> list[UsedMemory]:
    """What the character did today (`Done`, from the main thread's log), or yesterday, when the question asks
    about that past: one source per thing done ("What did you have for breakfast?"), or for "What did you do
    this morning?" one telling the longest things done then."""
    window, midnight = time_window(question, t), t - t % DAY_S
    before = _before_today(window, t)  # "yesterday", "last night"
    today = window[1] > midnight if window is not None else \
        asked_type(question) not in ("time", "clock") and not asks_about_history(question)  # not "When did you move here?"
    record = (yesterday + done) if before else done
    if not record or not (today or before) or not _DONE_ASKED.search(question) or _TALK.search(question):
        return []  # talk: the chats answer
    then = [d for d in record if window is not None and window[0] <= d.start <= window[1]]
    inside = [d for d in then if d.verb != GO]
    if inside and not topic_words(question):
        longest = sorted(inside, key=lambda d: d.start - (d.end or t))[:SUMMARY_ITEMS]
        longest.sort(key=lambda d: d.start)  # told in the order they were done
        when = re.search(r"\b(this (morning|afternoon|evening)|today|yesterday|last night)\b", question, re.I)
        text = told(longest, name, home, (when.group(1) if when else "today").capitalize())
        return [told_source(text, "day", longest[-1].start, kind="event")]
    items = then if before else record
    return [told_source(text, "day", d.start, kind="event")
            for d in items[-DAY_ITEMS:] for text in [said(d, name, home, "Yesterday" if d.start < midnight else "")]]


def _before_today(window: tuple[float, float] | None, t: float) -> bool:
    """Whether the time a question asks about (`time_window`) begins before today ("yesterday", "last night")."""
    return window is not None and window[0] < t - t % DAY_S


def not_done_source(done: tuple[Done, ...], question: str, t: float,
                    plan: list[tuple[str, float]], began: float | None = None) -> list[UsedMemory]:
    """"No" to "Have you had lunch yet?" when today's doings have no such meal (and tell the day from
    before it), with when the plan has it; a meal that was eaten is answered by `day_sources`."""
    m = _MEAL_CHECK.search(question)
    if m is None or _before_today(time_window(question, t), t):  # "last night": not today's record
        return []
    meal = MEAL_SAME.get((m.group("meal") or "").lower(), (m.group("meal") or "").lower())
    had, hour = meals_had(done), (t % DAY_S) / 3600.0
    lo, hi = next(((lo, hi) for lo, hi, name in MEALS if name == meal), (0.0, 24.0))
    if (meal in had if meal else had) or not covers(done, t - t % DAY_S + lo * 3600.0, began):
        return []
    noun = meal or "anything to eat"
    text = ("No, " if _YES_NO.match(question) else "") + \
        (f"I didn't have {noun} today." if hour >= hi else f"I haven't had {noun} yet.")
    text = text[:1].upper() + text[1:]
    later = [start for what, start in plan if meal and meal in what.lower() and start > t % DAY_S][:1]
    text += f" I'm having {meal} at {hhmm(later[0])}." if later else ""
    return [told_source(text, "day", t)]


def talks_source(mind: Any, done: tuple[Done, ...], question: str, t: float,
                 began: float | None = None) -> list[UsedMemory]:
    """Whom the character talked with today, to "Who did you talk to today?": "I talked with Erica and Arjun."
    when two or more (one talk's own memory says more), "I haven't talked with anyone today." when none and the
    day's record tells it from the night's sleep on (every talk leaves a memory of it)."""
    window, midnight = time_window(question, t), t - t % DAY_S
    if not _WHO_TALKED.search(question) or window is None or _before_today(window, t):
        return []
    lo, hi = max(window[0], midnight), window[1]
    talks = [r for r in reversed(mind.memory.recent(TALKS_READ, types=["chat"]))
             if lo <= r.created <= hi and r.predicate != INTERVIEW_PREDICATE]
    partners = list(dict.fromkeys(p for p in (talk_partner(r.description, mind) for r in talks) if p))
    if len(partners) >= 2:
        return [told_source(f"I talked with {listed(partners)}.", "day", t)]
    if not talks and covers(done, midnight, began):
        part = _PART_OF_DAY.search(question)  # "this morning" when asked so: there may be talks later in the day
        return [told_source(f"I haven't talked with anyone {part.group(0).lower() if part else 'today'}.", "day", t)]
    return []


def talk_partner(summary: str, mind: Any) -> str:
    """The one a talk's memory is with: "Arjun talked with Erica ..." or else the first person it names."""
    m = _TALKED_WITH.search(summary)
    if m:
        return m.group(1)
    known = getattr(getattr(mind, "relationships", None), "by_name", {})
    return next((n for n in known if re.search(rf"\b{re.escape(n)}\b", summary)), "")


def woke_source(done: tuple[Done, ...], question: str, t: float) -> list[UsedMemory]:
    """When the character got up today ("What time did you wake up?"): the end of its night's sleep."""
    woke = woke_at(done) if _WOKE_ASKED.search(question) else None
    return [told_source(f"I woke up at {hhmm(woke)}.", "day", woke)] if woke is not None else []


def self_source(mind: Any, question: str, t: float) -> list[UsedMemory]:
    """Who the character is, when asked to say ("Tell me about yourself"): its work and the first sentence of
    its personality, in the first person (no one fact of the self-description says it)."""
    if not SELF_ASKED.search(question):
        return []
    p = mind.persona
    nature = first_person(sentences(p.personality)[0], p.name, pronouns=True) if p.personality else ""
    nature = re.sub(r"\bthemsel(f|ves)\b", "myself", nature)  # a persona written with "they"
    work = next((text for fld, text in persona_facts(p) if fld == "occupation"), "")
    if p.occupation and p.occupation.lower() in nature.lower():  # "I am a motherly retired landlady who ..."
        work = ""
    text = " ".join(x for x in (work, nature) if x)
    return [told_source(text, "state:self", t)]


def relation_source(mind: Any, question: str, t: float) -> list[UsedMemory]:
    """What the character thinks of someone the question names ("What do you think of Hana?"), or who
    its friends are, from its relationships (a state, like its feeling: no memory says it that way)."""
    rels = getattr(getattr(mind, "relationships", None), "by_name", None)
    if not rels:
        return []
    if _FRIENDS_ASKED.search(question):
        friends = sorted((r for r in rels.values() if r.familiarity >= FRIEND_FAMILIARITY and r.sentiment >=
                          FRIEND_SENTIMENT and not _FAMILY_ONLY.search(r.note)), key=lambda r: -r.closeness)
        names = [r.name for r in friends[:FRIENDS_NAMED]]
        text = f"My friends are {listed(names)}." if len(names) > 1 else f"{names[0]} is my friend." if names else \
            "I don't have close friends here yet."
        return [told_source(text, "state:friends", t)]
    if not _OPINION_ASKED.search(question):
        return []
    asked = named_people(question, mind.persona.name)
    return [told_source(text, "state:relation", t)
            for r in rels.values() if r.name.lower() in asked for text in [relation_said(r)]]


def relation_said(r: Any) -> str:
    """One relationship as its owner says it: who they are to it, how it feels about them."""
    who = f"{r.name} is {r.note.rstrip('.')}." if r.note else \
        (f"I know {r.name} well." if r.familiarity >= FRIEND_FAMILIARITY else f"I don't know {r.name} well.")
    return f"{who} I {feeling_toward(r.sentiment, first_person=True)} {r.name}."


def plan_source(mind: Any, question: str, t: float, items: list[tuple[str, float]]) -> list[UsedMemory]:
    """What the character plans for the rest of today (or the part of it asked about), read from
    the day plan it remembers (`plan_today`), when the question asks what it will do or is doing."""
    if not items or not _AHEAD.search(question) or _FELT_THEN.search(question) or _TOMORROW.search(question):
        return []  # no plan for tomorrow yet
    lo, hi, label = _ahead_window(question, t % DAY_S)
    keep = [f"{what} at {hhmm(start)}" for what, start in items if lo <= start < hi]
    current = [f"{what} (since {hhmm(start)})" for what, start in items if start <= t % DAY_S][-1:]
    if label == "now" and current:
        text = f"Right now: {current[0]}." + (f" Next: {keep[0]}." if keep else "")
    elif keep:
        text = f"My plan for {label}: {', '.join(keep[:PLAN_ITEMS])}."
    else:
        return []
    return [told_source(text, "state:plan", t)]


def _ahead_window(question: str, now_s: float) -> tuple[float, float, str]:
    """(from, to) seconds after midnight and how to name it: the part of the day asked about, or the rest of today."""
    for pattern, (lo, hi), label in _AHEAD_WINDOWS:
        if re.search(pattern, question, re.I):
            return max(lo * 3600.0, now_s), hi * 3600.0, label
    doing_now = re.search(r"\bare you doing\b(?!.*\blater\b)", question, re.I)
    return now_s, DAY_S, "now" if doing_now else "the rest of today"


def _article(noun: str) -> str:
    return noun if noun.lower().startswith(("a ", "an ", "the ")) else ("an " if noun[:1].lower() in "aeiou" else "a ") + noun


@dataclass(frozen=True)
class QuestionCues:
    """What the question asks for, read once: its embedded forms and the code-read cues."""
    vectors: tuple[Any, ...]  # the question, and the question with relations named ("your partner Marek")
    want: str | None          # name | time | number | place (asked_type)
    past: bool                # about an event, not a habit
    history: bool             # about the character's life before now
    window: tuple[float, float] | None
    stems: frozenset[str]
    speaker: str = ""         # the interviewee: its own name answers no "who"
    about_talk: bool = False  # "Who did you talk to?": a conversation (a chat memory) answers
    who_talked: bool = False  # "Who did you talk to today?": only a conversation (or having had none) answers
    frames: tuple[re.Pattern, ...] = ()  # what a source telling the asked kind of happening says (_FRAMES)
    people: frozenset[str] = frozenset()  # who the question names, lower case
    proper: frozenset[str] = frozenset()  # every name in the question (people and places): not its answer
    roles: frozenset[str] = frozenset()  # what they are to the character ("mum" for Noor), from the persona
    kin: frozenset[str] = frozenset()  # family the question asks about, by role and name ("brother", "callum")
    habitual: bool = False     # "these days": a habit holds then, though the question names a time
    open_recall: bool = False  # "What did you do this morning?": anything done then answers
    when_stems: frozenset[str] = frozenset()  # the question's words of time ("Sunday"): they tell no subject


async def interview_sources(mind: Any, question: str, t: float, doing: Any = None, done: tuple[Done, ...] = (),
                            yesterday: tuple[Done, ...] = (), began: float | None = None) -> list[UsedMemory]:
    """What may answer the question: the agent's memories (not earlier interviews, which would
    out-rank the facts they repeat, nor the day plan) and the persona's facts, best first. Relevance is the raw
    cosine of the question with the source as the character would say it; `_adjust` then
    applies what code reads from the question (a time, a kind of answer, the life story)."""
    people = relations(mind.persona)
    named = name_relations(question, people)
    name = mind.persona.name
    plan = plan_memory_prefix(name)  # the remembered day plan answers through plan_source, which knows its day
    pool = await mind.memory.nearest(named, t=t, k=POOL_K, skip=lambda rec: rec.predicate == INTERVIEW_PREDICATE
                                     or rec.description.startswith(plan))
    used = rerank(pool, k=POOL_K)
    facts = persona_facts(mind.persona, getattr(mind, "household", ()))
    used += [UsedMemory(text, W_IMPORTANCE, {}, f"persona:{fld}") for fld, text in facts]
    home, plan_items = mind.persona.home, plan_today(mind, t)
    now = doing_source(doing, question, t, name, home, plan_items)
    used += feeling_source(mind, question, t) + relation_source(mind, named, t) + now + self_source(mind, question, t) \
        + day_sources(done, question, t, name, home, yesterday) + not_done_source(done, question, t, plan_items, began) \
        + woke_source(done, question, t) + talks_source(mind, done, question, t, began) \
        + (plan_source(mind, question, t, plan_items) if not (now and _DOING_ASKED.search(question)) else [])
    pronoun = own_pronoun(mind.persona)
    for u in used:
        u.spoken = u.description if u.source != "memory" else spoken_memory(u.description, name, pronoun)
    forms = list(dict.fromkeys(f for f in (question, named, as_statement(named)) if f))
    vecs = await mind.memory.embedder.aembed(forms + [u.spoken for u in used])
    cues = read_cues(question, named, name, people, tuple(_unit(v) for v in vecs[:len(forms)]), t)
    for u, v in zip(used, vecs[len(forms):]):
        _adjust(u, _unit(v), cues)
    used.sort(key=lambda u: -u.score)
    return used[:CANDIDATE_K]


def read_cues(question: str, named: str, name: str, people: dict[str, str], vectors: tuple[Any, ...],
              t: float) -> QuestionCues:
    """What code reads from the question (`named`: with the relations it names by role given their names)."""
    window = time_window(question, t)
    asked = named_people(question, name)
    return QuestionCues(vectors, asked_type(question), asks_about_past(question), asks_about_history(question), window,
                        frozenset(_stems(named)), speaker=name, open_recall=window is not None and not topic_words(question),
                        about_talk=bool(_TALK.search(question)), frames=asked_frames(question, people),
                        people=frozenset(asked), proper=frozenset(proper_names(named, name) | asked),
                        roles=frozenset(r for r, who in people.items() if who.lower() in asked),
                        kin=asked_kin(question, people),
                        habitual=bool(_HABITUAL.search(question)), who_talked=bool(_WHO_TALKED.search(question)),
                        when_stems=frozenset(_stems(" ".join(m.group(0) for m in TIME_WORDS.finditer(question)))))


# "your brother": the question is about them, and a source not telling of them does not answer it
_YOUR_FAMILY = re.compile(rf"\byour ((?:{'|'.join(FAMILY_WORDS)})|children|kids|grandchildren|grandkids)(?:s|'s)?\b",
                          re.I)


def asked_kin(question: str, people: dict[str, str]) -> frozenset[str]:
    """The family the question asks about, by role and, where the persona tells it, by name ("brother", "callum")."""
    roles = [w.lower() for w in _YOUR_FAMILY.findall(question)]
    return frozenset([kin_role(r) for r in roles] + [people[r].lower() for r in roles if r in people])


def mentions_kin(text: str, kin: frozenset[str]) -> bool:
    words = [w.removesuffix("'s") for w in word_list(text)]
    return bool(kin & ({kin_role(w.removesuffix("s")) for w in words} | set(words)))


def names_role(text: str, roles: frozenset[str]) -> bool:
    """Whether a source names someone by what they are to the speaker ("my mum" for Noor)."""
    return any(re.search(rf"\b{re.escape(role)}\b", text, re.I) for role in roles)


_CHAT_QUOTE = re.compile(r'^(?P<head>.+?)(?:; [A-Z][\w\'-]* said| and told [A-Z][\w\'-]*): "(?P<said>[^"]*)"\.?$')


def own_pronoun(persona: Any) -> str | None:
    """"she" or "he" as the persona's own text calls the character (None when it does not tell)."""
    return pronoun_in(" ".join(str(getattr(persona, f, "") or "") for f in ("personality", "background", "lifestyle",
                                                                              "routine")))


def spoken_memory(text: str, name: str, pronoun: str | None = None) -> str:
    """A memory as its owner says it, clause by clause: a perception joins notes with "; " and each
    note starts with the owner's name ("Greta saw Arjun; Greta saw Sam": "I saw Arjun; I saw Sam").
    A chat's summary quoting a turn that says nothing ("Ha, I know what you mean.") tells the chat only.
    `pronoun` is the owner's own (`own_pronoun`): only those pronouns are the owner's."""
    quote = _CHAT_QUOTE.match(text)
    if quote and quote.group("said").strip() in CANNED_TURNS:
        text = quote.group("head") + "."
    clauses = text.split("; ")
    if len(clauses) == 1 or not all(c.startswith(f"{name} ") for c in clauses):
        return memory_in_first_person(text, name, pronoun)
    return "; ".join(memory_in_first_person(clause, name, pronoun) for clause in clauses)


def _adjust(u: UsedMemory, vec: Any, cues: QuestionCues) -> None:
    """Score one source against the question's cues. A habit (a persona fact other than the life story)
    loses PAST_PENALTY on a question about a past event; a source without what the question asks for (a
    name, a time, a place, a price, something eaten) loses TYPE_PENALTY, one not naming the person it names
    PERSON_PENALTY; an event (or a habit, unless asked about "these days") outside the asked time loses
    OUT_OF_WINDOW; the life story gains W_HISTORY on a question about the character's past, a state source
    (feeling, plan, relationship, whereabouts) W_STATE, a source telling the asked kind of happening
    W_FRAME, one naming the person asked about W_PERSON."""
    cosine = max([float(np.dot(q, vec)) for q in cues.vectors] + [u.factors.get("cosine", -1.0)])
    habit = u.source.startswith("persona:")
    timed = u.source in RECORDED and u.kind in ("event", "chat") and u.created is not None
    window = cues.window
    # a thought of the asked time is inside it too ("Anything worrying you lately?"), but no thought is outside one
    dated = u.source in RECORDED and u.created is not None
    inside = window is not None and dated and window[0] <= u.created <= window[1]  # type: ignore[operator]
    history = cues.history and u.source == "persona:background"
    by_name = bool(cues.people & named_people(u.spoken, cues.speaker))
    penalty = (PAST_PENALTY if cues.past and habit and u.source != "persona:background" else 0.0) \
        + (_type_penalty(cues.want) if _lacks_asked(u, cues) else 0.0) \
        + (PERSON_PENALTY if cues.people and not (by_name or names_role(u.spoken, cues.roles)) else 0.0) \
        + (PERSON_PENALTY if cues.kin and not (by_name or mentions_kin(u.spoken, cues.kin)) else 0.0) \
        + (OUT_OF_WINDOW if window is not None and (timed or habit and not cues.habitual) and not inside else 0.0) \
        + (TYPE_PENALTY if cues.who_talked and u.kind != "chat" and u.source != "day" else 0.0) \
        + (TYPE_PENALTY if cues.past and (cues.want or "").startswith("meal") and u.kind in FELT else 0.0)
    lexical = len(cues.stems & _stems(u.spoken)) / len(cues.stems) if cues.stems else 0.0
    answers_open = u.kind == "chat" if cues.about_talk else u.kind in ("event", "chat")
    when = (W_OPEN_RECALL if cues.open_recall and answers_open else W_WHEN) * float(inside)
    talk = W_TALK * float(cues.about_talk and u.kind == "chat")
    state = W_STATE * float(u.kind == "state")  # a state source exists only when the question asks for it
    frame = W_FRAME * float(any(rx.search(f"{u.source} {u.spoken}") for rx in cues.frames))
    person = W_PERSON * float(by_name)
    fit = W_RELEVANCE * cosine - penalty + W_LEXICAL * lexical + when + W_HISTORY * float(history) + talk + state \
        + frame + person
    tie_break = u.score - W_RELEVANCE * u.factors.get("cosine_stored", 0.0)  # importance and recency
    u.factors.update({"cosine": cosine, "penalty": penalty, "lexical": lexical, "when": float(inside),
                      "history": float(history), "frame": frame, "person": person, "fit": fit})
    u.score = fit + tie_break


_KIN_NAMED = re.compile(rf"\b({KIN_PATTERN})s?\b,?\s+([A-Z][a-z]+)")


def relations(persona: Any) -> dict[str, str]:
    """Who the character's people are, read from its persona: role word -> name ("partner" -> "Marek"),
    from "her partner Marek" in its text and from the notes of its authored relationships."""
    found: dict[str, str] = {}
    for fld in ("background", "lifestyle", "routine"):
        for m in _KIN_NAMED.finditer(getattr(persona, fld, "") or ""):
            found.setdefault(m.group(1).lower(), m.group(2))
    for rel in getattr(persona, "relationships", []) or []:
        for role in re.findall(rf"\b({KIN_PATTERN})\b", rel.note.lower()):
            found.setdefault(role, rel.name)
    return found


def name_relations(question: str, people: dict[str, str]) -> str:
    """The question with the people it names by role also named ("your partner" -> "your partner Marek")."""
    def named(m: re.Match) -> str:
        who = people.get(m.group(2).lower())
        return f"{m.group(0)} {who}" if who and who.lower() not in question.lower() else m.group(0)
    return re.sub(rf"\b(your|you're|ur)\s+({KIN_PATTERN})\b", named, question, flags=re.I)


_AUX = r"(did|do|does|are|is|were|was|have|has|can|could|will|would)"
_ASKING = re.compile(rf"^\s*((what|who|whom|whose|where|when|why|how|which)('s|\s+{_AUX})?|{_AUX})\b", re.I)
_TO_SPEAKER = {"you": "I", "your": "my", "yours": "mine", "yourself": "myself", "you're": "I'm", "you've": "I've"}
_OBJECT_AFTER = frozenset("from to with for at about of told tell asked ask gave give sent send called call saw see "
                          "visited visit helped help like love met meet".split())


def as_statement(question: str) -> str:
    """The question put as the speaker would begin its answer ("What did you have for lunch?" ->
    "I have for lunch"): a memory says things that way, so the embedder matches it better."""
    words = _ASKING.sub("", question.strip().rstrip("?"), count=1).split()
    out = []
    for i, word in enumerate(words):
        low = word.lower().strip(",.;:!")
        if low in _TO_SPEAKER:
            after_object = low == "you" and i > 0 and words[i - 1].lower() in _OBJECT_AFTER
            word = word.lower().replace(low, "me" if after_object else _TO_SPEAKER[low])
        out.append(word)
    return " ".join(out)


_TALK = re.compile(r"\b(talk(ed|ing)?|chat(ted|ting)?|spoke|speak(ing)?|conversations?|told|tell|said|say)\b", re.I)


def topic_words(question: str) -> set[str]:
    """What the question is about beyond a time and a generic or talking verb: {} for "What did you do
    today?" and for "Who did you talk to today?"."""
    return {w for w in word_list(question) if len(w) >= 4 and w not in STOPWORDS and w not in GENERIC_VERBS
            and not _TALK.fullmatch(w) and not TIME_WORDS.fullmatch(w)
            and not re.fullmatch(r"this|last|earlier|lately|recently", w)}


_BODY = r"(arm|hand|leg|foot|head|face|wrist|thumb|finger|knee|back|eye|ankle|elbow|neck)"
_FRAMES = (  # (a question asks about this kind of happening, a source tells of it: matched on "<source> <text>")
    (r"\b(worr\w*|troubl\w*|bother\w*|concern\w*|anxious|nervous|afraid|scared|fear\w*|stress\w*|on your mind|"
     r"keep(s|ing)? you up|on edge|tense|uneasy|fret\w*)\b",
     r"\b(worr\w*|afraid|fears?|feared|anxious|nervous|concerned|troubled|dread\w*|scared|guilt\w*|regrets?|"
     r"terrible|awful)\b"),
    (r"\b(mood|upset|angry|annoyed|cross|grumpy|happy|sad|cheerful|pleased|excited|cry|cried|crying|laugh\w*|"
     r"down|low|blue|glum|miserable|what's up|what's wrong|the matter)\b",
     r"\b(annoyed|upset|angry|furious|cross|irritated|happy|glad|delighted|pleased|sad|cried|crying|laughed|"
     r"excited|thrilled|proud|ashamed|embarrassed|disappointed|frustrated|terrible|awful|miserable|lonely)\b"),
    (rf"\b(hurt|injur\w*|wound\w*|bandag\w*|limp\w*|stiff\w*|bruis\w*|sore|happened to your {_BODY}|your {_BODY})\b",
     r"\b(cut|burnt|burned|bruised?|stung|sprained|broke|twisted|hurt|injured|bled|bleeding|bandag\w*|scald\w*|"
     r"slipped|fell|pricked|scratched|grazed|stubbed|banged|sliced|nicked|pinched|strained|twinged|swollen|swelled)\b"),
    (r"\b(clash\w*|fall(en)? out|fell out|argu\w*|rows?|disagree\w*|quarrel\w*|fight|fought|words with|"
     r"cross with|at odds)\b",
     r"\b(argued|argument|row(ed)?|quarrel\w*|fell out|disagreed|disagreement|clashed|fought|shouted at|snapped at|"
     r"told (me|him|her) off|complained)\b"),
    (r"\b(bought|buy|buying|purchas\w*|treated? yourself|shopping|splash(ed)? out|new (gear|kit|clothes|shoes))\b",
     r"\b(bought|buys|purchased|ordered|treated myself|picked up|splashed out)\b"),
    (r"\b(accidents?|broken|break|broke|damaged?|smash\w*|wrong with|became of|running (alright|all right|ok|okay|well)|"
     r"working (properly|ok|okay|alright)|any problems?|trouble with)\b",
     r"\b(broke|broken|cracked|smashed|dropped|spilled|spilt|damaged|shattered|jammed|leak\w*|failed|squeak\w*|"
     r"rattl\w*|needs? (fixing|looking at|mending|repair\w*)|fault\w*)\b"),
    (r"\b(dodgy|crime|thie\w*|steal\w*|stole|break-?ins?|burgl\w*|police|vandal\w*|safe around)\b",
     r"\b(break-?ins?|broke into|burgl\w*|stolen|stole|thie\w*|theft|police|vandal\w*)\b"),
    (r"\b(have you )?(seen|see|saw|met|meet|run into|ran into|bump(ed)? into|visitors?|any company)\b",
     r"\b(saw|sees|met|meets|visited|ran into|bumped into|talked with|chatted with)\b"),
    (r"\b((for|earn|make) a living|(a|your) job|(your|for) (job|work|trade)|line of work|what do you do\b(?! (on|at|in|after|when|for fun|with|to|"
     r"about|if))|what's your job|do you work|still at school|retired)\b", r"^persona:occupation\b"),
    (r"\b(live with|lives with you|share (a|the|your) (house|home|flat)|house ?mates?|flatmates?|who else lives)\b",
     r"^persona:(home|background)\b.*\b(with|share|shares)\b"),
    (r"\b(night owl|early (bird|riser)|stay up|go to bed|bedtime|sleep (well|badly)|get up|wake up early|lie in)\b",
     r"^persona:lifestyle\b"),
    (r"\b(lose|lost|missing|gone|stolen|misplac\w*|can't find)\b",
     r"\b(lost|missing|stolen|misplaced|gone|disappeared|vanished)\b"),
    (r"\b(find|found|come across|came across|discover\w*|interesting|unusual|left (anything|something))\b",
     r"\b(found|discovered|came across|noticed|spotted|unearthed)\b"),
    (r"\b(news|heard|hear|gossip)\b", r"\b(said|told|announced|heard|news)\b"),
    (r"\b(grumbl\w*|complain\w*|moan\w*|(cross|angry|upset) with you|told you off)\b",
     r"\b(complain\w*|grumbl\w*|moan\w*|scolded|shouted|told me off)\b"),
    (r"\b(money|prices?|cost\w*|charg\w*|pay|paid|owes?|afford|expensive|cheap)\b",
     r"[£$€]|\b(pounds?|pence|cost\w*|prices?|paid|pay|owed?|money|charg\w*)\b"),
    (r"\b(plans?|planning|organi[sz]\w*|up to (this|next)|this weekend|next week|soon|lined up|coming up)\b",
     r"\b(plans?|planning|intends?|hopes? to|going to|will|agreed to|arranged)\b"),
    (r"\b(free time|spare time|time to yourself|unwind|relax\w*|for fun|hobb\w*|pass the time|days? off|"
     r"weekends?|evenings?|when .* (shut|closed))\b", r"^persona:lifestyle\b"))


def asked_frames(question: str, people: dict[str, str] | None = None) -> tuple[re.Pattern, ...]:
    """What a source telling the kind of happening the question asks about says (a worry, a hurt, a loss),
    or the relative it asks about ("How's your sister?": "sister", or her name when `people` knows it)."""
    frames = [re.compile(says, re.I) for asks, says in _FRAMES if re.search(asks, question, re.I)]
    kin = {kin_role(k) for k in re.findall(rf"\byour ({KIN_PATTERN})\b", question, re.I)}
    kin |= set(FAMILY_WORDS) if re.search(r"\bfamily\b", question, re.I) else set()
    words = kin | {w for w, same in KIN_SAME.items() if same in kin} | \
        {who for role, who in (people or {}).items() if kin_role(role) in kin}
    return tuple(frames + ([re.compile(rf"\b({'|'.join(sorted(words))})\b", re.I)] if words else []))


_HISTORY = re.compile(r"\b(before (you(?! (left|went|go|leave|head|came out|set off))|moving|coming)|used to|grow up|grew up|as a (child|kid|boy|girl)|"
                      r"when you were (young|little)|"
                      r"where are you from|originally|your (past|life story|childhood))\b", re.I)


def asks_about_history(question: str) -> bool:
    """A question about the character's life before now ("What did you do before you kept bees?")."""
    return bool(_HISTORY.search(question))


_WINDOWS = (  # question words -> (from, to) in hours relative to today's midnight
    (r"\blast night|yesterday evening\b", (-6.0, 4.0)), (r"\byesterday\b", (-24.0, 0.0)),
    (r"\bthis morning|for breakfast\b", (4.0, 12.0)), (r"\b(at )?lunch(time)?\b|\bmidday\b", (11.0, 15.0)),
    (r"\bthis afternoon\b", (12.0, 18.0)), (r"\btonight|this evening\b", (17.0, 24.0)),
    (r"\btoday|earlier\b|\bbeen (up to|doing)\b", (0.0, 24.0)),
    (r"\b(at the moment|right now|these days|this week|lately|recently|busy)\b", (-144.0, 24.0)))


def time_window(question: str, now: float) -> tuple[float, float] | None:
    """The game-time span a question asks about ("this morning", "last night"), or None."""
    midnight = now - now % DAY_S
    for pattern, (lo, hi) in _WINDOWS:
        if re.search(pattern, question, re.I):
            return midnight + lo * 3600.0, min(now, midnight + hi * 3600.0)
    return None


def _unit(v: Any) -> Any:
    return v / (float(np.linalg.norm(v)) or 1.0)


_WHERE_NOW = re.compile(r"\bwhere are you( going| off to| headed| heading| walking| now)?\b(?! from)|\bwhere to\b",
                        re.I)
_LATER = r"later|tonight|this (evening|afternoon)|next"  # a later part of today (or after it)
_AHEAD_TIME = re.compile(rf"\b({_LATER}|tomorrow|after)\b", re.I)
_OPINION_ASKED = re.compile(r"\b(think|thoughts|feel|opinion) (of|about|on)\b|"
                            r"\b(do|did) you (like|know|trust|get on)\b|\bget (on|along) with\b|\bwho(?:'s| is)\b|"
                            r"\btell me about\b|\bhow do you know\b|"
                            r"\bwhat(?:'s| is) \w+ like\b", re.I)
_FRIENDS_ASKED = re.compile(r"\b(who are|who're) your (\w+ )?friends\b|\bany friends\b|\bclosest to\b|"
                            r"\bbest friends?\b", re.I)
# a relationship note naming a relative and no friendship ("my daughter"): family, not a friend ("partner"
# may be a quiz partner)
_FAMILY_ONLY = re.compile(rf"^(?!.*\bfriend).*\b({'|'.join(w for w in FAMILY_WORDS if w != 'partner')})\b", re.I)
_HOUSEHOLD = re.compile(r"\b(house|flat|room)mates?\b|\blodgers?\b|\blandlady\b|\blandlord\b|\blives? with me\b", re.I)
_FEELING_NOW = re.compile(r"\bhow are you( doing| today| now| feeling| feeling today)?\s*[?.!]*$|"
                          r"\bhow do you feel\b(?! about| towards)|\b(are|do) you feel\b(?! about| towards)|"
                          r"\bfeeling\b(?! about| towards)|\byour mood\b|\bin a (good|bad) mood\b", re.I)
_AHEAD = re.compile(rf"\b(going to|gonna|will you|plans?|planning|{_LATER}|"
                    r"are you (doing|up to|having|eating|seeing|meeting|off)|what time (are|is|will)|"
                    r"what time\b(?=.*\btoday\b))\b", re.I)
_AHEAD_WINDOWS = ((r"\btonight|this evening\b", (17.0, 24.0), "this evening"),
                  (r"\bthis afternoon\b", (12.0, 18.0), "this afternoon"))
_TOMORROW = re.compile(r"\btomorrow\b", re.I)
_DOING_ASKED = re.compile(r"\bwhat(?: are|'re) you (doing|up to)\b", re.I)
_ACTIVITY_ASKED = re.compile(r"\bwhat(?: are|'re) you (\w+ing)\b"
                             r"(?!.*\b(later|tonight|tomorrow|for (lunch|dinner|supper|tea|breakfast))\b)", re.I)
_MEAL_CHECK = re.compile(r"\b(have|did) you (had|have|eaten|eat|got)\b[^?]*?"
                         r"\b(?P<meal>breakfast|lunch|dinner|supper|tea)\b|\bhave you (eaten|had anything to eat)\b", re.I)
_YES_NO = re.compile(r"^\s*(have|has|had|did|do|does|are|is|were|was)\b", re.I)
_WOKE_ASKED = re.compile(r"\b(what time|when) did you (get up|wake|get out of bed|rise)\b|\bwhat time were you up\b",
                         re.I)
_TALKED_WITH = re.compile(r"\btalked with ([A-Z][\w'-]+)")
_PART_OF_DAY = re.compile(r"\bthis (morning|afternoon|evening)\b|\btonight\b|\bat lunch(time)?\b", re.I)
_WHO_TALKED = re.compile(r"\bwho (did|have|had) you (talk|talked|speak|spoke|spoken|chat|chatted)\b", re.I)
_HABITUAL = re.compile(r"\b(these days|nowadays|usually|normally)\b", re.I)
_DONE_ASKED = re.compile(r"\b(did|had|was|were|went|ate|been|spent|have you (done|had|seen|met|eaten)|so far|earlier)\b", re.I)
# past tense only: unlike `asks_about_past`, "today" and "this morning" may ask about now ("How are you feeling today?")
_FELT_THEN = re.compile(r"\b(did|were|was|had|felt|yesterday|last|earlier|ago)\b", re.I)


def _lacks_asked(u: UsedMemory, cues: QuestionCues) -> bool:
    """Whether a source lacks the kind of thing the question asks for. What the character did today answers
    "Did you clean up?" in the game's own words ("I cleared the table"), so it need not echo the question, and
    "Who did you talk to?" with no name when it talked with no one."""
    if not cues.want or (u.source == "day" and cues.want.startswith("happened")):
        return False
    if cues.who_talked and u.source == "day" and u.kind == "state":  # whom it talked with, even no one
        return False
    return not states_type(u.spoken, cues.want, cues.speaker, cues.proper, cues.stems) or _of_something_else(u, cues)


_SLOT_STEMS = frozenset(_stems("name names called title"))  # words asking for the slot, not telling its subject


def _of_something_else(u: UsedMemory, cues: QuestionCues) -> bool:
    """Whether a memory holding a name holds it of something else: it shares none of the question's own words
    beyond the people it names ("What's the name of the ship you served on?" and "the farmer Holt"; "Which team
    is Caleb playing against?" and "my ex-wife Jen ... the football match"). A time is
    not read so: "When is your son coming to see you?" is answered by "he will visit on the last Sunday"."""
    if u.source != "memory" or not (cues.want or "").startswith(("title", "which")):
        return False
    own = cues.stems - _SLOT_STEMS - {stem(p) for p in cues.people | cues.proper} - cues.when_stems
    return bool(own) and not own & _stems(u.spoken)


def _type_penalty(want: str) -> float:
    return NAME_PENALTY if want == "name:called" or want.startswith(("title", "kin:")) else TYPE_PENALTY


def interview_inputs(mind: Any, question: str, used: list[UsedMemory]) -> InterviewInputs:
    comp = mind.personality
    persona = mind.persona
    parts = [comp.personality_text]
    for label, value in (("Age", persona.age), ("Occupation", persona.occupation), ("Home", persona.home),
                         ("Background", persona.background), ("Routine", persona.routine)):
        if value:
            parts.append(f"{label}: {value}")
    parts += [f"{STATE_LABELS[u.source]}: {u.spoken}" for u in used if u.kind == "state"]  # the record answers rest on
    memories = [u for u in used if u.source in RECORDED]
    on_topic = [u.description for u in memories if u.factors.get("cosine", 0.0) >= MIN_COSINE] or \
        [u.description for u in memories[:2]]
    sources = [(u.spoken or u.description, u.source, u.factors.get("fit", 0.0)) for u in used]
    return InterviewInputs(persona.name, "\n".join(parts), list(comp.voice_lines()), on_topic, question,
                           classify_question(question), sources, comp.personality_text)


async def interview(mind: Any, question: str, scheduler: Any, t: float, *, location: str = "",
                    doing: Any = None, done: tuple[Done, ...] = (), yesterday: tuple[Done, ...] = (),
                    began: float | None = None) -> InterviewResult:
    """Answer one interview question and remember the exchange (type chat). The question is
    cleaned first: controls and escapes removed, one line, at most MAX_QUESTION_CHARS. `doing` is a
    copy of the body's activity when there is a body, `done` what it did today and `yesterday` the day before,
    `began` when it came into the world (garp.mind.day_record)."""
    question, notice = clean_line(question, MAX_QUESTION_CHARS)
    if not question:
        return InterviewResult(question, "factual", "You didn't ask me anything.", notice=notice)
    used = await interview_sources(mind, question, t, doing, done, yesterday, began)
    inputs = interview_inputs(mind, question, used)
    out, record = await scheduler.call(InterviewAnswer(), inputs, agent=mind.persona.name, game_time=t,
                                       retrieved=[u.as_dict() for u in used])
    answer = out.utterance
    emotion = getattr(getattr(mind, "emotion", None), "current", None)
    await mind.memory.remember(
        f"I was interviewed and asked: \"{question}\" I answered: \"{answer}\"", t=t, type="chat",
        location=location, subject=mind.persona.name, predicate=INTERVIEW_PREDICATE,
        emotion=str(getattr(emotion, "label", DEFAULT_EMOTION)), intensity=float(getattr(emotion, "intensity", 0.0) or 0.0))
    return InterviewResult(question, inputs.kind, answer, used, record, notice)
