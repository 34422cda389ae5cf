"""Commitments: arrangements made in conversation, kept as structured data (beyond the paper).

The paper's party failures were guests who remembered an invitation but dropped it from
the day's plan (V-C). Here an arrangement (what, when, where, who, who proposed it) is a
`Commitment` in the agent's `CommitmentBook`; every plan for a day gets that day's
commitments back in code (plan_repair.plan_repair). The host's own statement wins over a
second-hand account (VI-e). Times are resolved by code against the game clock (VI-b);
the deterministic parser below also validates and repairs the model's extraction.
"""

from __future__ import annotations

import difflib
import re
from datetime import date, timedelta
from typing import ClassVar, Literal

from pydantic import BaseModel, Field

from garp.engine.lmfunction import Candidate, LMFunction, chat
from garp.units import DAY_S

# --- tunables -------------------------------------------------------------------------
COMMITMENT_DEFAULT_DURATION_S = 2 * 3600.0  # game s; an arrangement with no end time lasts 2 h
SAME_EVENT_WORD_OVERLAP = 0.5  # overlap coefficient of content words: same event (VI-e merge)
PLACE_FUZZY_CUTOFF = 0.75  # difflib ratio to accept a misspelt place name
SOURCE_RANK = {"own": 3, "heard-from-host": 2, "second-hand": 1}  # VI-e: host beats hearsay

# --- deterministic time parsing ---------------------------------------------------------
# Bare "at 7" without am/pm: hours up to this are read as afternoon/evening, because
# arrangements made in conversation are mostly for later in the day.
BARE_HOUR_PM_MAX = 7
# Vague parts of the day → a default time of day (seconds); only used when no clock time.
VAGUE_TIMES = {
    "morning": 9 * 3600, "noon": 12 * 3600, "lunchtime": 12 * 3600 + 1800,
    "afternoon": 15 * 3600, "evening": 19 * 3600, "tonight": 20 * 3600, "night": 21 * 3600,
}

MONTHS = {m: i + 1 for i, m in enumerate(
    ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"])}
WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]

_MONTH_RE = r"(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)"
_DAY_MONTH = re.compile(r"\b(\d{1,2})(?:st|nd|rd|th)?(?:\s+of)?\s+" + _MONTH_RE + r"\b", re.I)
_MONTH_DAY = re.compile(r"\b" + _MONTH_RE + r"\.?\s+(\d{1,2})(?:st|nd|rd|th)?\b", re.I)
_ISO = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")
_HHMM = re.compile(r"\b([01]?\d|2[0-3])[:.h]([0-5]\d)\s*(am|pm|a\.m\.|p\.m\.)?", re.I)
_HAMPM = re.compile(r"\b(1[0-2]|0?[1-9])\s*(am|pm|a\.m\.|p\.m\.)", re.I)
_OCLOCK = re.compile(r"\b(1[0-2]|0?[1-9])\s*o'?\s*clock\b", re.I)
_AT_HOUR = re.compile(r"\bat\s+(1[0-2]|0?[1-9])\b(?!\s*(?:[:.]\d|am|pm|a\.m|p\.m|%|\w))", re.I)


def _ampm(hour: int, marker: str | None) -> int:
    m = (marker or "").lower().replace(".", "")
    if m == "pm" and hour < 12:
        return hour + 12
    if m == "am" and hour == 12:
        return 0
    return hour


def parse_time_of_day(text: str, allow_vague: bool = True) -> float | None:
    """Seconds after midnight named in `text` ("19:00", "7pm", "7:30 pm", "noon"), or None."""
    if m := _HHMM.search(text):
        return _ampm(int(m.group(1)), m.group(3)) * 3600.0 + int(m.group(2)) * 60.0
    if m := _HAMPM.search(text):
        return _ampm(int(m.group(1)), m.group(2)) * 3600.0
    low = text.lower()
    if re.search(r"\bmidnight\b", low):
        return 0.0
    if re.search(r"\bnoon\b|\bmidday\b", low):
        return 12 * 3600.0
    for rx in (_OCLOCK, _AT_HOUR):
        if m := rx.search(text):
            hour = int(m.group(1))
            if hour <= BARE_HOUR_PM_MAX or re.search(r"evening|tonight|afternoon|pm", low):
                hour = hour + 12 if hour < 12 else hour
            return hour * 3600.0
    if allow_vague:
        for word, secs in VAGUE_TIMES.items():
            if re.search(rf"\b{word}\b", low):
                return float(secs)
    return None


def parse_day_index(text: str, today: int, start_date: date | None = None) -> int | None:
    """Day index (0 = start date) that `text` refers to, or None if it names no day."""
    low = text.lower()
    if re.search(r"\bday after tomorrow\b", low):
        return today + 2
    if re.search(r"\btomorrow\b", low):
        return today + 1
    if re.search(r"\b(today|tonight|this (morning|afternoon|evening))\b", low):
        return today
    if start_date is not None:
        found = _explicit_date(text, start_date)
        if found is not None:
            return (found - start_date).days
        current = start_date + timedelta(days=today)
        for i, name in enumerate(WEEKDAYS):
            if re.search(rf"\b(next\s+)?{name}\b", low):
                ahead = (i - current.weekday()) % 7
                if ahead == 0 and re.search(rf"\bnext\s+{name}\b", low):
                    ahead = 7
                return today + ahead
    return None


def _explicit_date(text: str, start_date: date) -> date | None:
    if m := _ISO.search(text):
        try:
            return date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
        except ValueError:
            return None
    day = month = None
    if m := _DAY_MONTH.search(text):
        day, month = int(m.group(1)), MONTHS[m.group(2)[:3].lower()]
    elif m := _MONTH_DAY.search(text):
        day, month = int(m.group(2)), MONTHS[m.group(1)[:3].lower()]
    if day is None or month is None:
        return None
    # The nearest year around the start date: "3 Jan" said on 30 Dec is next year.
    best = None
    for year in (start_date.year - 1, start_date.year, start_date.year + 1):
        try:
            cand = date(year, month, day)
        except ValueError:
            continue
        if best is None or abs((cand - start_date).days) < abs((best - start_date).days):
            best = cand
    return best


def resolve_when(text: str, now_t: float, start_date: date | None = None) -> float | None:
    """Absolute game time named by `text` relative to `now_t`, or None without a clock time.

    A time with no day word means the next occurrence of that time.
    """
    tod = parse_time_of_day(text)
    if tod is None:
        return None
    today = int(now_t // DAY_S)
    day = parse_day_index(text, today, start_date)
    if day is None:
        day = today if today * DAY_S + tod > now_t else today + 1
    return day * DAY_S + tod


def hhmm(t: float) -> str:
    """Time of day of absolute game time `t` as "HH:MM"."""
    s = int(t % DAY_S)
    return f"{s // 3600:02d}:{(s % 3600) // 60:02d}"


def parse_hhmm(text: str) -> float | None:
    """Strict "HH:MM" (00:00–24:00) → seconds after midnight, else None."""
    m = re.fullmatch(r"\s*(\d{1,2}):(\d{2})\s*", text or "")
    if not m:
        return None
    h, mi = int(m.group(1)), int(m.group(2))
    if mi > 59 or h > 24 or (h == 24 and mi):
        return None
    return h * 3600.0 + mi * 60.0


# --- text helpers shared with planning --------------------------------------------------
_STOP = frozenset(
    "a an the to at in on of for and or with my our your his her their i we you he she they it "
    "is are be will would can could let lets let's go going come coming up some this that "
    "tomorrow today tonight pm am o'clock".split())


def content_words(text: str) -> set[str]:
    """Lower-case content words with a light plural/possessive strip, for event identity."""
    words = re.findall(r"[a-z][a-z']*", text.lower())
    out = set()
    for w in words:
        w = w.removesuffix("'s").rstrip("'")
        if len(w) > 3 and w.endswith("s") and not w.endswith("ss"):
            w = w[:-1]
        if w and w not in _STOP:
            out.add(w)
    return out


def word_overlap(a: str, b: str) -> float:
    """Overlap coefficient |A∩B| / min(|A|, |B|) of content words (0 when either is empty)."""
    wa, wb = content_words(a), content_words(b)
    if not wa or not wb:
        return 0.0
    return len(wa & wb) / min(len(wa), len(wb))


_DWELLINGS = {"house", "flat", "home", "cottage", "apartment"}  # many of a kind: "house" names no one home
_WHOLE_TOWN = {"town", "village", "around", "everywhere"}  # "around town" names no one place ("Town Office")
_OPEN_AIR = re.compile(r"\b(walk\w*|stroll\w*|wander\w*|jog\w*|fresh air|outside|outdoors)\b")
_OPEN_AIR_PLACE = re.compile(r"\b(Park|Square|Garden|Green)\b")


def match_place(text: str | None, known: list[str], default: str | None = None) -> str | None:
    """Map a free-text place to one of the known map places; unknown → `default`."""
    if not text or not known:
        return default
    low = " ".join(text.lower().replace("'s", "").split())
    by_low = {k.lower(): k for k in known}
    if low in by_low:
        return by_low[low]
    contained = [k for k in known if k.lower() in low or (len(low) > 3 and low in k.lower())]
    if contained:
        return max(contained, key=len)
    close = difflib.get_close_matches(low, list(by_low), n=1, cutoff=PLACE_FUZZY_CUTOFF)
    if close:
        return by_low[close[0]]
    words = content_words(low) - _WHOLE_TOWN

    def fit(place: str) -> float:  # share of the place's words found (fuzzily) in the text
        pw = content_words(place)
        hit = sum(1 for w in pw - _DWELLINGS if difflib.get_close_matches(w, words, n=1, cutoff=PLACE_FUZZY_CUTOFF))
        return hit / max(1, len(pw))
    best = max(((fit(k), k) for k in known), default=(0.0, ""))
    if best[0] >= 0.5:
        return best[1]
    of_kind = [k for k in known if k.split()[-1].lower() in words - _DWELLINGS]  # "at school": the one School
    if len(of_kind) == 1:
        return of_kind[0]
    outdoors = [k for k in known if _OPEN_AIR_PLACE.search(k)]  # a walk with nowhere named is taken outside
    return outdoors[0] if outdoors and _OPEN_AIR.search(low) else default


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:24]


# --- data ------------------------------------------------------------------------------
Source = Literal["own", "heard-from-host", "second-hand"]


class Commitment(BaseModel):
    """One arrangement: what, when (absolute game time), where, who, and how we know it."""

    id: str
    what: str = Field(..., min_length=1, max_length=120)
    day: int = Field(..., ge=0)
    start: float
    end: float
    place: str
    room: str | None = None  # where inside the place, when the arrangement names a room ("Music Room")
    participants: list[str] = Field(default_factory=list)
    host: str  # whose event it is; their own word wins (VI-e)
    proposer: str | None = None  # who suggested it in conversation (None = the host)
    source: Source = "own"
    heard_from: str | None = None
    created_t: float = 0.0
    open: bool = False  # anyone is welcome: a guest who accepts passes it on to friends (garp.mind.news)

    def describe(self) -> str:
        return f"{self.what} at {self.place}, day {self.day} {hhmm(self.start)}-{hhmm(self.end)} (host {self.host})"


def make_commitment(what: str, start: float, place: str, host: str, *, participants=(),
                    source: Source = "own", heard_from: str | None = None, created_t: float = 0.0,
                    end: float | None = None, proposer: str | None = None, room: str | None = None,
                    open_: bool = False) -> Commitment:
    """Build a commitment with a stable id shared by every agent who holds the same event."""
    day = int(start // DAY_S)
    people = sorted({host, *participants})
    return Commitment(
        id=f"c-{_slug(host)}-{day}-{_slug(what)}", what=what, day=day, start=start,
        end=end if end is not None and end > start else start + COMMITMENT_DEFAULT_DURATION_S,
        place=place, room=room or None, participants=people, host=host, proposer=proposer or host, source=source,
        heard_from=heard_from, created_t=created_t, open=open_)


def same_event(a: Commitment, b: Commitment) -> bool:
    """Same host and (similar description, or same place on the same day).

    The host's own plans are exact: two of them at different places, on different days or at
    times that do not overlap are two events, however alike the words ("invite Erica to the
    jam session" is an errand, not the jam session, even at the same place). Only an account
    from someone else may differ in time and place."""
    if a.host.casefold() != b.host.casefold():
        return False
    if a.id == b.id:
        return True
    apart = (a.place, a.day) != (b.place, b.day) or a.end <= b.start or b.end <= a.start
    if a.source == b.source == "own" and apart:
        return False
    return word_overlap(a.what, b.what) >= SAME_EVENT_WORD_OVERLAP or (a.place == b.place and a.day == b.day)


class CommitmentBook:
    """One agent's commitments. `add` merges duplicates; the host's own word wins (VI-e)."""

    def __init__(self, owner: str) -> None:
        self.owner = owner
        self._items: list[Commitment] = []

    def add(self, c: Commitment) -> Commitment:
        """Store `c` or merge it into the same event already held; returns the stored one."""
        for i, old in enumerate(self._items):
            if not same_event(old, c):
                continue
            people = sorted(set(old.participants) | set(c.participants))
            if SOURCE_RANK[c.source] >= SOURCE_RANK[old.source]:
                merged = c.model_copy(update={"id": old.id, "participants": people,
                                              "created_t": min(old.created_t, c.created_t)})
            else:  # a weaker account never moves the time or place of a stronger one
                merged = old.model_copy(update={"participants": people})
            self._items[i] = merged
            return merged
        self._items.append(c)
        return c

    def remove(self, commitment_id: str) -> None:
        self._items = [c for c in self._items if c.id != commitment_id]

    def get(self, commitment_id: str) -> Commitment | None:
        return next((c for c in self._items if c.id == commitment_id), None)

    def for_day(self, day: int) -> list[Commitment]:
        return sorted((c for c in self._items if c.day == day), key=lambda c: c.start)

    def upcoming(self, t: float, horizon_s: float) -> list[Commitment]:
        """Commitments not yet over that start within `horizon_s` game seconds of `t`."""
        return sorted((c for c in self._items if c.end > t and c.start <= t + horizon_s),
                      key=lambda c: c.start)

    def all(self) -> list[Commitment]:
        return sorted(self._items, key=lambda c: c.start)

    def hosted_clash(self, c: Commitment) -> Commitment | None:
        """An event this book's owner hosts that overlaps `c` at another place: an arrangement
        that would pull its host away from their own event is not kept (the host's word, VI-e)."""
        return next((h for h in self._items if h.host == self.owner and h.source == "own" and h.place != c.place
                     and h.start < c.end and c.start < h.end and not same_event(h, c)), None)

    def __len__(self) -> int:
        return len(self._items)

    def to_dict(self) -> dict:
        return {"owner": self.owner, "items": [c.model_dump(mode="json") for c in self._items]}

    @classmethod
    def from_dict(cls, data: dict) -> "CommitmentBook":
        book = cls(data["owner"])
        book.restore(data)
        return book

    def restore(self, data: dict) -> None:
        """Take the saved commitments in place (a planner holds this very book)."""
        self._items = [Commitment.model_validate(c) for c in data.get("items", [])]


# --- extraction from a finished conversation -------------------------------------------
class ExtractionInputs(BaseModel):
    speakers: list[str]  # the two participants
    lines: list[str]  # "Name: text", in order
    now_t: float
    start_date: date | None = None
    known_places: list[str] = Field(default_factory=list)
    known_agents: list[str] = Field(default_factory=list)
    clock_label: str = ""  # e.g. "Monday 2 Jan, 10:00"


class ExtractedPlan(BaseModel):
    agreed: bool = Field(..., description="true only if they agreed to meet or do something at a stated time")
    what: str = Field("", max_length=60, description="the activity, e.g. 'jam session'")
    when: str = Field("", max_length=30, description="day and time as said, e.g. 'tomorrow 19:00'")
    where: str = Field("", max_length=40, description="a place from the list")
    proposed_by: str = Field("", max_length=30, description="who suggested it")


_INTENT = re.compile(r"\b(let'?s|join|come|meet|invite|party|see you|will you|would you|want to|"
                     r"shall we|how about|i'?ll be|we'?ll|be there|at my|over at)\b", re.I)


class CommitmentExtraction(LMFunction):
    """Did this conversation make an arrangement? what / when / where / who proposed it."""

    name: ClassVar[str] = "commitment_extraction"
    value: ClassVar[str] = "plan"
    Output: ClassVar[type[BaseModel]] = ExtractedPlan
    priority: ClassVar[int] = 3
    temperature: ClassVar[float] = 0.0
    max_tokens: ClassVar[int] = 90

    def messages(self, inputs: ExtractionInputs, reasoning: bool) -> list[dict]:
        system = ("You read a short conversation and say whether the speakers agreed on a plan "
                  "to meet or do something together at a stated time. Answer in JSON. "
                  "If nothing was arranged, set agreed to false and leave the other fields empty. "
                  "Copy the time as said; use a place from the list.")
        user = (f"Now: {inputs.clock_label}\nPlaces: {', '.join(inputs.known_places)}\n"
                f"Conversation between {' and '.join(inputs.speakers)}:\n" + "\n".join(inputs.lines))
        return chat(system, user)

    def candidates(self, inputs: ExtractionInputs) -> list[Candidate]:
        """"No plan", and one plan per time a speaker named while proposing something; the check drops
        a plan the transcript cannot ground (no place, in the past), so a chat with nothing to ground has
        "no plan" as its only answer and spends no model time."""
        nothing = Candidate(ExtractedPlan(agreed=False), "They made no plan to meet.", U_NO_PLAN, "none")
        return [nothing] + [Candidate(plan, _plan_text(inputs, plan), U_PLAN, "transcript")
                            for plan in plan_options(inputs)]

    def rank_messages(self, inputs: ExtractionInputs) -> list[dict]:
        system = ("You read a short conversation and say whether the speakers agreed on a plan to meet or "
                  "do something together at a stated time.")
        return chat(system, self.messages(inputs, False)[-1]["content"] + "\nWhat did they agree?")

    def fallback(self, inputs: ExtractionInputs) -> ExtractedPlan:
        return ExtractedPlan(agreed=False)

    def check(self, inputs: ExtractionInputs, out: ExtractedPlan) -> ExtractedPlan:
        if out.agreed:
            resolve_extraction(inputs, out)  # raises ValueError when it cannot be grounded
        return out


U_NO_PLAN, U_PLAN = 0.45, 0.55  # code's estimate: a time named while proposing is more likely a plan than not
MAX_PLANS = 3
_ACTIVITY = re.compile(r"\b((?:[A-Z]\w+'s )?(?:(?:birthday|dinner|garden|jam|tea|card) )?(?:party|dinner|lunch|breakfast|"
                       r"coffee|tea|session|walk|game|concert|recital|exhibition|opening|movie|film|practice|"
                       r"rehearsal|picnic|match|meeting|drinks|chess|lesson|show|run|swim|visit))\b", re.I)


def _activity(text: str) -> str:
    m = _ACTIVITY.search(text)
    return m.group(1)[:60] if m else ""


def _said_when(t: float, now_t: float, start_date: date | None) -> str:
    """A time as a speaker would name it, which `resolve_when` reads back to `t`."""
    ahead = int(t // DAY_S) - int(now_t // DAY_S)
    if ahead <= 0:
        return f"today {hhmm(t)}"
    if ahead == 1:
        return f"tomorrow {hhmm(t)}"
    if start_date is None:
        return hhmm(t)
    return f"{WEEKDAYS[(start_date + timedelta(days=int(t // DAY_S))).weekday()]} {hhmm(t)}"


def plan_options(inputs: ExtractionInputs) -> list[ExtractedPlan]:
    """What the transcript could have arranged: each time said in a line that proposes or accepts."""
    plans: dict[float, ExtractedPlan] = {}
    whole = " ".join(line.split(":", 1)[-1] for line in inputs.lines)
    for n, line in enumerate(inputs.lines):
        text = line.split(":", 1)[-1]
        t = resolve_when(text, inputs.now_t, inputs.start_date)
        if t is None or t in plans or not _INTENT.search(text) or len(plans) >= MAX_PLANS \
                or _declined(inputs.lines[n + 1:], _line_speaker(line)):
            continue
        where = _home_named(text, _line_speaker(line), inputs) or match_place(text, inputs.known_places) \
            or match_place(whole, inputs.known_places) or ""
        plans[t] = ExtractedPlan(agreed=True, what=_activity(text) or _activity(whole) or "meet up",
                                 when=_said_when(t, inputs.now_t, inputs.start_date), where=where,
                                 proposed_by=_line_speaker(line)[:30])
    return list(plans.values())


_DECLINE = re.compile(r"\b(can't|cannot|can not|won't|couldn't|not able|unable|no thanks|another time|"
                      r"rather not|too busy|not free)\b", re.I)


def _declined(after: list[str], proposer: str) -> bool:
    """The other speaker's next line turns the proposal down ("Sorry, I can't make it")."""
    reply = next((line for line in after if _line_speaker(line) != proposer), "")
    return bool(_DECLINE.search(reply.split(":", 1)[-1]))


_MY_HOME = re.compile(r"\b(my|your) (house|place|home|flat)\b", re.I)


def _home_named(text: str, speaker: str, inputs: ExtractionInputs) -> str | None:
    """"at my house" said by Ludwig -> "Ludwig's House"; "your place" -> the other speaker's home."""
    m = _MY_HOME.search(text)
    if not m:
        return None
    whose = speaker if m.group(1).lower() == "my" else next((s for s in inputs.speakers if s != speaker), speaker)
    return next((p for p in inputs.known_places if p.startswith(f"{whose}'s ")), None)


def _plan_text(inputs: ExtractionInputs, plan: ExtractedPlan) -> str:
    meet = "to meet" if plan.what == "meet up" else f"to meet for {plan.what}"
    return f"{' and '.join(inputs.speakers)} agreed {meet} at {plan.where}, {plan.when}, as {plan.proposed_by} proposed."


def _line_speaker(line: str) -> str:
    return line.split(":", 1)[0].strip() if ":" in line else ""


def _transcript_times(inputs: ExtractionInputs) -> list[tuple[float, str]]:
    """(absolute t, speaker) for every time named in the transcript, explicit times first."""
    found: list[tuple[int, float, str]] = []
    for line in inputs.lines:
        text = line.split(":", 1)[-1]
        tod = parse_time_of_day(text, allow_vague=False)
        rank = 0
        if tod is None and parse_day_index(text, 0, inputs.start_date) is not None:
            tod, rank = parse_time_of_day(text), 1
        if tod is not None:
            t = resolve_when(text if rank == 0 else text + f" {int(tod // 3600):02d}:00",
                             inputs.now_t, inputs.start_date)
            if t is not None:
                found.append((rank, t, _line_speaker(line)))
    found.sort(key=lambda x: x[0])
    return [(t, who) for _, t, who in found]


def resolve_extraction(inputs: ExtractionInputs, out: ExtractedPlan) -> tuple[float, str, str, str]:
    """Ground the model's answer in the transcript → (start t, place, proposer, host).

    Raises ValueError when the conversation names no time, no known place, or shows no
    intent to meet: a small model says "agreed" far too easily.
    """
    said = [t for t, _ in _transcript_times(inputs)]
    if not said:
        raise ValueError("the conversation names no time")
    if not any(_INTENT.search(line.split(":", 1)[-1]) for line in inputs.lines):
        raise ValueError("nobody proposed or accepted anything")
    t = resolve_when(out.when, inputs.now_t, inputs.start_date) if out.when else None
    if t is None or t not in said:
        t = said[0]  # repair: the time actually spoken wins over the model's paraphrase
    if t <= inputs.now_t:
        raise ValueError("the arrangement is in the past")
    place = match_place(out.where, inputs.known_places)
    if place is None:
        for line in inputs.lines:
            place = match_place(line.split(":", 1)[-1], inputs.known_places)
            if place:
                break
    if place is None:
        raise ValueError(f"place {out.where!r} is not a known place")
    speakers = {s.casefold(): s for s in inputs.speakers}
    proposer = speakers.get(out.proposed_by.strip().casefold())
    if proposer is None:
        proposer = next((_line_speaker(line) for line in inputs.lines if _INTENT.search(line)),
                        inputs.speakers[0])
    host = proposer
    for name in inputs.known_agents:  # "Ludwig's party": the host may be neither speaker
        if re.search(rf"\b{re.escape(name)}'s\b", f"{out.what} {' '.join(inputs.lines)}", re.I):
            host = name
            break
    return t, place, proposer, host


def commitments_from_extraction(inputs: ExtractionInputs, out: ExtractedPlan) -> dict[str, Commitment]:
    """One commitment per participant, with the source as that participant knows it."""
    if not out.agreed:
        return {}
    try:
        t, place, proposer, host = resolve_extraction(inputs, out)
    except ValueError:
        return {}
    what = out.what.strip() or "meet up"
    result: dict[str, Commitment] = {}
    for owner in inputs.speakers:
        partner = next((s for s in inputs.speakers if s != owner), owner)
        if owner == host:
            source, heard = "own", None
        elif partner == host:
            source, heard = "heard-from-host", partner
        else:
            source, heard = "second-hand", partner
        result[owner] = make_commitment(what, t, place, host, participants=inputs.speakers, proposer=proposer,
                                        source=source, heard_from=heard, created_t=inputs.now_t)
    return result
