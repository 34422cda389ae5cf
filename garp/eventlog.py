"""The run's append-only event log (JSONL). It is the truth that checks and panels read.

Written line by line and made durable within `garp.durable.FSYNC_SECONDS`, so a hard
kill loses at most the last second of events (README "Crash safety").
"""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any, Callable

from garp.durable import DurableAppender


class EventLog:
    """Thread-safe JSONL writer that also keeps the events in memory.

    Each event is a dict with at least `kind` and `t` (game seconds since the
    scenario's start-date midnight). Listeners are called on the emitting thread.
    """

    def __init__(self, path: str | Path | None = None, *, append: bool = False) -> None:
        """A new log at `path` (replacing one there), or with `append` the existing one
        continued (its events loaded first)."""
        self.path = Path(path) if path else None
        self.events: list[dict[str, Any]] = []
        self._lock = threading.Lock()
        self._listeners: list[Callable[[dict[str, Any]], None]] = []
        # kinds asked for -> their events, kept up to date: `of_kind` on the frame loop copies a short
        # list instead of scanning a long day's log (a talk reads both speakers' days from it)
        self._views: dict[frozenset[str], list[dict[str, Any]]] = {}
        self._file: DurableAppender | None = None
        if self.path:
            if append and self.path.exists():
                self.events = self.read(self.path)
            self._file = DurableAppender(self.path, "a" if append else "w")

    def emit(self, kind: str, t: float, **fields: Any) -> dict[str, Any]:
        event = {"kind": kind, "t": round(float(t), 3), **fields}
        line = json.dumps(event, sort_keys=True, default=str)
        with self._lock:
            self.events.append(event)
            for kinds, view in self._views.items():
                if kind in kinds:
                    view.append(event)
            if self._file:
                self._file.write_line(line)
            listeners = list(self._listeners)
        for listener in listeners:
            listener(event)
        return event

    def subscribe(self, listener: Callable[[dict[str, Any]], None]) -> None:
        with self._lock:
            self._listeners.append(listener)

    def of_kind(self, *kinds: str) -> list[dict[str, Any]]:
        """The events of these kinds in order (a new list; the first ask for a set of kinds scans the log)."""
        key = frozenset(kinds)
        with self._lock:
            view = self._views.get(key)
            if view is None:
                view = self._views[key] = [e for e in self.events if e["kind"] in key]
            return list(view)

    def flush(self) -> None:
        """Make every event so far durable now (fsync)."""
        with self._lock:
            if self._file:
                self._file.sync()

    def close(self) -> None:
        with self._lock:
            if self._file:
                self._file.close()
                self._file = None

    @staticmethod
    def read(path: str | Path) -> list[dict[str, Any]]:
        with Path(path).open(encoding="utf-8") as f:
            return [json.loads(line) for line in f if line.strip()]
