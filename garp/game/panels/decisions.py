"""Decisions tab (paper Fig. 1, Fig. 9): active plan item, six needs, filtered affordances, last choice."""

from __future__ import annotations

from garp.game import text as T
from garp.game import view_model as vm
from garp.game.panels.base import Tab
from garp.game.panels.widgets import Row


class DecisionsTab(Tab):
    title = "Decisions"

    def build(self) -> list[Row]:
        mind = self.mind
        dec = vm.decision(mind, vm.game_time(self.sim))
        routine = "" if dec.plan_item else vm.provisional_item(self.sim, mind)
        item = dec.plan_item or (f"{routine} (from the routine; the model's plan is on its way)" if routine
                                 else "(no plan item yet)")
        rows = [Row("Active plan item", "heading"), Row(item)]
        rows.append(Row("Needs (1 = pressing; red = urgent, above 0.6)", "heading"))
        bars = vm.needs(mind)
        rows += [Row(b.name, "bar", value=b.value, mark=b.urgent) for b in bars]
        if not bars:
            rows.append(Row("(needs system off)", color=T.FG_DIM))
        rows.append(Row("Nearby affordances after filtering (Eq. 3 score)", "heading"))
        for c in dec.candidates:
            score = "" if c.score is None else f"{c.score:.2f}  "
            rows.append(Row(f"{score}{c.label}" + ("   <- chosen" if c.chosen else ""), mark=c.chosen,
                            color=T.GOOD if c.chosen else None))
            if c.detail:
                rows.append(Row(c.detail, "mono", indent=1, color=T.FG_DIM))
        if not dec.candidates:
            rows.append(Row("(no decision yet)", color=T.FG_DIM))
        rows.append(Row("Last choice", "heading"))
        when = f" at {vm.hhmm(float(dec.t))}" if dec.t is not None else ""
        how = f" [{dec.mode}]" if dec.mode else ""
        rows.append(Row((dec.chosen or "(none)") + when + how))
        if dec.why:
            rows.append(Row(f"Why: {dec.why}", color=T.FG_DIM))
        return rows
