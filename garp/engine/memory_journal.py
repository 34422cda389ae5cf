"""Write-ahead journal of the memory store: the records not yet in LanceDB.

LanceDB receives records in batches every few seconds (memory_persist), so a hard kill
used to lose the newest memories. Every add and change is first appended here as one
JSON line (durable like the event log, `garp.durable`). The writer thread starts a new
segment when it snapshots a batch and deletes the old segment once the batch is in
LanceDB; opening the store replays whatever segments a crash left behind.
"""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any, Iterator

import numpy as np

from garp.durable import DurableAppender

MemoryRecord = Any  # garp.engine.memory_store.MemoryRecord (imported here it would close an import circle)

JOURNAL_DIR = "journal"  # under the store's directory


class MemoryJournal:
    """Numbered segments `journal/00000001.jsonl`; lines {"op": "add"|"set", "rec", "vec"}."""

    def __init__(self, store_dir: Path) -> None:
        self.dir = store_dir / JOURNAL_DIR
        self.dir.mkdir(parents=True, exist_ok=True)
        self.left_over = self.segments()  # what a crash left: replayed by the store on open
        self._segment = max((int(p.stem) for p in self.left_over), default=0) + 1
        self._out = DurableAppender(self._path(self._segment))

    def _path(self, n: int) -> Path:
        return self.dir / f"{n:08d}.jsonl"

    def segments(self) -> list[Path]:
        return sorted(p for p in self.dir.glob("*.jsonl") if p.stem.isdigit())

    # --- called under the store lock ---------------------------------------------------
    # Lines are assembled from pydantic's own JSON (several times faster than json.dumps of a dict).
    def add(self, rec: MemoryRecord, vec: np.ndarray) -> None:
        blob = base64.b64encode(np.asarray(vec, dtype=np.float32).tobytes()).decode("ascii")
        self._out.write_line(f'{{"op":"add","vec":"{blob}","rec":{rec.model_dump_json()}}}')

    def change(self, rec: MemoryRecord) -> None:
        self._out.write_line(f'{{"op":"set","rec":{rec.model_dump_json()}}}')

    def rotate(self) -> tuple[DurableAppender, int]:
        """Start a new segment; the caller closes the old one outside the lock and releases
        its number once the batch it snapshotted is in LanceDB."""
        old, n = self._out, self._segment
        self._segment += 1
        self._out = DurableAppender(self._path(self._segment))
        return old, n

    # --- any thread ---------------------------------------------------------------------
    def release(self, upto: int) -> None:
        """Delete segments up to `upto`: their lines are in LanceDB now."""
        for p in self.segments():
            if int(p.stem) <= upto:
                p.unlink(missing_ok=True)

    def entries(self, paths: list[Path]) -> Iterator[dict[str, Any]]:
        """The lines of `paths` in order; a line a crash tore is skipped."""
        for p in paths:
            with p.open(encoding="utf-8") as f:
                for line in f:
                    try:
                        entry = json.loads(line)
                    except ValueError:
                        continue
                    if isinstance(entry, dict) and entry.get("op") in ("add", "set"):
                        yield entry

    @staticmethod
    def vector(entry: dict[str, Any]) -> np.ndarray:
        return np.frombuffer(base64.b64decode(entry["vec"]), dtype=np.float32).copy()

    def close(self, clean: bool) -> None:
        """Close the open segment; after a clean flush every segment is in LanceDB."""
        self._out.close()
        if clean:
            self.release(self._segment)
