"""The 20-agent town on the real-time clock with live replies: does the model keep up? (issue #17)

For each speed (default: the speed `garp play` would choose, then 75x) the town runs for
--wall seconds exactly as `garp play` runs it: the window's frame loop draws every frame
(SDL's dummy video driver, so the drawing work is real but nothing is shown), the model
answers live (no reply cache), and every --interview-every seconds the player asks the next
agent a question. Printed per speed:
- requests; the share answered by the model before their deadline; by code for lateness
  ("stale"); by code by admission; model replies that failed validation;
- model queue length p50/p99 (sampled every second) and the bound;
- interview answer latency p50/p99 (wall s);
- how long a talk waited to be shown, and how stale its lines were then (game minutes);
- tok/s: completion tokens the model made per wall second, and the batch engine's own rate
  while it was busy (`engine_busy_tok_s`, to set against benchmarks/batching.py).

Prints one JSON object as the last line.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import time
import types
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))  # batching.py: the same rounds as the bare figure

from garp import paths  # noqa: E402

QUESTIONS = ("What have you been doing today?", "Who did you talk to today?", "How are you feeling right now?",
             "What are you planning to do next?", "What do you like about this town?")
SCENARIO = "town"


def percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return float(ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))])


class Interviewer:
    """Asks the next agent a question every `every_s` wall seconds; times the answers."""

    def __init__(self, sim, every_s: float):
        self.sim, self.every_s = sim, every_s
        self.names = sorted(sim.minds)
        self.asked, self.latencies = 0, []
        self.pending: tuple[float, object] | None = None
        self.next_at = time.monotonic() + every_s

    def tick(self, now: float) -> None:
        if self.pending is not None and self.pending[1].done():
            self.latencies.append(now - self.pending[0])
            self.pending = None
        if self.pending is None and now >= self.next_at:
            name = self.names[self.asked % len(self.names)]
            self.pending = (now, self.sim.interview(name, QUESTIONS[self.asked % len(QUESTIONS)]))
            self.asked += 1
            self.next_at = now + self.every_s


def play_for(sim, wall_s: float, interview_every_s: float) -> dict:
    """The game's own frame loop (App.frame) for wall_s seconds; samples queue and interviews."""
    import pygame

    from garp.game.app import WINDOW, App, build_renderer

    screen = pygame.display.set_mode(WINDOW)
    app = App(sim, build_renderer(sim), screen.get_size())
    asker, queue, clock, frames = Interviewer(sim, interview_every_s), [], pygame.time.Clock(), 0
    start = next_sample = time.monotonic()
    while (now := time.monotonic()) - start < wall_s and not sim.done:
        app.frame(clock.tick(60) / 1000.0, screen, pygame.event.get())
        pygame.display.flip()
        frames += 1
        asker.tick(now)
        if now >= next_sample:
            queue.append(sim.scheduler.stats()["queue_depth"])
            next_sample = now + 1.0
    wall = time.monotonic() - start
    return {"wall_s": wall, "queue": queue, "asker": asker, "fps": frames / max(wall, 1e-6)}


CONTENTION_ROUNDS = 5  # bare and drawing rounds alternate, so drift (heat, page cache) hits both alike


def render_contention(backend, embedder, seconds: float) -> dict:
    """The backend's batched tok/s alone, then while the game draws the town every frame (the
    clock paused, so the town itself asks nothing): the cost of playing to the model. Rounds
    alternate CONTENTION_ROUNDS times; the medians and the median of the paired ratios are printed."""
    import pygame

    from garp.game.app import WINDOW, App, build_renderer
    from garp.sim.wiring import build
    from batching import backend_round

    out = paths.RUNS / "bench-town-load" / "render"
    shutil.rmtree(out, ignore_errors=True)
    args = types.SimpleNamespace(out=str(out), seed=0, live=True, record=False, cache=None, speed=None)
    # lockstep: the town asks nothing until stepped (once its opening calls are done), so both
    # rounds below have the model to themselves; only the drawing differs
    sim = build(SCENARIO, args, lockstep=True, backend=backend, embedder=embedder)
    try:
        idle_until = time.monotonic() + 60
        while time.monotonic() < idle_until and (sim.scheduler.stats()["queue_depth"]
                                                 or sim.scheduler.stats()["in_flight"]):
            time.sleep(0.5)
        backend.engine.isolate(False)  # batch as in play
        backend_round(backend, 8, 99, 16)  # warm: the shared head cached, as in every measured round
        screen = pygame.display.set_mode(WINDOW)
        app = App(sim, build_renderer(sim), screen.get_size())
        bare, drawing, fps = [], [], []
        for r in range(CONTENTION_ROUNDS):
            bare.append(backend_round(backend, 8, 100 + 2 * r, 64))
            rate, frame_rate = _round_while_drawing(backend, app, screen, 101 + 2 * r, seconds)
            drawing.append(rate)
            fps.append(frame_rate)
    finally:
        sim.close()
    med = statistics.median
    return {"bare_tok_s": round(med(bare), 1), "while_drawing_tok_s": round(med(drawing), 1),
            "ratio": round(med(d / b for b, d in zip(bare, drawing)), 2),
            "ratios": [round(d / b, 2) for b, d in zip(bare, drawing)], "fps_while_decoding": round(med(fps), 1)}


def _round_while_drawing(backend, app, screen, round_: int, seconds: float) -> tuple[float, float]:
    """One batching round on a worker while this thread draws every frame: (tok/s, fps)."""
    import threading

    import pygame

    from batching import backend_round

    clock, rates, frames = pygame.time.Clock(), [], 0
    worker = threading.Thread(target=lambda: rates.append(backend_round(backend, 8, round_, 64)))
    start = time.monotonic()
    worker.start()
    while worker.is_alive() or time.monotonic() - start < seconds:
        clock.tick(60)
        pygame.event.get()
        app.draw(screen)  # draw only: updating would let the town ask the model too
        pygame.display.flip()
        frames += 1
    return rates[0], frames / (time.monotonic() - start)


def outcome_shares(answered: dict, events: list[dict]) -> dict:
    """Shares of the scheduler's outcomes: on time / late by the model, invalid (fallback after
    the model answered), code for lateness (stale), code by admission."""
    n = max(sum(answered.values()), 1)
    made = sum(int(e.get("tokens") or 0) for e in events
               if e["kind"] == "llm_call" and not e.get("fallback_used") and not e.get("cached"))
    return {"requests": sum(answered.values()), **{k: round(v / n, 3) for k, v in answered.items()},
            "completion_tokens": made}


def chat_delays(events: list[dict]) -> dict:
    """Game minutes a talk waited: from the two meeting to its lines being shown, and between the time
    its lines were composed for and being shown, either way (a line naming the clock is that far off;
    play composes for the expected showing time, which may fall after it)."""
    starts = [e for e in events if e["kind"] == "chat_start" and "composed_t" in e]
    waited = [(e["t"] - e["asked_t"]) / 60.0 for e in starts]
    stale = [abs(e["t"] - e["composed_t"]) / 60.0 for e in starts]
    return {"chats": len(starts), "chat_wait_min_p50": round(percentile(waited, 0.5), 1),
            "chat_wait_min_p99": round(percentile(waited, 0.99), 1),
            "chat_stale_min_p50": round(percentile(stale, 0.5), 1),
            "chat_stale_min_p99": round(percentile(stale, 0.99), 1)}


def run_speed(speed: float | None, opts, backend, embedder) -> dict:
    from garp.sim.wiring import build

    out = paths.RUNS / "bench-town-load" / (f"x{speed:g}" if speed else "default")
    shutil.rmtree(out, ignore_errors=True)
    args = types.SimpleNamespace(out=str(out), seed=0, live=True, record=False, cache=None, speed=speed,
                                 auto_speed=speed is None)
    sim = build(SCENARIO, args, lockstep=False, backend=backend, embedder=embedder)
    engine_before = backend.compute_stats()
    try:
        chosen = sim.clock.speed
        played = play_for(sim, opts.wall, opts.interview_every)
        stats, engine_after = sim.scheduler.stats(), backend.compute_stats()
    finally:
        sim.close()
    events = list(sim.log.events)
    out = summarise(chosen, played, stats, events, engine_before, engine_after) | chat_delays(events)
    return out | demand(out, stats["measured_tok_s"], len(sim.minds))


def demand(out: dict, probe_tok_s: float, agents: int) -> dict:
    """The town's demand in the unit garp.sim.pace plans with: completion tokens the start-up probe
    (InferenceScheduler.measure_tok_s) would make in the machine time one agent-hour took here,
    generation and scoring both. Only where the probe ran (the default speed)."""
    if probe_tok_s <= 0:
        return {}
    game_hours = out["wall_s"] * out["speed"] / 3600.0
    machine_s = (out["engine_busy_share"] + out["scoring_share"]) * out["wall_s"]
    return {"probe_tok_s": round(probe_tok_s, 1),
            "demand_tok_per_agent_hour": round(machine_s * probe_tok_s / max(game_hours * agents, 1e-6), 1)}


def summarise(speed, played, stats, events, engine_before, engine_after) -> dict:
    asker, wall = played["asker"], played["wall_s"]
    shares = outcome_shares(stats["answered"], events)
    busy = engine_after["busy_s"] - engine_before["busy_s"]
    scoring = engine_after["score_s"] - engine_before["score_s"]
    made = engine_after["tokens"] - engine_before["tokens"]
    return {"speed": speed, "wall_s": round(wall), "fps": round(played["fps"], 1), **shares,
            "queue_p50": percentile(played["queue"], 0.5), "queue_p99": percentile(played["queue"], 0.99),
            "queue_bound": stats["bound"],
            "interviews": asker.asked, "interview_p50_s": round(percentile(asker.latencies, 0.5), 2),
            "interview_p99_s": round(percentile(asker.latencies, 0.99), 2),
            "tok_s": round(made / max(wall, 1e-6), 1),
            "engine_busy_share": round(busy / max(wall, 1e-6), 3),
            "scoring_share": round(scoring / max(wall, 1e-6), 3),
            "engine_busy_tok_s": round(made / max(busy, 1e-6), 1),
            "prompt_tokens": engine_after["prompt_tokens"] - engine_before["prompt_tokens"],
            "prompt_reused": round((engine_after["reused_tokens"] - engine_before["reused_tokens"])
                                   / max(engine_after["prompt_tokens"] - engine_before["prompt_tokens"], 1), 3),
            "score_prompt_tokens": engine_after["score_prompt_tokens"] - engine_before["score_prompt_tokens"],
            "score_reused": round((engine_after["score_reused_tokens"] - engine_before["score_reused_tokens"])
                                  / max(engine_after["score_prompt_tokens"] - engine_before["score_prompt_tokens"], 1),
                                  3)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--wall", type=float, default=600.0, help="wall seconds per speed (the issue asks >= 600)")
    ap.add_argument("--speeds", default="default,75", help="comma-separated: 'default' (play's choice) or numbers")
    ap.add_argument("--threads", type=int, default=None,
                    help="llama.cpp threads (default: the thread budget of a rendering game)")
    ap.add_argument("--model", default=None, help="registered model name or .gguf path (default: the default model)")
    ap.add_argument("--interview-every", type=float, default=60.0, help="wall seconds between interview questions")
    ap.add_argument("--no-render", action="store_true", help="skip the drawing-vs-bare rounds")
    opts = ap.parse_args()
    import pygame

    from garp.engine.backends import make_backend
    from garp.engine.embedder import Embedder
    from garp.game.app import init_display

    init_display()  # as `garp play` starts its window
    backend, embedder = make_backend(opts.model, threads=opts.threads), Embedder()
    results = []
    try:
        contention = {} if opts.no_render else render_contention(backend, embedder, 5.0)
        print(json.dumps(contention), file=sys.stderr)
        for s in filter(None, opts.speeds.split(",")):
            result = run_speed(None if s.strip() == "default" else float(s), opts, backend, embedder)
            print(json.dumps(result), file=sys.stderr)
            results.append(result)
    finally:
        embedder.close()
        backend.close()
        pygame.quit()
    print(json.dumps({"agents": 20, "model": backend.spec.name, "llama_threads": backend.n_threads,
                      "render": contention, "runs": results}))


if __name__ == "__main__":
    main()
