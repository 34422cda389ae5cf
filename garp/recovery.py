"""Crash recovery of a run directory: make the event log and the memory store agree.

A run writes every memory it stores to the log as a `memory` event (agent, t, type,
text). The log is the commit record: a memory formed by a cognition job whose results
never reached the log (the run was killed first) is rolled back, and a `memory` event
whose memory the store lacks is dropped from the log. Before that the log loses a torn
last line and the store replays its journal (memory_journal). What was done is written
to the log as a `recovery` event and printed on the terminal.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Callable

from garp.durable import cut_torn_tail, replace_atomically
from garp.eventlog import EventLog

LOG_NAME, STORE_NAME = "events.jsonl", "memory"
TEXT_CHARS = 200  # a memory event carries the first 200 characters of the description

MemoryKey = tuple[str, float, str, str]


@dataclass
class Recovery:
    """What opening a run directory repaired; all zeros after a clean shutdown."""

    torn_bytes: int = 0                 # a half-written last log line, cut
    journal_added: int = 0              # memories replayed from the store's journal
    journal_updated: int = 0
    rolled_back: int = 0                # stored memories the log never recorded, removed
    events_dropped: int = 0             # memory events whose memory the store lacks, removed
    notes: list[str] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        return any((self.torn_bytes, self.journal_added, self.journal_updated, self.rolled_back,
                    self.events_dropped))

    def summary(self) -> str:
        return (f"cut {self.torn_bytes} bytes of a torn log line, replayed {self.journal_added} new and "
                f"{self.journal_updated} changed memories from the store's journal, rolled back "
                f"{self.rolled_back} memories the log never recorded, dropped {self.events_dropped} "
                "memory events whose memory was not stored")


def memory_event(rec: Any) -> dict[str, Any]:
    """The log fields of a stored memory (MemoryRecord)."""
    return {"agent": rec.observer, "type": rec.type, "text": rec.description[:TEXT_CHARS]}


def memory_logger(log: EventLog) -> Callable[[Any], None]:
    """A store's `on_add` hook: every stored memory becomes a `memory` event (deferred inside
    a cognition job, so it lands with the job's results)."""
    from garp.sim.deferred import DeferredLog
    deferred = DeferredLog(log)
    return lambda rec: deferred.emit("memory", rec.created, **memory_event(rec))


def open_run_store(store_dir: Path) -> tuple[Any, EventLog | None]:
    """Open a run's memory store to add to it: recover the run first, then log each new
    memory to the run's log (None when the folder has no log, e.g. a bare store)."""
    from garp.engine.memory_store import MemoryStore
    store = MemoryStore(store_dir)
    log_path = store_dir.parent / LOG_NAME
    if not log_path.exists():
        return store, None
    recover_run(store_dir.parent, store)
    log = EventLog(log_path, append=True)
    store.on_add = memory_logger(log)
    return store, log


def record_key(rec: Any) -> MemoryKey:
    return rec.observer, round(float(rec.created), 3), rec.type, rec.description[:TEXT_CHARS]


def event_key(e: dict[str, Any]) -> MemoryKey:
    return e.get("agent", ""), round(float(e["t"]), 3), e.get("type", ""), e.get("text", "")


def disagreements(events: list[dict[str, Any]], store: Any) -> tuple[Counter, Counter]:
    """(memories only in the store, memory events only in the log), as key multisets."""
    logged = Counter(event_key(e) for e in events if e["kind"] == "memory")
    stored = Counter(record_key(r) for o in store.observers() for r in store.records(o))
    return stored - logged, logged - stored


def recover_run(run_dir: str | Path, store: Any) -> Recovery:
    """Reconcile `run_dir`'s log with its opened memory store (which has replayed its journal)."""
    log_path = Path(run_dir) / LOG_NAME
    report = Recovery(torn_bytes=cut_torn_tail(log_path))
    report.journal_added, report.journal_updated = store.recovered["added"], store.recovered["updated"]
    events = EventLog.read(log_path) if log_path.exists() else []
    store_only, log_only = disagreements(events, store)
    report.rolled_back = store.discard(_ids_of(store, store_only))
    if log_only:
        report.events_dropped = _drop_events(log_path, log_only)
    if report.changed:
        print(f"garp: recovered {run_dir}: {report.summary()}", file=sys.stderr)
        with_recovery = EventLog(log_path, append=True)
        t = events[-1]["t"] if events else 0.0
        with_recovery.emit("recovery", t, **{k: v for k, v in asdict(report).items() if k != "notes"},
                           message=report.summary())
        with_recovery.close()
    return report


def _ids_of(store: Any, keys: Counter) -> set[str]:
    """Ids of stored memories matching `keys` (newest first, as many as each key counts)."""
    left, ids = Counter(keys), set()
    for observer in store.observers():
        for rec in store.records(observer):
            k = record_key(rec)
            if left[k] > 0:
                left[k] -= 1
                ids.add(rec.id)
    return ids


def _drop_events(log_path: Path, keys: Counter) -> int:
    """Rewrite the log without the last memory events matching `keys`; how many went."""
    lines = log_path.read_text(encoding="utf-8").splitlines()
    left, dropped = Counter(keys), 0
    for i in range(len(lines) - 1, -1, -1):
        e = json.loads(lines[i]) if lines[i].strip() else None
        if e and e["kind"] == "memory" and left[event_key(e)] > 0:
            left[event_key(e)] -= 1
            lines[i] = ""
            dropped += 1
    replace_atomically(log_path, [l for l in lines if l])
    return dropped
