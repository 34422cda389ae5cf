"""Read-only adapter between the simulation's objects and what the game draws.

Panels, the HUD and the renderer read the simulation only through the functions
here, which turn live objects into small plain records. Attribute names of the
other subsystems are looked up in one place, so a renamed field changes this file
and nothing else. Nothing here writes to the simulation.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Iterable

from garp.engine.memory_store import TYPES as MEMORY_TYPES
from garp.errors import GarpError
from garp.mind.needs import URGENT_THRESHOLD as URGENT_NEED
from garp.mind.persona import AXES as AXIS_POLES  # axis -> (pole at +, pole at -)
from garp.mind.persona import GRADES, NEED_NAMES
from garp.game.phrasing import readable_why
from garp.game.poses import PoseMap, Rect, Tile, shape, spread
from garp.sim.opening import overnight
from garp.sim.pace import keep_up_speed
from garp.sim.pause import ANSWERING
from garp.units import DAY_S
from garp.world.world import tile_center

TRAIT_AXES = tuple(AXIS_POLES)  # paper III-A4
REFUSALS = ("admission", "stale")  # scheduler outcomes where code answered because the model could not be in time
TRAIT_STOPS = 4  # nine-stop slider: -4..+4, stop/4 is the signed grade weight


def attr(obj: Any, *names: str, default: Any = None) -> Any:
    """First present attribute (or mapping key) of `obj` among `names`."""
    if obj is None:
        return default
    for name in names:
        if isinstance(obj, dict) and name in obj:
            return obj[name]
        value = getattr(obj, name, None)
        if value is not None:
            return value
    return default


def _num(value: Any, default: float = 0.0) -> float:
    try:
        return float(value)
    except (TypeError, ValueError):
        return default


def _call(value: Any) -> Any:
    return value() if callable(value) else value


# ---------------------------------------------------------------- bodies / world
@dataclass
class BodyView:
    name: str
    x: float  # where the figure is drawn (map px): on the seat or the bed it uses, else where it stands
    y: float
    activity: str
    place: str
    using: str
    facing: str
    moving: bool
    bubble: str
    anim_phase: float = 0.0
    pose: str = "stand"  # stand | sit | lie (garp.game.poses)
    bed: Rect | None = None  # lie: the footprint (map px) it lies in


@lru_cache(maxsize=4)
def pose_map(objects: Any) -> PoseMap:
    """The poses of a town's objects, built once per object registry."""
    return PoseMap({o.id: shape(o.tile, o.kind.size, o.blocks, [a.verb for a in o.affordances],
                                attr(o, "use_tiles", default=()))
                    for o in (objects or [])})


def _bubble_text(body: Any, t: float) -> str:
    bubble = attr(body, "bubble")
    if not bubble:
        return ""
    if isinstance(bubble, (tuple, list)) and len(bubble) >= 2:
        return str(bubble[0]) if _num(bubble[1], 0.0) >= t else ""
    return str(attr(bubble, "text", default=bubble))


def bodies(world: Any, t: float, minds: Any = None, held: frozenset[str] = frozenset()) -> list[BodyView]:
    """Every character as drawn: posed on what it uses, one figure per tile; one the player is
    interviewing stands still and says it is answering."""
    out = []
    minds = minds or {}
    objects = attr(world, "objects")
    poses = pose_map(objects)
    for name, body in dict(attr(world, "bodies", default={})).items():
        using = attr(body, "using")
        using = tuple(using) if isinstance(using, (tuple, list)) else None
        facing = str(attr(body, "facing", default="down") or "down")
        pose = poses.pose(_num(attr(body, "x")), _num(attr(body, "y")), facing, using,
                          _user_slot(objects, using, name))
        out.append(BodyView(
            name=name, x=pose.x, y=pose.y,
            activity=ANSWERING if name in held else _shown_activity(body, minds.get(name)),
            place=str(attr(body, "place", default="") or ""),
            using=" ".join(str(u) for u in reversed(using)) if using else "",
            facing=pose.facing, moving=bool(attr(body, "moving", default=False)) and name not in held,
            bubble=_bubble_text(body, t), anim_phase=_num(attr(body, "anim_phase", default=0.0)),
            pose=pose.kind, bed=pose.rect))
    return _one_per_tile(out, attr(world, "town"))


def _user_slot(objects: Any, using: tuple[str, str] | None, name: str) -> int:
    """The body's place among the object's users, in arrival order (0: the first, or unknown)."""
    try:
        users = list(objects.get(using[0]).users) if using and objects is not None else []
    except GarpError:  # an object the registry no longer has is drawn as a lone user
        return 0
    return users.index(name) if name in users else 0


def _one_per_tile(views: list[BodyView], town: Any) -> list[BodyView]:
    """Still figures drawn on one tile step aside to a free walkable tile of the same room."""
    if town is None or not views:
        return views

    def is_open(here: Tile, there: Tile) -> bool:
        return town.is_walkable(there) and town.place_at(*tile_center(there)) == town.place_at(*tile_center(here))

    order = sorted(range(len(views)), key=lambda i: (views[i].pose != "lie", not views[i].using, views[i].name))
    placed = spread([(views[i].x, views[i].y, views[i].moving) for i in order], is_open)
    for i, (x, y) in zip(order, placed):
        v = views[i]
        if (x, y) != (v.x, v.y):
            v.x, v.y, v.pose, v.bed = x, y, "stand", None
    return views


def held(sim: Any) -> frozenset[str]:
    """The characters stopped to answer the player (garp.sim.pause)."""
    names = attr(attr(sim, "pause"), "names")
    return names() if callable(names) else frozenset()


def town_bodies(sim: Any) -> list[BodyView]:
    """The characters of a simulation as the town view and the panel header show them."""
    return bodies(attr(sim, "world"), game_time(sim), attr(sim, "minds"), held(sim))


def _shown_activity(body: Any, mind: Any) -> str:
    """The body's own activity (walking, using an object); when the body is idle, what the mind is
    doing instead — the routine activity a scene opens with, a chat, waiting for someone."""
    shown = str(attr(body, "activity", default="") or "")
    act = attr(mind, "activity")
    if shown in ("", "idle") and act is not None and attr(act, "kind", default="idle") != "idle":
        return str(attr(act, "description", default="") or shown)
    return shown


@dataclass
class HudStats:
    date: str
    time: str
    speed: float
    paused: bool
    queue_depth: int
    tok_s: float
    agents: int
    endpoints: list[dict] = field(default_factory=list)  # server pool: one stats dict per server
    bound: int = 0             # the model queue's bound
    keep_up: float = 0.0       # when the model is saturated: the speed that would keep up, else 0
    refused: int = 0           # requests answered by code so far because the model could not be in time
    busy: float = 0.0          # share of the last minute the model was computing (scoring shows here, not in tok/s)
    planning: tuple[int, int] | None = None  # the clock holds for the first plans: (in, cast)


def opening_progress(sim: Any) -> tuple[int, int] | None:
    progress = _call(attr(sim, "opening_progress"))
    return progress if isinstance(progress, tuple) else None


def clock_stats(sim: Any) -> HudStats:
    """The clock part of the HUD only (cheap: read every frame)."""
    clock = attr(sim, "clock")
    return HudStats(date=str(_call(attr(clock, "date_label", default="")) or ""),
                    time=str(_call(attr(clock, "hhmm", default="")) or ""),
                    speed=_num(attr(clock, "speed", default=1.0), 1.0),
                    paused=bool(attr(clock, "paused", default=False)), queue_depth=0, tok_s=0.0, agents=0,
                    planning=opening_progress(sim))


def hud_stats(sim: Any) -> HudStats:
    clock = attr(sim, "clock")
    scheduler = attr(sim, "scheduler")
    stats: dict = {}
    if scheduler is not None and hasattr(scheduler, "stats"):
        try:
            stats = dict(scheduler.stats())
        except Exception:  # a stats hiccup must not break the HUD
            stats = {}
    return HudStats(
        date=str(_call(attr(clock, "date_label", default="")) or ""),
        time=str(_call(attr(clock, "hhmm", default="")) or ""),
        speed=_num(attr(clock, "speed", default=1.0), 1.0),
        paused=bool(attr(clock, "paused", default=False)),
        queue_depth=int(_num(stats.get("queue_depth", 0))),
        tok_s=_num(stats.get("tok_s", 0.0)),
        agents=len(attr(sim, "minds", default={}) or attr(attr(sim, "world"), "bodies", default={}) or {}),
        endpoints=list(stats.get("endpoints") or []),
        bound=int(_num(stats.get("bound", 0))),
        keep_up=keep_up_speed(_num(attr(clock, "speed", default=1.0), 1.0), _num(stats.get("load", 0.0)))
        if stats.get("saturated") else 0.0,
        refused=sum(int(_num((stats.get("answered") or {}).get(k, 0))) for k in REFUSALS),
        busy=_num(stats.get("busy_share", 0.0)),
        planning=opening_progress(sim),
    )


def in_view(bodies: list[BodyView], rect: tuple[float, float, float, float], selected: str | None) -> frozenset[str]:
    """The characters inside the map rectangle (x, y, w, h) the camera shows, and the selected one."""
    x, y, w, h = rect
    seen = {b.name for b in bodies if x <= b.x <= x + w and y <= b.y <= y + h}
    return frozenset(seen | ({selected} if selected else set()))


def tell_focus(sim: Any, names: frozenset[str]) -> None:
    """Hand the scheduler who is in focus: an immutable value crosses to its threads, never a live object."""
    set_focus = attr(attr(sim, "scheduler"), "set_focus")
    if callable(set_focus):
        set_focus(frozenset(names))


def game_time(sim: Any) -> float:
    clock = attr(sim, "clock")
    return _num(attr(clock, "t", default=0.0))


def hhmm(t: float) -> str:
    t = t % DAY_S
    return f"{int(t // 3600):02d}:{int(t % 3600 // 60):02d}"


def day_time(t: float) -> str:
    return f"day {int(t // DAY_S) + 1} {hhmm(t)}"


# ---------------------------------------------------------------- needs / decisions
@dataclass
class NeedBar:
    name: str
    value: float
    urgent: bool


def needs(mind: Any) -> list[NeedBar]:
    state = attr(mind, "needs")
    values = attr(state, "values", default=state if isinstance(state, dict) else {}) or {}
    urgent_fn = attr(state, "urgent")
    urgent = set(_call(urgent_fn) or []) if urgent_fn is not None else set()
    urgent = {u if isinstance(u, str) else attr(u, "name", default=str(u)) for u in urgent}
    names = list(NEED_NAMES) + [n for n in values if n not in NEED_NAMES]
    return [NeedBar(n, _num(values.get(n, 0.0)), n in urgent or _num(values.get(n, 0.0)) > URGENT_NEED)
            for n in names if n in values]


def need_rates(mind: Any) -> dict[str, float]:
    state = attr(mind, "needs")
    rates = attr(state, "rates", default={}) or {}
    return {k: _num(v) for k, v in dict(rates).items()}


@dataclass
class CandidateRow:
    label: str
    score: float | None
    chosen: bool
    detail: str = ""


@dataclass
class DecisionView:
    plan_item: str
    candidates: list[CandidateRow]
    chosen: str
    why: str
    t: float | None
    mode: str = ""


def _label(item: Any) -> str:
    if item is None:
        return ""
    if isinstance(item, str):
        return item
    desc = attr(item, "description")
    where = attr(item, "object_name", "object_id")
    verb = attr(item, "verb")
    if desc:
        return f"{desc} ({where})" if where and str(where) not in str(desc) else str(desc)
    if verb and where:
        return f"{verb} at {where}"
    return str(verb or where or item)


def decision(mind: Any, t: float | None = None) -> DecisionView:
    dec = attr(mind, "last_decision")
    chosen = _label(attr(dec, "chosen"))
    chosen_index = attr(dec, "chosen_index")
    utilities = list(attr(dec, "utilities", default=[]) or [])
    rows = []
    for i, cand in enumerate(attr(dec, "candidates", default=[]) or []):
        if isinstance(cand, (tuple, list)) and len(cand) == 2:
            label, score, parts = _label(cand[0]), cand[1], []
        else:
            label, score = _label(cand), attr(cand, "score")
            parts = [f"{k} {_num(attr(cand, k)):.2f}" for k in ("sim", "prox", "own") if attr(cand, k) is not None]
        if i < len(utilities):
            parts.append(f"utility {_num(utilities[i]):.2f}")
        is_chosen = i == chosen_index if isinstance(chosen_index, int) and chosen_index >= 0 else label == chosen
        rows.append(CandidateRow(label, None if score is None else _num(score), is_chosen, ", ".join(parts)))
    plan_item = attr(dec, "plan_item") or current_plan_item(mind, t)
    picked = next((i for i, r in enumerate(rows) if r.chosen), None)
    why = readable_why(str(attr(dec, "why", default="") or ""), [r.label for r in rows], picked)
    return DecisionView(_label(plan_item), rows, chosen, why, attr(dec, "t"), str(attr(dec, "mode", default="") or ""))


# ---------------------------------------------------------------- plan
@dataclass
class PlanBlock:
    key: str
    start: float
    end: float
    description: str
    place: str
    level: int
    commitment: bool
    source: str
    children: list["PlanBlock"] = field(default_factory=list)


def _plan_nodes(plan: Any) -> list[Any]:
    """The day's top-level blocks of a PlanTree (None before the first plan)."""
    return list(plan.nodes) if plan is not None else []


def _block(node: Any, key: str, level: int) -> PlanBlock:
    source = str(attr(node, "source", default="") or "")
    commitment = bool(attr(node, "commitment_id", default=False)) or source == "commitment"
    kids = [_block(c, f"{key}.{i}", level + 1) for i, c in enumerate(attr(node, "children", default=[]) or [])]
    return PlanBlock(key, _num(attr(node, "start")), _num(attr(node, "end")),
                     str(attr(node, "description", default="")), str(attr(node, "place", default="") or ""),
                     int(_num(attr(node, "level", default=level), level)), commitment, source, kids)


def plan_blocks(mind: Any) -> list[PlanBlock]:
    return [_block(n, str(i), 0) for i, n in enumerate(_plan_nodes(attr(mind, "plan")))]


def arrangements(mind: Any, t: float) -> list[str]:
    """The agent's commitments not yet over, soonest first, each saying how the agent knows of it:
    its own (hosted, and open to anyone or not), from the host, or second-hand and from whom."""
    view = attr(mind, "commitment_view", default=None) or {}
    rows = []
    for c in sorted(view.values(), key=lambda c: (c.start, c.what)):
        if c.end <= t:
            continue
        if c.source == "own":
            how = "yours, open to anyone" if c.open else "yours"
        else:
            teller = c.heard_from or c.host
            how = f"from {teller}" if c.source == "heard-from-host" else f"second-hand, from {teller}"
        others = [p for p in c.participants if p != attr(mind, "name", default="")]
        who = "" if not others else f" with {', '.join(others)}" if len(others) <= 3 else f" with {len(others)} others"
        rows.append(f"{day_time(c.start)}-{hhmm(c.end)}  {c.what} @ {c.place}{who} ({how})")
    return rows


def provisional_plan(sim: Any, mind: Any) -> list[PlanBlock]:
    """Until the model's day plan arrives: today from the persona's routine, the night's block first
    when the day's first has not begun (what the agent opened with, garp.sim.opening)."""
    routine_day = attr(attr(sim, "requests"), "routine_day")
    if mind is None or not callable(routine_day):
        return []
    t = game_time(sim)
    nodes = routine_day(mind, int(t // DAY_S))
    night = overnight(nodes, t)
    return [_block(n, str(i), 0) for i, n in enumerate(([night] if night else []) + nodes)]


def provisional_item(sim: Any, mind: Any) -> str:
    """The routine's block running now, while the model's day plan is on its way."""
    block = active_block(provisional_plan(sim, mind), game_time(sim))
    return block.description if block else ""


def active_block(blocks: Iterable[PlanBlock], t: float) -> PlanBlock | None:
    """Deepest block containing `t` (day-relative or absolute starts both work)."""
    found = None
    for b in blocks:
        start, end = b.start, b.end
        tt = t if start >= DAY_S or end > DAY_S else t % DAY_S
        if start <= tt < end:
            found = active_block(b.children, t) or b
    return found


def active_path(blocks: Iterable[PlanBlock], t: float) -> set[str]:
    """Keys of every block (at any level) that contains `t`."""
    keys: set[str] = set()
    for b in blocks:
        tt = t if b.start >= DAY_S or b.end > DAY_S else t % DAY_S
        if b.start <= tt < b.end:
            keys.add(b.key)
            keys |= active_path(b.children, t)
    return keys


def current_plan_item(mind: Any, t: float | None = None) -> str:
    """Description of the deepest plan block running at `t` (the plan tree's own lookup first)."""
    plan = attr(mind, "plan")
    if plan is None:
        return ""
    current = getattr(plan, "current", None)
    if callable(current) and t is not None:
        node = current(t)
        return _label(node) if node is not None else ""
    block = active_block(plan_blocks(mind), t or 0.0)
    return block.description if block else ""


# ---------------------------------------------------------------- memories
@dataclass
class MemoryRow:
    t: float
    location: str
    type: str
    poignancy: float
    emotion: str
    header: str
    description: str


def memories(mind: Any, name: str, types: set[str] | None = None) -> list[MemoryRow]:
    """The agent's memory stream, newest first (the store keeps that order), filtered by type."""
    store = attr(attr(mind, "memory"), "store")
    if store is None or types == set():  # every type filtered out: nothing to show
        return []
    records = store.records(name, sorted(types) if types else None)
    return [MemoryRow(_num(attr(r, "created")), str(attr(r, "location", default="") or ""),
                      str(attr(r, "type", default="event")), _num(attr(r, "poignancy", default=0)),
                      str(attr(r, "emotion", default="") or ""), str(attr(r, "header", default="") or ""),
                      str(attr(r, "description", default=""))) for r in records]


# ---------------------------------------------------------------- emotion
@dataclass
class EmotionView:
    label: str
    intensity: float
    valence: float
    valence_change: float
    description: str
    trajectory: list[tuple[str, float, float]]  # (label, intensity, valence), oldest first


def emotion(mind: Any) -> EmotionView:
    """The main thread's emotion mirror (garp.mind.agent.EmotionMirror)."""
    em = mind.emotion_view
    cur = em.current
    history = list(em.history)
    traj = [(str(attr(h, "label", default="")), _num(attr(h, "intensity")), _num(attr(h, "valence")))
            for h in history]
    valence = _num(attr(cur, "valence"))
    before = [v for (_, _, v) in traj[:-1]] if traj and traj[-1][2] == valence else [v for (_, _, v) in traj]
    change = valence - before[-1] if before else 0.0
    return EmotionView(str(attr(cur, "label", default="neutral")), _num(attr(cur, "intensity")),
                       valence, change, str(attr(cur, "description", default="") or ""), traj)


# ---------------------------------------------------------------- persona
@dataclass
class PersonaView:
    name: str
    personality: str
    temperament: str
    background: str
    routine: str
    traits: dict[str, int]  # axis -> stop in -4..4


def _stop_from_value(value: Any) -> int:
    if isinstance(value, str):
        return round(GRADES.get(value.strip().lower(), 0.0) * TRAIT_STOPS)
    return round(max(-1.0, min(1.0, _num(value))) * TRAIT_STOPS)


def trait_stops(mind: Any) -> dict[str, int]:
    comp = attr(mind, "personality")
    persona = attr(mind, "persona")
    axes = _call(attr(comp, "axis_values", default=None))
    stops = {a: 0 for a in TRAIT_AXES}
    if isinstance(axes, dict) and axes:
        for a in TRAIT_AXES:
            stops[a] = _stop_from_value(axes.get(a, 0.0))
        return stops
    traits = attr(comp, "traits") or attr(persona, "traits", default={}) or {}
    if not isinstance(traits, dict):
        traits = {attr(t, "pole", default=""): attr(t, "grade", default="") for t in traits}
    for axis, (pos, neg) in AXIS_POLES.items():
        for key, value in traits.items():
            if key == axis:
                stops[axis] = _stop_from_value(value)
            elif key in (pos, neg):
                stops[axis] = abs(_stop_from_value(value)) * (1 if key == pos else -1)
    return stops


def persona(mind: Any, name: str) -> PersonaView:
    per = attr(mind, "persona")
    comp = attr(mind, "personality")
    routine = attr(per, "routine", default="")
    if isinstance(routine, (list, tuple)):
        routine = "; ".join(str(r) for r in routine)
    base = attr(comp, "personality") if isinstance(attr(comp, "personality"), str) else None
    return PersonaView(name, str(base or attr(per, "personality", default="") or ""),
                       str(attr(comp, "temperament_sentence", default="") or ""),
                       str(attr(per, "background", default="") or ""), str(routine or ""), trait_stops(mind))


def trait_label(axis: str, stop: int) -> str:
    if stop == 0:
        return "silent"
    grade = [g for g, w in GRADES.items() if round(w * TRAIT_STOPS) == abs(stop)][0]
    pos, neg = AXIS_POLES[axis]
    return f"{grade} {pos if stop > 0 else neg}"


# ---------------------------------------------------------------- relationships
@dataclass
class RelationRow:
    other: str
    familiarity: float
    trust: float
    sentiment: float
    last_change: str
    reason: str


def relationships(mind: Any) -> list[RelationRow]:
    """The main thread's copies of the agent's relationships."""
    out = []
    for other, rel in dict(mind.relationship_view).items():
        change = attr(rel, "last_change")
        reason = str(attr(change, "reason", default="") or "")
        change_text = "" if change is None else ", ".join(
            f"{k} {_num(attr(change, k)):+.2f}" for k in ("sentiment", "trust", "familiarity"))
        out.append(RelationRow(str(other), _num(attr(rel, "familiarity")), _num(attr(rel, "trust")),
                               _num(attr(rel, "sentiment")), change_text, reason))
    return sorted(out, key=lambda r: -r.familiarity)


# ---------------------------------------------------------------- model calls
@dataclass
class RetrievedRow:
    description: str
    score: float
    factors: dict[str, float]


@dataclass
class CallView:
    function: str
    t: float
    messages: list[dict]
    raw: str
    parsed: str
    fallback_used: bool
    retrieved: list[RetrievedRow]
    queue_wait_s: float
    latency_s: float
    error: str


def retrieved_rows(items: Iterable[Any]) -> list[RetrievedRow]:
    """Retrieved memories as rows: an interview's UsedMemory objects or a CallRecord's dicts of them."""
    return [RetrievedRow(str(attr(r, "description", default="")), _num(attr(r, "score")),
                         {k: _num(v) for k, v in dict(attr(r, "factors", default={}) or {}).items()})
            for r in items or []]


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, (dict, list)):
        return json.dumps(value, default=str)
    dump = getattr(value, "model_dump_json", None)
    if callable(dump):
        return dump()
    return str(value)


def calls(mind: Any) -> list[CallView]:
    """Recent model calls of one agent, newest first."""
    out = []
    for c in list(attr(mind, "calls", default=[]) or []):
        out.append(CallView(
            function=str(attr(c, "function", default="?")), t=_num(attr(c, "game_time")),
            messages=list(attr(c, "messages", default=[]) or []), raw=str(attr(c, "raw", default="") or ""),
            parsed=_text(attr(c, "parsed")), fallback_used=bool(attr(c, "fallback_used", default=False)),
            retrieved=retrieved_rows(attr(c, "retrieved", default=[])),
            queue_wait_s=_num(attr(c, "queue_wait_s")), latency_s=_num(attr(c, "latency_s")),
            error=str(attr(c, "error", default="") or ""),
        ))
    return list(reversed(out))
