"""Relationships tab (paper Fig. 10): familiarity, trust, sentiment per known agent; last change and reason."""

from __future__ import annotations

from garp.game import text as T
from garp.game import view_model as vm
from garp.game.panels.base import Tab
from garp.game.panels.widgets import Row


class RelationshipsTab(Tab):
    title = "Relations"

    def build(self) -> list[Row]:
        rels = vm.relationships(self.mind)
        if not rels:
            return [Row("Knows no one yet.", color=T.FG_DIM)]
        rows: list[Row] = []
        for r in rels:
            rows += [
                Row(r.other, "heading"),
                Row("familiarity", "bar", value=r.familiarity),
                Row("trust", "bar", value=r.trust),
                Row("sentiment", "bar", value=r.sentiment, lo=-1.0, hi=1.0,
                    color=T.GOOD if r.sentiment >= 0 else T.BAD),
            ]
            if r.last_change:
                rows.append(Row(f"Last change: {r.last_change}", "mono", indent=1))
            if r.reason:
                rows.append(Row(f"Reason: {r.reason}", indent=1, color=T.FG_DIM))
        return rows
