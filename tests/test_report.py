"""`garp report` on a recorded scenario run: the build reports its loading stages, the run logs
needs snapshots, and the HTML names the goals, decision sources, plots and conversations."""

from __future__ import annotations

import re
import types

import pytest

from garp import timeline as TL
from garp.cli import main
from garp.eventlog import EventLog
from garp.scenario.line_check import line_summary
from sim_helpers import seeded_cache


@pytest.fixture(scope="module")
def apology_run(tmp_path_factory, sim_engine):
    """The apology scenario replayed from the committed replies, with the build's progress heard."""
    from garp.sim.wiring import build
    backend, embedder = sim_engine
    tmp = tmp_path_factory.mktemp("report")
    opts = types.SimpleNamespace(out=str(tmp / "apology"), seed=0, cache=str(seeded_cache(tmp)), trait=None,
                                 headless=True, live=False, record=False)
    stages: list[tuple[str, str]] = []
    sim = build("apology", opts, lockstep=True, backend=backend, embedder=embedder,
                progress=lambda stage, detail: stages.append((stage, detail)))
    try:
        while sim.clock.t < sim.scenario.end_seconds:
            sim.step_lockstep()
        sim.finish()
    finally:
        sim.close()
    return tmp / "apology", stages


def test_build_reports_each_loading_stage_in_order(apology_run):
    _, stages = apology_run
    order = list(dict.fromkeys(s for s, _ in stages))
    assert order == ["map", "model", "embedder", "memories", "start"]
    assert [d for s, d in stages if s == "memories"] == ["Maya (1 of 2)", "Jonah (2 of 2)"]


def test_run_logs_needs_snapshots_every_half_hour(apology_run):
    run_dir, _ = apology_run
    events = EventLog.read(run_dir / "events.jsonl")
    snaps = [e for e in events if e["kind"] == "needs" and e["agent"] == "Maya"]
    assert len(snaps) == 9  # 15:00 to 19:00
    assert set(snaps[0]["values"]) == {"hunger", "rest", "hygiene", "social", "fun", "comfort"}
    assert [int(e["t"] // 1800) for e in snaps] == list(range(30, 39))


def test_garp_report_writes_a_self_contained_html_page(apology_run, capsys):
    run_dir, _ = apology_run
    assert main(["report", str(run_dir)]) == 0
    page = (run_dir / "report.html").read_text()
    assert "report written to" in capsys.readouterr().out
    events = EventLog.read(run_dir / "events.jsonl")
    assert "Scenario <b>apology</b>, cast: Maya, Jonah" in page
    for check in ("no_failures", "all_agents_active", "chat_between", "sentiment_above"):
        assert re.search(rf"<td>{check}</td><td class=pass>pass</td>", page), check
    src = TL.decision_sources(events)
    assert f"Action decisions: {src['decisions']['model']} by the model, {src['decisions']['code']} by code" in page
    # plots inline: decision sources, the talk heat map, one per character; nothing fetched from elsewhere
    assert page.count('src="data:image/png;base64,') == 4 and "http" not in page
    chats = TL.conversations(events)
    assert len(chats) == page.count("<h3>day 1 ") and chats
    speaker, line = chats[0].lines[0]
    import html
    assert f"<span class=who>{speaker}:</span> {html.escape(line)}" in page
    lines = line_summary(events)  # the line checker's verdict on the run is on the page
    assert f"{lines['lines']} lines spoken" in page and lines["lines"] == sum(len(c.lines) for c in chats)
    assert ("No line flagged." in page) == (not lines["flags"])


def test_report_of_a_directory_without_a_log_is_a_clear_error(tmp_path, capsys):
    assert main(["report", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "events.jsonl" in err and str(tmp_path) in err
