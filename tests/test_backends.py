"""Embedded llama.cpp backend with the real bundled model."""

import json

import pytest

from garp.engine.backends import Completion, compile_grammar, make_backend
from garp.errors import GarpError

SCHEMA = {"title": "Greeting", "type": "object",
          "properties": {"mood": {"type": "string", "enum": ["glad", "tired", "busy"]},
                         "line": {"type": "string", "maxLength": 40}},
          "required": ["mood", "line"]}
# Room for the longest reply the schema allows (40 characters, as digits a token each) and
# its JSON: a shorter budget can cut a valid reply off mid-string.
BUDGET = 64
MESSAGES = [{"role": "system", "content": "You are Ana, a baker in a small town. Reply in JSON."},
            {"role": "user", "content": "Your neighbour Tom says good morning. How do you answer?"}]


def test_schema_constrained_completion_validates(llm_backend):
    c = llm_backend.complete(MESSAGES, schema=SCHEMA, temperature=0.0, max_tokens=BUDGET, seed=1)
    assert isinstance(c, Completion) and c.completion_tokens > 0 and c.prompt_tokens > 20
    data = json.loads(c.text)
    assert data["mood"] in {"glad", "tired", "busy"} and len(data["line"]) <= 40


def test_deterministic_at_temperature_zero(llm_backend):
    a = llm_backend.complete(MESSAGES, schema=SCHEMA, temperature=0.0, max_tokens=BUDGET, seed=7)
    llm_backend.score_options(MESSAGES, ["hello"])  # scoring in between must not disturb the state
    b = llm_backend.complete(MESSAGES, schema=SCHEMA, temperature=0.0, max_tokens=BUDGET, seed=7)
    assert a.text == b.text


def test_scoring_ranks_options(llm_backend):
    msgs = [{"role": "system", "content": "You answer with one word."},
            {"role": "user", "content": "What is the opposite of hot?"}]
    opts = ["cold", "purple sandwich engine"]
    scores = llm_backend.score_options(msgs, opts)
    assert len(scores) == 2 and all(s < 0 for s in scores)
    assert scores[0] > scores[1]
    assert llm_backend.score_options(msgs, opts) == pytest.approx(scores, abs=1e-4)


@pytest.mark.model
def test_options_scored_together_score_as_each_scored_alone(llm_backend):
    """One batch for all options (garp/engine/scoring.py) gives each option the score it gets alone,
    in any company and in any number (more than one batch's worth of sequences included)."""
    msgs = [{"role": "system", "content": "You answer with one word."},
            {"role": "user", "content": "Name a colour."}]
    opts = ["red", "blue", "a very long and winding answer that is not a colour at all", "green"]
    together = llm_backend.score_options(msgs, opts)
    alone = [llm_backend.score_options(msgs, [o])[0] for o in opts]
    assert together == pytest.approx(alone, abs=0.05)
    many = [f"colour number {k}" for k in range(20)]  # past the 16 sequences of one pass
    scores = llm_backend.score_options(msgs, many + opts)
    assert len(scores) == 24 and scores[-4:] == pytest.approx(together, abs=0.05)


def test_model_id_is_file_sha(llm_backend, bundled_model_spec):
    assert llm_backend.model_id == bundled_model_spec.sha256


def test_rejected_schema_names_its_title(llm_backend):
    bad = {"title": "BrokenPlan", "type": "object", "properties": {"x": {"type": "string", "pattern": "abc"}}}
    with pytest.raises(GarpError, match="BrokenPlan"):
        llm_backend.complete(MESSAGES, schema=bad, max_tokens=8)
    with pytest.raises(GarpError, match="Weird"):
        compile_grammar({"title": "Weird", "type": "no-such-type"})


def test_make_backend_errors(tmp_path):
    with pytest.raises(GarpError, match="unknown model name"):
        make_backend(model="not-a-model")
    with pytest.raises(GarpError, match="not an http"):
        make_backend(server="localhost:8080")


def test_two_threads_sharing_one_backend_get_valid_answers(llm_backend):
    """Two simulations sharing the model once crashed the process. Generations now decode
    together (valid, not bit-identical: tests/test_batching.py); scoring waits for its turn
    and is exact."""
    from concurrent.futures import ThreadPoolExecutor

    expected = llm_backend.complete(MESSAGES, schema=SCHEMA, temperature=0.0, max_tokens=BUDGET, seed=3).text
    opts = ["hello", "goodbye"]
    expected_scores = llm_backend.score_options(MESSAGES, opts)

    def work(i: int):
        if i % 2:
            return llm_backend.score_options(MESSAGES, opts)
        return llm_backend.complete(MESSAGES, schema=SCHEMA, temperature=0.0, max_tokens=BUDGET, seed=3).text

    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(work, range(8)))
    assert all(json.loads(r) for r in results[0::2]) and expected
    assert all(r == pytest.approx(expected_scores, abs=1e-4) for r in results[1::2])

