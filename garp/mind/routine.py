"""A persona's own day, read from its routine and lifestyle (issue 18: plans that fit the persona).

Personas say their day in words: "Cafe kitchen from six to three, market shopping, a quiet
evening", "wakes at six for the cafe, naps after lunch", "in bed by ten". This module turns
that into timed activities (word hours, ranges, "until", parts of the day, wake and bed
times, meals someone skips or takes late), so the day plan code offers the model, and the
one it falls back on, is that character's day and not one template for everybody.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# --- tunables -------------------------------------------------------------------------------
WAKE_DEFAULT_H, BED_DEFAULT_H = 7.0, 23.0
LATEST_BED_H = 23.5          # a day plan ends within the day: "after midnight" sleeps at 23:30
UNTIMED_BLOCK_H = 2.0        # an untimed clause after a timed one starts this long after it
WORK_BLOCK_H = 7.5           # an untimed work clause ("School, then ...") lasts this long
# words that place an untimed clause, most specific first: (word, hour)
PARTS = (("after dinner", 20.0), ("after lunch", 13.5), ("after school", 15.5), ("early supper", 17.5),
         ("late dinner", 20.5), ("late morning", 10.5), ("mid-afternoon", 15.0), ("early evening", 17.5),
         ("breakfast", 7.5), ("lunch", 12.5), ("sandwich", 12.5), ("dinner", 19.0), ("supper", 19.0),
         ("afternoon", 14.0), ("evening", 18.5), ("morning", 8.5), ("night", 21.0))
_NUMBERS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
            "ten": 10, "eleven": 11, "twelve": 12, "noon": 12, "midday": 12, "midnight": 24}
_HOUR = r"(?:half past |quarter past |quarter to )?(?:\d{1,2}(?::\d\d)?|" + "|".join(_NUMBERS) + r")(?:\s*(?:am|pm))?"
_RANGE = re.compile(rf"\bfrom ({_HOUR}) (?:to|till|until) ({_HOUR})\b", re.I)
_UNTIL = re.compile(rf"\b(?:until|till) ({_HOUR}|mid-afternoon|lunch|the evening)\b", re.I)
_AT = re.compile(rf"\b(?:at|by|around|before|after) ({_HOUR})\b|^\s*(\d{{1,2}}:\d\d)\b", re.I)
_WORK = re.compile(r"\b(work|shift|office|kitchen|shop|school|library|lectures|lessons|surgery|clinic)\b", re.I)
_EVENING_WORDS = re.compile(r"\b(dinner|supper|bed|asleep|sleep|evening|night|tonight|late)\b", re.I)
_MORNING_WORDS = re.compile(r"\b(wake|wakes|up|rise|rises|riser|breakfast|morning|start|starts|opens)\b", re.I)


@dataclass(frozen=True)
class Block:
    """One timed stretch of a persona's day: hours since midnight, what, and whether it is work."""

    start_h: float
    end_h: float | None
    what: str
    work: bool


def word_hour(text: str, evening: bool = False, morning: bool = False) -> float | None:
    """"half past six" -> 6.5 (18.5 with `evening`), "9:30" -> 9.5, "noon" -> 12; None if no hour."""
    t = text.lower().strip()
    m = re.match(r"(half past |quarter past |quarter to )?(\d{1,2}(?::\d\d)?|[a-z]+)\s*(am|pm)?$", t)
    if not m:
        return None
    word = m.group(2)
    if word in _NUMBERS:
        h = float(_NUMBERS[word])
    elif word[0].isdigit():
        hh, _, mm = word.partition(":")
        h = int(hh) + (int(mm) / 60 if mm else 0.0)
    else:
        return None
    h += {"half past ": 0.5, "quarter past ": 0.25, "quarter to ": -0.25}.get(m.group(1) or "", 0.0)
    if m.group(3) == "pm" and h < 12 or (evening and h < 12 and not morning):
        h += 12
    return h


def _clock(text: str, context: str) -> float | None:
    """A bare hour in its clause's context: morning words keep it before noon, evening words after."""
    evening, morning = bool(_EVENING_WORDS.search(context)), bool(_MORNING_WORDS.search(context))
    h = word_hour(text, evening=evening, morning=morning)
    if h is not None and not evening and not morning and h < 7 and ":" not in text:
        h += 12  # "tea at four" is the afternoon
    return h


def wake_hour(lifestyle: str) -> float:
    low = lifestyle.lower()
    if re.search(r"up with the birds|before dawn", low):
        return 5.5
    m = re.search(rf"\b(?:wakes|up|rises|gets up)(?: early)?(?: sharp)? (?:at|around) ({_HOUR})", low)
    if m:
        return word_hour(m.group(1), morning=True) or WAKE_DEFAULT_H
    if re.search(r"early riser|wakes early|rises early", low):
        return 6.0
    if re.search(r"hard to wake|sleeps in|night owl", low):
        return 8.5
    return WAKE_DEFAULT_H


def bed_hour(lifestyle: str) -> float:
    low = lifestyle.lower()
    m = re.search(rf"\b(?:in bed|asleep|to bed) by ({_HOUR})", low)
    if m:
        return min(LATEST_BED_H, word_hour(m.group(1), evening=True) or BED_DEFAULT_H)
    if re.search(r"after midnight|goes to bed late|stays up|night owl|far too late|under the covers", low):
        return LATEST_BED_H
    return BED_DEFAULT_H


def _what(clause: str) -> str:
    """The clause without its time words: "Cafe kitchen from six to three" -> "cafe kitchen"."""
    text = _RANGE.sub("", clause)
    text = _UNTIL.sub("", text)
    text = _AT.sub("", text)
    text = re.sub(r"\b(in the|during the|all|every)\s+((early|late) )?(morning|afternoon|evening|day|night)\b", "",
                  text, flags=re.I)
    text = re.sub(r"^\s*(then|and|or)\s+", "", text.strip(" ,.;"), flags=re.I)
    return " ".join(text.split()).strip(" ,.;")


def _part_of_day(clause: str) -> float | None:
    low = clause.lower()
    return next((h for word, h in PARTS if re.search(rf"\b{word}s?\b", low)), None)


def blocks(routine: str, wake_h: float, has_work: bool = True) -> list[Block]:
    """The routine's clauses in order, each with the hour it starts (and ends, for a range); the
    first clause that names work (only for someone with a workplace) is the working day."""
    out: list[Block] = []
    for clause in re.split(r"[,;.]\s*|\bthen\b", routine):
        if clause.strip().lower().startswith("or "):
            continue  # an alternative to the clause before it (`alternatives`), not the next thing done
        what = _what(clause)
        if len(what) < 3:
            continue
        start, end = None, None
        if m := _RANGE.search(clause):
            start = word_hour(m.group(1), morning=True)
            end = word_hour(m.group(2))
            if start is not None and start < 5:
                start += 12
            if start is not None and end is not None and end <= start:
                end += 12
        elif m := _UNTIL.search(clause):
            start = out[-1].end_h if out and out[-1].end_h else wake_h + 1.0
            end = _clock(m.group(1), "afternoon") if word_hour(m.group(1)) is not None else _part_of_day(m.group(1))
        elif m := _AT.search(clause):
            start = _clock(m.group(1) or m.group(2), clause)
        if start is None:
            start = _part_of_day(clause)
        if start is None:
            start = max(b.end_h or b.start_h + UNTIMED_BLOCK_H for b in out) if out else wake_h + 1.0
        work = has_work and not any(b.work for b in out) and bool(_WORK.search(clause))
        if work and end is None:
            end = start + WORK_BLOCK_H
        out.append(Block(start, end, _cap(what), work))
    return sorted(out, key=lambda b: b.start_h)


def work_ends_h(routine: str, lifestyle: str) -> float | None:
    """The hour the routine's working day ends (a friend knows when someone is free); None without one."""
    return next((b.end_h for b in blocks(routine, wake_hour(lifestyle)) if b.work and b.end_h), None)


def work_end_times(personas: dict) -> dict[str, float]:
    """name -> seconds of the day its working day ends, for those whose routine has one."""
    ends = {n: work_ends_h(p.routine, p.lifestyle) for n, p in personas.items()}
    return {n: h * 3600.0 for n, h in ends.items() if h is not None}


def alternatives(routine: str) -> list[str]:
    """Clauses the routine offers as another choice ("..., or a walk"): material for plan variants."""
    return [_cap(_what(c[3:])) for c in re.split(r"[,;.]\s*", routine) if c.strip().lower().startswith("or ")]


def _cap(what: str, limit: int = 48) -> str:
    """Lower-case start, cut between words to fit an activity field."""
    text = what[:1].lower() + what[1:] if what[:2] not in ("I ",) and not what[1:2].isupper() else what
    if len(text) <= limit:
        return text
    words = text[:limit].rsplit(" ", 1)[0].split()
    while words and words[-1].lower() in ("and", "or", "for", "to", "with", "the", "a", "of", "at", "in"):
        words.pop()
    return " ".join(words)


@dataclass(frozen=True)
class DayItem:
    hour: float
    what: str
    place: str


LUNCH_END_H = 13.5  # a lunch inside the working day is an hour: work resumes after it
DINNER_H = 1.0      # an added dinner lasts this long: the evening goes on after it
MEAL_WORDS = re.compile(r"\b(dinner|supper|cook|cooking|meal|eats)\b", re.I)


_SKIPS = re.compile(r"\bskips? (breakfast|lunch|dinner|supper)\b(?! (?:on|when|if|at)\b)", re.I)


def skipped_meals(lifestyle: str) -> frozenset[str]:
    """The meals a lifestyle says the character skips ("skips breakfast"): no plan puts them back. One skipped
    only at times ("skips lunch on busy days") is had."""
    return frozenset("dinner" if m.lower() == "supper" else m.lower() for m in _SKIPS.findall(lifestyle))


def persona_day(routine: str, lifestyle: str, *, home: str, workplace: str | None,
                place_of) -> tuple[list[DayItem], list[tuple[float, float]]]:
    """The persona's day as items (wake, the routine's clauses, meals it does not skip, sleep) and
    the hour ranges its routine fills; `place_of(text)` names a known place a text mentions, or None."""
    wake = wake_hour(lifestyle)
    bs = blocks(routine, wake, has_work=bool(workplace))
    low, skipped = lifestyle.lower(), skipped_meals(lifestyle)
    items = []
    if not (bs and re.search(r"\b(wake|get up|breakfast)\b", bs[0].what, re.I)):  # the routine's own waking
        wake = min([wake] + [b.start_h - 0.5 for b in bs[:1]])
        items.append(DayItem(wake, "wake up and get ready" if "breakfast" in skipped else
                             "wake up and have breakfast", home))
    work_hours = [(b.start_h, b.end_h) for b in bs if b.work and b.end_h]

    def where(b: Block) -> str:
        during_work = any(lo < b.start_h < hi for lo, hi in work_hours)  # "a sandwich at his desk"
        return place_of(b.what) or (workplace if (b.work or during_work) and workplace else home)
    for b in bs:
        items.append(DayItem(b.start_h, _label(b), where(b)))
        if b.end_h is not None and not any(0 < o.start_h - b.end_h < 1.0 or o.start_h == b.end_h for o in bs):
            items.append(DayItem(b.end_h, "free time", home))
    if "lunch" not in skipped:
        at_work = next((b for b in bs if b.work and b.end_h and b.start_h < 12.5 < b.end_h), None)
        items.append(DayItem(12.5, "have lunch", where(at_work) if at_work else home))
        if at_work and at_work.end_h >= LUNCH_END_H + 0.5:  # the working day goes on after lunch
            items.append(DayItem(LUNCH_END_H, _label(at_work), where(at_work)))
    if not any(MEAL_WORDS.search(b.what) for b in bs):
        dinner_h = 20.5 if re.search(r"eats late|late dinner", low) else 19.0
        items += _dinner(bs, dinner_h, bed_hour(lifestyle), home, where)
    items.append(DayItem(bed_hour(lifestyle), "sleep", home))
    ranges = [(b.start_h, b.end_h) for b in bs if b.end_h is not None]
    return _spaced(items), ranges


def _dinner(bs: list[Block], at_h: float, bed_h: float, home: str, where) -> list[DayItem]:
    """Dinner, an hour long: then the evening clause it broke into goes on ("evenings composing" from
    18:30 resumes at 20:00), or free time, unless the routine has its next thing by then."""
    after = at_h + DINNER_H
    if after > bed_h - 0.5 or any(at_h < b.start_h <= after + 0.5 for b in bs):
        return [DayItem(at_h, "have dinner", home)]
    last = max((b for b in bs if b.start_h < at_h), key=lambda b: b.start_h, default=None)
    if last is None or last.work or (last.end_h is not None and last.end_h <= at_h):
        return [DayItem(at_h, "have dinner", home), DayItem(after, "free time", home)]
    return [DayItem(at_h, "have dinner", home), DayItem(after, _label(last), where(last))]


def _label(b: Block) -> str:
    """A routine clause as a plan item: a bare "Office" of the working day is "work"."""
    words = b.what.split()
    return "work" if b.work and all(w[:1].isupper() for w in words[1:]) else b.what  # "town Office" too


def _spaced(items: list[DayItem]) -> list[DayItem]:
    """Time order, at most one item per half hour (the routine's own clause wins over a meal)."""
    out: list[DayItem] = []
    for item in sorted(items, key=lambda i: (i.hour, i.what in ("have lunch", "have dinner", "free time"))):
        if 0 <= item.hour < 24 and all(abs(item.hour - o.hour) >= 0.5 for o in out):
            out.append(item)
    return out
