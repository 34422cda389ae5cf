"""Helpers for the simulation tests: a short two-agent scenario file, a scheduler that picks code's best candidate."""

from __future__ import annotations

import json
from pathlib import Path

from garp.engine.lmfunction import checked_candidates, new_record


def short_scenario(tmp_path: Path, hours: float = 1.0, name: str = "short_pair") -> Path:
    """Ren and Mika, next-door neighbours, an early evening at home."""
    doc = {"name": name, "cast": ["Mika", "Ren"], "start_time": "18:00", "duration_hours": hours,
           "clock_speed": 300, "switches": {"minute_plans": False, "emotions": True, "needs": True},
           "goals": [{"check": "no_failures"}, {"check": "all_agents_active"}]}
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(doc))
    return path


def comparable(events: list[dict]) -> list[dict]:
    """Events without the replay flag (a recording run and its replay differ only there)."""
    return [{k: v for k, v in e.items() if k != "cached"} for e in events]


def seeded_cache(tmp_path: Path) -> Path:
    """A copy of the committed reply cache (when there is one): recorded replies make the
    test fast, misses are recorded into the copy, and the committed file never changes.
    With GARP_RECORD_TEST_REPLIES=1 (after re-recording the scenarios) the committed file itself
    is used, so the test scenes' replies are recorded there too."""
    import os
    import shutil

    from garp import paths
    committed = paths.SCENARIOS / "replies" / "replies.sqlite"
    if os.environ.get("GARP_RECORD_TEST_REPLIES") == "1":
        return committed
    target = tmp_path / "replies.sqlite"
    if committed.exists():
        shutil.copy(committed, target)
    return target


class Shared:
    """The session's shared model/embedder: `close` must not end them for later tests."""

    def __init__(self, inner):
        self._inner = inner

    def close(self):
        pass

    def __getattr__(self, name):
        return getattr(self._inner, name)


class BestByCode:
    """A scheduler that answers every ranked call with code's best candidate (no model): the
    mechanism under test is what a chosen line does, not which line the model likes."""

    async def call(self, fn, inputs, **kw):
        cands = checked_candidates(fn, inputs)
        best = max(cands, key=lambda c: c.utility) if cands else None
        out = best.out if best else fn.fallback(inputs)
        rec = new_record(kw.get("agent", ""), fn.name, 0.0, [], mode="score")
        rec.parsed = {**out.model_dump(mode="json"), "source": best.source if best else ""}
        return out, rec
