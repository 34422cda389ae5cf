"""`garp check [SCENARIO ...] [--runs N]`: run scenarios headless and check their goals (V-C).

Replays recorded model replies from the committed reply cache (scenarios/replies/), so
CI is deterministic and fast; `--live` ignores the cache, `--record` refreshes it. The
cache names the model's sha256 and is refused against another model (a check against
a server uses that server's own live cache). Run i uses seed i, or --seed N + i. Prints
a pass table (scenario × run), writes results.json and junit.xml under --out, and exits
non-zero when a goal fails.
"""

from __future__ import annotations

import json
import shutil
import time
import types
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from garp import paths
from garp.errors import GarpError
from garp.engine.health import health_verdict
from garp.eventlog import EventLog
from garp.scenario.goals import check_goals
from garp.scenario.loader import list_scenarios, load_scenario

# --- tunables ---------------------------------------------------------------------------
REPLY_CACHE = paths.SCENARIOS / "replies" / "replies.sqlite"  # committed recording
# Scenarios whose committed recording covers only their first game hours: a replay of the
# recording stops there (a live or recording run goes the whole way). README: Known limits.
RECORDED_HOURS: dict[str, float] = {"town": 6.0}  # 06:00-12:00: what the Q4_0 recording had time for


def variants(name: str) -> list[tuple[str, str | None]]:
    """(row label, temperament answer) for a scenario: one per answer for asking scenarios."""
    sc = load_scenario(name)
    if sc.temperament_prompt is None:
        return [(name, None)]
    return [(f"{name}[{answer}]", answer) for answer in sc.temperament_prompt.choices]


def replay_hours(name: str, args: Any) -> float | None:
    """--hours; a replay of a recording stops where the recording does (RECORDED_HOURS)."""
    asked = getattr(args, "hours", None)
    if args.live or args.record or getattr(args, "server", None):
        return asked
    recorded = RECORDED_HOURS.get(name)
    return min(asked, recorded) if asked and recorded else asked or recorded


def run_seed(args: Any, run: int) -> int:
    """Run `run` (0-based) of a check uses seed --seed + run; without --seed, its index
    (run 0 is the one the committed recording holds)."""
    return int(getattr(args, "seed", None) or 0) + run


def run_one(name: str, answer: str | None, run: int, args: Any, out: Path, backend: Any, embedder: Any,
            progress: bool = True) -> dict[str, Any]:
    from garp.sim.runner import progress_printer, run_headless
    label = name + (f"[{answer}]" if answer else "")
    run_dir = out / f"{label.replace(' ', '_').replace('[', '-').replace(']', '')}-run{run + 1}"
    shutil.rmtree(run_dir, ignore_errors=True)  # this check's own output from an earlier check
    server = getattr(args, "server", None)
    # The committed recording holds the bundled model's replies; a server run uses its own cache.
    recording = getattr(args, "cache", None) or ("" if server else str(REPLY_CACHE))
    opts = types.SimpleNamespace(out=str(run_dir), seed=run_seed(args, run), live=args.live, record=args.record,
                                 cache=recording, trait=answer, headless=True,
                                 model=getattr(args, "model", None), server=server)
    t0 = time.monotonic()
    show = progress_printer(f"{label} run {run + 1}") if progress else None
    sim = run_headless(name, opts, hours=replay_hours(name, args), progress=show, backend=backend,
                       embedder=embedder)
    if show:
        show(sim, final=True)
    return {"scenario": name, "label": label, "answer": answer, "run": run + 1, "seed": opts.seed,
            "wall_s": round(time.monotonic() - t0, 1), "interrupted": bool(getattr(sim, "interrupted", False)),
            "log": str(sim.log.path), "goals": sim.goals(), "events": EventLog.read(sim.log.path)}


def evaluate(rows: list[dict[str, Any]]) -> None:
    """Goal checks per row; variant comparisons see the same run number of the other scenario."""
    for row in rows:
        others = {r["scenario"]: r["events"] for r in rows if r["run"] == row["run"] and r is not row}
        results = check_goals(row["goals"], row["events"], others)
        row["results"] = [r.as_dict() for r in results]
        row["passed"] = all(r.passed for r in results)


def table(rows: list[dict[str, Any]]) -> str:
    runs = sorted({r["run"] for r in rows})
    labels = list(dict.fromkeys(r["label"] for r in rows))
    width = max([len(l) for l in labels] + [8])
    head = "scenario".ljust(width) + "  " + "  ".join(f"run{n}" for n in runs)
    lines = [head, "-" * len(head)]
    for label in labels:
        cells = []
        for n in runs:
            row = next((r for r in rows if r["label"] == label and r["run"] == n), None)
            cells.append(" -- " if row is None else (" ok " if row["passed"] else "FAIL"))
        lines.append(label.ljust(width) + "  " + "  ".join(cells))
    for r in rows:
        for g in r["results"]:
            if not g["passed"]:
                lines.append(f"  {r['label']} run{r['run']}: {g['check']}: {g['detail']}")
    return "\n".join(lines)


def junit(rows: list[dict[str, Any]]) -> str:
    cases = []
    for r in rows:
        for g in r["results"]:
            name = quoteattr(f"run{r['run']}.{g['check']}")
            body = "" if g["passed"] else f"<failure message={quoteattr(g['detail'][:200])}>{escape(g['detail'])}</failure>"
            cases.append(f'  <testcase classname={quoteattr(r["label"])} name={name} time="{r["wall_s"]}">{body}</testcase>')
    failures = sum(1 for r in rows for g in r["results"] if not g["passed"])
    return (f'<?xml version="1.0" encoding="UTF-8"?>\n<testsuite name="garp-check" tests="{len(cases)}" '
            f'failures="{failures}">\n' + "\n".join(cases) + "\n</testsuite>\n")


def write_reports(rows: list[dict[str, Any]], out: Path) -> dict[str, Any]:
    summary = {"runs": len(rows), "passed": sum(1 for r in rows if r["passed"]),
               "rows": [{k: r[k] for k in ("label", "scenario", "answer", "run", "seed", "wall_s", "log", "passed", "results")}
                        for r in rows]}
    out.mkdir(parents=True, exist_ok=True)
    (out / "results.json").write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
    (out / "junit.xml").write_text(junit(rows), encoding="utf-8")
    return summary


def shared_engine(args: Any):
    """One model and one embedder for every run of the check."""
    from garp.engine.backends import backend_from_args
    from garp.engine.embedder import Embedder
    backend = backend_from_args(args, 0)
    return backend, Embedder()


def run_check(names: list[str], args: Any, out: Path, progress: bool = True) -> list[dict[str, Any]]:
    for n in names:
        load_scenario(n)  # a bad file fails before any model loads
    backend, embedder = shared_engine(args)
    rows = []
    first = int(getattr(args, "first_run", 0))  # a run's index is its seed; a sweep can skip seeds already run
    runs = range(first, first + max(1, int(args.runs)))
    todo = [(name, answer, run) for name in names for _, answer in variants(name) for run in runs]
    try:
        for name, answer, run in todo:
            rows.append(run_one(name, answer, run, args, out, backend, embedder, progress))
            if rows[-1]["interrupted"]:  # Ctrl-C ends the whole check, not only the run it came in
                break
    finally:
        embedder.close()
        backend.close()
    evaluate(rows)
    return rows


def cmd_check(args: Any) -> int:
    from garp.sim.runner import headless_env
    headless_env()
    names = list(args.scenarios) or list_scenarios()
    unknown = [n for n in names if n not in list_scenarios() and not Path(n).exists()]
    if unknown:
        raise GarpError(f"garp check: unknown scenario(s) {', '.join(unknown)}; allowed: {', '.join(list_scenarios())}")
    out = Path(args.out)
    rows = run_check(names, args, out)
    summary = write_reports(rows, out)
    print(table(rows))
    print(f"{summary['passed']}/{summary['runs']} runs passed; reports in {out}/results.json and {out}/junit.xml")
    last = rows[-1] if rows else None
    if last and last["interrupted"]:  # only the last run can be: the check stops there
        print(f"garp check: interrupted during {last['label']} run{last['run']}; the runs after it were not run")
        return 130
    healthy = True
    for r in rows:
        ok, line = health_verdict(r["events"])
        healthy &= ok
        if line:
            print(f"  {r['label']} run{r['run']}: {line}")
    return 0 if summary["passed"] == summary["runs"] and healthy else 1
