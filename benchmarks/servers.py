"""Aggregate throughput and on-time share for 1 vs 2 local model servers (issue 22).

For each pool size, starts that many `python -m llama_cpp.server` processes on 127.0.0.1
(the bundled SmolLM2-135M, one thread each), puts a ServerPool and the InferenceScheduler
over them, submits a burst of agent-style calls at once, each due DEADLINE_S after
submission, and measures:
  tok_s          completion tokens per wall second over the burst, all servers together
  on_time_share  calls answered by the model (no fallback) before their deadline
Each endpoint takes one request at a time (llama.cpp's server decodes one request at a
time; queueing stays in the scheduler, which orders by deadline). On 2 CPU cores a second
server adds no compute, so expect no gain there; the benchmark is for machines with more.

Last line: {"one": {...}, "two": {...}, "tok_s_ratio"}
"""

from __future__ import annotations

import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Literal

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pydantic import BaseModel, Field  # noqa: E402

from garp.engine.lmfunction import LMFunction  # noqa: E402
from garp.engine.local_server import start_servers  # noqa: E402
from garp.engine.models import resolve_model  # noqa: E402
from garp.engine.scheduler import InferenceScheduler  # noqa: E402
from garp.engine.servers import EndpointConfig, ServerPool  # noqa: E402

REQUESTS = 16      # calls in the burst
DEADLINE_S = 30.0  # each call's deadline after submission, wall seconds (the game's decision lead is 20 s)
THREADS = 1        # per server
NAMES = ["Ada", "Ben", "Cara", "Dov", "Eli", "Fay", "Gus", "Hana"]
ASKS = ["Ada greets you at the bakery. Say one line back.", "Your friend forgot your birthday. How do you feel?"]


class Line(BaseModel):
    mood: Literal["glad", "calm", "sad", "cross"]
    line: str = Field(max_length=60)


class Say(LMFunction):
    name, Output, max_tokens = "say", Line, 64  # room for the longest valid reply: no truncated JSON

    def messages(self, inputs, reasoning):
        return [{"role": "system", "content": f"You are {inputs['agent']}, who lives in a small town. Reply in JSON."},
                {"role": "user", "content": inputs["ask"]}]

    def fallback(self, inputs):
        return Line(mood="calm", line="Hello.")


def burst(pool: ServerPool) -> dict:
    sched = InferenceScheduler(pool).start()
    try:
        for e in pool.endpoints:  # each server's first decode off the clock (and out of the pool's counts)
            e.complete(Say().messages({"agent": "Warm", "ask": ASKS[0]}, False), schema=None, temperature=0.0,
                       max_tokens=8, seed=0)
        t0 = time.monotonic()
        futs = []
        for i in range(REQUESTS):
            inputs = {"agent": NAMES[i % len(NAMES)], "ask": ASKS[i % len(ASKS)] + f" (day {i})"}
            futs.append(sched.submit_function(Say(), inputs, agent=inputs["agent"],
                                              deadline=sched.deadline_in(DEADLINE_S))[1])
        done_at: dict[int, float] = {}
        for i, f in enumerate(futs):
            f.add_done_callback(lambda _f, i=i: done_at.setdefault(i, time.monotonic() - t0))
        recs = [f.result()[1] for f in futs]
        wall = time.monotonic() - t0
        tokens = sum(r.completion_tokens for r in recs)
        on_time = sum(not r.fallback_used and done_at[i] <= DEADLINE_S for i, r in enumerate(recs))
    finally:
        sched.stop()
    return {"requests": REQUESTS, "wall_s": round(wall, 1), "tokens": tokens, "tok_s": round(tokens / wall, 1),
            "on_time_share": round(on_time / REQUESTS, 3), "fallbacks": sum(r.fallback_used for r in recs),
            "calls_per_server": [e["calls"] for e in pool.stats()]}


def measure(model_path: Path, n: int) -> dict:
    with tempfile.TemporaryDirectory(prefix="garp-bench-servers-") as tmp:
        servers = start_servers(model_path, Path(tmp), n, threads=THREADS)
        try:
            pool = ServerPool([EndpointConfig(url=s.url, model="smollm2", max_in_flight=1) for s in servers],
                              profile=resolve_model("smollm2-135m-instruct").profile, notify=None)
            try:
                return {"servers": n, **burst(pool)}
            finally:
                pool.close()
        finally:
            for s in servers:
                s.stop()


def main() -> None:
    spec = resolve_model("smollm2-135m-instruct")
    one = measure(spec.path, 1)
    print(json.dumps(one))
    two = measure(spec.path, 2)
    print(json.dumps(two))
    print(json.dumps({"one": one, "two": two, "tok_s_ratio": round(two["tok_s"] / max(one["tok_s"], 1e-9), 2),
                      "threads_per_server": THREADS, "model": spec.name}))


if __name__ == "__main__":
    main()
