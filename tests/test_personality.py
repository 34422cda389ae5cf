"""Compiled personality: temperament text, voice lines and the numeric rules of III-A4."""

from hypothesis import given, strategies as st

from garp.errors import GarpError
from garp.mind.persona import AXES, GRADES, Persona, parse_traits
from garp.mind.personality import (RATE_MAX, RATE_MIN, VOICE_EXEMPLARS, chat_probability,
                                   compile_personality, scale_by_warmth, trait_axis_values,
                                   traits_from_axis_values, with_axis)
import pytest

STOPS = [i / 4 for i in range(-4, 5)]
axis_values = st.fixed_dictionaries({a: st.sampled_from(STOPS) for a in AXES})
grades = st.sampled_from(list(GRADES))
rates = st.floats(min_value=0.0, max_value=0.2)


def persona(traits="", **kw):
    return Persona(name="Ludwig", age=40, personality="Ludwig writes music.", traits=traits, home="Ludwig's House", **kw)


def test_temperament_sentence_and_adjectives():
    cp = compile_personality(persona("very curious, a bit disorganized"))
    assert cp.temperament_sentence == "By temperament, Ludwig is very curious and a bit disorganized."
    assert cp.personality_text == "Ludwig writes music. By temperament, Ludwig is very curious and a bit disorganized."
    assert cp.adjectives == "curious, disorganized"
    three = compile_personality(persona("a bit warm, quite organized, extremely introverted"))
    assert three.temperament_sentence.endswith("is a bit warm, quite organized and extremely introverted.")
    silent = compile_personality(persona(""))
    assert silent.temperament_sentence == "" and silent.personality_text == "Ludwig writes music."
    assert silent.voice_lines() == [] and silent.adjectives == ""


def test_voice_exemplars_cover_every_pole_and_grade_and_are_distinct():
    lines = [VOICE_EXEMPLARS[p][g] for poles in AXES.values() for p in poles for g in GRADES]
    assert len(lines) == 32 and len(set(lines)) == 32
    cp = compile_personality(persona("a bit warm, extremely introverted, quite curious"))
    assert cp.voice_lines() == [VOICE_EXEMPLARS["introverted"]["extremely"], VOICE_EXEMPLARS["curious"]["quite"]]


@given(axis_values, st.fixed_dictionaries({n: rates for n in ("hunger", "rest", "hygiene", "social", "fun", "comfort")}))
def test_need_rates_follow_eq2_and_clamp(values, base):
    p = persona(traits_from_axis_values(values), needs_profile=base)
    cp = compile_personality(p)
    pressed = {"sociability": "social", "order": "hygiene", "novelty": "fun"}
    for need, r in cp.need_rates.items():
        assert RATE_MIN <= r <= RATE_MAX
        axis = next((a for a, n in pressed.items() if n == need), None)
        v = values.get(axis, 0.0) if axis else 0.0
        expected = base[need] * (1 + 0.5 * v if v > 0 else 1 + 0.4 * v)
        assert r == pytest.approx(min(RATE_MAX, max(RATE_MIN, expected)))


def test_grade_scaling_examples():
    base = {"social": 0.04}
    assert compile_personality(persona("extremely extraverted", needs_profile=base)).need_rates["social"] == pytest.approx(0.06)
    assert compile_personality(persona("a bit introverted", needs_profile=base)).need_rates["social"] == pytest.approx(0.036)
    assert compile_personality(persona("very curious")).need_rates["fun"] == pytest.approx(0.015 * 1.375)
    assert compile_personality(persona("quite disorganized")).need_rates["hygiene"] == pytest.approx(0.015 * 0.8)
    assert compile_personality(persona("", needs_profile={"hunger": 0.5 / 4})).need_rates["hunger"] == RATE_MAX


@given(st.floats(min_value=0.0, max_value=1.0), grades)
def test_introvert_chat_probability_bounds(p, grade):
    t = parse_traits(f"{grade} introverted")[0]
    q = chat_probability(p, t)
    assert min(0.3, p) - 1e-12 <= q <= p + 1e-12
    assert q == pytest.approx(max(p * (1 - 0.6 * GRADES[grade]), min(0.3, p)))
    e = chat_probability(p, parse_traits(f"{grade} extraverted")[0])
    assert p - 1e-12 <= e <= 1.0
    assert chat_probability(0.0, parse_traits(f"{grade} extraverted")[0]) == 0.0


@given(st.floats(min_value=-1.0, max_value=1.0), grades)
def test_warmth_scaling(delta, grade):
    g = GRADES[grade]
    warm = scale_by_warmth(delta, parse_traits(f"{grade} warm")[0])
    direct = scale_by_warmth(delta, parse_traits(f"{grade} direct")[0])
    if delta > 0:
        assert warm == pytest.approx(delta * (1 + g)) and direct == pytest.approx(delta * (1 - 0.3 * g))
        assert warm >= delta >= direct
    else:
        assert warm == pytest.approx(delta * (1 - 0.3 * g)) and direct == pytest.approx(delta)
        assert abs(warm) <= abs(delta)
    assert scale_by_warmth(delta, None) == delta


@given(axis_values, axis_values)
def test_rederivation_is_idempotent(first, second):
    p = persona("very curious, a bit disorganized", chat_probability=0.4)
    edited = compile_personality(p, traits_from_axis_values(first))
    again = compile_personality(p, traits_from_axis_values(second))
    back = compile_personality(p, traits_from_axis_values(first))
    assert back == edited
    assert compile_personality(p, edited.traits_string) == edited
    assert again.base_rates == edited.base_rates == p.needs_profile.rates()
    assert again.base_chat_probability == 0.4
    assert trait_axis_values(edited.traits_string) == first


def test_slider_helpers():
    assert traits_from_axis_values({"sociability": 0.75, "novelty": 0.25}) == "very extraverted, a bit curious"
    assert traits_from_axis_values({"warmth": -1, "order": 0}) == "extremely direct"
    assert with_axis("very curious, a bit disorganized", "order", 0.0) == "very curious"
    with pytest.raises(GarpError, match="not a stop"):
        traits_from_axis_values({"warmth": 0.3})
    with pytest.raises(GarpError, match="unknown axis.*sociability"):
        traits_from_axis_values({"mood": 0.5})
    with pytest.raises(GarpError, match="traits"):
        compile_personality(persona(""), "very warm, a bit direct")
