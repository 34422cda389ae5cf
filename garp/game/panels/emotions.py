"""Emotions tab (paper Fig. 6): current emotion, intensity, valence and its change, explanation, trajectory."""

from __future__ import annotations

from garp.game import text as T
from garp.game import view_model as vm
from garp.game.panels.base import Tab
from garp.game.panels.widgets import Row


class EmotionsTab(Tab):
    title = "Emotions"

    def build(self) -> list[Row]:
        em = vm.emotion(self.mind)
        change = em.valence_change
        arrow = "rising" if change > 0.005 else ("falling" if change < -0.005 else "steady")
        rows = [
            Row("Current emotion", "heading"),
            Row(em.label.capitalize(), color=T.GOOD if em.valence >= 0 else T.BAD),
            Row("intensity", "bar", value=em.intensity),
            Row("valence", "bar", value=em.valence, lo=-1.0, hi=1.0, color=T.GOOD if em.valence >= 0 else T.BAD),
            Row(f"Valence change: {change:+.2f} ({arrow})"),
            Row("Explanation", "heading"),
            Row(em.description or "(no appraisal yet)", color=None if em.description else T.FG_DIM),
            Row("Recent trajectory (valence, oldest to newest)", "heading"),
            Row(f"{len(em.trajectory)} states; newest first below", "spark", series=[v for (_, _, v) in em.trajectory]),
        ]
        for label, intensity, valence in list(reversed(em.trajectory))[:8]:
            rows.append(Row(f"{label}  intensity {intensity:.2f}  valence {valence:+.2f}", "mono", indent=1))
        return rows
