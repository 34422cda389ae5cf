"""What a character did today, as it would tell an interviewer.

Memories hold what a character noticed, said and thought; no memory says "I had breakfast at the
dining table", so "What did you have for breakfast?" needs the day's doings. The main thread logs
every use of an object (`action_start` / `action_end`, with the object's name) and every arrival;
`day_so_far` reads them back into immutable `Done` values, which the main thread (or the terminal
interview, from a run's log) hands the interview (garp.mind.interview turns them into sources), and
`said` words one in the first person.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
import re
from typing import Any, Iterable

from garp.mind.commitments import hhmm
from garp.mind.plan_repair import MEALS as MEAL_TIMES
from garp.textclean import listed, with_article
from garp.units import DAY_S

GO = "go"  # the verb of an arrival somewhere new
DAY_EVENTS = ("arrive", "action_start", "action_end")  # the log's kinds `day_so_far` reads
SKIPPED_VERBS = frozenset(("use toilet",))  # nobody tells an interviewer that
# verb -> the past-tense phrase; {o} is the object with its article, {meal} the meal of that hour, {cooked} the
# meal a cook begun then is for ("" when none is near)
PAST_PHRASES = {
    "attend": "attended class at {o}", "browse": "browsed {o}", "brush teeth": "brushed my teeth",
    "buy": "bought something at {o}", "change": "got changed", "chat": "chatted on {o}", "clean": "cleaned {o}",
    "clear": "cleared {o}", "cook": "cooked {cooked} at {o}", "drink": "had a drink at {o}", "eat": "had {meal} at {o}",
    "make coffee": "made coffee at {o}", "make the bed": "made {o}", "nap": "had a nap on {o}",
    "order": "ordered at {o}", "paint": "painted at {o}", "pay": "paid at {o}", "picnic": "had a picnic at {o}",
    "play": "played {o}", "practice": "practised on {o}", "read": "read by {o}", "relax": "relaxed on {o}",
    "restock": "restocked {o}", "serve": "served at {o}", "shop": "shopped at {o}", "shower": "had a shower",
    "sit": "sat on {o}", "sleep": "slept in {o}", "snack": "had a snack from {o}", "study": "studied at {o}",
    "swing": "went on {o}", "teach": "taught at {o}", "wash": "washed at {o}", "wash dishes": "washed the dishes",
    "watch": "watched {o}", "water": "watered {o}", "wish": "made a wish at {o}", "work": "worked at {o}",
    "work register": "worked at {o}", "write": "wrote at {o}", GO: "went to {o}",
}
MEALS = ((4.0, 10.5, "breakfast"), (10.5, 15.0, "lunch"), (17.0, 23.0, "dinner"))  # hours of the day
LONG_S = 1800.0  # a use this long is told with its end ("from 06:00 to 08:30")
MERGE_S = 1800.0  # the same use started again this soon after it ended is one use (a nap resumed)
# a character who came into the world by this hour of the day began its day there (the town opens at 06:00, when
# its day plans end the night): the log holds all its waking day; one placed mid-morning had a morning off-screen
WORLD_MORNING_S = 7 * 3600.0


@dataclass(frozen=True)
class Done:
    """One thing done: a use of an object (its verb and name) or an arrival (verb GO, the place)."""

    start: float
    end: float | None  # None while it goes on
    verb: str
    thing: str
    place: str


def day_so_far(events: Iterable[dict[str, Any]], agent: str, now: float) -> tuple[Done, ...]:
    """`agent`'s uses and arrivals since today's midnight, in order, from the event log. A use ends at its
    `action_end` or when the next thing starts; the same use resumed soon after is one."""
    midnight = now - now % DAY_S
    done: list[Done] = []
    here, overnight = "", None  # overnight: the use under way at midnight (the night's sleep) opens the day
    for e in events:
        if e.get("agent") != agent or e["t"] > now:
            continue
        if e["t"] < midnight:  # an arrival before midnight still says where the day began
            here = e.get("place", here) if e["kind"] == "arrive" else here
            overnight = _started(e, here) if e["kind"] == "action_start" else None  # an end or a walk ends it
            continue
        if overnight is not None:
            done.append(replace(overnight, start=midnight))
            overnight = None
        if e["kind"] == "action_end" and done and done[-1].end is None and done[-1].verb == e["verb"]:
            done[-1] = replace(done[-1], end=e["t"])
        elif e["kind"] in ("action_start", "arrive"):
            new = _started(e, here)
            here = e.get("place", here) if e["kind"] == "arrive" else here
            if new is not None:
                _add(done, new)
    if overnight is not None:  # nothing since midnight: the use goes on
        done.append(replace(overnight, start=midnight))
    return tuple(done)


def _started(e: dict[str, Any], here: str) -> Done | None:
    if e["kind"] == "arrive":
        return Done(e["t"], e["t"], GO, e["place"], e["place"]) if here and e["place"] != here else None
    if e["verb"] in SKIPPED_VERBS:
        return None
    return Done(e["t"], None, e["verb"], e.get("name") or object_name(e["object"]), e.get("place", ""))


def _add(done: list[Done], new: Done) -> None:
    last = done[-1] if done else None
    if last is not None and last.end is None:  # the earlier use ended when this began
        last = done[-1] = replace(last, end=new.start)
    if last is not None and (last.verb, last.thing) == (new.verb, new.thing) and new.start - last.end <= MERGE_S:
        done[-1] = replace(last, end=new.end)
    else:
        done.append(new)


def object_name(object_id: str) -> str:
    """A readable name from an object id, for logs written before uses carried the name:
    "noors-house/dining-table-2" -> "dining table"."""
    return re.sub(r"-\d+$", "", object_id.rsplit("/", 1)[-1]).replace("-", " ")


COOK_LEAD_S = 90 * 60.0  # cooking begun this long before a meal's usual start...
COOK_LATE_S = 60 * 60.0  # ...or this long after it is cooking that meal


def cooked_meal(t: float) -> str:
    """The meal cooking begun at `t` is for, "" when none is near (a morning's baking from 08:38 to noon was
    told as "cooking breakfast")."""
    now = t % DAY_S
    near = (meal for meal, (_, _, usual, _) in MEAL_TIMES.items() if usual - COOK_LEAD_S <= now < usual + COOK_LATE_S)
    return next(near, "")


def meal_at(t: float) -> str:
    hour = (t % DAY_S) / 3600.0
    return next((meal for lo, hi, meal in MEALS if lo <= hour < hi), "something to eat")


def said(d: Done, name: str, home: str, day: str = "") -> str:
    """One thing done as its doer tells it: "From 06:00 to 08:30 I slept in my bed at home."; `day` names
    another day than today ("Yesterday at 19:05 I had dinner at the dining table at home.")."""
    if d.end is not None and d.end - d.start >= LONG_S:
        text = f"from {hhmm(d.start)} to {hhmm(d.end)} I {phrase(d, name, home)}."
    else:
        text = f"at {hhmm(d.start)} I {phrase(d, name, home)}."
    return f"{day} {text}" if day else text[:1].upper() + text[1:]


def day_before(events: Iterable[dict[str, Any]], agent: str, now: float) -> tuple[Done, ...]:
    """`agent`'s uses and arrivals of the day before the one `now` falls in."""
    return day_so_far(events, agent, now - now % DAY_S - 0.001)


def told(done: list[Done], name: str, home: str, when: str, here: str = "") -> str:
    """Several things done in one sentence: "This morning I slept in my bed at home, had breakfast at the
    dining table and worked at the desk at Corner Shop." (a place is named once in a row; `here`, where the
    teller is, is never named: "... and came here.")."""
    parts = ["came here" if here and d.verb == GO and d.thing == here
             else phrase(d, name, home, with_place=d.place != here and (i == 0 or d.place != done[i - 1].place))
             for i, d in enumerate(done)]
    return f"{when} I {listed(parts)}."


def phrase(d: Done, name: str, home: str, with_place: bool = True) -> str:
    """What was done, in the past tense: "slept in my bed at home", "went to Hobbs Cafe"."""
    thing = d.thing.replace(f"{name}'s ", "my ")
    template = PAST_PHRASES.get(d.verb, "used {o}")
    if d.verb == "nap" and "bed" in thing:
        template = template.replace(" on ", " in ")
    what = " ".join(template.format(o=with_article(thing) if d.verb != GO else ("home" if d.thing == home else d.thing),
                                    meal=meal_at(d.start), cooked=cooked_meal(d.start)).split())
    if d.verb == GO or not with_place or not d.place or d.place in thing:
        return what
    return what + (" at home" if d.place == home else f" at {d.place}")


EAT_VERBS = ("eat", "picnic")  # a use that is having a meal (cooking one may be for others)
_ING = {"slept": "sleeping", "had": "having", "went": "going", "made": "making", "read": "reading", "sat": "sitting",
        "taught": "teaching", "wrote": "writing", "bought": "buying", "got": "getting", "paid": "paying",
        "studied": "studying"}
_NAMED_USE = re.compile(r"^[^(]+\((?P<name>[^()]+)\)")  # an activity's description: "nap (Ren's bed) for ..."


def meals_had(done: tuple[Done, ...]) -> set[str]:
    """The meals eaten today, named by their hour ("breakfast", "lunch", "dinner")."""
    return {meal_at(d.start) for d in done if d.verb in EAT_VERBS}


def covers(done: tuple[Done, ...], t: float, began: float | None = None) -> bool:
    """Whether the record tells the day from `t` on: it opens with the night's sleep (nothing was done
    before it) or its first thing started by then, or the character came into the world (`began`, its first
    logged event: `arrived_at`) that day by WORLD_MORNING_S, so its whole waking day is in the log. A scene
    that opened mid-morning does not know breakfast."""
    woke_in_world = began is not None and began // DAY_S == t // DAY_S and began % DAY_S <= WORLD_MORNING_S
    return woke_in_world or (bool(done) and (done[0].verb == "sleep" or done[0].start <= t))


def arrived_at(events: Iterable[dict[str, Any]], agent: str) -> float | None:
    """When `agent` came into the world: the time of its first logged event (None before it has one)."""
    return next((float(e["t"]) for e in events if e.get("agent") == agent), None)


def woke_at(done: tuple[Done, ...]) -> float | None:
    """When the night's sleep ended: the end of the record's first sleep, if it opens the day."""
    first = done[0] if done else None
    return first.end if first is not None and first.verb == "sleep" else None


def progressive(d: Done, name: str, home: str, with_place: bool = True) -> str:
    """What is being done, as its doer says it now: "having a nap in my bed at home"."""
    done = phrase(d, name, home, with_place)
    verb, _, rest = done.partition(" ")
    ing = _ING.get(verb) or (verb[:-2] + "ing" if verb.endswith("ed") else verb)
    return f"{ing} {rest}".strip()


def doing_now(activity: Any) -> Done | None:
    """The use of an object an activity copy is (`garp.mind.agent.Activity`), as a thing being done."""
    if activity is None or activity.kind != "use" or not activity.verb or activity.verb in SKIPPED_VERBS:
        return None
    named = _NAMED_USE.match(activity.description or "")
    thing = named.group("name") if named else object_name(activity.object_id)
    return Done(activity.start_t, None, activity.verb, thing, activity.place)
