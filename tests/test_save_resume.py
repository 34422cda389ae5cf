"""Save and resume (issue 20 §4): a resumed headless run repeats the unbroken run's log from its
save on, a run SIGKILLed after an autosave resumes and passes its scenario's goals, and bad saves
are refused with the file and the field named."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import types
from pathlib import Path

import pytest

from garp.errors import GarpError
from garp.sim.savegame import FORMAT, SAVE_NAME, decode, encode, read_save
from sim_helpers import seeded_cache

ROOT = Path(__file__).resolve().parents[1]
ENV = {**os.environ, "PYTHONPATH": str(ROOT), "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy",
       "HF_HUB_OFFLINE": "1"}
SESSION_KINDS = {"run_end", "resumed"}  # where one session stops and the next takes up


def _events(run_dir: Path) -> list[dict]:
    return [json.loads(line) for line in (run_dir / "events.jsonl").read_text().splitlines()]


def _args(cache: Path, **kw) -> types.SimpleNamespace:
    return types.SimpleNamespace(seed=None, cache=str(cache), live=False, record=False, **kw)


@pytest.mark.model
@pytest.mark.parametrize("scenario,hours", [("apology", 1.5), ("dinner_party", 1.75)])
def test_a_resumed_headless_run_repeats_the_unbroken_runs_log(tmp_path, sim_engine, scenario, hours):
    from garp.sim.runner import run_headless
    backend, embedder = sim_engine
    cache = seeded_cache(tmp_path)
    run_headless(scenario, _args(cache, out=str(tmp_path / "whole")), backend=backend, embedder=embedder)
    split = tmp_path / "split"
    first = run_headless(scenario, _args(cache, out=str(split)), hours=hours, backend=backend, embedder=embedder)
    saved = json.loads((split / SAVE_NAME).read_text())
    assert saved["format"] == FORMAT and saved["t"] == first.clock.t
    second = run_headless(scenario, _args(cache, resume=str(split)), backend=backend, embedder=embedder)
    whole, resumed = _events(tmp_path / "whole"), _events(split)
    marker = next(i for i, e in enumerate(resumed) if e["kind"] == "resumed")
    assert resumed[marker]["t"] == saved["t"] and resumed[marker]["events_set_aside"] == 0
    assert sum(e["kind"] == "resumed" for e in resumed) == 1
    same = [e for e in whole if e["kind"] not in SESSION_KINDS]
    assert [e for e in resumed if e["kind"] not in SESSION_KINDS] == same  # before H and after it
    assert len([e for e in resumed[marker:] if e["kind"] == "llm_call"]) > 0
    assert all(e["cached"] for e in resumed[marker:] if e["kind"] == "llm_call" and e["mode"] != "code"), \
        "same prompts as unbroken"
    assert second.clock.t == second.scenario.end_seconds


def _wait_for_save(proc: subprocess.Popen, save: Path, timeout_s: float = 240.0) -> None:
    deadline = time.monotonic() + timeout_s
    while not save.exists():
        assert proc.poll() is None, "the run ended before its first autosave"
        assert time.monotonic() < deadline, "no autosave appeared"
        time.sleep(0.02)


@pytest.mark.model
def test_sigkill_after_an_autosave_then_resume_passes_the_scenarios_goals(tmp_path, sim_engine):
    """A real `garp run` subprocess, killed after its first autosave; resumed by another one. The
    log ends up as the unbroken run's (in this process), and the goals pass."""
    from garp.engine.memory_store import MemoryStore
    from garp.recovery import disagreements
    from garp.scenario.goals import check_goals
    from garp.scenario.loader import load_scenario
    from garp.sim.runner import run_headless
    cache, out = seeded_cache(tmp_path), tmp_path / "run"
    run = [sys.executable, "-m", "garp.cli", "run", "dinner_party", "--cache", str(cache)]
    proc = subprocess.Popen(run + ["--out", str(out), "--autosave", "30"], cwd=ROOT, env=ENV,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        _wait_for_save(proc, out / SAVE_NAME)
        time.sleep(0.3)  # let it run on past the save: those events must be set aside, not kept
        assert proc.poll() is None, "the run ended before it could be killed"
        proc.send_signal(signal.SIGKILL)
        proc.wait(30)
    finally:
        if proc.poll() is None:
            proc.kill()
    saved_t = json.loads((out / SAVE_NAME).read_text())["t"]
    done = subprocess.run(run + ["--resume", str(out)], cwd=ROOT, env=ENV, capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "resume with: garp run dinner_party --resume" in done.stdout
    events = _events(out)
    resumed = [e for e in events if e["kind"] == "resumed"]
    assert len(resumed) == 1 and resumed[0]["save_t"] == saved_t
    assert [e["t"] for e in events if e["kind"] == "run_end"] == [load_scenario("dinner_party").end_seconds]
    aside = resumed[0]["set_aside_to"]
    assert not aside or Path(aside).read_text().strip(), "events after the save are kept beside the log"
    scenario = load_scenario("dinner_party")
    failed = [r.as_dict() for r in check_goals(scenario.goals, events) if not r.passed]
    assert failed == []
    with MemoryStore(out / "memory") as store:
        assert disagreements(events, store) == ({}, {})
    run_headless("dinner_party", _args(cache, out=str(tmp_path / "whole")), backend=sim_engine[0],
                 embedder=sim_engine[1])
    whole = [e for e in _events(tmp_path / "whole") if e["kind"] not in SESSION_KINDS]
    assert [e for e in events if e["kind"] not in SESSION_KINDS] == whole
    print(f"\nresumed: {resumed[0]}")


@pytest.mark.model
def test_ctrl_c_ends_a_headless_run_between_steps_saves_and_says_how_to_resume(tmp_path):
    cache, out = seeded_cache(tmp_path), tmp_path / "run"
    proc = subprocess.Popen([sys.executable, "-m", "garp.cli", "run", "dinner_party", "--cache", str(cache),
                             "--out", str(out), "--autosave", "30"], cwd=ROOT, env=ENV, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True)
    try:
        _wait_for_save(proc, out / SAVE_NAME)
        first = json.loads((out / SAVE_NAME).read_text())["t"]
        proc.send_signal(signal.SIGINT)
        stdout, _ = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130
    assert f"interrupted; saved to {out / SAVE_NAME}; resume with: garp run dinner_party --resume {out}" in stdout
    saved = json.loads((out / SAVE_NAME).read_text())
    events = _events(out)
    assert saved["t"] >= first and saved["t"] % 60 == 0  # taken between two lockstep steps
    assert events[-1]["kind"] == "run_end" and saved["log_events"] == len(events)


@pytest.mark.model
def test_a_play_session_saves_when_it_closes_and_resumes_where_it_was(tmp_path, sim_engine):
    """Play (real-time clock, one cognition worker per agent): quitting saves; the save takes up
    the clock, bodies, plans and needs as they were, and play goes on from there."""
    from garp.sim.wiring import build
    backend, embedder = sim_engine
    cache = seeded_cache(tmp_path)
    opts = types.SimpleNamespace(out=str(tmp_path / "play"), seed=None, cache=str(cache), live=False, record=False)
    sim = build("apology", opts, lockstep=False, backend=backend, embedder=embedder)
    for _ in range(40):
        sim.update(0.1)
        time.sleep(0.02)
    sim.close()
    assert sim.last_save == tmp_path / "play" / SAVE_NAME
    t, bodies = sim.clock.t, {n: (b.x, b.y, b.place) for n, b in sim.world.bodies.items()}
    plans = {n: m.plan.to_dict() if m.plan else None for n, m in sim.minds.items()}
    needs = {n: dict(m.needs.values) for n, m in sim.minds.items()}
    again = build(None, types.SimpleNamespace(resume=str(tmp_path / "play"), cache=str(cache), live=False,
                                              record=False), lockstep=False, backend=backend, embedder=embedder)
    try:
        assert again.clock.t == t and {n: (b.x, b.y, b.place) for n, b in again.world.bodies.items()} == bodies
        assert {n: m.plan.to_dict() if m.plan else None for n, m in again.minds.items()} == plans
        assert {n: dict(m.needs.values) for n, m in again.minds.items()} == needs
        for _ in range(10):
            again.update(0.1)
        assert again.clock.t > t
    finally:
        again.close()
    kinds = [e["kind"] for e in _events(tmp_path / "play")]
    assert kinds.count("run_start") == 1 and kinds.count("resumed") == 1 and kinds[-1] == "run_end"


# --- no model ------------------------------------------------------------------------------------
def test_a_bad_resume_path_or_save_file_is_refused_with_its_name(tmp_path):
    with pytest.raises(GarpError, match="no such folder"):
        read_save(tmp_path / "nowhere")
    with pytest.raises(GarpError, match=f"no {SAVE_NAME} in it"):
        read_save(tmp_path)
    save = tmp_path / SAVE_NAME
    save.write_text("{not json")
    with pytest.raises(GarpError, match=f"save {save}: unreadable"):
        read_save(tmp_path)
    save.write_text(json.dumps({"format": FORMAT + 1}))
    with pytest.raises(GarpError, match=f"field 'format' is {FORMAT + 1}; this version of garp reads format"):
        read_save(tmp_path)
    save.write_text(json.dumps({"format": FORMAT, "scenario": "apology"}))
    with pytest.raises(GarpError, match="field 'seed' is missing"):
        read_save(tmp_path)


def test_cli_refuses_options_a_resume_would_ignore_and_bad_paths(tmp_path, capsys):
    from garp.cli import main
    with pytest.raises(SystemExit) as exit_:
        main(["run", "apology", "--resume", str(tmp_path), "--seed", "3"])
    assert exit_.value.code == 2 and "--seed would be ignored with --resume" in capsys.readouterr().err
    assert main(["run", "apology", "--resume", str(tmp_path / "gone")]) == 2
    assert "no such folder" in capsys.readouterr().err


def test_held_results_survive_json_as_the_same_commands():
    from garp.engine.lmfunction import CallRecord
    from garp.mind.emotion import EmotionState
    from garp.mind.plan_tree import PlanTree, nodes_from_times
    from garp.sim.messages import CallRecords, Do, EmotionChanged, LogEvents, Reply, SetPlan
    tree = PlanTree(day=0, nodes=nodes_from_times([("08:00", "work", "Cafe"), ("12:00", "lunch", None)], 0))
    state = EmotionState(label="calm", intensity=0.2, valence=0.1, t=5.0, cause="scene")
    commands = [SetPlan(agent="A", tree=tree, day=0, serial=2),
                Do(agent="A", description="read", place=None, duration_s=60.0, decision={"why": ("x", 1)}),
                EmotionChanged(agent="A", label="calm", intensity=0.2, valence=0.1, text="calm", cause="c", t=5.0,
                               state=state),
                LogEvents(agent="A", events=({"kind": "memory", "t": 1.0},)),
                CallRecords(agent="A", records=(CallRecord(1, "A", "f", 2.0, [{"role": "user", "content": "hi"}]),))]
    held = [Reply(c, i, 1.0, 2.0, "decide") for i, c in enumerate(commands)]
    assert [decode(json.loads(json.dumps(encode(r)))) for r in held] == held
