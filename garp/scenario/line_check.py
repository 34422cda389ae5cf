"""Checks that keep the event log readable: what characters say must be speech.

Over a run's events it flags a conversation line in which the speaker narrates themself in
the third person ("Mika is someone well known to Maya"), prompt or instruction text leaking
into speech ("Write what Ludwig says to start the chat"), a line said more than
MAX_PER_CHAT times in one conversation or more than MAX_PER_DAY times in one game day across
the town, and a line that loops on one phrase. `garp report` shows the flags; the
benchmark benchmarks/line_quality.py prints their counts for a run.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import asdict, dataclass
from typing import Any, Iterable

from garp.mind.line_candidates import is_small_talk
from garp.mind.phrasebook import STOCK_PER_DAY
from garp.textclean import loops, plain, sentences
from garp.units import DAY_S

# --- tunables (issue 18 item 4) ------------------------------------------------------------
MAX_PER_CHAT = 2   # one line said more often than this in one conversation is flagged
MAX_PER_DAY = STOCK_PER_DAY  # one line said more often than this in a game day, town-wide, is flagged
MAX_SENTENCES = 2  # an interview answer longer than this is flagged

_INSTRUCTION = re.compile(
    r"\b(write (what|the|a|\w+'s)|reply with|in character|conversation so far|tone to match|next line|"
    r"just said:|they met because|speaker:|mood:|remembers:|as an ai|language model|respond with|"
    r"the (user|assistant)\b|json)", re.I)
_SELF_INTRO = r"(i'm|i am|my name is|it's|this is|call me)\s+{name}\b"


@dataclass(frozen=True)
class LineFlag:
    kind: str  # third_person | instruction | repeat_in_chat | repeat_in_day | loops | too_long
    agent: str
    text: str
    t: float
    detail: str = ""

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def names_self(text: str, speaker: str) -> bool:
    """The speaker's own name in their line, other than introducing themself ("I'm Maya")."""
    if not re.search(rf"\b{re.escape(speaker)}\b", text):
        return False
    return not re.search(_SELF_INTRO.format(name=re.escape(speaker)), text, re.I)


def _line_flags(e: dict) -> list[LineFlag]:
    agent, text, t = str(e.get("agent", "")), str(e.get("text", "")), float(e.get("t", 0.0))
    flags = []
    if agent and names_self(text, agent):
        flags.append(LineFlag("third_person", agent, text, t, f"{agent} names themself"))
    m = _INSTRUCTION.search(text)
    if m:
        flags.append(LineFlag("instruction", agent, text, t, f"prompt wording {m.group(0)!r}"))
    if loops(text):
        flags.append(LineFlag("loops", agent, text, t, "one phrase repeats"))
    return flags


def _repeat_flags(lines: list[dict]) -> list[LineFlag]:
    flags: list[LineFlag] = []
    per_chat = Counter((e.get("chat_id"), plain(e.get("text", ""))) for e in lines)
    per_day = Counter((int(float(e.get("t", 0.0)) // DAY_S), plain(e.get("text", ""))) for e in lines)
    seen: set[tuple] = set()
    for e in lines:
        norm, t = plain(e.get("text", "")), float(e.get("t", 0.0))
        for kind, key, limit in (("repeat_in_chat", (e.get("chat_id"), norm), MAX_PER_CHAT),
                                 ("repeat_in_day", (int(t // DAY_S), norm), MAX_PER_DAY)):
            count = (per_chat if kind == "repeat_in_chat" else per_day)[key]
            if count > limit and (kind, key) not in seen:
                seen.add((kind, key))
                flags.append(LineFlag(kind, str(e.get("agent", "")), str(e.get("text", "")), t, f"said {count} times"))
    return flags


def answer_flags(agent: str, answer: str, t: float = 0.0) -> list[LineFlag]:
    """An interview answer: at most MAX_SENTENCES sentences, no loops, no prompt text."""
    flags = _line_flags({"agent": agent, "text": answer, "t": t})
    said = sentences(answer)
    if len(said) > MAX_SENTENCES:
        flags.append(LineFlag("too_long", agent, answer, t, f"{len(said)} sentences"))
    return [f for f in flags if f.kind != "third_person"]


def check_lines(events: Iterable[dict]) -> list[LineFlag]:
    """Every flag over a run's conversation lines, in log order."""
    lines = [e for e in events if e.get("kind") == "chat_line"]
    return [f for e in lines for f in _line_flags(e)] + _repeat_flags(lines)


def line_summary(events: list[dict]) -> dict[str, Any]:
    """Counts for a run: lines, flags by kind, the share of lines code wrote because the model failed,
    and how much of the talk says nothing (greetings, goodbyes, stock replies)."""
    flags = check_lines(events)
    calls = [e for e in events if e.get("kind") == "llm_call" and e.get("function") == "conversation_line"]
    by_kind = Counter(f.kind for f in flags)
    return {"lines": sum(1 for e in events if e.get("kind") == "chat_line"),
            "line_calls": len(calls), "line_fallback_share": round(
                sum(1 for e in calls if e.get("fallback_used")) / len(calls), 3) if calls else None,
            **small_talk(events), "flags": dict(sorted(by_kind.items())),
            "examples": [f.as_dict() for f in flags[:12]]}


def small_talk(events: list[dict]) -> dict[str, Any]:
    """The share of lines that tell the listener nothing, and of chats with at least one line that does."""
    pairs = {e.get("chat_id"): e.get("agents") or [] for e in events if e.get("kind") == "chat_start"}
    lines = [e for e in events if e.get("kind") == "chat_line"]
    empty, telling = 0, set()
    for e in lines:
        listener = next((a for a in pairs.get(e.get("chat_id"), []) if a != e.get("agent")), "")
        if is_small_talk(e.get("text", ""), e.get("agent", ""), listener):
            empty += 1
        else:
            telling.add(e.get("chat_id"))
    chats = {e.get("chat_id") for e in lines}
    return {"small_talk_share": round(empty / len(lines), 3) if lines else None,
            "chats_telling_something": f"{len(telling)}/{len(chats)}"}
