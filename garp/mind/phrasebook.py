"""How often each line has been said in the town today (issue 18: no stock line more than five
times a day). Stock replies, greetings and goodbyes come from small pools; without a town-wide
count a busy day hears "Fair enough." from everyone. A line said STOCK_PER_DAY times today is
spent: the candidates leave it out until the next day, and a speaker with nothing else to say
takes its leave. Cognition side (one writer); a save keeps today's counts.
"""

from __future__ import annotations

from collections import Counter

from garp.textclean import plain
from garp.units import DAY_S

STOCK_PER_DAY = 5  # times one line may be said in a game day across the town (the line checker's limit too)


class Phrasebook:
    """Today's count of every line said in the town."""

    def __init__(self) -> None:
        self.day = 0
        self.counts: Counter[str] = Counter()

    def _today(self, t: float) -> None:
        day = int(t // DAY_S)
        if day != self.day:
            self.day, self.counts = day, Counter()

    def note(self, text: str, t: float) -> None:
        self._today(t)
        self.counts[plain(text)] += 1

    def spent(self, t: float) -> frozenset[str]:
        """The lines (plain) said STOCK_PER_DAY times on the day of `t`."""
        self._today(t)
        return frozenset(line for line, n in self.counts.items() if n >= STOCK_PER_DAY)

    def state(self) -> dict:
        return {"day": self.day, "counts": dict(self.counts)}

    def restore(self, data: dict) -> None:
        self.day = int(data.get("day", 0))
        self.counts = Counter({str(line): int(n) for line, n in data.get("counts", {}).items()})
