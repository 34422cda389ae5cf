"""Save and resume a running town: `RUN_DIR/save.json`, versioned JSON written atomically.

A save holds what the run's other files do not: the clock, the world (bodies, paths, object
states, the world's RNG), every mind (plan, needs, emotion, relationships, commitments,
personality, memory bookkeeping), the cognition side (planners, plan numbers), conversations,
the results already thought but not yet due (`held`), the simulation's RNG and counters, and
per memory the fields retrieval changes. The memories themselves are in the run's LanceDB
store and the history in its `events.jsonl`; the save records how many events the log had, so a
resume continues the same log from exactly there (events a killed run wrote after its last save
are moved to `events.after-save-N.jsonl`, and memories stored after it are rolled back).

Taken at a step boundary on the main thread; the cognition side is snapshotted on the cognition
thread (`CognitionThread.run`), which in lockstep is idle by then (`wait_idle`), so a resumed
headless run repeats the unbroken run's events exactly.
"""

from __future__ import annotations

import dataclasses
import json
import sys
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from garp.durable import cut_torn_tail, replace_atomically
from garp.errors import GarpError
from garp.world.world import rng_state

# --- tunables ---------------------------------------------------------------------------
FORMAT = 1  # save.json's `format`; a file with another number is refused with its name
SAVE_NAME = "save.json"
AUTOSAVE_GAME_MIN = 60.0  # game minutes between autosaves (`--autosave`, 0 = only on quit)
COGNITION_SNAPSHOT_WALL_S = 10.0  # wall s a save waits for the cognition thread to take its half
MEMORY_FIELDS = ("last_accessed", "stability", "retrievals", "poignancy", "poignancy_scored")
LOG_NAME = "events.jsonl"


@dataclass
class Resume:
    """A save read back, and what preparing its run directory did (the `resumed` event's fields)."""

    path: Path
    data: dict[str, Any]
    report: dict[str, Any] = field(default_factory=dict)


# --- the held results: frozen commands with pydantic values inside ---------------------------
def _registry() -> tuple[dict[str, type], dict[str, type]]:
    """Every class a held Reply may contain, by name: the message dataclasses, CallRecord, and the
    pydantic values commands carry (plans, emotion states, relationships, commitments)."""
    from garp.engine.lmfunction import CallRecord
    from garp.mind.commitments import Commitment
    from garp.mind.emotion import EmotionState
    from garp.mind.plan_tree import PlanTree
    from garp.mind.relationships import Relationship
    from garp.sim import messages
    data = {n: c for n, c in vars(messages).items() if isinstance(c, type) and dataclasses.is_dataclass(c)}
    data["CallRecord"] = CallRecord
    models = {c.__name__: c for c in (Commitment, EmotionState, PlanTree, Relationship)}
    return data, models


def encode(value: Any) -> Any:
    """A held value as JSON: classes tagged by name, tuples kept apart from lists."""
    if isinstance(value, BaseModel):
        return {"@model": type(value).__name__, "v": value.model_dump(mode="json")}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {"@data": type(value).__name__,
                "v": {f.name: encode(getattr(value, f.name)) for f in dataclasses.fields(value)}}
    if isinstance(value, tuple):
        return {"@tuple": [encode(v) for v in value]}
    if isinstance(value, list):
        return [encode(v) for v in value]
    if isinstance(value, dict):
        return {str(k): encode(v) for k, v in value.items()}
    return value


def decode(value: Any, types: tuple[dict[str, type], dict[str, type]] | None = None) -> Any:
    types = types or _registry()
    if isinstance(value, list):
        return [decode(v, types) for v in value]
    if not isinstance(value, dict):
        return value
    if "@model" in value:
        return types[1][value["@model"]].model_validate(value["v"])
    if "@data" in value:
        return types[0][value["@data"]](**{k: decode(v, types) for k, v in value["v"].items()})
    if "@tuple" in value:
        return tuple(decode(v, types) for v in value["@tuple"])
    return {k: decode(v, types) for k, v in value.items()}


# --- taking a save -------------------------------------------------------------------------------
def cognition_state(brain: Any, minds: dict[str, Any]) -> dict[str, Any]:
    """The cognition thread's half: run it there (or while that thread is idle)."""
    return {"brain": brain.state(), "minds": {n: m.cognition_state() for n, m in minds.items()}}


def snapshot(sim: Any, cognition: dict[str, Any]) -> dict[str, Any]:
    """The main thread's half, joined with `cognition`: the whole save as JSON values."""
    sim.log.flush()  # the events the save counts are on disk before the save names them
    return {
        "format": FORMAT, "game": "garp", "saved_at": datetime.now().isoformat(timespec="seconds"),
        "scenario": sim.scenario_ref, "seed": sim.seed, "lockstep": sim.lockstep, "switches": sim.switches,
        "trait": sim.traits_choice, "t": sim.clock.t, "clock": sim.clock.state(),
        "log_events": len(sim.log.events), "rng": rng_state(sim.rng),
        "world": sim.world.state(), "perception": sim.sv.perception.state(),
        "minds": {n: {"name": n, **m.main_state()} for n, m in sim.minds.items()},
        "cognition": cognition, "simulation": sim.state(),
        "memories": _memory_fields(sim.sv.store),
    }


def _memory_fields(store: Any) -> dict[str, list[Any]]:
    """Per memory the fields retrieval and scoring change (they are not all journaled)."""
    return {r.id: [getattr(r, f) for f in MEMORY_FIELDS] for o in store.observers() for r in store.records(o)}


def write_save(run_dir: Path, data: dict[str, Any]) -> Path:
    """Temp file, fsync, rename: a crash leaves the old save or the new one, never half of one."""
    path = Path(run_dir) / SAVE_NAME
    replace_atomically(path, [json.dumps(data, separators=(",", ":"), default=str)])
    return path


# --- reading a save back ---------------------------------------------------------------------------
REQUIRED = ("scenario", "seed", "lockstep", "switches", "t", "clock", "log_events", "rng", "world", "perception",
            "minds", "cognition", "simulation", "memories")


def read_save(run_dir: str | Path) -> Resume:
    """The save in `run_dir` (a run folder, or the save file itself), checked before anything loads."""
    given = Path(run_dir)
    path = given if given.is_file() else given / SAVE_NAME
    if not given.exists():
        raise GarpError(f"--resume {given}: no such folder; give a run folder that holds {SAVE_NAME}")
    if not path.is_file():
        raise GarpError(f"--resume {given}: no {SAVE_NAME} in it; a run writes one every {AUTOSAVE_GAME_MIN:g} "
                        "game minutes and when it ends (runs from before saves existed cannot be resumed)")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
        raise GarpError(f"save {path}: unreadable ({err}); it is not a GARP save file") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        found = data.get("format") if isinstance(data, dict) else type(data).__name__
        raise GarpError(f"save {path}: field 'format' is {found!r}; this version of garp reads format {FORMAT}")
    missing = [k for k in REQUIRED if k not in data]
    if missing:
        raise GarpError(f"save {path}: field '{missing[0]}' is missing; the file is damaged or not a GARP save")
    return Resume(path=path, data=data)


def prepare_run_dir(resume: Resume) -> None:
    """Cut the run's log back to the save: events written after it (a run killed later) are moved to
    `events.after-save-N.jsonl` beside it, never deleted."""
    run_dir = resume.path.parent
    log_path = run_dir / LOG_NAME
    torn = cut_torn_tail(log_path)
    lines = log_path.read_text(encoding="utf-8").splitlines() if log_path.exists() else []
    lines = [line for line in lines if line.strip()]
    keep = int(resume.data["log_events"])
    if len(lines) < keep:
        raise GarpError(f"save {resume.path}: field 'log_events' is {keep} but {log_path} holds {len(lines)} events; "
                        "the log is older than the save")
    aside = None
    if len(lines) > keep:
        aside = _free_name(run_dir)
        replace_atomically(aside, lines[keep:])
        replace_atomically(log_path, lines[:keep])
    resume.report.update(save=str(resume.path), save_t=resume.data["t"], torn_bytes=torn,
                         events_set_aside=len(lines) - keep, set_aside_to=str(aside) if aside else "")


def _free_name(run_dir: Path) -> Path:
    n = 1
    while (run_dir / f"events.after-save-{n}.jsonl").exists():
        n += 1
    return run_dir / f"events.after-save-{n}.jsonl"


# --- restoring ----------------------------------------------------------------------------------------
def restore_store(store: Any, resume: Resume) -> None:
    """The store as the save saw it: memories stored after the save are rolled back, the fields
    retrieval changed since are put back."""
    saved: dict[str, list[Any]] = resume.data["memories"]
    later = {r.id for o in store.observers() for r in store.records(o) if r.id not in saved}
    rolled_back = store.discard(later) if later else 0
    changed = missing = 0
    for memory_id, values in saved.items():
        rec = store.get(memory_id)
        if rec is None:
            missing += 1
            continue
        fields = dict(zip(MEMORY_FIELDS, values, strict=True))
        if any(getattr(rec, f) != v for f, v in fields.items()):
            store.update(memory_id, **fields)
            changed += 1
    if missing:
        print(f"garp: resume {resume.path}: {missing} saved memories are missing from the store", file=sys.stderr)
    resume.report.update(memories_rolled_back=rolled_back, memories_reset=changed, memories_missing=missing)


def restore_minds(minds: dict[str, Any], brain: Any, resume: Resume) -> None:
    """Every mind, then the planners (which hold the minds' commitment books). Before threads start."""
    cognition = resume.data["cognition"]
    for name, mind in minds.items():
        if name not in resume.data["minds"]:
            raise GarpError(f"save {resume.path}: field 'minds' has no '{name}'; the save is of another cast")
        mind.restore({**cognition["minds"][name], **resume.data["minds"][name]})
    brain.restore(cognition["brain"])


def restore_world(world: Any, perception: Any, clock: Any, resume: Resume) -> None:
    world.restore(resume.data["world"])
    perception.restore(resume.data["perception"])
    clock.restore(resume.data["clock"])


def encode_held(replies: list[Any]) -> list[Any]:
    return [encode(r) for r in replies]


def decode_held(data: list[Any]) -> list[Any]:
    types = _registry()
    return [decode(r, types) for r in data]


# --- when to save ---------------------------------------------------------------------------------------
class Autosave:
    """Every `every_game_min` game minutes (0: never between quits), counted from `t`."""

    def __init__(self, every_game_min: float, t: float) -> None:
        self.every_s = max(0.0, float(every_game_min)) * 60.0
        self.next_t = t + self.every_s if self.every_s else float("inf")

    def due(self, t: float) -> bool:
        if t < self.next_t:
            return False
        while self.next_t <= t:
            self.next_t += self.every_s
        return True
