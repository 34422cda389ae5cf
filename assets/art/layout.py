"""The town's layout: buildings, rooms, doorways, furniture, streets and the park (tile coordinates)."""

from __future__ import annotations

from dataclasses import dataclass, field

W, H = 90, 64


@dataclass
class Room:
    name: str
    x: int  # relative to the building's top-left (outer wall) corner
    y: int
    w: int
    h: int
    floor: str


@dataclass
class Building:
    name: str
    kind: str
    x: int
    y: int
    w: int
    h: int
    palette: str
    rooms: list[Room]
    gaps: list[tuple[int, int]]  # interior doorways (relative)
    door: tuple[int, int]  # exterior door (relative, on the outer wall)
    furniture: list[tuple] = field(default_factory=list)  # (type, rx, ry, name or None, owner or None)
    owners: list[str] = field(default_factory=list)


def _beds(slots: list[tuple[int, int]], owners: list[str], min_beds: int = 1) -> list[tuple]:
    n = max(min_beds, len(owners))
    return [("bed", x, y, f"{owners[i]}'s bed" if i < len(owners) else None, owners[i] if i < len(owners) else None)
            for i, (x, y) in enumerate(slots[:n])]


def house(name, x, y, owners, palette, door_top=False, extras=()) -> Building:
    """13x11 home: bathroom + kitchen on top, bedroom + living room below."""
    rooms = [Room("Bathroom", 1, 1, 5, 3, "bath"), Room("Kitchen", 7, 1, 5, 3, "kitchen"),
             Room("Bedroom", 1, 5, 5, 5, "wood"), Room("Living Room", 7, 5, 5, 5, "wood_dark")]
    f = [("shower", 1, 1), ("sink", 3, 1), ("toilet", 5, 1),
         ("fridge", 7, 1), ("stove", 9, 1), ("kitchen_sink", 10, 1), ("plant", 11, 1),
         ("dining_table", 10, 3), ("chair", 10, 2), ("chair", 11, 2),
         ("wardrobe", 5, 5), ("desk", 1, 9), ("chair", 2, 9),
         ("tv", 8, 5), ("bookshelf", 11, 5), ("sofa", 8, 7), ("armchair", 11, 7), ("plant", 7, 9)]
    f = [(*t, None, None) for t in f] + _beds([(1, 5), (2, 5)], owners) + [(*e, None, None) for e in extras]
    return Building(name, "home", x, y, 13, 11, palette, rooms, [(3, 4), (9, 4), (6, 7)],
                    (8, 0) if door_top else (9, 10), f, owners)


def flat(name, x, y, owners, palette) -> Building:
    """11x11 flat for one person."""
    rooms = [Room("Bathroom", 1, 1, 4, 3, "bath"), Room("Kitchen", 6, 1, 4, 3, "kitchen"),
             Room("Bedroom", 1, 5, 4, 5, "wood"), Room("Living Room", 6, 5, 4, 5, "wood_dark")]
    f = [("shower", 1, 1), ("sink", 3, 1), ("toilet", 4, 1),
         ("fridge", 6, 1), ("stove", 8, 1), ("kitchen_sink", 9, 1), ("dining_table", 8, 3), ("chair", 8, 2),
         ("wardrobe", 4, 5), ("desk", 1, 9), ("chair", 2, 9),
         ("tv", 6, 5), ("bookshelf", 9, 5), ("sofa", 6, 7), ("computer", 9, 8), ("plant", 9, 9)]
    f = [(*t, None, None) for t in f] + _beds([(1, 5)], owners)
    return Building(name, "home", x, y, 11, 11, palette, rooms, [(2, 4), (7, 4), (5, 7)], (8, 10), f, owners)


def big_house(name, x, y, owners, palette, door_top=False, extras=()) -> Building:
    """17x11 family home with a second bedroom on the east side."""
    rooms = [Room("Bathroom", 1, 1, 4, 3, "bath"), Room("Kitchen", 6, 1, 6, 3, "kitchen"),
             Room("Bedroom", 1, 5, 4, 5, "wood"), Room("Living Room", 6, 5, 6, 5, "wood_dark"),
             Room("Second Bedroom", 13, 1, 3, 9, "wood_light")]
    f = [("shower", 1, 1), ("sink", 3, 1), ("toilet", 4, 1),
         ("fridge", 6, 1), ("stove", 9, 1), ("kitchen_sink", 10, 1), ("plant", 11, 1),
         ("dining_table", 10, 3), ("chair", 10, 2), ("chair", 11, 2),
         ("wardrobe", 4, 5), ("desk", 1, 9), ("chair", 2, 9),
         ("tv", 7, 5), ("bookshelf", 11, 5), ("sofa", 7, 7), ("armchair", 10, 7), ("plant", 6, 9),
         ("wardrobe", 15, 9), ("desk", 13, 9)]
    f = [(*t, None, None) for t in f] + _beds([(1, 5), (3, 5), (13, 1), (15, 1), (15, 4)], owners, 2)
    f += [(*e, None, None) for e in extras]
    return Building(name, "home", x, y, 17, 11, palette, rooms, [(2, 4), (9, 4), (5, 7), (12, 7)],
                    (8, 0) if door_top else (9, 10), f, owners)


def cafe(x, y) -> Building:
    rooms = [Room("Cafe Hall", 1, 1, 10, 9, "wood"), Room("Cafe Kitchen", 12, 1, 3, 9, "kitchen")]
    f = [("plant", 1, 1), ("coffee_machine", 2, 1), ("coffee_machine", 3, 1), ("cafe_counter", 1, 3), ("register", 3, 3),
         ("dining_table", 7, 2), ("chair", 7, 1), ("chair", 8, 1), ("chair", 7, 3), ("chair", 8, 3),
         ("dining_table", 2, 6), ("chair", 2, 5), ("chair", 3, 5), ("chair", 2, 7), ("chair", 3, 7),
         ("dining_table", 7, 6), ("chair", 7, 5), ("chair", 8, 5), ("chair", 7, 7), ("chair", 8, 7),
         ("guitar", 10, 9), ("plant", 1, 9),
         ("stove", 12, 1), ("stove", 13, 1), ("fridge", 14, 1), ("kitchen_sink", 14, 5)]
    return Building("Hobbs Cafe", "cafe", x, y, 16, 11, "brick", rooms, [(11, 2)], (5, 10),
                    [(*t, None, None) for t in f])


def library(x, y) -> Building:
    rooms = [Room("Stacks", 1, 1, 12, 3, "carpet_green"), Room("Reading Room", 1, 5, 12, 5, "carpet_red")]
    f = [("bookshelf", bx, 1) for bx in (1, 2, 3, 5, 6, 7, 8, 10, 11, 12)]
    f += [("reading_desk", 2, 6), ("chair", 2, 7), ("chair", 3, 7), ("reading_desk", 9, 6), ("chair", 9, 7),
          ("chair", 10, 7), ("desk", 5, 6), ("computer", 6, 6), ("armchair", 1, 9), ("armchair", 12, 9),
          ("plant", 12, 5), ("plant", 1, 5)]
    return Building("Town Library", "library", x, y, 14, 11, "stone", rooms, [(4, 4), (9, 4)], (7, 10),
                    [(*t, None, None) for t in f])


def school(x, y) -> Building:
    rooms = [Room("Classroom", 1, 1, 10, 6, "wood_light"), Room("Music Room", 12, 1, 7, 6, "carpet_blue"),
             Room("Hallway", 1, 8, 18, 3, "slabs")]
    f = [("bookshelf", 1, 1), ("blackboard", 4, 1), ("desk", 8, 1), ("chair", 8, 2), ("plant", 10, 1)]
    f += [("school_desk", dx, dy) for dy in (3, 5) for dx in (2, 4, 6, 8)]
    f += [("piano", 12, 1), ("guitar", 15, 1), ("guitar", 16, 1), ("bookshelf", 18, 1), ("easel", 18, 5),
          ("chair", 14, 4), ("chair", 16, 4), ("plant", 12, 6)]
    f += [("water_cooler", 1, 8), ("plant", 18, 8), ("bookshelf", 3, 8)]
    return Building("Oak Hill School", "school", x, y, 20, 12, "blue", rooms, [(5, 7), (15, 7)], (9, 11),
                    [(*t, None, None) for t in f])


def office(x, y) -> Building:
    rooms = [Room("Office Floor", 1, 1, 8, 9, "carpet_office"), Room("Break Room", 10, 1, 3, 9, "kitchen")]
    f = [("computer", cx, 1) for cx in (1, 3, 5, 7)] + [("chair", cx, 2) for cx in (1, 3, 5, 7)]
    f += [("computer", 2, 5), ("computer", 5, 5), ("chair", 2, 6), ("chair", 5, 6), ("desk", 7, 5),
          ("water_cooler", 8, 8), ("bookshelf", 1, 9), ("plant", 8, 1)]
    f += [("coffee_machine", 10, 1), ("kitchen_sink", 11, 1), ("fridge", 12, 1), ("dining_table", 10, 4),
          ("chair", 10, 5), ("chair", 11, 5), ("sofa", 10, 8)]
    return Building("Town Office", "workplace", x, y, 14, 11, "plaster", rooms, [(9, 5)], (4, 10),
                    [(*t, None, None) for t in f])


def shop(x, y) -> Building:
    rooms = [Room("Storeroom", 1, 1, 10, 2, "wood_dark"), Room("Shop Floor", 1, 4, 10, 6, "slabs")]
    f = [("shop_shelf", 1, 1), ("shop_shelf", 2, 1), ("shop_shelf", 3, 1), ("desk", 6, 1),
         ("shop_counter", 1, 6), ("register", 3, 6),
         ("shop_shelf", 5, 5), ("shop_shelf", 6, 5), ("shop_shelf", 7, 5),
         ("shop_shelf", 5, 7), ("shop_shelf", 6, 7), ("shop_shelf", 7, 7), ("fridge", 10, 4), ("plant", 10, 9)]
    return Building("Corner Shop", "shop", x, y, 12, 11, "green", rooms, [(9, 3)], (5, 10),
                    [(*t, None, None) for t in f])


def buildings() -> list[Building]:
    return [
        house("Ludwig's House", 2, 2, ["Ludwig"], "brick", extras=[("guitar", 4, 9), ("piano", 1, 8)]),
        house("Erica's House", 17, 2, ["Erica", "Hana"], "wood", extras=[("easel", 4, 8)]),
        flat("Oliver's Flat", 32, 2, ["Oliver"], "stone"),
        house("Maya's House", 45, 2, ["Maya", "Priya"], "plaster", extras=[("easel", 4, 8)]),
        house("Jonah's House", 60, 2, ["Jonah", "Tomas"], "blue", extras=[("easel", 4, 8)]),  # his home studio
        house("Lena's House", 75, 2, ["Lena", "Dara"], "green", extras=[("guitar", 4, 8)]),
        cafe(2, 18), library(20, 18), school(38, 18), office(60, 18), shop(76, 18),
        house("Mika's House", 2, 51, ["Mika"], "wood", door_top=True, extras=[("computer", 4, 8)]),
        house("Ren's House", 16, 51, ["Ren", "Felix"], "brick", door_top=True, extras=[("guitar", 4, 8)]),
        big_house("Greta's House", 37, 51, ["Greta", "Arjun", "Sam"], "stone", door_top=True),
        big_house("Noor's House", 62, 51, ["Noor", "Isabel", "Victor", "Yuki"], "plaster", door_top=True),
    ]


# streets: (x, y, w, h) rectangles of dirt path
STREETS = [
    (1, 14, 88, 2), (1, 31, 88, 2), (1, 48, 88, 2),  # north, main, south streets
    (18, 16, 2, 15), (35, 16, 2, 15), (58, 16, 2, 32), (74, 16, 2, 15),  # north-south lanes
    (20, 33, 2, 15),  # lane west of the park
]

PARK = (24, 34, 32, 14)  # Johnson Park (x, y, w, h), no walls
PARK_OBJECTS = [
    ("fountain", 39, 38), ("bench", 36, 36), ("bench", 42, 36), ("bench", 36, 41), ("bench", 42, 41),
    ("swing", 27, 36), ("swing", 30, 36), ("picnic_table", 27, 44), ("picnic_table", 31, 44),
    ("bench", 48, 41), ("easel", 45, 44), ("bench", 50, 36),
]
PLAZA = (36, 36, 8, 6)
PARK_PATHS = [(39, 33, 2, 3), (22, 39, 14, 2), (44, 39, 14, 2), (39, 42, 2, 6)]
POND = (46, 43, 8, 4)
PARK_FLOWER_BEDS = [(x, 38) for x in (25, 26, 27, 28, 30, 31, 32, 33)] + [(x, 38) for x in (45, 46, 47, 53, 54)]
PARK_TREES = [(25, 44, "tree"), (34, 44, "tree_b"), (52, 35, "tree_c"), (25, 35, "tree_b"), (44, 45, "tree")]
EAST_POND = (66, 37, 9, 6)
