"""The plan tree (paper III-A1): the data structures a plan is made of and pure helpers on them.

A day's plan is a `PlanTree` of day-level `PlanNode`s, each with hour-level children and
those with minute-level ones; times are absolute game seconds. Replanning splices new nodes
into a window at their level and keeps the rest (`PlanTree.replace_window`). The model's
"HH:MM" items become contiguous nodes through `nodes_from_times`. No model calls here: the
LM functions and the `Planner` are in planning.py, the repair rules in plan_repair.py.
"""

from __future__ import annotations

import re
from typing import Iterable, Literal

from pydantic import BaseModel, Field

from garp.mind.commitments import hhmm, parse_hhmm, parse_time_of_day
from garp.units import DAY_S

# --- tunables -------------------------------------------------------------------------
LOOKAHEAD_S = (15 * 60.0, 30 * 60.0)  # buffer zone: decompose blocks this far ahead (III-A1)

WAKING = re.compile(r"^(wake up|get up)( and )?", re.I)  # "wake up and have breakfast": the rest is what is done
KEEP_ON = "keep on: "  # the second half of a block the model failed to decompose
STEP_PREFIX = re.compile(r"^(?:(?:get started|finish up): )+", re.I)  # a step split again keeps one

Level = Literal["day", "hour", "minute"]
NodeSource = Literal["model", "repair", "commitment", "fallback", "routine"]  # routine: code, one candidate


class PlanNode(BaseModel):
    """One block of the plan tree; times are absolute game seconds."""

    start: float
    end: float
    description: str
    place: str | None = None
    room: str | None = None  # a commitment's room: the agent acts inside it
    level: Level = "day"
    children: list["PlanNode"] = Field(default_factory=list)
    source: NodeSource = "model"
    commitment_id: str | None = None
    visiting: str | None = None  # a company visit: the friend it is for (plan_repair)

    def contains(self, t: float) -> bool:
        return self.start <= t < self.end

    def label(self) -> str:
        return f"{hhmm(self.start)}-{hhmm(self.end)} {self.description}" + (f" @ {self.place}" if self.place else "")

    def piece(self, start: float, end: float) -> "PlanNode":
        kids = [c for c in self.children if c.end > start and c.start < end]
        return self.model_copy(update={"start": start, "end": end, "children": kids})


class PlanTree(BaseModel):
    """One day's plan: day-level nodes with hour and minute children (III-A1)."""

    day: int
    nodes: list[PlanNode] = Field(default_factory=list)

    def path(self, t: float) -> list[PlanNode]:
        """Nodes containing `t`, from the day level down."""
        out, level = [], self.nodes
        while node := next((n for n in level if n.contains(t)), None):
            out.append(node)
            level = node.children
        return out

    def current(self, t: float) -> PlanNode | None:
        p = self.path(t)
        return p[-1] if p else None

    def current_day_node(self, t: float) -> PlanNode | None:
        p = self.path(t)
        return p[0] if p else None

    def next_boundary(self, t: float) -> float | None:
        """Earliest start or end of any node after `t` (when the current leaf changes)."""
        times = [x for n in self._walk() for x in (n.start, n.end) if x > t]
        return min(times, default=None)

    def leaves(self) -> list[PlanNode]:
        return sorted((n for n in self._walk() if not n.children), key=lambda n: n.start)

    def run_end(self, t: float) -> float | None:
        """End of the run of back-to-back leaves that say the same as the leaf at `t` ("read",
        "keep on: read", "read" ...): one activity, however finely the plan was cut."""
        leaves = self.leaves()
        k = next((i for i, n in enumerate(leaves) if n.contains(t)), None)
        if k is None:
            return None
        end = leaves[k].end
        for n in leaves[k + 1:]:
            if n.start > end or not same_activity(n, leaves[k]):
                break
            end = n.end
        return end

    def _walk(self) -> Iterable[PlanNode]:
        stack = list(self.nodes)
        while stack:
            n = stack.pop()
            yield n
            stack.extend(n.children)

    def replace_window(self, t0: float, t1: float, nodes: list[PlanNode]) -> None:
        """Replace what the plan says for [t0, t1) at the level of `nodes`, keeping the rest.

        Day-level nodes are spliced into the top level; hour/minute nodes go into the
        children of the node one level up that contains them, so the broader structure
        (the day's activities, their times) survives a local replan (III-A1).
        """
        if not nodes:
            return
        level = nodes[0].level
        if level == "day":
            self.nodes = splice(self.nodes, t0, t1, nodes)
            return
        parent_level = "day" if level == "hour" else "hour"
        for parent in (n for n in self._walk() if n.level == parent_level):
            lo, hi = max(t0, parent.start), min(t1, parent.end)
            if lo >= hi:
                continue
            mine = [n.piece(max(n.start, lo), min(n.end, hi)) for n in nodes if n.end > lo and n.start < hi]
            parent.children = splice(parent.children, lo, hi, mine) if parent.children else mine

    def to_dict(self) -> dict:
        return self.model_dump()

    @classmethod
    def from_dict(cls, data: dict) -> "PlanTree":
        return cls.model_validate(data)


def goal_text(description: str, place: str | None = None) -> str:
    """What a plan item says to do, without the "keep on: " of a continued block, the waking of "wake up and
    have breakfast" (whoever decides is up: the waking drew the bed and a nap) or a repeat of its own place
    ("read at Ludwig's House" @ Ludwig's House is "read")."""
    text = WAKING.sub("", description.removeprefix(KEEP_ON).strip())
    if place and text.lower().endswith(f" at {place}".lower()):
        text = text[: -len(f" at {place}")].strip()
    return text or description


def activity_key(description: str, place: str | None = None) -> str:
    return " ".join(goal_text(description, place).lower().split())


def block_key(description: str, place: str | None = None) -> str:
    """The activity a block's steps share: "get started: painting" and "finish up: painting" are "painting"."""
    return activity_key(STEP_PREFIX.sub("", description.strip()), place)


def same_activity(a: PlanNode, b: PlanNode) -> bool:
    return a.place == b.place and activity_key(a.description, a.place) == activity_key(b.description, b.place)


def splice(seq: list[PlanNode], t0: float, t1: float, new: list[PlanNode]) -> list[PlanNode]:
    """Cut [t0, t1) out of a sorted node list (trimming partial overlaps) and insert `new`."""
    out: list[PlanNode] = []
    for n in seq:
        if n.end <= t0 or n.start >= t1:
            out.append(n)
            continue
        if n.start < t0:
            out.append(n.piece(n.start, t0))
        if n.end > t1:
            out.append(n.piece(t1, n.end))
    return sorted(out + list(new), key=lambda n: n.start)



def nodes_from_times(items: list[tuple[str, str, str | None]], day: int, level: Level = "day",
                     source: NodeSource = "model", window: tuple[float, float] | None = None) -> list[PlanNode]:
    """("HH:MM", description, place) items → contiguous nodes, each ending where the next starts."""
    d0 = day * DAY_S
    lo, hi = window or (d0, d0 + DAY_S)
    timed = []
    for hm, desc, place in items:
        secs = parse_hhmm(hm)
        if secs is None and (secs := parse_time_of_day(hm, allow_vague=False)) is None:
            continue
        t = d0 + secs
        if lo <= t < hi and desc.strip():
            timed.append((t, desc.strip(), place))
    timed.sort(key=lambda x: x[0])
    uniq = [x for i, x in enumerate(timed) if i == 0 or x[0] > timed[i - 1][0]]
    if uniq and level != "day":
        uniq[0] = (lo, uniq[0][1], uniq[0][2])  # sub-plans start with their parent
    return [PlanNode(start=t, end=(uniq[i + 1][0] if i + 1 < len(uniq) else hi), description=desc,
                     place=place, level=level, source=source) for i, (t, desc, place) in enumerate(uniq)]
