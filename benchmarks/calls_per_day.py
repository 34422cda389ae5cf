"""Model calls per agent per simulated day (Table I) and the cost of waiting (IV-A).

1. One agent lives a day headless (lockstep): chat calls by function, embedding runs.
2. A five-agent scene runs headless for --scene-hours; its counts are scaled to a day.
3. The same five-agent scene runs on the real-time clock at 300x for --wall seconds:
   waiting_fraction = agent game-time spent past the end of an activity with its next
   decision still pending / all agent game-time. Lower speeds are tried until the
   fraction is <= 0.02 (sustainable_speed_5_agents).

Replies are cached under runs/bench-calls/ so a second run measures the same calls fast;
--live ignores that cache. Prints one JSON object as the last line.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import shutil
import sys
import time
import types
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from garp import paths  # noqa: E402

SINGLE = "daily_life"  # one agent, a full day
FIVE = "dinner_party"  # five agents
TARGET_WAIT = 0.02  # IV-A: the share of agent time idle waiting for a decision
SPEEDS = (300.0, 150.0, 75.0, 30.0)


def count_embeds(embedder):
    counter = {"runs": 0}
    encode = embedder._encode

    def counted(texts):
        counter["runs"] += 1
        return encode(texts)

    embedder._encode = counted
    return counter


def headless(name, hours, out, cache, backend, embedder, counter, live):
    from garp.sim.runner import run_headless
    before = counter["runs"]
    shutil.rmtree(out, ignore_errors=True)  # this benchmark's own run folder from an earlier run
    args = types.SimpleNamespace(out=str(out), seed=0, cache=str(cache), live=live, record=False)
    sim = run_headless(name, args, hours=hours, backend=backend, embedder=embedder,
                       progress=None)
    print(file=sys.stderr)
    calls = [e for e in sim.log.events if e["kind"] == "llm_call"]
    return sim, calls, counter["runs"] - before


def realtime(name, speed, wall_s, out, cache, backend, embedder, live):
    from garp.sim.wiring import build
    shutil.rmtree(out, ignore_errors=True)
    args = types.SimpleNamespace(out=str(out), seed=0, cache=str(cache), live=live, record=False, speed=speed)
    sim = build(name, args, lockstep=False, backend=backend, embedder=embedder)
    try:
        t0 = last = time.monotonic()
        while time.monotonic() - t0 < wall_s and not sim.done:
            time.sleep(1 / 30)
            now = time.monotonic()
            sim.update(now - last)
            last = now
        waiting = sum(sim.waiting_game_s.values())
        total = waiting + sum(sim.active_game_s.values())
    finally:
        sim.close()
    return waiting / total if total else 0.0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hours", type=float, default=24.0, help="game hours of the single-agent day")
    ap.add_argument("--scene-hours", type=float, default=2.0, help="game hours of the five-agent scene")
    ap.add_argument("--wall", type=float, default=30.0, help="wall seconds per real-time speed tried")
    ap.add_argument("--live", action="store_true", help="ignore the benchmark's reply cache")
    opts = ap.parse_args()
    from garp.engine.backends import make_backend
    from garp.engine.embedder import Embedder
    out = paths.RUNS / "bench-calls"
    cache = out / "replies.sqlite"
    backend, embedder = make_backend(), Embedder()
    counter = count_embeds(embedder)
    try:
        _, single, emb1 = headless(SINGLE, opts.hours, out / "single", cache, backend, embedder, counter, opts.live)
        days1 = opts.hours / 24.0
        sim5, five, emb5 = headless(FIVE, opts.scene_hours, out / "five", cache, backend, embedder, counter, opts.live)
        agent_days5 = len(sim5.minds) * opts.scene_hours / 24.0
        by_function = collections.Counter(e["function"] for e in single)
        waits = {}
        sustainable = 0.0
        for speed in SPEEDS:
            waits[speed] = realtime(FIVE, speed, opts.wall, out / f"rt-{int(speed)}", cache, backend, embedder, opts.live)
            print(f"real time {speed:g}x: waiting fraction {waits[speed]:.3f}", file=sys.stderr)
            if waits[speed] <= TARGET_WAIT:
                sustainable = speed
                break
    finally:
        embedder.close()
        backend.close()
    result = {
        "chat_calls_per_agent_day": round(len(single) / days1, 1),
        "embed_calls_per_agent_day": round(emb1 / days1, 1),
        "by_function": {k: round(v / days1, 1) for k, v in sorted(by_function.items())},
        "five_agent_chat_calls_per_agent_day": round(len(five) / agent_days5, 1),
        "five_agent_embed_calls_per_agent_day": round(emb5 / agent_days5, 1),
        "waiting_fraction": round(waits[300.0], 4),
        "waiting_by_speed": {f"{k:g}": round(v, 4) for k, v in waits.items()},
        "sustainable_speed_5_agents": sustainable,
    }
    print(json.dumps(result))


if __name__ == "__main__":
    main()
