"""What a character can tell someone it meets about its day: what it is doing, what it did
earlier and what is next on its plan, as short first-person sentences (issue 18: lines built
in code from what the character knows, for the small model to rank).

Built on the cognition thread from immutable values: the day record the main thread read
from its log (`day_record.Done`) and the day plan the character remembers.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from garp.mind.commitments import hhmm, parse_hhmm
from garp.mind.day_record import GO, Done, progressive, told
from garp.mind.plan_repair import is_meal
from garp.mind.plan_tree import WAKING
from garp.units import DAY_S

# --- tunables ---------------------------------------------------------------------------
EARLIER_ITEMS = 2       # things done earlier today one line tells
SINCE_MIN_S = 20 * 60   # a use going on this long is told with its start ("since 09:00")
NOT_TOLD = frozenset(("sleep",))  # the night's sleep is nobody's news (nor a nap begun before midnight)
# told as done, never as what one is doing while talking ("Still having a nap in your bed?")
NOT_WHILE_TALKING = frozenset(("shower", "bathe", "bath", "wash", "nap"))
SOON_S = 45 * 60        # a next item starting within this is "not long now"
LONG_S = 60 * 60        # a use going on this long is "at it a while"
MEAL_NEWS_S = 60 * 60  # a meal further ahead than this is not told as what is next
NEXT_MIN_S = 5 * 60     # an item starting sooner than this is under way by the time the line is heard, not next


@dataclass(frozen=True)
class DayTalk:
    """The speaker's sentences about its day ("" where it has nothing to say) and what the
    listener is seen doing, as the speaker would name it to them ("reading at the bookshelf")."""

    now: str = ""
    earlier: str = ""
    next_up: str = ""
    listener_doing: str = ""

    def sentences(self) -> list[str]:
        return [s for s in (self.now, self.earlier, self.next_up) if s]


def _told(d: Done) -> bool:
    return d.verb not in NOT_TOLD and d.start % DAY_S > 0


def _current(done: tuple[Done, ...]) -> Done | None:
    """The use under way, if it is one a person would mention."""
    last = done[-1] if done else None
    if last is None or last.end is not None or last.verb == GO or last.verb in NOT_WHILE_TALKING or not _told(last):
        return None
    return last


def doing_line(done: tuple[Done, ...], name: str, home: str, t: float, here: str = "") -> str:
    """ "I've been cooking at the stove at Hobbs Cafe since 09:00." for a use under way (the place
    unsaid when it is `here`, where the two are talking)."""
    current = _current(done)
    if current is None:
        return ""
    what = progressive(current, name, home, with_place=current.place != here)
    if t - current.start >= SINCE_MIN_S:
        return f"I've been {what} since {hhmm(current.start)}."
    return f"I'm just {what}."


def earlier_line(done: tuple[Done, ...], name: str, home: str, here: str = "") -> str:
    """ "Earlier today I had breakfast at the dining table at home and went to Hobbs Cafe." ("came here"
    when said at Hobbs Cafe); nothing when the day so far was only getting here ("Earlier today I came here.")."""
    finished = [d for d in done if d.end is not None and _told(d)]
    if all(d.verb == GO for d in finished[-EARLIER_ITEMS:]):
        return ""
    return told(finished[-EARLIER_ITEMS:], name, home, "Earlier today", here)


def next_line(plan: list[tuple[str, float]], t: float) -> str:
    """ "Next on my list: guitar practice at 14:00." from the remembered plan (first person); a meal is
    nobody's news until it is near ("have lunch at 12:30" at 09:00 is passed over)."""
    now_s = t % DAY_S
    ahead = next(((WAKING.sub("", what), start) for what, start in plan if start >= now_s + NEXT_MIN_S
                  and not (is_meal(what) and start - now_s > MEAL_NEWS_S)), None)
    if ahead is None or not ahead[0]:
        return ""
    return f"Next on my list: {ahead[0]} at {hhmm(ahead[1])}."


def seen_doing(done: tuple[Done, ...], name: str) -> str:
    """What `name` is doing now, said to them: "reading at the bookshelf", "having a nap in your bed"."""
    current = _current(done)
    if current is None:
        return ""
    return progressive(current, name, "", with_place=False).replace("my ", "your ")


def day_talk(done: tuple[Done, ...], plan: list[tuple[str, float]], name: str, home: str, t: float,
             listener: str = "", listener_done: tuple[Done, ...] = (), here: str = "") -> DayTalk:
    return DayTalk(now=doing_line(done, name, home, t, here), earlier=earlier_line(done, name, home, here),
                   next_up=next_line(plan, t), listener_doing=seen_doing(listener_done, listener))


# The sentences above as the listener hears them, and what it may answer to each.
_HEARD_SINCE = re.compile(r"\bI've been .+? since (\d\d:\d\d)\.")
_HEARD_JUST = re.compile(r"\bI'm just .+?\.")
_HEARD_EARLIER = re.compile(r"\bEarlier today I .+?\.")
_HEARD_NEXT = re.compile(r"\bNext on my list: .+? at (\d\d:\d\d)\.")


def tells_day(line: str) -> bool:
    """`line` tells what its speaker is doing, did or does next (a sentence of this module)."""
    return any(p.search(line) for p in (_HEARD_SINCE, _HEARD_JUST, _HEARD_EARLIER, _HEARD_NEXT))


def part_of_day(t: float) -> str:
    hour = (t % DAY_S) / 3600
    return "morning" if hour < 12 else "afternoon" if hour < 18 else "evening"


# What one may answer to the other's day, by what was told ("{}": the time, the part of the day, its article)
_AT_IT_LONG = ("Since {}? You've been at it a while.", "No rest for you today, then.")
_AT_IT = ("Oh, don't let me keep you from it.", "Sorry to catch you in the middle of it.")
_FULL_DAY = ("Sounds like a full {}.", "You've had quite {} {} already.")
_SOON = ("Not long now, then.", "Oh, that's soon.")
_LATER = ("Sounds like a plan.", "A busy day ahead, then.")
_DAY_REPLY = re.compile("|".join(re.escape(t).replace(r"\{\}", r"[\w:]+")
                                 for t in _AT_IT_LONG + _AT_IT + _FULL_DAY + _SOON + _LATER))


def replies_to_day(line: str, t: float) -> list[str]:
    """What one may answer to the other's day as `line` told it at game time `t` ("Since 07:00? You've
    been at it a while."): a reply to what was said, where a stock "How so?" asks for what was told."""
    out: list[str] = []
    since = _HEARD_SINCE.search(line)
    if since and t % DAY_S - (parse_hhmm(since[1]) or 0.0) >= LONG_S:
        out += [_AT_IT_LONG[0].format(since[1]), *_AT_IT_LONG[1:]]
    elif since or _HEARD_JUST.search(line):
        out += _AT_IT
    if _HEARD_EARLIER.search(line):
        part = part_of_day(t)
        article = "an" if part[0] in "aeiou" else "a"  # "an afternoon", "an evening", "a morning"
        out += [_FULL_DAY[0].format(part), _FULL_DAY[1].format(article, part)]
    if ahead := _HEARD_NEXT.search(line):
        soon = (parse_hhmm(ahead[1]) or 0.0) - t % DAY_S <= SOON_S
        out += _SOON if soon else _LATER
    return out


def is_day_reply(line: str) -> bool:
    """`line` is one of `replies_to_day`'s answers: it tells nothing a follow-up could ask about."""
    return _DAY_REPLY.fullmatch(line.strip()) is not None


def and_mine(sentence: str) -> str:
    """One's own day told back after hearing the other's: "And I've been ...", "And next on my list: ..." """
    return "And " + (sentence if sentence.startswith("I") else sentence[:1].lower() + sentence[1:])
