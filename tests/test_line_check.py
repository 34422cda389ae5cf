"""The line checker flags what players complained of in the event log: self-narration, leaked
prompt text, the same canned line over and over, looping answers."""

from garp.scenario.line_check import answer_flags, check_lines, line_summary
from garp.units import DAY_S


def line(agent: str, text: str, t: float = 0.0, chat: str = "c1") -> dict:
    return {"kind": "chat_line", "agent": agent, "text": text, "t": t, "chat_id": chat}


def kinds(events) -> list[str]:
    return sorted({f.kind for f in check_lines(events)})


def test_ordinary_speech_passes():
    events = [line("Maya", "Morning, Mika! Are you still coming to the market at ten?"),
              line("Mika", "Yes, I'll bring the basket. I'm Mika, by the way, if you forgot."),
              line("Maya", "See you there.")]
    assert check_lines(events) == []


def test_third_person_self_narration_is_flagged_but_not_a_self_introduction():
    flags = check_lines([line("Mika", "Mika is someone well known to Maya (works at my shop)."),
                         line("Mika", "Hello, I'm Mika.")])
    assert [(f.kind, f.text[:4]) for f in flags] == [("third_person", "Mika")]


def test_leaked_instruction_text_is_flagged():
    events = [line("Ludwig", "Ludwig meets Erica. Write what Ludwig says to start the chat, about why they met.")]
    assert {"instruction", "third_person"} <= set(kinds(events))


def test_repeats_in_one_chat_and_across_the_day():
    canned = "I see. Good to talk with you."
    chat = [line("A", canned, chat="c1") for _ in range(3)]
    assert kinds(chat) == ["repeat_in_chat"]
    town = [line(n, canned, t=60.0 * i, chat=f"c{i}") for i, n in enumerate("ABCDEF")]
    assert kinds(town) == ["repeat_in_day"]
    split = [line("A", canned, t=i * DAY_S / 2, chat=f"c{i}") for i in range(6)]  # 3 on each day
    assert kinds(split) == []


def test_looping_lines_and_long_answers():
    assert kinds([line("A", "the bread the bread the bread the bread")]) == ["loops"]
    assert [f.kind for f in answer_flags("A", "One. Two. Three.")] == ["too_long"]
    assert answer_flags("A", "I work at the pharmacy. I like it.") == []
    # a quotation is part of the sentence that quotes it
    assert answer_flags("A", 'I talked with Bo and told Bo: "The kiln is ready. Come on Friday." It went well.') == []


def test_summary_counts_fallback_lines():
    events = [line("A", "Hi there, how are you?"),
              {"kind": "llm_call", "function": "conversation_line", "fallback_used": True},
              {"kind": "llm_call", "function": "conversation_line", "fallback_used": False}]
    s = line_summary(events)
    assert s["lines"] == 1 and s["line_calls"] == 2 and s["line_fallback_share"] == 0.5 and s["flags"] == {}


def test_summary_says_how_much_of_the_talk_tells_nothing():
    """A played town's talks were mostly "Hi Yuki, good to see you." / "Pretty good, thanks.": the summary says so."""
    start = lambda cid: {"kind": "chat_start", "chat_id": cid, "agents": ["Victor", "Yuki"], "t": 0.0}  # noqa: E731
    said = lambda cid, who, text: {**line(who, text), "chat_id": cid}  # noqa: E731
    events = [start("c1"), said("c1", "Victor", "Hi Yuki, good to see you."), said("c1", "Yuki", "Pretty good, thanks."),
              start("c2"), said("c2", "Yuki", "Victor! Good to see you."),
              said("c2", "Victor", "I've been reading by the bookshelf since 09:00."),
              said("c2", "Yuki", "I should get going. See you, Victor.")]
    s = line_summary(events)
    assert s["small_talk_share"] == 0.8 and s["chats_telling_something"] == "1/2"
