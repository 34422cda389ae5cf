"""Memories tab (paper Fig. 5): the stream newest first, filterable by type."""

from __future__ import annotations

from garp.game import text as T
from garp.game import view_model as vm
from garp.game.panels.base import Tab
from garp.game.panels.widgets import Button, Row

MAX_ROWS = 200  # newest memories shown; older ones stay in the store
TYPE_COLORS = {"event": T.ACCENT, "thought": T.WARN, "chat": T.GOOD, "preference": (200, 140, 230)}


class MemoriesTab(Tab):
    title = "Memories"

    def __init__(self, sim, name: str) -> None:
        super().__init__(sim, name)
        self.types: set[str] = set(vm.MEMORY_TYPES)

    def toggle(self, kind: str) -> None:
        self.types.symmetric_difference_update({kind})
        self.refresh()

    def build(self) -> list[Row]:
        buttons = [Button(k, lambda k=k: self.toggle(k), k in self.types) for k in vm.MEMORY_TYPES]
        rows = [Row(kind="buttons", buttons=buttons)]
        mems = vm.memories(self.mind, self.name, self.types)
        if not mems:
            rows.append(Row("No memories of these types yet.", color=T.FG_DIM))
        for m in mems[:MAX_ROWS]:
            head = m.header or (m.type.capitalize())
            where = f" @ {m.location}" if m.location else ""
            meta = f"{vm.day_time(m.t)}{where} | {m.type} | poignancy {m.poignancy:g}"
            if m.emotion:
                meta += f" | {m.emotion}"
            rows.append(Row(f"{head}\n{m.description}\n{meta}", "block", color=TYPE_COLORS.get(m.type, T.ACCENT)))
        if len(mems) > MAX_ROWS:
            rows.append(Row(f"... {len(mems) - MAX_ROWS} older memories", color=T.FG_DIM))
        return rows
