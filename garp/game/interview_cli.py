"""`garp interview PERSONA [--save DIR [--read-only]]`: interview one character in the terminal.

Memories come from a run's save directory (its LanceDB memory store) when `--save` is
given, otherwise the persona's seed memories are written into a temporary store. Each
answer is printed with the memories it used and their scores; the exchange is stored
as a chat memory, so later answers can refer back to earlier questions. With `--save`
that memory goes into the run's own store and log (said at the start); `--read-only`
interviews a temporary copy instead. A question may span lines (it ends with ?, . or !
at a line's end, or with an empty line); input and output are cleaned of control
characters and terminal escapes.
"""

from __future__ import annotations

import asyncio
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any, TextIO

from garp.errors import GarpError
from garp.eventlog import EventLog
from garp.mind.agent import Activity
from garp.mind.day_record import DAY_EVENTS, arrived_at, day_before, day_so_far
from garp.mind.interview import SCORE_EXPLAINED, InterviewResult, interview, score_parts
from garp.paths import PERSONAS
from garp.sim.savegame import SAVE_NAME, read_save
from garp.textclean import printable, strip_controls

LANCE_TABLE_DIR = "memories.lance"  # the memory store's table folder inside its directory
QUIT_WORDS = {"quit", "exit", "q", ":q"}
QUESTION_ENDS = ("?", ".", "!")  # a line ending so ends the question; otherwise it continues
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


def run_doings(save: str | Path | None) -> list[dict]:
    """A run's logged uses and arrivals (what its characters did, garp.mind.day_record); none without a run."""
    logs = [Path(save) / "events.jsonl", Path(save).parent / "events.jsonl"] if save else []  # the run or its store
    log = next((p for p in logs if p.is_file()), None)
    if log is None:
        return []
    return [e for e in EventLog.read(log) if e["kind"] in DAY_EVENTS]


def saved_activity(save: str | Path | None, name: str) -> Activity | None:
    """What the character was doing when its run was saved (its body's activity), read by the checked
    save reader; None without a save."""
    if not save or not (Path(save) / SAVE_NAME).is_file():
        return None
    saved = read_save(save).data["minds"].get(name)
    return Activity(**saved["activity"]) if saved and "activity" in saved else None


def format_result(name: str, result: InterviewResult) -> str:
    """The answer and the memories it used, safe to print (no escapes from the model or the store)."""
    lines = [f"  {result.notice}"] if result.notice else []
    lines += [f"{name}: {printable(result.answer)}",
              f"  ({result.kind} question; sources best first: {SCORE_EXPLAINED})"]
    for m in result.memories:
        lines.append(f"  {m.score:5.2f}  {score_parts(m.factors)}  {printable(m.description)}")
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
        from garp.engine.backends import backend_from_args
        from garp.engine.embedder import Embedder
        from garp.engine.scheduler import InferenceScheduler
        from garp.mind.factory import make_mind
        from garp.mind.persona import housemates, load_persona, load_personas

        persona = load_persona(find_persona_file(args.persona))
        self._open_store(args)
        if getattr(args, "save", None) and self.store.count(persona.name) == 0:
            self.close_store()
            raise GarpError(f"--save {args.save}: the memory store has no memories of {persona.name}; "
                            f"allowed observers: {', '.join(self.store.observers()) or '(none)'}")
        backend = backend_from_args(args)
        self.scheduler = InferenceScheduler(backend, seed=getattr(args, "seed", None) or 0).start()
        self.embedder = Embedder()
        records = self.store.records(persona.name)
        self.t = max((r.created for r in records), default=START_T)
        self.mind = make_mind(persona, store=self.store, embedder=self.embedder, scheduler=self.scheduler, t=self.t,
                              seed_memories=not getattr(args, "save", None),  # a saved store has them already
                              household=housemates(persona, load_personas()))
        self.loop = asyncio.new_event_loop()
        self.doings = run_doings(getattr(args, "save", None))
        self.doing = saved_activity(getattr(args, "save", None), persona.name)
        self.t = max([self.t] + [e["t"] for e in self.doings])  # the run went on after its last memory

    def _open_store(self, args: Any) -> None:
        """A run's store (recovered after a crash; new memories also go to the run's log),
        or a temporary one for the persona's seeds."""
        from garp.engine.memory_store import MemoryStore
        from garp.recovery import open_run_store
        self._tmp, self.run_log = None, None
        save = getattr(args, "save", None)
        if save and not getattr(args, "read_only", False):
            store_dir = find_store_dir(save)
            self.store, self.run_log = open_run_store(store_dir)
            self.note = (f"Each exchange is remembered: it is written into this run's memory store ({store_dir}) "
                         "and its event log. Use --read-only to leave the run untouched.")
            return
        self._tmp = tempfile.TemporaryDirectory(prefix="garp-interview-")
        if save:  # a copy: retrieval and the remembered exchanges change only the copy
            store_dir = shutil.copytree(find_store_dir(save), Path(self._tmp.name) / "memory")
            self.note = f"Read-only: the run's memories are copied; {save} is left untouched."
        else:
            store_dir = Path(self._tmp.name)
            self.note = "Memories: the persona's seed memories in a temporary store (--save DIR uses a run's)."
        self.store = MemoryStore(store_dir)

    def close_store(self) -> None:
        self.store.close()
        if self.run_log is not None:
            self.run_log.close()

    @property
    def name(self) -> str:
        return self.mind.persona.name

    def ask(self, question: str) -> InterviewResult:
        self.t += 60.0  # each question a game-minute later: recency of what was just said matters
        return self.loop.run_until_complete(interview(self.mind, question, self.scheduler, self.t, doing=self.doing,
                                                      location=self.doing.place if self.doing else "",
                                                      done=day_so_far(self.doings, self.name, self.t),
                                                      yesterday=day_before(self.doings, self.name, self.t),
                                                      began=arrived_at(self.doings, self.name)))

    def close(self) -> None:
        try:  # let pending poignancy scores of the stored exchanges finish before shutting down
            self.loop.run_until_complete(self.mind.memory.drain())
        finally:
            self.loop.close()
        self.scheduler.stop()
        self.close_store()
        self.embedder.close()
        if self._tmp is not None:
            self._tmp.cleanup()


def read_question(inp: TextIO, out: TextIO) -> str | None:
    """One question, possibly over several lines: it ends with ?, . or ! at a line's end,
    with an empty line or at end of input (None when there is none). Controls are removed."""
    parts: list[str] = []
    while True:
        line = inp.readline()
        text = " ".join(strip_controls(line).split())
        if not line or (not text and parts):
            return " ".join(parts) if parts else None
        if not text:
            continue
        parts.append(text)
        if text.endswith(QUESTION_ENDS) or (len(parts) == 1 and text.lower() in QUIT_WORDS):
            return " ".join(parts)
        print("... ", end="", file=out, flush=True)


def run_session(session: TerminalInterview, inp: TextIO, out: TextIO) -> int:
    """Read questions until EOF or a quit word; print each answer with the memories used."""
    count = 0
    print(f"Interviewing {session.name}. {getattr(session, 'note', '')}".rstrip(), file=out)
    print("Type a question (end it with ? . ! or an empty line; 'quit' ends).", file=out, flush=True)
    while True:
        print("> ", end="", file=out, flush=True)
        question = read_question(inp, out)
        if question is None or question.lower() in QUIT_WORDS:
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
