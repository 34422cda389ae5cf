"""The town a scenario runs in: map, objects, the World and Perception."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from garp import paths
from garp.errors import GarpError

# --- tunables ---------------------------------------------------------------------------
PERCEPTION_RADIUS_PX = 256.0  # 8 tiles (III-A7's configurable radius)


def map_file(name: str) -> Path:
    p = Path(name)
    if p.is_file():
        return p
    candidate = paths.MAPS / name
    if not candidate.is_file():
        known = ", ".join(sorted(x.name for x in paths.MAPS.glob("*.tmx"))) or "none"
        raise GarpError(f"scenario field 'map': no map '{name}' under {paths.MAPS}; allowed: {known}")
    return candidate


def load_town(map_name: str, log: Any, rng: random.Random) -> tuple[Any, Any, Any, Any]:
    from garp.world.perception import Perception
    from garp.world.town_map import TownMap
    from garp.world.world import World
    town = TownMap.load(map_file(map_name))
    registry = town.build_objects()
    world = World(town, registry, log, rng=rng)
    perception = Perception(registry, radius_px=PERCEPTION_RADIUS_PX)
    return town, registry, world, perception
