"""Overhead of the LM stack (scheduler + LMFunction + validation) over bare llama-cpp-python.

The same prompts and grammars run through both paths in the same process, interleaved
call by call so that load from other processes hits both alike. Each path has its own
`Llama` instance (same file and settings), so neither benefits from the other's prompt
prefix cache. Reply cache off. Greedy decoding, so both generate the same tokens.

Last line: {"pipeline_tok_s", "raw_tok_s", "ratio"}
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Literal

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import llama_cpp  # noqa: E402
from llama_cpp.llama_grammar import LlamaGrammar  # noqa: E402
from pydantic import BaseModel, Field  # noqa: E402

from garp.engine.backends import LlamaCppBackend  # noqa: E402
from garp.engine.lmfunction import LMFunction  # noqa: E402
from garp.engine.models import resolve_model  # noqa: E402
from garp.engine.scheduler import InferenceScheduler  # noqa: E402

ROUNDS = 3
THREADS = 2


class Appraisal(BaseModel):
    emotion: Literal["joy", "sadness", "anger", "fear", "calm"]
    intensity: Literal[1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
    cause: str = Field(max_length=60)


class Line(BaseModel):
    line: str = Field(max_length=80)
    end_conversation: bool


class PlanItems(BaseModel):
    items: list[str] = Field(min_length=3, max_length=5)


class _Fn(LMFunction):
    max_tokens = 64

    def messages(self, inputs, reasoning):
        return [{"role": "system", "content": f"You are {inputs['agent']}, who lives in a small town. Reply in JSON."},
                {"role": "user", "content": inputs["ask"]}]


class Appraise(_Fn):
    name, Output = "appraise", Appraisal

    def fallback(self, inputs):
        return Appraisal(emotion="calm", intensity=1, cause="")


class Talk(_Fn):
    name, Output = "talk", Line

    def fallback(self, inputs):
        return Line(line="Hello.", end_conversation=True)


class Plan(_Fn):
    name, Output, max_tokens = "plan", PlanItems, 96

    def fallback(self, inputs):
        return PlanItems(items=["wake up", "work", "sleep"])


WORK = [
    (Appraise(), {"agent": "Maria", "ask": "Your friend forgot your birthday. How do you feel and why?"}),
    (Talk(), {"agent": "Tom", "ask": "Ada greets you at the bakery. Say one line back."}),
    (Plan(), {"agent": "Lea", "ask": "List your plan for this morning as short items."}),
    (Appraise(), {"agent": "Ben", "ask": "You won the painting contest. How do you feel and why?"}),
    (Talk(), {"agent": "Sam", "ask": "A tourist asks you where the museum is. Answer in one line."}),
    (Plan(), {"agent": "Ada", "ask": "List your plan for the afternoon in the garden."}),
]


def main() -> None:
    spec = resolve_model(None if len(sys.argv) < 2 else sys.argv[1])
    backend = LlamaCppBackend(spec, n_threads=THREADS, seed=0)
    sched = InferenceScheduler(backend).start()
    raw = llama_cpp.Llama(model_path=str(spec.path), n_ctx=spec.profile.n_ctx, n_threads=THREADS,
                          n_threads_batch=THREADS, chat_format=spec.profile.chat_format, verbose=False)
    reasoning = spec.profile.reasoning_field
    grammars = {fn.name: LlamaGrammar.from_json_schema(json.dumps(fn.schema(reasoning)), verbose=False)
                for fn, _ in WORK}
    t_pipe = t_raw = 0.0
    tok_pipe = tok_raw = 0
    for fn, inputs in WORK:  # warm-up: grammar compilation and first decode on both paths
        sched.call_sync(fn, inputs, agent="bench")
        raw.create_chat_completion(messages=fn.messages(inputs, reasoning), grammar=grammars[fn.name],
                                   temperature=0.0, max_tokens=fn.max_tokens, seed=0)
    for _ in range(ROUNDS):
        for fn, inputs in WORK:
            t0 = time.perf_counter()
            _, rec = sched.call_sync(fn, inputs, agent="bench")
            t_pipe += time.perf_counter() - t0
            tok_pipe += rec.completion_tokens
            t0 = time.perf_counter()
            out = raw.create_chat_completion(messages=fn.messages(inputs, reasoning), grammar=grammars[fn.name],
                                             temperature=0.0, max_tokens=fn.max_tokens, seed=0)
            t_raw += time.perf_counter() - t0
            tok_raw += out["usage"]["completion_tokens"]
    sched.stop()
    backend.close()
    raw.close()
    pipe_tok_s, raw_tok_s = tok_pipe / t_pipe, tok_raw / t_raw
    print(f"pipeline {tok_pipe} tokens in {t_pipe:.2f} s; raw {tok_raw} tokens in {t_raw:.2f} s")
    print(json.dumps({"pipeline_tok_s": round(pipe_tok_s, 1), "raw_tok_s": round(raw_tok_s, 1),
                      "ratio": round(pipe_tok_s / raw_tok_s, 3), "calls": len(WORK) * ROUNDS,
                      "model": spec.name}))


if __name__ == "__main__":
    main()
