"""Reflection insights built in code for the small model to rank (issue 18)."""

from garp.engine.lmfunction import checked_candidates
from garp.mind.insight_candidates import BROAD_QUESTION, focal_options, insight_options
from garp.mind.reflection import FocalInputs, FocalPoints, InsightInputs, Insights

CAST = ["Maya", "Jonah", "Erica", "Lena", "Dara", "Ludwig"]
MAYA = ["I missed Jonah's exhibition opening after promising to be there, and I feel terrible about it.",
        "I want to apologize to Jonah properly, in person.",
        'Maya talked with Erica at Maya\'s House and told Erica: "I want to apologize to Jonah properly."',
        "Maya saw Jonah at Maya's House",
        "Erica noticed the stove in Maya's House kitchen was dirty",
        "Maya's plan for Monday: wake up at 07:00, dinner party at Maya's at 19:00"]
JONAH = ["Maya promised to come to my exhibition opening and never showed up.",
         "Jonah saw Maya at Hobbs Cafe", "Jonah saw Erica using the dining table in Hobbs Cafe cafe hall"]


def _statements(owner, question, memories, earlier=()):
    return {o.statement: o for o in insight_options(owner, question, memories, CAST, list(earlier))}


def test_what_a_memory_says_outright_comes_before_what_counts_suggest():
    maya = _statements("Maya", "How do I feel about Jonah?", MAYA)
    first = next(iter(maya.values()))
    assert first.statement == "I need to make things right with Jonah."
    assert all("Jonah" in MAYA[i - 1] for i in first.evidence)
    assert "It matters to me to apologize to Jonah properly, in person." in maya
    assert "I feel let down by Jonah." not in maya  # she let him down, not he her
    jonah = _statements("Jonah", "Why am I upset?", JONAH)
    assert "I feel let down by Maya." in jonah and "I need to make things right with Maya." not in jonah
    assert "I spend a lot of my time at Hobbs Cafe." in jonah  # 'Hobbs Cafe cafe hall' is Hobbs Cafe


def test_statements_are_the_owners_own_words_and_not_drawn_twice():
    maya = _statements("Maya", "What matters to me?", MAYA)
    assert maya and all("Maya" not in s for s in maya)  # first person, never "Maya feels..."
    assert "My home keeps getting messy and needs looking after." in _statements("Maya", "q", MAYA[3:])
    assert not any("Maya's" in s for s in maya)  # the plan's "at Maya's" is no place of its own
    again = _statements("Maya", "What matters to me?", MAYA, earlier=["I need to make things right with Jonah."])
    assert "I need to make things right with Jonah." not in again


def test_every_candidate_passes_the_checks_generation_has():
    inputs = InsightInputs("Maya", "p", "How do I feel about Jonah?", MAYA, CAST)
    offered = checked_candidates(Insights(), inputs)
    assert len(offered) == len(insight_options("Maya", inputs.question, MAYA, CAST))
    for c in offered:
        [insight] = c.out.insights
        assert insight.statement == c.text and all(1 <= e <= len(MAYA) for e in insight.evidence)


def test_focal_questions_ask_about_what_the_memories_keep_coming_back_to():
    maya = [q for q, _, _ in focal_options("Maya", MAYA, CAST)]
    assert maya[0] == "What should I do about Jonah?" and BROAD_QUESTION in maya
    jonah = [q for q, _, _ in focal_options("Jonah", JONAH, CAST)]
    assert jonah[0] == "What should I do about Maya?" and "What does the exhibition opening mean to me?" in jonah
    offered = checked_candidates(FocalPoints(), FocalInputs("Maya", "p", MAYA, CAST))
    assert len(offered) == len(maya)  # every question passes the checks generated ones have
    assert all(c.out.questions[-1] == BROAD_QUESTION for c in offered)  # the broad one is always asked too


def test_a_wish_is_not_drawn_from_an_earlier_conclusion_about_a_person():
    """"I would like to spend more time with Felix." (a conclusion about Felix, said only to him) came back as
    the wish "It matters to me to spend more time with Felix." and was said to Dara."""
    found = insight_options("Arjun", "What do I want most right now?",
                            ["I would like to spend more time with Felix.", "I want to learn the new espresso machine."],
                            ["Felix", "Dara"])
    statements = [o.statement for o in found]
    assert "It matters to me to learn the new espresso machine." in statements
    assert not any(s.startswith("It matters to me to spend") for s in statements), statements
