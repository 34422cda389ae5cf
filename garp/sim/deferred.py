"""An event log front that defers events emitted on the cognition thread.

Minds and LM functions may log as they think (memories, appraisals). Written straight
to the EventLog from the cognition thread, those lines would interleave with the main
thread's by wall-clock luck; a headless run would then not reproduce. Inside a cognition
job, `emit` collects the event instead, and the main thread writes it when it applies
the job's results (at the job's due time). Outside a job it writes through.
"""

from __future__ import annotations

import contextlib
import contextvars
from typing import Any, Iterator

from garp.eventlog import EventLog

_buffer: contextvars.ContextVar[list | None] = contextvars.ContextVar("garp_deferred_events", default=None)


class DeferredLog:
    def __init__(self, log: EventLog) -> None:
        self.log = log

    def emit(self, kind: str, t: float, **fields: Any) -> dict[str, Any] | None:
        buf = _buffer.get()
        if buf is None:
            return self.log.emit(kind, t, **fields)
        buf.append({"kind": kind, "t": float(t), **fields})
        return None

    @contextlib.contextmanager
    def capture(self) -> Iterator[list[dict[str, Any]]]:
        captured: list[dict[str, Any]] = []
        token = _buffer.set(captured)
        try:
            yield captured
        finally:
            _buffer.reset(token)

    def __getattr__(self, name: str) -> Any:  # of_kind, events, subscribe ... read through
        return getattr(self.log, name)
