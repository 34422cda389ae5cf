"""Needs (III-A5): rates, hold-still, relief, social rules, urgent text, switch."""

import pytest
from hypothesis import given, strategies as st

from garp.mind.needs import DEFAULT_RATES, Needs, effects_from_keywords
from garp.mind.persona import NEED_NAMES


def test_paper_rates_and_decay():
    assert DEFAULT_RATES == {"hunger": 0.03, "rest": 0.022, "hygiene": 0.015, "social": 0.022,
                             "fun": 0.015, "comfort": 0.011}
    n = Needs(values={k: 0.0 for k in NEED_NAMES})
    n.decay(10)
    for k in NEED_NAMES:
        assert n.values[k] == pytest.approx(DEFAULT_RATES[k] * 10)


@given(st.floats(min_value=0, max_value=500), st.sets(st.sampled_from(NEED_NAMES)))
def test_values_stay_in_unit_interval_and_held_needs_hold_still(hours, held):
    n = Needs()
    before = dict(n.values)
    n.decay(hours, held=held)
    for k in NEED_NAMES:
        assert 0.0 <= n.values[k] <= 1.0
        if k in held:
            assert n.values[k] == before[k]
        else:
            assert n.values[k] >= before[k]


def test_sleeping_through_the_night_is_not_tired_by_dawn():
    n = Needs(values={"rest": 0.7})
    n.decay(8, held={"rest"})
    n.relieve({"rest": 1.0}, fraction=1.0)
    assert n.values["rest"] == 0.0
    assert n.values["hunger"] == pytest.approx(0.2 + 8 * 0.03)


def test_relief_fraction_and_social_rules():
    n = Needs(values={"hunger": 0.8, "social": 0.9})
    n.relieve({"hunger": 0.6}, fraction=0.5)
    assert n.values["hunger"] == pytest.approx(0.5)
    n.join_company()
    assert n.values["social"] == pytest.approx(0.65)
    n.in_company(0.5)
    assert n.values["social"] == pytest.approx(0.55)
    n.conversation()
    assert n.values["social"] == pytest.approx(0.05)
    n.conversation()
    assert n.values["social"] == 0.0


def test_keyword_fallback():
    assert set(effects_from_keywords("cook", "make dinner on the stove")) == {"hunger"}
    assert "rest" in effects_from_keywords("sleep", "sleep in the bed")
    assert "hygiene" in effects_from_keywords("take a shower")
    assert "fun" in effects_from_keywords("play", "play the piano")
    assert "comfort" in effects_from_keywords("sit", "sitting on the sofa")
    assert effects_from_keywords("file", "file the records") == {}


def test_urgent_text_and_summary():
    n = Needs(values={"hunger": 0.7, "social": 0.9, "rest": 0.6})
    assert n.urgent() == ["social", "hunger"]
    assert n.describe_urgent("Oliver") == "Oliver is very lonely and hungry."
    assert Needs(values={"hunger": 0.61}).describe_urgent("Oliver") == "Oliver is hungry."
    calm = Needs()
    assert calm.describe_urgent("Oliver") == "" and calm.summary("Oliver") == "Oliver's needs are met."


def test_switched_off():
    n = Needs(values={"hunger": 0.9}, enabled=False)
    n.decay(100)
    n.relieve({"hunger": 1.0})
    assert n.values["hunger"] == 0.9 and n.urgent() == [] and n.describe_urgent("Oliver") == ""


def test_set_rates_keeps_values():
    n = Needs(values={"fun": 0.3})
    n.set_rates({**DEFAULT_RATES, "fun": 0.08})
    n.decay(1)
    assert n.values["fun"] == pytest.approx(0.38)
    with pytest.raises(ValueError, match="allowed"):
        Needs(values={"thirst": 0.5})
