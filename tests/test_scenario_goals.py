"""The scenario checks CI runs: every scenario (each temperament of an asking one) replays from
scenarios/replies/ and must pass every goal, with every model reply coming from the recording
(deterministic). Refresh the recording with `garp check --record` after a prompt changes."""

import shutil
import types

import pytest

from garp.scenario import check
from garp.scenario.loader import list_scenarios

from sim_helpers import Shared

# The 20-agent town is checked over its morning only: recording its full day takes the bundled
# model well over an hour on 2 cores (README, Known limits).
PARTIAL_HOURS = {"town": 6.0}
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
        rows = {}
        full = [n for n in SCENARIOS if n not in PARTIAL_HOURS]
        for names, hours in [(full, None), *(([n], h) for n, h in PARTIAL_HOURS.items())]:
            args = types.SimpleNamespace(runs=1, live=False, record=False, cache=str(cache), model=None, server=None,
                                         hours=hours)
            rows.update({r["label"]: r for r in check.run_check(names, args, tmp / "out", progress=False)})
        return rows
    finally:
        check.shared_engine = original


@pytest.mark.parametrize("name", LABELS)
def test_recorded_scenario_passes_every_goal(replayed_rows, name):
    row = replayed_rows[name]
    failed = [f"{g['check']}: {g['detail']}" for g in row["results"] if not g["passed"]]
    assert not failed, f"{name} failed: {failed}"


@pytest.mark.parametrize("name", LABELS)
def test_recorded_scenario_replays_without_calling_the_model(replayed_rows, name):
    calls = [e for e in replayed_rows[name]["events"] if e["kind"] == "llm_call"]
    live = [e["function"] for e in calls if not e.get("cached")]
    assert calls and not live, f"{name}: {len(live)} replies missing from the recording: {sorted(set(live))}"
