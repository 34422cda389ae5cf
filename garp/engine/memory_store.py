"""Memory stream storage and Eq. 1 retrieval (paper III-A2, IV-D).

LanceDB (embedded, under the run's save directory) is the durable store; a hot in-memory
numpy index per observer serves retrieval (LanceDB's flat search took 42–233 ms for
100k rows on 2 cores, a masked dot product over one agent's rows ~2 ms). `add()` only
touches memory: a background writer thread appends buffered records every
`FLUSH_EVERY` records or `FLUSH_SECONDS`, rewrites changed rows with `merge_insert`, and
compacts the table now and then so LanceDB versions and fragments do not pile up.

No value ever goes into a LanceDB SQL filter: loading reads the whole table and updates
join on the `id` column, so names and text with quotes or backslashes are always safe.
"""

from __future__ import annotations

import hashlib
import logging
import math
import threading
import uuid
import weakref
from collections import OrderedDict
from pathlib import Path
from typing import Any, Callable, Literal

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from garp.engine.memory_persist import LancePersister
from garp.errors import GarpError, describe_validation_error

log = logging.getLogger(__name__)

# --- tunables -------------------------------------------------------------------------
W_POIGNANCY, W_SIMILARITY, W_RECENCY, W_EMOTION = 6.0, 3.0, 0.5, 1.5  # Eq. 1 weights (III-A2)
MOOD_MATCH, MOOD_ANY = 1.0, 0.5  # mood-congruent salience E: same emotion / any emotional memory (III-A2)
RECENCY_DECAY = 0.995  # per game hour since last access: Generative Agents (Park et al. 2023, §4.1)
# decay "over the number of sandbox game hours since the memory was last retrieved"; GARP keeps it
HALF_LIFE_HOURS = 24.0  # Ebbinghaus R = exp(-0.693·Δt/(24σ)), Δt in game hours (III-A2)
STABILITY_MIN, STABILITY_MAX = 1.0, 5.0  # σ clamp (III-A2)
STABILITY_PER_RETRIEVAL = 0.2  # σ gain per retrieval (III-A2)
STABILITY_PER_INTENSITY = 2.0  # initial σ = 1 + 2·intensity at encoding (III-A2 "higher with intensity")
DEFAULT_POIGNANCY = 3  # provisional rating until the async scorer replies (IV-E)
RETRIEVAL_CACHE_SIZE = 50  # retrieval LRU capacity (Table II)
CACHE_TIME_BUCKET = 60.0  # game seconds; `now` rounded to this in the retrieval cache key
TYPES = ("event", "thought", "chat", "preference")
MODES = ("recency", "ebbinghaus")

MemoryType = Literal["event", "thought", "chat", "preference"]


def initial_stability(intensity: float) -> float:
    """σ at encoding: emotionally intense memories start more stable (clamped to [1, 5])."""
    return min(STABILITY_MAX, max(STABILITY_MIN, 1.0 + STABILITY_PER_INTENSITY * intensity))


def ebbinghaus_retention(dt_hours: np.ndarray | float, stability: np.ndarray | float) -> np.ndarray:
    """R = exp(−0.693·Δt/(24σ)): retention halves every 24·σ game hours."""
    return np.exp(-0.693 * np.maximum(dt_hours, 0.0) / (HALF_LIFE_HOURS * np.asarray(stability)))


def recency_decay(dt_hours: np.ndarray | float) -> np.ndarray:
    """0.995^hours since last access (Generative Agents' exponential recency)."""
    return np.power(RECENCY_DECAY, np.maximum(dt_hours, 0.0))


def minmax(values: np.ndarray) -> np.ndarray:
    """Min-max over the candidate set; a constant column maps to 0.5 (as Generative Agents)."""
    lo, hi = float(values.min()), float(values.max())
    if hi - lo < 1e-12:
        return np.full(values.shape, 0.5, dtype=np.float64)
    return (values - lo) / (hi - lo)


class MemoryRecord(BaseModel):
    """One memory of one observer (III-A2). Vectors live beside it in the store."""

    model_config = ConfigDict(extra="forbid")

    id: str = Field(default_factory=lambda: str(uuid.uuid4()), min_length=1)
    observer: str = Field(min_length=1)
    description: str
    subject: str = ""
    predicate: str = ""
    object: str = ""
    created: float  # game seconds
    last_accessed: float  # game seconds; defaults to `created`
    location: str = ""
    type: MemoryType = "event"
    poignancy: int = Field(DEFAULT_POIGNANCY, ge=1, le=10)
    poignancy_scored: bool = False
    emotion: str = "neutral"  # primary emotion at encoding
    emotion_intensity: float = Field(0.0, ge=0.0, le=1.0)
    stability: float  # Ebbinghaus σ; defaults to initial_stability(emotion_intensity)
    retrievals: int = Field(0, ge=0)
    evidence: list[str] = Field(default_factory=list)  # ids of memories this one rests on
    header: str = ""  # an authored rule's condition, shown as the card header

    @model_validator(mode="before")
    @classmethod
    def _defaults(cls, data: Any) -> Any:
        if isinstance(data, dict):
            data = dict(data)
            if data.get("last_accessed") is None and "created" in data:
                data["last_accessed"] = data["created"]
            if data.get("stability") is None:
                data["stability"] = initial_stability(float(data.get("emotion_intensity") or 0.0))
        return data

    @field_validator("emotion")
    @classmethod
    def _emotion_label(cls, v: str) -> str:
        return v.strip().lower() or "neutral"

    @field_validator("stability")
    @classmethod
    def _clamp_stability(cls, v: float) -> float:
        return min(STABILITY_MAX, max(STABILITY_MIN, v))

    @property
    def emotional(self) -> bool:
        return self.emotion != "neutral" and self.emotion_intensity > 0.0


class ScoredMemory(BaseModel):
    """A retrieved memory, its Eq. 1 score and the normalised factors before weighting."""

    model_config = ConfigDict(frozen=True)

    record: MemoryRecord
    score: float
    factors: dict[str, float]  # poignancy, similarity, recency, emotion


class _HotIndex:
    """One observer's rows: preallocated float32 vectors plus the scoring columns."""

    def __init__(self, dim: int, capacity: int = 256) -> None:
        self.n = 0
        self.ids: list[str] = []
        self.vecs = np.zeros((capacity, dim), np.float32)
        self.inv_norm = np.zeros(capacity, np.float32)
        self.poignancy = np.zeros(capacity, np.float64)
        self.last_accessed = np.zeros(capacity, np.float64)
        self.stability = np.zeros(capacity, np.float64)
        self.type_code = np.zeros(capacity, np.int8)
        self.emotion_code = np.zeros(capacity, np.int32)  # -1 = not an emotional memory

    def _grow(self) -> None:
        for name in ("vecs", "inv_norm", "poignancy", "last_accessed", "stability", "type_code", "emotion_code"):
            old = getattr(self, name)
            new = np.zeros((old.shape[0] * 2,) + old.shape[1:], old.dtype)
            new[: self.n] = old[: self.n]
            setattr(self, name, new)

    def append(self, rec: MemoryRecord, vec: np.ndarray, emotion_code: int) -> int:
        if self.n == self.vecs.shape[0]:
            self._grow()
        row = self.n
        self.n += 1
        self.ids.append(rec.id)
        self.vecs[row] = vec
        norm = float(np.linalg.norm(vec))
        self.inv_norm[row] = 1.0 / norm if norm > 0 else 0.0
        self.set(row, rec, emotion_code)
        return row

    def extend(self, recs: list[MemoryRecord], vecs: np.ndarray, emotion_codes: list[int]) -> None:
        """Bulk append into an empty index with enough capacity (loading from disk)."""
        m = len(recs)
        self.n, self.ids = m, [r.id for r in recs]
        self.vecs[:m] = vecs
        norms = np.linalg.norm(vecs, axis=1)
        self.inv_norm[:m] = np.divide(1.0, norms, out=np.zeros_like(norms), where=norms > 0)
        self.poignancy[:m] = [r.poignancy for r in recs]
        self.last_accessed[:m] = [r.last_accessed for r in recs]
        self.stability[:m] = [r.stability for r in recs]
        self.type_code[:m] = [TYPES.index(r.type) for r in recs]
        self.emotion_code[:m] = emotion_codes

    def set(self, row: int, rec: MemoryRecord, emotion_code: int) -> None:
        self.poignancy[row] = rec.poignancy
        self.last_accessed[row] = rec.last_accessed
        self.stability[row] = rec.stability
        self.type_code[row] = TYPES.index(rec.type)
        self.emotion_code[row] = emotion_code


class MemoryStore:
    """Durable LanceDB memory table with a hot per-observer index and Eq. 1 retrieval."""

    def __init__(self, directory: str | Path, dim: int = 384) -> None:
        self.directory = Path(directory)
        self.dim = dim
        self._lock = threading.RLock()
        self._records: dict[str, MemoryRecord] = {}
        self._where: dict[str, tuple[str, int]] = {}  # id -> (observer, row)
        self._hot: dict[str, _HotIndex] = {}
        self._emotions: dict[str, int] = {}
        self._generation: dict[str, int] = {}  # bumps when an observer's memories change
        self._cache: OrderedDict[tuple, list[ScoredMemory]] = OrderedDict()
        self.cache_hits = 0
        # Called after each add, outside the lock: the run logs every memory it stores, so
        # after a crash the log and the store can be reconciled (garp.recovery).
        self.on_add: Callable[[MemoryRecord], None] | None = None
        self._disk = LancePersister(self.directory, dim, self._lock, self._row_for_disk, MemoryRecord)
        self._load(self._disk.load())
        self._disk.start()
        # A store that is never closed still flushes at interpreter exit (atexit).
        self._finalizer = weakref.finalize(self, self._disk.close)

    # --- writing ------------------------------------------------------------------------
    def add(self, record: MemoryRecord, vector: np.ndarray) -> None:
        """Index now, persist in the background (never blocks on disk)."""
        vec = self._check_vector(vector, f"memory '{record.id}'")
        with self._lock:
            if record.id in self._records:
                raise GarpError(f"memory store: id '{record.id}' already exists; ids must be unique")
            self._insert(record, vec)
            self._disk.mark_new(record.id)
        if self.on_add is not None:
            self.on_add(record)

    def update(self, memory_id: str, **fields: Any) -> MemoryRecord:
        """Change fields of a memory (poignancy rescoring, last_accessed, stability...)."""
        if {"id", "observer"} & fields.keys():
            raise GarpError("memory store update: 'id' and 'observer' cannot change")
        with self._lock:
            old = self._require(memory_id)
            try:
                new = MemoryRecord.model_validate({**old.model_dump(), **fields})
            except ValidationError as exc:
                raise GarpError(describe_validation_error(f"memory '{memory_id}' update", exc)) from exc
            self._replace(new)
            self._bump(new.observer)
            self._disk.mark_dirty(memory_id)
            return new

    def discard(self, memory_ids: set[str]) -> int:
        """Remove memories (crash recovery rolls back ones the log never recorded); how many."""
        with self._lock:
            keep = [self._row_for_disk(i) for i in self._records if i not in memory_ids]
            gone = len(self._records) - len(keep)
            if not gone:
                return 0
            self._disk.keep_only(keep)
            self._records.clear()
            self._where.clear()
            self._hot.clear()
            self._cache.clear()
            self._load(keep)
        return gone

    @property
    def recovered(self) -> dict[str, int]:
        """What opening the store replayed from a journal a crash left (added, updated, skipped)."""
        return dict(self._disk.recovered)

    def flush(self) -> None:
        """Block until everything added or changed so far is on disk."""
        self._disk.flush()

    def compact(self) -> None:
        """Merge fragments and drop old table versions now."""
        self._disk.flush()
        self._disk.compact()

    def close(self) -> None:
        """Flush, compact and stop the writer thread (idempotent)."""
        self._finalizer()

    def __enter__(self) -> MemoryStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- reading ------------------------------------------------------------------------
    def get(self, memory_id: str) -> MemoryRecord | None:
        with self._lock:
            return self._records.get(memory_id)

    def vector(self, memory_id: str) -> np.ndarray:
        with self._lock:
            observer, row = self._where[self._require(memory_id).id]
            return self._hot[observer].vecs[row].copy()

    def count(self, observer: str | None = None) -> int:
        with self._lock:
            if observer is None:
                return len(self._records)
            hot = self._hot.get(observer)
            return hot.n if hot else 0

    def observers(self) -> list[str]:
        with self._lock:
            return list(self._hot)

    def records(self, observer: str, types: list[str] | None = None) -> list[MemoryRecord]:
        """The observer's memories, newest (by `created`) first; ties: latest added first."""
        wanted = set(self._check_types(types) or TYPES)
        with self._lock:
            hot = self._hot.get(observer)
            recs = [self._records[i] for i in reversed(hot.ids)] if hot else []
        return sorted((r for r in recs if r.type in wanted), key=lambda r: -r.created)

    def storage_stats(self) -> dict[str, int]:
        """LanceDB versions, fragments and rows (for the compaction test and debugging)."""
        return self._disk.stats()

    def retrieve(self, observer: str, query: np.ndarray, *, now: float, k: int = 5,
                 types: list[str] | None = None, emotion: str | None = None,
                 mode: str = "recency") -> list[ScoredMemory]:
        """Top-k by Eq. 1: S = 6.0·P̂ + 3.0·D̂ + 0.5·R̂ + 1.5·E (min-max over the candidates)."""
        if mode not in MODES:
            raise GarpError(f"memory retrieval: mode '{mode}' is unknown; allowed: {', '.join(MODES)}")
        if k < 1:
            raise GarpError(f"memory retrieval: k must be at least 1 (got {k})")
        q = self._check_vector(query, "retrieval query")
        type_key = tuple(sorted(set(self._check_types(types)))) if types else None
        mood = (emotion or "").strip().lower() or None
        with self._lock:
            hot = self._hot.get(observer)
            if hot is None or hot.n == 0:
                return []
            key = (observer, hashlib.blake2b(q.tobytes(), digest_size=16).digest(), type_key, mood,
                   math.floor(now / CACHE_TIME_BUCKET), k, mode, self._generation.get(observer, 0))
            cached = self._cache.get(key)
            if cached is not None:
                self._cache.move_to_end(key)
                self.cache_hits += 1
                return list(cached)
            result = self._rank(hot, q, now, k, type_key, mood, mode)
            self._cache[key] = result
            while len(self._cache) > RETRIEVAL_CACHE_SIZE:
                self._cache.popitem(last=False)
            return list(result)

    def nearest(self, observer: str, query: np.ndarray, *, now: float, k: int,
                skip: Callable[[MemoryRecord], bool] = lambda rec: False) -> list[ScoredMemory]:
        """The k memories most similar to the query by raw cosine, over all of the observer's memories and
        whatever their poignancy or age, leaving out those `skip` names; scored by that cosine, with Eq. 1's
        factors. For a question put to the agent (an interview): Eq. 1's pool is led by poignancy, so in a
        long game an old, plain memory that answers never reached it. Looking is not recalling, so
        nothing is touched."""
        q = self._check_vector(query, "nearest query")
        with self._lock:
            hot = self._hot.get(observer)
            found = self._factors(hot, q, now, None, None, "recency") if hot is not None and hot.n else None
            if found is None:
                return []
            _, f = found
            out: list[ScoredMemory] = []
            for j in np.argsort(-f["cosine"], kind="stable"):
                rec = self._records[hot.ids[int(j)]]
                if not skip(rec):
                    out.append(ScoredMemory(record=rec, score=float(f["cosine"][j]),
                                            factors={name: float(v[j]) for name, v in f.items()}))
                if len(out) == k:
                    break
            return out

    # --- internals ----------------------------------------------------------------------
    def _factors(self, hot: _HotIndex, q: np.ndarray, now: float, type_key: tuple[str, ...] | None,
                 mood: str | None, mode: str) -> tuple[np.ndarray | None, dict[str, np.ndarray]] | None:
        """Eq. 1's factors for the observer's rows of the wanted types (None: no such row): the rows (None =
        all), then the raw cosine and the min-max poignancy, similarity and recency and the emotion match."""
        n = hot.n
        rows = None
        if type_key is not None and len(type_key) < len(TYPES):
            codes = np.array([TYPES.index(t) for t in type_key], np.int8)
            rows = np.flatnonzero(np.isin(hot.type_code[:n], codes))
            if rows.size == 0:
                return None

        def col(arr: np.ndarray) -> np.ndarray:
            return arr[:n] if rows is None else arr[rows]

        q_norm = float(np.linalg.norm(q))
        # einsum, not `@`: multi-threaded BLAS gemv stalls for ~20 ms when the 2 cores are busy
        # (measured p50 0.13 ms single-threaded vs 20 ms threaded under load); all rows, then select,
        # because gathering a row subset of the matrix costs more than the dot products.
        sims = col(np.einsum("ij,j->i", hot.vecs[:n], q) * hot.inv_norm[:n])
        sims = sims * (1.0 / q_norm if q_norm > 0 else 0.0)
        hours = (now - col(hot.last_accessed)) / 3600.0
        raw_recency = recency_decay(hours) if mode == "recency" else ebbinghaus_retention(hours, col(hot.stability))
        emo = col(hot.emotion_code)
        mood_code = self._emotions.get(mood, -2) if mood else -2
        return rows, {"poignancy": minmax(col(hot.poignancy)), "similarity": minmax(sims.astype(np.float64)),
                      "recency": minmax(raw_recency), "cosine": sims,
                      "emotion": np.where(emo < 0, 0.0, np.where(emo == mood_code, MOOD_MATCH, MOOD_ANY))}

    def _rank(self, hot: _HotIndex, q: np.ndarray, now: float, k: int,
              type_key: tuple[str, ...] | None, mood: str | None, mode: str) -> list[ScoredMemory]:
        found = self._factors(hot, q, now, type_key, mood, mode)
        if found is None:
            return []
        rows, f = found
        score = W_POIGNANCY * f["poignancy"] + W_SIMILARITY * f["similarity"] + W_RECENCY * f["recency"] \
            + W_EMOTION * f["emotion"]
        m = score.shape[0]
        top = np.argpartition(-score, k - 1)[:k] if m > k else np.arange(m)
        top = top[np.lexsort((top, -score[top]))]  # best first; ties by insertion order
        out = []
        for j in top:
            row = int(j) if rows is None else int(rows[j])
            rec = self._touch(hot, row, now, mode)
            # min-max over the candidates, but the cosine raw
            out.append(ScoredMemory(record=rec, score=float(score[j]), factors={k: float(v[j]) for k, v in f.items()}))
        return out

    def _touch(self, hot: _HotIndex, row: int, now: float, mode: str) -> MemoryRecord:
        """Retrieval refreshes last_accessed; in Ebbinghaus mode it also consolidates (σ += 0.2)."""
        rec = self._records[hot.ids[row]]
        change: dict[str, Any] = {"last_accessed": max(rec.last_accessed, now)}
        if mode == "ebbinghaus":
            change["retrievals"] = rec.retrievals + 1
            change["stability"] = min(STABILITY_MAX, rec.stability + STABILITY_PER_RETRIEVAL)
        rec = rec.model_copy(update=change)
        self._replace(rec)  # no generation bump: the cache entry being built stays valid
        self._disk.mark_dirty(rec.id, journal=False)
        return rec

    def _load(self, rows: list[tuple[MemoryRecord, np.ndarray]]) -> None:
        """Rebuild the hot index from disk, one bulk fill per observer."""
        by_observer: dict[str, list[tuple[MemoryRecord, np.ndarray]]] = {}
        for rec, vec in rows:
            by_observer.setdefault(rec.observer, []).append((rec, vec))
        for observer, items in by_observer.items():
            recs = [r for r, _ in items]
            hot = self._hot[observer] = _HotIndex(self.dim, capacity=max(256, len(recs)))
            hot.extend(recs, np.stack([v for _, v in items]), [self._emotion_code(r) for r in recs])
            for row, rec in enumerate(recs):
                self._records[rec.id] = rec
                self._where[rec.id] = (observer, row)
            self._bump(observer)

    def _insert(self, rec: MemoryRecord, vec: np.ndarray) -> None:
        hot = self._hot.get(rec.observer)
        if hot is None:
            hot = self._hot[rec.observer] = _HotIndex(self.dim)
        row = hot.append(rec, vec, self._emotion_code(rec))
        self._records[rec.id] = rec
        self._where[rec.id] = (rec.observer, row)
        self._bump(rec.observer)

    def _replace(self, rec: MemoryRecord) -> None:
        observer, row = self._where[rec.id]
        self._records[rec.id] = rec
        self._hot[observer].set(row, rec, self._emotion_code(rec))

    def _emotion_code(self, rec: MemoryRecord) -> int:
        if not rec.emotional:
            return -1
        return self._emotions.setdefault(rec.emotion, len(self._emotions))

    def _bump(self, observer: str) -> None:
        self._generation[observer] = self._generation.get(observer, 0) + 1

    def _require(self, memory_id: str) -> MemoryRecord:
        rec = self._records.get(memory_id)
        if rec is None:
            raise GarpError(f"memory store: no memory with id '{memory_id}'")
        return rec

    def _row_for_disk(self, memory_id: str) -> tuple[MemoryRecord, np.ndarray]:
        observer, row = self._where[memory_id]
        return self._records[memory_id], self._hot[observer].vecs[row]

    def _check_vector(self, vector: np.ndarray, what: str) -> np.ndarray:
        vec = np.asarray(vector, dtype=np.float32).reshape(-1)
        if vec.shape[0] != self.dim or not np.all(np.isfinite(vec)):
            raise GarpError(f"{what}: vector must be {self.dim} finite floats (got shape {np.shape(vector)})")
        return vec

    @staticmethod
    def _check_types(types: list[str] | None) -> list[str] | None:
        if types is None:
            return None
        if isinstance(types, str):
            types = [types]
        bad = [t for t in types if t not in TYPES]
        if bad:
            raise GarpError(f"memory types {bad} are unknown; allowed: {', '.join(TYPES)}")
        return list(types)


__all__ = ["MemoryRecord", "ScoredMemory", "MemoryStore", "ebbinghaus_retention", "recency_decay",
           "initial_stability", "minmax"]
