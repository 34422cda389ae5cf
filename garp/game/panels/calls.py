""""How it decided" tab (seed: "How Trang answered"): the agent's recent model calls; one selected call
shows its retrieved memories with factor scores, the full prompt, raw reply, parsed result or fallback,
queue wait and latency - so a designer can tell a retrieval problem from a model problem."""

from __future__ import annotations

from garp.game import text as T
from garp.game import view_model as vm
from garp.game.panels.base import Tab
from garp.game.panels.widgets import Row

MAX_CALLS = 30     # listed calls, newest first
MAX_TEXT = 4000    # characters of a prompt or reply shown


def _clip(s: str) -> str:
    return s if len(s) <= MAX_TEXT else s[:MAX_TEXT] + f"\n... ({len(s) - MAX_TEXT} more characters)"


def call_detail(c: vm.CallView) -> list[Row]:
    rows = [Row(f"{c.function} at {vm.day_time(c.t)}", "heading"),
            Row(f"queue wait {c.queue_wait_s:.2f} s | latency {c.latency_s:.2f} s", "mono"),
            Row("Retrieved memories (score = 6P + 3D + 0.5R + 1.5E)", "heading")]
    if not c.retrieved:
        rows.append(Row("(no memories retrieved for this call)", color=T.FG_DIM))
    for r in c.retrieved:
        factors = "  ".join(f"{k} {v:.2f}" for k, v in r.factors.items())
        rows.append(Row(f"{r.score:.2f}  {r.description}\n{factors}", "block"))
    rows.append(Row("Prompt", "heading"))
    for m in c.messages:
        role = m.get("role", "?") if isinstance(m, dict) else "?"
        content = m.get("content", "") if isinstance(m, dict) else str(m)
        rows.append(Row(f"[{role}]\n{_clip(str(content))}", "mono"))
    rows.append(Row("Raw reply", "heading"))
    rows.append(Row(_clip(c.raw) or "(empty)", "mono"))
    if c.fallback_used:
        rows.append(Row("Fallback used" + (f" ({c.error})" if c.error else ""), "heading"))
    else:
        rows.append(Row("Parsed result", "heading"))
    rows.append(Row(_clip(c.parsed) or "(none)", "mono", color=T.WARN if c.fallback_used else T.GOOD))
    return rows


class CallsTab(Tab):
    title = "How it decided"

    def __init__(self, sim, name: str) -> None:
        super().__init__(sim, name)
        self._selected_key: tuple | None = None

    def select(self, key: tuple) -> None:
        self._selected_key = None if self._selected_key == key else key
        self.refresh()

    def build(self) -> list[Row]:
        calls = vm.calls(self.mind)[:MAX_CALLS]
        if not calls:
            return [Row("No model calls yet.", color=T.FG_DIM)]
        rows = [Row("Click a call to see how it was made.", color=T.FG_DIM)]
        for c in calls:
            key = (c.function, c.t, c.raw[:40])
            status = "FALLBACK" if c.fallback_used else "ok"
            sel = key == self._selected_key
            rows.append(Row(f"{'-' if sel else '+'} {vm.hhmm(c.t)}  {c.function}  {status}  "
                            f"{c.latency_s:.1f}s  mem {len(c.retrieved)}", "block", mark=sel,
                            color=T.WARN if c.fallback_used else T.ACCENT,
                            action=lambda k=key: self.select(k)))
            if sel:
                rows += [Row(r.text, r.kind, color=r.color, indent=1) for r in call_detail(c)]
        return rows
