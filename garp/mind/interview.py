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

from garp.engine.lmfunction import LMFunction, chat
from garp.textclean import clean_line

# --- tunables (seed: Interview Studio; paper III-A2 for the factor names) ---------------
POOL_K = 24            # memories fetched by Eq. 1 before the interview re-ranking
USED_K = 5             # memories handed to the model ("the model only knows the five you hand it")
W_RELEVANCE = 3.0      # seed: score = 3 x relevance + 0.5 x importance + 0.5 x recency
W_IMPORTANCE = 0.5
W_RECENCY = 0.5
MIN_SIMILARITY = 0.2   # normalised similarity below which a memory is not treated as on topic
MAX_ANSWER_CHARS = 280  # output field cap (keeps the grammar small and the answer short)
MAX_QUESTION_CHARS = 300
MIN_ANSWER_WORDS = 3   # shorter replies are echoes or fragments
ECHO_OVERLAP = 0.7     # share of answer words found in the question (or a voice line) that makes it a copy
STEM_CHARS = 5         # prefix length for matching content words ("records" ~ "record")
DEFAULT_EMOTION = "neutral"

FALLBACK_ANSWER = "I'm sorry, I don't recall that."

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


_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
_WORD = re.compile(r"[a-z']+")
STOPWORDS = frozenset(
    "the a an and or but of to in on at for with from by about as is are was were be been am i you he she it we "
    "they me my your his her its our their this that these those what which who whom why how when where do does "
    "did have has had not no so very just really too also there here then than into out up down over can could "
    "would should will shall may might must i'm i've i'd you're it's that's don't didn't".split())


def _words(text: str) -> list[str]:
    return _WORD.findall(text.lower())


def _stems(text: str) -> set[str]:
    """Content-word stems (first 5 letters) for a cheap groundedness test."""
    return {w[:STEM_CHARS] for w in _words(text) if len(w) >= 4 and w not in STOPWORDS}


def _overlap(answer: list[str], other: list[str]) -> float:
    """Share of the answer's words that also occur in `other`."""
    if not answer or not other:
        return 0.0
    ref = set(other)
    return sum(1 for w in answer if w in ref) / len(answer)


def first_sentences(text: str, n: int = 2) -> str:
    parts = _SENTENCE_END.split(text.strip())
    return " ".join(parts[:n]).strip()


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
        and a factual answer must rest on the record (share a content word with it)."""
        text = first_sentences(out.utterance.strip().strip('"'))
        words = _words(text)
        if len(words) < MIN_ANSWER_WORDS:
            raise ValueError("answer too short")
        low = text.lower()
        if "as an ai" in low or "language model" in low:
            raise ValueError("answer breaks character")
        if _overlap(words, _words(inputs.question)) >= ECHO_OVERLAP:
            raise ValueError("answer echoes the question")
        if any(_overlap(words, _words(v)) >= ECHO_OVERLAP for v in inputs.speech):
            raise ValueError("answer copies a voice exemplar")
        if inputs.kind == "factual":
            record = _stems(" ".join(inputs.memories) + " " + inputs.self_description)
            if not (_stems(text) - _stems(inputs.question)) & record:
                raise ValueError("factual answer not grounded in the memories")
        return Utterance(utterance=text)

    def fallback(self, inputs: InterviewInputs) -> Utterance:
        return Utterance(utterance=FALLBACK_ANSWER)


@dataclass
class UsedMemory:
    description: str
    score: float
    factors: dict[str, float]

    def as_dict(self) -> dict[str, Any]:
        return {"description": self.description, "score": round(self.score, 3),
                "factors": {k: round(v, 3) for k, v in self.factors.items()}}


@dataclass
class InterviewResult:
    question: str
    kind: str
    answer: str
    memories: list[UsedMemory] = field(default_factory=list)
    call: Any = None  # CallRecord
    notice: str = ""  # what cleaning the question changed the asker should know (it was shortened)


def rerank(scored: list[Any], k: int = USED_K) -> list[UsedMemory]:
    """Interview ranking over a pool from Eq. 1: relevance decides, importance and recency break ties."""
    used = []
    for s in scored:
        f = dict(getattr(s, "factors", {}) or {})
        score = (W_RELEVANCE * f.get("similarity", 0.0) + W_IMPORTANCE * f.get("poignancy", 0.0)
                 + W_RECENCY * f.get("recency", 0.0))
        rec = getattr(s, "record", s)
        used.append(UsedMemory(str(getattr(rec, "description", "")), score,
                               {"similarity": f.get("similarity", 0.0), "poignancy": f.get("poignancy", 0.0),
                                "recency": f.get("recency", 0.0), "emotion": f.get("emotion", 0.0)}))
    used.sort(key=lambda u: -u.score)
    return used[:k]


def interview_inputs(mind: Any, question: str, used: list[UsedMemory]) -> InterviewInputs:
    comp = mind.personality
    persona = mind.persona
    parts = [comp.personality_text]
    for label, value in (("Age", persona.age), ("Occupation", persona.occupation),
                         ("Background", persona.background), ("Routine", persona.routine)):
        if value:
            parts.append(f"{label}: {value}")
    on_topic = [u.description for u in used if u.factors.get("similarity", 0.0) >= MIN_SIMILARITY] or \
        [u.description for u in used[:2]]
    return InterviewInputs(persona.name, "\n".join(parts), list(comp.voice_lines()), on_topic, question,
                           classify_question(question))


async def interview(mind: Any, question: str, scheduler: Any, t: float, *, location: str = "") -> InterviewResult:
    """Answer one interview question and remember the exchange (type chat). The question is
    cleaned first: controls and escapes removed, one line, at most MAX_QUESTION_CHARS."""
    question, notice = clean_line(question, MAX_QUESTION_CHARS)
    if not question:
        return InterviewResult(question, "factual", "You didn't ask me anything.", notice=notice)
    pool = await mind.memory.retrieve(question, t=t, k=POOL_K)
    used = rerank(pool)
    inputs = interview_inputs(mind, question, used)
    out, record = await scheduler.call(InterviewAnswer(), inputs, agent=mind.persona.name, game_time=t,
                                       retrieved=[u.as_dict() for u in used])
    answer = out.utterance
    emotion = getattr(getattr(mind, "emotion", None), "current", None)
    await mind.memory.remember(
        f"I was interviewed and asked: \"{question}\" I answered: \"{answer}\"", t=t, type="chat",
        location=location, emotion=str(getattr(emotion, "label", DEFAULT_EMOTION)),
        intensity=float(getattr(emotion, "intensity", 0.0) or 0.0))
    return InterviewResult(question, inputs.kind, answer, used, record, notice)
