"""Reflection: focal points, insights with evidence, emotional consolidation (paper III-A10).

Triggered when an agent's cumulative poignancy passes 50. One call asks for 2-3 focal
questions about recent memories; one call per question (at most MAX_QUESTIONS) turns the
memories retrieved for it into 1-3 insights, stored as thought memories whose evidence
points at the memories they rest on. In rank mode (the small profile) code builds both
from the memories (garp/mind/insight_candidates.py) and the model ranks them: a question
about what the memories keep coming back to plus a broad one, and one insight each.
Intense memories formed since the last reflection gain stability. Whatever the model does,
the counter is reset.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from typing import Annotated

from pydantic import BaseModel, Field, StringConstraints

from garp.engine.lmfunction import CallRecord, Candidate, LMFunction, chat
from garp.mind.emotion import consolidate
from garp.mind.insight_candidates import BROAD_QUESTION, focal_options, insight_options
from garp.mind.line_candidates import is_bookkeeping
from garp.mind.memory import AgentMemory
from garp.textclean import is_prose, sentences

# --- tunables (paper III-A10; the rest are ours) ------------------------------------------
RECENT_FOR_FOCUS = 12       # recent memories shown when choosing focal points
MAX_QUESTIONS = 2           # questions turned into insights (keeps reflection at 2-4 calls, Table I)
EVIDENCE_K = 6              # memories retrieved per question
TEXT_CHARS = 90             # grammar maxLength per question / insight
INSIGHT_POIGNANCY = None    # insights are scored like any other memory
EARLIER_INSIGHTS = 40       # recent thoughts looked through so an insight is not drawn twice


# Anchored patterns (the grammar supports them) keep the small model from copying the
# numbered memories back: a question must start with a question word and end with "?",
# an insight must start with a capital letter, not a list number. Bounded lengths keep a
# rambling model inside max_tokens.
QUESTION_PATTERN = r"^(What|Why|How|Who|Should|Will|Can|Does|Is) [^\"\\\n?]{5,80}\?$"
STATEMENT_PATTERN = r"^[A-Z][^\"\\\n]{7,88}$"


class FocalReply(BaseModel):
    questions: list[Annotated[str, StringConstraints(pattern=QUESTION_PATTERN)]] = Field(min_length=1, max_length=3)


class Insight(BaseModel):
    statement: Annotated[str, StringConstraints(pattern=STATEMENT_PATTERN)]
    evidence: list[int] = Field(min_length=1, max_length=4)


class InsightReply(BaseModel):
    insights: list[Insight] = Field(min_length=1, max_length=3)


@dataclass
class FocalInputs:
    name: str
    personality_text: str
    memories: list[str]
    people: list[str] = field(default_factory=list)  # the town's cast, to tell names in the memories


@dataclass
class InsightInputs:
    name: str
    personality_text: str
    question: str
    memories: list[str]
    people: list[str] = field(default_factory=list)   # the town's cast, to tell names in the memories
    earlier: list[str] = field(default_factory=list)  # insights already drawn (not offered again)


def _numbered(memories: list[str]) -> str:
    return "\n".join(f"{i + 1}. {m}" for i, m in enumerate(memories))


def _clean(text: str) -> str:
    return " ".join(text.split())


def _whole_sentence(text: str) -> str:
    """An insight's first sentence; "" when the grammar's length cut it off mid-sentence (what the
    small model then leaves reads "...was caused by the house being damaged by")."""
    text = _clean(text)[:TEXT_CHARS]
    first = sentences(text)[0] if text else ""
    return first if first.endswith((".", "!", "?")) or len(text) < TEXT_CHARS - 1 else ""


def _words(text: str) -> set[str]:
    return set(re.findall(r"[a-z']+", text.lower()))


_QUOTED = re.compile(r'"([^"]+)"')


def _copies(text: str, memories: list[str]) -> bool:
    """True when `text` is (nearly) one of the memories, or mostly words someone said in one (a
    line of a chat: "Not bad at all"): a copy, not a reflection."""
    w = _words(text)
    quoted = [_words(q) for m in memories for q in _QUOTED.findall(m)]
    return any(len(w & m) >= 0.8 * max(len(w), len(m), 1) for m in map(_words, memories)) or \
        any(len(w & q) >= 0.8 * max(len(w), 1) for q in quoted)


class FocalPoints(LMFunction[FocalInputs, FocalReply]):
    name = "reflection_focal_points"
    value = "background"
    Output = FocalReply
    priority = 7
    temperature = 0.3
    max_tokens = 128  # three questions of at most 80 characters

    def messages(self, inputs: FocalInputs, reasoning: bool) -> list[dict]:
        system = ("You help a character reflect. From their recent memories, write 2 or 3 short questions "
                  "about what matters most to them now. Reply with JSON: questions (a list of strings).")
        user = (f"Character: {inputs.personality_text}\nRecent memories:\n{_numbered(inputs.memories)}\n"
                f"What are the most important questions {inputs.name} could ask about these memories?")
        return chat(system, user)

    def candidates(self, inputs: FocalInputs) -> list[Candidate]:
        """Questions about what the memories keep coming back to; the broad question is always asked second."""
        return [Candidate(FocalReply(questions=[q] if q == BROAD_QUESTION else [q, BROAD_QUESTION]), q, u, kind)
                for q, u, kind in focal_options(inputs.name, inputs.memories, inputs.people)]

    def rank_messages(self, inputs: FocalInputs) -> list[dict]:
        system = "You help a character reflect. From their recent memories, ask the question that matters most to them now."
        return chat(system, self.messages(inputs, False)[-1]["content"])

    def fallback(self, inputs: FocalInputs) -> FocalReply:
        return FocalReply.model_construct(questions=[])  # "no focal points": valid by declaration

    def check(self, inputs: FocalInputs, out: FocalReply) -> FocalReply:
        seen, questions = set(), []
        for q in out.questions:
            q = _clean(q)
            if len(q) <= TEXT_CHARS and is_prose(q) and q.lower() not in seen and not _copies(q, inputs.memories):
                seen.add(q.lower())
                questions.append(q)
        if not questions:
            raise ValueError("no usable focal question")
        return FocalReply(questions=questions)


class Insights(LMFunction[InsightInputs, InsightReply]):
    name = "reflection_insights"
    value = "background"
    Output = InsightReply
    priority = 7
    temperature = 0.3
    max_tokens = 176  # three statements with evidence lists

    def messages(self, inputs: InsightInputs, reasoning: bool) -> list[dict]:
        system = ("You help a character reflect. Given numbered memories and a question, write 1 to 3 "
                  "insights: short general statements the character could conclude, each with the numbers "
                  "of the memories it rests on. Reply with JSON: insights (a list of objects with "
                  "statement and evidence).")
        user = (f"Character: {inputs.personality_text}\nQuestion: {inputs.question}\n"
                f"Memories:\n{_numbered(inputs.memories)}\n"
                f"What can {inputs.name} conclude?")
        return chat(system, user)

    def candidates(self, inputs: InsightInputs) -> list[Candidate]:
        return [Candidate(InsightReply(insights=[Insight(statement=o.statement, evidence=o.evidence)]),
                          o.statement, o.utility, o.source)
                for o in insight_options(inputs.name, inputs.question, inputs.memories, inputs.people,
                                         inputs.earlier)]

    def rank_messages(self, inputs: InsightInputs) -> list[dict]:
        system = ("You help a character reflect. Given numbered memories and a question, say in one short "
                  "sentence what the character concludes.")
        return chat(system, self.messages(inputs, False)[-1]["content"])

    def fallback(self, inputs: InsightInputs) -> InsightReply:
        return InsightReply.model_construct(insights=[])  # "no insights": valid by declaration

    def check(self, inputs: InsightInputs, out: InsightReply) -> InsightReply:
        """Keep insights whose statement is prose (the small model also writes 'A: 1, A: 2, ...'), not
        bookkeeping ('Erica talked to Ludwig at 18:00'), with at least one valid evidence number (1-based)."""
        kept = []
        for ins in out.insights:
            statement = _whole_sentence(ins.statement)
            evidence = sorted({e for e in ins.evidence if 1 <= e <= len(inputs.memories)})
            readable = is_prose(statement) and not is_bookkeeping(statement)
            if readable and evidence and not _copies(statement, inputs.memories):
                kept.append(Insight(statement=statement, evidence=evidence))
        if not kept:
            raise ValueError("no insight with a statement and valid evidence")
        return InsightReply(insights=kept)


@dataclass
class ReflectionResult:
    t: float
    questions: list[str] = field(default_factory=list)
    insights: list = field(default_factory=list)        # MemoryRecords (thoughts) written
    consolidated: list[str] = field(default_factory=list)  # memory ids made more stable
    calls: list[CallRecord] = field(default_factory=list)


async def reflect(memory: AgentMemory, scheduler, *, t: float, personality_text: str = "",
                  emotion: str = "neutral", intensity: float = 0.0, people: list[str] = ()) -> ReflectionResult:
    """Run one reflection for `memory`'s owner (`people`: the town's cast); always resets the poignancy counter."""
    result = ReflectionResult(t=t)
    text = personality_text or memory.personality_text
    formed = memory.since_last_reflection()
    memory.reset_reflection(t)
    result.consolidated = consolidate(memory.store, formed)
    recent = [r.description for r in memory.recent(RECENT_FOR_FOCUS)]
    if scheduler is None or not recent:
        return result
    focal, rec = await scheduler.call(FocalPoints(), FocalInputs(memory.owner, text, recent, list(people)),
                                      agent=memory.owner, game_time=t)
    result.calls.append(rec)
    result.questions = list(focal.questions)
    for question in result.questions[:MAX_QUESTIONS]:
        found = await memory.retrieve(question, t=t, k=EVIDENCE_K)
        if not found:
            continue
        records = [s.record for s in found]
        earlier = [r.description for r in memory.recent(EARLIER_INSIGHTS, types=["thought"]) if r.evidence]
        inputs = InsightInputs(memory.owner, text, question, [r.description for r in records], list(people), earlier)
        reply, rec = await scheduler.call(Insights(), inputs,
                                          agent=memory.owner, game_time=t, retrieved=[_scored(s) for s in found])
        result.calls.append(rec)
        for ins in reply.insights:
            ids = [records[i - 1].id for i in ins.evidence]
            thought = await memory.remember(ins.statement, t=t, type="thought", emotion=emotion,
                                            intensity=intensity, evidence=ids, poignancy=INSIGHT_POIGNANCY)
            result.insights.append(thought)
    return result


def _scored(s) -> dict:
    return {"id": s.record.id, "description": s.record.description, "score": round(s.score, 4),
            "factors": {k: round(v, 4) for k, v in s.factors.items()}}
