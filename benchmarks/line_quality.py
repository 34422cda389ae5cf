"""What characters say, checked: the line checker (garp/scenario/line_check.py) over run logs.

`python benchmarks/line_quality.py RUN_DIR ...` summarises existing runs (a live `garp run`,
`garp play` or `garp check --live` folder). Without arguments it replays the committed
recordings of the scenarios in DEFAULT_SCENARIOS (the town's full day among them) and
summarises those: lines spoken, the share of line requests answered by code, the share of lines
that tell the listener nothing (greetings, goodbyes, stock replies) and of chats with a line that
does, and the flags (self-narration, leaked prompt text, lines repeated in a chat or across a day, loops).

Last line: {"runs": {label: summary}, "total": {...}}
"""

from __future__ import annotations

import json
import sys
import tempfile
import types
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from garp.eventlog import EventLog  # noqa: E402
from garp.scenario.line_check import line_summary  # noqa: E402

DEFAULT_SCENARIOS = ["apology", "dinner_party", "birthday_party", "party_news", "town"]


def replayed_logs(names: list[str], out: Path) -> dict[str, list[dict]]:
    from garp.sim import check
    from garp.sim.runner import headless_env
    headless_env()
    args = types.SimpleNamespace(runs=1, live=False, record=False, cache=None, model=None, server=None)
    return {r["label"]: r["events"] for r in check.run_check(names, args, out, progress=False)}


def total(summaries: dict[str, dict]) -> dict:
    flags: Counter = Counter()
    for s in summaries.values():
        flags.update(s["flags"])
    calls = sum(s["line_calls"] for s in summaries.values())
    fallbacks = sum(round((s["line_fallback_share"] or 0) * s["line_calls"]) for s in summaries.values())
    return {"lines": sum(s["lines"] for s in summaries.values()), "line_calls": calls,
            "line_fallback_share": round(fallbacks / calls, 3) if calls else None, "flags": dict(flags)}


def main() -> None:
    if sys.argv[1:]:
        logs = {Path(d).name: EventLog.read(Path(d) / "events.jsonl") for d in sys.argv[1:]}
    else:
        with tempfile.TemporaryDirectory() as tmp:
            logs = replayed_logs(DEFAULT_SCENARIOS, Path(tmp))
    summaries = {label: line_summary(events) for label, events in logs.items()}
    for label, s in summaries.items():
        print(f"{label}: {s['lines']} lines, fallback {s['line_fallback_share']}, small talk {s['small_talk_share']}, "
              f"chats telling something {s['chats_telling_something']}, flags {s['flags']}")
        for ex in s["examples"][:4]:
            print(f"    {ex['kind']:14} {ex['agent']}: {ex['text'][:90]}")
    keys = ("lines", "line_calls", "line_fallback_share", "small_talk_share", "chats_telling_something", "flags")
    print(json.dumps({"runs": {k: {x: v[x] for x in keys}
                               for k, v in summaries.items()}, "total": total(summaries)}))


if __name__ == "__main__":
    main()
