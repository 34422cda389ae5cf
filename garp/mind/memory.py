"""One agent's memory stream: formation, async poignancy, urgent thoughts, retrieval (III-A2, III-A9).

A memory is written at once with a provisional poignancy (3) and scored by the model in
the background (paper IV-E, "async poignancy"); the score then updates the record, feeds
the urgent-thought buffer (poignancy >= 7, FIFO of 3) and the cumulative counter that
triggers reflection (III-A10). Retrieval embeds the query once and ranks with Eq. 1.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel

from garp.engine.lmfunction import CallRecord, LMFunction, chat
from garp.engine.memory_store import DEFAULT_POIGNANCY, MemoryRecord, MemoryStore, ScoredMemory

log = logging.getLogger(__name__)

# --- tunables (paper III-A2, III-A9, III-A10) ------------------------------------------
URGENT_POIGNANCY = 7          # memories at or above this become urgent thoughts (III-A9)
URGENT_CAPACITY = 3           # FIFO size of the urgent-thought buffer (III-A9)
REFLECTION_THRESHOLD = 50     # cumulative poignancy that triggers reflection (III-A10)
POIGNANCY_PRIORITY = 8        # lowest-priority model work: the fast path never waits on it
POIGNANCY_LEAD_S = 60.0       # in play, wall s a background score may wait before code scores it (the
                              # scheduler sheds it first when the model is saturated); lockstep: no deadline

Rating = Literal[1, 2, 3, 4, 5, 6, 7, 8, 9, 10]


class PoignancyReply(BaseModel):
    rating: Rating


@dataclass
class PoignancyInputs:
    name: str
    personality_text: str
    description: str
    type: str


class Poignancy(LMFunction[PoignancyInputs, PoignancyReply]):
    """How much one memory matters to its owner, 1-10 with anchors."""

    name = "poignancy"
    value = "background"
    Output = PoignancyReply
    priority = POIGNANCY_PRIORITY
    temperature = 0.0
    max_tokens = 16

    def messages(self, inputs: PoignancyInputs, reasoning: bool) -> list[dict]:
        system = (
            "Rate how much a memory matters to the person who has it, on a scale from 1 to 10. "
            "1 = mundane and forgotten by tomorrow (brushing teeth, making the bed, a routine walk). "
            "4 = worth remembering (a pleasant chat, a new recipe). 7 = important (an invitation, "
            "a quarrel, a worry about an upcoming event). 10 = life-changing (a loss, a betrayal, "
            "falling in love). Reply with JSON: rating.")
        user = (f"Person: {inputs.personality_text}\nMemory ({inputs.type}): {inputs.description}\n"
                f"How much does this memory matter to {inputs.name}?")
        return chat(system, user)

    def fallback(self, inputs: PoignancyInputs) -> PoignancyReply:
        return PoignancyReply(rating=DEFAULT_POIGNANCY)


def _rating(value: float) -> int:
    """A caller-given poignancy as an int on the 1-10 scale."""
    return max(1, min(10, int(round(value))))


class AgentMemory:
    """One agent's view of the shared MemoryStore. Uses no clock: callers pass game time `t`."""

    def __init__(self, owner: str, store: MemoryStore, embedder, scheduler=None, *,
                 personality_text: str = "", score_inline: bool = False) -> None:
        self.owner = owner
        # Lockstep runs score each memory before `remember` returns: a background score lands
        # whenever the model gets to it, so a retrieval later in the same job (a reflection's
        # second question after its first insight) would rank differently on a fast or slow run.
        self.score_inline = score_inline
        self.store = store
        self.embedder = embedder
        self.scheduler = scheduler
        self.personality_text = personality_text
        # Urgent thoughts are kept in the order their memories were formed, not the order their
        # scores arrive (concurrent scores land in any order, and a replay must see the same list).
        self._urgent: list[tuple[int, str]] = []  # (formation order, thought), oldest first
        self._formed = 0
        self._order: dict[str, int] = {}  # memory id -> formation order, until its score lands
        self.poignancy_since_reflection = 0
        self.last_reflection_t: float | None = None
        self.calls: list[CallRecord] = []     # poignancy calls, newest last (bounded)
        self.errors: list[str] = []
        self._tasks: set[asyncio.Task] = set()
        self._unscored: list[MemoryRecord] = []

    # --- formation ----------------------------------------------------------------------
    async def remember(self, description: str, *, t: float, type: str, location: str = "",
                       emotion: str = "neutral", intensity: float = 0.0, subject: str = "",
                       predicate: str = "", object: str = "", evidence=(), poignancy: int | None = None,
                       header: str = "") -> MemoryRecord:
        """Write now with a provisional poignancy; the model's score arrives asynchronously
        (before returning when `score_inline`)."""
        order = self._next_order()  # before the await: the order remember() was called in
        vec = (await self.embedder.aembed([description]))[0]
        rec = self._make(description, t=t, type=type, location=location, emotion=emotion, intensity=intensity,
                         subject=subject, predicate=predicate, object=object, evidence=evidence,
                         poignancy=poignancy, header=header)
        self._order[rec.id] = order
        self.store.add(rec, vec)
        if poignancy is not None:
            self._scored(rec, rec.poignancy, count=True)
        elif self.score_inline and self.scheduler is not None:
            await self._score(rec, count=True)
        else:
            self._schedule(rec)
        return rec

    def _make(self, description: str, *, t: float, type: str, poignancy: int | None, intensity: float,
              evidence=(), **fields) -> MemoryRecord:
        return MemoryRecord(
            observer=self.owner, description=description, created=t, type=type,
            emotion_intensity=max(0.0, min(1.0, intensity)), evidence=[str(e) for e in evidence],
            poignancy=_rating(poignancy) if poignancy is not None else DEFAULT_POIGNANCY,
            poignancy_scored=poignancy is not None, **fields)

    def seed(self, persona, t: float) -> list[MemoryRecord]:
        """Load the persona's seed memories (authored rules get their condition as header).

        Seeds do not count toward reflection; those without a poignancy are scored once a
        loop runs (`score_pending`)."""
        seeds = persona.seed_memories
        if not seeds:
            return []
        vecs = self.embedder.embed([s.text for s in seeds])
        out = []
        for s, vec in zip(seeds, vecs, strict=True):
            rec = self._make(s.text, t=t, type=s.type, poignancy=s.poignancy, intensity=0.0,
                             header=s.condition or "")
            self._order[rec.id] = self._next_order()
            self.store.add(rec, vec)
            if s.poignancy is not None:
                self._scored(rec, s.poignancy, count=False)
            else:
                self._unscored.append(rec)
            out.append(rec)
        return out

    def score_pending(self) -> None:
        """Schedule scoring of seeds written before the cognition loop started."""
        pending, self._unscored = self._unscored, []
        for rec in pending:
            self._schedule(rec, count=False)

    # --- async poignancy ----------------------------------------------------------------
    def _schedule(self, rec: MemoryRecord, count: bool = True) -> None:
        if self.scheduler is None:
            self._scored(rec, Poignancy().fallback(self._inputs(rec)).rating, count)
            return
        task = asyncio.get_running_loop().create_task(self._score(rec, count))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _inputs(self, rec: MemoryRecord) -> PoignancyInputs:
        return PoignancyInputs(self.owner, self.personality_text, rec.description, rec.type)

    async def _score(self, rec: MemoryRecord, count: bool) -> None:
        try:
            play = not self.score_inline and hasattr(self.scheduler, "deadline_in")
            deadline = self.scheduler.deadline_in(POIGNANCY_LEAD_S) if play else None
            reply, call = await self.scheduler.call(Poignancy(), self._inputs(rec), agent=self.owner,
                                                    game_time=rec.created, deadline=deadline)
            self.calls = (self.calls + [call])[-50:]
            self.store.update(rec.id, poignancy=reply.rating, poignancy_scored=not call.fallback_used)
            self._scored(rec, reply.rating, count)
        except asyncio.CancelledError:
            raise
        except Exception as e:  # noqa: BLE001 — a closed store must not kill the agent's loop
            self.errors.append(f"poignancy for {rec.id}: {type(e).__name__}: {e}")
            log.warning("poignancy scoring failed for %s: %s", self.owner, e)

    def _next_order(self) -> int:
        self._formed += 1
        return self._formed

    def _scored(self, rec: MemoryRecord, rating: int, count: bool) -> None:
        order = self._order.pop(rec.id, None)
        if count:
            self.poignancy_since_reflection += rating
        if rating >= URGENT_POIGNANCY and not rec.header:  # an authored rule is heeded, not on one's mind
            entry = (order if order is not None else self._next_order(), rec.description)
            others = [u for u in self._urgent if u[1] != rec.description]
            self._urgent = sorted(others + [entry])[-URGENT_CAPACITY:]

    @property
    def urgent_thoughts(self) -> list[str]:
        """The newest URGENT_CAPACITY urgent thoughts, oldest first (III-A9)."""
        return [thought for _, thought in self._urgent]

    @property
    def pending(self) -> int:
        return len(self._tasks)

    async def drain(self) -> None:
        """Wait until every scheduled poignancy score has arrived (lockstep runs, tests)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    # --- save / restore (the memories themselves live in the store) -------------------------
    def state(self) -> dict[str, Any]:
        """Bookkeeping around the store: urgent thoughts, reflection count, unscored seeds, recent calls."""
        return {"urgent_thoughts": list(self.urgent_thoughts), "personality_text": self.personality_text,
                "poignancy_since_reflection": self.poignancy_since_reflection,
                "last_reflection_t": self.last_reflection_t, "unscored": [r.id for r in self._unscored],
                "calls": [c.to_dict() for c in self.calls], "errors": list(self.errors)}

    def restore(self, data: dict[str, Any]) -> None:
        saved = list(data["urgent_thoughts"])  # oldest first, formed before anything after the resume
        self._urgent = [(i - len(saved), thought) for i, thought in enumerate(saved)]
        self.personality_text = data["personality_text"]
        self.poignancy_since_reflection = int(data["poignancy_since_reflection"])
        self.last_reflection_t = data["last_reflection_t"]
        self._unscored = [r for r in (self.store.get(i) for i in data["unscored"]) if r is not None]
        self.calls = [CallRecord(**c) for c in data["calls"]]
        self.errors = list(data["errors"])

    # --- reflection bookkeeping (III-A10) -------------------------------------------------
    def reflection_due(self) -> bool:
        return self.poignancy_since_reflection > REFLECTION_THRESHOLD

    def reset_reflection(self, t: float) -> None:
        self.poignancy_since_reflection = 0
        self.last_reflection_t = t

    def since_last_reflection(self) -> list[MemoryRecord]:
        """Memories formed since the last reflection (all, before the first), newest first."""
        recs = self.store.records(self.owner)
        if self.last_reflection_t is None:
            return recs
        return [r for r in recs if r.created >= self.last_reflection_t]

    # --- retrieval ------------------------------------------------------------------------
    async def retrieve(self, query: str, *, t: float, k: int = 5, types=None, emotion: str | None = None,
                       mode: str = "recency") -> list[ScoredMemory]:
        vec = (await self.embedder.aembed([query]))[0]
        return self.store.retrieve(self.owner, vec, now=t, k=k, types=types, emotion=emotion, mode=mode)

    async def nearest(self, query: str, *, t: float, k: int, skip=lambda rec: False) -> list[ScoredMemory]:
        """The k memories closest to the query by raw cosine (MemoryStore.nearest), none of them touched."""
        vec = (await self.embedder.aembed([query]))[0]
        return self.store.nearest(self.owner, vec, now=t, k=k, skip=skip)

    async def retrieve_by_type(self, query: str, *, t: float, k: int = 5, types=("event", "thought", "chat"),
                               emotion: str | None = None, mode: str = "recency") -> dict[str, list[ScoredMemory]]:
        """One embedding of the query, ranked per memory type (paper IV-B amortisation)."""
        vec = (await self.embedder.aembed([query]))[0]
        return {ty: self.store.retrieve(self.owner, vec, now=t, k=k, types=[ty], emotion=emotion, mode=mode)
                for ty in types}

    def recent(self, n: int = 12, types=None) -> list[MemoryRecord]:
        return self.store.records(self.owner, types)[:n]
