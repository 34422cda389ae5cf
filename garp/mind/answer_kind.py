"""What kind of answer an interview question asks for, and whether a text holds it (issue 18: an answer
that lacks the asked detail is no answer, so "I don't recall" can win).

`asked_type` reads the question ("What flavour of cat food did you buy?" asks the quality of a thing met,
"Who's been taking water from Mrs Pinto?" a name other than the one it holds); `states_type` tells
whether a source holds it. Also the word, name and kin helpers the interview's other cues share.
"""

from __future__ import annotations

import re
from itertools import dropwhile, takewhile

NEAR_WORDS = 3         # a name this near the thing it names ("the ship Adelaide", "Moss, my dog")
_APPOSITION = frozenset("a an the my our his her their its this that called named".split())
STEM_CHARS = 5         # prefix length for matching content words ("records" ~ "record")
_WORD = re.compile(r"[a-z\u00df-\u024f']+")  # with accented letters: "Esmé", "Joaquín"
STOPWORDS = frozenset(
    "the a an and or but of to in on at for with from by about as is are was were be been am i you he she it we "
    "they me my your his her its our their this that these those what which who whom why how when where do does "
    "did have has had not no so very just really too also there here then than into out up down over can could "
    "would should will shall may might must i'm i've i'd you're it's that's don't didn't".split())

# words that tell when or how well, not what: "Did the rocket fly okay today?" holds "rocket" and "fly"
_NOT_TOLD = frozenset("today yesterday tonight ever lately recently okay ok alright all right well".split())


def word_list(text: str) -> list[str]:
    return _WORD.findall(text.lower())


_SUFFIX = re.compile(r"(?<=\w{4})(ies|ied|ying|ing|ed)$|(?<=\w{3})(?<!s)(s)$")  # "living" stays, not "live"
_SUFFIX_AS = {"ies": "y", "ied": "y", "ying": "y"}  # "worries", "worried", "worrying" ~ "worry"


def stem(word: str) -> str:
    """A word without its inflection, cut to STEM_CHARS letters ("records" ~ "record", "worries" ~ "worrying")."""
    return _SUFFIX.sub(lambda m: _SUFFIX_AS.get(m.group(1) or "", ""), word).removesuffix("e")[:STEM_CHARS]


FAMILY_WORDS = ("partner", "wife", "husband", "daughter", "son", "mother", "mum", "father", "dad", "brother",
                "sister", "grandmother", "grandfather", "grandson", "granddaughter", "aunt", "uncle", "cousin",
                "niece", "nephew")
KIN_WORDS = FAMILY_WORDS + ("children", "child", "kids", "grandchildren", "grandchild", "grandkids", "mam", "boy",
                            "lad", "girl", "lass", "hubby", "missus", "friend", "neighbour", "neighbor",
                            "boss", "housemate", "flatmate", "girlfriend", "boyfriend", "fiance", "fiancee",
                            "colleague", "apprentice", "landlord", "teacher")
KIN_PATTERN = "|".join(KIN_WORDS)
_MY_KIN = re.compile(rf"\bmy ({KIN_PATTERN})\b", re.I)
_PLACE_WORDS = frozenset("at in on near behind inside outside".split())


def person_names(text: str, own_name: str = "") -> list[str]:
    """Capitalised words inside the sentence that may name a person: not "I", a day, a month or
    "Mum", not the speaker, and not a place ("at Hobbs Cafe", "in Erica's House")."""
    skip = NOT_NAMES | {own_name.lower()}
    words, names, place = text.split(), [], False
    for before, word in zip(words, words[1:]):
        core = word.strip(".,;:!?'\"")
        # a place runs from "at"/"in"... over articles and capitalised words, to the first other word
        continues = before.lower() in _PLACE_WORDS or (place and not before.endswith((",", ";", ".")))
        place = continues and (core[:1].isupper() or core.lower() in ("the", "my", "a"))
        opens = before.endswith((".", "!", "?"))  # "Bonjour! What went wrong?": "What" opens a sentence
        low = core.lower().removesuffix("'s")  # "Sunday's wedding" names no one
        if core[:1].isupper() and not place and low not in skip and not (opens and low in STOPWORDS):
            names.append(core)
    return names


def proper_names(text: str, own_name: str = "") -> set[str]:
    """Capitalised words past the first, of people and places alike (lower case, without "'s")."""
    skip = NOT_NAMES | {own_name.lower()}
    words = (w.strip(".,;:!?'\"()").lower().removesuffix("'s") for w in text.split()[1:] if w[:1].isupper())
    return {w for w in words if w and w not in skip}


def named_people(text: str, own_name: str) -> set[str]:
    return {n.lower().removesuffix("'s") for n in person_names(text, own_name)}


GENERIC_VERBS = frozenset("do doing done did been happen happened happening going spend spent busy".split())
SELF_ASKED = re.compile(r"\b(about yourself|who are you|introduce yourself|describe yourself|what are you like|"
                        r"what kind of person|your personality)\b", re.I)
_MEAL_NAME = re.compile(r"\b(breakfast|lunch|dinner|supper)\b", re.I)
MEAL_SAME = {"supper": "dinner", "tea": "dinner"}
_PAST = re.compile(r"\b(did|were|was|had|happened|went|today|yesterday|last (night|week)|this (morning|afternoon)|"
                   r"earlier|ago)\b", re.I)
# "when" asks a time opening the question or before a verb, not in "What do you do when a friend is scared?"
_TYPE_QUESTIONS = (("name", re.compile(r"\b(who|whom|whose|called)\b", re.I)),  # "name": _CALLED, first
                   ("time", re.compile(r"^(?:(?:so|and|but|then|well|ok|okay),?\s+)?when\b|"
                                       r"\bwhen (?:is|are|was|were|did|do|does|will|would|can|could|shall|should|has|have)\b|"
                                       r"\b(what time|what day|which day|how long)\b", re.I)),
                   ("number", re.compile(r"\b(how (much|many|old|far|big|tall|heavy)|what (price|dose|size))\b", re.I)),
                   ("place", re.compile(r"\bwhere\b", re.I)))
_CALLED = re.compile(r"\bnames?\b|\bcalled\s*\??\s*$", re.I)  # "Who called you?" asks no name
_TAKINGS_WORDS = r"money|cash|tak(?:e|en|ings)|took"  # "How much money did you take?": a sum, nothing priced
_TAKINGS = re.compile(rf"\b({_TAKINGS_WORDS})\b", re.I)
_PRICE_WORDS = rf"charg\w*|costs?|costing|pa(?:y|id|ys|ying)|pric\w*|sell\w*|sold|spen[dt]\w*|earn\w*|fees?|much|{_TAKINGS_WORDS}"
_PRICE_ASKED = re.compile(rf"\bhow much\b.*\b({_PRICE_WORDS})\b|\bwhat price\b|\bhow much (rent|money)\b", re.I)
_MONEY = re.compile(r"[£$€]\s?\d|\b(pounds?|pence|p|dollars?|cents?|euros?|shillings?|quid|bucks|coins?)\b", re.I)
_MEAL_ASKED = re.compile(r"\b(what did you (have|eat)\b(?!.* (with|on))|"
                         r"what did you (cook|make|bake)\b(?=.* for (breakfast|lunch|dinner|supper|tea))|"
                         r"(have|eat|ate) for (breakfast|lunch|dinner|supper)|"
                         r"what(?:'s| is) for (breakfast|lunch|dinner|supper))", re.I)
_FOOD = re.compile(r"\b(ate|eat|eats|eating|had (breakfast|lunch|dinner|supper|a snack|a meal)|breakfast|lunch|dinner|"
                   r"supper|snacks?|cooked|meal|soup|sandwich|bread|toast|porridge|eggs?|cake|pie|stew|salad|pastr\w*|"
                   r"fish|chips|noodles|rice|pasta|curry|roast|fruit|apples?)\b", re.I)
_COUNT_ASKED = re.compile(r"\bhow many (\w+)", re.I)
_LIKING_ASKED = re.compile(r"\bfavou?rite\b|\b(like|love|enjoy) (\w+ )?(best|most)\b|\bprefer\b", re.I)
_LIKING = re.compile(r"\b(favou?rites?|lov(e|es|ed|ing)|lik(e|es|ed|ing)|prefer(s|red)?|enjoy(s|ed|ing)?|fond|"
                     r"best|happ(y|ier|iest)|adore[sd]?|delight\w*|can't resist)\b", re.I)
_KIN_NAME_ASKED = re.compile(rf"\byour ({KIN_PATTERN})(?:'s?)? (?:names?|called)\b|\bname of your ({KIN_PATTERN})\b|"
                             rf"\bwhat(?:'s| is| was) your ({KIN_PATTERN}) called\b", re.I)
_THING_NAME_ASKED = re.compile(r"\b(?:name|title) of (?:the|your|that|this) (\w+(?: \w+)?)|"
                               r"\bwhat(?:'s| is| was) (?:the|your) (\w+) called\b", re.I)
KIN_SAME = {"mum": "mother", "mom": "mother", "mam": "mother", "dad": "father", "neighbor": "neighbour", "boy": "son",
            "lad": "son", "girl": "daughter", "lass": "daughter", "hubby": "husband", "missus": "wife"}
WEEKDAYS = "monday tuesday wednesday thursday friday saturday sunday".split()
MONTHS = "january february march april may june july august september october november december".split()
_CLOCK_WORDS = "one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve"
TIME_WORDS = re.compile(r"\b(\d{1,2}(:\d\d)?\s*(am|pm)?|noon|midnight|mornings?|afternoons?|evenings?|nights?|tonight|"
                        r"tomorrow|yesterday|today|weeks?|months?|years?|decades?|ago|since|spring|summer|autumn|"
                        rf"fall|winter|weekends?|{'|'.join(d + 's?' for d in WEEKDAYS)}|"
                        rf"{'|'.join(m for m in MONTHS if m != 'may')}|o'clock|minutes?|hours?|days?|"  # "may": a verb
                        rf"(?:at|by|from|until|till|before|after) (?:{_CLOCK_WORDS})(?: (?:thirty|fifteen|o'clock))?)\b",
                        re.I)
_WHEN_NOUNS = (r"(end|start|beginning|middle|morning|afternoon|evening|night|moment|weekend|week|month|year|day|"
               rf"time|minute|hour|{'|'.join(w.capitalize() for w in WEEKDAYS + MONTHS)})s?\b")
# not a time ("at the end of the month", "on the last Sunday"), nor a way of talking ("on the phone")
_PLACE = re.compile(r"\b(at|in|on|near|behind|by|from|to|outside|inside)\s+"
                    rf"(?!(?:(?:the|my|his|her|their|a)\s+)?(?:(?:last|next|first|same|following)\s+)?{_WHEN_NOUNS})"
                    r"(?!(?:the|my|his|her|their|a)\s+(?:(?:tele)?phone|(?:radio|video call)\b))"
                    r"((the|my|his|her|their|a)\s+\w+|[A-Z]\w+|town|home)")
_WORD_KEEP = re.compile(r"[A-Za-z']+")
NOT_NAMES = frozenset("i i'm i'd i've i'll mum mom dad mr mrs ms dr christmas easter halloween diwali eid hanukkah ramadan".split()
                      + WEEKDAYS + MONTHS)
_TEENS = "thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen"
_TENS = "twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety"
_NUMBER = re.compile(rf"\b(\d+|{_CLOCK_WORDS}|{_TEENS}|{_TENS}|hundred|thousand|dozen|half)\b", re.I)
_IDENTITY_ASKED = re.compile(r"^\s*(?i:who)(?:'s| is| was| are| were)\s+(?:(?:Mr|Mrs|Ms|Dr)\.?\s+)?[A-Z][\w'-]*\s*\??\s*$")
_MARK_ASKED = re.compile(r"\bwhat (mark|grade|score)s?\b|\bhow (many marks|did you score)\b", re.I)
_MARK = re.compile(rf"\b(\d+|{_CLOCK_WORDS}|[a-z]+teen|{_TENS})\s*"
                   r"(out of|/|percent|%|marks?|points?)|\b(an?|grade|got)\s+[A-F][+*-]?(?=\W|$)|\b[A-F][+-](?=\W|$)")
_COLOUR_ASKED = re.compile(r"\bwhat colou?rs?\b|\bwhich colou?rs?\b", re.I)
_COLOURS = re.compile(r"\b(red|orange|yellow|green|blue|purple|violet|pink|brown|black|white|grey|gray|silver|gold|"
                      r"golden|beige|cream|navy|turquoise|teal|maroon|crimson|scarlet|ginger|tabby|tortoiseshell|"
                      r"ivory|lilac|mauve|olive|amber|bronze|copper|tan|khaki|striped|spotted|tartan|(\w+)-coloured)\b",
                      re.I)
_AGE_ASKED = re.compile(r"\bhow old\b", re.I)
_AGE = re.compile(rf"\b(\d+|{_CLOCK_WORDS}|{_TEENS}|{_TENS}|"
                  r"hundred)(?:[\s-]+\w+)?[\s-]+(years?|year-olds?|months?)\b|"
                  rf"\b(turn(s|ed|ing)?|aged?|birthday)\s+(\d+|[a-z]+teen|{_TENS}|{_CLOCK_WORDS})\b", re.I)
# "What flavour of soup / What make is the amplifier": a quality of a thing, told by a word before it ("tomato soup")
_QUALITY = r"(kind|type|sort|flavou?r|brand|make|model|breed|variety|style)"
_QUALITY_ASKED = re.compile(rf"\b(?:what|which) {_QUALITY}s? (?:of|is|was|are|were) (?P<thing>\w+(?:\s+\w+){{0,2}})", re.I)
# "Which city / Which team": one thing of many, told by its name
_WHICH_ASKED = re.compile(r"\bwhich (?:\w+ )?(?P<thing>city|town|village|country|university|college|school|team|club|venue|"
                          r"songs?|band|books?|films?|movies?|street|road|shop|pub|hotel|restaurant|hospital|church|island|"
                          r"ship|boat|programmes?|shows?|company|firm|river|games?|race|horse|dog|cat|play|piece|poem)\b",
                          re.I)
# "Who won the race?", "Where did the key turn up in the end?": how something came out, told only by a word that
# says so and is not the question's own ("I lost my key" answers no "lost key turn up"); "How did you end up
# here?", "When did the drays turn up?" and "How did the trip go?" ask no such thing
_WIN_ASKED = re.compile(r"\bwho (won|came first)\b|\b(did|do|does) (?:[\w']+ ){1,4}win\b", re.I)
_OUTCOME_ASKED = re.compile(r"\bin the end\b|\bwhere did (?:[\w']+ ){1,4}turn up\b|\bwhat was the (result|verdict|outcome)\b|"
                            r"\bhow did (?:[\w']+ ){1,5}(?:go|do|get on)\b(?! (?:to|with|for|about)\b)", re.I)
_WIN_WORDS = r"won|wins?|beat|lost|loses?|came (first|second|third|last)|draw|drew|tied|first prize"
_WON = re.compile(rf"\b({_WIN_WORDS}|winners?|champions?|victory)\b", re.I)  # "scored twice" says nothing of who won
_OUTCOME = re.compile(rf"\b({_WIN_WORDS}|winner|pass(ed)?|fail(ed)?|went (well|badly|fine|wrong|ok|okay|smoothly)|"
                      r"turned (up|out)|found|results?|ended|in the end|finally|eventually|got (through|in|the|a|an|top)|"
                      r"praised|fixed|mended|healed|recovered|solved|cancelled|postponed|verdict|scored?|second prize|"
                      r"medal|trophy|caught)\b", re.I)
# "Did the magazine print your letter?": whether one thing happened, asked of nothing open ("Did anything break?");
# a source tells it only by saying all of it ("the magazine printed my letter") or how it came out
_DID_ASKED = re.compile(r"^\s*did\b(?!.*\b(any\w*|some\w*|every\w*|what|who|which|where|when|how)\b)", re.I)
_ASKING_STEMS = frozenset(stem(w) for w in "turned winner ended result verdict outcome score".split())  # "turn up"
# "What did the vet say was wrong?", "What did Pavel tell you?": what someone said, by a verb of saying
_SAID_ASKED = re.compile(r"\bwhat did (?:[\w']+ ){1,4}(say|tell|think|reckon|answer|reply|write|suggest|advise)\b", re.I)
_SAYING = re.compile(r"\b(said|says|say|told|tells|tell|thinks?|thought|reckons?|reckoned|answered|replied|explained|"
                     r"warned|asked|promised|mentioned|complained|admitted|agreed|insisted|suggested|advised|invited|"
                     r"wants?|wanted|reminded|announced|confirmed|according to)\b", re.I)  # not "wrote": one's own letter
_CLOCK_ASKED = re.compile(r"\bwhat time\b", re.I)
_CLOCK = re.compile(rf"\b(\d{{1,2}}(:\d\d)?\s*(am|pm)?|noon|midday|midnight|dawn|dusk|o'clock|half past|quarter (past|to)|"
                    rf"(?:at|by|from|until|till|before|after|around|about) (?:{_CLOCK_WORDS}))\b", re.I)
# after the kinds a question's phrasing asks (a price, a count, a quality...), those its question words ask: "What
# time" a clock time (not "on Thursdays"), "Who won" a name that won, then who, when, how much, where
_ASKED_BY_WORDS = (("clock", _CLOCK_ASKED), ("outcome:win", _WIN_ASKED), ("outcome", _OUTCOME_ASKED), ("said", _SAID_ASKED),
                   *_TYPE_QUESTIONS)
_PLAIN_BEFORE = frozenset("a an the my your his her our their its some of that this these those any another new old "
                          "hand big small little large nice lovely good whole same other own fresh lost stray young tiny poor "
                          "injured hungry sick wet dead".split())  # "second-hand"


def asks_about_past(question: str) -> bool:
    """A question about an event ("What did you eat today?"), not about a habit or a trait."""
    return bool(_PAST.search(question))


def asked_type(question: str) -> str | None:
    """What an answer must contain: 'name' (who), 'name:called' (what someone is called), 'kin:<role>' (your
    sister's name), 'title:<thing>' (the name of a thing: the ship, the place you work), 'clock' (what time),
    'outcome' (who won, where it turned up), 'said' (what someone said), 'time' (when), 'price' (how
    much does it cost), 'count:<stem>' (how many acres), 'liking' (your favourite flower), 'number' (how
    old), 'place' (where) or 'meal' (what did you eat)."""
    if m := _KIN_NAME_ASKED.search(question):
        return "kin:" + kin_role(next(g for g in m.groups() if g))
    if (m := _THING_NAME_ASKED.search(question)) and (thing := _thing_words(next(g for g in m.groups() if g))) \
            and thing[0] not in KIN_WORDS:  # "the name of the student nurse": "title:stude nurse"
        return "title:" + " ".join(stem(w) for w in thing)
    if _PRICE_ASKED.search(question):  # and what was priced: "rent flat" for "How much rent do you pay for your flat?"
        priced = [] if _TAKINGS.search(question) else [  # a day's takings are a sum of nothing priced
            w for w in word_list(question) if w not in STOPWORDS and w not in GENERIC_VERBS and w not in _NOT_TOLD
            and not re.fullmatch(_PRICE_WORDS, w)]
        return "price:" + " ".join(sorted({stem(w) for w in priced}))
    if m := _COUNT_ASKED.search(question):
        return "count:" + stem(m.group(1).lower())
    if _CALLED.search(question):
        return "name:called"
    if _LIKING_ASKED.search(question):
        return "liking"
    if SELF_ASKED.search(question):  # "What kind of person are you?": the self source answers
        return None
    if _MARK_ASKED.search(question):
        return "mark"
    if _COLOUR_ASKED.search(question):
        return "colour"
    if _AGE_ASKED.search(question):
        return "age"
    if m := _QUALITY_ASKED.search(question) or _WHICH_ASKED.search(question):
        # of a thing met ("What flavour of cat food did you buy?") a source must tell it; of a habit ("What
        # kind of food do you eat?") one that does not name the thing may still answer
        kind = "which" if m.re is _WHICH_ASKED else "quality" if asks_about_past(question) else "sort"
        return f"{kind}:{' '.join(stem(w) for w in _thing_words(m.group('thing')))}"
    if _IDENTITY_ASKED.search(question):  # "Who is Yuki?" asks about the one it names, not for a name
        return None
    return next((kind for kind, rx in _ASKED_BY_WORDS if rx.search(question)), None) or \
        (f"meal:{_meal_named(question)}" if _MEAL_ASKED.search(question) else None) or \
        (f"happened:{' '.join(sorted(_content_stems(question)))}" if _DID_ASKED.search(question) else None)


def _content_stems(text: str) -> set[str]:
    """The stems of what a text says: not its function words, nor when or how well ("today", "okay")."""
    return {stem(w.removesuffix("'s")) for w in word_list(text)
            if w not in STOPWORDS and w not in GENERIC_VERBS and w not in _NOT_TOLD}


def _thing_words(words: str) -> list[str]:
    """The thing's own words: "the cat food did" -> cat food; "dog is Moss" -> dog; "student nurse" stays."""
    return list(takewhile(lambda w: w not in STOPWORDS, dropwhile(lambda w: w in STOPWORDS, word_list(words))))


def _meal_named(text: str) -> str:
    """The meal a text names ("dinner" for "supper"), "" for none."""
    m = _MEAL_NAME.search(text)
    return MEAL_SAME.get(m.group(1).lower(), m.group(1).lower()) if m else ""


def kin_role(word: str) -> str:
    return KIN_SAME.get(word.lower(), word.lower())


# who told of a thing ("Gwen, who whispered that the Moretons are selling"), not who did it: no answer to "Who are
# they selling to?", unless the question asks who told
_TELLING = "said|told|whispered|mentioned|complained|explained|warned|reminded|announced"
_TELLER = re.compile(rf"\b([A-Z][\w'-]*)(?: (?:at|in|on|by|from) [^,;]{{1,30}})?,? (?:who )?(?:{_TELLING})\b")
_TELLING_STEMS = frozenset(stem(w) for w in (_TELLING + "|tell|say|hear|heard|talk|spoke|speak|chat").split("|"))


def states_type(text: str, kind: str, own_name: str = "", asked: frozenset[str] = frozenset(),
                heard: frozenset[str] = frozenset()) -> bool:
    """Whether `text` contains the kind of thing a question asked for (`asked_type`). `asked`: the names the
    question holds (lower case), which are not its answer ("Who's been taking water from Mrs Pinto?"); `heard`:
    the stems of its words, which tell no outcome and no kind ("my lost key" to "Where did the lost key turn up?",
    "a racing game" to "Which racing game?")."""
    kind, _, detail = kind.partition(":")
    if kind == "name":  # a person by name, or by role ("my uncle") unless the question asks what they are called
        told = asked | ({m.group(1).lower() for m in _TELLER.finditer(text)} if not heard & _TELLING_STEMS else set())
        plain = {n.removesuffix("s") for n in told}  # "the Moretons" asked, "the Moreton family" told
        return bool({n.removesuffix("s") for n in named_people(text, own_name)} - plain
                    or (detail != "called" and _kin_unasked(text, told)))
    if kind == "kin":
        return names_kin(text, detail, own_name)
    if kind == "title":
        return names_thing(text, detail, own_name, asked, heard)
    if kind == "which":  # a name the question does not hold, by the thing ("Turbo Drift, a racing game") or
        # with the thing told apart ("the city of Leeds"), not the thing said plainly: "in the city"
        return names_thing(text, detail, own_name, asked, heard) or \
            bool(told_which(text, detail, heard)) and bool(proper_names(text, own_name) - asked)
    if kind in ("quality", "sort"):  # the thing said with a word that tells which: "tomato soup", not "a tin of cat food"
        return bool(told_which(text, detail, heard)) if kind == "quality" else told_which(text, detail, heard) is not False
    if kind == "happened":  # all the question says, or how it came out
        return set(detail.split()) <= _content_stems(text) or states_type(text, "outcome", own_name, asked, heard)
    if kind in ("outcome", "said"):  # "won", "turned up"; "said", "warned": a word of its own or the asking one
        rx, echoed = _SAYING if kind == "said" else _WON if detail == "win" else _OUTCOME, heard - _ASKING_STEMS
        marked = kind == "outcome" and not detail and bool(_MARK.search(text))  # "nine out of ten" tells how a test went
        return marked or any(stem(word_list(m.group(0))[0]) not in echoed for m in rx.finditer(text))
    if kind == "meal":  # "What did you have for breakfast?" needs something eaten, not at another meal
        other = _meal_named(text)
        return bool(_FOOD.search(text)) and not (detail and other and other != detail)
    return states_amount(text, kind, detail)


_KIND_WORDS = {"colour": _COLOURS, "age": _AGE, "mark": _MARK, "place": _PLACE, "liking": _LIKING,
               "time": TIME_WORDS, "clock": _CLOCK}  # kinds a text holds when one of these is in it


def states_amount(text: str, kind: str, detail: str) -> bool:
    """`states_type` for a colour, an age, a mark, a place, a liking, a time, a price, a count or a number."""
    if kind in _KIND_WORDS:  # "ginger", "turning twelve", "a B+", "at the Fox Inn", "I prefer...", "since 09:00"
        return bool(_KIND_WORDS[kind].search(text))
    if kind == "price":  # a sum, said of what the question prices (one of its words), when it names anything
        priced = not detail or bool(set(detail.split()) & {stem(w) for w in word_list(text)})
        return bool(_MONEY.search(text) and _NUMBER.search(text)) and priced
    if kind == "count":  # a number counting the asked thing: "forty acres", "12 jars of honey", "tomatoes ... eleven of them"
        counted = [word_list(text[m.end():])[:3] for m in _NUMBER.finditer(text)]
        return any(stem(w) == detail for after in counted for w in after) or \
            (detail in {stem(w) for w in word_list(text)} and any(after[:2] == ["of", "them"] for after in counted))
    return bool(_NUMBER.search(text))


_QUOTED_TITLE = re.compile(r"(?<!\w)['\"‘“][A-Z][^'\"’”]{1,60}['\"’”](?!\w)")


def names_thing(text: str, thing: str, own_name: str = "", asked: frozenset[str] = frozenset(),
                heard: frozenset[str] = frozenset()) -> bool:
    """Whether `text` names the thing (its words' stems, "stude nurse") a question asks the name of: a proper
    name the question does not hold, beside the thing's last word where the text says the thing (within
    NEAR_WORDS, with only articles, names and the question's words between: "a student nurse, Amara", "Turbo
    Drift, a racing game"; not "Precious, the ward sister, asked me to mentor a student nurse" nor "a racing
    game with Kai"), anywhere where it does not ("I work at Willowbank Market Garden" names the place one works)."""
    words = _WORD_KEEP.findall(text)
    named = [i for i, w in enumerate(words) if i > 0 and w[:1].isupper() and w not in ("I", own_name)
             and w.lower().removesuffix("'s") not in asked | NOT_NAMES]
    at = [i for i, w in enumerate(words) if thing and stem(w.lower()) == thing.split()[-1]]

    def beside(i: int, j: int) -> bool:
        between = words[min(i, j) + 1:max(i, j)]
        return len(between) < NEAR_WORDS and all(w[:1].isupper() or w.lower() in _APPOSITION
                                                 or stem(w.lower()) in heard for w in between)
    # a quoted title names it wherever it stands: "he still remembered the poem ..., 'The Highwayman'"
    return (any(beside(i, j) for i in named for j in at) if at else bool(named)) or bool(_QUOTED_TITLE.search(text))


def told_which(text: str, thing: str, heard: frozenset[str] = frozenset()) -> bool | None:
    """Whether `text` says which one the thing (its words' stems, "cat food") was: a word before its last word
    other than the thing's own words, an article, a possessive or a plain adjective ("tomato soup", "linen
    thread" for "sewing thread"). False when it is said only plainly ("bought a tin of cat food"), None when
    its last word is not in `text` at all. A word the question holds (`heard`) tells nothing new."""
    words, stems = word_list(text), thing.split()
    found = [i for i, w in enumerate(words) if stems and stem(w) == stems[-1]]
    before = [next((b for b in reversed(words[:i]) if stem(b) not in stems), "") for i in found]
    return any(b and b not in _PLAIN_BEFORE and stem(b) not in heard for b in before) if found else None


def _kin_unasked(text: str, asked: frozenset[str]) -> bool:
    """"my uncle" in `text`, not the one the question asks about ("my neighbour Doreen" to "Who is Doreen's grandson
    marrying?")."""
    return any(not set(word_list(text[m.end():])[:1]) & asked for m in _MY_KIN.finditer(text))


def names_kin(text: str, role: str, own_name: str = "") -> bool:
    """Whether `text` names the speaker's `role` ("my sister Elsie", "Elsie, my sister"): the role right
    after "my", a proper name within three words of it."""
    words = _WORD_KEEP.findall(text)
    named = {i for i, w in enumerate(words) if i > 0 and w[:1].isupper() and w not in ("I", own_name)}
    return any(w.lower() == "my" and i + 1 < len(words) and kin_role(words[i + 1]) == role
               and named & (set(range(i - 3, i + 5)) - {i + 1}) for i, w in enumerate(words))
