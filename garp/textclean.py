"""Cleaning text that comes from a person or a model before it is stored or printed.

Terminal escape sequences (colours, cursor moves, window titles) and control characters
(NUL, bell, backspace, bidirectional overrides) would otherwise be stored as memories,
sent to the model and replayed raw into the player's terminal.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter

# CSI (ESC [ ... final), OSC (ESC ] ... BEL or ESC \), and the two-byte ESC sequences.
ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[@-Z\\-_]?|\x9b[0-?]*[ -/]*[@-~]")
KEEP_FORMAT = {"\u200d"}  # zero-width joiner: part of emoji sequences
_TITLES = ("Mr", "Mrs", "Ms", "Dr", "St")  # "old Mr. Pryce retired" is one sentence
_SENTENCE_END = re.compile("".join(rf"(?<!\b{t}\.)" for t in _TITLES) + r"(?<=[.!?])\s+(?=\S)")


def sentences(text: str) -> list[str]:
    """The sentences of `text`; a quotation is part of the sentence that quotes it ('told her: "Yes. Soon."')."""
    merged: list[str] = []
    for part in _SENTENCE_END.split(text.strip()):
        if merged and merged[-1].count('"') % 2:
            merged[-1] += " " + part
        elif part:
            merged.append(part)
    return merged


LOOP_NGRAM, LOOP_TIMES = 3, 3  # a 3-word phrase coming back 3 times is a loop


def plain(text: str) -> str:
    """Text as compared: lower-case words only ("Fair enough." == "fair enough")."""
    return " ".join(re.findall(r"[a-z0-9']+", text.lower()))


def loops(text: str) -> bool:
    """One phrase keeps coming back (a small model's "a friend, a friend, a friend...")."""
    words = plain(text).split()
    grams = Counter(" ".join(words[i:i + LOOP_NGRAM]) for i in range(len(words) - LOOP_NGRAM + 1))
    return any(n >= LOOP_TIMES for n in grams.values())


_WORD = re.compile(r"[^\W\d_]{3,}")
# A statement does not stop on an article, a conjunction or a pronoun still waiting for its verb
# (a model that ran out of tokens: "...; she looks exhausted; she's.").
_DANGLING = re.compile(r"\b(a|an|the|and|or|but|because|very|(?:she|he|it|they|you|we|that|there)'(?:s|re)|i'm|"
                       r"(?:she|he|it|they|you|we|i) (?:is|are|was|were|am))\W*$|[,;:]\s*$", re.I)


def is_prose(text: str) -> bool:
    """Reads as a statement: three words or more, two of them of three letters or more, and
    letters make up most of the text, and no phrase loops ('Sam is kind' does; 'A: 1, A: 2,
    A: 3', '12:30am, 11:30am', 'Jake's House', 'she is tired; she's.', 'she is curious,
    she is.' and 'Not bad at all,' do not)."""
    chars = [c for c in text if not c.isspace()]
    letters = sum(c.isalpha() for c in chars)
    return len(text.split()) >= 3 and len(_WORD.findall(text)) >= 2 and letters >= 0.6 * len(chars) \
        and not _DANGLING.search(text.replace("\u2019", "'")) and not loops(text)


def listed(items: list[str]) -> str:
    """'a', 'a and b', 'a, b and c'."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def with_article(thing: str) -> str:
    """'sofa' -> 'the sofa'; names and possessives ('Noor's bed', 'Hobbs Cafe') keep no article."""
    if not thing or thing[0].isupper() or "'s " in thing or thing.startswith(("the ", "a ", "an ", "my ")):
        return thing
    return f"the {thing}"


def strip_controls(text: str) -> str:
    """Escape sequences removed; control and format characters become spaces or vanish."""
    text = ANSI.sub("", str(text))
    out = []
    for ch in text:
        cat = unicodedata.category(ch)
        if ch in "\t\n\r\v\f":
            out.append(" ")
        elif cat in ("Cc", "Cs") or (cat == "Cf" and ch not in KEEP_FORMAT):
            continue
        else:
            out.append(ch)
    return "".join(out)


def clean_line(text: str, max_chars: int, what: str = "question") -> tuple[str, str]:
    """(one clean line, a notice when it had to be shortened): controls removed, whitespace
    collapsed, cut at a word boundary to `max_chars`."""
    flat = " ".join(strip_controls(text).split())
    if len(flat) <= max_chars:
        return flat, ""
    cut = flat[:max_chars + 1].rsplit(" ", 1)[0] if " " in flat[:max_chars + 1] else flat[:max_chars]
    cut = cut[:max_chars].rstrip()
    return cut, f"({what} shortened to its first {len(cut)} of {len(flat)} characters; the limit is {max_chars})"


def printable(text: str) -> str:
    """Text safe to print on a terminal: escapes and controls removed, line breaks kept."""
    return "\n".join(" ".join(strip_controls(line).split()) for line in str(text).splitlines())
