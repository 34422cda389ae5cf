"""Scenario files validate; goal checks pass and fail on synthetic logs with clear messages."""

from __future__ import annotations

import json

import pytest

from garp.errors import GarpError
from garp.scenario import schema as S
from garp.scenario.goals import check_goal, place_intervals
from garp.scenario.loader import list_scenarios, load_scenario, scenario_path
from sim_helpers import Shared

EXPECTED = {
    "solitary_evening", "apology", "stage_fright", "newcomer", "dinner_party", "daily_life", "jam_session",
    "birthday_party", "town", "free_evening", "free_evening_extraverted", "free_evening_introverted",
    "hard_words", "hard_words_warm", "hard_words_direct", "open_hours", "open_hours_curious",
    "open_hours_conventional",
}


def test_every_scenario_validates():
    assert EXPECTED <= set(list_scenarios())
    for name in list_scenarios():
        sc = load_scenario(name)
        assert sc.cast and sc.duration_hours > 0
        assert any(g.check == "no_failures" for g in sc.goals), name


def test_town_has_twenty_agents_for_a_full_day():
    sc = load_scenario("town")
    assert len(sc.cast) == 20 and sc.duration_hours >= 24


@pytest.mark.parametrize("stem", ["free_evening", "hard_words", "open_hours"])
def test_pair_variants_differ_only_in_one_traits_line(stem):
    a, b = sorted(n for n in list_scenarios() if n.startswith(stem + "_"))
    da = json.loads(scenario_path(a).read_text())
    db = json.loads(scenario_path(b).read_text())
    for d in (da, db):
        d.pop("name"), d.pop("goals")
    assert set(da) == set(db)
    diff = [k for k in da if da[k] != db[k]]
    assert diff == ["persona_overrides"]
    (who_a, over_a), = da["persona_overrides"].items()
    (who_b, over_b), = db["persona_overrides"].items()
    assert who_a == who_b and set(over_a) == set(over_b) and over_a["traits"] != over_b["traits"]
    assert {k: v for k, v in over_a.items() if k != "traits"} == {k: v for k, v in over_b.items() if k != "traits"}
    unsuffixed = load_scenario(stem)
    assert unsuffixed.temperament_prompt is not None and unsuffixed.temperament_prompt.agent == who_a


def test_bad_scenario_file_gives_one_clear_error(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"name": "bad", "cast": ["Ludwig"], "duration_hours": 2, "start_time": "25:00"}))
    with pytest.raises(GarpError) as e:
        load_scenario(bad)
    assert "bad.json" in str(e.value) and "start_time" in str(e.value) and "HH:MM" in str(e.value)
    bad.write_text(json.dumps({"name": "bad", "cast": ["Ludwig"], "duration_hours": 2,
                               "seed_memories": [{"agent": "Erica", "text": "hello there"}]}))
    with pytest.raises(GarpError) as e:
        load_scenario(bad)
    assert "Erica" in str(e.value) and "not in the cast" in str(e.value)
    bad.write_text("{not json")
    with pytest.raises(GarpError) as e:
        load_scenario(bad)
    assert "not valid JSON" in str(e.value)
    with pytest.raises(GarpError) as e:
        load_scenario("no_such_scenario")
    assert "available" in str(e.value)


# ---- synthetic logs ----------------------------------------------------------------------
def ev(kind, t, **f):
    return {"kind": kind, "t": t, **f}


def party_log(late_agent_place="Ludwig's House"):
    day1 = 86400
    return [
        ev("run_start", 54000, cast=["Ludwig", "Erica"]),
        ev("arrive", 54000, agent="Ludwig", place="Ludwig's House", room=""),
        ev("arrive", 54000, agent="Erica", place="Erica's House", room=""),
        ev("action_start", 55000, agent="Ludwig", object="piano-1", verb="play"),
        ev("action_start", 55000, agent="Erica", object="bed-2", verb="sleep"),
        ev("arrive", day1 + 18 * 3600 + 600, agent="Erica", place=late_agent_place, room=""),
        ev("chat_start", day1 + 18 * 3600 + 900, initiator="Erica", partner="Ludwig"),
        ev("relationship", day1 + 19 * 3600, agent="Ludwig", other="Erica", sentiment=0.45),
        ev("run_end", day1 + 21 * 3600),
    ]


def goal(**kw):
    from pydantic import TypeAdapter
    return TypeAdapter(S.Goal).validate_python(kw)


def test_agents_in_place_during_pass_and_fail_messages():
    g = goal(check="agents_in_place_during", agents=["Ludwig", "Erica"], place="Ludwig's House",
             start={"day": 1, "time": "18:00"}, end={"day": 1, "time": "21:00"}, min_minutes=20)
    ok = check_goal(g, party_log())
    assert ok.passed, ok.detail
    bad = check_goal(g, party_log("Hobbs Cafe"))
    assert not bad.passed
    assert "Erica" in bad.detail and "Hobbs Cafe" in bad.detail and "day1 18:00" in bad.detail


def test_chat_and_never_left_and_places():
    log = party_log()
    assert check_goal(goal(check="chat_opened_by", agent="Erica"), log).passed
    r = check_goal(goal(check="no_chat_opened_by", agent="Erica"), log)
    assert not r.passed and "Ludwig" in r.detail
    assert not check_goal(goal(check="chat_opened_by", agent="Ludwig"), log).passed
    assert check_goal(goal(check="never_left", agent="Ludwig", place="Ludwig's House"), log).passed
    r = check_goal(goal(check="never_left", agent="Erica", place="Erica's House"), log)
    assert not r.passed and "Ludwig's House" in r.detail
    assert check_goal(goal(check="places_visited", agent="Erica", at_least=2), log).passed
    r = check_goal(goal(check="places_visited", agent="Erica", at_most=1), log)
    assert not r.passed and "2 place" in r.detail


def test_sentiment_checks_and_variant_comparison():
    log = party_log()
    assert check_goal(goal(check="sentiment_above", agent="Ludwig", toward="Erica", value=0.3), log).passed
    r = check_goal(goal(check="sentiment_above", agent="Ludwig", toward="Erica", value=0.5), log)
    assert not r.passed and "+0.45" in r.detail
    other = [ev("relationship", 10, agent="Ludwig", other="Erica", sentiment=0.2)]
    g = goal(check="sentiment_above_variant", agent="Ludwig", toward="Erica", other_scenario="x")
    assert check_goal(g, log, {"x": other}).passed
    assert not check_goal(g, other, {"x": log}).passed
    r = check_goal(g, log, {})
    assert not r.passed and "was not run" in r.detail


def test_failures_and_activity():
    log = party_log()
    assert check_goal(goal(check="no_failures"), log).passed
    assert check_goal(goal(check="all_agents_active"), log).passed
    r = check_goal(goal(check="all_agents_active", min_actions=2), log)
    assert not r.passed and "Erica" in r.detail
    log.append(ev("error", 60000, where="cognition:decide", message="ValueError: boom"))
    r = check_goal(goal(check="no_failures"), log)
    assert not r.passed and "cognition:decide" in r.detail and "boom" in r.detail


def test_commitment_must_be_in_the_agents_own_book():
    log = party_log() + [ev("commitment", 54000, agent="Ludwig", agents=["Erica"], what="Ludwig's birthday party",
                            source="own")]
    r = check_goal(goal(check="commitment_recorded", agent="Erica"), log)
    assert not r.passed and "Erica's recorded commitments: none" in r.detail  # the host's note is not hers
    log.append(ev("commitment", 60000, agent="Erica", agents=["Erica"], what="Ludwig's birthday party",
                  source="heard-from-host"))
    r = check_goal(goal(check="commitment_recorded", agent="Erica", what_contains="birthday"), log)
    assert r.passed and "heard-from-host" in r.detail
    assert not check_goal(goal(check="commitment_recorded", agent="Erica", what_contains="jam"), log).passed


def test_relationship_emotion_and_activity_checks():
    log = party_log() + [ev("relationship", 60000, agent="Erica", other="Ludwig", sentiment=0.1, familiarity=0.24),
                         ev("emotion", 55000, agent="Erica", label="anxious", intensity=0.6),
                         ev("emotion", 60000, agent="Erica", label="anxious", intensity=0.8)]
    assert check_goal(goal(check="relationship_above", agent="Erica", toward="Ludwig", dimension="familiarity",
                           value=0.2), log).passed
    r = check_goal(goal(check="relationship_above", agent="Erica", toward="Ludwig", dimension="sentiment", value=0.2), log)
    assert not r.passed and "0.10" in r.detail
    felt = goal(check="emotion_felt", agent="Erica", labels=["anxious"], min_intensity=0.7)
    assert check_goal(felt, log).passed
    early = goal(check="emotion_felt", agent="Erica", labels=["anxious"], min_intensity=0.7,
                 before={"day": 0, "time": "16:00"})
    r = check_goal(early, log)
    assert not r.passed and "anxious 0.60" in r.detail
    daily = goal(check="activities_done", agent="Erica", activities={"sleep": ["sleep"], "meal": ["eat", "cook"]})
    r = check_goal(daily, log)
    assert not r.passed and "no action for meal (verbs started: sleep)" in r.detail
    log.append(ev("action_start", 70000, agent="Erica", object="stove-1", verb="cook"))
    assert check_goal(daily, log).passed


def test_place_intervals_close_at_run_end():
    spans = place_intervals(party_log(), "Erica", 200000)
    assert spans[0][2] == "Erica's House" and spans[-1][2] == "Ludwig's House"


# ---- garp check from the committed reply cache -------------------------------------------
@pytest.mark.model
def test_garp_check_short_scenario_from_committed_cache(tmp_path, sim_engine, monkeypatch):
    """`garp check` on a short scenario: replayed from scenarios/replies/, table + JSON + JUnit."""
    import shutil
    import types

    from garp.sim import check
    backend, embedder = sim_engine
    cache = tmp_path / "replies.sqlite"  # a copy, so the committed file never changes under CI
    if check.REPLY_CACHE.exists():
        shutil.copy(check.REPLY_CACHE, cache)
    monkeypatch.setattr(check, "shared_engine", lambda args: (Shared(backend), Shared(embedder)))
    args = types.SimpleNamespace(runs=1, live=False, record=False, cache=str(cache), model=None, server=None)
    rows = check.run_check(["solitary_evening"], args, tmp_path / "out", progress=False)
    summary = check.write_reports(rows, tmp_path / "out")
    assert summary["runs"] == 1 and rows[0]["label"] == "solitary_evening"
    assert (tmp_path / "out" / "junit.xml").read_text().count("<testcase") == len(rows[0]["results"])
    table = check.table(rows)
    assert "solitary_evening" in table and ("ok" in table or "FAIL" in table)
    assert all(g["detail"] for g in rows[0]["results"])
    calls = [e for e in rows[0]["events"] if e["kind"] == "llm_call"]
    assert calls and not [e for e in rows[0]["events"] if e["kind"] == "error"]


@pytest.mark.model
def test_ctrl_c_ends_the_whole_check_not_only_its_current_run(tmp_path, sim_engine, monkeypatch):
    """Ctrl-C once ended only the scenario under way, and the check went on to the next."""
    import signal
    import types

    from garp.sim import check, runner
    backend, embedder = sim_engine
    monkeypatch.setattr(check, "shared_engine", lambda args: (Shared(backend), Shared(embedder)))
    monkeypatch.setattr(runner, "progress_printer", lambda label: lambda sim, final=False: None if final else
                        signal.raise_signal(signal.SIGINT))  # the player presses Ctrl-C during the first step
    args = types.SimpleNamespace(runs=1, live=False, record=False, cache=str(tmp_path / "r.sqlite"), model=None,
                                 server=None)
    rows = check.run_check(["solitary_evening", "apology"], args, tmp_path / "out", progress=True)
    assert [r["label"] for r in rows] == ["solitary_evening"] and rows[0]["interrupted"]



def test_headless_personality_scenario_without_trait_is_a_clear_error(tmp_path):
    import types

    from garp.sim.wiring import build
    with pytest.raises(GarpError) as e:
        build("free_evening", types.SimpleNamespace(out=str(tmp_path / "x")), lockstep=True)
    assert "--trait" in str(e.value) and "very extraverted" in str(e.value)
