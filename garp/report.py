"""`garp report RUN_DIR`: one self-contained HTML page about a run, read from its events.jsonl.

The page holds: the scenario's goals checked against the log, each character's needs,
emotion and relationships over the run (matplotlib plots embedded as PNG data), a heat
map of who talked to whom, where decisions came from (the model or code), and every
conversation's lines. The series come from garp.timeline, the same reading the in-game
Timeline tab and talk overlay use. matplotlib is imported only here, lazily.
"""

from __future__ import annotations

import base64
import html
import io
from pathlib import Path
from typing import Any

from garp import timeline as TL
from garp.errors import GarpError
from garp.eventlog import EventLog
from garp.scenario.line_check import line_summary

DPI = 80            # plot resolution; keeps a 20-agent report near a megabyte
MAX_LINES_SHOWN = 40  # lines per conversation in the report
STYLE = """body{font-family:sans-serif;margin:2em;max-width:1100px;color:#222}
h1,h2,h3{color:#234}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:4px 8px;text-align:left}
.pass{color:#185}.fail{color:#b22}.chat{margin:0 0 1em 1em}.who{font-weight:bold}img{max-width:100%}"""


def _pyplot() -> Any:
    try:
        import matplotlib
    except ImportError:
        raise GarpError("garp report: the plotting library matplotlib is not installed; "
                        "install it with `.venv/bin/pip install matplotlib`") from None
    matplotlib.use("Agg")  # files only, no window
    import matplotlib.pyplot as plt
    return plt


def _png(fig: Any) -> str:
    """The figure as an <img> with the PNG inline (the report is one file)."""
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=DPI, bbox_inches="tight")
    _pyplot().close(fig)
    return f'<img alt="plot" src="data:image/png;base64,{base64.b64encode(buf.getvalue()).decode()}">'


def _hours(points: list[TL.Point]) -> tuple[list[float], list[float]]:
    return [t / 3600.0 for t, _ in points], [v for _, v in points]


def _chart(ax: Any, title: str, series: dict[str, list[TL.Point]], lo: float, hi: float,
           span: tuple[float, float]) -> None:
    """Step lines (a value holds until the next event) over the whole run's span of game hours."""
    for name, pts in series.items():
        if pts:
            xs, ys = _hours(pts + [(span[1], pts[-1][1])])  # the last value holds to the end of the run
            ax.step(xs, ys, where="post", label=name, marker="." if len(pts) < 3 else None)
    ax.set_title(title)
    ax.set_ylim(lo, hi)
    ax.set_xlim(span[0] / 3600.0, max(span[1], span[0] + 60.0) / 3600.0)
    ax.set_xlabel("game hour (from midnight of day 1)")
    ax.grid(alpha=0.3)
    if any(series.values()):
        ax.legend(fontsize=7, loc="upper left", ncol=2)
    else:
        ax.text(0.5, 0.5, "nothing recorded", ha="center", transform=ax.transAxes)


def run_span(events: list[dict]) -> tuple[float, float]:
    times = [float(e.get("t", 0.0)) for e in events]
    return (min(times), max(times)) if times else (0.0, 0.0)


def agent_figure(events: list[dict], agent: str) -> str:
    """Needs, emotion and relationships of one character, side by side."""
    plt = _pyplot()
    span = run_span(events)
    fig, axes = plt.subplots(1, 3, figsize=(15, 3.4))
    _chart(axes[0], f"{agent}: needs (1 = urgent)", TL.need_series(events, agent), 0.0, 1.0, span)
    _chart(axes[1], f"{agent}: emotion", TL.emotion_series(events, agent), -1.0, 1.0, span)
    _chart(axes[2], f"{agent}: sentiment toward others", TL.relationship_series(events, agent), -1.0, 1.0, span)
    return _png(fig)


def talk_figure(events: list[dict], names: list[str]) -> str:
    """Heat map: conversations between each pair of characters."""
    plt = _pyplot()
    counts = TL.talk_counts(events)
    grid = [[counts.get(tuple(sorted((a, b))), 0) if a != b else 0 for b in names] for a in names]
    size = max(4.0, 0.45 * len(names) + 2)
    fig, ax = plt.subplots(figsize=(size + 1, size))
    im = ax.imshow(grid, cmap="Blues")
    ax.set_xticks(range(len(names)), names, rotation=60, ha="right")
    ax.set_yticks(range(len(names)), names)
    top = max((n for row in grid for n in row), default=0)
    for i, row in enumerate(grid):
        for j, n in enumerate(row):
            if n:
                ax.text(j, i, str(n), ha="center", va="center", fontsize=8, color="white" if n > top / 2 else "black")
    ax.set_title("Who talked to whom (conversations)")
    fig.colorbar(im, ax=ax, shrink=0.7)
    return _png(fig)


def sources_figure(sources: dict) -> str:
    """Bars: action decisions by who made them; model calls per function, answered by the model or
    by the function's fallback in code."""
    plt = _pyplot()
    fig, (a, b) = plt.subplots(1, 2, figsize=(14, 4), gridspec_kw={"width_ratios": [1, 3]})
    dec = sources["decisions"]
    a.bar(["model", "code"], [dec.get("model", 0), dec.get("code", 0)], color=["#4a7fd4", "#d49a4a"])
    a.set_title("Action decisions")
    funcs = sorted({f for f, _ in sources["calls"]})
    model = [sources["calls"].get((f, "model"), 0) for f in funcs]
    code = [sources["calls"].get((f, "fallback (code)"), 0) for f in funcs]
    b.bar(funcs, model, label="model answer", color="#4a7fd4")
    b.bar(funcs, code, bottom=model, label="fallback (code)", color="#d49a4a")
    b.set_title("Model calls by function")
    plt.setp(b.get_xticklabels(), rotation=40, ha="right")
    b.legend()
    return _png(fig)


def goal_results(events: list[dict]) -> tuple[str, list[tuple[str, bool, str]]]:
    """(scenario name, [(check, passed, detail)]) for the scenario named in the log's run_start;
    an asking scenario adds the goals of the answer the run was given."""
    from garp.scenario.goals import check_goal
    from garp.scenario.loader import load_scenario
    start = next((e for e in events if e.get("kind") == "run_start"), {})
    name = str(start.get("scenario") or "")
    try:
        scenario = load_scenario(name)
    except GarpError as err:
        return name, [("scenario", False, f"goals not checked: {err}")]
    goals = list(scenario.goals)
    answer = next((e.get("answer") for e in events if e.get("kind") == "temperament"), None)
    if scenario.temperament_prompt is not None and answer:
        goals += list(scenario.temperament_prompt.goals.get(answer, []))
    out = []
    for goal in goals:
        try:
            res = check_goal(goal, events)
            out.append((res.check, res.passed, res.detail))
        except (KeyError, ValueError, TypeError) as err:  # a comparison goal needs the other variant's run
            out.append((goal.check, False, f"not checkable from this run alone ({type(err).__name__}: {err})"))
    return name, out


def _goals_html(results: list[tuple[str, bool, str]]) -> str:
    rows = "".join(f"<tr><td>{html.escape(c)}</td><td class={'pass' if ok else 'fail'}>{'pass' if ok else 'FAIL'}"
                   f"</td><td>{html.escape(d)}</td></tr>" for c, ok, d in results)
    return f"<table><tr><th>goal</th><th>result</th><th>detail</th></tr>{rows}</table>"


def _hm(t: float) -> str:
    day, rest = divmod(int(t), 86400)
    return f"day {day + 1} {rest // 3600:02d}:{rest % 3600 // 60:02d}"


def _conversations_html(events: list[dict]) -> str:
    parts = []
    for c in TL.conversations(events):
        lines = "".join(f"<div><span class=who>{html.escape(who)}:</span> {html.escape(text)}</div>"
                        for who, text in c.lines[:MAX_LINES_SHOWN])
        more = f"<div>... {len(c.lines) - MAX_LINES_SHOWN} more lines</div>" if len(c.lines) > MAX_LINES_SHOWN else ""
        where = f" at {html.escape(c.place)}" if c.place else ""
        parts.append(f"<h3>{_hm(c.t)}: {html.escape(' and '.join(c.agents))}{where}</h3>"
                     f"<div class=chat>{lines or '<div>(no lines)</div>'}{more}</div>")
    return "".join(parts) or "<p>No conversations.</p>"


def _sources_html(sources: dict) -> str:
    dec = sources["decisions"]
    calls = sources["calls"]
    model = sum(n for (_, how), n in calls.items() if how == "model")
    code = sum(n for (_, how), n in calls.items() if how != "model")
    return (f"<p>Action decisions: {dec.get('model', 0)} by the model, {dec.get('code', 0)} by code "
            f"(carry on, no options, utility only). Model calls: {model} answered by the model, "
            f"{code} by the function's fallback in code.</p>{sources_figure(sources)}")


def _line_checks_html(events: list[dict]) -> str:
    """What the line checker (garp.scenario.line_check) flags in the run's conversation lines."""
    s = line_summary(events)
    share = "n/a" if s["line_fallback_share"] is None else f"{100 * s['line_fallback_share']:.0f}%"
    head = (f"<p>{s['lines']} lines spoken; {share} of the line requests were answered by code because the "
            "model failed or was late.</p>")
    if not s["flags"]:
        return head + "<p class=pass>No line flagged.</p>"
    counts = ", ".join(f"{kind.replace('_', ' ')}: {n}" for kind, n in s["flags"].items())
    rows = "".join(f"<tr><td>{_hm(f['t'])}</td><td>{html.escape(f['kind'])}</td><td>{html.escape(f['agent'])}</td>"
                   f"<td>{html.escape(f['text'])}</td><td>{html.escape(f['detail'])}</td></tr>" for f in s["examples"])
    return (head + f"<p class=fail>Flagged: {counts}.</p><table><tr><th>when</th><th>check</th><th>who</th>"
            f"<th>line</th><th>why</th></tr>{rows}</table>")


def render(events: list[dict], title: str) -> str:
    """The whole report page."""
    names = TL.cast(events)
    scenario, goals = goal_results(events)
    start, end = run_span(events)
    body = [f"<h1>{html.escape(title)}</h1>",
            f"<p>Scenario <b>{html.escape(scenario or '?')}</b>, cast: {html.escape(', '.join(names))}; "
            f"game time {_hm(start)} to {_hm(end)}; {len(events)} events.</p>",
            "<h2>Scenario goals</h2>", _goals_html(goals),
            "<h2>Where decisions came from</h2>", _sources_html(TL.decision_sources(events)),
            "<h2>Line checks</h2>", _line_checks_html(events),
            "<h2>Who talked to whom</h2>", talk_figure(events, names) if len(names) > 1 else "<p>One character.</p>",
            "<h2>Needs, emotion and relationships</h2>"]
    body += [f"<h3>{html.escape(n)}</h3>{agent_figure(events, n)}" for n in names]
    body += ["<h2>Conversations</h2>", _conversations_html(events)]
    return (f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{html.escape(title)}</title>"
            f"<style>{STYLE}</style></head><body>{''.join(body)}</body></html>\n")


def write_report(run_dir: Path, out: Path | None = None) -> Path:
    """Read RUN_DIR/events.jsonl and write the report (default RUN_DIR/report.html)."""
    log = Path(run_dir) / "events.jsonl"
    if not log.is_file():
        raise GarpError(f"garp report: {log} not found; RUN_DIR must be a run directory made by "
                        "`garp run`, `garp play` or `garp check` (it holds events.jsonl)")
    try:
        events = EventLog.read(log)
    except ValueError as err:
        raise GarpError(f"{log}: not a JSON-lines event log ({err})") from None
    out = Path(out) if out else Path(run_dir) / "report.html"
    out.write_text(render(events, f"GARP run report: {Path(run_dir).name}"), encoding="utf-8")
    return out


def cmd_report(args: Any) -> int:
    out = write_report(Path(args.run_dir), getattr(args, "out", None))
    print(f"report written to {out}")
    return 0
