"""Rank mode's conversation lines and summaries (issue 18): built in code, spoken in the first
person, fitting the turn, and never the prompt's wording or third-person narration."""

from __future__ import annotations

import asyncio
from collections import Counter

from garp.engine.lmfunction import checked_candidates
from garp.mind.day_record import Done, day_so_far
from garp.mind.day_talk import DayTalk, day_talk
from garp.mind.dialogue import ConversationLine, ConversationSummary, LineInputs, SpeakerContext, SummaryInputs, \
    run_conversation
from garp.mind.line_candidates import CANNED_TURNS, FAREWELL, FOLLOW_UPS, NAMELESS_FAREWELLS, SYMPATHY, \
    THANKS_FOR_CARE, WARM_REPLIES, farewell_pool, line_options, spoken, stable_pick
from garp.mind.phrasebook import STOCK_PER_DAY, Phrasebook
from garp.scenario.line_check import check_lines
from garp.textclean import plain
from garp.units import DAY_S
from sim_helpers import BestByCode


def inputs(**kw) -> LineInputs:
    base = dict(speaker="Tomas", listener="Jonah", persona_text="Tomas is a gruff caretaker.", emotion="calm",
                relationship="Jonah is a friend.", familiarity=0.8)
    return LineInputs(**{**base, **kw})


def texts(i: LineInputs) -> list[str]:
    return [c.text for c in checked_candidates(ConversationLine(), i)]


def test_a_thought_about_the_listener_is_said_to_them_in_the_first_person():
    i = inputs(urgent_thoughts=["Tomas regrets snapping at Jonah yesterday"])
    assert spoken("Tomas regrets snapping at Jonah yesterday", "Tomas", "Jonah") == "I regret snapping at you yesterday."
    lines = texts(i)
    assert any("I regret snapping at you yesterday." in t for t in lines)
    assert not any("Tomas regrets" in t or "Jonah" in t.split(".")[-1] and "you" not in t for t in lines[:1])


def test_openings_greet_by_familiarity_and_farewells_close_the_last_turn():
    stranger = texts(inputs(familiarity=0.0))
    assert any("I'm Tomas" in t for t in stranger)
    friend = texts(inputs(familiarity=0.9))
    assert not any("I'm Tomas" in t for t in friend) and any("Jonah" in t for t in friend)
    last = inputs(history=["Tomas: Hi Jonah.", "Jonah: Hello, Tomas."], last_turn=True)
    best = max(checked_candidates(ConversationLine(), last), key=lambda c: c.utility)
    assert best.source == "farewell" and "Jonah" in best.text


def test_replies_answer_the_last_line():
    asked = texts(inputs(history=["Jonah: Hi Tomas, how are you doing?"]))
    assert any(t.startswith(("I'm well", "Not bad", "Busy, but", "I'm fine")) for t in asked)
    sorry = texts(inputs(history=["Jonah: I'm sorry about what I said yesterday."]))
    assert any("apolog" in t.lower() or "means a lot" in t or "behind us" in t for t in sorry)
    invited = texts(inputs(history=["Jonah: Would you like to come to my party at 19:00?"]))
    assert "I'd like that very much." in invited


def test_the_speakers_own_places_are_theirs_after_the_listener_is_named():
    """A recorded jam_session had Erica say "I talked to you at Erica's House at 18:00."."""
    assert spoken("Erica wants to play with Ludwig at Erica's House", "Erica", "Ludwig") == \
        "I want to play with you at my house."
    lines = texts(inputs(history=["Jonah: Hi."], memories=["Tomas talked to Jonah at Tomas's House at 18:00"]))
    assert not any("talked to" in t for t in lines)


def test_good_to_see_you_is_greeted_back_not_said_goodbye_to():
    """"Good to see you" greets: it once matched the farewell pattern, and "Hana! Good to see you." got
    "It was nice talking, Erica. Take care." as its answer."""
    greeted = checked_candidates(ConversationLine(), inputs(history=["Jonah: Tomas! Good to see you."]))
    sources = {c.source for c in greeted}
    assert "greeting" in sources and "farewell" not in sources
    bye = ["Jonah: Hi.", "Tomas: Hi.", "Jonah: See you soon."]
    after_bye = checked_candidates(ConversationLine(), inputs(history=bye))
    assert {c.source for c in after_bye} == {"farewell"}


def test_an_authored_rule_guides_the_speaker_but_is_never_said():
    rule = "When someone mentions music, Tomas offers to bring his guitar"
    i = inputs(history=["Jonah: I heard the band play last night."], memories=[rule, "Tomas fixed the piano stool"],
               rules=[rule])
    assert not any("guitar" in t for t in texts(i)) and "I fixed the piano stool." in texts(i)


def test_what_is_said_of_the_listener_is_said_to_them():
    assert spoken("Lena has been practising every night for her recital; she looks exhausted", "Dara", "Lena") == \
        "You have been practising every night for your recital; you look exhausted."
    assert spoken("Lena feels steadier when a friend she trusts is in the audience", "Lena", "Dara") == \
        "I feel steadier when a friend I trust is in the audience."
    assert spoken("Jonah said he would help Maya", "Tomas", "Jonah") == "You said he would help Maya."


def test_memories_become_lines_but_bookkeeping_does_not():
    i = inputs(history=["Jonah: The school roof leaks again."],
               memories=["Tomas fixed the school roof on Monday", "the dining table in Greta's House is in use by Sam",
                         "Tomas sees Jonah nearby"])
    lines = texts(i)
    assert "I fixed the school roof on Monday." in lines
    assert not any("in use" in t or "nearby" in t for t in lines)


def test_no_candidate_repeats_the_conversation_or_trips_the_line_checker():
    history = ["Tomas: Hey Jonah! How are you doing?", "Jonah: I'm well, thanks. And you?"]
    i = inputs(history=history, memories=["Tomas repaired the shed door this morning"],
               urgent_thoughts=["Tomas wants to show Jonah the new shed"])
    said = [h.split(": ", 1)[1] for h in history]
    for t in texts(i):
        assert t not in said
        flags = check_lines([{"kind": "chat_line", "agent": "Tomas", "text": t, "t": 0.0, "chat_id": "c1"}])
        assert not flags, flags


def test_template_choice_is_stable_and_varies_across_pairs():
    pool = [f"line {k}" for k in range(6)]
    assert stable_pick(pool, "a:b:0", 2) == stable_pick(pool, "a:b:0", 2)
    picks = {tuple(stable_pick(pool, f"{a}:{b}:0", 1)) for a in "ABCDEF" for b in "GHIJKL"}
    assert len(picks) >= 4  # different pairs open differently: no canned line across the whole town


def test_at_most_the_cap_and_all_distinct():
    i = inputs(urgent_thoughts=["Tomas wants to fix the gate", "Tomas is worried about the boiler"],
               memories=[f"Tomas painted fence number {k} at the school" for k in range(10)], purpose="coffee")
    opts = line_options(i)
    assert 2 <= len(opts) <= 8 and len({o.text for o in opts}) == len(opts)


def test_summary_candidates_report_what_was_said_and_prefer_an_arrangement():
    lines = ["Ludwig: Hey Maria!", "Maria: Hello Ludwig, the library got new novels today.",
             "Ludwig: Come to my party at 19:00 at Ludwig's House.", "Maria: Goodbye, see you."]
    cands = checked_candidates(ConversationSummary(), SummaryInputs(owner="Maria", partner="Ludwig", lines=lines,
                                                                    place="Park"))
    texts_ = [c.text for c in cands]
    assert any('Ludwig said: "Come to my party at 19:00' in t for t in texts_)
    assert any('told Ludwig: "Hello Ludwig, the library' in t for t in texts_)
    assert not any("Goodbye" in t or "Hey Maria" in t for t in texts_)
    assert "19:00" in max(cands, key=lambda c: c.utility).text


def test_a_second_talk_does_not_repeat_what_the_first_said_to_the_same_person():
    thought = "Tomas regrets snapping at Jonah yesterday"
    first = texts(inputs(urgent_thoughts=[thought]))
    assert "I regret snapping at you yesterday." in first
    again = texts(inputs(urgent_thoughts=[thought], said_before=first))
    assert not set(again) & set(first) and again  # something new to say, none of it said before


def test_a_question_asked_back_gets_an_answer_not_the_question_again():
    """"Busy, but good. How about you?" is answered with how the speaker is, not "Good question. I'm not sure"."""
    back = checked_candidates(ConversationLine(), inputs(history=["Tomas: Hey Jonah! How are you doing?",
                                                                  "Jonah: Busy, but good. How about you?"]))
    answers = [c.text for c in back if c.source == "answer:how-are-you"]
    assert answers and not any(t.endswith("?") for t in answers)
    assert not any(c.source == "answer:unsure" for c in back)


def test_a_stock_reply_said_lately_to_someone_else_is_not_offered_again():
    told = inputs(history=["Jonah: The bakery has a new oven."])
    first = [c.text for c in checked_candidates(ConversationLine(), told) if c.source == "follow-up"]
    assert first
    later = inputs(listener="Mika", history=["Mika: The bakery has a new oven."], said_lately=first)
    again = [c.text for c in checked_candidates(ConversationLine(), later) if c.source == "follow-up"]
    assert again and not set(again) & set(first)


def test_warm_words_get_warmth_back_not_a_stock_follow_up():
    """A play had Erica say "You matter to me." and Arjun answer "Oh? How did that happen?"."""
    for warm, reply in (("You matter to me.", "That means a lot to me."),
                        ("I always enjoy a chat with you.", "Likewise, it's always nice talking with you."),
                        ("I would like to spend more time with you.", "I'd like that too.")):
        lines = texts(inputs(history=[f"Jonah: {warm}"]))
        assert reply in lines and not set(lines) & set(FOLLOW_UPS), (warm, lines)
    assert not set(texts(inputs(history=["Jonah: The bakery has a new oven."]))) & set(WARM_REPLIES)
    # and sympathy is thanked: "Funny you should say that." had answered "I'm sorry to hear that."
    for care in ("I'm sorry to hear that.", "That sounds hard. Are you all right?"):
        lines = texts(inputs(history=["Tomas: My hands shake when I think of the recital.", f"Jonah: {care}"]))
        assert set(lines) & set(THANKS_FOR_CARE) and not set(lines) & set(FOLLOW_UPS + SYMPATHY), (care, lines)


def test_sympathy_answers_sorrow_but_not_a_negated_one():
    sad = checked_candidates(ConversationLine(), inputs(history=["Jonah: I'm worried about my sister."]))
    assert any(c.text == "I'm sorry to hear that." or "Are you all right" in c.text for c in sad)
    for worry in ("My hands shake when I think of the recital.", "Worry has been weighing on me lately."):
        lines = texts(inputs(history=[f"Jonah: {worry}"]))
        assert not any(t in FOLLOW_UPS for t in lines)  # not "Funny you should say that." to a fear
        assert any(t == "I'm sorry to hear that." or "Are you all right" in t or "anything I can do" in t
                   for t in lines)
    fine = checked_candidates(ConversationLine(), inputs(history=["Jonah: Not bad at all, thank you."]))
    assert not any(c.text in ("I'm sorry to hear that.", "Oh no. Is there anything I can do?") or
                   "Are you all right" in c.text for c in fine)


def test_a_goodbye_is_answered_with_a_goodbye_and_an_opening_with_a_greeting():
    bye = checked_candidates(ConversationLine(), inputs(history=["Tomas: Hi Jonah.", "Jonah: Hello, Tomas.",
                                                                 "Tomas: Good to catch up, Jonah. See you soon."]))
    assert bye and all(c.source == "farewell" for c in bye)
    opened = checked_candidates(ConversationLine(), inputs(history=["Jonah: Oh, Tomas, just the person I hoped to see."]))
    assert any(c.source == "greeting" for c in opened)


def test_a_line_the_town_said_enough_today_is_not_offered_until_tomorrow():
    """A recorded party day had "Oh, is that so?" ten times across the town (issue 18: at most five)."""
    told = ["Jonah: The bakery has a new oven."]
    first = [c.text for c in checked_candidates(ConversationLine(), inputs(history=told)) if c.source == "follow-up"]
    book = Phrasebook()
    for _ in range(STOCK_PER_DAY):
        book.note(first[0], 10 * 3600.0)
    assert first[0] not in texts(inputs(history=told, spent=sorted(book.spent(10 * 3600.0))))
    assert not book.spent(DAY_S + 8 * 3600.0)  # a new day
    assert first[0] in texts(inputs(history=told, spent=sorted(book.spent(DAY_S + 8 * 3600.0))))


def test_a_speaker_with_nothing_left_to_say_takes_its_leave():
    spent = [plain(t) for t in CANNED_TURNS]
    told = ["Tomas: Hi Jonah.", "Jonah: The bakery has a new oven."]
    left = checked_candidates(ConversationLine(), inputs(history=told, spent=spent))
    assert left and all(c.source == "farewell" for c in left)


def test_a_busy_day_of_chats_says_no_stock_line_more_than_five_times():
    """A hundred chats among four friends: the stock replies run out and the chats get shorter, not
    more repetitive; no line is code's fallback, and every chat still ends with a goodbye."""
    names = ["Maya", "Jonah", "Priya", "Dara"]
    ctx = lambda n: SpeakerContext(name=n, persona_text="", familiarity=0.8)  # noqa: E731
    book, said, lengths = Phrasebook(), Counter(), []
    for k in range(100):
        a, b = names[k % 4], names[(k + 1 + k // 4) % 4]
        a, b = (a, b) if a != b else (a, names[(k + 2) % 4])
        tr = asyncio.run(run_conversation(ctx(a), ctx(b), BestByCode(), 8 * 3600.0 + 300.0 * k, phrasebook=book))
        said.update(plain(l.text) for l in tr.lines)
        lengths.append(len(tr.lines))
        assert not any(l.fallback for l in tr.lines) and FAREWELL.search(tr.lines[-1].text)
    stock = {line: n for line, n in said.items() if line in {plain(t) for t in CANNED_TURNS}}
    assert stock and max(stock.values()) <= STOCK_PER_DAY
    assert sum(lengths[-10:]) < sum(lengths[:10])  # shorter chats once the stock is spent


def test_goodbyes_to_a_busy_host_do_not_say_the_same_words_all_day():
    """A recorded party_news had "Thanks for the chat, Arjun. Bye for now." nine times in a day: everyone
    who came to tell Arjun the news said goodbye to him, and every named goodbye had been said five times."""
    named = [plain(f) for f in farewell_pool("Jonah")]
    last = inputs(history=["Tomas: Hi Jonah.", "Jonah: Hello, Tomas."], last_turn=True, spent=named)
    bye = [c for c in checked_candidates(ConversationLine(), last) if c.source == "farewell"]
    assert bye and all(c.text in NAMELESS_FAREWELLS for c in bye)
    left = inputs(history=["Tomas: Hi Jonah.", "Jonah: I must get going. Bye!"],
                  spent=named + [plain(f) for f in NAMELESS_FAREWELLS])
    assert [c.source for c in checked_candidates(ConversationLine(), left)] == ["farewell"] * 2  # still a goodbye


def test_an_apology_is_answered_only_when_it_is_made_to_the_speaker():
    """Priya once thanked Maya for apologising: Maya's apology had been to Jonah."""
    def sources(line):
        return {c.source for c in checked_candidates(ConversationLine(), inputs(history=[line]))}
    assert "answer:apology" in sources("Jonah: I'm sorry about what I said yesterday.")
    assert "answer:apology" not in sources("Jonah: I want to apologise to Maya, properly.")
    assert "answer:apology" not in sources("Jonah: I'm sorry to hear that.")
    afraid = texts(inputs(history=["Jonah: I'm afraid my hands will shake on stage."]))
    assert any(t == "I'm sorry to hear that." or "Are you all right" in t or "anything I can do" in t for t in afraid)


def test_a_greeting_is_not_answered_with_a_stock_remark_or_as_a_stranger():
    """"Hi Dara, good to see you." once got "Good for you." back, and a friend's greeting got
    "Hello, I'm Erica. I don't think we've met." from someone who barely knew the greeter."""
    greeted = inputs(history=["Jonah: Hi Tomas, good to see you."], familiarity=0.05)
    lines = texts(greeted)
    assert not any(t in FOLLOW_UPS for t in lines)
    assert not any("I'm Tomas" in t for t in lines) and any("Jonah" in t for t in lines)
    introduced = inputs(history=["Jonah: Hello, I'm Jonah. I don't think we've met."], familiarity=0.05)
    assert any("I'm Tomas" in t for t in texts(introduced))  # a stranger's introduction is answered in kind
    fine = inputs(history=["Tomas: Hi Jonah, how are you?", "Jonah: Pretty good, thanks."])
    assert not any(t in FOLLOW_UPS for t in texts(fine))  # "Ha, I know what you mean." to "Pretty good"
    news = inputs(history=["Jonah: I finished the mural on the school wall."])
    assert any(t in FOLLOW_UPS for t in texts(news))  # news still gets a follow-up


def test_news_is_answered_every_time_but_not_always_with_the_same_words():
    """A recorded party day had "Thanks for telling me. I'll be there today at 19:00." eight times:
    the answer to news skipped the phrasebook. Spent answers give way to others; with every one spent
    the news is still answered, yes or no."""
    from garp.mind.news import NewsItem
    party = NewsItem("e1", "a party", "Maya's House", 19 * 3600.0, "Maya", False)
    told = ["Jonah: Have you heard? There's a party at Maya's House today at 19:00. You should come!"]
    book, said = Phrasebook(), Counter()
    for _ in range(4 * STOCK_PER_DAY + 1):  # four ways to accept, then all four spent
        options = checked_candidates(ConversationLine(), inputs(history=told, offer=party, t=9 * 3600.0,
                                                                spent=sorted(book.spent(9 * 3600.0))))
        assert {c.source for c in options} == {"accept:e1", "decline:e1"}
        accept = next(c.text for c in options if c.source == "accept:e1")
        book.note(accept, 9 * 3600.0)
        said[accept] += 1
    assert len(said) == 4 and sorted(said.values()) == [STOCK_PER_DAY] * 3 + [STOCK_PER_DAY + 1]


def test_a_greeting_back_is_asked_after_and_a_goodbye_answered_without_echoing_the_talk():
    """A recorded chat went "Hi Erica, how's your day going?" / "Hi Dara, good to see you." / "I'd
    better be off." / code's fallback: greeted back, the opener had nothing to say, and both goodbyes
    offered in answer echoed a line of the talk, so the line check refused them."""
    opened = ["Dara: Hi Erica, how's your day going?", "Erica: Hi Dara, good to see you."]
    going_on = checked_candidates(ConversationLine(), inputs(speaker="Dara", listener="Erica", history=opened))
    assert any(c.source == "catch-up" for c in going_on)
    bye = opened + ["Dara: I'd better be off. Take care, Erica."]
    answers = checked_candidates(ConversationLine(), inputs(speaker="Erica", listener="Dara", history=bye))
    assert answers and all(c.source == "farewell" for c in answers)


def test_what_reflection_concluded_about_someone_is_said_only_to_them():
    """Ludwig came to invite Mika and opened with "Erica matters to me." and "Oliver matters to me.":
    a reflection about how one feels towards someone is for them to hear, how the days go for nobody. And
    only as warmly as one feels: coworkers told each other "You matter to me." every day."""
    thoughts = ["Erica matters to me.", "I spend a lot of my time at Hobbs Cafe.", "I always enjoy a chat with Mika."]
    said = texts(inputs(speaker="Ludwig", listener="Mika", urgent_thoughts=thoughts, sentiment=0.3))
    assert "I always enjoy a chat with you." in said
    assert not any("Erica" in t or "Hobbs Cafe" in t for t in said)
    cool = texts(inputs(speaker="Ludwig", listener="Mika", urgent_thoughts=thoughts, sentiment=0.1))
    assert "I always enjoy a chat with you." not in cool
    fond = ["Mika matters to me.", "I would like to spend more time with Mika."]
    assert "You matter to me." not in texts(inputs(speaker="Ludwig", listener="Mika", urgent_thoughts=fond,
                                                   sentiment=0.3))
    assert "You matter to me." in texts(inputs(speaker="Ludwig", listener="Mika", urgent_thoughts=fond, sentiment=0.6))
    owed = texts(inputs(speaker="Ludwig", listener="Mika", urgent_thoughts=["I need to make things right with Erica."]))
    assert "I need to make things right with Erica." in owed  # a worry about someone may be shared


def _erica_day(t: float, here: str = "Hobbs Cafe"):
    """Erica's day read from a real log's events: up, breakfast at home, then cooking at the cafe."""
    events = [{"kind": "arrive", "agent": "Erica", "t": 5 * 3600.0, "place": "Erica's House"},
              {"kind": "action_start", "agent": "Erica", "t": 6 * 3600.0, "verb": "eat", "object": "x/table",
               "name": "dining table", "place": "Erica's House"},
              {"kind": "action_end", "agent": "Erica", "t": 6.5 * 3600.0, "verb": "eat"},
              {"kind": "arrive", "agent": "Erica", "t": 6.6 * 3600.0, "place": "Hobbs Cafe"},
              {"kind": "action_start", "agent": "Erica", "t": 7 * 3600.0, "verb": "cook", "object": "cafe/stove",
               "name": "stove", "place": "Hobbs Cafe"}]
    plan = [("wake up and have breakfast", 6 * 3600.0), ("cafe shift", 7 * 3600.0), ("guitar practice", 14 * 3600.0)]
    reading = (Done(9 * 3600.0, None, "read", "bookshelf", "Hobbs Cafe"),)
    return day_talk(day_so_far(events, "Erica", t), plan, "Erica", "Erica's House", t, "Jonah", reading, here)


def test_a_character_tells_its_day_when_asked_and_after_how_are_you():
    """A played town's chats were greetings and stock replies: "How's your week been?" / "Not bad at all,
    thank you." Now the answer tells what the speaker is doing, did and does next, from its day."""
    day = _erica_day(10 * 3600.0)
    assert day.now == "I've been cooking breakfast at the stove since 07:00."  # the talk is at the cafe: no "at Hobbs Cafe"
    assert day.earlier == "Earlier today I had breakfast at the dining table at home and came here."  # at the cafe
    assert day.next_up == "Next on my list: guitar practice at 14:00."
    assert _erica_day(5 * 3600.0).next_up == "Next on my list: have breakfast at 06:00."  # awake: not "wake up"
    assert _erica_day(4 * 3600.0).next_up == "Next on my list: cafe shift at 07:00."  # breakfast is two hours off
    elsewhere = _erica_day(10 * 3600.0, here="Town Square")
    assert elsewhere.now == "I've been cooking breakfast at the stove at Hobbs Cafe since 07:00."
    assert elsewhere.earlier == "Earlier today I had breakfast at the dining table at home and went to Hobbs Cafe."
    # a day so far of only getting here tells nothing: a play had "Earlier today I came here."
    came = [{"kind": "arrive", "agent": "Erica", "t": 5 * 3600.0, "place": "Erica's House"},
            {"kind": "arrive", "agent": "Erica", "t": 6.6 * 3600.0, "place": "Hobbs Cafe"},
            {"kind": "action_start", "agent": "Erica", "t": 7 * 3600.0, "verb": "serve", "object": "cafe/counter",
             "name": "cafe counter", "place": "Hobbs Cafe"}]
    came = day_talk(day_so_far(came, "Erica", 8 * 3600.0), [], "Erica", "Erica's House", 8 * 3600.0, "Jonah", (),
                    "Hobbs Cafe")
    assert came.now and came.earlier == ""
    base = dict(speaker="Erica", listener="Jonah", day=day)
    asked = checked_candidates(ConversationLine(), inputs(**base, history=["Jonah: What have you been up to today?"]))
    best = max(asked, key=lambda c: c.utility)
    assert best.text in day.sentences() and best.source == "day"
    for greeting in ("Jonah: Hi Erica, how's your day going?", "Jonah: Hey Erica! How are you doing?"):
        how = texts(inputs(**base, history=[greeting]))
        assert not set(how) & set(day.sentences())  # asked how one is, not what one does: "Fine" first
        assert any(t.endswith(day.now) or t.endswith(day.earlier) or t.endswith(day.next_up) for t in how)
    silent = inputs(speaker="Erica", listener="Jonah", history=["Jonah: Hi Erica, how's your day going?"], day=DayTalk())
    assert not any(s in t for t in texts(silent) for s in day.sentences())  # no day known: stock replies only


def test_a_day_is_told_unasked_once_after_small_talk_and_never_over_news():
    day = _erica_day(10 * 3600.0)
    greeted = inputs(speaker="Erica", listener="Jonah", day=day,
                     history=["Erica: Hi Jonah, good to see you.", "Jonah: Pretty good, thanks."])
    lines = texts(greeted)
    assert day.now in lines and "Still reading by the bookshelf?" in lines
    told = inputs(speaker="Erica", listener="Jonah", day=day,
                  history=["Erica: Hi Jonah.", "Jonah: Hello, Erica.", f"Erica: {day.now}", "Jonah: Fair enough."])
    assert not any(s in texts(told) for s in day.sentences())
    more = inputs(speaker="Erica", listener="Jonah", day=day,
                  history=["Erica: Maya never came to my opening.", "Jonah: Interesting. How so?"])
    assert not any(s in texts(more) for s in day.sentences())  # asked for more of what was said, not a new topic
    napping = day_talk((Done(13 * 3600.0, None, "nap", "Jonah's sofa", "Jonah's House"),), [], "Jonah",
                       "Jonah's House", 14 * 3600.0, "Erica", (Done(13 * 3600.0, None, "nap", "sofa", "Hobbs Cafe"),))
    assert napping.now == "" and napping.listener_doing == ""  # nobody talks while napping, nor asks "Still napping?"
    hurt = inputs(speaker="Erica", listener="Jonah", day=day,
                  history=["Erica: Hi Jonah.", "Jonah: I feel let down by you."])
    assert not any(s in texts(hurt) for s in day.sentences())


def test_a_day_heard_is_answered_and_told_back_not_met_with_how_so():
    """A recorded town answered "Next on my list: cafe shift at 07:00." with "Interesting. How so?". What
    the other tells of its day is answered as such, and the listener may tell its own day back."""
    erica = _erica_day(10 * 3600.0)
    jonah = day_talk((Done(9 * 3600.0, None, "read", "bookshelf", "Hobbs Cafe"),), [("lunch", 12.5 * 3600.0)],
                     "Jonah", "Jonah's House", 10 * 3600.0, "Erica", (), "Hobbs Cafe")
    heard = {}
    for told in (erica.now, erica.earlier, erica.next_up):
        i = inputs(speaker="Jonah", listener="Erica", t=10 * 3600.0, day=jonah,
                   history=["Erica: Hi Jonah.", "Jonah: Hello, Erica.", f"Erica: {told}"])
        heard[told] = {c.text: c for c in checked_candidates(ConversationLine(), i)}
        assert not set(heard[told]) & set(FOLLOW_UPS)
        assert "And I've been reading by the bookshelf since 09:00." in heard[told]
    assert heard[erica.now]["Since 07:00? You've been at it a while."].utility > max(
        c.utility for c in heard[erica.now].values() if c.source == "day")
    assert "Sounds like a full morning." in heard[erica.earlier]
    assert "Sounds like a plan." in heard[erica.next_up] and "Not long now, then." not in heard[erica.next_up]
    soon = inputs(speaker="Jonah", listener="Erica", t=13.5 * 3600.0, history=[f"Erica: {erica.next_up}"])
    assert "Not long now, then." in texts(soon)
    lately = inputs(speaker="Jonah", listener="Erica", t=7.5 * 3600.0, history=[f"Erica: {erica.now}"])
    assert not any("a while" in t for t in texts(lately))  # half an hour is no long stretch
    evening = inputs(speaker="Jonah", listener="Erica", t=14.5 * 3600.0, history=[f"Erica: {erica.earlier}"])
    assert "You've had quite an afternoon already." in texts(evening)
    gossip = inputs(speaker="Jonah", listener="Erica", day=jonah, t=10 * 3600.0,
                    history=["Erica: Hi Jonah.", "Jonah: Hello, Erica.", "Erica: Maya won the chess cup."])
    assert set(texts(gossip)) & set(FOLLOW_UPS)  # other news still gets the stock follow-ups


def test_a_sorrow_is_answered_not_talked_over_with_a_liking():
    """A play had Maya say she felt terrible about missing Jonah's opening and Priya answer "I like trying
    recipes from countries I have never visited."; a memory or thought on the sorrow may still be said."""
    i = inputs(speaker="Priya", listener="Maya", urgent_thoughts=["Priya wants to bake bread this weekend"],
               memories=["Priya likes trying recipes from countries she has never visited",
                         "Priya went to Jonah's exhibition opening on Friday"],
               history=["Maya: I missed Jonah's exhibition opening and I feel terrible about it."])
    lines = texts(i)
    assert set(lines) & set(SYMPATHY)
    assert not any("recipes" in t or "bread" in t for t in lines), lines
    assert "I went to Jonah's exhibition opening on Friday." in lines
    assert not any(c.source == "greeting" for c in checked_candidates(ConversationLine(), i))


def test_a_greeting_is_not_echoed_and_how_are_you_is_answered_not_greeted():
    """Plays had "There you are, Arjun." met with "There you are, Erica.", and "Hi Arjun, how's your day
    going?" with "Hey Erica! How are you doing?"."""
    for n in range(12):
        i = inputs(speaker="Arjun", listener="Erica", t=n * 600.0, history=["Erica: There you are, Arjun."])
        assert "There you are, Erica." not in texts(i)
    asked = checked_candidates(ConversationLine(), inputs(history=["Jonah: Hi Tomas, how's your day going?"]))
    assert asked and not any(c.source == "greeting" for c in asked)
    assert any(c.source.startswith("answer:how-are-you") for c in asked)


def test_a_reply_to_a_day_told_is_not_followed_up_as_news():
    """A play had "Next on my list: work at 13:30." "Not long now, then." "Oh? How did that happen?"."""
    for reply in ("Not long now, then.", "Since 07:00? You've been at it a while.", "Sounds like a full morning."):
        i = inputs(speaker="Maya", listener="Mika", t=13.4 * 3600.0,
                   history=["Mika: Hi Maya.", "Maya: Next on my list: work at 13:30.", f"Mika: {reply}"])
        assert not set(texts(i)) & set(FOLLOW_UPS), reply


def test_warm_words_are_not_said_to_the_same_person_in_every_talk():
    """A play had Erica tell Arjun "You matter to me.", "I always enjoy a chat with you." and "I would like
    to spend more time with you." in three talks of one morning."""
    thoughts = ["Arjun matters to me.", "I always enjoy a chat with Arjun."]
    first = texts(inputs(speaker="Erica", listener="Arjun", sentiment=0.6, urgent_thoughts=thoughts))
    assert any("You matter to me." in t for t in first)
    later = texts(inputs(speaker="Erica", listener="Arjun", sentiment=0.6, urgent_thoughts=thoughts,
                         said_before=["Hi Arjun!", "You matter to me."]))
    assert not any("matter to me" in t or "enjoy a chat" in t for t in later), later


def test_concern_is_thanked_and_an_intention_encouraged():
    """A play had "You have been practising every night for your recital; you look exhausted." answered "I'm
    sorry to hear that.", and "I want to apologize to Jonah properly, in person." with a liking of one's own."""
    concern = texts(inputs(speaker="Lena", listener="Dara", memories=["Lena's solo recital is coming up"],
                           history=["Dara: You have been practising every night for your recital; you look exhausted."]))
    assert set(concern) & set(THANKS_FOR_CARE) and not set(concern) & set(SYMPATHY), concern
    assert "My solo recital is coming up." in concern
    intent = checked_candidates(ConversationLine(), inputs(
        speaker="Priya", listener="Maya", memories=["Priya likes trying recipes from countries she has never visited"],
        history=["Maya: Hi Priya.", "Priya: Hello Maya.", "Maya: I want to apologize to Jonah properly, in person."]))
    best = max(intent, key=lambda c: c.utility)
    assert best.text in ("I hope it goes well.", "That sounds like a good idea.", "Good luck with that."), best
    assert not any(c.text in FOLLOW_UPS for c in intent)


def test_warm_words_are_said_once_in_a_talk():
    """A play had Dara say "You matter to me." and then "I always enjoy a chat with you." in one talk."""
    lines = texts(inputs(speaker="Dara", listener="Arjun", sentiment=0.6,
                         urgent_thoughts=["Arjun matters to me.", "I always enjoy a chat with Arjun."],
                         history=["Dara: Arjun! Good to see you. You matter to me.", "Arjun: That means a lot to me."]))
    assert not any("enjoy a chat" in t for t in lines), lines
    remembered = texts(inputs(speaker="Erica", listener="Arjun", sentiment=0.6, memories=["Arjun matters to me."],
                              history=["Erica: Hi Arjun. I always enjoy a chat with you.", "Arjun: Thank you."]))
    assert not any("matter to me" in t for t in remembered), remembered  # a reflection retrieved as a memory too


def test_what_starts_within_minutes_is_not_told_as_next():
    """A play showed "Next on my list: lectures or shifts at 13:15." at 13:16."""
    from garp.mind.day_talk import next_line
    plan = [("lectures or shifts", 13.25 * 3600), ("free time", 15.5 * 3600)]
    assert next_line(plan, 13.2 * 3600) == "Next on my list: free time at 15:30."
    assert next_line(plan, 12.9 * 3600) == "Next on my list: lectures or shifts at 13:15."


def test_a_question_or_a_plan_told_is_answered_before_ones_own_thoughts():
    """Plays had "Hi Arjun, how's your day going?" answered "I always enjoy a chat with you.", "Hi Felix. How has
    your day been?" met with "How have things been with you?", a plan told met with a liking of one's own, and
    "Maya promised to come to my exhibition opening and never showed up." with "That makes sense to me."."""
    asked = texts(inputs(speaker="Arjun", listener="Erica", sentiment=0.6,
                         urgent_thoughts=["I always enjoy a chat with Erica."],
                         history=["Erica: Hi Arjun, how's your day going?"]))
    assert not any("enjoy a chat" in t for t in asked), asked
    greeted = texts(inputs(speaker="Felix", listener="Arjun",
                           history=["Felix: There you are, Arjun.", "Arjun: Hi Felix. How has your day been?"]))
    assert not any(t.startswith(("How have things", "How's it all", "How's your week", "How are things"))
                   for t in greeted), greeted
    plan = texts(inputs(speaker="Priya", listener="Maya", memories=["Priya likes trying recipes from abroad"],
                        history=["Maya: Hi Priya.", "Priya: Hello Maya.", "Maya: I want to apologize to Jonah properly."]))
    assert not any("recipes" in t for t in plan), plan
    let_down = texts(inputs(history=["Tomas: Hi Jonah.", "Jonah: Hello, Tomas.",
                                     "Jonah: Maya promised to come to my exhibition opening and never showed up."]))
    assert set(let_down) & set(SYMPATHY) and not set(let_down) & set(FOLLOW_UPS), let_down
