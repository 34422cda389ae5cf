"""The town map: buildings, rooms, objects, reachability, and clear errors for broken maps (issue 3 sections 1-2)."""

import shutil
import xml.etree.ElementTree as ET

import pytest

from garp.errors import GarpError
from garp.paths import ASSETS, MAPS
from garp.world.pathfinding import find_path
from garp.world.town_map import PLACE_KINDS, TownMap

TOWN = MAPS / "town.tmx"
HOMES = {"Ludwig's House": ["Ludwig"], "Erica's House": ["Erica", "Hana"], "Oliver's Flat": ["Oliver"],
         "Maya's House": ["Maya", "Priya"], "Jonah's House": ["Jonah", "Tomas"], "Lena's House": ["Lena", "Dara"],
         "Mika's House": ["Mika"], "Ren's House": ["Ren", "Felix"], "Greta's House": ["Greta", "Arjun", "Sam"],
         "Noor's House": ["Noor", "Isabel", "Victor", "Yuki"]}


@pytest.fixture(scope="module")
def town():
    return TownMap.load(TOWN)


@pytest.fixture(scope="module")
def objects(town):
    return town.build_objects()


def test_buildings_homes_and_kinds(town):
    assert town.tile_size == 32 and (town.width, town.height) == (90, 64)
    buildings = [p for p in town.places.values() if p.kind != "park"]
    assert len(buildings) >= 10
    homes = {p.name: p.owners for p in town.places.values() if p.kind == "home"}
    assert homes == HOMES
    assert {p.kind for p in town.places.values()} == set(PLACE_KINDS)
    for name, kind in (("Hobbs Cafe", "cafe"), ("Oak Hill School", "school"), ("Town Library", "library"),
                       ("Johnson Park", "park"), ("Corner Shop", "shop"), ("Town Office", "workplace")):
        assert town.place(name).kind == kind
    for home in HOMES:
        rooms = {r.name for r in town.place(home).rooms}
        assert {"Bedroom", "Kitchen", "Bathroom", "Living Room"} <= rooms
        assert town.place(home).door is not None
    assert town.home_of("Yuki").name == "Noor's House"


def test_mika_and_ren_live_next_door(town):
    mx, my, mw, _ = town.place("Mika's House").rect
    rx, ry, _, _ = town.place("Ren's House").rect
    assert my == ry and 0 <= rx - (mx + mw) <= 2 * 32


def test_music_room_is_inside_the_school(town):
    music = town.room("Oak Hill School", "Music Room")
    school = town.place("Oak Hill School")
    sx, sy, sw, sh = school.rect
    x, y, w, h = music.rect
    assert sx <= x and sy <= y and x + w <= sx + sw and y + h <= sy + sh
    cx, cy = music.center
    assert town.place_at(cx, cy) is music and town.building_at(cx, cy) is school
    assert town.room("Oak Hill School", "Classroom").building == "Oak Hill School"
    assert town.place_at(0, 0) is None


def test_walls_block_and_doors_are_walkable(town):
    for name, (x, y) in town.doors:
        assert town.is_walkable((x, y)), name
    x, y, w, h = town.place("Hobbs Cafe").tile_rect()
    corner_walls = [(x, y), (x + w - 1, y), (x, y + h - 1), (x + w - 1, y + h - 1)]
    assert not any(town.is_walkable(t) for t in corner_walls)
    outer = [(x + i, y) for i in range(w)] + [(x + i, y + h - 1) for i in range(w)]
    outer += [(x, y + j) for j in range(h)] + [(x + w - 1, y + j) for j in range(h)]
    assert [t for t in outer if town.is_walkable(t)] == [town.place("Hobbs Cafe").door]


def test_objects_are_many_known_and_sensibly_placed(town, objects):
    assert len(objects) >= 60
    assert all(o.type in town.types for o in objects)
    for home, owners in HOMES.items():
        kinds = [o.type for o in objects.in_place(home)]
        assert kinds.count("bed") >= len(owners), home
        for needed in ("stove", "fridge", "shower", "dining_table"):
            assert needed in kinds, (home, needed)
        assert {"sofa", "chair", "armchair"} & set(kinds)
        assert all(o.owners for o in objects.in_place(home))
    music = [o.type for o in objects.in_place("Music Room") if o.place == "Oak Hill School"]
    assert "piano" in music and "guitar" in music
    assert "school_desk" in [o.type for o in objects.in_place("Classroom")]
    cafe = [o.type for o in objects.in_place("Hobbs Cafe")]
    assert {"cafe_counter", "coffee_machine", "dining_table"} <= set(cafe)
    assert {"bookshelf", "reading_desk"} <= {o.type for o in objects.in_place("Town Library")}
    assert {"bench", "fountain", "swing"} <= {o.type for o in objects.in_place("Johnson Park")}
    assert {"shop_counter", "shop_shelf"} <= {o.type for o in objects.in_place("Corner Shop")}
    assert {"computer", "desk", "coffee_machine"} <= {o.type for o in objects.in_place("Town Office")}
    beds = [o for o in objects.in_place("Noor's House") if o.type == "bed"]
    assert {o.owners[0] for o in beds} == set(HOMES["Noor's House"])
    stove = objects.get("mayas-house/stove")
    assert stove.describe_state() == "the stove in Maya's House kitchen is idle"


def test_blocking_objects_are_not_walkable(town, objects):
    for o in objects:
        for t in o.footprint:
            if o.blocks:
                assert not town.is_walkable(t), o.id
        assert town.is_walkable(o.use_tile), o.id


def test_every_place_room_and_object_is_reachable_from_the_park(town, objects):
    start = town.place("Johnson Park").entrance
    targets = [(p.full_name, p.entrance) for p in [*town.places.values(), *town.rooms]]
    targets += [(o.id, o.use_tile) for o in objects]
    unreachable = [name for name, tile in targets if find_path(town.walkable, start, tile) is None]
    assert unreachable == []
    home = town.room("Ludwig's House", "Bedroom").entrance
    path = find_path(town.walkable, home, start)
    assert town.place("Ludwig's House").door in path


def test_place_random_tile_is_inside_and_walkable(town):
    import random

    rng = random.Random(3)
    for p in [*town.places.values(), *town.rooms]:
        t = p.random_tile(rng)
        assert town.is_walkable(t) and p.contains(*town.tile_center(t)), p.full_name


# ---------------------------------------------------------------- broken maps
@pytest.fixture()
def broken_copy(tmp_path):
    for sub in ("tilesets", "sprites"):
        shutil.copytree(ASSETS / sub, tmp_path / sub)
    (tmp_path / "maps").mkdir()
    target = tmp_path / "maps" / "town.tmx"
    shutil.copy(TOWN, target)
    return target


def _edit(path, fn):
    tree = ET.parse(path)
    fn(tree.getroot())
    tree.write(path, encoding="UTF-8", xml_declaration=True)


def _first_object(root, name_contains="bed"):
    layer = next(g for g in root.iter("objectgroup") if g.get("name") == "objects")
    return next(o for o in layer.iter("object") if name_contains in (o.get("name") or ""))


def test_copy_of_the_map_loads(broken_copy):
    assert len(TownMap.load(broken_copy).build_objects()) >= 60


def test_missing_tileset_names_file_and_tileset(broken_copy):
    _edit(broken_copy, lambda r: r.find("tileset").set("source", "../tilesets/nowhere.tsx"))
    with pytest.raises(GarpError) as e:
        TownMap.load(broken_copy)
    assert str(broken_copy) in str(e.value) and "nowhere.tsx" in str(e.value)


def test_missing_tileset_image_names_the_image(broken_copy):
    (broken_copy.parent.parent / "tilesets" / "town.png").unlink()
    with pytest.raises(GarpError) as e:
        TownMap.load(broken_copy)
    assert str(broken_copy) in str(e.value) and "town.png" in str(e.value) and "'town'" in str(e.value)


def test_unknown_object_type_names_the_object_and_known_types(broken_copy):
    seen = {}

    def edit(root):
        o = _first_object(root, "Maya's bed")
        o.set("type", "spaceship")
        seen["id"] = o.get("id")

    _edit(broken_copy, edit)
    with pytest.raises(GarpError) as e:
        TownMap.load(broken_copy)
    msg = str(e.value)
    assert str(broken_copy) in msg and f"object {seen['id']}" in msg and "Maya's bed" in msg
    assert "spaceship" in msg and "stove" in msg


def test_object_outside_the_map_names_the_object(broken_copy):
    seen = {}

    def edit(root):
        o = _first_object(root, "Oliver's bed")
        o.set("x", "99999")
        seen["id"] = o.get("id")

    _edit(broken_copy, edit)
    with pytest.raises(GarpError) as e:
        TownMap.load(broken_copy)
    msg = str(e.value)
    assert str(broken_copy) in msg and f"object {seen['id']}" in msg and "Oliver's bed" in msg and "outside the map" in msg


def test_duplicate_place_name_is_reported(broken_copy):
    def edit(root):
        places = next(g for g in root.iter("objectgroup") if g.get("name") == "places")
        next(o for o in places if o.get("name") == "Erica's House").set("name", "Ludwig's House")

    _edit(broken_copy, edit)
    with pytest.raises(GarpError, match="Ludwig's House.*used twice"):
        TownMap.load(broken_copy)


def test_missing_map_file(tmp_path):
    with pytest.raises(GarpError, match="not found"):
        TownMap.load(tmp_path / "none.tmx")
