"""A* on the tile grid: doors, walls, blocked tiles, unreachable goals (issue 3 section 2)."""

import numpy as np
import pytest

from garp.world.pathfinding import find_path, nearest_walkable, path_length

# Two rooms split by a wall at x=5 with doors at (5, 2) and (5, 7).
PLAN = """
..........
..........
.....D....
.....#....
.....#....
.....#....
.....#....
.....D....
.....#....
"""


def grid(plan: str = PLAN) -> np.ndarray:
    rows = [r for r in plan.strip().splitlines()]
    return np.array([[c != "#" for c in r] for r in rows], dtype=bool)


def walls_only(plan: str = PLAN) -> np.ndarray:
    g = grid(plan)
    g[:, 5] = False
    return g


def assert_valid(walk, path):
    for (ax, ay), (bx, by) in zip(path, path[1:]):
        assert max(abs(ax - bx), abs(ay - by)) == 1
        assert walk[by, bx]
        if ax != bx and ay != by:  # no corner cutting
            assert walk[ay, bx] and walk[by, ax]


def test_path_goes_through_a_door():
    walk = grid()
    walk[0:2, 5] = False  # the top rows are wall too, so only doors connect the halves
    path = find_path(walk, (1, 4), (8, 4))
    assert path[0] == (1, 4) and path[-1] == (8, 4)
    assert_valid(walk, path)
    assert (5, 2) in path or (5, 7) in path
    assert all(walk[y, x] for x, y in path)


def test_no_path_through_walls():
    walk = walls_only()
    assert find_path(walk, (1, 4), (8, 4)) is None
    assert find_path(walk, (1, 4), (5, 4)) is None  # the goal is a wall


def test_blocked_tile_is_planned_around():
    walk = grid()
    walk[0:2, 5] = False
    first = find_path(walk, (1, 2), (8, 2))
    assert (5, 2) in first
    second = find_path(walk, (1, 2), (8, 2), blocked=frozenset({(5, 2)}))
    assert second is not None and (5, 2) not in second and (5, 7) in second
    assert_valid(walk, second)
    assert find_path(walk, (1, 2), (8, 2), blocked=frozenset({(5, 2), (5, 7)})) is None


def test_open_field_detour_and_length():
    walk = np.ones((5, 5), dtype=bool)
    straight = find_path(walk, (0, 2), (4, 2))
    assert straight == [(0, 2), (1, 2), (2, 2), (3, 2), (4, 2)]
    around = find_path(walk, (0, 2), (4, 2), blocked=frozenset({(2, 2)}))
    assert (2, 2) not in around and path_length(around) == pytest.approx(2 + 2 * 2 ** 0.5)


def test_no_diagonal_corner_cutting():
    walk = np.ones((3, 3), dtype=bool)
    walk[0, 1] = False
    walk[1, 0] = False
    # (0,0) is boxed in by two walls touching diagonally: squeezing through the corner is not allowed
    assert find_path(walk, (0, 0), (2, 2)) is None


def test_cached_result_is_not_shared():
    walk = np.ones((4, 4), dtype=bool)
    p = find_path(walk, (0, 0), (3, 3))
    p.append((9, 9))
    assert find_path(walk, (0, 0), (3, 3))[-1] == (3, 3)


def test_outside_the_map_is_an_error_and_nearest_walkable():
    walk = walls_only()
    with pytest.raises(ValueError, match="outside"):
        find_path(walk, (0, 0), (40, 0))
    assert nearest_walkable(walk, (5, 4)) in {(4, 4), (6, 4)}
    assert nearest_walkable(walk, (1, 1)) == (1, 1)
    assert nearest_walkable(np.zeros((3, 3), dtype=bool), (1, 1)) is None
