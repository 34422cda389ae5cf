"""Need-driven plan repair: rules in code that let urgent needs reshape the plan (III-A1, III-A5, VI-c).

The model writes the plan; these rules only change free time, never commitments, meals,
work or sleep. The rule for company: when the social need will be urgent before
the evening at home that a free-time block opens is over, and a friend with positive
closeness lives in town, that stretch becomes "visit <friend> at <friend's home>". Temperament reaches it only through the
trait-scaled need rates (Eq. 2): an extravert's loneliness outgrows the evening, an
introvert's does not. The same rule applies to every agent.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from garp.mind.needs import URGENT_THRESHOLD
from garp.mind.planning import LOOKAHEAD_S, MIN_BLOCK_S, PlanNode, PlanTree, is_meal, is_sleep

# --- tunables -------------------------------------------------------------------------
MIN_FRIEND_CLOSENESS = 0.2  # familiarity x max(sentiment, 0) a visit needs (III-A6 closeness)
MIN_VISIT_S = 45 * 60.0     # game s: shorter free time is not worth a visit (our default)
# Free time the rules may repurpose: the repair's "free time at home" and plain leisure at home.
_LEISURE_RE = re.compile(r"\b(free time|relax\w*|unwind\w*|leisure|nothing planned|spare time|"
                         r"chill\w*|lounge|evening at home|rest(?:ing)? at home|watch\w* tv)\b", re.I)


@dataclass(frozen=True)
class Friend:
    name: str
    home: str
    closeness: float


def is_free_time(node: PlanNode, home: str) -> bool:
    """A block at home that is leisure (not a commitment, meal or sleep)."""
    return (node.source != "commitment" and node.commitment_id is None and (node.place or home) == home
            and not is_sleep(node.description) and not is_meal(node.description)
            and bool(_LEISURE_RE.search(node.description)))


def projected_need(value: float, rate_per_hour: float, hours: float) -> float:
    """The need's value after `hours` more of rising at its (temperament-scaled) rate (III-A5)."""
    return min(1.0, value + rate_per_hour * max(0.0, hours))


def home_stretch(tree: PlanTree, node: PlanNode, home: str) -> tuple[float, float]:
    """The evening at home `node` opens: it and the free time and meals at home that follow it."""
    nodes = sorted(tree.nodes, key=lambda n: n.start)
    end = node.end
    for n in nodes[nodes.index(node) + 1:]:
        at_home = (n.place or home) == home and n.source != "commitment" and not is_sleep(n.description)
        if n.start > end or not at_home or not (is_free_time(n, home) or is_meal(n.description)):
            break
        end = n.end
    return node.start, end


def visit_window(tree: PlanTree, t: float, *, home: str, social: float, social_rate: float,
                 friends: list[Friend]) -> tuple[float, float] | None:
    """The (start, end) a company visit should take, or None (see module docstring).

    Looks at free-time blocks at home running at `t` or starting within the buffer zone; a
    block qualifies when the social need, rising at its rate, passes the urgent threshold
    before the stretch at home it opens is over. The visit takes that whole stretch (a meal
    in it is shared with the friend).
    """
    if best_friend(friends, home) is None:
        return None
    horizon = t + LOOKAHEAD_S[1]
    for node in sorted(tree.nodes, key=lambda n: n.start):
        if node.end <= t or node.start > horizon or not is_free_time(node, home):
            continue
        start, end = home_stretch(tree, node, home)
        start = max(start, t)
        if end - start < MIN_VISIT_S:
            continue
        if projected_need(social, social_rate, (end - t) / 3600.0) > URGENT_THRESHOLD:
            return start, end
    return None


def best_friend(friends: list[Friend], home: str) -> Friend | None:
    """The closest friend living elsewhere with closeness above the visit floor."""
    ok = [f for f in friends if f.home and f.home != home and f.closeness >= MIN_FRIEND_CLOSENESS]
    return max(ok, key=lambda f: (f.closeness, f.name), default=None)


def insert_visit(tree: PlanTree, window: tuple[float, float], friend: Friend) -> PlanNode:
    """Replace `window` of the plan with a visit to `friend` (day level, source "repair")."""
    start, end = window
    shared = next((m for m in ("dinner", "lunch", "breakfast") for n in tree.nodes
                   if n.start < end and n.end > start and m in n.description.lower()), None)
    desc = f"visit {friend.name} at {friend.home}" + (f" over {shared}" if shared else "")
    visit = PlanNode(start=start, end=end, description=desc, place=friend.home, level="day", source="repair")
    tree.replace_window(start, end, [visit])
    return visit


def seek_company(tree: PlanTree | None, t: float, *, home: str, social: float, social_rate: float,
                 friends: list[Friend]) -> PlanNode | None:
    """Apply the company rule to `tree` in place; returns the inserted visit or None."""
    if tree is None:
        return None
    window = visit_window(tree, t, home=home, social=social, social_rate=social_rate, friends=friends)
    friend = best_friend(friends, home)
    if window is None or friend is None or window[1] - window[0] < MIN_BLOCK_S:
        return None
    return insert_visit(tree, window, friend)
