"""Time series of a run read from its event log: needs, emotion, relationships, who talked to whom,
conversations and where decisions came from.

Both the in-game timelines (garp.game.panels.timeline, garp.game.talk_graph) and
`garp report` read a run through these functions, so the window and the report agree.
Events are the dicts of `EventLog.events` / events.jsonl; `t` is game seconds.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Iterable

Event = dict
Point = tuple[float, float]  # (game seconds, value)
REL_FIELDS = ("sentiment", "trust", "familiarity")
MODEL_MODES = ("score", "generate")  # decision modes where the language model chose


def _agent(ev: Event) -> str:
    return str(ev.get("agent") or ev.get("speaker") or ev.get("initiator") or "")


def need_series(events: Iterable[Event], agent: str) -> dict[str, list[Point]]:
    """need name -> [(t, value)] from the `needs` snapshots."""
    out: dict[str, list[Point]] = {}
    for ev in events:
        if ev.get("kind") == "needs" and ev.get("agent") == agent:
            for need, value in (ev.get("values") or {}).items():
                out.setdefault(need, []).append((float(ev["t"]), float(value)))
    return out


def emotion_series(events: Iterable[Event], agent: str) -> dict[str, list[Point]]:
    """'valence' and 'intensity' -> [(t, value)] from the `emotion` events."""
    out: dict[str, list[Point]] = {"valence": [], "intensity": []}
    for ev in events:
        if ev.get("kind") == "emotion" and ev.get("agent") == agent:
            for key in out:
                if isinstance(ev.get(key), (int, float)):
                    out[key].append((float(ev["t"]), float(ev[key])))
    return out


def relationship_series(events: Iterable[Event], agent: str, key: str = "sentiment") -> dict[str, list[Point]]:
    """other agent -> [(t, value of `key`)] from `agent`'s `relationship` events."""
    out: dict[str, list[Point]] = {}
    for ev in events:
        if ev.get("kind") == "relationship" and ev.get("agent") == agent and isinstance(ev.get(key), (int, float)):
            out.setdefault(str(ev.get("other")), []).append((float(ev["t"]), float(ev[key])))
    return out


def talk_counts(events: Iterable[Event]) -> Counter:
    """(a, b) with a < b -> number of conversations between them."""
    counts: Counter = Counter()
    for ev in events:
        if ev.get("kind") == "chat_start":
            people = sorted({str(p) for p in (ev.get("agents") or [ev.get("initiator"), ev.get("partner")]) if p})
            for i, a in enumerate(people):
                for b in people[i + 1:]:
                    counts[(a, b)] += 1
    return counts


@dataclass
class Conversation:
    chat_id: str
    t: float
    agents: list[str]
    place: str
    lines: list[tuple[str, str]] = field(default_factory=list)  # (speaker, text)


def conversations(events: Iterable[Event]) -> list[Conversation]:
    """Every conversation with its lines, in the order they started."""
    by_id: dict[str, Conversation] = {}
    for ev in events:
        cid = str(ev.get("chat_id") or "")
        if ev.get("kind") == "chat_start" and cid:
            by_id[cid] = Conversation(cid, float(ev["t"]), [str(a) for a in ev.get("agents") or []],
                                      str(ev.get("place") or ""))
        elif ev.get("kind") == "chat_line" and cid in by_id:
            by_id[cid].lines.append((_agent(ev), str(ev.get("text") or "")))
    return sorted(by_id.values(), key=lambda c: (c.t, c.chat_id))


def decision_sources(events: Iterable[Event]) -> dict[str, Counter]:
    """Where choices came from: action decisions by mode (model / code), model calls by function
    and outcome (model answer, fallback in code, replayed from the cache)."""
    decisions: Counter = Counter()
    calls: Counter = Counter()
    for ev in events:
        if ev.get("kind") == "decision":
            decisions["model" if ev.get("mode") in MODEL_MODES else "code"] += 1
        elif ev.get("kind") == "llm_call":
            calls[(str(ev.get("function")), "fallback (code)" if ev.get("fallback_used") else "model")] += 1
    return {"decisions": decisions, "calls": calls}


def cast(events: Iterable[Event]) -> list[str]:
    """The run's cast from `run_start`, else every agent named in the log."""
    events = list(events)
    start = next((e for e in events if e.get("kind") == "run_start"), None)
    if start and start.get("cast"):
        return [str(n) for n in start["cast"]]
    return sorted({_agent(e) for e in events if _agent(e)})
