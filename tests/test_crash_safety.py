"""Crash consistency (issue 20 §3): the event log and the memory store survive SIGKILL and
agree after the recovery step that runs when a run directory is opened."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from garp import durable
from garp.durable import cut_torn_tail
from garp.engine.memory_store import MemoryRecord, MemoryStore
from garp.eventlog import EventLog
from garp.recovery import disagreements, memory_event, recover_run

ROOT = Path(__file__).resolve().parents[1]
ENV = {**os.environ, "PYTHONPATH": str(ROOT), "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy",
       "HF_HUB_OFFLINE": "1"}


def unit(seed: int) -> np.ndarray:
    v = np.random.default_rng(seed).normal(size=384).astype(np.float32)
    return v / np.linalg.norm(v)


def test_log_lines_reach_the_file_at_once_and_are_fsynced_within_a_second(tmp_path, monkeypatch):
    synced: list[float] = []
    real_fsync = os.fsync
    monkeypatch.setattr(durable.os, "fsync", lambda fd: (synced.append(time.monotonic()), real_fsync(fd)))
    log = EventLog(tmp_path / "events.jsonl")
    t0 = time.monotonic()
    log.emit("arrive", 10.0, agent="Ana", place="Cafe")
    assert json.loads((tmp_path / "events.jsonl").read_text())["agent"] == "Ana"  # no close, no flush
    deadline = t0 + 2.0
    while not synced and time.monotonic() < deadline:
        time.sleep(0.02)
    assert synced and synced[0] - t0 <= 1.0
    log.close()


def test_a_torn_last_line_is_cut(tmp_path):
    path = tmp_path / "events.jsonl"
    path.write_text('{"kind": "a", "t": 1}\n{"kind": "b", "t": 2}\n{"kind": "c", "t"')
    assert cut_torn_tail(path) == len('{"kind": "c", "t"')
    assert [e["kind"] for e in EventLog.read(path)] == ["a", "b"] and cut_torn_tail(path) == 0
    log = EventLog(path, append=True)
    log.emit("d", 3.0)
    log.close()
    assert [e["kind"] for e in EventLog.read(path)] == ["a", "b", "d"]


KILLED_WRITER = """
import os, signal, sys
import numpy as np
from garp.engine.memory_store import MemoryRecord, MemoryStore
store = MemoryStore(sys.argv[1])
for i in range(300):
    v = np.random.default_rng(i).normal(size=384).astype(np.float32)
    rec = MemoryRecord(observer="Ana", description=f"memory {i}", created=float(i))
    store.add(rec, v / np.linalg.norm(v))
    if i % 3 == 0:
        store.update(rec.id, poignancy=7)
os.kill(os.getpid(), signal.SIGKILL)
"""


def test_store_journal_keeps_every_memory_through_sigkill(tmp_path):
    proc = subprocess.run([sys.executable, "-c", KILLED_WRITER, str(tmp_path / "memory")], env=ENV, timeout=120)
    assert proc.returncode == -signal.SIGKILL
    with MemoryStore(tmp_path / "memory") as store:
        recs = store.records("Ana")
        assert len(recs) == 300 and sum(r.poignancy == 7 for r in recs) == 100
        assert store.recovered["added"] > 0  # the batches LanceDB had not received came from the journal
    with MemoryStore(tmp_path / "memory") as store:
        assert store.count() == 300 and store.recovered["added"] == 0
    assert not list((tmp_path / "memory" / "journal").glob("*.jsonl"))  # a clean close leaves no journal


def test_recovery_rolls_back_unlogged_memories_and_drops_orphan_events(tmp_path, capsys):
    log = EventLog(tmp_path / "events.jsonl")
    store = MemoryStore(tmp_path / "memory")
    recs = [MemoryRecord(observer="Ana", description=f"m{i}", created=60.0 * i) for i in range(4)]
    for i, rec in enumerate(recs):
        store.add(rec, unit(i))
    for rec in recs[:3]:  # the last memory's job never reached the log
        log.emit("memory", rec.created, **memory_event(rec))
    log.emit("memory", 500.0, agent="Ana", type="event", text="lost with the store")
    log.close()
    report = recover_run(tmp_path, store)
    assert (report.rolled_back, report.events_dropped) == (1, 1)
    events = EventLog.read(tmp_path / "events.jsonl")
    assert disagreements(events, store) == ({}, {}) and store.count() == 3
    assert events[-1]["kind"] == "recovery" and "rolled back 1" in capsys.readouterr().err
    store.close()
    with MemoryStore(tmp_path / "memory") as again:
        assert again.count() == 3 and recover_run(tmp_path, again).changed is False


def _poll_until(proc: subprocess.Popen, log: Path, enough) -> list[tuple[float, int]]:
    """Sizes of the log over time until `enough(text, seconds since its first bytes)` or the process ends."""
    sizes: list[tuple[float, int]] = []
    deadline, first = time.monotonic() + 600, None
    while proc.poll() is None and time.monotonic() < deadline:
        text = log.read_text(encoding="utf-8") if log.exists() else ""
        sizes.append((time.monotonic(), len(text.encode())))
        first = first if first is not None or not text else time.monotonic()
        if first is not None and enough(text, time.monotonic() - first):
            break
        time.sleep(0.05)
    return sizes


@pytest.mark.model
def test_sigkill_of_a_headless_run_loses_at_most_a_second_and_recovery_agrees(tmp_path):
    cache = tmp_path / "replies.sqlite"
    shutil.copy(ROOT / "scenarios" / "replies" / "replies.sqlite", cache)
    out = tmp_path / "run"
    # The town's replay writes its log for ~40 s, so the kill lands mid-run on a fast or a slow machine
    # (apology's whole replay can take 1.3 s: too short to hold a second of log before the kill).
    proc = subprocess.Popen([sys.executable, "-m", "garp.cli", "run", "town", "--headless", "--out", str(out),
                             "--cache", str(cache)], cwd=ROOT, env=ENV, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    try:
        sizes = _poll_until(proc, out / "events.jsonl",
                            lambda text, seconds: seconds >= 2.0 and text.count('"memory"') >= 3)
        assert proc.poll() is None, "the run ended before it could be killed"
        killed_at = time.monotonic()
        proc.send_signal(signal.SIGKILL)
        proc.wait(30)
    finally:
        if proc.poll() is None:
            proc.kill()
    final = (out / "events.jsonl").stat().st_size
    before = max((s for t, s in sizes if t <= killed_at - 1.0), default=0)
    assert final >= before > 0  # everything written up to a second before the kill is there
    with MemoryStore(out / "memory") as store:
        report = recover_run(out, store)
        events = EventLog.read(out / "events.jsonl")
        assert disagreements(events, store) == ({}, {})
        assert store.count() > 0 and sum(e["kind"] == "memory" for e in events) == store.count()
    print(f"\nkilled at {final} bytes (a second before: {before}); recovery: {report.summary()}")
    assert report.torn_bytes == 0  # lines are written whole
