"""Aggregate tok/s of the embedded backend for 1, 4 and 8 concurrent requests (issue #17).

Each round sends N requests at once through `LlamaCppBackend.complete` (the path every
model call of the game takes): real prompts of the town's size (an agent's conversation
line with its memories, ~400 tokens), the JSON grammar, 64 tokens each. The rounds are
repeated and the median is reported; the prompts differ per request and per round, so
prefix reuse is what the game gets (a shared static head), not a repeated prompt.

A second figure, `decode_only`, times bare llama_decode steps of N one-token sequences
(no sampling, no prompts): the kernel ceiling batching can reach on this CPU for this
model file.

Prints one JSON object as the last line.
"""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import json
import os
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

LEVELS = (1, 4, 8)
SCHEMA = {"title": "line", "type": "object", "additionalProperties": False,
          "properties": {"reasoning": {"type": "string", "maxLength": 80},
                         "line": {"type": "string", "maxLength": 200}},
          "required": ["reasoning", "line"]}
PLACES = ("the cafe", "the park", "the library", "the bakery", "the market", "the pub", "the school", "the dock")


def messages(i: int, round_: int) -> list[dict]:
    memories = " ".join(f"[{k}] On day {k} {PLACES[(i + k) % 8]} was busy and a neighbour waved." for k in range(20))
    return [{"role": "system", "content": "You are a villager in a small town. Answer with JSON only. "
                                          "Keep lines short and friendly."},
            {"role": "user", "content": f"Memories: {memories}\nAgent {i} meets a friend at {PLACES[i % 8]} "
                                        f"in round {round_}. Say one line to them."}]


def backend_round(backend, n: int, round_: int, tokens: int) -> float:
    with cf.ThreadPoolExecutor(n) as pool:
        start = time.perf_counter()
        outs = list(pool.map(lambda i: backend.complete(messages(i, round_), schema=SCHEMA, max_tokens=tokens,
                                                        temperature=0.0), range(n)))
        wall = time.perf_counter() - start
    return sum(o.completion_tokens for o in outs) / wall


def decode_only(backend, n: int, steps: int = 40) -> float:
    """tok/s of bare decode steps carrying n one-token sequences, in a context made like the
    batch engine's (same model, threads and slots)."""
    import llama_cpp

    params = llama_cpp.llama_context_default_params()
    params.n_ctx, params.n_seq_max, params.kv_unified = 4096, max(LEVELS), False
    params.n_threads = params.n_threads_batch = backend.n_threads
    ctx = llama_cpp.llama_init_from_model(backend.llm._model.model, params)
    batch = llama_cpp.llama_batch_init(n, 0, 1)
    try:
        start = time.perf_counter()
        for pos in range(steps):
            batch.n_tokens = n
            for i in range(n):
                batch.token[i], batch.pos[i], batch.n_seq_id[i], batch.logits[i] = 100 + i, pos, 1, True
                batch.seq_id[i][0] = i
            llama_cpp.llama_decode(ctx, batch)
        return n * steps / (time.perf_counter() - start)
    finally:
        llama_cpp.llama_batch_free(batch)
        llama_cpp.llama_free(ctx)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--tokens", type=int, default=64)
    ap.add_argument("--model", default=None, help="registered model name or .gguf path (default: the default model)")
    opts = ap.parse_args()
    from garp.engine.backends import make_backend

    backend = make_backend(opts.model)
    try:
        backend_round(backend, max(LEVELS), -1, 16)  # warm-up: page the weights in, compile the grammar
        tok_s = {n: statistics.median(backend_round(backend, n, r, opts.tokens) for r in range(opts.rounds))
                 for n in LEVELS}
        for n, v in tok_s.items():
            print(f"{n} concurrent: {v:.1f} tok/s", file=sys.stderr)
        kernel = {n: decode_only(backend, n) for n in LEVELS}
        threads, model = backend.n_threads, backend.spec.name
    finally:
        backend.close()
    print(json.dumps({
        "model": model, "threads": threads,
        "tok_s": {str(n): round(v, 1) for n, v in tok_s.items()},
        "ratio_to_1": {str(n): round(v / tok_s[1], 2) for n, v in tok_s.items()},
        "decode_only_tok_s": {str(n): round(v, 1) for n, v in kernel.items()},
        "decode_only_ratio_to_1": {str(n): round(v / kernel[1], 2) for n, v in kernel.items()},
    }))


if __name__ == "__main__":
    main()
