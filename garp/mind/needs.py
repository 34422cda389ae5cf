"""Six needs that rise with game time and are relieved by actions and company (paper III-A5).

Values measure unmet demand on [0, 1]; above 0.6 a need is urgent and is surfaced as
natural language in prompts ("Oliver is hungry and lonely."). The whole system can be
switched off (`enabled=False`): nothing decays and nothing is urgent.
"""

from __future__ import annotations

import re
from typing import Iterable

from garp.mind.persona import NEED_NAMES
from garp.units import DAY_S

# --- tunables (paper III-A5) ----------------------------------------------------------
DEFAULT_RATES = {  # unmet demand gained per game-hour
    "hunger": 0.03, "rest": 0.022, "hygiene": 0.015, "social": 0.022, "fun": 0.015, "comfort": 0.011,
}
URGENT_THRESHOLD = 0.6         # a need above this is urgent
VERY_THRESHOLD = 0.85          # above this the prompt says "very hungry" (our wording band)
SOCIAL_JOIN_RELIEF = 0.25      # on joining others
SOCIAL_COMPANY_PER_HOUR = 0.2  # per game-hour in others' presence
SOCIAL_CONVERSATION_RELIEF = 0.5  # per conversation
KEYWORD_RELIEF = 0.6           # relief of a whole action matched only by keyword (our default)
START_VALUE = 0.2              # need level of a freshly created character (our default)
# A scene that opens mid-day meets characters who have been awake since morning: their needs
# have risen at their own rates since waking (hunger since the last usual meal). Our rule.
WAKE_HOUR = 7.0                     # game hour the day's needs start from START_VALUE
MEAL_END_HOURS = (8.0, 13.25, 20.0)  # usual ends of breakfast, lunch, dinner (game hours)

ADJECTIVES = {
    "hunger": "hungry", "rest": "tired", "hygiene": "in need of a wash", "social": "lonely",
    "fun": "bored", "comfort": "uncomfortable",
}

# Keyword fallback for affordances without declared effects: word stem -> needs relieved.
KEYWORDS: dict[str, tuple[str, ...]] = {
    "eat": ("hunger",), "cook": ("hunger",), "meal": ("hunger",), "food": ("hunger",),
    "snack": ("hunger",), "breakfast": ("hunger",), "lunch": ("hunger",), "dinner": ("hunger",),
    "coffee": ("hunger", "rest"), "tea": ("hunger", "comfort"), "drink": ("hunger",),
    "sandwich": ("hunger",), "cake": ("hunger", "fun"), "bake": ("hunger", "fun"),
    "sleep": ("rest",), "nap": ("rest",), "bed": ("rest", "comfort"), "rest": ("rest", "comfort"),
    "shower": ("hygiene",), "bath": ("hygiene", "comfort"), "wash": ("hygiene",),
    "toilet": ("hygiene", "comfort"), "brush": ("hygiene",),
    "chat": ("social",), "talk": ("social",), "party": ("social", "fun"), "visit": ("social",),
    "meet": ("social",), "dance": ("fun", "social"),
    "play": ("fun",), "game": ("fun",), "tv": ("fun", "comfort"), "television": ("fun", "comfort"),
    "watch": ("fun",), "read": ("fun",), "book": ("fun",), "music": ("fun",), "guitar": ("fun",),
    "piano": ("fun",), "sing": ("fun",), "paint": ("fun",), "draw": ("fun",), "garden": ("fun",),
    "sit": ("comfort",), "sitting": ("comfort",), "couch": ("comfort",), "sofa": ("comfort",), "armchair": ("comfort",),
    "relax": ("comfort", "rest"), "lounge": ("comfort",), "bench": ("comfort",),
}
_WORD = re.compile(r"[a-z]+")


def effects_from_keywords(verb: str, description: str = "") -> dict[str, float]:
    """Needs an action relieves, guessed from its verb and description words."""
    effects: dict[str, float] = {}
    for word in _WORD.findall(f"{verb} {description}".lower()):
        for stem, needs in KEYWORDS.items():
            if word == stem or (len(stem) > 3 and word.startswith(stem)) or word in (stem + "s", stem + "ing"):
                for n in needs:
                    effects[n] = KEYWORD_RELIEF
    return effects


class Needs:
    """One character's six needs and their (temperament-scaled) decay rates."""

    def __init__(self, rates: dict[str, float] | None = None, values: dict[str, float] | None = None,
                 enabled: bool = True) -> None:
        self.rates = {n: float((rates or DEFAULT_RATES).get(n, DEFAULT_RATES[n])) for n in NEED_NAMES}
        self.values = {n: START_VALUE for n in NEED_NAMES}
        if values:
            for n, v in values.items():
                self._check_name(n)
                self.values[n] = _clamp(v)
        self.enabled = enabled

    @staticmethod
    def _check_name(need: str) -> None:
        if need not in NEED_NAMES:
            raise ValueError(f"unknown need '{need}'; allowed: {', '.join(NEED_NAMES)}")

    def set_rates(self, rates: dict[str, float]) -> None:
        """Adopt re-derived rates (after a trait edit); current values are kept."""
        for n in NEED_NAMES:
            self.rates[n] = float(rates[n])

    def decay(self, hours: float, held: Iterable[str] = ()) -> None:
        """Needs rise by rate x hours; those the running action relieves hold still."""
        if not self.enabled or hours <= 0:
            return
        held = set(held)
        for n in NEED_NAMES:
            if n not in held:
                self.values[n] = _clamp(self.values[n] + self.rates[n] * hours)

    def relieve(self, effects: dict[str, float], fraction: float = 1.0) -> None:
        """Apply an action's declared effects (need -> relief over the whole action), scaled by
        the fraction of the action just performed."""
        if not self.enabled:
            return
        fraction = max(0.0, min(1.0, fraction))
        for n, amount in effects.items():
            if n in self.values:
                self.values[n] = _clamp(self.values[n] - float(amount) * fraction)

    # social rules (III-A5): "relief" lowers the social need value
    def join_company(self) -> None:
        self.relieve({"social": SOCIAL_JOIN_RELIEF})

    def in_company(self, hours: float) -> None:
        self.relieve({"social": SOCIAL_COMPANY_PER_HOUR * max(0.0, hours)})

    def conversation(self) -> None:
        self.relieve({"social": SOCIAL_CONVERSATION_RELIEF})

    def urgent(self) -> list[str]:
        """Urgent needs (above 0.6), most pressing first."""
        if not self.enabled:
            return []
        return sorted((n for n in NEED_NAMES if self.values[n] > URGENT_THRESHOLD),
                      key=lambda n: -self.values[n])

    def describe_urgent(self, name: str) -> str:
        """"Oliver is hungry and lonely." or "" when nothing is urgent."""
        words = [("very " if self.values[n] > VERY_THRESHOLD else "") + ADJECTIVES[n] for n in self.urgent()]
        if not words:
            return ""
        listed = words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]
        return f"{name} is {listed}."

    def summary(self, name: str) -> str:
        """Needs summary for the emotion appraisal situation (III-A3 mechanism 6)."""
        if not self.enabled:
            return ""
        return self.describe_urgent(name) or f"{name}'s needs are met."

    def settle_day_so_far(self, seconds_of_day: float, skip: Iterable[str] = ()) -> None:
        """Raise each need (except `skip`) by its rate x the hours since it was last met today."""
        hour = (seconds_of_day % DAY_S) / 3600.0
        since_wake = max(0.0, hour - WAKE_HOUR)
        since_meal = min([hour - m for m in MEAL_END_HOURS if m <= hour], default=since_wake)
        skip = set(skip)
        for n in NEED_NAMES:
            if n not in skip:
                hours = min(since_wake, since_meal) if n == "hunger" else since_wake
                if self.enabled and hours > 0:
                    self.values[n] = _clamp(self.values[n] + self.rates[n] * hours)

    def snapshot(self) -> dict[str, float]:
        return {n: round(self.values[n], 4) for n in NEED_NAMES}


def _clamp(v: float) -> float:
    return max(0.0, min(1.0, float(v)))
