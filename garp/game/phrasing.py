"""Display-only wording: activity text as plain English, and shortening that never cuts a word.

The world names what a body does as "verb (object name)" and a walk as "walking to
object (place)"; the minds name plan items. Those strings are also prompt text, so they
are left alone: this module rewrites them only where the player reads them (map labels,
the panel header). "work register (cash register)" reads "working at the cash register".
A decision's reason, which may carry the model's scores as JSON, reads as a sentence.
"""

from __future__ import annotations

import json
import re

from garp.textclean import with_article

# verb -> phrase; {o} is the object with its article ("the sofa", "Noor's bed").
VERB_PHRASES = {
    "attend": "attending class at {o}", "browse": "browsing {o}", "brush teeth": "brushing teeth at {o}",
    "buy": "buying something at {o}", "change": "getting changed at {o}", "chat": "chatting on {o}",
    "clean": "cleaning {o}", "clear": "clearing {o}", "cook": "cooking at {o}", "drink": "having a drink at {o}",
    "eat": "eating at {o}", "make coffee": "making coffee at {o}", "make the bed": "making {o}",
    "nap": "napping on {o}", "order": "ordering at {o}", "paint": "painting at {o}", "pay": "paying at {o}",
    "picnic": "having a picnic at {o}", "play": "playing {o}", "practice": "practising on {o}",
    "read": "reading by {o}", "relax": "relaxing on {o}", "restock": "restocking {o}", "serve": "serving at {o}",
    "shop": "shopping at {o}", "shower": "taking a shower", "sit": "sitting on {o}", "sleep": "sleeping in {o}",
    "snack": "having a snack from {o}", "study": "studying at {o}", "swing": "on {o}", "teach": "teaching at {o}",
    "use toilet": "using the toilet", "wash": "washing at {o}", "wash dishes": "washing dishes at {o}",
    "watch": "watching {o}", "water": "watering {o}", "wish": "making a wish at {o}", "work": "working at {o}",
    "work register": "working at {o}", "write": "writing at {o}",
}
IN_BED = {"nap"}  # verbs whose preposition follows the object: napping in a bed, on a sofa
DROPPED_PREFIXES = ("keep on: ",)  # plan bookkeeping a player need not read
# words a shortened phrase must not end on ("dinner at" reads as cut off)
DANGLING = {"a", "an", "the", "at", "to", "for", "with", "over", "and", "or", "of", "in", "on", "by", "from",
            "@", "-", "&", "his", "her", "their", "my"}
ELLIPSIS = "..."
_USE = re.compile(r"^(?P<verb>[a-z][a-z ]*) \((?P<obj>[^()]+)\)$")
_WALK = re.compile(r"^walking to (?P<obj>[^()]+) \((?P<place>[^()]+)\)$")


def use_phrase(verb: str, obj: str) -> str:
    template = VERB_PHRASES.get(verb)
    if template is None:
        return f"{verb} at {with_article(obj)}"
    if verb in IN_BED and "bed" in obj:
        template = template.replace(" on ", " in ")
    return template.format(o=with_article(obj))


def plain_activity(text: str) -> str:
    """An activity as the player reads it; unknown shapes pass through unchanged."""
    text = (text or "").strip()
    for prefix in DROPPED_PREFIXES:
        if text.startswith(prefix):
            text = text[len(prefix):]
    if text == "idle":
        return ""
    walk = _WALK.match(text)
    if walk:
        return f"walking to {with_article(walk['obj'])} at {walk['place']}"
    use = _USE.match(text)
    if use:
        return use_phrase(use["verb"], use["obj"])
    return text


def shorten(text: str, limit: int) -> str:
    """At most `limit` characters, cut between words, never ending on a dangling word."""
    text = " ".join((text or "").split())
    if len(text) <= limit:
        return text
    words = text[:max(1, limit - len(ELLIPSIS)) + 1].split(" ")
    if len(words) > 1:
        words = words[:-1]  # the last one may be cut mid-word
    while len(words) > 1 and words[-1].lower().strip(",;:") in DANGLING:
        words.pop()
    return " ".join(words).rstrip(",;:") + ELLIPSIS


# --- why a choice was made (the Decisions tab) -------------------------------------------
_BLEND = re.compile(r"^model likelihood blended with utility (?P<util>-?[\d.]+): (?P<raw>\{.*\})$", re.S)
_FALLBACK = re.compile(r"^utility fallback: (?P<cause>.*); best utility (?P<util>-?[\d.]+)$", re.S)
_SKIPPED = "model skipped: "
CAUSES = {"admission": "the model had too much work queued", "stale": "the request waited too long for the model"}


def readable_why(why: str, options: list[str], chosen: int | None) -> str:
    """The decision record's reason in words: the model's scores (a JSON object in the record) as
    the chosen option's combined score against the runner-up's; fallbacks and skips as sentences."""
    why = (why or "").strip()
    blend = _BLEND.match(why)
    if blend:
        return _blended(float(blend["util"]), blend["raw"], options, chosen)
    fallback = _FALLBACK.match(why)
    if fallback:
        kind, _, detail = fallback["cause"].partition(": ")
        cause = f"{CAUSES[kind]} ({detail})" if kind in CAUSES and detail else \
            f"the model's reply could not be used ({fallback['cause']})"
        return f"Code took the option with the best utility ({fallback['util']}): {cause}."
    if why.startswith(_SKIPPED):
        return f"Code chose without asking the model: {why[len(_SKIPPED):]}."
    return why


def _blended(util: float, raw: str, options: list[str], chosen: int | None) -> str:
    """'the model ... scored 0.36, ahead of reading a book at 0.30' from {"loglik": [...], "combined": [...]}."""
    said = f"The model judged how likely each option is here, blended with each option's utility (this one: {util:.2f})"
    try:
        scores = json.loads(raw)
        combined = [float(c) for c in scores.get("combined", [])]
    except (ValueError, TypeError, AttributeError):
        scores, combined = {}, []
    if isinstance(scores, dict) and scores.get("relevance"):
        said += " and its nearness to the goal"
    if chosen is None or not 0 <= chosen < len(combined):
        return f"{said}."
    others = [i for i in range(len(combined)) if i != chosen]
    if not others:
        return f"{said}: it scored {combined[chosen]:.2f}, the only option."
    runner = max(others, key=lambda i: combined[i])
    name = f'"{options[runner]}"' if runner < len(options) else f"option {runner + 1}"
    return f"{said}: it scored {combined[chosen]:.2f}, ahead of {name} at {combined[runner]:.2f}."
