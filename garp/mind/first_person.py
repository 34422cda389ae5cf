"""Third-person memory and persona text rewritten as the character would say it.

Memories are stored as "Oliver bought bread at the bakery"; a character speaking about
them says "I bought bread at the bakery". The rewrite is rule-based and conservative:
the character's own name becomes I / me / my; with `pronouns` (text that is about the
character, such as its persona) he/she/they and their objects do too; a present-tense verb
right after the new "I" loses its third-person -s.
"""

from __future__ import annotations

import re

from garp.mind.answer_kind import KIN_WORDS, person_names

_IRREGULAR = {"is": "am", "has": "have", "does": "do", "goes": "go", "was": "was", "isn't": "am not",
              "doesn't": "don't", "hasn't": "haven't", "'s": "'m"}
_ADVERBS = frozenset("always usually often never sometimes also still just really rarely seldom already "
                     "finally mostly only even then now normally generally occasionally regularly nearly almost "
                     "hardly barely happily quietly secretly".split())
# plural nouns of time opening an item of a list of habits ("..., and evenings listening to the radio"): no verbs
_TIMES = frozenset("mornings afternoons evenings nights weekends weekdays days weeks".split())
_NOT_VERBS = frozenset("this thus always perhaps us yes as its his hers ours yours".split())
_AUXILIARIES = frozenset("had was is has would could will did can should might must".split())
_DETERMINERS = frozenset("the a an my his her their some".split())
_CLAUSE_OPENERS = frozenset("and but who whom that which because when while where if so since until though "
                            "although whereas once".split())  # a name right after one opens a clause: its subject
_PRONOUNS = {"he": "I", "she": "I", "him": "me", "his": "my", "her": "my", "himself": "myself", "herself": "myself"}
# a character's own pronouns: subject, object, owning, reflexive
_OWN = {"he": ("he", "him", "his", "himself"), "she": ("she", "her", "her", "herself")}


def _verb_for_i(word: str) -> str:
    """The first-person form of a third-person present verb ("works" -> "work"); others unchanged."""
    low = word.lower()
    if low in _IRREGULAR:
        return _IRREGULAR[low]
    if low in _NOT_VERBS or len(low) < 4 or not low.endswith("s") or low.endswith("ss"):
        return word
    if low.endswith("ies"):
        return word[:-3] + "y"
    if low.endswith(("ches", "shes", "xes", "sses", "zes", "oes")):
        return word[:-2]
    return word[:-1]


def _agree(words: list[str], i: int) -> None:
    """Make the verb after the "I" at `i` agree, skipping adverbs ("I always walks" -> "I always walk")."""
    j = i + 1
    while j < len(words) and words[j].lower() in _ADVERBS:
        j += 1
    if j < len(words):
        core = words[j].rstrip(".,;:!?")
        words[j] = _verb_for_i(core) + words[j][len(core):]


_QUOTE = re.compile(r'"[^"]*"|“[^”]*”')  # someone's words, kept as they were said


def first_person(text: str, name: str, *, pronouns: bool | str = False, series: bool = False) -> str:
    """`text` about `name` as `name` would say it; `pronouns` "he" or "she" turns only that set of pronouns
    (the character's own), True every he/she/him/his/her; with `series`, a list of habits ("is up at six, eats
    late, and cooks every evening") has each predicate's verb agree, not only the first. Quoted words
    stay as said: Erica said "Hi Dara", not "Hi me"."""
    quotes: list[str] = []

    def hold(m: re.Match) -> str:
        quotes.append(m.group(0))
        return f"\x00{len(quotes) - 1}\x00"

    sentence = _rewritten(_QUOTE.sub(hold, text), name, pronouns, series)
    return re.sub(r"\x00(\d+)\x00", lambda m: quotes[int(m.group(1))], sentence)


def _rewritten(text: str, name: str, pronouns: bool | str, series: bool) -> str:
    out = re.sub(rf"\b{re.escape(name)}'s\s+([A-Z][a-z]+)\b", lambda m: "my " + m.group(1).lower(), text)
    out = re.sub(rf"\b{re.escape(name)}'s\b", "my", out)
    if pronouns:
        forms = tuple(_PRONOUNS) if pronouns is True else tuple(dict.fromkeys(_OWN[pronouns]))
        if "her" in forms:  # "her" before a pause or a preposition is the object ("have her.", "told her about")
            out = re.sub(r"\b(her)\b(?=[.,;:!?]|$|\s+(?:to|at|in|on|for|with|about|from|and|but|that|up|out|"
                         r"every|each|again|often|back|off|once|twice|when|if|because|today|now)\b)",
                         lambda m: _keep_case(m.group(1), "me"), out, flags=re.I)
        out = re.sub(rf"\b({'|'.join(forms)})\b",
                     lambda m: _keep_case(m.group(1), _PRONOUNS[m.group(1).lower()]), out, flags=re.I)
    words = out.split()
    for i, w in enumerate(words):
        core = w.rstrip(".,;:!?")
        if core == name or (pronouns and core == "I"):
            nxt = words[i + 1].lower() if i + 1 < len(words) else ""
            subject = core == "I" or i == 0 or words[i - 1].endswith((".", "!", "?", ";")) \
                or words[i - 1].lower() in _CLAUSE_OPENERS or nxt in _AUXILIARIES  # "I" was he/she: a subject
            words[i] = ("I" if subject else "me") + w[len(core):]
            if subject:
                _agree(words, i)
    if words and words[0] == "I":
        _coordinated(words)
        if series:
            _series(words)
    sentence = " ".join(words)
    return sentence[:1].upper() + sentence[1:] if sentence else sentence


def _coordinated(words: list[str]) -> None:
    """"I fix the tap and washes the dishes": a verb after "and" followed by a determiner agrees too."""
    for k in range(1, len(words) - 2):
        if words[k] == "and" and words[k + 2].lower() in _DETERMINERS:
            words[k + 1] = _verb_for_i(words[k + 1])


def _series(words: list[str]) -> None:
    """After a comma (or ", and"), a lower-case -s word opening a predicate of two words or more is its verb
    ("..., and cooks proper meals"); a one-word item is a noun in a list ("books, films, and plays")."""
    for k in range(1, len(words) - 1):
        after_comma = words[k - 1].endswith(",") or (words[k - 1] == "and" and k > 1 and words[k - 2].endswith(","))
        if words[k - 1] == "and" and words[k] in _IRREGULAR:  # "eat three meals and is asleep by ten"
            words[k] = _IRREGULAR[words[k]]
        elif after_comma and words[k] in _ADVERBS:  # ", and never misses the news"
            _agree(words, k - 1)
        elif after_comma and words[k] != "and" and words[k][:1].islower() and not words[k].endswith((",", ".", ";")) \
                and words[k + 1] not in ("and", "or") and words[k] not in _TIMES:  # "bees, chickens and goats" is a list
            words[k] = _verb_for_i(words[k])


def habits_in_first_person(text: str, name: str, pronouns: bool | str = True) -> str:
    """A list of habits as its owner says it, each verb agreeing with "I"; one written without its subject
    ("Checks the weather at six, takes tourists out at ten") is said with it ("I check the weather...").
    `pronouns` as `first_person` takes them."""
    words = text.split()
    if len(words) > 1 and words[0].lower().endswith("s") and words[0].lower() not in _TIMES \
            and words[1].lower() in _DETERMINERS:
        text = f"{name} {words[0].lower()} {' '.join(words[1:])}"
    return first_person(text, name, pronouns=pronouns, series=True)


def _keep_case(original: str, replacement: str) -> str:
    if replacement == "I":
        return "I"
    return replacement.capitalize() if original[:1].isupper() else replacement


# after "his"/"her", words that show it is not owning something ("told her about", "gave her a")
_NOT_OWNED = "(?:to|at|in|on|for|with|about|from|and|but|that|up|out|a|an|the|this|off|back|down|over|away|home)"


def memory_in_first_person(text: str, name: str, pronoun: str | None = None) -> str:
    """A memory as its owner says it. "his"/"her" become "my" in a memory about the owner that names
    nobody and nowhere else ("Oliver ate at his desk"), and before anyone else is named a "his"/"her"
    owning something is the owner's ("Fiona talked with her sailing teacher Greer"; not "Oliver admired
    Sam's bike and his dog"). Knowing the owner's own `pronoun` ("he", "she": `pronoun_in` its persona),
    only those are the owner's: "Hazel talked with her dad, who said his knee hurts" keeps "his knee"; and
    then the owner's reflexive ("for himself") and the owner told, asked or invited by the other ("who told
    him") are the owner's too, wherever they stand."""
    words = text.split()
    alone = bool(words) and words[0] in (name, f"{name}'s") and not any(w[:1].isupper() for w in words[1:])
    if words and words[0] == name and not alone:
        other = _first_other(words, name, pronoun)
        owning = _OWN[pronoun][2] if pronoun else "his|her"
        head = re.sub(rf"\b({owning})\s+(?!{_NOT_OWNED}\b)(?=[a-z])", f"{name}'s ", " ".join(words[:other]))
        if pronoun and not _SOMEONE.search(head):  # before anyone else is named: "worries that he will fail"
            subject, obj = _OWN[pronoun][:2]
            head = re.sub(rf"\b(that|because|so|and|but|when|if|until|as) {subject}\b", rf"\1 {name}", head)
            head = re.sub(rf"\b(with|for) {obj}\b(?! (?!{_NOT_OWNED}\b)[a-z])", rf"\1 {name}", head)
        text = " ".join([head] + words[other:])
        if pronoun:
            text = _owner_in_the_rest(text, name, pronoun)
    return first_person(text, name, pronouns=(pronoun or True) if alone else False)


# someone a memory tells of without a name ("his dad, who said he might visit"): its pronouns may be theirs
_PERSON_NOUNS = ("man", "men", "woman", "women", "lady", "boy", "girl", "child", "children", "baby", "kid", "someone",
                 "somebody", "anyone", "everyone", "customer", "tourist", "stranger", "visitor", "patient", "pupil",
                 "student", "guest", "couple", "family", "mother", "father", "parent", "doctor", "nurse", "vet")
_SOMEONE = re.compile(rf"\b(who|whom|(?:{'|'.join(KIN_WORDS + _PERSON_NOUNS)})s?)\b", re.I)


def _first_other(words: list[str], name: str, pronoun: str | None) -> int:
    """Where a memory first names someone other than its owner: knowing the owner's pronoun, the first person's
    name (not a day, a month or a place: "on Thursday", "at Hollis Hardware"), else any capitalised word;
    past the end when it names no one."""
    if pronoun is None:
        return next((k for k, w in enumerate(words[1:], 1) if w[:1].isupper()), len(words))
    people = set(person_names(" ".join(words), name))
    return next((k for k, w in enumerate(words[1:], 1) if w.strip(".,;:!?'\"") in people), len(words))


_TOLD = "(?:told|asked|invited|warned|reminded|thanked|promised|offered|gave|showed|sent|texted|called|lent|taught)"
# what follows the one told ("who told him she got the job", "who asked her to"), not a thing owned ("her son")
_AFTER_TOLD = (rf"(?:{_NOT_OWNED}|he|she|they|it|we|that|if|whether|not|how|what|when|where|why|who|his|her|their"
               r"|so|again)")


def _owner_in_the_rest(text: str, name: str, pronoun: str) -> str:
    """The owner's reflexive and the owner as the one told or asked, in a memory naming someone else."""
    _, own_object, _, own_self = _OWN[pronoun]
    text = re.sub(rf"\b{own_self}\b", "myself", text)
    # told by another ("who told him", "Ada told him"): the owner as the subject told someone else
    teller = rf"(who|(?!{re.escape(name)}\b)[A-Z][a-z]+)"
    return re.sub(rf"\b{teller} ({_TOLD}) {own_object}\b(?=\s+{_AFTER_TOLD}\b|[\s.,;:!?]*$|[.,;:!?])",
                  lambda m: f"{m.group(1)} {m.group(2)} me", text)


def pronoun_in(text: str) -> str | None:
    """The pronoun a persona's own text uses for its character: "she" or "he" where one set is at least
    twice as common as the other, else None (the rewrite then takes every he/she as the owner's)."""
    words = re.findall(r"[a-z]+", text.lower())
    she = sum(w in _OWN["she"] for w in words)
    he = sum(w in _OWN["he"] for w in words)
    return "she" if she >= max(1, 2 * he) else "he" if he >= max(1, 2 * she) else None


def to_listener(text: str, listener: str) -> str:
    """First-person text said to `listener`: their name becomes "you" ("I saw Jonah's bike" -> "I saw
    your bike"; "Jonah and I" -> "you and I")."""
    named = re.search(rf"\b{re.escape(listener)}\b", text)
    out = re.sub(rf"\b{re.escape(listener)}'s\b", "your", text)
    out = re.sub(rf"(^|[.!?;]\s+|\b(?:and|but|that|when|because|so|while|if)\s+){re.escape(listener)} (\S+?)\b"
                 r"(?=[\s.,;:!?]|$)", lambda m: m.group(1) + "you " + _you_verb(m.group(2)), out)  # a subject
    out = re.sub(rf"\b{re.escape(listener)}\b", "you", out)
    if named:  # after naming the listener, "him"/"his" (the speaker's own are already "me"/"my") are the listener
        head, tail = out[:named.start()], out[named.start():]
        tail = re.sub(r"\b(him|her)\b(?=\s*(?:[.,;!?]|$|today|tomorrow|now|again|properly|about|for|to|at|in))",
                      "you", tail)
        tail = re.sub(r"\b(his|her)\b", "your", re.sub(r"\bhim\b", "you", tail))
        out = head + (_listener_as_subject(tail) if not _OTHER_NAME.search(tail) else tail)
    return out[:1].upper() + out[1:] if out else out


_OTHER_NAME = re.compile(r"(?<![.!?;]\s)(?<!^)\b[A-Z][a-z]+")  # a capitalised word inside a clause: someone else
_YOU_VERB = {"is": "are", "was": "were", "has": "have", "does": "do", "isn't": "aren't", "wasn't": "weren't",
             "hasn't": "haven't", "doesn't": "don't"}


def _you_verb(verb: str) -> str:
    """The verb after a new "you" ("looks" -> "look", "is" -> "are"); a past or modal verb unchanged."""
    low = verb.lower()
    return _YOU_VERB.get(low) or (verb if low in _YOU_VERB.values() else _verb_for_i(verb))


def _listener_as_subject(tail: str) -> str:
    """"she looks exhausted" -> "you look exhausted", when nobody but the listener is named."""
    return re.sub(r"\b(he|she) (\S+?)\b(?=[\s.,;:!?]|$)", lambda m: "you " + _you_verb(m.group(2)), tail)
