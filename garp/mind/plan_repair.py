"""Plan repair: rules in code that make a plan valid and let urgent needs reshape it (III-A1, III-A5, VI-b, VI-c).

Fixed structure (`plan_repair`): the model's day plan of 5-8 activities becomes a valid
day: times in order inside the day, no overlaps, no gaps, no slivers, night sleep and
three meals, blocks that put a dated event on the wrong day removed (their preparation
kept), every commitment of the day present at its time and place with a lead to walk
there (the paper's party failures were guests whose plan dropped the party), places
mapped to the map.

Need-driven (`seek_company`): the model writes the plan; these rules only change free
time, never commitments, meals, work or sleep. The rule for company: when the social
need will be urgent before the evening at home that a free-time block opens is over, and
a friend with positive closeness lives in town, that stretch becomes "visit <friend> at
<friend's home>"; a visitor who finds the friend out goes home for the rest of that
stretch (`end_visit`). Temperament reaches the rule only through the trait-scaled need
rates (Eq. 2): an extravert's loneliness outgrows the evening, an introvert's does not.
The same rule applies to every agent.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

from garp.mind.commitments import Commitment, content_words, match_place, parse_day_index
from garp.mind.needs import URGENT_THRESHOLD
from garp.mind.plan_tree import LOOKAHEAD_S, PlanNode, PlanTree, splice
from garp.units import DAY_S

# --- tunables -------------------------------------------------------------------------
MIN_BLOCK_S = 5 * 60.0  # shorter blocks are merged into their neighbour
WAKE_S = 7 * 3600.0  # default end of night sleep
WAKE_LATEST_S = 10 * 3600.0  # morning sleep never runs past this when the plan starts late
BEDTIME_S = 23 * 3600.0  # default start of night sleep
NIGHT_SLEEP_EARLIEST_S = 20 * 3600.0  # a sleep block starting after this counts as the night
# Head out this long (game s) before a commitment to arrive in time: the bundled town's longest
# door-to-door walk is 92 tiles, 46 game min at 2 tiles/min, plus the walk inside the buildings.
COMMITMENT_TRAVEL_LEAD_S = 50 * 60.0
# meal -> (window start, window end, preferred start, duration), game seconds of the day
MEALS: dict[str, tuple[float, float, float, float]] = {
    "breakfast": (5 * 3600.0, 10.5 * 3600, 7.5 * 3600, 30 * 60.0),  # an early shift's breakfast is at 05:30
    "lunch": (11.5 * 3600, 14.5 * 3600, 12.5 * 3600, 45 * 60.0),
    "dinner": (17.5 * 3600, 21.5 * 3600, 19 * 3600.0, 60 * 60.0),
}
FREE_TIME = "free time at home"

_SLEEP_RE = re.compile(r"\b(sleep|sleeping|asleep|go(?:es)? to bed|bedtime|in bed)\b", re.I)
_MEAL_RE = re.compile(r"\b(breakfast|brunch|lunch|dinner|supper|eat|eating|meal|dine|dining|sandwich)\b", re.I)
_PREP_RE = re.compile(
    r"\b(buy|buying|get|getting|prepare|preparing|prep|shop|shopping|wrap|wrapping|bake|baking|"
    r"make|making|practi[cs]e|rehears\w*|plan|planning|organi[sz]e|invit\w*|decorat\w*|choose|"
    r"pick|write|send|tell|remind|pack|ready|gift|present|before)\b|\bfor (?:the|tomorrow|his|her|their|my)\b",
    re.I)

# need-driven repair (company)
MIN_FRIEND_CLOSENESS = 0.2  # familiarity x max(sentiment, 0) a visit needs (III-A6 closeness)
MIN_VISIT_S = 45 * 60.0     # game s: shorter free time is not worth a visit (our default)
# Free time the rules may repurpose: the repair's "free time at home" and plain leisure at home.
_LEISURE_RE = re.compile(r"\b(free time|relax\w*|unwind\w*|leisure|nothing planned|spare time|"
                         r"chill\w*|lounge|evening at home|rest(?:ing)? at home|watch\w* tv|whatever|"
                         r"quiet evening|free evening|radio)\b", re.I)


# --- fixed structure: ordered times, sleep, meals, commitments, wrong-day blocks ------
def is_sleep(desc: str) -> bool:
    return bool(_SLEEP_RE.search(desc))


def is_meal(desc: str) -> bool:
    return bool(_MEAL_RE.search(desc))


def is_preparation(desc: str) -> bool:
    return bool(_PREP_RE.search(desc))


def _protected(n: PlanNode) -> bool:
    return n.source == "commitment"


def _wrong_day(desc: str, day: int, start_date: date | None, other: list[Commitment],
               today: list[Commitment], place_words: set[str]) -> bool:
    """True for a block that schedules an event for another day (and is not preparation)."""
    if is_preparation(desc):
        return False
    ref = parse_day_index(desc, day, start_date)
    if ref is not None and ref != day:
        return True
    words = content_words(desc) - place_words
    def hits(c: Commitment) -> bool:
        cw = content_words(c.what) - place_words
        return bool(words and cw) and len(words & cw) / min(len(words), len(cw)) >= 0.5
    return any(hits(c) for c in other) and not any(hits(c) for c in today)


def _insert(nodes: list[PlanNode], new: PlanNode) -> list[PlanNode]:
    """Insert `new`, splitting whatever it overlaps (the overlapped activity resumes after)."""
    return splice(nodes, new.start, new.end, [new])


def _free_slot(nodes: list[PlanNode], lo: float, hi: float, prefer: float, dur: float) -> float | None:
    """A start in [lo, hi - dur] near `prefer` that overlaps no commitment or sleep block."""
    blocked = [(n.start, n.end) for n in nodes if _protected(n) or is_sleep(n.description)]
    cands = sorted({prefer, lo, *[e for _, e in blocked]}, key=lambda s: abs(s - prefer))
    for s in cands:
        if lo <= s <= hi - dur and not any(a < s + dur and s < b for a, b in blocked):
            return s
    return None


def plan_repair(nodes: list[PlanNode], *, day: int, home: str, known_places: list[str],
                commitments: list[Commitment] = (), other_commitments: list[Commitment] = (),
                start_date: date | None = None, skipped: frozenset[str] = frozenset()) -> list[PlanNode]:
    """Turn any list of day-level blocks into a valid day plan (see module docstring).

    `commitments` are this day's (they are put back if missing); `other_commitments`
    are other days' (blocks that hold them today are removed, preparation stays); `skipped`: meals the
    character skips, not put in (Felix "skips breakfast" had been given one at 07:30 and ate it twice).
    """
    d0, d1 = day * DAY_S, (day + 1) * DAY_S
    today = [c for c in commitments if c.day == day]
    other = [c for c in other_commitments if c.day != day]
    place_words = {w for p in known_places for w in content_words(p)}
    out: list[PlanNode] = []
    for n in sorted(nodes, key=lambda n: (n.start, n.end)):
        desc = " ".join(n.description.split())
        start, end = max(n.start, d0), min(n.end, d1)
        if not desc or end - start <= 0 or n.source == "commitment":
            continue
        if _wrong_day(desc, day, start_date, other, today, place_words):
            continue
        place = match_place(n.place, known_places, home) or home
        out.append(n.model_copy(update={"start": start, "end": end, "description": desc,
                                        "place": place, "level": "day"}))
    # Overlaps: a later-starting block wins (the model lists starts, not durations).
    fixed: list[PlanNode] = []
    for n in out:
        if fixed and n.start < fixed[-1].end:
            prev = fixed[-1]
            if n.start <= prev.start:
                fixed.pop()
            else:
                fixed[-1] = prev.piece(prev.start, n.start)
        fixed.append(n)
    out = fixed
    for c in today:  # every commitment of the day, at its time and place
        out = _put_commitment(out, c, d0, d1)
    out = _ensure_sleep(out, d0, d1, home)
    out = _ensure_meals(out, d0, home, skipped)
    return _close_gaps(out, d0, d1, home)


def _put_commitment(nodes: list[PlanNode], c: Commitment, d0: float, d1: float) -> list[PlanNode]:
    start, end = max(c.start, d0), min(c.end, d1)
    if end <= start:
        return nodes
    block = PlanNode(start=start, end=end, description=c.what, place=c.place, room=c.room, level="day",
                     source="commitment", commitment_id=c.id)
    nodes = _insert(nodes, block)
    lead_start = max(d0, start - COMMITMENT_TRAVEL_LEAD_S)
    there = any(n.start <= lead_start < n.end and n.place == c.place for n in nodes)  # no walk to where one is
    if lead_start < start and not there and not any(_protected(n) and n.end > lead_start and n.start < start
                                                    for n in nodes):
        nodes = _insert(nodes, PlanNode(start=lead_start, end=start, description=f"head to {c.place} for {c.what}",
                                        place=c.place, level="day", source="commitment", commitment_id=c.id))
    return nodes


def _ensure_sleep(nodes: list[PlanNode], d0: float, d1: float, home: str) -> list[PlanNode]:
    def sleep(a: float, b: float) -> PlanNode:
        return PlanNode(start=a, end=b, description="sleep", place=home, level="day", source="repair")
    if not any(is_sleep(n.description) and n.start <= d0 + 3600 for n in nodes):
        awake = [n.start for n in nodes if not is_sleep(n.description) and n.start > d0]
        wake = min(awake[0] if awake else d0 + WAKE_S, d0 + WAKE_LATEST_S)
        if nodes and nodes[0].start <= d0 and not is_sleep(nodes[0].description):
            wake = d0 + WAKE_S
        wake = min([wake] + [n.start for n in nodes if _protected(n)])
        if wake > d0:
            nodes = _insert(nodes, sleep(d0, wake))
    if not any(is_sleep(n.description) and n.start >= d0 + NIGHT_SLEEP_EARLIEST_S for n in nodes):
        bed = d0 + BEDTIME_S
        for n in nodes:
            if _protected(n) and n.start < d1 and n.end > bed:
                bed = n.end
        if bed < d1:
            nodes = _insert(nodes, sleep(bed, d1))
    return nodes


def _ensure_meals(nodes: list[PlanNode], d0: float, home: str, skipped: frozenset[str]) -> list[PlanNode]:
    for meal, (lo, hi, prefer, dur) in MEALS.items():
        lo, hi, prefer = d0 + lo, d0 + hi, d0 + prefer
        if meal in skipped or any(is_meal(n.description) and n.start < hi and n.end > lo for n in nodes):
            continue
        s = _free_slot(nodes, lo, hi, prefer, dur)
        if s is None:
            continue
        here = next((n for n in nodes if n.contains(s)), None)
        place = here.place if meal == "lunch" and here and here.place else home
        nodes = _insert(nodes, PlanNode(start=s, end=s + dur, description=f"have {meal}", place=place,
                                        level="day", source="repair"))
    return nodes


def _close_gaps(nodes: list[PlanNode], d0: float, d1: float, home: str) -> list[PlanNode]:
    """No gaps (extend the previous activity or free time at home), no slivers, merged repeats."""
    nodes = sorted(nodes, key=lambda n: n.start)
    out: list[PlanNode] = []
    cursor = d0
    for n in nodes:
        if n.start > cursor:
            prev = out[-1] if out else None
            if prev is not None and not _protected(prev) and not is_meal(prev.description):
                out[-1] = prev.model_copy(update={"end": n.start})
            else:
                out.append(PlanNode(start=cursor, end=n.start, description=FREE_TIME, place=home,
                                    level="day", source="repair"))
        n = n.model_copy(update={"start": max(n.start, cursor)})
        if n.end > n.start:
            out.append(n)
            cursor = n.end
    if cursor < d1:
        if out and not _protected(out[-1]):
            out[-1] = out[-1].model_copy(update={"end": d1})
        else:
            out.append(PlanNode(start=cursor, end=d1, description="sleep", place=home, level="day", source="repair"))
    merged: list[PlanNode] = []
    for n in out:
        prev = merged[-1] if merged else None
        same = prev is not None and prev.description.lower() == n.description.lower() and prev.place == n.place \
            and prev.commitment_id == n.commitment_id
        tiny = prev is not None and n.end - n.start < MIN_BLOCK_S and not _protected(n) and not _protected(prev)
        if same or tiny:
            merged[-1] = prev.model_copy(update={"end": n.end, "children": prev.children + n.children})
        else:
            merged.append(n)
    return merged


# --- need-driven: company ---------------------------------------------------------------
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


def visit_window(tree: PlanTree, t: float, *, home: str, social: float, social_rate: float
                 ) -> tuple[float, float] | None:
    """The (start, end) a company visit should take, or None (see module docstring).

    Looks at free-time blocks at home running at `t` or starting within the buffer zone; a
    block qualifies when the social need, rising at its rate, passes the urgent threshold
    before the stretch at home it opens is over. The visit takes that whole stretch (a meal
    in it is shared with the friend).
    """
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
    visit = PlanNode(start=start, end=end, description=desc, place=friend.home, level="day", source="repair",
                     visiting=friend.name)
    tree.replace_window(start, end, [visit])
    return visit


def seek_company(tree: PlanTree | None, t: float, *, home: str, social: float, social_rate: float,
                 friends: list[Friend]) -> PlanNode | None:
    """Apply the company rule to `tree` in place; returns the inserted visit or None."""
    if tree is None:
        return None
    friend = best_friend(friends, home)
    window = visit_window(tree, t, home=home, social=social, social_rate=social_rate) if friend else None
    if window is None or friend is None or window[1] - window[0] < MIN_BLOCK_S:
        return None
    return insert_visit(tree, window, friend)


def end_visit(tree: PlanTree, visit: PlanNode, t: float, home: str) -> PlanNode:
    """The friend is out: the rest of `visit` becomes time at home (a meal it shared stays a meal)."""
    meal = next((m for m in MEALS if visit.description.endswith(f" over {m}")), None)
    desc = f"{meal} and {FREE_TIME}" if meal else FREE_TIME
    back = PlanNode(start=t, end=visit.end, description=desc, place=home, level="day", source="repair")
    tree.replace_window(t, visit.end, [back])
    return back
