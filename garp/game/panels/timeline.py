"""Timeline tab: the selected character's needs, emotion and relationships over the day so far.

The curves come from the run's event log through garp.timeline (the same reading `garp
report` uses): `needs` snapshots, `emotion` and `relationship` events; each curve ends at
the character's present value, so the chart reaches "now".
"""

from __future__ import annotations

from garp import timeline as TL
from garp.game import text as T
from garp.game import view_model as vm
from garp.game.panels.base import Tab
from garp.game.panels.widgets import Row

PALETTE = ((110, 170, 255), (240, 180, 70), (110, 200, 120), (235, 90, 80), (190, 140, 255), (90, 210, 210),
           (250, 130, 190), (200, 200, 120))
MAX_RELATIONS = 6  # others charted: the most familiar first
DAY_S = 86400.0


def color(i: int) -> tuple[int, int, int]:
    return PALETTE[i % len(PALETTE)]


def _today(points: list[TL.Point], day_start: float) -> list[TL.Point]:
    """The points of today, led by the last value from before today (the day opens on it)."""
    before = [p for p in points if p[0] < day_start]
    today = [p for p in points if p[0] >= day_start]
    return ([(day_start, before[-1][1])] if before else []) + today


class TimelineTab(Tab):
    title = "Timeline"

    def _events(self) -> list[dict]:
        return list(vm.attr(vm.attr(self.sim, "log"), "events", default=[]) or [])

    def _curves(self, series: dict[str, list[TL.Point]], now: dict[str, float], t: float) -> list:
        day_start = t - t % DAY_S
        curves = []
        for i, key in enumerate(list(series) + [k for k in now if k not in series]):
            pts = _today(series.get(key, []), day_start)
            if key in now:
                pts.append((t, now[key]))
            curves.append((key, color(i), pts))
        return curves

    def build(self) -> list[Row]:
        events, t = self._events(), vm.game_time(self.sim)
        needs_now = {b.name: b.value for b in vm.needs(self.mind)}
        em = vm.emotion(self.mind)
        rels = vm.relationships(self.mind)[:MAX_RELATIONS]
        shown = {r.other for r in rels}
        rel_series = {o: p for o, p in TL.relationship_series(events, self.name).items() if o in shown}
        needs = self._curves(TL.need_series(events, self.name), needs_now, t)
        emotion = self._curves(TL.emotion_series(events, self.name), {"valence": em.valence, "intensity": em.intensity}, t)
        sentiment = self._curves(rel_series, {r.other: r.sentiment for r in rels}, t)
        # one time axis for the three charts: from the first thing recorded today to now
        span = (min([p[0] for _, _, pts in needs + emotion + sentiment for p in pts] + [t]), t)
        return [
            Row(f"{self.name}'s day so far (step lines; each value holds until it changes)", color=T.FG_DIM),
            Row("Needs (0 satisfied .. 1 urgent)", "heading"),
            Row("needs", "chart", lo=0.0, hi=1.0, curves=needs, span=span),
            Row("Emotion", "heading"),
            Row("emotion", "chart", lo=-1.0, hi=1.0, curves=emotion, span=span),
            Row("Relationships (sentiment toward each)", "heading"),
            Row("sentiment", "chart", lo=-1.0, hi=1.0, curves=sentiment, span=span),
        ]
