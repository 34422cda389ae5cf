"""Furniture and object sprites, one drawing function per object type id (size from objects.json)."""

from __future__ import annotations

import random

import pygame

from art.pixels import INK, box, circle, ellipse, line, outline, px, rect, shade, shadow, surf

WOOD = (168, 116, 70)
DARK_WOOD = (112, 74, 48)
WHITE = (236, 236, 240)
METAL = (176, 182, 192)


def bed(w, h, rng):
    s = surf(w, h)
    box(s, 2, 1, w - 4, h - 2, 6, WOOD)  # frame + headboard
    rect(s, 4, 8, w - 8, h - 12, (246, 244, 238))  # sheet
    rect(s, 6, 9, w - 12, 8, (255, 255, 255)); rect(s, 6, 16, w - 12, 1, (210, 210, 214))  # pillow
    blanket = rng.choice([(90, 130, 200), (200, 90, 90), (110, 170, 110), (220, 170, 70), (160, 110, 190)])
    rect(s, 4, 22, w - 8, h - 27, blanket)
    rect(s, 4, 22, w - 8, 3, shade(blanket, 1.25))
    for y in range(28, h - 6, 6):
        rect(s, 5, y, w - 10, 1, shade(blanket, 0.85))
    return s


def stove(w, h, rng):
    s = surf(w, h)
    box(s, 2, 2, w - 4, h - 3, 13, WHITE, top=(70, 72, 80))
    for cx, cy in ((10, 6), (21, 6), (10, 11), (21, 11)):
        circle(s, (40, 40, 46), (cx, cy), 3); circle(s, (200, 70, 50), (cx, cy), 1)
    rect(s, 6, 19, 20, 8, (60, 60, 70)); rect(s, 7, 20, 18, 3, (120, 100, 90))
    for x in (8, 13, 18, 23):
        px(s, x, 17, (40, 40, 46))
    return s


def fridge(w, h, rng):
    s = surf(w, h)
    box(s, 4, 0, w - 8, h - 1, 5, (226, 234, 240))
    rect(s, 5, 14, w - 10, 1, (150, 160, 170))
    rect(s, w - 10, 8, 2, 5, (130, 136, 146)); rect(s, w - 10, 17, 2, 8, (130, 136, 146))
    rect(s, 8, 18, 3, 3, rng.choice([(240, 90, 90), (90, 170, 240)]))  # magnet
    return s


def kitchen_sink(w, h, rng):
    s = surf(w, h)
    box(s, 0, 4, w, h - 5, 12, (190, 160, 120), top=(214, 214, 210))
    rect(s, 7, 6, 18, 8, (150, 170, 184)); rect(s, 8, 7, 16, 6, (120, 150, 170))
    rect(s, 15, 3, 2, 5, METAL); rect(s, 15, 3, 5, 2, METAL)
    rect(s, 4, 20, 11, 9, shade((190, 160, 120), 0.9)); rect(s, 17, 20, 11, 9, shade((190, 160, 120), 0.9))
    return s


def shower(w, h, rng):
    s = surf(w, h)
    rect(s, 1, 1, w - 2, h - 2, (190, 214, 226))
    for y in range(1, h - 1, 6):
        rect(s, 1, y, w - 2, 1, (160, 190, 206))
    for x in range(1, w - 1, 6):
        rect(s, x, 1, 1, h - 2, (160, 190, 206))
    circle(s, (110, 130, 140), (16, 18), 2)
    rect(s, 13, 2, 6, 3, METAL)
    rect(s, w - 7, 1, 5, h - 2, (240, 140, 160)); rect(s, w - 6, 1, 1, h - 2, (255, 180, 196))
    rect(s, 1, 1, w - 2, 1, INK); rect(s, 1, h - 2, w - 2, 1, INK); rect(s, 1, 1, 1, h - 2, INK)
    return s


def toilet(w, h, rng):
    s = surf(w, h)
    shadow(s, 6, 24, 20, 7)
    box(s, 9, 2, 14, 9, 3, WHITE)
    ellipse(s, WHITE, (8, 10, 16, 18)); ellipse(s, (190, 210, 220), (11, 13, 10, 11))
    return outline(s)


def sink(w, h, rng):
    s = surf(w, h)
    shadow(s, 4, 24, 24, 7)
    rect(s, 13, 14, 6, 14, (210, 210, 214))
    ellipse(s, WHITE, (5, 6, 22, 12)); ellipse(s, (170, 200, 214), (9, 8, 14, 7))
    rect(s, 15, 3, 2, 5, METAL)
    rect(s, 10, 0, 12, 4, (150, 200, 230))  # mirror edge
    return outline(s)


def sofa(w, h, rng):
    s = surf(w, h)
    c = rng.choice([(180, 70, 70), (80, 120, 170), (120, 150, 90), (150, 110, 170)])
    shadow(s, 2, 26, w - 4, 6)
    box(s, 2, 4, w - 4, 12, 4, shade(c, 0.9))  # back
    box(s, 2, 14, w - 4, 14, 5, c)  # seat
    rect(s, w // 2, 15, 1, 5, shade(c, 0.7))
    box(s, 1, 10, 6, 18, 3, shade(c, 0.85)); box(s, w - 7, 10, 6, 18, 3, shade(c, 0.85))
    return s


def armchair(w, h, rng):
    s = surf(w, h)
    c = rng.choice([(170, 110, 70), (90, 130, 120), (190, 150, 80)])
    shadow(s, 3, 26, 26, 6)
    box(s, 5, 3, 22, 12, 4, shade(c, 0.9))
    box(s, 5, 13, 22, 15, 5, c)
    box(s, 3, 9, 6, 19, 3, shade(c, 0.85)); box(s, 23, 9, 6, 19, 3, shade(c, 0.85))
    return s


def chair(w, h, rng):
    s = surf(w, h)
    shadow(s, 8, 25, 16, 5)
    box(s, 9, 4, 14, 10, 3, DARK_WOOD)
    box(s, 9, 13, 14, 8, 5, WOOD)
    rect(s, 10, 21, 2, 6, DARK_WOOD); rect(s, 20, 21, 2, 6, DARK_WOOD)
    return s


def dining_table(w, h, rng):
    s = surf(w, h)
    shadow(s, 2, 24, w - 4, 8)
    box(s, 2, 5, w - 4, 19, 13, WOOD)
    rect(s, 4, 24, 3, 6, DARK_WOOD); rect(s, w - 7, 24, 3, 6, DARK_WOOD)
    for cx in (14, w - 14):
        circle(s, WHITE, (cx, 11), 5); circle(s, (230, 200, 150), (cx, 11), 3)
    rect(s, w // 2 - 1, 7, 3, 5, (180, 220, 240))  # glass/vase
    px(s, w // 2, 6, (240, 90, 100))
    return s


def tv(w, h, rng):
    s = surf(w, h)
    box(s, 2, 18, w - 4, 12, 4, DARK_WOOD)
    box(s, 4, 2, w - 8, 16, 0, (40, 40, 48), rim=False)
    rect(s, 6, 4, w - 12, 11, (60, 90, 140)); rect(s, 6, 4, w - 12, 3, (110, 160, 210))
    px(s, 8, 6, (230, 240, 255))
    return s


def desk(w, h, rng, top_items=True):
    s = surf(w, h)
    shadow(s, 2, 25, w - 4, 6)
    box(s, 2, 8, w - 4, 19, 9, WOOD)
    rect(s, w - 13, 19, 9, 6, shade(WOOD, 0.8)); rect(s, w - 10, 21, 3, 1, (220, 190, 110))
    if top_items:
        rect(s, 6, 9, 8, 6, (250, 250, 244)); rect(s, 7, 11, 6, 1, (150, 150, 160))
        rect(s, 18, 8, 2, 6, (80, 80, 90)); circle(s, (250, 230, 140), (19, 9), 3)
    return s


def computer(w, h, rng):
    s = desk(w, h, rng, top_items=False)
    box(s, 8, 0, 16, 12, 0, (50, 52, 60), rim=False)
    rect(s, 10, 2, 12, 8, (80, 170, 200)); rect(s, 10, 2, 12, 2, (150, 220, 240))
    rect(s, 15, 12, 2, 3, (60, 60, 70))
    rect(s, 9, 15, 14, 3, (200, 200, 206)); rect(s, 24, 15, 3, 3, (200, 200, 206))
    return s


def piano(w, h, rng):
    s = surf(w, h)
    shadow(s, 2, 25, w - 4, 7)
    box(s, 2, 1, w - 4, 26, 10, (40, 36, 44))
    rect(s, 4, 12, w - 8, 7, (250, 250, 246))
    for x in range(5, w - 5, 4):
        rect(s, x + 3, 12, 1, 7, (150, 150, 150))
        if (x // 4) % 7 not in (2, 6):
            rect(s, x + 2, 12, 2, 4, (30, 30, 36))
    rect(s, 6, 3, 10, 6, (250, 250, 240)); rect(s, 7, 5, 8, 1, (120, 120, 120))  # sheet music
    rect(s, 6, 27, 3, 4, (40, 36, 44)); rect(s, w - 9, 27, 3, 4, (40, 36, 44))
    return s


def guitar(w, h, rng):
    s = surf(w, h)
    shadow(s, 8, 26, 16, 5)
    rect(s, 15, 2, 3, 14, (110, 70, 44)); rect(s, 14, 0, 5, 3, (70, 50, 40))
    for y in (5, 9, 13):
        rect(s, 15, y, 3, 1, (220, 210, 180))
    body = (214, 140, 60)
    circle(s, body, (16, 19), 6); circle(s, body, (16, 25), 7)
    circle(s, (60, 40, 30), (16, 20), 2)
    rect(s, 14, 26, 5, 1, (60, 40, 30))
    circle(s, shade(body, 1.2), (13, 22), 2)
    return outline(s)


def bookshelf(w, h, rng):
    s = surf(w, h)
    box(s, 1, 0, w - 2, h - 1, 3, DARK_WOOD)
    for y0 in (4, 13, 22):
        rect(s, 3, y0, w - 6, 8, (70, 48, 34))
        x = 3
        while x < w - 4:
            bw = rng.choice([2, 2, 3])
            bh = rng.randrange(5, 8)
            c = rng.choice([(190, 60, 60), (60, 110, 180), (70, 150, 90), (220, 180, 70), (140, 90, 160), (230, 230, 220)])
            rect(s, x, y0 + 8 - bh, bw, bh, c); px(s, x, y0 + 8 - bh, shade(c, 1.3))
            x += bw + (1 if rng.random() < 0.2 else 0)
        rect(s, 2, y0 + 8, w - 4, 1, WOOD)
    return s


def reading_desk(w, h, rng):
    s = surf(w, h)
    shadow(s, 2, 25, w - 4, 6)
    box(s, 2, 7, w - 4, 19, 10, (140, 96, 60))
    rect(s, 8, 10, 12, 7, (250, 248, 236)); rect(s, 13, 10, 1, 7, (190, 180, 160))
    rect(s, 40, 7, 2, 8, (60, 90, 60)); ellipse(s, (70, 150, 80), (35, 3, 12, 7))  # green lamp
    rect(s, 26, 11, 8, 5, (190, 60, 60))
    return s


def cafe_counter(w, h, rng):
    s = surf(w, h)
    box(s, 0, 5, w, 26, 10, (150, 96, 62), top=(226, 214, 196))
    for x in range(3, w - 3, 6):
        rect(s, x, 17, 4, 12, shade((150, 96, 62), 0.85))
    rect(s, 6, 6, 7, 8, (250, 240, 220)); circle(s, (200, 120, 70), (9, 8), 3)  # cake dome
    rect(s, 44, 7, 5, 6, WHITE); rect(s, 45, 8, 3, 2, (110, 70, 40))  # cup
    return s


def coffee_machine(w, h, rng):
    s = surf(w, h)
    box(s, 1, 14, w - 2, 17, 6, (150, 96, 62), top=(226, 214, 196))
    box(s, 7, 0, 18, 18, 4, (70, 70, 80))
    rect(s, 10, 8, 12, 3, (190, 190, 200)); rect(s, 14, 11, 4, 3, (40, 40, 40))
    rect(s, 13, 15, 6, 4, WHITE)
    px(s, 10, 5, (240, 80, 70)); px(s, 13, 5, (90, 220, 110))
    return s


def register(w, h, rng):
    s = surf(w, h)
    box(s, 1, 14, w - 2, 17, 6, (150, 96, 62), top=(226, 214, 196))
    box(s, 6, 4, 20, 14, 5, (80, 84, 96))
    rect(s, 9, 1, 10, 5, (120, 220, 140)); rect(s, 9, 1, 10, 1, INK)
    for x in range(9, 24, 4):
        for y in (11, 14):
            rect(s, x, y, 2, 2, (200, 200, 210))
    return s


def shop_shelf(w, h, rng):
    s = surf(w, h)
    box(s, 1, 0, w - 2, h - 1, 3, (150, 156, 168))
    for y0 in (4, 13, 22):
        rect(s, 3, y0, w - 6, 8, (96, 100, 112))
        x = 4
        while x < w - 6:
            c = rng.choice([(230, 80, 70), (250, 200, 70), (90, 170, 90), (240, 150, 60), (120, 140, 220), (240, 240, 240)])
            kind = rng.random()
            if kind < 0.4:
                circle(s, c, (x + 2, y0 + 5), 2)
            else:
                rect(s, x, y0 + 2, 4, 6, c); rect(s, x, y0 + 2, 4, 1, shade(c, 1.3))
            x += 5
        rect(s, 2, y0 + 8, w - 4, 1, (200, 204, 214))
    return s


def shop_counter(w, h, rng):
    s = surf(w, h)
    box(s, 0, 5, w, 26, 10, (120, 140, 170), top=(214, 218, 224))
    rect(s, 4, 7, 10, 6, (240, 200, 120)); rect(s, 5, 8, 8, 1, (200, 150, 80))  # bread
    circle(s, (230, 80, 70), (24, 10), 3); circle(s, (250, 200, 70), (30, 10), 3)
    rect(s, 4, 19, w - 8, 2, (250, 250, 250))
    return s


def bench(w, h, rng):
    s = surf(w, h)
    shadow(s, 2, 24, w - 4, 7)
    wood = (186, 130, 80)
    for i, y in enumerate((6, 10)):
        rect(s, 3, y, w - 6, 3, shade(wood, 0.85 + 0.1 * i))
    for i, y in enumerate((15, 18, 21)):
        rect(s, 2, y, w - 4, 3, shade(wood, 1.05 - 0.05 * i))
    for x in (5, w - 8):
        rect(s, x, 4, 3, 24, (70, 70, 80))
    return outline(s)


def fountain(w, h, rng):
    s = surf(w, h)
    shadow(s, 2, 44, w - 4, 16, 80)
    stone = (190, 186, 176)
    ellipse(s, shade(stone, 0.8), (2, 18, w - 4, 40))
    ellipse(s, stone, (2, 14, w - 4, 40))
    ellipse(s, (80, 160, 210), (8, 20, w - 16, 28))
    ellipse(s, (120, 190, 230), (14, 24, w - 28, 16))
    rect(s, 28, 12, 8, 22, shade(stone, 0.9)); rect(s, 28, 12, 3, 22, shade(stone, 1.1))
    ellipse(s, stone, (20, 8, 24, 10)); ellipse(s, (120, 190, 230), (23, 9, 18, 6))
    for x, y in ((31, 2), (32, 4), (29, 6), (35, 6), (26, 10), (38, 10)):
        px(s, x, y, (220, 240, 255)); px(s, x, y + 1, (170, 220, 250))
    for _ in range(10):
        px(s, rng.randrange(14, 50), rng.randrange(26, 42), (220, 240, 255))
    return outline(s)


def swing(w, h, rng):
    s = surf(w, h)
    shadow(s, 2, 26, w - 4, 6)
    frame = (170, 60, 50)
    rect(s, 2, 0, w - 4, 3, frame); rect(s, 2, 0, 3, 30, frame); rect(s, w - 5, 0, 3, 30, frame)
    for cx in (w // 3, 2 * w // 3):
        rect(s, cx - 5, 3, 1, 17, (90, 80, 70)); rect(s, cx + 4, 3, 1, 17, (90, 80, 70))
        box(s, cx - 6, 19, 12, 5, 2, (220, 180, 90))
    return outline(s)


def easel(w, h, rng):
    s = surf(w, h)
    shadow(s, 6, 26, 20, 5)
    line(s, DARK_WOOD, (9, 30), (15, 2)); line(s, DARK_WOOD, (23, 30), (17, 2)); line(s, DARK_WOOD, (16, 4), (16, 30))
    box(s, 6, 4, 20, 16, 0, (250, 248, 240), rim=False)
    rect(s, 8, 12, 16, 6, (110, 170, 100)); rect(s, 8, 6, 16, 6, (150, 200, 240))
    circle(s, (250, 210, 80), (20, 9), 2)
    rect(s, 6, 20, 20, 2, WOOD)
    return outline(s)


def blackboard(w, h, rng):
    s = surf(w, h)
    box(s, 1, 0, w - 2, 24, 0, DARK_WOOD, rim=False)
    rect(s, 3, 2, w - 6, 19, (44, 86, 64))
    for y, x0, x1 in ((6, 6, 30), (10, 6, 40), (14, 6, 24)):
        rect(s, x0, y, x1 - x0, 1, (220, 230, 220))
    rect(s, 44, 5, 12, 10, (44, 86, 64)); circle(s, (220, 230, 220), (50, 10), 4, 1)
    rect(s, 3, 22, w - 6, 3, WOOD); rect(s, 10, 21, 4, 1, WHITE)
    rect(s, 6, 25, 2, 6, DARK_WOOD); rect(s, w - 8, 25, 2, 6, DARK_WOOD)
    return s


def school_desk(w, h, rng):
    s = surf(w, h)
    shadow(s, 4, 24, 24, 6)
    box(s, 5, 3, 22, 11, 6, (190, 150, 100))
    rect(s, 8, 4, 6, 4, WHITE)
    rect(s, 7, 14, 2, 5, (90, 90, 100)); rect(s, 23, 14, 2, 5, (90, 90, 100))
    box(s, 9, 19, 14, 7, 3, (90, 130, 180))  # chair
    rect(s, 10, 26, 2, 4, (90, 90, 100)); rect(s, 20, 26, 2, 4, (90, 90, 100))
    return s


def wardrobe(w, h, rng):
    s = surf(w, h)
    box(s, 2, 0, w - 4, h - 1, 4, (140, 94, 60))
    rect(s, 16, 5, 1, h - 7, (90, 60, 40))
    rect(s, 13, 14, 2, 4, (230, 200, 110)); rect(s, 18, 14, 2, 4, (230, 200, 110))
    rect(s, 5, 7, 8, 20, shade((140, 94, 60), 1.08)); rect(s, 20, 7, 8, 20, shade((140, 94, 60), 1.08))
    return s


def plant(w, h, rng):
    s = surf(w, h)
    shadow(s, 8, 26, 16, 5)
    box(s, 10, 18, 12, 11, 3, (190, 100, 70))
    leaf = (70, 150, 70)
    for (x, y, r) in ((16, 10, 6), (11, 13, 5), (21, 13, 5), (16, 5, 4)):
        circle(s, leaf, (x, y), r); circle(s, shade(leaf, 1.25), (x - 1, y - 2), 2)
    return outline(s)


def water_cooler(w, h, rng):
    s = surf(w, h)
    shadow(s, 8, 26, 16, 5)
    box(s, 9, 14, 14, 15, 3, (220, 222, 228))
    rect(s, 10, 1, 12, 13, (140, 200, 240)); rect(s, 11, 2, 3, 10, (200, 236, 252))
    rect(s, 14, 18, 4, 2, (80, 120, 200)); rect(s, 14, 21, 4, 2, (200, 80, 80))
    return outline(s)


def picnic_table(w, h, rng):
    s = surf(w, h)
    shadow(s, 2, 22, w - 4, 10)
    wood = (176, 126, 80)
    rect(s, 4, 2, w - 8, 4, shade(wood, 0.9))  # back bench
    box(s, 2, 7, w - 4, 14, 9, wood)
    for x in range(8, w - 4, 8):
        rect(s, x, 8, 1, 8, shade(wood, 0.8))
    rect(s, 4, 24, w - 8, 4, shade(wood, 0.9))
    rect(s, 12, 8, 8, 6, (220, 80, 80)); rect(s, 12, 10, 8, 1, WHITE)  # checked cloth bit
    rect(s, 40, 9, 6, 4, (250, 220, 140))
    return s


DRAWERS = {
    "bed": bed, "stove": stove, "fridge": fridge, "kitchen_sink": kitchen_sink, "shower": shower,
    "toilet": toilet, "sink": sink, "sofa": sofa, "armchair": armchair, "chair": chair,
    "dining_table": dining_table, "tv": tv, "desk": desk, "computer": computer, "piano": piano,
    "guitar": guitar, "bookshelf": bookshelf, "reading_desk": reading_desk, "cafe_counter": cafe_counter,
    "coffee_machine": coffee_machine, "register": register, "shop_shelf": shop_shelf,
    "shop_counter": shop_counter, "bench": bench, "fountain": fountain, "swing": swing, "easel": easel,
    "blackboard": blackboard, "school_desk": school_desk, "wardrobe": wardrobe, "plant": plant,
    "water_cooler": water_cooler, "picnic_table": picnic_table,
}


def draw_object(type_id: str, size: tuple[int, int], seed: int) -> pygame.Surface:
    if type_id not in DRAWERS:
        raise KeyError(f"no sprite drawer for object type '{type_id}'; add one to assets/art/furniture.py")
    rng = random.Random(f"{seed}:{type_id}")
    return DRAWERS[type_id](size[0] * 32, size[1] * 32, rng)
