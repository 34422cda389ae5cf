"""Reflection insights built in code for a small model to rank (issue 18: rank, don't generate).

Asked to write insights, the bundled 135M model wrote list numbers, copied chat lines and
fragments ("The most important: 3", "Ludwig, Oliver, Oliver, 18:00"). What it does well is
tell which of a few short statements fits the memories a focal question brought up. So the
statements are built here from those memories: who keeps coming up and how (a friend to
see more of, someone owed an apology, someone who let the owner down), the place the days
happen at, an event everyone talks about, the owner's own wishes and worries. Each names the
memories it rests on as its evidence, in the first person, so it can be said as a thought.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import NamedTuple

from garp.mind.commitments import word_overlap

# --- tunables ---------------------------------------------------------------------------
MAX_CANDIDATES = 8   # statements offered per question (one scoring pass scores them all)
PEOPLE_OFFERED = 2   # the people named most often get the general statements about a person
# code's utility by kind: what a memory says outright about the owner beats what code infers from counts
U_KIND = {"owed": 0.6, "wronged": 0.6, "wish": 0.55, "worry": 0.5, "event": 0.45, "glad": 0.4, "chat": 0.4,
          "person": 0.3, "place": 0.3, "chores": 0.3}
U_EVIDENCE = 0.1     # plus this at EVIDENCE_FULL memories or more
EVIDENCE_FULL = 3
U_QUESTION = 0.3     # plus this times the overlap of content words with the focal question

_PLACE = re.compile(r"\b(?:at|in) ((?:[A-Z][\w']*)(?: [A-Z][\w']*)*)")
_CHAT = re.compile(r"\btalked with\b|\bsaid:|\btold \w+:")
_OWED = re.compile(r"\b(sorry|apologi[sz]e\w*|missed|forgot|let \w+ down|broke my promise)\b", re.I)
_WRONGED = re.compile(r"\b(never showed|never came|let me down|lied to me|didn't come|forgot my|stood me up|"
                      r"took my|broke \w+ promise)\b", re.I)
_PLAN = re.compile(r"'s plan for \w+:")
_DIRTY = re.compile(r"noticed the .+? in (.+?) was dirty")
_WISH = re.compile(r"^I (?:really )?(?:want|would love|would like|need|hope|mean|must|should) to ([^.!?]{6,70})")
_WORRY = re.compile(r"\b(afraid|scared|worried|nervous|anxious|terrible|dread\w*|shak\w+|badly)\b", re.I)
_GLAD = re.compile(r"\b(love|lovely|bright|glad|pleased|happy|excited|proud|enjoy\w*|wonderful)\b", re.I)
_EVENT = re.compile(r"\b((?:birthday |dinner |jam |exhibition |garden )?"
                    r"(?:party|recital|exhibition|concert|session|opening|performance|festival|show))\b", re.I)


# What code concludes, by kind: "{}" is the person, place or event it is about
SAID = {"person": ("{} matters to me.", "I would like to spend more time with {}.", "I have been seeing a lot of {} lately."),
        "chat": ("I always enjoy a chat with {}.",), "owed": ("I need to make things right with {}.",),
        "wronged": ("I feel let down by {}.",), "place": ("I spend a lot of my time at {}.",),
        "chores": ("{} keeps getting messy and needs looking after.",), "wish": ("It matters to me to {}.",),
        "worry": ("Worry has been weighing on me lately.",), "glad": ("Small things have been making me happy lately.",),
        "event": ("The {} is very much on my mind.",)}
# said only to the one it is about, and only when the owner feels this warmly towards them (its sentiment; 0.15
# "likes", 0.5 "is very fond of"): counting who comes up in the memories made coworkers tell each other
# "You matter to me." every day
TOLD_ONLY_TO_THEM = {"person": 0.5, "chat": 0.15}
NEVER_TOLD = ("place", "chores", "glad")  # what the days are like: kept to oneself, not news to anyone
_SAID_RX = {kind: [re.compile("^" + re.escape(t).replace(r"\{\}", "(?P<who>.+?)") + "$") for t in ts]
            for kind, ts in SAID.items()}


def private_to(thought: str, listener: str, sentiment: float = 0.0) -> bool:
    """A conclusion of code's not to be said to `listener`, towards whom the owner has `sentiment`: about how
    the days are, about how the owner feels towards someone else ("Ludwig matters to me." said to Mika), or
    warmer than the owner feels towards the listener."""
    for kind in (*TOLD_ONLY_TO_THEM, *NEVER_TOLD):
        for rx in _SAID_RX[kind]:
            m = rx.match(thought.strip())
            if m and (kind in NEVER_TOLD or m.group("who") != listener or sentiment < TOLD_ONLY_TO_THEM[kind]):
                return True
    return False


def concluded(memory: str) -> bool:
    """`memory` is one of code's conclusions (a statement of `SAID`)."""
    return any(rx.match(memory.strip()) for rxs in _SAID_RX.values() for rx in rxs)


class Found(NamedTuple):
    """Something the memories show: a statement of it, the memories (1-based), its kind and what it is about."""

    text: str
    evidence: list[int]
    source: str
    subject: str


@dataclass(frozen=True)
class InsightOption:
    statement: str
    evidence: list[int]  # 1-based numbers of the memories it rests on
    utility: float
    source: str


def _first_person(memory: str) -> bool:
    return memory.startswith(("I ", "I'm ", "I've ", "My "))


def _places(memory: str, owner: str, people: list[str]) -> set[str]:
    found = set()
    for m in _PLACE.finditer(memory):
        place = m.group(1).strip()
        if place not in people and not place.endswith("'s"):
            found.add("home" if place == f"{owner}'s House" else place)
    return found


def _mentions(memories: list[str], pattern) -> dict[str, list[int]]:
    """thing -> the 1-based numbers of the memories that name it, in order of first mention (things one
    memory names in alphabetical order: a set's order changes from process to process, and so would the
    candidates and the recorded requests)."""
    out: dict[str, list[int]] = {}
    for i, m in enumerate(memories, 1):
        for thing in sorted(pattern(m)):
            out.setdefault(thing, []).append(i)
    return out


def _about_people(owner: str, memories: list[str], people: list[str]) -> list[Found]:
    names = [p for p in people if p != owner]
    named = _mentions(memories, lambda m: {p for p in names if re.search(rf"\b{re.escape(p)}\b", m)})
    most = sorted(named, key=lambda p: -len(named[p]))[:PEOPLE_OFFERED]
    out = []
    for person, ev in named.items():
        said = [i for i in ev if _CHAT.search(memories[i - 1])]
        owed = [i for i in ev if _first_person(memories[i - 1]) and _OWED.search(memories[i - 1])]
        wronged = [i for i in ev if _WRONGED.search(memories[i - 1]) and not _first_person(memories[i - 1])]
        if person in most:
            lately = SAID["person"] if len(ev) >= 2 else SAID["person"][:2]
            out += [Found(t.format(person), ev, "person", person) for t in lately]
        out += [Found(_said(kind, person), ev_kind, kind, person)
                for kind, ev_kind in (("chat", said), ("owed", owed), ("wronged", wronged)) if ev_kind]
    return out


def _said(kind: str, about: str) -> str:
    return SAID[kind][0].format(about)


def _about_places(owner: str, memories: list[str], people: list[str]) -> list[Found]:
    out = []
    where = _mentions(memories, lambda m: set() if _PLAN.search(m) else _places(m, owner, people))
    for place, ev in where.items():
        if len(ev) >= 2:
            out.append(Found(_said("place", place), ev, "place", place))
    dirty = _mentions(memories, lambda m: {_base_place(d.group(1)) for d in _DIRTY.finditer(m)})
    for place, ev in dirty.items():
        place = "My home" if place == f"{owner}'s House" else place
        out.append(Found(_said("chores", place), ev, "chores", place))
    return out


def _base_place(where: str) -> str:
    """'Hobbs Cafe cafe hall' -> 'Hobbs Cafe': the capitalised name before the room."""
    words = where.split()
    end = next((i for i, w in enumerate(words) if not w[:1].isupper()), len(words))
    return " ".join(words[:end]) or where


def _about_self(memories: list[str]) -> list[Found]:
    out = []
    mine = [(i, m) for i, m in enumerate(memories, 1) if _first_person(m)]
    for i, m in mine:
        wish = _WISH.match(m)
        if wish and not concluded(m):  # "I would like to spend more time with Felix" is about a person, not a wish
            out.append(Found(_said("wish", wish.group(1).rstrip(", ")), [i], "wish", ""))
    worried = [i for i, m in mine if _WORRY.search(m)]
    glad = [i for i, m in mine if _GLAD.search(m) and not _WORRY.search(m)]
    out += [Found(_said(kind, ""), ev, kind, "") for kind, ev in (("worry", worried), ("glad", glad)) if ev]
    for event, ev in _mentions(memories, lambda m: {e.group(1).lower() for e in _EVENT.finditer(m)}).items():
        out.append(Found(_said("event", event), ev, "event", event))
    return out


def insight_options(owner: str, question: str, memories: list[str], people: list[str],
                    earlier: list[str] = ()) -> list[InsightOption]:
    """Statements `owner` could conclude from `memories` (as numbered for the question), best by code first;
    none already concluded before (`earlier`)."""
    made = set(s.lower() for s in earlier)
    best: dict[str, InsightOption] = {}
    for text, ev, source, _ in _found(owner, memories, people):
        if text.lower() in made or not ev:
            continue
        u = U_KIND[source] + U_EVIDENCE * min(1.0, len(ev) / EVIDENCE_FULL) + U_QUESTION * word_overlap(question, text)
        best.setdefault(text, InsightOption(text, sorted(set(ev))[:4], round(u, 4), source))
    return sorted(best.values(), key=lambda o: -o.utility)[:MAX_CANDIDATES]


def _found(owner: str, memories: list[str], people: list[str]) -> list[Found]:
    return _about_people(owner, memories, people) + _about_places(owner, memories, people) + _about_self(memories)


# A focal question per kind of thing found: what the reflection then retrieves memories for
FOCAL_QUESTIONS = {"person": "How do I feel about {}?", "chat": "How do I feel about {}?",
                   "owed": "What should I do about {}?", "wronged": "What should I do about {}?",
                   "event": "What does the {} mean to me?", "place": "How are things at {} these days?",
                   "wish": "What do I want most right now?", "worry": "What has been worrying me?",
                   "glad": "What has been making me happy?"}
BROAD_QUESTION = "What matters most to me right now?"


def focal_options(owner: str, memories: list[str], people: list[str]) -> list[tuple[str, float, str]]:
    """(question, code's utility, kind) worth reflecting on in `owner`'s recent memories, best first."""
    best: dict[str, tuple[str, float, str]] = {}
    for _, ev, source, subject in _found(owner, memories, people):
        if source in FOCAL_QUESTIONS:
            q = FOCAL_QUESTIONS[source].format(subject)
            u = U_KIND[source] + U_EVIDENCE * min(1.0, len(ev) / EVIDENCE_FULL)
            if u > best.get(q, ("", -1.0, ""))[1]:
                best[q] = (q, round(u, 4), source)
    specific = sorted(best.values(), key=lambda o: -o[1])[:MAX_CANDIDATES - 1]
    return specific + [(BROAD_QUESTION, U_KIND["person"], "broad")]  # always one question to ask
