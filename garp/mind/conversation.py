"""Conversation initiation (paper III-A9, VI-g): who talks, when, and the booking.

Initiation: range check → booking/cooldown → a guard that keeps chatter from making
someone late for a planned joint activity → the personality chat gate p′ (withdrawn
agents less likely) → the model's decide-to-talk. A meeting held by arrangement (both at
the place of a commitment that is about the two of them) skips range, gate and the
decision: they came to talk, and its purpose goes into both speakers' line prompts and
the appraisal. A conversation is booked like an object from set-up until both
participants have written it to memory, and it pauses a gathering without ending it
(`paused_activity`). The conversation itself (lines, summaries, commitments) is in
`garp.mind.dialogue`.
"""

from __future__ import annotations

import itertools
import math
import re
from typing import Any, ClassVar

from pydantic import BaseModel, Field

from garp.engine.lmfunction import Candidate, LMFunction, chat
from garp.units import DAY_S

# --- tunables (paper III-A9) -----------------------------------------------------------------
CHAT_RANGE_PX = 96.0  # interaction range, map pixels (3 tiles)
COOLDOWN_S = 1002.0  # per-pair cooldown, game seconds (~16.7 game-minutes, III-A9 / Table II)
# Our rule: each talk a pair has held today adds one more cooldown before their next (17, 33, 50 min...),
# unless one of them has since heard or told news in a talk with someone else: two coworkers side by
# side talked every 17 minutes all day, a dozen times over (and, reset by any other talk, every hour).
GUARD_WINDOW_S = 30 * 60.0  # no chat when a commitment starts within this and the agent is not there yet
WITHDRAWN_FACTOR = 0.5  # withdrawn agents start chats this much less often (III-A3 mechanism 5)
WITHDRAWN_VALENCE = -0.4  # valence at or below this counts as withdrawn
WITHDRAWN_LABELS = frozenset({"sad", "lonely", "guilty"})
MEETING_EARLY_S = 15 * 60.0  # an arranged meeting may begin this long before its start, game s (ours)


def is_withdrawn(label: str, valence: float) -> bool:
    return label in WITHDRAWN_LABELS or valence <= WITHDRAWN_VALENCE


class SocialState(BaseModel):
    """What initiation needs to know about one agent right now."""

    name: str
    x: float
    y: float
    place: str = ""
    activity: str = ""
    chat_probability: float = 0.5  # personality p′ (III-A4)
    emotion: str = "calm"
    emotion_label: str = "neutral"
    valence: float = 0.0
    relationship: str = ""  # this agent's view of the other
    next_commitment: str = ""  # what
    next_commitment_start: float | None = None
    next_commitment_end: float | None = None
    next_commitment_place: str | None = None
    next_commitment_id: str = ""
    next_commitment_host: str = ""
    next_commitment_with: list[str] = Field(default_factory=list)  # its participants

    def heading_to_commitment(self, t: float) -> bool:
        """About to start (or already in) a commitment somewhere else."""
        if self.next_commitment_start is None or self.next_commitment_place is None:
            return False
        end = self.next_commitment_end if self.next_commitment_end is not None else self.next_commitment_start
        soon = self.next_commitment_start - t <= GUARD_WINDOW_S and t < max(end, self.next_commitment_start)
        return soon and self.place != self.next_commitment_place


class Meeting(BaseModel):
    """Two people at the place of an arrangement that is about them (e.g. an apology)."""

    commitment_id: str
    what: str
    host: str  # who arranged it: speaks first
    partner: str


def _names(text: str, name: str) -> bool:
    return re.search(rf"\b{re.escape(name)}\b", text, re.I) is not None


def arranged_meeting(a: SocialState, b: SocialState, t: float) -> Meeting | None:
    """The arrangement one of them hosts and both are at now, when it is about the two of them:
    its description names the other ("Tomas apologises to Jonah over coffee", "invite Ren to
    the party"). The other need not hold it (an invitation visit is the host's errand). A party
    or a recital names only its host and is no meeting of two."""
    return _hosted_meeting(a, b, t) or _hosted_meeting(b, a, t)


def _hosted_meeting(host: SocialState, other: SocialState, t: float) -> Meeting | None:
    cid, place, start, end = host.next_commitment_id, host.next_commitment_place, host.next_commitment_start, \
        host.next_commitment_end
    if not cid or host.next_commitment_host != host.name or start is None or place is None:
        return None
    if not (start - MEETING_EARLY_S <= t < (end if end is not None else start)):
        return None
    if host.place != place or other.place != place or other.name not in host.next_commitment_with:
        return None
    if not _names(host.next_commitment, other.name):
        return None
    return Meeting(commitment_id=cid, what=host.next_commitment, host=host.name, partner=other.name)


class Booking(BaseModel):
    id: str
    a: str
    b: str
    t: float
    paused: dict[str, str | None] = Field(default_factory=dict)


class ConversationManager:
    """Scene-wide: range, gate, guard, cooldown and booking of conversations."""

    def __init__(self, *, talk_range_px: float = CHAT_RANGE_PX, cooldown_s: float = COOLDOWN_S) -> None:
        self.talk_range_px, self.cooldown_s = talk_range_px, cooldown_s
        self._last: dict[frozenset, float] = {}
        self._held: dict[frozenset, tuple[int, int, float]] = {}  # pair -> (day, talks held that day, last one's t)
        self._talked: dict[str, float] = {}  # agent -> game s of its last talk that told news
        self._booked: dict[str, str] = {}
        self._bookings: dict[str, Booking] = {}
        self._meetings_held: set[tuple[str, frozenset]] = set()
        self._ids = itertools.count(1)  # per town, so a run's chat ids do not depend on earlier runs

    # save / restore
    def state(self) -> dict[str, Any]:
        """Cooldowns, bookings, meetings held and the next chat number, as JSON values (a save)."""
        return {"last": [[sorted(pair), t] for pair, t in self._last.items()], "booked": dict(self._booked),
                "held": [[sorted(pair), day, n, t] for pair, (day, n, t) in self._held.items()],
                "talked": dict(self._talked),
                "bookings": {cid: b.model_dump(mode="json") for cid, b in self._bookings.items()},
                "meetings_held": sorted([cid, sorted(pair)] for cid, pair in self._meetings_held),
                "next_id": self._peek_id()}

    def restore(self, data: dict[str, Any]) -> None:
        self._last = {frozenset(pair): float(t) for pair, t in data["last"]}
        self._held = {frozenset(pair): (int(day), int(n), float(t)) for pair, day, n, t in data.get("held", [])}
        self._talked = {name: float(t) for name, t in data.get("talked", {}).items()}  # older saves: neither
        self._booked = dict(data["booked"])
        self._bookings = {cid: Booking.model_validate(b) for cid, b in data["bookings"].items()}
        self._meetings_held = {(cid, frozenset(pair)) for cid, pair in data["meetings_held"]}
        self._ids = itertools.count(int(data["next_id"]))

    def _peek_id(self) -> int:
        """The number the next chat gets (the counter is put back where it was)."""
        n = next(self._ids)
        self._ids = itertools.count(n)
        return n

    # range, cooldown
    def in_range(self, a: SocialState, b: SocialState) -> bool:
        return math.hypot(a.x - b.x, a.y - b.y) <= self.talk_range_px

    def on_cooldown(self, a: str, b: str, t: float) -> bool:
        last = self._last.get(frozenset((a, b)))
        return last is not None and t - last < self.cooldown_s * (1 + self.held_today(a, b, t))

    def start_cooldown(self, a: str, b: str, t: float) -> None:
        self._last[frozenset((a, b))] = t

    def note_talk(self, a: str, b: str, t: float, news: bool = False) -> None:
        """The two held a talk at game time `t` (their next waits one cooldown longer today); `news`: an
        event was told in it (either may pass it on: their talks with others wait no longer)."""
        pair, today = frozenset((a, b)), int(t // DAY_S)
        day, n, _ = self._held.get(pair, (today, 0, t))
        self._held[pair] = (today, (n if day == today else 0) + 1, t)
        if news:
            self._talked[a] = self._talked[b] = t

    def held_today(self, a: str, b: str, t: float) -> int:
        """Talks the two held today, or 0 when one of them has heard or told news elsewhere since."""
        day, n, last = self._held.get(frozenset((a, b)), (-1, 0, 0.0))
        since = max(self._talked.get(a, last), self._talked.get(b, last)) > last
        return n if day == int(t // DAY_S) and not since else 0

    # booking (VI-g: a finishing conversation still owns its participants)
    def is_booked(self, name: str) -> bool:
        return name in self._booked

    def booking_of(self, name: str) -> Booking | None:
        cid = self._booked.get(name)
        return self._bookings.get(cid) if cid else None

    def book(self, a: str, b: str, t: float, paused: dict[str, str | None] | None = None) -> str | None:
        """Reserve both participants; None when either is already in a conversation."""
        if a == b or a in self._booked or b in self._booked:
            return None
        cid = f"chat-{next(self._ids)}"
        self._bookings[cid] = Booking(id=cid, a=a, b=b, t=t, paused=dict(paused or {}))
        self._booked[a] = self._booked[b] = cid
        return cid

    def paused_activity(self, name: str) -> str | None:
        """The gathering/activity a conversation paused for `name` (resume it afterwards)."""
        booking = self.booking_of(name)
        return booking.paused.get(name) if booking else None

    def release(self, a: str, b: str) -> dict[str, str | None]:
        """Both have written the conversation to memory: free them; returns the paused activities."""
        cid = self._booked.get(a)
        if cid is None or self._booked.get(b) != cid:
            return {}
        booking = self._bookings.pop(cid)
        self._booked.pop(a, None)
        self._booked.pop(b, None)
        return booking.paused

    # arranged meetings: held once per arrangement and pair
    def meeting(self, a: SocialState, b: SocialState, t: float) -> Meeting | None:
        m = arranged_meeting(a, b, t)
        return None if m is None or (m.commitment_id, frozenset((a.name, b.name))) in self._meetings_held else m

    def hold_meeting(self, m: Meeting) -> None:
        self._meetings_held.add((m.commitment_id, frozenset((m.host, m.partner))))

    # gate and guard
    @staticmethod
    def gate(a: SocialState, rng) -> bool:
        p = a.chat_probability * (WITHDRAWN_FACTOR if is_withdrawn(a.emotion_label, a.valence) else 1.0)
        return rng.random() < p

    @staticmethod
    def guard(a: SocialState, b: SocialState, t: float) -> bool:
        """True when chatting would pre-empt a planned activity (someone is heading to a commitment)."""
        return a.heading_to_commitment(t) or b.heading_to_commitment(t)

    def precheck(self, a: SocialState, b: SocialState, t: float, rng, *, meeting: bool = False) -> tuple[bool, str]:
        """All code-side conditions, cheapest first; the rng is drawn only if everything else passes.
        At an arranged `meeting` they find each other anywhere in the place and came to talk: no
        range and no gate."""
        if not meeting and not self.in_range(a, b):
            return False, "out of range"
        if self.is_booked(a.name) or self.is_booked(b.name):
            return False, "already in a conversation"
        if self.on_cooldown(a.name, b.name, t):
            return False, "cooldown"
        if self.guard(a, b, t):
            return False, "heading to a commitment"
        if not meeting and not self.gate(a, rng):
            return False, "chat probability gate"
        return True, "ok"

    async def decide(self, a: SocialState, b: SocialState, scheduler, t: float,
                     deadline: float | None = None, news: str = "", familiarity: float = 0.0) -> tuple[bool, Any]:
        """Does `a` start a talk with `b`? `news`: an event `a` could tell `b` of, which makes the
        choice one the model ranks (talk to tell it, or not) rather than writes."""
        inputs = TalkInputs(speaker=a.name, other=b.name, speaker_activity=a.activity, other_activity=b.activity,
                            relationship=a.relationship, emotion=a.emotion,
                            withdrawn=is_withdrawn(a.emotion_label, a.valence), news=news, familiarity=familiarity)
        out, rec = await scheduler.call(DecideToTalk(), inputs, agent=a.name, deadline=deadline, game_time=t)
        return bool(out.talk), rec


# --- LM functions ---------------------------------------------------------------------------
class TalkInputs(BaseModel):
    speaker: str
    other: str
    speaker_activity: str
    other_activity: str
    relationship: str
    emotion: str
    withdrawn: bool = False
    news: str = ""  # an event the speaker could tell the other of ("Maya's party at Hobbs Cafe today at 19:00")
    familiarity: float = 0.0


class TalkOut(BaseModel):
    talk: bool


U_TELL = 0.6          # rank mode: talking to pass on news, plus U_TELL_CLOSE × familiarity
U_TELL_CLOSE = 0.3
U_GREET = 0.3         # going over to say hello, plus U_GREET_CLOSE × familiarity: friends stop for a word,
U_GREET_CLOSE = 0.35  # strangers mostly pass by
U_LEAVE_BE = 0.45     # not talking now, plus U_WITHDRAWN when not in the mood for company
U_WITHDRAWN = 0.4


class DecideToTalk(LMFunction):
    """Should the speaker start a conversation now? (III-A9)"""

    name: ClassVar[str] = "decide_to_talk"
    value: ClassVar[str] = "line"
    Output: ClassVar[type[BaseModel]] = TalkOut
    priority: ClassVar[int] = 3
    temperature: ClassVar[float] = 0.0
    max_tokens: ClassVar[int] = 40

    def messages(self, inputs: TalkInputs, reasoning: bool) -> list[dict]:
        system = ("You decide whether a character starts a conversation with someone nearby. Consider what "
                  "both are doing, how they get along and the character's mood. Answer talk true or false.")
        lines = [f"{inputs.speaker} is {inputs.speaker_activity or 'idle'}.",
                 f"{inputs.other} is {inputs.other_activity or 'idle'}.",
                 f"Relationship: {inputs.relationship or 'they do not know each other'}",
                 f"Mood: {inputs.emotion}" + (" (withdrawn, not in the mood for company)" if inputs.withdrawn else ""),
                 *([f"{inputs.speaker} could tell {inputs.other} about {inputs.news}."] if inputs.news else []),
                 f"Does {inputs.speaker} talk to {inputs.other} now?"]
        return chat(system, "\n".join(lines))

    def candidates(self, inputs: TalkInputs) -> list[Candidate]:
        """Going over (to tell the news, when there is some, or to say hello) or leaving the other be,
        ranked: the 135M model, asked to write the answer, said no to three chances in four whoever it was."""
        close = inputs.familiarity
        talk, why = (U_TELL + U_TELL_CLOSE * close, f"to tell {inputs.other} about it") if inputs.news else \
            (U_GREET + U_GREET_CLOSE * close, f"to say hello to {inputs.other}")
        leave = U_LEAVE_BE + (U_WITHDRAWN if inputs.withdrawn else 0.0)
        return [Candidate(TalkOut(talk=True), f"{inputs.speaker} goes over {why}.", talk,
                          "tell" if inputs.news else "greet"),
                Candidate(TalkOut(talk=False), f"{inputs.speaker} leaves {inputs.other} be for now.", leave, "leave")]

    def fallback(self, inputs: TalkInputs) -> TalkOut:
        return TalkOut(talk=not inputs.withdrawn)
