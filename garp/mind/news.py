"""Events that travel by word of mouth (issue 19: coordination that emerges).

An intention to gather people (a party, a jam session) is held by its owner as an own
commitment. The owner's planner turns it into errands: a visit to each invitee, at home when
they are there (after work for those who work). In a conversation anyone who knows an event
may tell a listener who is not known to have heard of it: the host invites, others pass the
news on. These are candidate lines like any other (garp.mind.line_candidates), ranked, never
forced; a line that tells carries its act, so the listener learns the event with its source
(the host's own word beats a second-hand account, VI-e), and a listener who accepts commits
to it. An open event (anyone welcome) also sends a guest who accepts it to call on its closest
friends who have not heard, with the same visits the host makes. Nothing is handed to anyone
for having met someone.
"""

from __future__ import annotations

from dataclasses import dataclass

from garp.mind.commitments import Commitment, hhmm, make_commitment
from garp.mind.plan_repair import COMMITMENT_TRAVEL_LEAD_S
from garp.units import DAY_S

# --- tunables ---------------------------------------------------------------------------
INVITE_VISIT_S = 60 * 60.0        # game s the host waits at each invitee's home for them to be free
INVITE_FIRST_AFTER_S = 30 * 60.0  # the first visit starts this long after the intention is taken up
AFTER_WORK_S = 18.5 * 3600.0      # time of day someone with a workplace is home (most shifts end by 18:00)
VISIT_WALK_S = COMMITMENT_TRAVEL_LEAD_S  # game s between two visits: a walk across town
LATEST_VISIT_S = 21 * 3600.0      # no call on anyone after this time of day
FIRST_VISIT_OF_DAY_S = 10 * 3600.0  # the earliest call of a day
BEFORE_WORK_S = 8.5 * 3600.0      # before this time of day those who work are still at home
ACTS = ("invite", "relay", "accept", "decline")  # what a line may do with an event
ARRIVING_S = COMMITMENT_TRAVEL_LEAD_S  # this long before an event, someone met at its place has come for it
SAID_KEPT = 12                    # lines remembered as said to one person (not said again to them)
LATELY_KEPT = 12                  # lines remembered as said to anyone (a stock reply is not said again soon)
TELL_CLOSENESS = 0.2              # a guest of an open event calls on friends at least this close...
TELL_FRIENDS = 2                  # ...and on at most this many of them


@dataclass(frozen=True)
class NewsItem:
    """One event a speaker may tell a listener about, as the line prompt sees it (a value)."""

    event_id: str
    what: str
    place: str
    start: float
    host: str
    speaker_is_host: bool

    def when(self, now: float) -> str:
        day = int(self.start // DAY_S) - int(now // DAY_S)
        return ("today" if day <= 0 else "tomorrow" if day == 1 else f"in {day} days") + f" at {hhmm(self.start)}"


class EventKnowledge:
    """What one mind knows of events (its own and heard of), whom it has told, and the lines it has
    said to each person lately (so a second talk does not repeat the first). Cognition side."""

    def __init__(self, owner: str) -> None:
        self.owner = owner
        self.known: dict[str, Commitment] = {}
        self.told: set[tuple[str, str]] = set()  # (event id, listener)
        self.said: dict[str, list[str]] = {}  # listener -> lines said to them, newest last
        self.lately: list[str] = []  # lines said to anyone, newest last

    def said_to(self, listener: str) -> list[str]:
        return list(self.said.get(listener, []))

    def said_lately(self) -> list[str]:
        return list(self.lately)

    def note_said(self, listener: str, lines: list[str]) -> None:
        self.said[listener] = (self.said.get(listener, []) + lines)[-SAID_KEPT:]
        self.lately = (self.lately + lines)[-LATELY_KEPT:]

    def learn(self, event: Commitment) -> bool:
        """Keep `event` (the host's own word replaces hearsay); True when it was news."""
        old = self.known.get(event.id)
        if old is None or (old.source != "own" and event.source in ("own", "heard-from-host")):
            self.known[event.id] = event
        return old is None

    def told_of(self, event_id: str, listener: str) -> None:
        """`listener` now knows this mind's event: not to be told again, by this mind or by anyone
        who hears of it from this mind (its copy names everyone it knows has heard)."""
        self.told.add((event_id, listener))
        event = self.known.get(event_id)
        if event is not None and listener not in event.participants:
            self.known[event_id] = event.model_copy(update={"participants": sorted({*event.participants, listener})})

    def news_for(self, listener: str, t: float, place: str = "") -> list[NewsItem]:
        """Events not yet over this mind could tell `listener` about: not the listener's own, nor
        one the listener told this mind of, nor one both are at (under way where they meet)."""
        return [NewsItem(e.id, e.what, e.place, e.start, e.host, e.host == self.owner)
                for e in sorted(self.known.values(), key=lambda e: e.start)
                if e.end > t and listener not in (e.host, e.heard_from) and (e.id, listener) not in self.told
                and not (place == e.place and t >= e.start - ARRIVING_S)]

    def state(self) -> dict:
        return {"known": [e.model_dump(mode="json") for e in self.known.values()], "told": sorted(self.told),
                "said": {k: list(v) for k, v in self.said.items()}, "lately": list(self.lately)}

    def restore(self, data: dict) -> None:
        self.known = {e["id"]: Commitment.model_validate(e) for e in data.get("known", [])}
        self.told = {(a, b) for a, b in data.get("told", [])}
        self.said = {k: list(v) for k, v in data.get("said", {}).items()}
        self.lately = list(data.get("lately", []))


def heard(event: Commitment, listener: str, speaker: str, t: float) -> Commitment:
    """`event` as `listener` knows it after `speaker` told them: from the host, or second-hand."""
    source = "heard-from-host" if speaker == event.host else "second-hand"
    people = sorted({*event.participants, listener})
    return event.model_copy(update={"source": source, "heard_from": speaker, "created_t": t, "participants": people})


def intention_event(what: str, start: float, end: float, place: str, owner: str, invite: list[str],
                    room: str | None = None, open_: bool = False) -> Commitment:
    return make_commitment(what, start, place, owner, participants=invite, end=end, room=room, open_=open_)


def invitation_visits(event: Commitment, invite: list[str], homes: dict[str, str],
                      workplaces: dict[str, str | None], from_t: float, *, caller: str | None = None,
                      free_at: dict[str, float] | None = None) -> list[Commitment]:
    """The errands of an event's `caller` (its host, or a guest passing an open event on): one visit
    per home (housemates together), the caller's own housemates first when it is breakfast time, then
    those home all day, then those who work, the earliest free first, after work (`free_at`: seconds
    of the day someone's work ends, else AFTER_WORK_S); a walk between visits. A call that would come
    too late in the evening waits for the next day, when those who work are seen at work; one that
    would come too late for the event itself finds them at work on its day. Someone no call can reach in time is left to chance."""
    caller = caller or event.host
    groups: dict[str, list[str]] = {}
    for g in invite:
        if homes.get(g):
            groups.setdefault(homes[g], []).append(g)
    first_day = int(from_t // DAY_S)
    t = from_t + INVITE_FIRST_AFTER_S
    visits = []
    breakfast = t % DAY_S < BEFORE_WORK_S  # the caller's housemates are at the table now; later, the free first

    def order(home_who: tuple[str, list[str]]) -> tuple[bool, bool, float]:
        home, who = home_who
        workers = [g for g in who if workplaces.get(g)]
        return (not (breakfast and home == homes.get(caller)), bool(workers),
                max(((free_at or {}).get(g, AFTER_WORK_S) for g in workers), default=0.0))
    for home, who in sorted(groups.items(), key=order):
        work = next((workplaces[g] for g in who if workplaces.get(g)), None)
        free = max((free_at or {}).get(g, AFTER_WORK_S) for g in who)
        slot = _visit_slot(t, first_day, home, work, free)
        if home == homes.get(caller) and t % DAY_S < BEFORE_WORK_S:
            slot = (t, home)  # the caller's housemates, over breakfast
        elif slot[0] + INVITE_VISIT_S > event.start and work:
            slot = (t, work)  # after work is too late: call at work, today
        if slot[0] + INVITE_VISIT_S > event.start:
            continue  # no visit that would make the caller late for the event
        start, place = slot
        names = " and ".join(who)
        what = f"invite {names} to {event.what}" if caller == event.host else f"tell {names} about {event.what}"
        visits.append(make_commitment(what, start, place, caller, participants=who, end=start + INVITE_VISIT_S))
        t = start + INVITE_VISIT_S + VISIT_WALK_S
    return visits


def telling_visits(event: Commitment, teller: str, friends: list[str], homes: dict[str, str],
                   workplaces: dict[str, str | None], free_at: dict[str, float], from_t: float) -> list[Commitment]:
    """A guest's calls on `friends` to pass an open event on: the host's kind of visits, made once the
    teller's own work is over."""
    own_free = free_at.get(teller)
    if workplaces.get(teller) and own_free is not None:
        from_t = max(from_t, int(from_t // DAY_S) * DAY_S + own_free - INVITE_FIRST_AFTER_S)
    return invitation_visits(event, friends, homes, workplaces, from_t, caller=teller, free_at=free_at)


def friends_to_tell(event: Commitment, teller: str, closeness: dict[str, float], cast: set[str],
                    housemates: set[str] = frozenset()) -> list[str]:
    """Whom a guest of an open event sets out to tell, of those in town not known to it to have heard
    already: the people it lives with (however new to it), then its closest friends (closeness at
    least TELL_CLOSENESS, at most TELL_FRIENDS of them)."""
    known = {*event.participants, event.host, event.heard_from, teller}
    home = sorted(n for n in housemates if n in cast and n not in known)
    friends = sorted((-c, n) for n, c in closeness.items()
                     if n in cast and n not in known and n not in home and c >= TELL_CLOSENESS)
    return home + [n for _, n in friends][:TELL_FRIENDS]


def _visit_slot(t: float, first_day: int, home: str, work: str | None, free: float = AFTER_WORK_S
                ) -> tuple[float, str]:
    """When and where to call on someone from `t` on: at home, once work is over (`free`, seconds of
    the day) on the first day for those who work, or at work on a later day; never after LATEST_VISIT_S."""
    day = int(t // DAY_S)
    if work and day == first_day:
        t = max(t, day * DAY_S + free)
    if t % DAY_S > LATEST_VISIT_S:
        day += 1
        t = day * DAY_S + FIRST_VISIT_OF_DAY_S
    return t, (work if work and day > first_day else home)
