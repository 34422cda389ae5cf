"""Plan tab (paper Fig. 4): the day as a calendar of the plan tree; blocks expand to hourly/minute parts."""

from __future__ import annotations

from garp.game import text as T
from garp.game import view_model as vm
from garp.game.panels.base import Tab
from garp.game.panels.widgets import Row

LEVEL_COLORS = (T.ACCENT, T.GOOD, T.WARN)  # daily, hourly, minute tiers
PROVISIONAL = "Provisional, from the routine: the model's plan is on its way."


class PlanTab(Tab):
    title = "Plan"

    def __init__(self, sim, name: str) -> None:
        super().__init__(sim, name)
        self.expanded: set[str] = set()

    def toggle(self, key: str) -> None:
        self.expanded.symmetric_difference_update({key})
        self.refresh()

    def build(self) -> list[Row]:
        blocks = vm.plan_blocks(self.mind)
        provisional = not blocks  # before the model's day plan: the routine the agent acts on
        if provisional:
            blocks = vm.provisional_plan(self.sim, self.mind)
        if not blocks:
            return [Row("No plan yet: the day plan is being written.", color=T.FG_DIM)] + self._arrangements()
        active = vm.active_path(blocks, vm.game_time(self.sim))
        rows = [Row(PROVISIONAL, "block", color=T.WARN)] if provisional else []
        rows.append(Row("Click a block to show its parts. * = kept commitment", color=T.FG_DIM))
        for b in blocks:
            self._add(rows, b, active)
        return rows + self._arrangements()

    def _arrangements(self) -> list[Row]:
        """What the agent has agreed to or means to do, and how it knows: from the host, second-hand."""
        arranged = vm.arrangements(self.mind, vm.game_time(self.sim))
        if not arranged:
            return []
        return [Row(""), Row("Arrangements, and how it knows of them:", "heading")] + [
            Row(a, color=T.WARN) for a in arranged]

    def _add(self, rows: list[Row], b: vm.PlanBlock, active: set[str]) -> None:
        opened = b.key in self.expanded
        sign = ("- " if opened else "+ ") if b.children else "  "
        star = " *" if b.commitment else ""
        place = f"  @ {b.place}" if b.place else ""
        now = "  <- now" if b.key in active else ""
        rows.append(Row(f"{sign}{vm.hhmm(b.start)}-{vm.hhmm(b.end)}  {b.description}{place}{star}{now}", "block",
                        indent=min(b.level, 3), color=T.WARN if b.commitment else LEVEL_COLORS[min(b.level, 2)],
                        mark=bool(now), action=(lambda k=b.key: self.toggle(k)) if b.children else None))
        if opened:
            for child in b.children:
                self._add(rows, child, active)
