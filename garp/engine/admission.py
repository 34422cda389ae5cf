"""What the inference scheduler admits and in which order (issue 17 §3).

Work is counted in *machine seconds*: the wall time a request spent running, divided by the
number of requests running beside it (processor sharing). A request that ran alone for 2 s
cost 2 s; four decoded together for 4 s cost 1 s each. So one measure covers generation,
prompt processing and option scoring alike, and N parallel workers sharing one aggregate
throughput need no separate model: the machine drains one machine second per wall second,
and batching shows up as a smaller share per request. The queue ahead of a request drains in
at least the sum of its estimated work, so a request whose deadline is nearer than that
cannot be served in time and is refused (its fallback answers at once).

Requests are ranked by value class first (`rank`), the deadline second.
"""

from __future__ import annotations

import collections
from dataclasses import dataclass

# Value classes an LM function declares (`LMFunction.value`); lower rank is served first.
INTERVIEW = "interview"    # a player is waiting
LINE = "line"              # a conversation line (or the decision to talk)
CHOICE = "choice"          # an action choice
PLAN = "plan"              # plans and what conversations leave behind (summaries, commitments)
APPRAISAL = "appraisal"    # emotion and relationship appraisals
BACKGROUND = "background"  # poignancy and reflection
VALUES = (INTERVIEW, LINE, CHOICE, PLAN, APPRAISAL, BACKGROUND)

# Tunables
PRIOR_WORK_S = 1.0      # machine s per request before any is measured: the recordings' mean call (323 prompt +
                        # 47 completion tokens) at the ~45 tok/s of the bundled model on 2 cores (README)
LEARN_RATE = 0.2        # weight of a new measurement in a function's running mean (recent load counts most)
LOAD_WINDOW_S = 120.0   # wall seconds of submitted work averaged into the demand figure
LOAD_MIN_SPAN_S = 10.0  # the first requests are averaged over at least this long (one is not a trend)
CLOSE_LEAD = 0.3        # a choice whose best utility leads by less is close: the model's ranking matters
                        # (the same margin below which garp.mind.action asks the model at all)


def rank(value: str, *, focused: bool, close: bool) -> int:
    """The value order: interview; lines of characters in focus; close choices; other lines;
    plans; choices a utility clearly wins (code answers them well); appraisals; background."""
    if value == INTERVIEW:
        return 0
    if value == LINE:
        return 1 if focused else 3
    if value == CHOICE:
        return 2 if close else 5
    return {PLAN: 4, APPRAISAL: 6, BACKGROUND: 7}.get(value, 4)


def is_close(utilities: list[float] | None) -> bool:
    """True when no option's utility clearly wins (or there are none to compare)."""
    if not utilities or len(utilities) < 2:
        return True
    top = sorted(utilities, reverse=True)
    return top[0] - top[1] < CLOSE_LEAD


class CostModel:
    """Expected machine seconds per request, learned per cost key (a function name, or
    `choose:<mode>` per option) as a running mean of what that key's model runs cost."""

    def __init__(self, prior_s: float = PRIOR_WORK_S) -> None:
        self.prior_s = prior_s
        self._mean: dict[str, float] = {}
        self.samples = 0

    def estimate(self, key: str, units: int = 1) -> float:
        per = self._mean.get(key)
        if per is None:  # an unseen key: the mean of the others, else the prior
            per = sum(self._mean.values()) / len(self._mean) if self._mean else self.prior_s / max(units, 1)
        return per * max(units, 1)

    def learn(self, key: str, units: int, work_s: float) -> None:
        per = work_s / max(units, 1)
        old = self._mean.get(key)
        self._mean[key] = per if old is None else old + LEARN_RATE * (per - old)
        self.samples += 1

    def means(self) -> dict[str, float]:
        return dict(self._mean)


class ShareClock:
    """Machine seconds under processor sharing: advances by dt / (requests running) while busy."""

    def __init__(self, now: float) -> None:
        self.value, self.running, self._at = 0.0, 0, now
        self.busy_s = 0.0  # wall seconds with at least one request running

    def _advance(self, now: float) -> None:
        if self.running:
            self.value += (now - self._at) / self.running
            self.busy_s += now - self._at
        self._at = now

    def busy_at(self, now: float) -> float:
        """`busy_s` as of `now`, counting the request running (read only)."""
        return self.busy_s + (now - self._at if self.running else 0.0)

    def begin(self, now: float) -> float:
        self._advance(now)
        self.running += 1
        return self.value

    def end(self, now: float, began: float) -> float:
        """The machine seconds a request that began at `began` (a `begin` value) has cost."""
        self._advance(now)
        self.running -= 1
        return self.value - began

    def now(self, now: float) -> float:
        self._advance(now)
        return self.value


class DemandMeter:
    """Estimated work submitted per wall second (refused requests included): the load the model
    is asked to carry. Above 1 the model cannot keep up at the current clock speed."""

    def __init__(self, window_s: float = LOAD_WINDOW_S) -> None:
        self.window_s = window_s
        self._work: collections.deque[tuple[float, float]] = collections.deque()
        self._since: float | None = None

    def add(self, now: float, work_s: float) -> None:
        self._since = now if self._since is None else self._since
        self._work.append((now, work_s))

    def load(self, now: float) -> float:
        while self._work and now - self._work[0][0] > self.window_s:
            self._work.popleft()
        if self._since is None:
            return 0.0
        span = min(self.window_s, max(now - self._since, LOAD_MIN_SPAN_S))
        return sum(w for _, w in self._work) / span


@dataclass(frozen=True)
class Verdict:
    """Why a request is refused ("admission: ..."), or None when it may wait for the model."""

    reason: str | None


def admit(now: float, deadline: float | None, ahead_s: float, own_s: float, late_ok_s: float) -> Verdict:
    """Refuse a request that cannot finish by its deadline (plus the lateness a reply may still
    have) even if the machine does nothing but the work ranked ahead of it and then it."""
    if deadline is None:  # lockstep, interviews: never refused
        return Verdict(None)
    if now + ahead_s + own_s <= deadline + late_ok_s:
        return Verdict(None)
    if deadline < now:
        return Verdict(f"admission: already {now - deadline:.1f} s past its deadline")
    return Verdict(f"admission: {ahead_s + own_s:.1f} s of work ahead, due in {deadline - now:.1f} s")
