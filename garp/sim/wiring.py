"""Build a Simulation from a scenario and the command-line options.

Creates the run directory, the event log, the memory store, the embedder, the model
backend with its reply cache and scheduler (whose recorder feeds `llm_call` events),
the town (map, objects, world, perception) and one AgentMind per cast member.
"""

from __future__ import annotations

import os
import random
import sys
import threading
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from types import SimpleNamespace
from typing import Any, Callable

from garp import paths
from garp.errors import GarpError
from garp.eventlog import EventLog
from garp.mind.agent import AgentMind
from garp.mind.factory import make_mind
from garp.mind.persona import Persona, housemates, load_personas
from garp.mind.relationships import SceneHooks as RelHooks
from garp.recovery import memory_logger
from garp.scenario.loader import load_scenario
from garp.scenario.schema import Scenario
from garp.sim.deferred import DeferredLog
from garp.sim.pace import StartPace, start_pace
from garp.sim.pipeline import Brain
from garp.sim.savegame import (AUTOSAVE_GAME_MIN, Resume, prepare_run_dir, read_save, restore_minds, restore_store,
                                restore_world)
from garp.sim.services import Services
from garp.sim.simulation import Simulation
from garp.sim.town_setup import load_town
from garp.world.clock import GameClock, LockstepClock

# --- tunables ---------------------------------------------------------------------------
EMBED_LRU_ROOM = 800  # seed texts pre-embedded in one batch (the embedder keeps 1,000, Table II)
QUEUE_PER_AGENT = 2  # the model queue's bound per cast member (issue 17: queue p99 <= 2x the agents)
LOCAL_REPLIES = paths.RUNS / "replies"  # live reply caches of `garp run` / `garp play`, one file per backend


class CallSink:
    """Thread-safe inbox for the scheduler's CallRecords (the recorder runs on the inference thread)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._records: list[Any] = []
        self.total = 0

    def __call__(self, record: Any) -> None:
        with self._lock:
            self._records.append(record)
            self.total += 1

    def take(self, agents: set[str] | None = None) -> list[Any]:
        """Records of `agents` (all when None) in a machine-independent order."""
        with self._lock:
            taken = [r for r in self._records if agents is None or r.agent in agents]
            self._records = [r for r in self._records if not (agents is None or r.agent in agents)]
        return sorted(taken, key=lambda r: (r.game_time, r.agent, r.function, r.raw))


def fork_rng(rng: random.Random) -> random.Random:
    """A generator that starts where `rng` is now: the world's draws stay those of a fresh
    `Random(seed)` (recorded runs replay) without consuming the simulation's."""
    fork = random.Random()
    fork.setstate(rng.getstate())
    return fork


def _opt(args: Any, name: str, default: Any = None) -> Any:
    value = getattr(args, name, None) if args is not None else None
    return default if value is None else value


def switches_for(scenario: Scenario, args: Any) -> dict[str, bool]:
    sw = scenario.switches.model_dump()
    if _opt(args, "no_minute_plans", False):
        sw["minute_plans"] = False
    if _opt(args, "no_emotions", False):
        sw["emotions"] = False
    if _opt(args, "no_needs", False):
        sw["needs"] = False
    return sw


def run_dir_for(scenario: Scenario, args: Any) -> Path:
    out = _opt(args, "out")
    if out:
        return Path(out)
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    return paths.RUNS / f"{scenario.name}-{stamp}"


def refuse_previous_run(run_dir: Path) -> None:
    """A new run never starts in a folder holding another run: the old memories would mix
    with the new log, and the old log would be overwritten."""
    if (run_dir / "events.jsonl").exists() or (run_dir / "memory").exists():
        raise GarpError(f"--out {run_dir}: the folder holds a previous run (events.jsonl, memory/); a new run "
                        "would mix its memories with that run's — choose another --out or delete the folder")


def local_cache_path(model_id: str) -> Path:
    """The live cache of one backend (model sha256 or server URL + model): a run against a
    server never meets a local model's file, so it is never refused."""
    from garp.engine.reply_cache import backend_slug
    return LOCAL_REPLIES / f"live-{backend_slug(model_id)}.sqlite"


def cache_for(args: Any, model_id: str, run_dir: Path):
    """The reply cache. --cache names a recording (checks pass the committed one): it keeps
    every reply, rejected ones flagged, so a replay repeats the run. Without it, the backend's
    live cache under runs/replies/ keeps only replies that passed validation.
    --live turns caching off, --record writes fresh replies without reading old ones."""
    from garp.engine.reply_cache import ReplyCache
    if _opt(args, "live", False):
        return ReplyCache(run_dir / "replies.sqlite", model_id, mode="off")
    mode = "record" if _opt(args, "record", False) else "use"
    recording = _opt(args, "cache", "")
    if recording:
        return ReplyCache(Path(recording), model_id, mode=mode)
    return ReplyCache(local_cache_path(model_id), model_id, mode=mode, keep_rejected=False)


def report_cache_repair(cache: Any, log: EventLog, t: float) -> None:
    """Say on the terminal and in the run log when opening the cache dropped unusable entries."""
    if cache.repaired:
        message = f"reply cache {cache.path}: dropped {cache.repaired} unusable entries on open"
        print(f"garp: {message}", file=sys.stderr)
        log.emit("cache_repair", t, path=str(cache.path), dropped=cache.repaired, message=message)


def personas_for(scenario: Scenario, traits_choice: str | None) -> dict[str, Persona]:
    every = load_personas(paths.PERSONAS)
    cast = {}
    for name in scenario.cast:
        if name not in every:
            raise GarpError(f"scenario {scenario.name}: field 'cast': no persona named '{name}'; "
                            f"allowed: {', '.join(sorted(every))}")
        p = every[name]
        over = scenario.persona_overrides.get(name)
        if over is not None:
            p = p.model_copy(update={k: v for k, v in over.model_dump().items() if v is not None})
        cast[name] = p
    return cast


def _silent(stage: str, detail: str = "") -> None:
    """The default progress callback: nothing to show."""


def build(scenario_name_or_path: str | Path | Scenario | None, args: Any = None, *, lockstep: bool | None = None,
          backend: Any = None, embedder: Any = None, progress: Callable[[str, str], None] = _silent) -> Simulation:
    """Everything `garp play`, `garp run` and `garp check` need, wired together.
    `progress(stage, detail)` hears each loading stage (map, model, embedder, memories, start)
    as it begins, so a window can say what is happening."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    resume = read_save(_opt(args, "resume")) if _opt(args, "resume") else None
    if resume is not None:  # the saved run's scenario, seed, switches and temperament
        scenario_name_or_path = _resumed_scenario(scenario_name_or_path, resume)
        args = resumed_args(args, resume)
    scenario = scenario_name_or_path if isinstance(scenario_name_or_path, Scenario) else load_scenario(scenario_name_or_path)
    lockstep = bool(_opt(args, "headless", False)) if lockstep is None else lockstep
    tp = scenario.temperament_prompt
    if tp is not None and lockstep and _opt(args, "trait") is None:  # fail before loading any model
        raise GarpError(f"scenario {scenario.name}: a headless run needs the temperament; "
                        f"pass --trait with one of: {', '.join(tp.choices)}")
    run_dir = _open_run_dir(scenario, args, resume)
    log = EventLog(run_dir / "events.jsonl", append=resume is not None)
    closers: list[Any] = []
    try:
        sim = _assemble(scenario, args, lockstep, run_dir, log, closers, backend, embedder, progress, resume)
        sim.scenario_ref = str(scenario_name_or_path) if not isinstance(scenario_name_or_path, Scenario) else scenario.name
        return sim
    except BaseException:
        for c in reversed(closers):
            try:
                c()
            except Exception:  # noqa: BLE001 — already failing; report the first error
                pass
        log.close()
        raise


def _open_run_dir(scenario: Scenario, args: Any, resume: Resume | None) -> Path:
    """A new run's empty folder, or the resumed run's own, its log cut back to the save."""
    if resume is not None:
        prepare_run_dir(resume)
        return resume.path.parent
    run_dir = run_dir_for(scenario, args)
    refuse_previous_run(run_dir)
    run_dir.mkdir(parents=True, exist_ok=True)
    return run_dir


def _resumed_scenario(given: str | Path | Scenario | None, resume: Resume) -> str | Path | Scenario:
    """The save's scenario; one named on the command line must be the same."""
    saved = resume.data["scenario"]
    if given is None or given == "":
        return saved
    name = given.name if isinstance(given, Scenario) else Path(str(given)).stem
    if name != Path(str(saved)).stem:
        raise GarpError(f"save {resume.path}: field 'scenario' is '{saved}', not '{given}'; "
                        f"resume it as `garp run {saved} --resume {resume.path.parent}`")
    return given


def resumed_args(args: Any, resume: Resume) -> SimpleNamespace:
    """The command line with what the saved run was made with: its seed, switches and temperament."""
    d = resume.data
    given = dict(vars(args)) if args is not None else {}
    off = {k: not on for k, on in d["switches"].items()}
    return SimpleNamespace(**{**given, "seed": d["seed"], "trait": d.get("trait"), "out": None,
                              "no_minute_plans": off.get("minute_plans", False),
                              "no_emotions": off.get("emotions", False), "no_needs": off.get("needs", False)})


@dataclass
class _Engine:
    """The model, embedding and memory machinery of one run."""

    scheduler: Any
    calls: CallSink
    embedder: Any
    store: Any


def _assemble(scenario: Scenario, args: Any, lockstep: bool, run_dir: Path, log: EventLog, closers: list[Any],
              backend: Any, embedder: Any, progress: Callable[[str, str], None], resume: Resume | None) -> Simulation:
    """The town, the engine, the minds and the Brain; `closers` collects what must be closed.
    A resume builds the same town, then puts the save's state into it before any thread runs."""
    seed = int(_opt(args, "seed", 0))
    rng = random.Random(seed)  # the run's one RNG; the world draws from a fork taken now
    progress("map", scenario.map)
    town, registry, world, perception = load_town(scenario.map, log, fork_rng(rng))
    clock = _clock(scenario, lockstep, _opt(args, "speed"))
    progress("model", _opt(args, "server") or _opt(args, "model") or "the bundled model")
    engine = _engine(args, run_dir, seed, closers, backend, embedder, log, clock.t, progress, lockstep)
    if resume is not None:
        restore_store(engine.store, resume)
    switches = switches_for(scenario, args)
    personas = personas_for(scenario, _opt(args, "trait"))
    rel_hooks = _relationship_hooks(scenario)
    minds = _minds(scenario, personas, engine, clock.t, switches, rel_hooks, lockstep, progress,
                   seed_memories=resume is None)
    pace = _pace(scenario, args, lockstep, engine.scheduler, clock, progress)
    for name in scenario.cast:
        world.add_agent(name, scenario.start_places.get(name, personas[name].home))
    progress("start", "what the objects offer, the characters in their places")
    deferred, known_places = DeferredLog(log), sorted(town.places)
    brain = Brain(scenario=scenario, scheduler=engine.scheduler, embedder=engine.embedder, clock=clock, minds=minds,
                  log=deferred, known_places=known_places, switches=switches,
                  homes={n: p.home for n, p in personas.items()}, rel_hooks=rel_hooks, sequential=lockstep)
    # Affordance embeddings once per scene, one batch, shared by every agent (III-A8, Table II).
    brain.affordances.vectors(sorted({a.description for o in registry for a in o.affordances}))
    services = Services(scenario=scenario, log=log, deferred=deferred, world=world, clock=clock,
                        scheduler=engine.scheduler, embedder=engine.embedder, store=engine.store, minds=minds,
                        perception=perception, brain=brain, known_places=known_places, switches=switches,
                        calls=engine.calls, closers=closers, run_dir=run_dir)
    if resume is not None:  # after _pace: a resumed town keeps the speed it was saved at
        restore_minds(minds, brain, resume)
        restore_world(world, perception, clock, resume)
    sim = Simulation(scenario, services, lockstep=lockstep, rng=rng, seed=seed, traits_choice=_opt(args, "trait"),
                     resume=resume, autosave_min=_opt(args, "autosave", AUTOSAVE_GAME_MIN))
    sim.start_pace = pace
    return sim


def _pace(scenario: Scenario, args: Any, lockstep: bool, scheduler: Any, clock: GameClock,
          progress: Callable[[str, str], None]) -> StartPace | None:
    """Bound the model queue by the cast; `garp play` without --speed starts at a speed the
    model's measured throughput can serve (measured before any agent asks for anything)."""
    scheduler.set_bound(QUEUE_PER_AGENT * len(scenario.cast))
    if lockstep or not _opt(args, "auto_speed", False) or _opt(args, "speed"):
        return None
    progress("pace", "tokens per second of the model")
    pace = start_pace(scheduler.measure_tok_s(), len(scenario.cast), ceiling=scenario.clock_speed)
    clock.speed = pace.speed
    print(pace.describe(), flush=True)
    return pace


def _engine(args: Any, run_dir: Path, seed: int, closers: list[Any], backend: Any, embedder: Any, log: EventLog,
            t: float, progress: Callable[[str, str], None], lockstep: bool = False) -> _Engine:
    """The model backend (unless given), its reply cache and scheduler, the embedder (unless given),
    the store (every memory it adds is logged: crash recovery reads the log)."""
    from garp.engine.memory_store import MemoryStore
    from garp.engine.scheduler import InferenceScheduler
    if backend is None:
        from garp.engine.backends import backend_from_args
        backend = backend_from_args(args, seed)
        closers.append(backend.close)
    cache = cache_for(args, backend.model_id, run_dir)
    closers.append(cache.close)
    report_cache_repair(cache, log, t)
    sink = CallSink()
    # Lockstep asks the embedded model one request at a time, with nothing else in its cache: a
    # reply then never depends on what else was asked (the unified cache's attention sums run over
    # other sequences' cells too), so a headless run is reproducible. Play batches.
    batching = getattr(backend, "engine", None)
    workers = 1 if lockstep and batching is not None else None
    if batching is not None:
        batching.isolate(lockstep)
    scheduler = InferenceScheduler(backend, cache=cache, recorder=sink, seed=seed, workers=workers).start()
    closers.append(scheduler.stop)
    progress("embedder", "all-MiniLM-L6-v2")
    if embedder is None:
        from garp.engine.embedder import Embedder
        embedder = Embedder()
        closers.append(embedder.close)
    store = MemoryStore(run_dir / "memory")
    closers.append(store.close)
    store.on_add = memory_logger(log)
    return _Engine(scheduler, sink, embedder, store)


def _relationship_hooks(scenario: Scenario) -> RelHooks:
    rel_hooks = RelHooks()
    for h in scenario.hooks:
        if h.name == "apology_floor":  # scoped to the scene's agents, with its own floor
            rel_hooks.add(scenario.name, "apology_floor", agents=h.agents or None, **h.params)
    return rel_hooks


def _minds(scenario: Scenario, personas: dict[str, Persona], engine: _Engine, t: float, switches: dict[str, bool],
           rel_hooks: RelHooks, lockstep: bool, progress: Callable[[str, str], None],
           seed_memories: bool = True) -> dict[str, AgentMind]:
    """One mind per cast member, every pair acquainted, mirrors filled in (a resumed run's store
    already holds the persona seeds)."""
    # One embedding call for every persona seed fills the embedder's LRU (IV-B amortisation).
    engine.embedder.embed([m.text for p in personas.values() for m in p.seed_memories][:EMBED_LRU_ROOM])
    minds: dict[str, AgentMind] = {}
    for i, (name, persona) in enumerate(personas.items()):
        progress("memories", f"{name} ({i + 1} of {len(personas)})")
        minds[name] = make_mind(persona, store=engine.store, embedder=engine.embedder, scheduler=engine.scheduler,
                                t=t, needs=switches["needs"], emotions=switches["emotions"], rel_hooks=rel_hooks,
                                score_inline=lockstep, start_needs=scenario.start_needs.get(name, {}),
                                seed_memories=seed_memories, household=housemates(persona, personas))
    _preseed_relationships(scenario, minds, t)
    for mind in minds.values():
        mind.refresh_mirrors()
    return minds


def _clock(scenario: Scenario, lockstep: bool, speed: float | None) -> GameClock:
    start = datetime.combine(scenario.start_date, datetime.strptime(scenario.start_time, "%H:%M").time())
    speed = float(speed or scenario.clock_speed)
    if lockstep:
        return LockstepClock(start, step_s=scenario.step_seconds, speed=speed)
    return GameClock(start, speed=speed)


def _preseed_relationships(scenario: Scenario, minds: dict[str, AgentMind], t: float) -> None:
    """Every pair in the scene has a relationship; the scenario's authored ones win (III-A6)."""
    for name, mind in minds.items():
        mind.relationships.preseed([n for n in minds if n != name], t)
    for r in scenario.relationships:
        pairs = [(r.a, r.b)] + ([(r.b, r.a)] if r.symmetric else [])
        for owner, other in pairs:
            rel = minds[owner].relationships.get_or_meet(other, t)
            rel.familiarity, rel.trust, rel.sentiment = r.familiarity, r.trust, r.sentiment
