"""Backend health over a run's event log (issue 20 §2): how many model calls reached no model.

A call that no server could answer is logged as an `llm_call` with `unreachable: true` (and an
`error` event); its fallback answered. `garp run` and `garp check` exit non-zero when more than
UNREACHABLE_MAX_SHARE of a run's calls were such calls.
"""

from __future__ import annotations

from typing import Any, Iterable

# Tunables
UNREACHABLE_MAX_SHARE = 0.10  # share of a run's model calls that may miss the model before it fails


def unreachable_calls(events: Iterable[dict[str, Any]]) -> tuple[int, int]:
    """(calls that reached no model, all model calls) in a run's events."""
    calls = [e for e in events if e.get("kind") == "llm_call"]
    return sum(1 for e in calls if e.get("unreachable")), len(calls)


def health_verdict(events: Iterable[dict[str, Any]]) -> tuple[bool, str]:
    """(healthy enough, one line for the terminal; empty when every call reached the model)."""
    missed, total = unreachable_calls(events)
    if not missed:
        return True, ""
    share = missed / max(1, total)
    ok = share <= UNREACHABLE_MAX_SHARE
    verdict = "within" if ok else "over"
    return ok, (f"{missed} of {total} model calls ({share:.0%}) could not reach the model and used their "
                f"fallbacks; {verdict} the {UNREACHABLE_MAX_SHARE:.0%} allowed")
