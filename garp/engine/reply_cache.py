"""Persistent reply cache (paper Table II "prompt cache": prompt -> response, persistent).

Keyed by sha256 of (model sha256, call kind, messages, schema or options, sampling
parameters including the seed). A hit means no model call, which makes a run
replayable. The file records the model it was made with; opening it with another model
is refused, so a recording is never replayed against a different model.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any, Literal

from garp.errors import GarpError

CacheMode = Literal["use", "record", "off"]
MODES = ("use", "record", "off")


def make_key(model_id: str, kind: str, payload: dict[str, Any]) -> str:
    """Stable key: canonical JSON (sorted keys) of everything that changes the reply."""
    blob = json.dumps({"model": model_id, "kind": kind, **payload}, sort_keys=True, ensure_ascii=False,
                      separators=(",", ":"))
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


class ReplyCache:
    """sqlite file of replies. mode: use (read+write), record (write only), off (neither)."""

    def __init__(self, path: str | Path, model_id: str, mode: CacheMode = "use"):
        if mode not in MODES:
            raise GarpError(f"reply cache mode {mode!r}: must be one of {', '.join(MODES)}")
        self.path, self.model_id, self.mode = Path(path), model_id, mode
        self.hits = self.misses = 0
        self._lock = threading.Lock()
        self._db: sqlite3.Connection | None = None
        if mode != "off":
            self._open()

    def _open(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("CREATE TABLE IF NOT EXISTS meta (k TEXT PRIMARY KEY, v TEXT)")
            db.execute("CREATE TABLE IF NOT EXISTS replies (key TEXT PRIMARY KEY, value TEXT, created REAL)")
            row = db.execute("SELECT v FROM meta WHERE k='model'").fetchone()
        except sqlite3.DatabaseError as e:
            raise GarpError(f"reply cache {self.path}: not a readable cache file ({e}); delete it to start afresh") from None
        if row is None:
            db.execute("INSERT INTO meta VALUES ('model', ?)", (self.model_id,))
        elif row[0] != self.model_id:
            db.close()
            raise GarpError(f"reply cache {self.path} was recorded with model {row[0]} but the current model is "
                            f"{self.model_id}; a recording is never replayed against another model — use another "
                            "cache file, run with --live, or re-record with --record")
        self._db = db

    def key(self, kind: str, payload: dict[str, Any]) -> str:
        return make_key(self.model_id, kind, payload)

    def get(self, key: str) -> dict | None:
        if self.mode != "use" or self._db is None:
            return None
        with self._lock:
            row = self._db.execute("SELECT value FROM replies WHERE key=?", (key,)).fetchone()
        if row is None:
            self.misses += 1
            return None
        self.hits += 1
        return json.loads(row[0])

    def put(self, key: str, value: dict) -> None:
        if self.mode == "off" or self._db is None:
            return
        with self._lock:
            self._db.execute("INSERT OR REPLACE INTO replies VALUES (?, ?, ?)",
                             (key, json.dumps(value, ensure_ascii=False), time.time()))

    def __len__(self) -> int:
        if self._db is None:
            return 0
        with self._lock:
            return self._db.execute("SELECT COUNT(*) FROM replies").fetchone()[0]

    def close(self) -> None:
        with self._lock:
            if self._db is not None:
                self._db.close()
                self._db = None
