"""`garp interview PERSONA [--save DIR]`: interview one character in the terminal.

Memories come from a run's save directory (its LanceDB memory store) when `--save` is
given, otherwise the persona's seed memories are written into a temporary store. Each
answer is printed with the memories it used and their scores; the exchange is stored
as a chat memory, so later answers can refer back to earlier questions.
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
from pathlib import Path
from typing import Any, TextIO

from garp.errors import GarpError
from garp.mind.interview import InterviewResult, interview
from garp.paths import PERSONAS

LANCE_TABLE_DIR = "memories.lance"  # the memory store's table folder inside its directory
QUIT_WORDS = {"quit", "exit", "q", ":q"}
START_T = 12 * 3600.0  # game time of a terminal interview without a save: noon of day 1


def find_persona_file(name: str, directory: Path = PERSONAS) -> Path:
    """personas/NAME.json, matched case-insensitively on the file name or the persona's name."""
    direct = Path(name)
    if direct.suffix == ".json" and direct.exists():
        return direct
    files = sorted(directory.glob("*.json"))
    for f in files:
        if f.stem.lower() == name.lower():
            return f
    known = ", ".join(f.stem for f in files) or "(none)"
    raise GarpError(f"persona '{name}': no file {directory / (name.lower() + '.json')}; allowed: {known}")


def find_store_dir(save: str | Path) -> Path:
    """The memory store directory inside a run's save folder."""
    save = Path(save)
    if not save.is_dir():
        raise GarpError(f"--save {save}: not a directory; allowed: a run's output folder (garp run ... --out DIR)")
    if (save / LANCE_TABLE_DIR).exists():
        return save
    for sub in sorted(p for p in save.iterdir() if p.is_dir()):
        if (sub / LANCE_TABLE_DIR).exists():
            return sub
    raise GarpError(f"--save {save}: no memory store ({LANCE_TABLE_DIR}) in it or its sub-folders; "
                    "allowed: the output folder of a run")


def format_result(name: str, result: InterviewResult) -> str:
    lines = [f"{name}: {result.answer}", f"  ({result.kind} question; memories used, score = 3 x similarity "
                                         "+ 0.5 x poignancy + 0.5 x recency)"]
    for m in result.memories:
        f = m.factors
        lines.append(f"  {m.score:5.2f}  sim {f.get('similarity', 0):.2f}  poig {f.get('poignancy', 0):.2f}  "
                     f"rec {f.get('recency', 0):.2f}  {m.description}")
    if not result.memories:
        lines.append("  (no memories)")
    call = result.call
    if call is not None:
        status = f"fallback ({call.error})" if call.fallback_used else "ok"
        lines.append(f"  model: {status}, queue {call.queue_wait_s:.2f} s, latency {call.latency_s:.2f} s")
    return "\n".join(lines)


class TerminalInterview:
    """A persona with its memory, a model scheduler and one event loop for the whole session."""

    def __init__(self, args: Any) -> None:
        from garp.engine.backends import make_backend
        from garp.engine.embedder import Embedder
        from garp.engine.memory_store import MemoryStore
        from garp.engine.scheduler import InferenceScheduler
        from garp.mind.factory import make_mind
        from garp.mind.persona import load_persona

        persona = load_persona(find_persona_file(args.persona))
        self._tmp = None
        if getattr(args, "save", None):
            store_dir = find_store_dir(args.save)
        else:
            self._tmp = tempfile.TemporaryDirectory(prefix="garp-interview-")
            store_dir = Path(self._tmp.name)
        self.store = MemoryStore(store_dir)
        if getattr(args, "save", None) and self.store.count(persona.name) == 0:
            self.store.close()
            raise GarpError(f"--save {args.save}: the memory store has no memories of {persona.name}; "
                            f"allowed observers: {', '.join(self.store.observers()) or '(none)'}")
        backend = make_backend(getattr(args, "model", None), getattr(args, "server", None),
                               getattr(args, "threads", None), getattr(args, "gpu_layers", None),
                               getattr(args, "seed", None))
        self.scheduler = InferenceScheduler(backend, seed=getattr(args, "seed", None) or 0).start()
        self.embedder = Embedder()
        records = self.store.records(persona.name)
        self.t = max((r.created for r in records), default=START_T)
        self.mind = make_mind(persona, store=self.store, embedder=self.embedder, scheduler=self.scheduler, t=self.t,
                              seed_memories=not getattr(args, "save", None))  # a saved store has them already
        self.loop = asyncio.new_event_loop()

    @property
    def name(self) -> str:
        return self.mind.persona.name

    def ask(self, question: str) -> InterviewResult:
        self.t += 60.0  # each question a game-minute later: recency of what was just said matters
        return self.loop.run_until_complete(interview(self.mind, question, self.scheduler, self.t))

    def close(self) -> None:
        try:  # let pending poignancy scores of the stored exchanges finish before shutting down
            self.loop.run_until_complete(self.mind.memory.drain())
        finally:
            self.loop.close()
        self.scheduler.stop()
        self.store.close()
        self.embedder.close()
        if self._tmp is not None:
            self._tmp.cleanup()


def run_session(session: TerminalInterview, inp: TextIO, out: TextIO) -> int:
    """Read questions until EOF or a quit word; print each answer with the memories used."""
    count = 0
    print(f"Interviewing {session.name}. Type a question (or 'quit').", file=out, flush=True)
    while True:
        print("> ", end="", file=out, flush=True)
        line = inp.readline()
        if not line:
            break
        question = line.strip()
        if not question:
            continue
        if question.lower() in QUIT_WORDS:
            break
        print(format_result(session.name, session.ask(question)), file=out, flush=True)
        count += 1
    return count


def cmd_interview(args: Any) -> int:
    session = TerminalInterview(args)
    try:
        run_session(session, sys.stdin, sys.stdout)
    finally:
        session.close()
    return 0
