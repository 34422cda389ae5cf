"""Frame time of the game loop: 20 agents walking and using objects in the real town while the
bundled model generates in the background for the whole run; rendered offscreen.

Each frame = advance the clock, step the World (movement, object use), draw the town
view (map chunks, characters, labels, speech bubbles) and the HUD into a 1280x720
surface, with the camera following one walker. Frames are paced at 60 fps; only the
work of the frame is timed. Target on 2 cores: p99 <= 20 ms (issue 3, section 6).

Prints one JSON object as the last line:
{"agents": 20, "frames": N, "p50_ms": ..., "p99_ms": ..., ...}
"""

from __future__ import annotations

import json
import os
import random
import sys
import threading
import time
from datetime import datetime
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("HF_HUB_OFFLINE", "1")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import pygame  # noqa: E402
from pydantic import BaseModel, Field  # noqa: E402

from garp.engine.lmfunction import LMFunction  # noqa: E402
from garp.eventlog import EventLog  # noqa: E402
from garp.game.app import App, init_display  # noqa: E402
from garp.game.renderer import Renderer, load_tmx  # noqa: E402
from garp.game.sprites import CharacterSprites  # noqa: E402

AGENTS = 20
FRAMES = 1200          # 20 s at 60 fps
FPS = 60
SPEED = 300.0          # clock multiplier (paper default, 300x)
USE_MIN_S = (10 * 60, 40 * 60)   # game seconds an object is used
SAY_EVERY = 90         # frames between speech bubbles
SEED = 7
STORY_TOKENS = 80      # tokens per background generation (short: the run ends after the call in flight)
STORY_CHARS = 200      # story length cap: the JSON closes before the token limit
LINES = ("Good morning! Lovely day for a walk.", "Have you seen the new books at the library?",
         "I'm off to the cafe, want to come along?", "The piano in the school sounds wonderful.")


class Walkers:
    """Minds-free agents: walk to a random object, use it for a while, pick another."""

    def __init__(self, world, registry, rng: random.Random) -> None:
        self.world, self.rng = world, rng
        self.objects = [o for o in registry.all() if o.affordances]
        self.target: dict[str, str] = {}
        self.until: dict[str, float] = {}
        self.uses = 0

    def next_target(self, name: str, t: float) -> None:
        for _ in range(10):
            obj = self.rng.choice(self.objects)
            if self.world.walk_to(name, obj.id, t):
                self.target[name] = obj.id
                return

    def update(self, t: float) -> None:
        for name, body in self.world.bodies.items():
            if body.moving:
                continue
            if body.using is not None:
                if t >= self.until.get(name, 0.0):
                    self.world.finish_use(name, t)
                    self.next_target(name, t)
                continue
            oid = self.target.get(name)
            obj = self.world.objects.get(oid) if oid else None
            verbs = [a.verb for a in obj.available_affordances()] if obj is not None else []
            if verbs and self.world.start_use(name, oid, verbs[0], t):
                self.until[name] = t + self.rng.uniform(*USE_MIN_S)
                self.uses += 1
            else:
                self.next_target(name, t)


class BenchSim:
    """What the App needs of a simulation: world, clock, log, minds, scheduler, update()."""

    def __init__(self, world, clock, log, scheduler, walkers: Walkers) -> None:
        self.world, self.clock, self.log, self.scheduler = world, clock, log, scheduler
        self.minds: dict = {}
        self.walkers = walkers

    def update(self, wall_dt: float) -> None:
        dt = self.clock.advance(wall_dt)
        self.world.step(dt, self.clock.t)
        self.walkers.update(self.clock.t)


class TownStory(LMFunction):
    """A long free-text generation: keeps the decoder (not just prompt evaluation) busy."""

    class Output(BaseModel):
        story: str = Field(max_length=STORY_CHARS)

    name = "bench_town_story"
    temperature = 0.7
    max_tokens = STORY_TOKENS

    def messages(self, inputs: int, reasoning: bool) -> list[dict]:
        return [{"role": "system", "content": "You write short stories about a small town."},
                {"role": "user", "content": f"Story number {inputs}: describe a busy morning in the town square."}]

    def fallback(self, inputs: int) -> BaseModel:
        return self.Output(story="")


def background_generation(scheduler, stop: threading.Event, counts: dict) -> None:
    """Keep the model generating for the whole run: one real scheduled call after another."""
    while not stop.is_set():
        _, rec = scheduler.call_sync(TownStory(), counts["calls"], agent="bench")
        counts["calls"] += 1
        counts["tokens"] += rec.completion_tokens


def main() -> dict:
    from garp.engine.backends import make_backend
    from garp.engine.scheduler import InferenceScheduler
    from garp.mind.persona import load_personas
    from garp.sim.town_setup import load_town
    from garp.world.clock import GameClock

    init_display()  # as `garp play` does
    pygame.display.set_mode((1, 1))
    rng = random.Random(SEED)
    log = EventLog()
    town, registry, world, _ = load_town("town.tmx", log, random.Random(SEED))
    personas = sorted(load_personas().values(), key=lambda p: p.name)[:AGENTS]
    for p in personas:
        world.add_agent(p.name, p.home)
    walkers = Walkers(world, registry, rng)
    clock = GameClock(datetime(2025, 3, 3, 8, 0), speed=SPEED)
    for name in world.bodies:
        walkers.next_target(name, clock.t)

    scheduler = InferenceScheduler(make_backend(seed=SEED), seed=SEED).start()
    stop, counts = threading.Event(), {"calls": 0, "tokens": 0}
    gen = threading.Thread(target=background_generation, args=(scheduler, stop, counts), daemon=True)
    sim = BenchSim(world, clock, log, scheduler, walkers)
    sprites = CharacterSprites.load()
    renderer = Renderer(load_tmx(town.path), sprites)
    app = App(sim, renderer, (1280, 720))
    surface = pygame.Surface((1280, 720))
    follow = personas[0].name
    app.town.select(follow)

    gen.start()
    deadline = time.monotonic() + 30.0
    while not scheduler.stats()["in_flight"] and time.monotonic() < deadline:
        time.sleep(0.05)  # start timing once the model is really generating
    times: list[float] = []
    try:
        for i in range(FRAMES):
            start = time.perf_counter()
            body = world.bodies[follow]
            app.town.camera.center_on(body.x, body.y)
            if i % SAY_EVERY == 0:
                speaker = personas[(i // SAY_EVERY) % len(personas)].name
                world.say(speaker, LINES[(i // SAY_EVERY) % len(LINES)], clock.t, duration_s=SPEED * 3)
            app.update(1.0 / FPS)
            app.draw(surface)
            elapsed = time.perf_counter() - start
            times.append(elapsed)
            time.sleep(max(0.0, 1.0 / FPS - elapsed))
        stats = scheduler.stats()
        times.sort()
        ms = [t * 1000 for t in times]
        result = {"agents": len(world.bodies), "frames": len(ms), "p50_ms": round(ms[len(ms) // 2], 2),
                  "p99_ms": round(ms[min(len(ms) - 1, int(len(ms) * 0.99))], 2), "max_ms": round(ms[-1], 2),
                  "object_uses": walkers.uses, "model_busy": bool(stats["in_flight"]),
                  "model_calls_done": counts["calls"], "model_tok_s": round(stats["tok_s"], 1),
                  "game_minutes": round((clock.t - 8 * 3600) / 60, 1)}
        # The result is complete: print it before waiting for the generation still in flight.
        print(json.dumps(result), flush=True)
        return result
    finally:
        stop.set()
        scheduler.stop()  # waits for the call in flight; queued ones get their fallbacks
        gen.join()


if __name__ == "__main__":
    main()
