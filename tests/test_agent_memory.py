"""AgentMemory (III-A2, III-A9) and reflection (III-A10), partly against the real model."""

import asyncio

import pytest

from garp.engine.memory_store import MemoryStore
from garp.mind import reflection as refl
from garp.mind.memory import AgentMemory, Poignancy, PoignancyInputs
from garp.mind.persona import load_personas
from garp.mind.reflection import FocalInputs, FocalPoints, FocalReply, InsightInputs, InsightReply, Insights, reflect


@pytest.fixture
def store(tmp_path):
    s = MemoryStore(tmp_path / "memories")
    yield s
    s.close()


def test_urgent_thoughts_fifo_and_counter(store, embedder):
    mem = AgentMemory("Ludwig", store, embedder)

    async def run():
        for i in range(4):
            await mem.remember(f"urgent matter number {i}", t=i, type="thought", poignancy=8)
        await mem.remember("brushed my teeth", t=9, type="event", poignancy=2)
        await mem.remember("urgent matter number 2", t=10, type="thought", poignancy=9)
    asyncio.run(run())
    assert list(mem.urgent_thoughts) == ["urgent matter number 1", "urgent matter number 3", "urgent matter number 2"]
    assert mem.poignancy_since_reflection == 8 * 4 + 2 + 9 and not mem.reflection_due()
    asyncio.run(mem.remember("one more thing", t=11, type="thought", poignancy=7))
    assert mem.poignancy_since_reflection == 50 and not mem.reflection_due()  # must pass 50
    asyncio.run(mem.remember("and another", t=12, type="thought", poignancy=1))
    assert mem.reflection_due()


def test_urgent_thoughts_keep_the_order_memories_were_formed_in_not_the_order_scores_land(store, embedder):
    """Concurrent poignancy scores land in any order; a replay (and a resumed save) must see the
    same urgent thoughts, so the buffer orders by formation and keeps the newest three."""
    mem = AgentMemory("Jonah", store, embedder)
    recs = mem.seed(_persona_with_worries(4), t=0.0)  # formed in order, their scores not yet in
    for rec in reversed(recs):  # the last formed is scored first
        mem._scored(rec, 9, count=False)
    assert list(mem.urgent_thoughts) == ["worry number 1", "worry number 2", "worry number 3"]
    again = AgentMemory("Jonah", store, embedder)
    again.restore(mem.state())
    asyncio.run(again.remember("a new worry", t=5.0, type="thought", poignancy=9))
    assert list(again.urgent_thoughts) == ["worry number 2", "worry number 3", "a new worry"]


def _persona_with_worries(n: int):
    from garp.mind.persona import Persona
    return Persona(name="Jonah", age=36, personality="Jonah paints.", home="Jonah's House",
                   seed_memories=[{"text": f"worry number {i}"} for i in range(n)])


def test_no_scheduler_scores_with_the_fallback(store, embedder):
    mem = AgentMemory("Oliver", store, embedder, scheduler=None)
    rec = asyncio.run(mem.remember("ate a sandwich", t=5.0, type="event", emotion="Content", intensity=0.7,
                                   subject="Oliver", predicate="ate", object="sandwich", location="Town Office"))
    stored = store.get(rec.id)
    assert stored.poignancy == 3 and stored.emotion == "content" and stored.location == "Town Office"
    assert stored.subject == "Oliver" and mem.poignancy_since_reflection == 3
    assert Poignancy().fallback(PoignancyInputs("Oliver", "", "x", "event")).rating == 3


def test_seed_memories_with_rules_and_retrieval(store, embedder):
    ludwig = load_personas()["Ludwig"]
    mem = AgentMemory("Ludwig", store, embedder, scheduler=None)
    seeded = mem.seed(ludwig, t=0.0)
    assert len(seeded) == len(ludwig.seed_memories)
    rules = [r for r in seeded if r.header]
    assert rules and rules[0].header == "When planning the birthday party"
    assert mem.poignancy_since_reflection == 0  # seeds do not trigger reflection
    assert any("birthday" in u for u in mem.urgent_thoughts)
    found = asyncio.run(mem.retrieve("birthday party plans", t=3600.0, k=2))
    assert found and "birthday" in found[0].record.description
    assert set(found[0].factors) >= {"poignancy", "similarity", "recency"}
    by_type = asyncio.run(mem.retrieve_by_type("music", t=3600.0, k=3, types=("thought", "preference")))
    assert all(s.record.type == "preference" for s in by_type["preference"])
    mem.score_pending()  # no scheduler: unscored seeds get the fallback rating right away
    assert all(store.get(r.id).poignancy >= 1 for r in seeded)


def test_reflection_output_checks():
    memories = ["Ludwig invited me to his birthday party.", "I practised the piano."]
    fi = FocalInputs("Lena", "p", memories)
    ok = FocalPoints().check(fi, FocalReply(questions=["What does Ludwig's party mean to me?",
                                                       "What does Ludwig's party mean to me?"]))
    assert ok.questions == ["What does Ludwig's party mean to me?"]
    with pytest.raises(ValueError):
        FocalPoints().check(fi, FocalReply.model_construct(questions=["Ludwig invited me to his birthday party?"]))
    ii = InsightInputs("Lena", "p", "q", memories)
    out = Insights().check(ii, InsightReply.model_validate(
        {"insights": [{"statement": "Lena has friends who value her music", "evidence": [1, 2, 7]},
                      {"statement": "I practised the piano.", "evidence": [2]},
                      {"statement": "Lena values routine", "evidence": [9]}]}))
    assert [(i.statement, i.evidence) for i in out.insights] == [("Lena has friends who value her music", [1, 2])]
    # what the small model writes when it loses the thread is not stored as a thought
    for junk in ("A: 1, A: 2, A: 3, A: 4, A: 5, A: 6,", "Jake's House", "12:30am, 11:30am, 12:30am",
                 "She is good at practicing every night to practice her recital; she looks exhausted; she's.",
                 "Arjun is private about his own troubles, a methodical chef, and a.",  # cut off mid-sentence
                 "Erica talked to Ludwig at Erica's House at 18:00.",  # bookkeeping, not an insight
                 "My bedroom is messy, she is curious, she is introverted, she is very curious, she is.",
                 "Not proper at all,",  # a fragment the model left on a comma (it was said in chats)
                 "The house was damaged by accident and the accident was caused by the house being damaged by"):
        with pytest.raises(ValueError):
            Insights().check(ii, InsightReply.model_validate({"insights": [{"statement": junk, "evidence": [1]}]}))
        with pytest.raises(ValueError):
            FocalPoints().check(fi, FocalReply(questions=[junk]))
    assert Insights().check(ii, InsightReply.model_validate(
        {"insights": [{"statement": "Ludwig is kind", "evidence": [1]}]})).insights[0].statement == "Ludwig is kind"
    heard = InsightInputs("Maya", "p", "q", ['Maya talked with Priya and told Priya: "Not bad at all, thank you."'])
    with pytest.raises(ValueError):  # a chat's line repeated is no insight, and would be said again as one
        Insights().check(heard, InsightReply.model_validate({"insights": [{"statement": "Not bad at all.",
                                                                           "evidence": [1]}]}))


def test_reflection_without_model_resets_and_consolidates(store, embedder):
    mem = AgentMemory("Lena", store, embedder, scheduler=None)

    async def run():
        calm = await mem.remember("had tea", t=1.0, type="event", poignancy=10)
        intense = await mem.remember("froze on stage", t=2.0, type="event", poignancy=10, emotion="anxious",
                                     intensity=0.9)
        return calm, intense, await reflect(mem, None, t=10.0)
    calm, intense, result = asyncio.run(run())
    assert mem.poignancy_since_reflection == 0 and not mem.reflection_due()
    assert result.insights == [] and result.consolidated == [intense.id]
    assert store.get(intense.id).stability == pytest.approx(intense.stability + 0.5)


@pytest.mark.model
def test_remember_provisional_then_scored_by_model(store, embedder, scheduler):
    mem = AgentMemory("Ludwig", store, embedder, scheduler, personality_text="Ludwig is a composer.")

    async def run():
        rec = await mem.remember("Erica said she will bring her guitar to my birthday party.", t=100.0, type="chat")
        provisional = store.get(rec.id)
        assert mem.pending == 1
        await mem.drain()
        return provisional, store.get(rec.id)
    provisional, scored = asyncio.run(run())
    assert provisional.poignancy == 3 and not provisional.poignancy_scored
    call = mem.calls[-1]
    assert call.function == "poignancy" and 1 <= scored.poignancy <= 10
    assert scored.poignancy_scored == (not call.fallback_used)
    assert mem.poignancy_since_reflection == scored.poignancy and mem.errors == []


@pytest.mark.model
def test_lockstep_memory_is_scored_before_remember_returns(store, embedder, scheduler):
    """Lockstep: a retrieval right after a write (a reflection's next question) must see the
    model's score, not whatever the background task had reached by then."""
    mem = AgentMemory("Ludwig", store, embedder, scheduler, personality_text="Ludwig is a composer.",
                      score_inline=True)

    async def run():
        rec = await mem.remember("Erica said she cannot come to my birthday party after all.", t=100.0, type="chat")
        return mem.pending, store.get(rec.id)
    pending, rec = asyncio.run(run())
    call = mem.calls[-1]
    assert pending == 0 and call.function == "poignancy"
    assert rec.poignancy == call.parsed["rating"] and rec.poignancy_scored == (not call.fallback_used)
    assert mem.poignancy_since_reflection == rec.poignancy


@pytest.mark.model
def test_reflection_at_fifty_with_model(store, embedder, scheduler, monkeypatch):
    monkeypatch.setattr(refl, "MAX_QUESTIONS", 1)  # keep the real-model work to two calls
    mem = AgentMemory("Lena", store, embedder, scheduler=None, personality_text="Lena is a shy pianist.")
    notes = ["Ludwig invited me to his birthday party on Saturday.", "I practised the recital piece for two hours.",
             "Dara cooked dinner for me after practice.", "I am afraid my hands will shake at the recital.",
             "Dara promised to sit in the front row at my recital.", "I slept badly before the rehearsal."]

    async def run():
        for i, n in enumerate(notes):
            await mem.remember(n, t=600.0 * i, type="event", poignancy=9)
        assert mem.reflection_due()
        return await reflect(mem, scheduler, t=4000.0, people=["Lena", "Ludwig", "Dara"])
    result = asyncio.run(run())
    assert mem.poignancy_since_reflection == sum(3 for _ in result.insights)  # insights scored by fallback
    assert 1 <= len(result.calls) <= 2 and result.calls[0].function == "reflection_focal_points"
    ids = {r.id for r in store.records("Lena")}
    if result.calls[0].fallback_used:
        assert result.questions == [] and result.insights == []
    for thought in result.insights:
        stored = store.get(thought.id)
        assert stored.type == "thought" and stored.evidence and set(stored.evidence) <= ids
    for call in result.calls:  # questions and insights are ranked from code's candidates, not generated
        assert call.mode == "score" and not call.fallback_used and call.parsed["source"]
