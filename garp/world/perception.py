"""Radius perception (paper III-A7): what each agent can see, as events.

Objects that come within the radius are connected to (their state-change signal is
subscribed for that agent); objects that leave are disconnected. A state change of a
connected object becomes an `object_state` event for the agent, so nothing polls object
state. Ranges are recomputed with a spatial grid, and only for agents that moved to a new
tile (or after a throttle), not for every object every frame.
"""

from __future__ import annotations

import math
import threading
from collections import defaultdict, deque
from dataclasses import asdict, dataclass
from typing import Any, Iterable

from garp.errors import GarpError
from garp.units import TILE_PX
from garp.world.objects import ObjectRegistry, WorldObject

Tile = tuple[int, int]

# --- tunables -----------------------------------------------------------------------------
# Perception radius in px: 8 tiles. The paper's radius is configurable (III-A7); its
# affordance filter starts at 300 px (III-A8), so a room and the doorway are in view.
DEFAULT_RADIUS_PX = 256.0
# Re-check an agent that stays on one tile at most this often: game seconds.
DEFAULT_THROTTLE_S = 60.0
# Events kept per agent until drained; the oldest are dropped first.
MAX_QUEUED_PER_AGENT = 200


@dataclass(slots=True, frozen=True)
class PerceptionEvent:
    """One thing an agent noticed. For agent_enter/leave, `object_id` is the other agent's name."""

    kind: str  # object_enter | object_leave | object_state | agent_enter | agent_leave
    agent: str
    object_id: str
    description: str
    old: str
    new: str
    t: float


class SpatialGrid:
    """Uniform grid of point items; a radius query looks only at the cells it overlaps."""

    def __init__(self, cell_px: float) -> None:
        self.cell = float(cell_px)
        self._cells: dict[Tile, list[tuple[str, float, float]]] = defaultdict(list)

    def _key(self, x: float, y: float) -> Tile:
        return (int(x // self.cell), int(y // self.cell))

    def insert(self, key: str, x: float, y: float) -> None:
        self._cells[self._key(x, y)].append((key, x, y))

    def query(self, x: float, y: float, radius: float) -> set[str]:
        cx0, cy0 = self._key(x - radius, y - radius)
        cx1, cy1 = self._key(x + radius, y + radius)
        r2 = radius * radius
        found = set()
        for cx in range(cx0, cx1 + 1):
            for cy in range(cy0, cy1 + 1):
                for key, ix, iy in self._cells.get((cx, cy), ()):
                    if (ix - x) ** 2 + (iy - y) ** 2 <= r2:
                        found.add(key)
        return found


class Perception:
    """Per-agent view of nearby objects and agents, with queued events for the minds."""

    def __init__(self, registry: ObjectRegistry, radius_px: float = DEFAULT_RADIUS_PX,
                 throttle_s: float = DEFAULT_THROTTLE_S) -> None:
        if not radius_px > 0:
            raise GarpError(f"perception radius_px: {radius_px!r} is not allowed; allowed: "
                            "a number of pixels > 0 (e.g. 256 = 8 tiles)")
        self.registry = registry
        self.radius = float(radius_px)
        self.throttle_s = float(throttle_s)
        self._objects = SpatialGrid(self.radius)
        self.rebuild_objects()
        self._seen_objects: dict[str, dict[str, int]] = {}  # agent -> object id -> token
        self._seen_agents: dict[str, set[str]] = {}
        self._tile: dict[str, Tile] = {}
        self._checked_t: dict[str, float] = {}
        self._queues: dict[str, deque[PerceptionEvent]] = {}
        self._lock = threading.Lock()
        self.checks = 0  # range recomputations done (for tests and benchmarks)

    def rebuild_objects(self) -> None:
        """Index every object's position; call again if objects are added or moved."""
        grid = SpatialGrid(self.radius)
        for obj in self.registry:
            grid.insert(obj.id, float(obj.x), float(obj.y))
        self._objects = grid

    # --- queries --------------------------------------------------------------------------
    def objects_seen(self, agent: str) -> set[str]:
        return set(self._seen_objects.get(agent, ()))

    def agents_seen(self, agent: str) -> set[str]:
        return set(self._seen_agents.get(agent, ()))

    def events_for(self, agent: str) -> list[PerceptionEvent]:
        """Take (and clear) the agent's queued events, oldest first."""
        with self._lock:
            queue = self._queues.get(agent)
            if not queue:
                return []
            events = list(queue)
            queue.clear()
            return events

    def drain(self) -> list[PerceptionEvent]:
        """Take every agent's queued events, ordered by time then agent."""
        with self._lock:
            events = [e for q in self._queues.values() for e in q]
            for q in self._queues.values():
                q.clear()
        return sorted(events, key=lambda e: (e.t, e.agent))

    def _push(self, event: PerceptionEvent) -> None:
        with self._lock:
            queue = self._queues.setdefault(event.agent, deque(maxlen=MAX_QUEUED_PER_AGENT))
            queue.append(event)

    # --- updating -------------------------------------------------------------------------
    def update(self, positions: dict[str, tuple[float, float]], t: float) -> list[PerceptionEvent]:
        """Recompute ranges for agents that changed tile (or are due); return the new
        enter/leave events. They are also queued, together with object_state events."""
        removed: list[PerceptionEvent] = []
        for gone in [a for a in self._tile if a not in positions]:
            removed += self.remove_agent(gone, t)
        events: list[PerceptionEvent] = []
        moved = []
        for agent, (x, y) in positions.items():
            tile = (int(x) // TILE_PX, int(y) // TILE_PX)
            due = t - self._checked_t.get(agent, -math.inf) >= self.throttle_s
            if self._tile.get(agent) != tile or due:
                self._tile[agent], self._checked_t[agent] = tile, t
                moved.append(agent)
                events += self._update_objects(agent, x, y, t)
        if moved:
            events += self._update_agents(positions, moved, t)
        for event in events:
            self._push(event)
        return removed + events

    def _update_objects(self, agent: str, x: float, y: float, t: float) -> list[PerceptionEvent]:
        self.checks += 1
        seen = self._seen_objects.setdefault(agent, {})
        now = self._objects.query(x, y, self.radius)
        events = []
        for object_id in sorted(now - seen.keys()):
            obj = self.registry.get(object_id)
            seen[object_id] = self.registry.subscribe(object_id, self._on_state(agent))
            events.append(PerceptionEvent("object_enter", agent, object_id,
                                          obj.describe_state(), "", str(obj.state), t))
        for object_id in sorted(seen.keys() - now):
            self.registry.unsubscribe(seen.pop(object_id))
            obj = self.registry.get(object_id)
            events.append(PerceptionEvent("object_leave", agent, object_id,
                                          f"the {obj.name} is out of sight", str(obj.state), "", t))
        return events

    def _on_state(self, agent: str):
        def notify(obj: WorldObject, old: str, new: str, t: float) -> None:
            self._push(PerceptionEvent("object_state", agent, obj.id, obj.describe_state(),
                                       str(old), str(new), t))
        return notify

    def _update_agents(self, positions: dict[str, tuple[float, float]], moved: list[str],
                       t: float) -> list[PerceptionEvent]:
        """Re-check only pairs with a moved agent; distance is symmetric, so both sides change."""
        grid = SpatialGrid(self.radius)
        for name, (x, y) in positions.items():
            grid.insert(name, x, y)
        events = []
        for agent in moved:
            x, y = positions[agent]
            now = grid.query(x, y, self.radius) - {agent}
            before = self._seen_agents.setdefault(agent, set())
            for other in sorted(now - before):
                events += self._pair(agent, other, "agent_enter", "{} is nearby", t)
            for other in sorted(before - now):
                events += self._pair(agent, other, "agent_leave", "{} left", t)
        return events

    def _pair(self, a: str, b: str, kind: str, text: str, t: float) -> list[PerceptionEvent]:
        out = []
        for me, other in ((a, b), (b, a)):
            seen = self._seen_agents.setdefault(me, set())
            if (kind == "agent_enter") != (other in seen):
                (seen.add if kind == "agent_enter" else seen.discard)(other)
                out.append(PerceptionEvent(kind, me, other, text.format(other), "", "", t))
        return out

    def remove_agent(self, agent: str, t: float) -> list[PerceptionEvent]:
        """Forget an agent: disconnect its subscriptions; others see it leave."""
        for token in self._seen_objects.pop(agent, {}).values():
            self.registry.unsubscribe(token)
        self._seen_agents.pop(agent, None)
        self._tile.pop(agent, None)
        self._checked_t.pop(agent, None)
        events = []
        for other, seen in self._seen_agents.items():
            if agent in seen:
                seen.discard(agent)
                events.append(PerceptionEvent("agent_leave", other, agent, f"{agent} left",
                                              "", "", t))
        for event in events:
            self._push(event)
        return events

    # --- save / restore ---------------------------------------------------------------------
    def state(self) -> dict[str, Any]:
        """What each agent sees and has not yet been told, as JSON values (a save)."""
        with self._lock:
            queues = {a: [asdict(e) for e in q] for a, q in self._queues.items()}
        return {"objects": {a: sorted(seen) for a, seen in self._seen_objects.items()},
                "agents": {a: sorted(seen) for a, seen in self._seen_agents.items()},
                "tile": {a: list(tile) for a, tile in self._tile.items()},
                "checked_t": dict(self._checked_t), "queues": queues}

    def restore(self, data: dict[str, Any]) -> None:
        """Take up the saved view: re-subscribe to the objects each agent saw."""
        self.close()
        self._seen_objects = {a: {o: self.registry.subscribe(o, self._on_state(a)) for o in seen}
                              for a, seen in data["objects"].items()}
        self._seen_agents = {a: set(seen) for a, seen in data["agents"].items()}
        self._tile = {a: (tile[0], tile[1]) for a, tile in data["tile"].items()}
        self._checked_t = {a: float(t) for a, t in data["checked_t"].items()}
        with self._lock:
            self._queues = {a: deque((PerceptionEvent(**e) for e in q), maxlen=MAX_QUEUED_PER_AGENT)
                            for a, q in data["queues"].items()}

    def close(self) -> None:
        """Disconnect every subscription (e.g. when the simulation ends)."""
        for agent in list(self._seen_objects):
            for token in self._seen_objects.pop(agent).values():
                self.registry.unsubscribe(token)


def ids(events: Iterable[PerceptionEvent], kind: str) -> list[str]:
    """The object ids (or agent names) of the events of one kind, in order."""
    return [e.object_id for e in events if e.kind == kind]
