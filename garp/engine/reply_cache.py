"""Persistent reply cache (paper Table II "prompt cache": prompt -> response, persistent).

Keyed by sha256 of (backend identity, call kind, messages, schema or options, sampling
parameters including the seed); the identity is the embedded model's sha256 or
`server:URL:model`. A hit means no model call, which makes a run replayable. The file
records the backend it was made with; opening it with another is refused, so a
recording is never replayed against a different model.

Two kinds of file:
- a recording (`keep_rejected=True`, the committed scenarios/replies/ file) keeps what
  the model said, rejected replies too (flagged `rejected`), so a replay reproduces the
  same fallbacks;
- a live cache (`keep_rejected=False`, the local one under runs/replies/, one file per
  backend) stores only replies that passed validation and never serves a flagged one,
  so a backend returning junk cannot poison later runs.
On open, an entry that cannot be parsed is dropped and logged (`repaired` counts them).
"""

from __future__ import annotations

import hashlib
import json
import logging
import math
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any, Literal

from garp.errors import GarpError

CacheMode = Literal["use", "record", "off"]
MODES = ("use", "record", "off")
REJECTED = "rejected"  # value field: why a recorded reply failed validation

log = logging.getLogger(__name__)


def make_key(model_id: str, kind: str, payload: dict[str, Any]) -> str:
    """Stable key: canonical JSON (sorted keys) of everything that changes the reply."""
    blob = json.dumps({"model": model_id, "kind": kind, **payload}, sort_keys=True, ensure_ascii=False,
                      separators=(",", ":"))
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


def backend_slug(model_id: str) -> str:
    """A file-name-safe name for one backend identity (model sha256 or server URL + model)."""
    return hashlib.sha256(model_id.encode("utf-8")).hexdigest()[:16]


def well_formed(value: Any) -> bool:
    """A stored value the callers can use: a completion or a list of finite option scores."""
    if not isinstance(value, dict):
        return False
    if "scores" in value:
        s = value["scores"]
        return isinstance(s, list) and all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in s)
    return (isinstance(value.get("text"), str) and isinstance(value.get("prompt_tokens"), int)
            and isinstance(value.get("completion_tokens"), int))


def valid_scores(scores: Any, options: list[str]) -> str | None:
    """Why a score list cannot rank `options` (None when it can)."""
    if not isinstance(scores, list) or len(scores) != len(options):
        return f"{len(scores) if isinstance(scores, list) else 'no'} scores for {len(options)} options"
    if not all(isinstance(x, (int, float)) and not math.isnan(x) for x in scores):
        return "a score is not a number"
    return None


class ReplyCache:
    """sqlite file of replies. mode: use (read+write), record (write only), off (neither)."""

    def __init__(self, path: str | Path, model_id: str, mode: CacheMode = "use", *, keep_rejected: bool = True):
        if mode not in MODES:
            raise GarpError(f"reply cache mode {mode!r}: must be one of {', '.join(MODES)}")
        self.path, self.model_id, self.mode = Path(path), model_id, mode
        self.keep_rejected = keep_rejected
        self.hits = self.misses = self.repaired = 0
        self._lock = threading.Lock()
        self._db: sqlite3.Connection | None = None
        if mode != "off":
            self._open()

    def _open(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
            db.execute("PRAGMA journal_mode=WAL")
            damage = db.execute("PRAGMA quick_check").fetchone()[0]
            if damage != "ok":
                raise sqlite3.DatabaseError(damage)
            db.execute("CREATE TABLE IF NOT EXISTS meta (k TEXT PRIMARY KEY, v TEXT)")
            db.execute("CREATE TABLE IF NOT EXISTS replies (key TEXT PRIMARY KEY, value TEXT, created REAL)")
            row = db.execute("SELECT v FROM meta WHERE k='model'").fetchone()
        except sqlite3.DatabaseError as e:
            # a file replaced while a -wal file was left beside it (a killed run, then `git checkout`) reads as
            # this; unchecked, its rows came back under other keys (8 scores for a choice of 7)
            raise GarpError(f"reply cache {self.path}: not a readable cache file ({e}); delete it to start afresh, "
                            f"or restore it with no {self.path.name}-wal or -shm file beside it") from None
        if row is None:
            db.execute("INSERT INTO meta VALUES ('model', ?)", (self.model_id,))
        elif row[0] != self.model_id:
            db.close()
            raise GarpError(f"reply cache {self.path} was recorded with model {row[0]} but the current model is "
                            f"{self.model_id}; a recording is never replayed against another model — use another "
                            "cache file, run with --live, or re-record with --record")
        self._db = db
        self._repair()

    def _usable(self, text: str) -> bool:
        try:
            value = json.loads(text)
        except (TypeError, ValueError):
            return False
        return well_formed(value) and (self.keep_rejected or REJECTED not in value)

    def _repair(self) -> None:
        """Drop entries a caller could not use (unparseable; in a live cache also rejected ones)."""
        assert self._db is not None
        bad = [k for k, v in self._db.execute("SELECT key, value FROM replies") if not self._usable(v)]
        if bad:
            self._db.executemany("DELETE FROM replies WHERE key=?", [(k,) for k in bad])
            log.warning("reply cache %s: dropped %d unusable entr%s", self.path, len(bad), "y" if len(bad) == 1 else "ies")
        self.repaired = len(bad)

    def key(self, kind: str, payload: dict[str, Any]) -> str:
        return make_key(self.model_id, kind, payload)

    def get(self, key: str) -> dict | None:
        if self.mode != "use" or self._db is None:
            return None
        with self._lock:
            row = self._db.execute("SELECT value FROM replies WHERE key=?", (key,)).fetchone()
        value = json.loads(row[0]) if row is not None else None
        if value is None or (REJECTED in value and not self.keep_rejected):
            self.misses += 1
            return None
        self.hits += 1
        return value

    def put(self, key: str, value: dict, rejected: str | None = None) -> None:
        """Store a reply; `rejected` says why it failed validation (a live cache then skips it)."""
        if self.mode == "off" or self._db is None or (rejected is not None and not self.keep_rejected):
            return
        stored = {**value, REJECTED: rejected} if rejected is not None else value
        with self._lock:
            self._db.execute("INSERT OR REPLACE INTO replies VALUES (?, ?, ?)",
                             (key, json.dumps(stored, ensure_ascii=False), time.time()))

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
