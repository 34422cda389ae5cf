"""The scenario checks CI runs: every scenario (each temperament of an asking one) replays from
scenarios/replies/ and must pass every goal, with every model reply coming from the recording
(deterministic). Refresh the recording with `garp check --record` after a prompt changes."""

import json
import re
import shutil
import types

import pytest

from garp.mind.plan_repair import is_sleep
from garp.scenario.line_check import line_summary
from garp.sim import check
from garp.scenario.loader import list_scenarios

from sim_helpers import Shared

SCENARIOS = list_scenarios()
LABELS = [label for name in SCENARIOS for label, _ in check.variants(name)]


@pytest.fixture(scope="module")
def replayed_rows(sim_engine, tmp_path_factory):
    backend, embedder = sim_engine
    tmp = tmp_path_factory.mktemp("check")
    cache = tmp / "replies.sqlite"
    shutil.copy(check.REPLY_CACHE, cache)  # a copy, so a test never changes the recording
    original = check.shared_engine
    check.shared_engine = lambda args: (Shared(backend), Shared(embedder))
    try:
        # a scenario whose recording covers its first hours only is replayed that far (check.RECORDED_HOURS)
        args = types.SimpleNamespace(runs=1, live=False, record=False, cache=str(cache), model=None, server=None)
        return {r["label"]: r for r in check.run_check(SCENARIOS, args, tmp / "out", progress=False)}
    finally:
        check.shared_engine = original


# Goals the recorded run misses, kept in the scenario as written and explained in the README (Known
# limits): (row label, goal). Each has a strict expected-failure test below, which fails the day the
# goal passes, so this list only ever shrinks.
SHORT_OF_TARGET = {
    ("open_hours_curious", "places_visited"),  # a free afternoon read from Yuki's routine keeps her home
    ("open_hours[very curious]", "places_visited"),
}


@pytest.mark.parametrize("name", LABELS)
def test_recorded_scenario_passes_every_goal(replayed_rows, name):
    row = replayed_rows[name]
    failed = [f"{g['check']}: {g['detail']}" for g in row["results"]
              if not g["passed"] and (name, g["check"]) not in SHORT_OF_TARGET]
    assert not failed, f"{name} failed: {failed}"


@pytest.mark.xfail(strict=True, reason="a goal the recorded run misses (README: Known limits)")
@pytest.mark.parametrize("label,goal", sorted(SHORT_OF_TARGET))
def test_goal_short_of_its_target(replayed_rows, label, goal):
    result = next(g for g in replayed_rows[label]["results"] if g["check"] == goal)
    assert result["passed"], result["detail"]


@pytest.mark.parametrize("name", LABELS)
def test_recorded_scenario_replays_without_calling_the_model(replayed_rows, name):
    calls = [e for e in replayed_rows[name]["events"] if e["kind"] == "llm_call"]
    live = [e["function"] for e in calls if not e.get("cached") and e.get("mode") != "code"]  # code: no model asked
    assert calls and not live, f"{name}: {len(live)} replies missing from the recording: {sorted(set(live))}"


@pytest.mark.parametrize("name", LABELS)
def test_what_characters_say_in_a_recorded_scenario_is_speech(replayed_rows, name):
    """Issue 18 §4 over the recorded days: no one narrates themself or speaks prompt text, no line
    loops, no line comes back more than twice in a chat or five times in a day across the town, and
    code wrote few of the lines."""
    summary = line_summary(replayed_rows[name]["events"])
    bad = {k: n for k, n in summary["flags"].items()
           if k in ("third_person", "instruction", "loops", "repeat_in_chat", "repeat_in_day")}
    assert not bad, f"{name}: {bad}: {summary['examples'][:3]}"
    if summary["line_calls"] >= 20:
        assert summary["line_fallback_share"] <= 0.1, f"{name}: {summary['line_fallback_share']:.0%} of lines by code"


_PLAN_ITEM = re.compile(r"^(\d\d):(\d\d)-(\d\d):(\d\d) (.+?) @ (.+)$")  # "00:00-07:00 sleep @ Ren's House"


def _as_list(value):
    return json.loads(value) if isinstance(value, str) else value


def talks_in_bed(events: list[dict]) -> list[tuple[str, str, float]]:
    """(agent, chat id, hour) of each talk that starts where and when the agent's day plan says it sleeps."""
    plans, found = {}, []
    for e in sorted(events, key=lambda e: e.get("t", 0.0)):
        if e["kind"] == "plan" and e.get("level") == "day":
            plans[e["agent"]] = [m.groups() for m in map(_PLAN_ITEM.match, _as_list(e["items"])) if m]
        if e["kind"] != "chat_start":
            continue
        hour = e["t"] % 86400 / 3600
        for agent in _as_list(e["agents"]):
            found += [(agent, e["chat_id"], round(hour, 2)) for h0, m0, h1, m1, what, place in plans.get(agent, [])
                      if is_sleep(what) and place == e["place"] and int(h0) + int(m0) / 60 <= hour < int(h1) + int(m1) / 60]
    return found


@pytest.mark.parametrize("name", LABELS)
def test_no_one_is_drawn_into_a_talk_in_bed(replayed_rows, name):
    """Housemates asleep by their plans do not strike up talks across the bedroom (a play showed Felix and
    Ren chatting at 06:17 and 06:52 and going back to bed in between)."""
    assert not talks_in_bed(replayed_rows[name]["events"])


def uses_cut_by_talks(events: list[dict]) -> list[tuple[str, str, float]]:
    """(agent, verb, hour) of each use that ends the moment a talk of its user starts (not by a choice made then)."""
    starts = {(e["t"], a) for e in events if e["kind"] == "chat_start" for a in _as_list(e["agents"])}
    chosen = {(e["t"], e["agent"]) for e in events if e["kind"] == "decision"}
    return [(e["agent"], e["verb"], round(e["t"] % 86400 / 3600, 2)) for e in events
            if e["kind"] == "action_end" and (e["t"], e["agent"]) in starts - chosen]


@pytest.mark.parametrize("name", LABELS)
def test_a_talk_pauses_a_meal_or_a_shift_and_does_not_end_it(replayed_rows, name):
    """A play had Felix leave his lunch for a chat at 12:35 after three minutes and sit down to it again at
    13:03: the two talk where they are and carry on afterwards."""
    assert not uses_cut_by_talks(replayed_rows[name]["events"])
