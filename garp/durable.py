"""Append-only line files that survive a hard kill (the event log, the memory journal).

Each line reaches the operating system when it is written (line buffering), so a
SIGKILL loses nothing already written; a background thread fsyncs the file at most
`FSYNC_SECONDS` after a write, so a power cut loses at most that much. A torn last
line (a crash mid-write) is cut by `cut_torn_tail` when the file is opened again.
"""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path

# --- tunables ---------------------------------------------------------------------------
FSYNC_SECONDS = 0.5  # wall seconds between fsyncs while lines arrive (README: "at most the last second")


class DurableAppender:
    """Line-buffered appends plus a periodic fsync thread. Thread-safe."""

    def __init__(self, path: str | Path, mode: str = "a") -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._file = self.path.open(mode, encoding="utf-8", buffering=1)
        self._lock = threading.Lock()
        self._dirty = threading.Event()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sync_loop, name=f"garp-fsync-{self.path.name}", daemon=True)
        self._thread.start()

    def write_line(self, line: str) -> None:
        with self._lock:
            self._file.write(line + "\n")  # line buffering: one write(2) per line
        self._dirty.set()

    def sync(self) -> None:
        """fsync now if anything was written since the last one (outside the write lock)."""
        if self._dirty.is_set():
            self._dirty.clear()
            os.fsync(self._file.fileno())

    def _sync_loop(self) -> None:
        while not self._stop.wait(FSYNC_SECONDS):
            self.sync()

    def close(self) -> None:
        if self._stop.is_set():
            return
        self._stop.set()
        self._thread.join()
        with self._lock:
            self._file.flush()
            os.fsync(self._file.fileno())
            self._file.close()


def cut_torn_tail(path: str | Path) -> int:
    """Drop a last line that a crash left unfinished (no newline, or not JSON); bytes cut."""
    path = Path(path)
    if not path.exists():
        return 0
    data = path.read_bytes()
    keep = data.rfind(b"\n") + 1
    tail_start = data.rfind(b"\n", 0, max(0, keep - 1)) + 1
    if keep and not _is_json(data[tail_start:keep]):
        keep = tail_start  # a complete line that is not JSON was torn and then continued
    if keep == len(data):
        return 0
    with path.open("r+b") as f:
        f.truncate(keep)
        os.fsync(f.fileno())
    return len(data) - keep


def _is_json(line: bytes) -> bool:
    try:
        json.loads(line)
    except ValueError:
        return False
    return True


def replace_atomically(path: str | Path, lines: list[str]) -> None:
    """Rewrite a line file so a crash leaves either the old or the new version."""
    path = Path(path)
    tmp = path.with_name(path.name + ".tmp")
    with tmp.open("w", encoding="utf-8") as f:
        f.writelines(line + "\n" for line in lines)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)
    fd = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
