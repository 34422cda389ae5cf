"""Persona tab (paper Fig. 8, III-A4 "Live editing"): personality, temperament, background, routine,
four nine-stop trait sliders. Releasing a slider calls `sim.set_trait` and offers a replan."""

from __future__ import annotations

from garp.game import text as T
from garp.game import view_model as vm
from garp.game.panels.base import Tab
from garp.game.panels.widgets import Button, Row


class PersonaTab(Tab):
    title = "Persona"

    def __init__(self, sim, name: str) -> None:
        super().__init__(sim, name)
        self.offer_replan = False
        self.status = ""

    def set_trait(self, axis: str, stop: int) -> None:
        """Apply a slider position: stop in -4..4 becomes the signed grade weight stop/4."""
        try:
            self.sim.set_trait(self.name, axis, stop / vm.TRAIT_STOPS)
            self.offer_replan = True
            self.status = f"{axis} set to {vm.trait_label(axis, stop)}."
        except Exception as err:  # a rejected value is shown, never raised into the frame loop
            self.status = f"Could not set {axis}: {err}"
        self.refresh()

    def replan(self) -> None:
        try:
            self.sim.offer_replan(self.name)
            self.status = "Replan requested."
        except Exception as err:
            self.status = f"Replan failed: {err}"
        self.offer_replan = False
        self.refresh()

    def build(self) -> list[Row]:
        p = vm.persona(self.mind, self.name)
        rows = [Row("Personality", "heading"), Row(p.personality or "(none)")]
        if p.temperament:
            rows.append(Row(p.temperament, color=T.ACCENT))
        rows += [Row("Background", "heading"), Row(p.background or "(none)"),
                 Row("Routine", "heading"), Row(p.routine or "(none)"),
                 Row("Temperament (release a slider to apply)", "heading")]
        for axis in vm.TRAIT_AXES:
            stop = p.traits.get(axis, 0)
            neg, pos = vm.AXIS_POLES[axis][1], vm.AXIS_POLES[axis][0]
            rows.append(Row(f"{axis}: {vm.trait_label(axis, stop)}   ({neg} .. {pos})", "slider",
                            value=stop, lo=-vm.TRAIT_STOPS, hi=vm.TRAIT_STOPS,
                            on_release=lambda s, a=axis: self.set_trait(a, s)))
        if self.offer_replan:
            rows.append(Row(kind="buttons", buttons=[Button("Replan now?", self.replan, True)]))
        if self.status:
            rows.append(Row(self.status, color=T.FG_DIM))
        rates = vm.need_rates(self.mind)
        if rates:
            rows.append(Row("Need decay rates (per game-hour)", "heading"))
            rows.append(Row("  ".join(f"{k} {v:.4f}" for k, v in rates.items()), "mono"))
        return rows
