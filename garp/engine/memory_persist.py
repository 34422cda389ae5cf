"""LanceDB persistence for the memory store: loading, batched background writes, compaction.

Every `table.add` creates a LanceDB version and fragment, so records are buffered and
appended in batches, changed rows are rewritten with `merge_insert`, and the table is
optimised now and then (old versions deleted) so the store does not bloat. Records
wait for their batch in a write-ahead journal (memory_journal), so a hard kill loses
none: opening the store replays it.
"""

from __future__ import annotations

import logging
import threading
import time
import warnings
from datetime import timedelta
from pathlib import Path
from typing import Any

import numpy as np
from pydantic import ValidationError

from garp.engine.memory_journal import MemoryJournal
from garp.errors import GarpError, describe_validation_error

MemoryRecord = Any  # garp.engine.memory_store.MemoryRecord; the store hands its model class in (`record_type`)

log = logging.getLogger(__name__)

FLUSH_EVERY = 512  # records buffered before the writer appends them to LanceDB
FLUSH_SECONDS = 2.0  # wall seconds a buffered record waits at most
COMPACT_EVERY_WRITES = 40  # LanceDB versions written between compactions
COMPACT_SECONDS = 120.0  # wall seconds between compactions while writing
TABLE = "memories"


def _arrow_schema(dim: int) -> Any:
    import pyarrow as pa

    return pa.schema([
        ("id", pa.string()), ("observer", pa.string()), ("description", pa.string()),
        ("subject", pa.string()), ("predicate", pa.string()), ("object", pa.string()),
        ("created", pa.float64()), ("last_accessed", pa.float64()), ("location", pa.string()),
        ("type", pa.string()), ("poignancy", pa.int64()), ("poignancy_scored", pa.bool_()),
        ("emotion", pa.string()), ("emotion_intensity", pa.float64()), ("stability", pa.float64()),
        ("retrievals", pa.int64()), ("evidence", pa.list_(pa.string())), ("header", pa.string()),
        ("seq", pa.int64()),  # insertion order; merge_insert moves rows, reloading sorts by it
        ("vector", pa.list_(pa.float32(), dim)),
    ])


class LancePersister:
    """The LanceDB side: loading, a background writer thread with batched writes, compaction.

    Shares the store's lock: pending sets are filled under it, the writer snapshots rows
    under it and writes to LanceDB outside it (LanceDB calls are serialised by `_db_lock`).
    """

    def __init__(self, directory: Path, dim: int, lock: threading.RLock, row_for_disk: Any, record_type: Any) -> None:
        self._record_type = record_type  # the record model lives with the store
        try:
            import lancedb
        except ImportError as exc:
            raise GarpError(f"memory store: the package 'lancedb' is not installed ({exc}); run `make test` "
                            "or `pip install lancedb pyarrow`") from exc
        self.directory, self.dim = directory, dim
        self._schema = _arrow_schema(dim)
        try:
            directory.mkdir(parents=True, exist_ok=True)
            db = lancedb.connect(str(directory))
            try:
                self._table = db.open_table(TABLE)
            except ValueError:  # not found: a new store
                self._table = db.create_table(TABLE, schema=self._schema)
        except Exception as exc:
            raise GarpError(f"memory store directory '{directory}' cannot be opened as a LanceDB database: {exc}; "
                            "choose a writable directory (a run's save folder)") from exc
        if self._table.schema.remove_metadata() != self._schema:
            raise GarpError(f"memory store '{directory}': table '{TABLE}' has another layout (schema "
                            f"{self._table.schema}); this version expects {dim}-d vectors and the current "
                            "memory fields: use a new save directory")
        self._row_for_disk = row_for_disk
        self._cond = threading.Condition(lock)
        self._db_lock = threading.Lock()
        self._new: dict[str, None] = {}  # ordered set of ids never written
        self._dirty: set[str] = set()  # written ids whose fields changed
        self._persisted: set[str] = set()
        self._seq: dict[str, int] = {}
        self._next_seq = 0
        self._enqueued = self._written = self._flush_target = 0
        self._error: Exception | None = None
        self._closed = False
        self._writes_since_compact = 0
        self._last_compact = time.monotonic()
        self._thread = threading.Thread(target=self._run, name="garp-memory-writer", daemon=True)
        self._journal = MemoryJournal(directory)
        self.recovered = {"added": 0, "updated": 0, "skipped": 0}  # from the journal a crash left

    def load(self) -> list[tuple[MemoryRecord, np.ndarray]]:
        rows = self._load_table()
        if self._journal.left_over:
            self._replay(rows)
        return rows

    def _load_table(self) -> list[tuple[MemoryRecord, np.ndarray]]:
        table = self._table.to_arrow()
        if table.num_rows == 0:
            return []
        # Order by insertion (seq) without sorting the wide vector column inside Arrow.
        seqs = table.column("seq").to_numpy()
        order = np.argsort(seqs, kind="stable")
        vecs = table.column("vector").combine_chunks().flatten().to_numpy(zero_copy_only=False)
        vecs = vecs.astype(np.float32, copy=False).reshape(table.num_rows, self.dim)[order]
        rows = table.drop_columns(["vector", "seq"]).take(order).to_pylist()
        out = []
        for i, row in enumerate(rows):
            try:
                rec = self._record_type.model_validate(row)
            except ValidationError as exc:
                raise GarpError(describe_validation_error(f"memory store '{self.directory}'", exc)) from exc
            self._persisted.add(rec.id)
            self._seq[rec.id] = int(seqs[order[i]])
            out.append((rec, vecs[i]))
        self._next_seq = int(seqs.max()) + 1
        return out

    def _replay(self, rows: list[tuple[MemoryRecord, np.ndarray]]) -> None:
        """Apply the journal a crash left to `rows`, write the result to LanceDB, drop the journal."""
        index = {rec.id: i for i, (rec, _) in enumerate(rows)}
        added: list[str] = []
        changed: set[str] = set()
        for entry in self._journal.entries(self._journal.left_over):
            try:
                rec = self._record_type.model_validate(entry["rec"])
                if entry["op"] == "add" and rec.id not in index:
                    vec = self._journal.vector(entry)
                    if vec.shape != (self.dim,):
                        raise ValueError(f"vector of {vec.shape} floats")
                    index[rec.id] = len(rows)
                    rows.append((rec, vec))
                    added.append(rec.id)
                elif entry["op"] == "set" and rec.id in index:
                    rows[index[rec.id]] = (rec, rows[index[rec.id]][1])
                    changed.add(rec.id)
            except (KeyError, TypeError, ValueError, ValidationError) as exc:
                log.warning("memory store %s: journal line skipped: %s", self.directory, exc)
                self.recovered["skipped"] += 1
        self._write_recovered(rows, index, added, changed - set(added))
        self._journal.release(int(self._journal.left_over[-1].stem))

    def _write_recovered(self, rows: list[tuple[MemoryRecord, np.ndarray]], index: dict[str, int],
                         added: list[str], changed: set[str]) -> None:
        for memory_id in added:
            self._seq[memory_id] = self._next_seq
            self._next_seq += 1
        new_rows = [(*rows[index[i]], self._seq[i]) for i in added]
        dirty_rows = [(*rows[index[i]], self._seq[i]) for i in sorted(changed)]
        if new_rows:
            self._table.add(self._to_arrow(new_rows))
        if dirty_rows:
            self._table.merge_insert("id").when_matched_update_all().execute(self._to_arrow(dirty_rows))
        self._persisted.update(added)
        self.recovered.update(added=len(added), updated=len(dirty_rows))
        if added or dirty_rows:
            log.warning("memory store %s: recovered %d new and %d changed memories from the journal",
                        self.directory, len(added), len(dirty_rows))

    def keep_only(self, rows: list[tuple[MemoryRecord, np.ndarray]]) -> None:
        """Delete every stored row whose id is not among `rows` (one atomic LanceDB commit)."""
        self.flush()
        keep = [(rec, vec, self._seq[rec.id]) for rec, vec in rows]
        with self._db_lock:
            source = self._to_arrow(keep) if keep else self._schema.empty_table()
            self._table.merge_insert("id").when_not_matched_by_source_delete().execute(source)

    def start(self) -> None:
        self._thread.start()

    # --- called under the store lock ----------------------------------------------------
    def mark_new(self, memory_id: str) -> None:
        self._check_open()
        self._journal.add(*self._row_for_disk(memory_id))
        self._new[memory_id] = None
        self._seq[memory_id] = self._next_seq
        self._next_seq += 1
        self._enqueued += 1
        if len(self._new) >= FLUSH_EVERY:
            self._cond.notify_all()

    def mark_dirty(self, memory_id: str, journal: bool = True) -> None:
        """A changed record; `journal=False` for retrieval bookkeeping (last access, stability),
        which is not worth a journal line per retrieved memory: a crash loses at most one batch of it."""
        self._check_open()
        if journal:
            self._journal.change(self._row_for_disk(memory_id)[0])
        if memory_id not in self._new:
            self._dirty.add(memory_id)
        self._enqueued += 1

    def _check_open(self) -> None:
        if self._closed:
            raise GarpError(f"memory store '{self.directory}' is closed; open a new MemoryStore to write")

    # --- any thread ---------------------------------------------------------------------
    def flush(self) -> None:
        with self._cond:
            target = self._enqueued
            if self._written >= target:
                return
            self._flush_target = max(self._flush_target, target)
            self._cond.notify_all()
            self._cond.wait_for(lambda: self._written >= target or self._error is not None
                                or not self._thread.is_alive())
            if self._written < target:
                raise GarpError(f"memory store '{self.directory}': writing to LanceDB failed: "
                                f"{self._error or 'writer thread stopped'}; check disk space and permissions")

    def compact(self) -> None:
        with self._db_lock:
            with warnings.catch_warnings():
                # cleanup_older_than=0 warns about concurrent readers: this writer is the only one.
                warnings.simplefilter("ignore", UserWarning)
                self._table.optimize(cleanup_older_than=timedelta(0), delete_unverified=True)
            self._writes_since_compact = 0
            self._last_compact = time.monotonic()

    def close(self) -> None:
        if self._closed:
            return
        self.flush()
        with self._cond:
            self._closed = True
            self._cond.notify_all()
        self._thread.join()
        if self._writes_since_compact:
            self.compact()
        self._journal.close(clean=self._written >= self._enqueued and self._error is None)

    def stats(self) -> dict[str, int]:
        with self._db_lock:
            frag = self._table.stats()["fragment_stats"]
            return {"versions": len(self._table.list_versions()), "fragments": int(frag["num_fragments"]),
                    "rows": self._table.count_rows()}

    # --- writer thread ------------------------------------------------------------------
    def _wanted(self) -> bool:
        return (self._closed or len(self._new) >= FLUSH_EVERY
                or (self._flush_target > self._written and self._error is None))

    def _run(self) -> None:
        while True:
            with self._cond:
                self._cond.wait_for(self._wanted, timeout=FLUSH_SECONDS)
                target = self._enqueued
                new_ids = list(self._new)
                dirty_ids = [i for i in self._dirty if i in self._persisted]
                self._new.clear()
                self._dirty.clear()
                self._persisted.update(new_ids)  # later changes to them become merge updates
                # Records are replaced, never mutated, and vector rows never change: taking
                # references here is a consistent snapshot; serialising happens outside the lock.
                new_rows = [self._snapshot(i) for i in new_ids]
                dirty_rows = [self._snapshot(i) for i in dirty_ids]
                if not new_rows and not dirty_rows:
                    self._written = target
                    self._cond.notify_all()
                    if self._closed:
                        return
                else:  # the batch's journal lines end here; later ones go to a new segment
                    segment, segment_no = self._journal.rotate()
            if new_rows or dirty_rows:
                segment.close()
                if self._write(new_ids, dirty_ids, new_rows, dirty_rows, target):
                    self._journal.release(segment_no)
            due = time.monotonic() - self._last_compact >= COMPACT_SECONDS
            if self._writes_since_compact >= COMPACT_EVERY_WRITES or (due and self._writes_since_compact):
                try:
                    self.compact()
                except Exception as exc:  # compaction is housekeeping: retry later
                    log.warning("memory store %s: compaction failed: %s", self.directory, exc)

    def _write(self, new_ids: list[str], dirty_ids: list[str], new_rows: list[tuple],
               dirty_rows: list[tuple], target: int) -> bool:
        """Write one batch; False (batch re-queued) when LanceDB failed."""
        try:
            with self._db_lock:
                if new_rows:
                    self._table.add(self._to_arrow(new_rows))
                    self._writes_since_compact += 1
                if dirty_rows:
                    (self._table.merge_insert("id").when_matched_update_all()
                     .execute(self._to_arrow(dirty_rows)))
                    self._writes_since_compact += 1
        except Exception as exc:
            log.error("memory store %s: write failed, will retry: %s", self.directory, exc)
            with self._cond:
                self._persisted.difference_update(new_ids)
                self._new = {**dict.fromkeys(new_ids), **self._new}
                self._dirty.update(dirty_ids)
                self._error = exc
                self._cond.notify_all()
            time.sleep(FLUSH_SECONDS)
            return False
        with self._cond:
            self._written = max(self._written, target)
            self._error = None
            self._cond.notify_all()
        return True

    def _snapshot(self, memory_id: str) -> tuple[MemoryRecord, np.ndarray, int]:
        rec, vec = self._row_for_disk(memory_id)
        return rec, vec, self._seq[memory_id]

    def _to_arrow(self, snapshots: list[tuple[MemoryRecord, np.ndarray, int]]) -> Any:
        import pyarrow as pa

        rows = [{**rec.model_dump(), "seq": seq} for rec, _, seq in snapshots]
        cols = {name: [r[name] for r in rows] for name in self._schema.names if name != "vector"}
        flat = pa.array(np.stack([vec for _, vec, _ in snapshots]).reshape(-1), pa.float32())
        cols["vector"] = pa.FixedSizeListArray.from_arrays(flat, self.dim)
        return pa.table(cols, schema=self._schema)
