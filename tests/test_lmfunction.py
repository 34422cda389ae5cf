"""LMFunction: schema -> grammar -> validation -> check -> fallback; prompt budget."""

import json
from typing import Literal

from pydantic import BaseModel, Field

from garp.engine.backends import Completion
from garp.engine.lmfunction import LMFunction, fit_budget, run_choice, run_function


class Reply(BaseModel):
    mood: Literal["glad", "tired", "busy"]
    line: str = Field(max_length=40)


class Greet(LMFunction):
    name = "greet"
    Output = Reply
    max_tokens = 64  # the longest line the schema allows (40 characters, a token each) and its JSON

    def messages(self, inputs, reasoning):
        return [{"role": "system", "content": "You are Ana, a baker. Reply in JSON."},
                {"role": "user", "content": f"{inputs['name']} says hello. Answer briefly."}]

    def fallback(self, inputs):
        return Reply(mood="busy", line="Morning!")


class NeverGlad(Greet):
    name = "never_glad"

    def check(self, inputs, out):
        raise ValueError("rejected by check")


class Scripted:
    """A backend that returns fixed text, to exercise parse failures deterministically."""

    def __init__(self, text, reasoning=False):
        from garp.engine.models import ModelProfile

        self.text, self.profile, self.model_id = text, ModelProfile(reasoning_field=reasoning), "scripted"
        self.seen = []

    def complete(self, messages, *, schema=None, temperature=0.0, max_tokens=128, seed=0):
        self.seen.append(schema)
        return Completion(self.text, 10, 5)

    def score_options(self, messages, options, prefix=""):
        raise RuntimeError("no scoring here")


def test_real_model_output_validates(llm_backend):
    out, rec = run_function(Greet(), {"name": "Tom"}, llm_backend, agent="Ana", game_time=3600.0)
    assert isinstance(out, Reply) and not rec.fallback_used and rec.error is None
    assert rec.parsed == out.model_dump() and json.loads(rec.raw)["mood"] == out.mood
    assert rec.completion_tokens > 0 and rec.latency_s > 0 and rec.function == "greet" and rec.game_time == 3600.0


def test_check_rejection_gives_fallback(llm_backend):
    out, rec = run_function(NeverGlad(), {"name": "Tom"}, llm_backend, agent="Ana")
    assert out == Reply(mood="busy", line="Morning!") and rec.fallback_used and "rejected by check" in rec.error
    assert rec.raw  # the model's reply is still recorded


def test_invalid_json_and_backend_errors_give_fallback():
    out, rec = run_function(Greet(), {"name": "Tom"}, Scripted("{not json"), agent="Ana")
    assert rec.fallback_used and rec.error.startswith("invalid JSON") and out.line == "Morning!"
    out, rec = run_function(Greet(), {"name": "Tom"}, Scripted('{"mood": "angry", "line": "x"}'), agent="Ana")
    assert rec.fallback_used and "mood" in rec.error
    idx, rec = run_choice(Scripted(""), [{"role": "user", "content": "?"}], ["a", "b", "c"], mode="score",
                          agent="Ana", utilities=[0.1, 0.9, 0.2])
    assert idx == 1 and rec.fallback_used and "no scoring" in rec.error


def test_reasoning_field_leads_schema_and_is_stripped():
    schema = Greet.schema(reasoning=True)
    assert list(schema["properties"])[0] == "reasoning" and schema["properties"]["reasoning"]["maxLength"] <= 100
    assert "reasoning" not in Greet.schema(reasoning=False)["properties"]
    backend = Scripted('{"reasoning": "he is nice", "mood": "glad", "line": "Hi Tom"}', reasoning=True)
    out, rec = run_function(Greet(), {"name": "Tom"}, backend, agent="Ana")
    assert out == Reply(mood="glad", line="Hi Tom") and not rec.fallback_used
    assert list(backend.seen[0]["properties"])[0] == "reasoning"


def test_budget_trims_the_tail_not_the_head():
    head = {"role": "system", "content": "static rules " * 50}
    memories = "\n".join(f"memory {i}: " + "word " * 20 for i in range(200))
    msgs = [head, {"role": "user", "content": memories + "\nWhat do you do next?"}]
    count = lambda t: len(t.split())  # noqa: E731
    fitted = fit_budget(msgs, count, budget=400)
    assert fitted[0] == head
    assert fitted[1]["content"].endswith("What do you do next?") and "memory 0:" in fitted[1]["content"]
    assert sum(count(m["content"]) + 6 for m in fitted) <= 400
    assert fit_budget(msgs[:1], count, 10_000) == msgs[:1]


def test_generate_choice_with_real_model(llm_backend):
    msgs = [{"role": "system", "content": "You are Tom."}, {"role": "user", "content": "You are thirsty. What next?"}]
    idx, rec = run_choice(llm_backend, msgs, ["drink water", "paint a wall"], mode="generate", agent="Tom")
    assert idx in (0, 1) and rec.mode == "generate" and not rec.fallback_used
    assert json.loads(rec.raw)["choice"] == ["drink water", "paint a wall"][idx]
