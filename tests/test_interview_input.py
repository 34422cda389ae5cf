"""Interview input (issue 20 §5): cleaned of controls and escapes, one line, capped with a
notice; a multi-line question is one question; --save says it writes into the run, and
--read-only leaves the run untouched."""

from __future__ import annotations

import asyncio
import io
import types

import numpy as np

from garp.engine.memory_store import MemoryRecord, MemoryStore
from garp.eventlog import EventLog
from garp.game.interview_cli import TerminalInterview, format_result, run_session
from garp.mind.interview import MAX_QUESTION_CHARS, InterviewResult, interview
from garp.recovery import memory_logger
from garp.textclean import clean_line, printable

DIRTY = "Where\x00 do you\x1b[31m work\x1b[0m?\x1b]0;pwned\x07\u202e\r\n\tnow"


def test_controls_and_escapes_are_removed_and_whitespace_collapsed():
    text, notice = clean_line(DIRTY, MAX_QUESTION_CHARS)
    assert text == "Where do you work? now" and notice == ""
    assert printable("ok\x1b[2J\x07 fine\nnext\x00 line") == "ok fine\nnext line"


def test_a_long_question_is_cut_at_a_word_with_a_notice():
    long = "why " * 200
    text, notice = clean_line(long, MAX_QUESTION_CHARS)
    assert len(text) <= MAX_QUESTION_CHARS and text.endswith("why") and "shortened" in notice
    assert f"of {len(long.strip())} characters" in notice


class Asker:
    name = "Oliver"

    def __init__(self):
        self.asked = []

    def ask(self, question):
        self.asked.append(question)
        return InterviewResult(question, "factual", "Fine.\x1b[31m red\x07")


def test_a_multi_line_question_is_one_question():
    session, out = Asker(), io.StringIO()
    typed = "What did you do\n  yesterday\x00 evening?\nTell me about\nthe bakery\n\nWhy\nquit\n"
    assert run_session(session, io.StringIO(typed), out) == 3
    assert session.asked == ["What did you do yesterday evening?", "Tell me about the bakery", "Why quit"]
    assert "\x1b" not in out.getvalue() and "Oliver: Fine. red" in out.getvalue()


class FallbackScheduler:
    """Answers every call with the function's fallback (no model needed to test the input path)."""

    async def call(self, fn, inputs, **kw):
        return fn.fallback(inputs), None


def test_the_stored_exchange_is_clean_and_the_notice_reaches_the_asker(tmp_path, embedder):
    from garp.mind.agent import AgentMind
    from garp.mind.memory import AgentMemory
    from garp.mind.persona import load_persona
    from garp.paths import PERSONAS

    persona = load_persona(PERSONAS / "oliver.json")
    mind = AgentMind(persona)
    with MemoryStore(tmp_path / "memory") as store:
        mind.memory = AgentMemory("Oliver", store, embedder, None, personality_text="")
        result = asyncio.run(interview(mind, DIRTY + " x" * 200, FallbackScheduler(), 7200.0))
        assert result.notice and result.question.startswith("Where do you work? now")
        (chat,) = store.records("Oliver", ["chat"])
        assert "\x00" not in chat.description and "\x1b" not in chat.description
        assert chat.description.startswith('I was interviewed and asked: "Where do you work? now x x')
    assert format_result("Oliver", result).startswith("  (question shortened")


def _run_with_a_memory(run_dir):
    log = EventLog(run_dir / "events.jsonl")
    store = MemoryStore(run_dir / "memory")
    store.on_add = memory_logger(log)
    v = np.ones(384, dtype=np.float32) / np.sqrt(384)
    store.add(MemoryRecord(observer="Oliver", description="I keep the town records.", created=60.0), v)
    store.close()
    log.close()


def test_save_writes_into_the_run_and_says_so_read_only_does_not(tmp_path):
    run = tmp_path / "run"
    _run_with_a_memory(run)
    v = np.ones(384, dtype=np.float32) / np.sqrt(384)
    for read_only, stored, logged in ((True, 1, 1), (False, 2, 2)):
        session = types.SimpleNamespace()
        TerminalInterview._open_store(session, types.SimpleNamespace(save=str(run), read_only=read_only))
        session.store.add(MemoryRecord(observer="Oliver", description="I was interviewed.", created=120.0), v)
        TerminalInterview.close_store(session)
        assert ("Read-only" in session.note) == read_only and ("written into this run" in session.note) != read_only
        if session._tmp is not None:
            session._tmp.cleanup()
        with MemoryStore(run / "memory") as store:
            assert store.count("Oliver") == stored
        assert sum(e["kind"] == "memory" for e in EventLog.read(run / "events.jsonl")) == logged
