"""Declarative goal checks over a run's event log (Section V-C).

Each check reads only the log, so it works on a live run, a replay or a synthetic log.
A failed check says what was expected and what the log shows.

Event fields the checks rely on (written by `garp.sim.simulation`):
  arrive       agent, place, room            (also one at t0 for the start place)
  action_start agent, object_id, verb
  chat_start   initiator, partner
  relationship agent, other, sentiment
  commitment   agent (whose book holds it), agents (participants), what
  emotion      agent, label, intensity
  error        where, message
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable

from garp.scenario import schema as S
from garp.units import DAY_S

Event = dict[str, Any]


@dataclass
class GoalResult:
    check: str
    passed: bool
    detail: str

    def as_dict(self) -> dict[str, Any]:
        return {"check": self.check, "passed": self.passed, "detail": self.detail}


def _hm(t: float) -> str:
    day, rest = divmod(int(t), int(DAY_S))
    return f"day{day} {rest // 3600:02d}:{rest % 3600 // 60:02d}"


def place_intervals(events: list[Event], agent: str, end_t: float) -> list[tuple[float, float, str, str]]:
    """(start, end, place, room) spans built from the agent's `arrive` events."""
    spans: list[tuple[float, float, str, str]] = []
    cur: tuple[float, str, str] | None = None
    for e in events:
        if e["kind"] == "arrive" and e.get("agent") == agent:
            if cur:
                spans.append((cur[0], e["t"], cur[1], cur[2]))
            cur = (e["t"], e.get("place") or "outside", e.get("room") or "")
    if cur:
        spans.append((cur[0], max(end_t, cur[0]), cur[1], cur[2]))
    return spans


def _run_end(events: list[Event]) -> float:
    ends = [e["t"] for e in events if e["kind"] == "run_end"]
    return ends[-1] if ends else (events[-1]["t"] if events else 0.0)


def _cast(events: list[Event]) -> list[str]:
    for e in events:
        if e["kind"] == "run_start":
            return list(e.get("cast", []))
    return sorted({e["agent"] for e in events if isinstance(e.get("agent"), str)})


def check_goal(goal: Any, events: list[Event], others: dict[str, list[Event]] | None = None) -> GoalResult:
    fn = _CHECKS[goal.check]
    passed, detail = fn(goal, events, others or {})
    return GoalResult(goal.check, passed, detail)


def check_goals(goals: Iterable[Any], events: list[Event], others: dict[str, list[Event]] | None = None) -> list[GoalResult]:
    return [check_goal(g, events, others) for g in goals]


def _no_failures(g: S.NoFailures, events: list[Event], _o) -> tuple[bool, str]:
    errs = [e for e in events if e["kind"] == "error"]
    if not errs:
        return True, "no error events"
    first = errs[0]
    return False, (f"expected no escaped errors; the log has {len(errs)}, first at {_hm(first['t'])}: "
                   f"{first.get('where', '?')}: {first.get('message', '')[:160]}")


def _all_agents_active(g: S.AllAgentsActive, events: list[Event], _o) -> tuple[bool, str]:
    counts = {a: 0 for a in _cast(events)}
    for e in events:
        if e["kind"] == "action_start" and e.get("agent") in counts:
            counts[e["agent"]] += 1
    idle = {a: n for a, n in counts.items() if n < g.min_actions}
    if not counts:
        return False, "expected a cast; the log has no run_start event and no agent events"
    if idle:
        return False, f"expected every agent to start >= {g.min_actions} actions; below that: {idle}"
    return True, f"actions per agent: min {min(counts.values())}, max {max(counts.values())}"


def _in_place(g: S.AgentsInPlaceDuring, events: list[Event], _o) -> tuple[bool, str]:
    w0, w1 = g.start.seconds, g.end.seconds
    end_t = _run_end(events)
    missing = []
    for agent in g.agents:
        inside = 0.0
        seen: list[str] = []
        for s0, s1, place, room in place_intervals(events, agent, end_t):
            lo, hi = max(s0, w0), min(s1, w1)
            if hi > lo:
                seen.append(place + (f"/{room}" if room else ""))
                if place == g.place and (not g.room or room == g.room):
                    inside += hi - lo
        if inside < g.min_minutes * 60.0:
            where = ", ".join(dict.fromkeys(seen)) or "no position logged"
            missing.append(f"{agent} {inside / 60:.0f} min there (was at: {where})")
    target = g.place + (f"/{g.room}" if g.room else "")
    if missing:
        return False, (f"expected {', '.join(g.agents)} in {target} >= {g.min_minutes:g} min between "
                       f"{_hm(w0)} and {_hm(w1)}; " + "; ".join(missing))
    return True, f"all {len(g.agents)} agents in {target} during {_hm(w0)}-{_hm(w1)}"


def _chat_opened(g: S.ChatOpenedBy, events: list[Event], _o) -> tuple[bool, str]:
    opened = [e for e in events if e["kind"] == "chat_start" and e.get("initiator") == g.agent]
    want = g.check == "chat_opened_by"
    if want:
        if opened:
            return True, f"{g.agent} opened {len(opened)} chat(s), first with {opened[0].get('partner')} at {_hm(opened[0]['t'])}"
        return False, f"expected {g.agent} to open a chat; the log shows none opened by {g.agent}"
    if opened:
        return False, (f"expected {g.agent} to open no chat; the log shows {len(opened)}, first with "
                       f"{opened[0].get('partner')} at {_hm(opened[0]['t'])}")
    return True, f"{g.agent} opened no chat"


def _never_left(g: S.NeverLeft, events: list[Event], _o) -> tuple[bool, str]:
    spans = place_intervals(events, g.agent, _run_end(events))
    away = [(s0, p) for s0, _s1, p, _r in spans if p != g.place]
    if not spans:
        return False, f"expected {g.agent} to stay in {g.place}; the log has no position for {g.agent}"
    if away:
        return False, f"expected {g.agent} never to leave {g.place}; at {_hm(away[0][0])} {g.agent} was in {away[0][1]}"
    return True, f"{g.agent} stayed in {g.place}"


def final_relationship(events: list[Event], agent: str, toward: str, dimension: str) -> float | None:
    vals = [e.get(dimension) for e in events
            if e["kind"] == "relationship" and e.get("agent") == agent and e.get("other") == toward]
    vals = [v for v in vals if isinstance(v, (int, float))]
    return float(vals[-1]) if vals else None


def final_sentiment(events: list[Event], agent: str, toward: str) -> float | None:
    return final_relationship(events, agent, toward, "sentiment")


def _value_above(events: list[Event], agent: str, toward: str, dimension: str, value: float) -> tuple[bool, str]:
    v = final_relationship(events, agent, toward, dimension)
    if v is None:
        return False, f"expected {agent}'s {dimension} toward {toward} > {value}; the log has no relationship event for the pair"
    return v > value, f"{agent}'s final {dimension} toward {toward} is {v:+.2f} (expected > {value:+.2f})"


def _relationship_above(g: S.RelationshipAbove, events: list[Event], _o) -> tuple[bool, str]:
    return _value_above(events, g.agent, g.toward, g.dimension, g.value)


def _sentiment_above(g: S.SentimentAbove, events: list[Event], _o) -> tuple[bool, str]:
    return _value_above(events, g.agent, g.toward, "sentiment", g.value)


def _sentiment_variant(g: S.SentimentAboveVariant, events: list[Event], others) -> tuple[bool, str]:
    other = others.get(g.other_scenario)
    if other is None:
        return False, f"expected a run of '{g.other_scenario}' to compare with; it was not run in this check"
    a, b = final_sentiment(events, g.agent, g.toward), final_sentiment(other, g.agent, g.toward)
    if a is None or b is None:
        return False, f"expected sentiment of {g.agent} toward {g.toward} in both runs; got this={a}, {g.other_scenario}={b}"
    return a > b, f"{g.agent}->{g.toward}: this run {a:+.2f}, {g.other_scenario} {b:+.2f} (expected this > other)"


def _places_visited(g: S.PlacesVisited, events: list[Event], _o) -> tuple[bool, str]:
    places = list(dict.fromkeys(e.get("place") for e in events
                                if e["kind"] == "arrive" and e.get("agent") == g.agent and e.get("place")))
    n = len(places)
    ok = (g.at_least is None or n >= g.at_least) and (g.at_most is None or n <= g.at_most)
    bound = " and ".join(x for x in (f">= {g.at_least}" if g.at_least else "", f"<= {g.at_most}" if g.at_most else "") if x)
    return ok, f"{g.agent} visited {n} place(s) {places} (expected {bound})"


def _chat_between(g: S.ChatBetween, events: list[Event], _o) -> tuple[bool, str]:
    pair = set(g.agents)
    chats = [e for e in events if e["kind"] == "chat_start" and {e.get("initiator"), e.get("partner")} == pair]
    if chats:
        return True, f"{len(chats)} chat(s) between {' and '.join(g.agents)}, first at {_hm(chats[0]['t'])}"
    return False, f"expected a chat between {' and '.join(g.agents)}; the log shows none"


def _commitment(g: S.CommitmentRecorded, events: list[Event], _o) -> tuple[bool, str]:
    """The arrangement must be in the agent's own book: the host's note naming a guest is not
    the guest's memory of it (V-C: each guest must record the arrangement)."""
    word = g.what_contains.lower()
    held = [e for e in events if e["kind"] == "commitment" and e.get("agent") == g.agent]
    recs = [e for e in held if word in str(e.get("what", "")).lower()]
    about = f" about {g.what_contains!r}" if word else ""
    if recs:
        return True, (f"{len(recs)} commitment(s){about} recorded by {g.agent}, first at {_hm(recs[0]['t'])}: "
                      f"{recs[0].get('what', '')!r} ({recs[0].get('source', '?')})")
    shown = ", ".join(repr(e.get("what", "")) for e in held[:3]) or "none"
    return False, f"expected {g.agent} to record a commitment{about}; {g.agent}'s recorded commitments: {shown}"


def _emotion_felt(g: S.EmotionFelt, events: list[Event], _o) -> tuple[bool, str]:
    until = g.before.seconds if g.before else float("inf")
    states = [e for e in events if e["kind"] == "emotion" and e.get("agent") == g.agent and e["t"] < until]
    hits = [e for e in states if e.get("label") in g.labels and float(e.get("intensity", 0)) >= g.min_intensity]
    when = f" before {_hm(until)}" if g.before else ""
    want = f"{g.agent} to feel {'/'.join(g.labels)} at intensity >= {g.min_intensity:g}{when}"
    if hits:
        return True, f"{g.agent} felt {hits[0]['label']} at {float(hits[0]['intensity']):.2f}, {_hm(hits[0]['t'])}"
    seen = ", ".join(f"{e.get('label')} {float(e.get('intensity', 0)):.2f}" for e in states[-5:]) or "no emotion events"
    return False, f"expected {want}; the log shows (last states): {seen}"


def _activities_done(g: S.ActivitiesDone, events: list[Event], _o) -> tuple[bool, str]:
    verbs = [e.get("verb") for e in events if e["kind"] == "action_start" and e.get("agent") == g.agent]
    missing = [label for label, allowed in g.activities.items() if not set(allowed) & set(verbs)]
    if missing:
        return False, (f"expected {g.agent} to do {', '.join(g.activities)}; no action for {', '.join(missing)} "
                       f"(verbs started: {', '.join(dict.fromkeys(v for v in verbs if v)) or 'none'})")
    return True, f"{g.agent} did {', '.join(g.activities)} ({len(verbs)} actions)"


def _hosts_event(events: list[Event], word: str, host: str) -> Event | None:
    """The host's own commitment to the event (its true time and place)."""
    return next((e for e in events if e["kind"] == "commitment" and e.get("agent") == host
                 and e.get("source") == "own" and word in str(e.get("what", "")).lower()), None)


def _news_spread(g: S.NewsSpread, events: list[Event], _o) -> tuple[bool, str]:
    """How far word of an event went (issue 19): who heard of it by `by`, how many heard it second-hand,
    and who was at its place for `min_minutes` while it ran."""
    word, others = g.what_contains.lower(), [a for a in _cast(events) if a != g.host]
    event = _hosts_event(events, word, g.host)
    if event is None or not others:
        return False, f"expected {g.host} to hold an event about {g.what_contains!r}; the log has none"
    heard = [e for e in events if e["kind"] == "news_heard" and word in str(e.get("what", "")).lower()
             and e["t"] <= g.by.seconds and e.get("agent") in others]
    who = {e["agent"] for e in heard}
    relayed = {e["agent"] for e in heard if e.get("heard_from") != g.host}
    end_t = _run_end(events)
    came = [a for a in others if sum(max(0.0, min(s1, event["end"]) - max(s0, event["start"]))
                                     for s0, s1, place, _r in place_intervals(events, a, end_t)
                                     if place == event["place"]) >= g.min_minutes * 60.0]
    n = len(others)
    ok = len(who) >= g.heard_share * n and len(came) >= g.came_share * n and len(relayed) >= g.second_hand
    return ok, (f"{len(who)}/{n} heard of {g.what_contains!r} by {_hm(g.by.seconds)} (expected >= {g.heard_share:.0%}), "
                f"{len(relayed)} second-hand (expected >= {g.second_hand}), {len(came)}/{n} came "
                f"(expected >= {g.came_share:.0%}): heard {sorted(who)}, came {sorted(came)}")


def _commitments_correct(g: S.CommitmentsCorrect, events: list[Event], _o) -> tuple[bool, str]:
    """Every guest's commitment to the event has the host's time and place (a relay invents nothing)."""
    word = g.what_contains.lower()
    event = _hosts_event(events, word, g.host)
    if event is None:
        return False, f"expected {g.host} to hold an event about {g.what_contains!r}; the log has none"
    held = [e for e in events if e["kind"] == "commitment" and e.get("host") == g.host and e.get("agent") != g.host
            and word in str(e.get("what", "")).lower()]
    wrong = [f"{e['agent']}: {e.get('place')} {_hm(float(e.get('start', 0)))}" for e in held
             if e.get("place") != event["place"] or abs(float(e.get("start", 0)) - event["start"]) > 60]
    if wrong:
        return False, f"expected every guest's {g.what_contains!r} at {event['place']} {_hm(event['start'])}; wrong: {wrong}"
    return True, f"{len(held)} guest commitment(s), all at {event['place']} {_hm(event['start'])}"


_CHECKS = {
    "no_failures": _no_failures,
    "all_agents_active": _all_agents_active,
    "agents_in_place_during": _in_place,
    "chat_opened_by": _chat_opened,
    "no_chat_opened_by": _chat_opened,
    "never_left": _never_left,
    "sentiment_above": _sentiment_above,
    "sentiment_above_variant": _sentiment_variant,
    "places_visited": _places_visited,
    "chat_between": _chat_between,
    "commitment_recorded": _commitment,
    "relationship_above": _relationship_above,
    "emotion_felt": _emotion_felt,
    "activities_done": _activities_done,
    "news_spread": _news_spread,
    "commitments_correct": _commitments_correct,
}
