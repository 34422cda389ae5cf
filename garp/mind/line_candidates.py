"""Conversation lines built in code for a small model to rank (issue 18: rank, don't generate).

The bundled 135M model writes poor lines but tells well which of a few short lines fits a
conversation. So the lines a speaker may say are built here from what it knows: its urgent
thoughts and the topic it came with (first person, the listener as "you"), the memories the
last line brought up, the meeting's purpose, answers to a question or an apology, a
follow-up question, greetings that fit how well the two know each other, and farewells for
the last turn. Never third-person narration, never prompt text.

Templates are picked by a stable hash of the speaker, listener and turn, so a run replays
exactly and the same canned line does not come back across the whole town.
"""

from __future__ import annotations

import re
import zlib
from dataclasses import dataclass
from typing import Any, Sequence

from garp.mind.day_talk import DayTalk, and_mine, is_day_reply, replies_to_day, tells_day
from garp.mind.first_person import first_person, memory_in_first_person, to_listener
from garp.mind.insight_candidates import private_to
from garp.textclean import plain as _plain

# --- tunables ---------------------------------------------------------------------------
MAX_CANDIDATES = 8        # lines offered to the model per turn (one scoring pass scores them all)
MAX_WORDS = 26            # a candidate stays one short spoken line
MAX_CHARS = 150           # and fits the line's output field (dialogue.LineOut: 160)
TEMPLATES_PER_KIND = 2    # variants offered of each canned answer kind (acknowledgement, follow-up)
U_THOUGHT = 0.8           # code's utility by kind (0..1; the model's calibrated score is blended in)
U_PURPOSE = 0.75
U_ANSWER = 0.7
U_FEELING = 0.85          # answering a feeling told (sorrow, warm words, sympathy): before one's own thoughts
U_MEMORY = 0.55
U_FOLLOW_UP = 0.5
U_CANNED = 0.35
U_FAREWELL_LAST = 0.9     # the last turn closes the conversation
U_OVERLAP = 0.3           # bonus per share of the last line's content words a memory line shares
U_UNRELATED = 0.45        # a memory sharing no word with the line it answers: a change of subject
U_DAY = 0.5               # telling what one is doing, did earlier or does next, unasked
U_DAY_ASKED = 0.8         # the same when asked ("What have you been up to?"): it answers, better than a stock reply
U_DAY_HOW = 0.75          # "Pretty good, thanks." with one's day after it, to "How are you?"
U_DAY_REPLY = 0.6         # answering the other's day ("Since 07:00? You've been at it a while.")

# Memories that are the world's bookkeeping or the mind's own records, not something a person tells
# a friend: object states, who was seen where, earlier conversations, the day's plan, interviews.
_NOT_TOLD = re.compile(r"\b(is in use|is idle|is free|is empty|is being used|nearby|is off|is on)\b|"
                       r"\b(sees|saw|noticed|notices|talked (?:with|to)|talks (?:with|to)|plan for|was interviewed)\b|"
                       r"\b(said|says|told \w+):", re.I)
_QUESTION = re.compile(r"\?\s*$|\?")
_HOW_ARE_YOU = re.compile(r"\bhow (are|is|has|have) (you|things|your day|it going)|how's (it|your|things)|"
                          r"how are you doing|how do you do\b|\b(how|what) about you\?|\band you\?", re.I)
_ASKED_BACK = re.compile(r"\b(how|what) about you\?|\band you\?", re.I)
FAREWELL = re.compile(r"\b(bye|goodbye|(?<!to )see you|got to go|gotta go|get going|take care|be off|"
                      r"let you get on)\b", re.I)  # "good to see you" greets
APOLOGY = re.compile(r"\b(sorry|apologi[sz](?:e|es|ed|ing)|apolog(?:y|ies)|forgive me|my fault)\b", re.I)
# sorry that is no apology: sympathy, a refusal, thanks for (or waving off) someone's apology
_NOT_APOLOGY = re.compile(r"\bsorry (?:to hear|for your loss)|\bsorry, i (?:don't|can't|won't)|"
                          r"\b(?:for|the|your) apolog|\bno need to (?:be sorry|apologi)", re.I)
# "to/with/for/about/at Name" (not a place): the line is about someone other than the one spoken to
_ELSEWHERE = re.compile(r"\b(?:to|with|for|about|at) (?!(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day\b)([A-Z][a-z]+)\b"
                        r"(?!'|\s+(?:Cafe|House|Shop|School|Office|Library|Park|Bar|Hall|Room|Street|Square))")
_INVITE = re.compile(r"\b(would you like to|do you want to|care to join|shall we|are you free)\b[^?]*\?", re.I)
# "not bad at all" is no sorrow; being let down is one
_SAD = re.compile(r"\b(?<!not )(?<!n't )(?<!not too )(sad|tired|worried|nervous|upset|hard|difficult|lonely|bad|"
                  r"angry|hurt|awful|stressed|afraid|scared|frightened|fears?|anxious|shak(?:e|es|ing)|sick|exhausted|lost|"
                  r"broken|worry|worries|weighing on me|guilty|terrible|dread\w*|disappointed|let (?:me|him|her|us) down|"
                  r"never showed(?: up)?|stood (?:me|him|her) up|broke (?:my|his|her|their) promise)\b", re.I)
_STOP = frozenset("the a an and or but of to in on at for with from by about as is are was were be been am i you "
                  "he she it we they me my your his her its our their this that what how do did have has had not "
                  "so just really too also there here then than can could would will i'm it's that's".split())


@dataclass(frozen=True)
class LineOption:
    """One line the speaker may say, with code's estimate of fit and where it came from."""

    text: str
    utility: float
    source: str


def stable_pick(options: Sequence[str], key: str, n: int = 1) -> list[str]:
    """`n` of `options`, chosen by a hash of `key` that is the same in every process."""
    if not options:
        return []
    start = zlib.crc32(key.encode("utf-8")) % len(options)
    return [options[(start + k) % len(options)] for k in range(min(n, len(options)))]


def turn_key(kind: str, i: Any) -> str:
    """What a canned choice hangs on: who says it to whom, at which turn, in which ten game minutes
    (so two talks of the same pair do not open with the same words)."""
    return f"{kind}:{i.speaker}:{i.listener}:{len(i.history)}:{int(float(getattr(i, 't', 0.0)) // 600)}"


def fresh(pool: Sequence[str], i: Any) -> list[str]:
    """The pool without the lines the town has said enough today (none left: empty), and without
    what the speaker said to this listener in earlier talks or to anyone lately (unless nothing
    else is left): a stock reply does not come back in every talk of the day."""
    spent = set(getattr(i, "spent", ()))
    pool = [p for p in pool if _plain(p) not in spent]
    before = [_plain(t) for t in list(getattr(i, "said_before", [])) + list(getattr(i, "said_lately", []))]
    return [p for p in pool if not any(_plain(p) in b for b in before)] or pool


def content_words(text: str) -> set[str]:
    return {w for w in re.findall(r"[a-z']+", text.lower()) if len(w) > 2 and w not in _STOP}


def spoken(text: str, speaker: str, listener: str) -> str:
    """A memory or thought of `speaker` as a sentence said to `listener`."""
    text = text.strip().rstrip(".,;: ")
    named = re.search(rf"\b{re.escape(listener)}\b", text)
    if named and text.startswith(speaker):  # the speaker's own "her"/"his" come before the listener is named
        head = first_person(text[:named.start()], speaker, pronouns=True)
        tail = first_person(text[named.start():], speaker)  # "... at Erica's House" -> "... at my house"
        line = to_listener(head + " " + tail, listener)
    else:
        line = to_listener(memory_in_first_person(text, speaker), listener)
    line = " ".join(line.split())
    return _short(line[:1].upper() + line[1:] + ".")


def _short(text: str) -> str:
    words = text.split()
    return text if len(words) <= MAX_WORDS else " ".join(words[:MAX_WORDS]).rstrip(",;:") + "."


def is_bookkeeping(text: str) -> bool:
    """The world's or the mind's records (an object's state, who saw or talked to whom, a plan)."""
    return _NOT_TOLD.search(text) is not None


def aimed_elsewhere(line: str, listener: str) -> bool:
    """The line is about someone else ("I want to apologize to Jonah", said to Erica)."""
    return any(name != listener for name in _ELSEWHERE.findall(line))


def apologises(line: str, listener: str) -> bool:
    """The line says sorry to `listener`: not sympathy, not thanks for an apology, not about someone else."""
    return bool(APOLOGY.search(line)) and not _NOT_APOLOGY.search(line) and not aimed_elsewhere(line, listener)


def tellable(memory: str, listener: str, sentiment: float = 0.0) -> bool:
    """A memory a person would tell `listener` (towards whom it has `sentiment`): not the world's bookkeeping,
    about something (not a bare name), and not a conclusion of reflection kept to oneself, meant for someone
    else or warmer than it feels."""
    return bool(memory.strip()) and not is_bookkeeping(memory) and len(memory.split()) >= 4 \
        and not private_to(memory, listener, sentiment)


# --- the kinds of line ----------------------------------------------------------------------
GREETING_TIERS = (0.15, 0.6)  # familiarity below which one greets a stranger, then an acquaintance


def greeting_pools(s: str, l: str) -> list[list[str]]:
    """Openings speaker `s` may use with listener `l`: to a stranger, an acquaintance, a friend."""
    return [[f"Hello, I'm {s}. I don't think we've met.", f"Hi there, I'm {s}. Nice to meet you.",
             f"Good to meet you, I'm {s}."],
            [f"Hi {l}, good to see you.", f"Hello {l}, how are you today?", f"Oh, hello {l}!",
             f"Hi {l}. How has your day been?"],
            [f"Hey {l}! How are you doing?", f"{l}! Good to see you.", f"There you are, {l}.",
             f"Hi {l}, how's your day going?", f"Oh, {l}, just the person I hoped to see."]]


def greetings(i: Any, n: int = 1) -> list[str]:
    tier = sum(float(getattr(i, "familiarity", 0.5)) >= bound for bound in GREETING_TIERS)
    if tier == 0 and i.history and not _greeted(i, i.history[0], tier=0):
        tier = 1  # greeted by name as someone known: not "I don't think we've met" back
    heard = _plain(i.history[-1].split(":", 1)[-1].replace(i.speaker, "NAME")) if i.history else ""
    pool = [g for g in greeting_pools(i.speaker, i.listener)[tier] if _plain(g.replace(i.listener, "NAME")) != heard]
    return stable_pick(fresh(pool, i) or pool, turn_key("greet", i), n)  # few: the model has a favourite


# Turns that say nothing of their own (a reply to any line): a memory quoting one tells nothing either
HOW_ARE_YOU_ANSWERS = ("I'm well, thanks. And you?", "Not bad at all, thank you.", "Busy, but good. How about you?",
                       "I'm fine, thanks for asking.", "Can't complain. And you?", "Pretty good, thanks.")
UNSURE_ANSWERS = ("Good question. I'm not sure, to be honest.", "Hmm, let me think about that.",
                  "I couldn't say, really.", "That's a hard one to answer.")
SYMPATHY = ("I'm sorry to hear that.", "That sounds hard. Are you all right?", "Oh no. Is there anything I can do?")
THANKS_FOR_CARE = ("Thank you. I'll be all right.", "Thanks, that's kind of you.", "It helps to talk about it.")
# warm words said to one (a reflection told to the one it is about) get warmth back, not "Oh? How did that happen?"
_KIND = "That's kind of you to say."
_WARM = ((re.compile(r"\byou matter\b", re.I), ("That means a lot to me.", "Thank you. I feel the same.", _KIND)),
         (re.compile(r"\benjoy (a|our) chats? with you\b", re.I),
          ("Likewise, it's always nice talking with you.", "Thank you. I feel the same.", _KIND)),
         (re.compile(r"\bspend more time with you\b", re.I), ("I'd like that too.", _KIND)),
         (re.compile(r"\bseeing a lot of you\b", re.I), ("We have, haven't we? I like it.", _KIND)))
WARM_REPLIES = tuple(dict.fromkeys(r for _, replies in _WARM for r in replies))
_SYMPATHY_PLAIN = frozenset(_plain(s) for s in SYMPATHY)
_ABOUT_YOU = re.compile(r"\byou(?:r|'re|'ve)?\b", re.I)  # "you look exhausted": a concern for the listener, not a sorrow
# an intention told ("I want to apologize to Jonah properly.") is encouraged, not met with "Oh? How did that happen?"
_INTENT = re.compile(r"^I (?:really )?(?:want|need|would like|would love|'d like|'d love|mean|plan|am going|'m going) to\b"
                     r"(?!.*\byou\b)[^?]*$", re.I)
ENCOURAGE = ("I hope it goes well.", "That sounds like a good idea.", "Good luck with that.")


def tells_sorrow(last: str) -> bool:
    """`last` tells a worry or a hurt (not a question about one): it is answered, not talked over."""
    return bool(_SAD.search(last)) and not _QUESTION.search(last)


def warm(line: str) -> bool:
    """`line` says warm words to the one it is said to ("You matter to me.")."""
    return any(rx.search(line) for rx, _ in _WARM)


def replies_in_kind(last: str) -> tuple[str, ...]:
    """Answers to a feeling or an intention told: thanks for sympathy ("Funny you should say that." had answered
    "I'm sorry to hear that.") and for concern ("you look exhausted"), sympathy for sorrow, warmth for warm words,
    encouragement for a plan of one's own; () when `last` tells none (a question about a worry asks, it does not tell)."""
    if _plain(last) in _SYMPATHY_PLAIN:
        return THANKS_FOR_CARE
    if _QUESTION.search(last):
        return ()
    if tells_sorrow(last):
        return THANKS_FOR_CARE if _ABOUT_YOU.search(last) else SYMPATHY
    warmth = next((replies for rx, replies in _WARM if rx.search(last)), ())
    return warmth or (ENCOURAGE if _INTENT.search(last.strip()) else ())


FOLLOW_UPS = ("Oh, really? Tell me more.", "That's good to hear.", "I didn't know that.", "Interesting. How so?",
              "That makes sense to me.", "Ha, I know what you mean.", "Well, that's something.",
              "Good for you.", "Funny you should say that.", "I hadn't thought of it that way.",
              "Oh, is that so?", "Fair enough.", "Oh, that's nice.", "Well, there you go.",
              "Huh, I'd never have guessed.", "That's quite something.", "Oh? How did that happen?",
              "I can see why.", "Sounds like quite a day.", "I'll keep that in mind.")
CATCH_UPS = ("How have things been with you?", "How's it all going?", "How's your week been?",
             "How are things with you these days?", "What have you been up to today?",
             "Busy day today?")  # after being greeted back: asked after, answered in kind or with one's day
# a question asking what the other is doing or did ("Still reading by the bookshelf?"): one's day answers it
_DAY_ASKED = re.compile(r"\b(up to|been doing|what (are|were|'re) you doing|busy (day|today|morning|afternoon)|"
                        r"are you busy|plans?|rest of (your|the) day|still \w+ing|what's next)\b[^?]*\?", re.I)
_PLAIN_ANSWERS = tuple(t for t in HOW_ARE_YOU_ANSWERS if not t.endswith("?"))  # told, then one's day after it
CANNED_TURNS = frozenset(HOW_ARE_YOU_ANSWERS + UNSURE_ANSWERS + SYMPATHY + THANKS_FOR_CARE + WARM_REPLIES + ENCOURAGE
                         + FOLLOW_UPS + CATCH_UPS)
# everything canned but sympathy, which cares
SMALL_TALK = HOW_ARE_YOU_ANSWERS + UNSURE_ANSWERS + THANKS_FOR_CARE + WARM_REPLIES + ENCOURAGE + FOLLOW_UPS + CATCH_UPS
_SMALL_TALK_PLAIN = frozenset(_plain(t) for t in SMALL_TALK)


def farewell_pool(l: str) -> list[str]:
    return [f"I should get going. See you, {l}.", f"It was nice talking, {l}. Take care.",
            f"Well, I'll let you get on. Bye, {l}.", f"Good to catch up, {l}. See you soon.",
            f"I'd better be off. Take care, {l}.", f"Thanks for the chat, {l}. Bye for now."]


# goodbyes without a name: said once the town has said every named one to this listener enough today
# (a busy host's friends leave them many times a day)
NAMELESS_FAREWELLS = ("Bye for now!", "See you around.", "Right, I'm off. Take care.", "I'll see you later, then.",
                      "I must get going. Bye!", "Okay, take care now.")


def farewells(i: Any, n: int = 1) -> list[str]:
    """Goodbyes that do not echo a line of the talk ("Good to catch up, Dara. See you soon." after "Hi
    Dara, good to see you."): the line check would refuse them and leave code's fallback."""
    heard = [_plain(h.split(":", 1)[-1]) for h in i.history]
    pool = [f for f in farewell_pool(i.listener) if not any(repeats(_plain(f), h) for h in heard)]
    pool = fresh(pool, i) or fresh(NAMELESS_FAREWELLS, i) or pool  # one may always take one's leave
    return stable_pick(pool, turn_key("bye", i), n)


def is_small_talk(text: str, speaker: str, listener: str) -> bool:
    """A greeting, a goodbye, a stock reply or a code fallback line: it tells the listener nothing."""
    said = _plain(text)
    pools = [*greeting_pools(speaker, listener), farewell_pool(listener), NAMELESS_FAREWELLS, SMALL_TALK,
             fallback_lines(listener, opening=True), fallback_lines(listener, opening=False)]
    return any(_plain(line) == said for pool in pools for line in pool)


def fallback_lines(listener: str, *, opening: bool) -> list[str]:
    """What code says when no line could be made (dialogue.ConversationLine.fallback), in its order."""
    first = f"Hi {listener}, how are you doing?" if opening else "I see. Good to talk with you."
    return [first, "Mm, that makes sense.", "Right. Anyway, nice to catch up.", f"Take care, {listener}."]


def _greeted(i: Any, line: str, tier: int | None = None) -> bool:
    """`line` (the listener's, "Name: text") is one of the listener's greetings to the speaker (of `tier`)."""
    said = _plain(line.split(":", 1)[-1])
    pools = greeting_pools(i.listener, i.speaker)
    return any(_plain(g) == said for pool in (pools if tier is None else [pools[tier]]) for g in pool)


def says_nothing(i: Any, last: str) -> bool:
    """The listener's last line was a greeting to the speaker or a stock reply (to a day told, too)."""
    return _greeted(i, last) or _plain(last) in _SMALL_TALK_PLAIN or is_day_reply(last)


def answers(i: Any, last: str) -> list[LineOption]:
    """Replies to what the listener just said: a question, an apology, an invitation, news."""
    key = turn_key("ans", i)
    out: list[LineOption] = []
    if _HOW_ARE_YOU.search(last):
        asked_back = _ASKED_BACK.search(last)  # "How about you?": answer it, do not ask it back again
        pool = fresh([t for t in HOW_ARE_YOU_ANSWERS if not (asked_back and t.endswith("?"))], i)
        out += [LineOption(t, U_ANSWER, "answer:how-are-you") for t in stable_pick(pool, key, 2)]
    out += day_answers(i, last, key)
    if apologises(last, i.speaker):
        pool = ["Thank you for saying that. It means a lot.", "It's all right. I appreciate the apology.",
                "I was hurt, but thank you for apologising.", "Let's put it behind us."]
        out += [LineOption(t, U_ANSWER, "answer:apology") for t in stable_pick(pool, key, 2)]
    if _INVITE.search(last):
        pool = ["I'd like that very much.", "Sure, that sounds nice.", "Sorry, I don't think I can make it."]
        out += [LineOption(t, U_ANSWER, "answer:invitation") for t in pool]
    if _QUESTION.search(last) and not out:
        out += [LineOption(t, U_CANNED, "answer:unsure") for t in stable_pick(fresh(UNSURE_ANSWERS, i), key, 1)]
    if _greeted(i, last) and len(i.history) >= 2 and not _HOW_ARE_YOU.search(last):  # greeted back: ask after them
        out += [LineOption(t, U_CANNED, "catch-up") for t in stable_pick(fresh(CATCH_UPS, i), key, 1)]
    stock = says_nothing(i, last)  # "Good for you." answers no "Hi" or "Fine."
    replies = fresh(replies_to_day(last, i.t), i)
    out += [LineOption(t, U_DAY_REPLY, "answer:day") for t in stable_pick(replies, key, TEMPLATES_PER_KIND)]
    if felt := fresh(replies_in_kind(last), i):  # a feeling or an intention told is answered, not followed up
        out += [LineOption(t, U_FEELING, "answer:feeling") for t in stable_pick(felt, key, TEMPLATES_PER_KIND)]
    elif not _QUESTION.search(last) and not stock and not replies:  # a day told has answers of its own
        out += [LineOption(t, U_FOLLOW_UP, "follow-up") for t in stable_pick(fresh(FOLLOW_UPS, i), key, TEMPLATES_PER_KIND)]
    return out


def day_answers(i: Any, last: str, key: str) -> list[LineOption]:
    """One's day told when asked what one is up to, or after a stock reply to "How are you?"."""
    day = _day(i).sentences()
    if not day:
        return []
    if _DAY_ASKED.search(last):
        return [LineOption(s, U_DAY_ASKED, "day") for s in day]
    if _HOW_ARE_YOU.search(last):
        told = stable_pick(day, key, 1)[0]
        return [LineOption(f"{t} {told}", U_DAY_HOW, "answer:how-are-you+day")
                for t in stable_pick(fresh(_PLAIN_ANSWERS, i), key, 1)]
    return []


def day_topics(i: Any, last: str) -> list[LineOption]:
    """One's day told unasked, or asking the other about what it is seen doing ("Still reading by the
    bookshelf?"): once greetings are done, after a line that said nothing (news, a worry or a hurt is
    answered, not talked over) or that told the other's day ("And I've been ..."), and once a talk."""
    day = _day(i)
    asks_more = last in FOLLOW_UPS and ("?" in last or "Tell me" in last)  # "How so?": more of what one said
    stock = says_nothing(i, last) and not asks_more
    theirs = tells_day(last)
    mine = [_plain(line) for line in own_lines(i)]
    told_already = any(_plain(s) in m for s in day.sentences() for m in mine)
    if len(i.history) < 2 or not (stock or theirs) or told_already:
        return []
    if theirs:  # heard theirs: one's own told back
        return [LineOption(and_mine(s), U_DAY, "day") for s in day.sentences()]
    out = [LineOption(s, U_DAY, "day") for s in day.sentences()]
    if day.listener_doing:
        out.append(LineOption(f"Still {day.listener_doing}?", U_CANNED, "ask:doing"))
    return out


def own_lines(i: Any) -> list[str]:
    """What the speaker has said in this talk so far."""
    return [h.split(":", 1)[-1].strip() for h in i.history if h.split(":", 1)[0] == i.speaker]


def _day(i: Any) -> DayTalk:
    return getattr(i, "day", None) or DayTalk()


def own_topics(i: Any, last: str) -> list[LineOption]:
    """What the speaker has to say: its thoughts, the purpose of the meeting, memories the last line
    brought up (retrieved with it as the query), worth more the more words they share with it. After a
    question, a sorrow, warm words or a plan told, only what bears on it (a liking of one's own talks over
    it); warm words to the listener once in a while, not in every talk."""
    out: list[LineOption] = []
    said = content_words(last)
    answer_first = bool(_QUESTION.search(last) or replies_in_kind(last))  # to be answered, not talked over
    warm_before = any(warm(b) for b in [*getattr(i, "said_before", ()), *own_lines(i)])  # earlier or in this talk

    def talks_over(text: str, line: str) -> bool:
        return (answer_first and not said & content_words(text)) or (warm_before and warm(line))

    for thought in [t for t in i.urgent_thoughts if tellable(t, i.listener, i.sentiment)][-2:]:
        line = spoken(thought, i.speaker, i.listener)
        if not talks_over(thought, line):
            out.append(LineOption(line, U_THOUGHT, "thought"))
    if i.purpose and not i.history:
        out.append(LineOption(f"Thanks for meeting me, {i.listener}.", U_PURPOSE, "purpose"))
    for memory in i.memories:
        if not tellable(memory, i.listener, i.sentiment) or memory in getattr(i, "rules", ()):  # a rule guides
            continue
        line = spoken(memory, i.speaker, i.listener)
        if not talks_over(memory, line):
            overlap = len(said & content_words(memory)) / len(said) if said else 0.0
            utility = U_UNRELATED if said and not overlap else U_MEMORY + U_OVERLAP * overlap
            out.append(LineOption(line, utility, "memory"))
    return out + day_topics(i, last)


def line_options(i: Any) -> list[LineOption]:
    """Every line worth offering at this turn, best by code's estimate first, at most MAX_CANDIDATES;
    nothing said again, in this talk or to this listener in an earlier one."""
    last = i.history[-1].split(":", 1)[-1].strip() if i.history else ""
    if i.offer is not None:  # invited or told of an event: this turn answers it
        return offer_answers(i)
    said = [_plain(h.split(":", 1)[-1]) for h in i.history] + [_plain(t) for t in getattr(i, "said_before", [])]
    options = unsaid(news_lines(i) + own_topics(i, last), said)  # before a greeting is put in front of one
    if not i.history:
        opener = greetings(i)[0]
        options += [LineOption(opener, U_CANNED, "greeting")]
        options += [LineOption(f"{opener} {o.text}", o.utility + 0.05, o.source if ":" in o.source else
                               "greeting+" + o.source) for o in options[:3] if o.source.split(":")[0] in
                    ("thought", "purpose", "invite", "relay")]
    elif FAREWELL.search(last):  # the other is leaving: say goodbye, nothing new
        return [LineOption(f, U_FAREWELL_LAST, "farewell") for f in farewells(i, 2)]
    else:
        options += answers(i, last)
    if len(i.history) == 1 and not (tells_sorrow(last) or _HOW_ARE_YOU.search(last)):  # the other opened: greet
        options += [LineOption(g, U_ANSWER, "greeting") for g in greetings(i, 2)]
    if i.last_turn:
        options += [LineOption(f, U_FAREWELL_LAST, "farewell") for f in farewells(i)]
    if getattr(i, "reserved", False):  # brief: a reserved speaker's short lines are worth a little more
        options = [LineOption(o.text, o.utility + (0.1 if len(o.text.split()) <= 8 else 0.0), o.source)
                   for o in options]
    spent = set(getattr(i, "spent", ()))  # said enough in the town today (a greeting or goodbye is still said)
    unique: dict[str, LineOption] = {}
    for o in sorted(unsaid(options, said), key=lambda o: -o.utility):
        if len(o.text) <= MAX_CHARS and (o.source in ("greeting", "farewell") or _plain(o.text) not in spent):
            unique.setdefault(o.text, o)  # longer: a greeting and a long thought, more than one spoken line
    if not unique:  # nothing left to say: take one's leave
        return [LineOption(f, U_FAREWELL_LAST, "farewell") for f in farewells(i, 2)]
    return list(unique.values())[:MAX_CANDIDATES]


def unsaid(options: list[LineOption], said: list[str]) -> list[LineOption]:
    """The options that neither repeat nor are part of anything in `said` (plain text)."""
    return [o for o in options if not any(_plain(o.text) in s or s in _plain(o.text) or repeats(_plain(o.text), s)
                                          for s in said if s)]


REPEAT_OVERLAP = 0.8  # word-set overlap at which a line counts as repeating an earlier one


def repeats(a: str, b: str) -> bool:
    """Plain line `a` repeats `b`: equal, or nearly the same words."""
    if not a or not b:
        return False
    if a == b:
        return True
    wa, wb = set(a.split()), set(b.split())
    return min(len(wa), len(wb)) >= 3 and len(wa & wb) / min(len(wa), len(wb)) >= REPEAT_OVERLAP \
        and abs(len(wa) - len(wb)) <= 2


# --- events told by word of mouth (garp.mind.news) ------------------------------------------
U_INVITE = 1.0            # the host telling an invitee: what the errand is for
U_RELAY = 0.7             # passing news on, plus U_RELAY_CLOSE × familiarity: friends tell friends
U_RELAY_CLOSE = 0.3
U_ACCEPT = 0.95           # accepting an invitation from someone one knows (less from a stranger)
U_DECLINE = 0.3


def _event_words(n: Any, speaker: str) -> tuple[str, str]:
    """The event's name and place as `speaker` says them ("Ludwig's House" -> "my house" for Ludwig)."""
    what, place = n.what, n.place
    if what[:1].islower() and not re.match(r"(a|an|the|my|our|his|her|their)\b", what):
        what = ("an " if what[0] in "aeiou" else "a ") + what  # "jam session" -> "a jam session"
    if n.host == speaker:
        what = re.sub(rf"\b{re.escape(speaker)}'s\b", "my", what)
        place = re.sub(rf"^{re.escape(speaker)}'s (House|Flat|Home)$", lambda m: "my " + m.group(1).lower(), place)
    return what, place


def news_lines(i: Any) -> list[LineOption]:
    """Telling the listener about an event it has not heard of from this speaker."""
    out = []
    for n in i.news[:2]:
        what, place = _event_words(n, i.speaker)
        when = n.when(i.t)
        if n.speaker_is_host:
            out.append(LineOption(f"I'm having {what} at {place} {when}. Would you like to come?", U_INVITE,
                                  f"invite:{n.event_id}"))
        else:
            out.append(LineOption(f"Have you heard? There's {what} at {place} {when}. You should come!",
                                  U_RELAY + U_RELAY_CLOSE * float(i.familiarity), f"relay:{n.event_id}"))
    return out


def offer_answers(i: Any) -> list[LineOption]:
    """Answers to an invitation or a piece of news: accept (a commitment) or decline."""
    n = i.offer
    if n is None:
        return []
    when = n.when(i.t)
    accepts = ([f"I'd love to come. See you {when}!", f"Yes, count me in. {when[:1].upper() + when[1:]}, then.",
                f"How kind of you. I'll come {when}."]
               if n.host == i.listener else
               [f"Thanks for telling me. I'll be there {when}.", "Oh, nice! I'll try to come.",
                f"Good to know. I'll come along {when}.", "That sounds fun. I'll go."])
    declines = ["Sorry, I don't think I can make it.", "Thanks, but I'm busy then."]
    warm = U_ACCEPT if float(i.familiarity) >= 0.3 else U_ACCEPT - 0.3
    # the town's stock answers are spent after five a day (the phrasebook), but an offer is answered either way
    return [LineOption(a, warm, f"accept:{n.event_id}") for a in (fresh(accepts, i) or accepts)[:2]] + [
        LineOption(d, U_DECLINE, f"decline:{n.event_id}") for d in fresh(declines, i) or declines]
