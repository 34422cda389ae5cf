"""Emotion (III-A3): state bounds, history of 20, contagion cap, appraisal with the real model."""

import asyncio

import pytest
from hypothesis import given, strategies as st

from garp.mind.emotion import (CONTAGION_CAP, EmotionAppraisal, EmotionReply, EmotionState, EmotionSystem,
                               consolidate, contagion_nudge)
from garp.mind.persona import EMOTION_LABELS, Persona
from garp.mind.personality import compile_personality

LENA = Persona(name="Lena", age=23, personality="Lena is a shy pianist.", traits="quite introverted, very organized",
               home="Lena's House", emotional_baseline={"label": "anxious", "valence": -0.2, "intensity": 0.45,
                                                        "description": "Lena is quietly tense."})


def system(enabled=True):
    return EmotionSystem.for_persona(LENA, enabled=enabled)


def test_history_keeps_twenty_states():
    es = system()
    for i in range(30):
        es.set(EmotionState(label="content", intensity=0.5, valence=0.3, description=f"state {i}", t=i))
    assert len(es.history) == 20
    assert es.history[-1].description == "state 29" and es.history[0].description == "state 10"
    assert [s.t for s in es.trajectory()] == [26, 27, 28, 29]


words = st.sampled_from(["happy", "great", "sad", "worried", "the", "piano", "love", "awful", "thanks"])


@given(st.lists(st.lists(words, max_size=30).map(" ".join), max_size=8), st.floats(min_value=-2, max_value=2))
def test_contagion_is_capped(lines, closeness):
    assert abs(contagion_nudge(lines, closeness)) <= CONTAGION_CAP + 1e-12


def test_contagion_direction_and_closeness_scaling():
    happy = ["I am so happy and excited, this is wonderful!"]
    assert contagion_nudge(happy, 0.0) == 0.0
    assert 0 < contagion_nudge(happy, 0.2) < contagion_nudge(happy, 0.4) <= CONTAGION_CAP
    assert contagion_nudge(["I'm worried and scared, it is awful."], 1.0) < 0
    es = system()
    before = es.current.valence
    nudge = es.apply_contagion(happy * 5, 1.0, t=10, partner="Dara")
    assert nudge == pytest.approx(CONTAGION_CAP)
    assert es.current.valence == pytest.approx(before + CONTAGION_CAP)
    assert es.current.cause == "mood caught from Dara" and len(es.history) == 2


def test_check_clamps_and_fallback_relaxes_toward_baseline():
    es = system()
    es.set(EmotionState(label="sad", intensity=0.9, valence=-0.8, description="Lena lost her music."))
    inputs = es.inputs("p", "rule", "something happened")
    fn = EmotionAppraisal()
    out = fn.check(inputs, EmotionReply.model_construct(label="joyful", intensity=7.0, valence=-3.0,
                                                        description="She  is  thrilled."))
    assert (out.intensity, out.valence, out.description) == (1.0, 1.0, "She is thrilled.")
    with pytest.raises(ValueError):
        fn.check(inputs, EmotionReply.model_construct(label="sad", intensity=0.5, valence=-0.5, description="Sad"))
    fb = fn.fallback(inputs)
    assert fb.label == "sad"
    assert fb.intensity == pytest.approx(0.9 + (0.45 - 0.9) * 0.1)
    assert fb.valence == pytest.approx(-0.8 + (-0.2 + 0.8) * 0.1)


def test_withdrawn_and_switch_off():
    es = system()
    assert not es.withdrawn() and es.chat_multiplier() == 1.0
    es.set(EmotionState(label="sad", intensity=0.8, valence=-0.6, description="Lena feels low."))
    assert es.withdrawn() and es.chat_multiplier() < 1.0
    assert es.describe() == "sad (0.8): Lena feels low." and es.tone().startswith("Lena feels very sad.")
    off = system(enabled=False)
    off.set(EmotionState(label="angry", intensity=1.0, valence=-1.0))
    assert off.current.label == "anxious" and not off.withdrawn()
    state, rec = asyncio.run(off.appraise(None, compile_personality(LENA), "a storm", t=5))
    assert state.label == "anxious" and rec is None


def test_consolidation_boosts_only_intense_memories(tmp_path):
    import numpy as np
    from garp.engine.memory_store import MemoryRecord, MemoryStore
    store = MemoryStore(tmp_path / "mem")
    try:
        calm = MemoryRecord(observer="Lena", description="tea", created=0.0, emotion_intensity=0.2)
        intense = MemoryRecord(observer="Lena", description="recital", created=1.0, emotion="anxious",
                               emotion_intensity=0.9, stability=2.0)
        capped = MemoryRecord(observer="Lena", description="cap", created=2.0, emotion="sad",
                              emotion_intensity=0.9, stability=4.8)
        for i, r in enumerate((calm, intense, capped)):
            v = np.zeros(384, np.float32); v[i] = 1
            store.add(r, v)
        assert set(consolidate(store, [calm, intense, capped])) == {intense.id, capped.id}
        assert store.get(intense.id).stability == pytest.approx(2.5)
        assert store.get(capped.id).stability == 5.0
        assert store.get(calm.id).stability == calm.stability
    finally:
        store.close()


@pytest.mark.model
def test_real_model_appraisal_gives_valid_state_or_fallback(scheduler):
    es = system()
    cp = compile_personality(LENA)

    async def run():
        return await es.appraise(scheduler, cp, "Dara promised to sit in the front row at Lena's recital.",
                                 t=3600.0, needs_summary="Lena is hungry.")
    state, rec = asyncio.run(run())
    assert rec is not None and rec.function == "emotion_appraisal"
    assert state.label in EMOTION_LABELS and 0 <= state.intensity <= 1 and -1 <= state.valence <= 1
    assert es.current is state and len(es.history) == 2
    if rec.fallback_used:
        assert state.label == "anxious" and state.valence == pytest.approx(-0.2)
    else:
        assert len(state.description.split()) >= 2
    assert "By temperament, Lena is quite introverted and very organized." in rec.messages[-1]["content"]
    assert "Lena is hungry." in rec.messages[-1]["content"]


def test_check_prefers_the_label_named_in_the_description():
    es = system()
    inputs = es.inputs("p", "rule", "x")
    out = EmotionAppraisal().check(inputs, EmotionReply(description="Lena is anxious about the recital.",
                                                        label="lonely", intensity=0.5, valence=0.5))
    assert out.label == "anxious" and out.valence == -0.5
    kept = EmotionAppraisal().check(inputs, EmotionReply(description="Lena is calm but lonely tonight.",
                                                         label="lonely", intensity=0.5, valence=-0.2))
    assert kept.label == "lonely"
