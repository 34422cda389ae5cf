"""Scenario sweep (V-C): every scenario N times live with the bundled model, different seeds.

    python benchmarks/scenario_sweep.py                 # all scenarios, 3 runs each (hours)
    python benchmarks/scenario_sweep.py apology newcomer --runs 1
    python benchmarks/scenario_sweep.py --first-run 1 --runs 2 --threads 1   # seeds 1 and 2 only

Shows progress, writes results.json/junit.xml under runs/sweep, and prints
{"runs", "passed", "by_scenario": {label: {"passed", "runs", "failed_checks"}}} as the last line.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import types
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from garp import paths  # noqa: E402


def main() -> None:
    from garp.sim.check import run_check, table, write_reports
    from garp.scenario.loader import list_scenarios
    ap = argparse.ArgumentParser(description="run scenarios live and check their goals")
    ap.add_argument("scenarios", nargs="*", help="subset to run (default: all)")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--out", default=str(paths.RUNS / "sweep"))
    ap.add_argument("--first-run", type=int, default=0,
                    help="index of the first run; a run's index is its seed (run 0 is the one CI replays)")
    ap.add_argument("--threads", type=int, default=None, help="CPU threads for the model")
    ap.add_argument("--cached", action="store_true", help="replay the committed cache instead of live calls")
    opts = ap.parse_args()
    names = opts.scenarios or list_scenarios()
    args = types.SimpleNamespace(runs=opts.runs, first_run=opts.first_run, threads=opts.threads, live=not opts.cached,
                                 record=False, model=None, server=None)
    rows = run_check(names, args, Path(opts.out))
    summary = write_reports(rows, Path(opts.out))
    print(table(rows), file=sys.stderr)
    by = {}
    for r in rows:
        s = by.setdefault(r["label"], {"passed": 0, "runs": 0, "failed_checks": []})
        s["runs"] += 1
        s["passed"] += int(r["passed"])
        s["failed_checks"] += [f"run{r['run']}: {g['check']}: {g['detail'][:160]}" for g in r["results"] if not g["passed"]]
    print(json.dumps({"runs": summary["runs"], "passed": summary["passed"], "by_scenario": by}))


if __name__ == "__main__":
    main()
