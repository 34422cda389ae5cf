"""Draw the town's pixel art and write the Tiled map.

Run: `.venv/bin/python assets/make_assets.py` (deterministic: seeded). Writes
  assets/tilesets/town.png + town.tsx        terrain, floors, walls, doors, nature
  assets/tilesets/objects.tsx                 image-collection tileset of the object sprites
  assets/sprites/objects/<type>.png           one sprite per object type in assets/objects.json
  assets/sprites/objects.png                  all object sprites on one contact sheet (preview)
  assets/sprites/characters.png + .json       24 characters x 4 directions (rows) x 3 walk frames (columns)
  assets/maps/town.tmx                        90x64 tiles: ground/walls/decoration + places/rooms/doors/objects
"""

from __future__ import annotations

import json
import os
import random
import sys
from pathlib import Path
from xml.sax.saxutils import quoteattr

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
sys.path.insert(0, str(Path(__file__).resolve().parent))

import pygame  # noqa: E402

from art import characters as chars  # noqa: E402
from art import tiles as tl  # noqa: E402
from art.furniture import draw_object  # noqa: E402
from art.layout import EAST_POND, H, PARK, PARK_FLOWER_BEDS, PARK_OBJECTS, PARK_PATHS, PARK_TREES, PLAZA, POND, STREETS, W, buildings  # noqa: E402
from art.pixels import T, surf  # noqa: E402

SEED = 20261129
ASSETS = Path(__file__).resolve().parent
COLUMNS = 16
BLOCKING_DECOR = {"hedge_mid", "bush", "bush_berries", "rock", "fence_h", "fence_v", "hedge", "lamp", "mailbox", "signpost", "flower_bed"}
FLOORS = {"wood": (184, 134, 86), "wood_dark": (150, 102, 66), "wood_light": (212, 172, 120)}
CAST = ["Ludwig", "Erica", "Hana", "Oliver", "Maya", "Priya", "Jonah", "Tomas", "Lena", "Dara", "Mika", "Ren",
        "Felix", "Greta", "Arjun", "Sam", "Noor", "Isabel", "Victor", "Yuki", "Visitor A", "Visitor B",
        "Visitor C", "Visitor D"]


# ------------------------------------------------------------------ tileset
def build_tileset(rng: random.Random) -> tuple[list[tuple[str, pygame.Surface]], dict[str, int]]:
    tiles: list[tuple[str, pygame.Surface]] = []
    add = lambda name, s: tiles.append((name, s))  # noqa: E731
    for i in range(4):
        add(f"grass{i}", tl.grass(rng))
    for i in range(2):
        add(f"grass_fl{i}", tl.grass(rng, flowers=True))
    for m in range(16):
        add(f"dirt{m}", tl.dirt(rng, m))
    for m in range(16):
        add(f"water{m}", tl.water(rng, m))
    add("cobble0", tl.cobble(rng)); add("cobble1", tl.cobble(rng))
    for name, base in FLOORS.items():
        add(name, tl.planks(rng, base))
    add("kitchen", tl.checker((236, 230, 214), (120, 168, 160)))
    add("bath", tl.bath_tiles())
    add("carpet_red", tl.carpet(rng, (156, 60, 62))); add("carpet_green", tl.carpet(rng, (70, 118, 84)))
    add("carpet_blue", tl.carpet(rng, (72, 92, 150))); add("carpet_office", tl.carpet(rng, (110, 120, 138)))
    add("slabs", tl.slabs(rng, (196, 190, 178)))
    for pal in tl.WALL_PALETTES:
        add(f"wall_top_{pal}", tl.wall_top(pal)); add(f"wall_face_{pal}", tl.wall_face(pal))
        add(f"wall_window_{pal}", tl.wall_face(pal, window=True)); add(f"wall_inner_{pal}", tl.wall_inner(pal))
        add(f"door_{pal}", tl.door(pal))
    for name, leaf in (("tree", (64, 140, 66)), ("tree_b", (94, 150, 56)), ("tree_c", (48, 116, 80))):
        big = tl.tree_2x2(rng, leaf)
        for j, part in enumerate(("tl", "tr", "bl", "br")):
            add(f"{name}_{part}", big.subsurface(((j % 2) * T, (j // 2) * T, T, T)).copy())
    add("bush", tl.bush(rng)); add("bush_berries", tl.bush(rng, berries=(220, 60, 70)))
    add("flowers_red", tl.flowers(rng, (236, 80, 90))); add("flowers_yellow", tl.flowers(rng, (250, 220, 80)))
    add("flowers_white", tl.flowers(rng, (250, 250, 250))); add("flowers_purple", tl.flowers(rng, (190, 120, 230)))
    add("rock", tl.rock(rng)); add("fence_h", tl.fence(True)); add("fence_v", tl.fence(False))
    add("hedge", tl.hedge()); add("hedge_mid", tl.hedge(mid=True)); add("lamp", tl.lamp()); add("mailbox", tl.mailbox()); add("signpost", tl.signpost())
    add("flower_bed", tl.flower_bed(rng)); add("rug_red", tl.rug((170, 70, 70))); add("rug_blue", tl.rug((80, 100, 170)))
    add("rug_green", tl.rug((90, 140, 90))); add("lily", tl.lily(rng)); add("reeds", tl.reeds(rng))
    return tiles, {name: i for i, (name, _) in enumerate(tiles)}


def tile_blocks(name: str) -> bool:
    return (name.startswith(("water", "wall_", "tree")) or name in BLOCKING_DECOR)


def write_tileset(tiles, out_dir: Path) -> None:
    rows = (len(tiles) + COLUMNS - 1) // COLUMNS
    sheet = surf(COLUMNS * T, rows * T)
    for i, (_, s) in enumerate(tiles):
        sheet.blit(s, ((i % COLUMNS) * T, (i // COLUMNS) * T))
    pygame.image.save(sheet, str(out_dir / "town.png"))
    lines = ['<?xml version="1.0" encoding="UTF-8"?>',
             f'<tileset version="1.10" tiledversion="1.10.2" name="town" tilewidth="{T}" tileheight="{T}" '
             f'tilecount="{len(tiles)}" columns="{COLUMNS}">',
             f' <image source="town.png" width="{COLUMNS * T}" height="{rows * T}"/>']
    for i, (name, _) in enumerate(tiles):
        props = [f'   <property name="terrain" value="{name}"/>']
        if tile_blocks(name):
            props.append('   <property name="walkable" type="bool" value="false"/>')
        if name.startswith("door_"):
            props.append('   <property name="door" type="bool" value="true"/>')
        lines += [f' <tile id="{i}">', '  <properties>', *props, '  </properties>', ' </tile>']
    lines.append('</tileset>')
    (out_dir / "town.tsx").write_text("\n".join(lines) + "\n", encoding="utf-8")


def write_objects(types: dict, sprite_dir: Path, ts_dir: Path) -> dict[str, int]:
    sprite_dir.mkdir(parents=True, exist_ok=True)
    ids, lines = {}, []
    sheet = surf(8 * 64, ((len(types) + 7) // 8) * 64)
    for i, (tid, spec) in enumerate(types.items()):
        size = tuple(spec.get("size", (1, 1)))
        s = draw_object(tid, size, SEED)
        pygame.image.save(s, str(sprite_dir / f"{tid}.png"))
        sheet.blit(s, ((i % 8) * 64, (i // 8) * 64))
        ids[tid] = i
        rel = os.path.relpath(ASSETS / spec["sprite"], ts_dir)
        lines += [f' <tile id="{i}" type="{tid}">',
                  f'  <image width="{size[0] * T}" height="{size[1] * T}" source="{rel}"/>', ' </tile>']
    pygame.image.save(sheet, str(sprite_dir.parent / "objects.png"))
    head = ['<?xml version="1.0" encoding="UTF-8"?>',
            f'<tileset version="1.10" tiledversion="1.10.2" name="objects" tilewidth="64" tileheight="64" '
            f'tilecount="{len(types)}" columns="0">', ' <grid orientation="orthogonal" width="1" height="1"/>']
    (ts_dir / "objects.tsx").write_text("\n".join(head + lines + ["</tileset>"]) + "\n", encoding="utf-8")
    return ids


def write_characters(out_dir: Path) -> None:
    rng = random.Random(SEED + 1)
    fixed = {  # hand-picked looks for a few of the cast so they read at a glance
        "Ludwig": chars.Look((236, 190, 150), (150, 150, 156), (110, 80, 60), (60, 70, 110), "short", beard=True, glasses=True),
        "Erica": chars.Look((250, 214, 180), (200, 80, 40), (60, 160, 170), (50, 50, 60), "long"),
        "Oliver": chars.Look((214, 160, 120), (40, 30, 28), (70, 110, 190), (110, 80, 60), "short", glasses=True),
        "Maya": chars.Look((176, 120, 84), (40, 30, 28), (230, 180, 60), (60, 70, 110), "pony"),
        "Jonah": chars.Look((250, 214, 180), (226, 190, 110), (70, 150, 100), (50, 50, 60), "spiky"),
        "Victor": chars.Look((236, 190, 150), (236, 236, 230), (60, 60, 70), (50, 50, 60), "bald", beard=True),
        "Greta": chars.Look((250, 214, 180), (236, 236, 230), (150, 90, 170), (110, 80, 60), "bun", skirt=True, glasses=True),
    }
    looks = [fixed.get(name) or chars.random_look(rng) for name in CAST]
    pygame.image.save(chars.sheet(looks), str(out_dir / "characters.png"))
    index = {"frame_width": T, "frame_height": T, "directions": list(chars.DIRECTIONS),
             "frames_per_direction": chars.FRAMES,
             "layout": "character i, direction d: row = i * 4 + directions.index(d); column = frame (0 stand, 1-2 steps)",
             "characters": CAST, "rows": {name: i * len(chars.DIRECTIONS) for i, name in enumerate(CAST)},
             "spare": [n for n in CAST if n.startswith("Visitor")]}
    (out_dir / "characters.json").write_text(json.dumps(index, indent=2) + "\n", encoding="utf-8")


# ------------------------------------------------------------------ map
class TownBuilder:
    def __init__(self, rng: random.Random, types: dict) -> None:
        self.rng, self.types = rng, types
        self.ground = [[f"grass{rng.randrange(4)}" if rng.random() > 0.06 else f"grass_fl{rng.randrange(2)}"
                        for _ in range(W)] for _ in range(H)]
        self.walls: list[list[str | None]] = [[None] * W for _ in range(H)]
        self.deco: list[list[str | None]] = [[None] * W for _ in range(H)]
        self.used = [[False] * W for _ in range(H)]  # anything placed that trees must avoid
        self.path = [[False] * W for _ in range(H)]
        self.places, self.rooms, self.doors, self.objects = [], [], [], []

    def mark(self, x, y, w, h) -> None:
        for j in range(max(0, y), min(H, y + h)):
            for i in range(max(0, x), min(W, x + w)):
                self.used[j][i] = True

    def paths(self, rects) -> None:
        for x, y, w, h in rects:
            for j in range(y, y + h):
                for i in range(x, x + w):
                    self.path[j][i] = True
            self.mark(x - 1, y - 1, w + 2, h + 2)

    def autotile(self, mask_grid, prefix: str, rect=None) -> None:
        x0, y0, w, h = rect or (0, 0, W, H)
        for y in range(y0, y0 + h):
            for x in range(x0, x0 + w):
                if not mask_grid(x, y):
                    continue
                m = 0
                for bit, (dx, dy) in ((1, (0, -1)), (2, (1, 0)), (4, (0, 1)), (8, (-1, 0))):
                    nx, ny = x + dx, y + dy
                    if not (0 <= nx < W and 0 <= ny < H) or mask_grid(nx, ny):
                        m |= bit
                self.ground[y][x] = f"{prefix}{m}"

    def building(self, b) -> None:
        inside = {}
        for r in b.rooms:
            for j in range(r.h):
                for i in range(r.w):
                    inside[(r.x + i, r.y + j)] = r.floor
        for g in b.gaps:  # doorway floor = floor of a neighbouring room
            nb = [inside.get((g[0] + dx, g[1] + dy)) for dx, dy in ((0, -1), (0, 1), (-1, 0), (1, 0))]
            inside[g] = next(f for f in nb if f)
        door_floor = next(f for f in (inside.get((b.door[0], b.door[1] + d)) for d in (-1, 1)) if f)
        self.mark(b.x - 1, b.y - 1, b.w + 2, b.h + 2)
        for j in range(b.h):
            for i in range(b.w):
                x, y = b.x + i, b.y + j
                floor = inside.get((i, j), door_floor)
                self.ground[y][x] = floor
                if (i, j) == b.door:
                    self.walls[y][x] = f"door_{b.palette}"
                elif (i, j) not in inside:
                    below = (i, j + 1)
                    if below in inside or below == b.door:
                        self.walls[y][x] = f"wall_inner_{b.palette}"
                    elif j + 1 < b.h:
                        self.walls[y][x] = f"wall_top_{b.palette}"
                    else:
                        window = 1 < i < b.w - 2 and abs(i - b.door[0]) > 1 and i % 3 == 1
                        self.walls[y][x] = f"wall_{'window' if window else 'face'}_{b.palette}"
        dx, dy = b.x + b.door[0], b.y + b.door[1]
        self.doors.append((b.name, dx, dy))
        self.places.append((b.name, b.kind, b.x, b.y, b.w, b.h, b.owners))
        for r in b.rooms:
            self.rooms.append((r.name, b.name, b.x + r.x, b.y + r.y, r.w, r.h))
            if r.name == "Living Room":  # a rug between the TV and the sofa
                self.deco[b.y + r.y + 1][b.x + r.x + r.w // 2] = self.rng.choice(["rug_red", "rug_blue", "rug_green"])
        for (tid, rx, ry, name, owner) in b.furniture:
            self.objects.append((tid, b.x + rx, b.y + ry, name, owner))
        # a short path from the door out to the street
        step = 1 if b.door[1] == b.h - 1 else -1
        y = dy + step
        while 0 <= y < H and not self.path[y][dx]:
            self.path[y][dx] = True
            y += step

    def park(self) -> None:
        x0, y0, w, h = PARK
        self.places.append(("Johnson Park", "park", x0, y0, w, h, []))
        self.paths(PARK_PATHS)
        px0, py0, pw, ph = PLAZA
        for j in range(py0, py0 + ph):
            for i in range(px0, px0 + pw):
                self.ground[j][i] = f"cobble{(i + j) % 2}"
        self.mark(px0, py0, pw, ph)
        for j in range(y0, y0 + h):
            for i in range(x0, x0 + w):
                edge = i in (x0, x0 + w - 1) or j in (y0, y0 + h - 1)
                if edge and not self.path[j][i]:
                    self.deco[j][i] = "hedge"
        self.mark(x0, y0, w, 1); self.mark(x0, y0 + h - 1, w, 1); self.mark(x0, y0, 1, h); self.mark(x0 + w - 1, y0, 1, h)
        for (tid, x, y) in PARK_OBJECTS:
            self.objects.append((tid, x, y, None, None))
            sw, sh = self.types[tid].get("size", (1, 1))
            self.mark(x - 1, y - 1, sw + 2, sh + 2)
        for j in range(y0, y0 + h - 1):  # hedge pieces with more hedge below join up
            for i in range(x0, x0 + w):
                if self.deco[j][i] == "hedge" and self.deco[j + 1][i] == "hedge":
                    self.deco[j][i] = "hedge_mid"
        for (fx, fy) in PARK_FLOWER_BEDS:
            self.deco[fy][fx] = "flower_bed"
            self.mark(fx, fy, 1, 1)
        for (tx, ty, kind) in PARK_TREES:
            for j, row in enumerate(("t", "b")):
                for i, col in enumerate(("l", "r")):
                    self.deco[ty + j][tx + i] = f"{kind}_{row}{col}"
            self.mark(tx, ty, 2, 2)

    def water(self, rect) -> None:
        x0, y0, w, h = rect
        inside = lambda x, y: x0 <= x < x0 + w and y0 <= y < y0 + h  # noqa: E731
        self.autotile(inside, "water", rect)
        self.mark(x0 - 1, y0 - 1, w + 2, h + 2)
        for _ in range(3):  # lily pads on open water, reeds on the banks
            self.deco[y0 + self.rng.randrange(1, h - 1)][x0 + self.rng.randrange(1, w - 1)] = "lily"
        for _ in range(4):
            x, y = self.rng.choice([(x0 - 1, y0 + self.rng.randrange(h)), (x0 + w, y0 + self.rng.randrange(h)),
                                    (x0 + self.rng.randrange(w), y0 + h)])
            if self.ground[y][x].startswith("grass") and self.deco[y][x] is None:
                self.deco[y][x] = "reeds"

    def trees(self, count: int) -> None:
        placed, tries = 0, 0
        while placed < count and tries < count * 40:
            tries += 1
            x, y = self.rng.randrange(0, W - 1), self.rng.randrange(0, H - 1)
            if any(self.used[y + j][x + i] or self.path[y + j][x + i] for j in (0, 1) for i in (0, 1)):
                continue
            kind = self.rng.choice(["tree", "tree", "tree_b", "tree_c"])
            for j, row in enumerate(("t", "b")):
                for i, col in enumerate(("l", "r")):
                    self.deco[y + j][x + i] = f"{kind}_{row}{col}"
            self.mark(x, y, 2, 2)
            placed += 1

    def scatter(self, names, count) -> None:
        for _ in range(count):
            x, y = self.rng.randrange(W), self.rng.randrange(H)
            if not self.used[y][x] and not self.path[y][x] and self.deco[y][x] is None:
                self.deco[y][x] = self.rng.choice(names)
                self.used[y][x] = True

    def street_furniture(self) -> None:
        for (name, x, y) in self.doors:
            for dx in (-2, 2):
                for dy in (-1, 1):
                    tx, ty = x + dx, y + dy
                    if 0 <= ty < H and self.walls[ty][tx] is None and not self.path[ty][tx] and self.ground[ty][tx].startswith("grass"):
                        self.deco[ty][tx] = self.rng.choice(["flowers_red", "flowers_yellow", "flowers_purple"]) if dx < 0 else "bush_berries"
        for x in range(6, W - 2, 12):  # lamps along the main street's north edge
            if self.ground[30][x].startswith("grass") and self.deco[30][x] is None:
                self.deco[30][x] = "lamp"
        self.deco[33][38] = "signpost"

    def build(self) -> None:
        self.paths(STREETS)
        for b in buildings():
            self.building(b)
        self.park()
        self.autotile(lambda x, y: self.path[y][x], "dirt")
        self.water(POND)
        self.water(EAST_POND)
        self.street_furniture()
        self.trees(70)
        self.scatter(["flowers_red", "flowers_yellow", "flowers_white", "flowers_purple", "rock", "bush"], 260)


def _csv(grid, index, firstgid) -> str:
    return "\n" + ",\n".join(",".join(str(index[c] + firstgid) if c else "0" for c in row) for row in grid) + "\n"


def _props(pairs) -> str:
    inner = "".join(f'<property name="{k}" value={quoteattr(str(v))}/>' for k, v in pairs if v not in (None, ""))
    return f"<properties>{inner}</properties>" if inner else ""


def write_tmx(town: TownBuilder, index: dict, obj_ids: dict, out: Path) -> int:
    obj_first = len(index) + 1
    oid = 1
    lines = ['<?xml version="1.0" encoding="UTF-8"?>',
             f'<map version="1.10" tiledversion="1.10.2" orientation="orthogonal" renderorder="right-down" width="{W}" '
             f'height="{H}" tilewidth="{T}" tileheight="{T}" infinite="0" nextlayerid="8" nextobjectid="NEXT">',
             ' <tileset firstgid="1" source="../tilesets/town.tsx"/>',
             f' <tileset firstgid="{obj_first}" source="../tilesets/objects.tsx"/>']
    for lid, (name, grid) in enumerate((("ground", town.ground), ("walls", town.walls), ("decoration", town.deco)), 1):
        lines.append(f' <layer id="{lid}" name="{name}" width="{W}" height="{H}"><data encoding="csv">{_csv(grid, index, 1)}</data></layer>')
    lines.append(' <objectgroup id="4" name="places">')
    for (name, kind, x, y, w, h, owners) in town.places:
        lines.append(f'  <object id="{oid}" name={quoteattr(name)} x="{x * T}" y="{y * T}" width="{w * T}" height="{h * T}">'
                     f'{_props([("kind", kind), ("owners", ",".join(owners))])}</object>')
        oid += 1
    lines += [' </objectgroup>', ' <objectgroup id="5" name="rooms">']
    for (name, bname, x, y, w, h) in town.rooms:
        lines.append(f'  <object id="{oid}" name={quoteattr(name)} x="{x * T}" y="{y * T}" width="{w * T}" height="{h * T}">'
                     f'{_props([("building", bname)])}</object>')
        oid += 1
    lines += [' </objectgroup>', ' <objectgroup id="6" name="doors">']
    for (bname, x, y) in town.doors:
        lines.append(f'  <object id="{oid}" name={quoteattr(bname + " door")} x="{x * T + T // 2}" y="{y * T + T // 2}">'
                     f'{_props([("building", bname)])}<point/></object>')
        oid += 1
    lines += [' </objectgroup>', ' <objectgroup id="7" name="objects">']
    for (tid, x, y, name, owner) in town.objects:
        sw, sh = town.types[tid].get("size", (1, 1))
        nm = f" name={quoteattr(name)}" if name else ""
        lines.append(f'  <object id="{oid}"{nm} type="{tid}" gid="{obj_first + obj_ids[tid]}" x="{x * T}" '
                     f'y="{(y + sh) * T}" width="{sw * T}" height="{sh * T}">{_props([("owner", owner)])}</object>')
        oid += 1
    lines += [' </objectgroup>', '</map>']
    out.write_text("\n".join(lines).replace("NEXT", str(oid)) + "\n", encoding="utf-8")
    return len(town.objects)


def main() -> None:
    pygame.init()
    rng = random.Random(SEED)
    types = json.loads((ASSETS / "objects.json").read_text(encoding="utf-8"))["types"]
    for d in ("tilesets", "sprites", "maps"):
        (ASSETS / d).mkdir(exist_ok=True)
    tiles, index = build_tileset(rng)
    write_tileset(tiles, ASSETS / "tilesets")
    obj_ids = write_objects(types, ASSETS / "sprites" / "objects", ASSETS / "tilesets")
    write_characters(ASSETS / "sprites")
    town = TownBuilder(random.Random(SEED + 2), types)
    town.build()
    n = write_tmx(town, index, obj_ids, ASSETS / "maps" / "town.tmx")
    print(f"wrote {len(tiles)} tiles, {len(types)} object sprites, {len(CAST)} characters, "
          f"{len(town.places)} places, {len(town.rooms)} rooms, {n} objects")


if __name__ == "__main__":
    main()
