"""A* path-finding on the town's tile grid.

8-neighbour moves; a diagonal step is allowed only when both orthogonal cells it passes
are walkable, so paths never cut a wall corner and go through doors only. The grid is
flattened once per distinct walkability array and recent results are cached, because
agents ask for the same trips (home -> cafe) again and again.
"""

from __future__ import annotations

import hashlib
import heapq
from collections import OrderedDict, deque

import numpy as np

Tile = tuple[int, int]

SQRT2 = 1.4142135623730951
PATH_CACHE_SIZE = 4096  # entries; one entry is one (grid, start, goal, blocked) query
GRID_CACHE_SIZE = 8  # distinct walkability grids kept flattened

_grids: OrderedDict[bytes, "_Grid"] = OrderedDict()
_paths: OrderedDict[tuple, list[Tile] | None] = OrderedDict()


class _Grid:
    """Flat walkability plus precomputed neighbour lists (index, step cost)."""

    def __init__(self, walkable: np.ndarray) -> None:
        h, w = walkable.shape
        self.w, self.h = w, h
        flat = walkable.astype(bool).ravel().tolist()
        self.flat = flat
        nbrs: list[list[tuple[int, float]]] = [[] for _ in range(w * h)]
        for y in range(h):
            for x in range(w):
                i = y * w + x
                if not flat[i]:
                    continue
                out = nbrs[i]
                for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                    nx, ny = x + dx, y + dy
                    if 0 <= nx < w and 0 <= ny < h and flat[ny * w + nx]:
                        out.append((ny * w + nx, 1.0))
                for dx, dy in ((1, 1), (1, -1), (-1, 1), (-1, -1)):
                    nx, ny = x + dx, y + dy
                    if (0 <= nx < w and 0 <= ny < h and flat[ny * w + nx]
                            and flat[y * w + nx] and flat[ny * w + x]):
                        out.append((ny * w + nx, SQRT2))
        self.nbrs = nbrs
        self.xs = [i % w for i in range(w * h)]
        self.ys = [i // w for i in range(w * h)]


def _grid_for(walkable: np.ndarray) -> tuple[bytes, _Grid]:
    arr = np.ascontiguousarray(walkable, dtype=bool)
    key = hashlib.blake2b(arr.tobytes(), digest_size=16, key=repr(arr.shape).encode()).digest()
    grid = _grids.get(key)
    if grid is None:
        grid = _Grid(arr)
        _grids[key] = grid
        if len(_grids) > GRID_CACHE_SIZE:
            _grids.popitem(last=False)
    else:
        _grids.move_to_end(key)
    return key, grid


def _astar(g: _Grid, start: int, goal: int, blocked: set[int]) -> list[int] | None:
    xs, ys, nbrs = g.xs, g.ys, g.nbrs
    gx, gy = xs[goal], ys[goal]
    n = g.w * g.h
    best = [1e18] * n
    came = [-1] * n
    closed = bytearray(n)
    for b in blocked:
        closed[b] = 1
    best[start] = 0.0
    heap = [(0.0, 0.0, start)]  # (f, -g, node): ties go to the deeper node, which explores far less
    push, pop = heapq.heappush, heapq.heappop
    k = SQRT2 - 2.0
    while heap:
        _, neg, cur = pop(heap)
        if cur == goal:
            return _walk_back(came, start, goal)
        if closed[cur]:
            continue
        closed[cur] = 1
        cost = -neg
        for nxt, step in nbrs[cur]:
            if closed[nxt]:
                continue
            nc = cost + step
            if nc < best[nxt]:
                best[nxt] = nc
                came[nxt] = cur
                dx = xs[nxt] - gx
                dy = ys[nxt] - gy
                if dx < 0:
                    dx = -dx
                if dy < 0:
                    dy = -dy
                push(heap, (nc + dx + dy + k * (dx if dx < dy else dy), -nc, nxt))
    return None


def _walk_back(came: list[int], start: int, goal: int) -> list[int]:
    """The path A* found, from `start` to `goal`."""
    path = [goal]
    cur = goal
    while cur != start:
        cur = came[cur]
        path.append(cur)
    path.reverse()
    return path


def find_path(walkable: np.ndarray, start: Tile, goal: Tile, blocked: frozenset[Tile] = frozenset()) -> list[Tile] | None:
    """Tiles from `start` to `goal` inclusive, or None if there is no way.

    `walkable[y, x]` is the grid. `blocked` are extra impassable tiles (e.g. a tile that
    became blocked); the start tile is always allowed, a blocked or unwalkable goal is not.
    """
    h, w = walkable.shape
    for name, (x, y) in (("start", start), ("goal", goal)):
        if not (0 <= x < w and 0 <= y < h):
            raise ValueError(f"{name} tile {(x, y)} is outside the {w}x{h} map")
    key, g = _grid_for(walkable)
    qkey = (key, start, goal, blocked)
    if qkey in _paths:
        _paths.move_to_end(qkey)
        hit = _paths[qkey]
        return list(hit) if hit is not None else None
    s, t = start[1] * w + start[0], goal[1] * w + goal[0]
    if not g.flat[t] or goal in blocked:
        result = None
    elif s == t:
        result = [start]
    else:
        blocked_idx = {by * w + bx for bx, by in blocked if 0 <= bx < w and 0 <= by < h} - {s}
        if not g.flat[s]:  # standing on an unwalkable tile (e.g. after a map edit): leave by any walkable neighbour
            g = _with_start_exits(g, s)
        idx = _astar(g, s, t, blocked_idx)
        result = None if idx is None else [(i % w, i // w) for i in idx]
    _paths[qkey] = result
    if len(_paths) > PATH_CACHE_SIZE:
        _paths.popitem(last=False)
    return list(result) if result is not None else None


def _with_start_exits(g: _Grid, s: int) -> _Grid:
    clone = _Grid.__new__(_Grid)
    clone.w, clone.h, clone.flat, clone.xs, clone.ys = g.w, g.h, g.flat, g.xs, g.ys
    clone.nbrs = list(g.nbrs)
    x, y = s % g.w, s // g.w
    exits = []
    for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        nx, ny = x + dx, y + dy
        if 0 <= nx < g.w and 0 <= ny < g.h and g.flat[ny * g.w + nx]:
            exits.append((ny * g.w + nx, 1.0))
    clone.nbrs[s] = exits
    return clone


def nearest_walkable(walkable: np.ndarray, tile: Tile, max_radius: int = 64) -> Tile | None:
    """The walkable tile closest to `tile` (breadth-first over the 4-neighbourhood), or None."""
    h, w = walkable.shape
    x0, y0 = min(max(tile[0], 0), w - 1), min(max(tile[1], 0), h - 1)
    if walkable[y0, x0]:
        return (x0, y0)
    seen = {(x0, y0)}
    queue = deque([(x0, y0, 0)])
    while queue:
        x, y, d = queue.popleft()
        if d >= max_radius:
            continue
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            nx, ny = x + dx, y + dy
            if 0 <= nx < w and 0 <= ny < h and (nx, ny) not in seen:
                if walkable[ny, nx]:
                    return (nx, ny)
                seen.add((nx, ny))
                queue.append((nx, ny, d + 1))
    return None


def path_length(path: list[Tile]) -> float:
    """Length in tiles (diagonal steps count sqrt 2)."""
    total = 0.0
    for (ax, ay), (bx, by) in zip(path, path[1:]):
        total += SQRT2 if ax != bx and ay != by else 1.0
    return total

