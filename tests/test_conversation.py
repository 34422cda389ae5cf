"""Conversations (III-A9, VI-g): booking, cooldown, gate, guard, line checks, a real-model chat."""

import asyncio
import random
from datetime import date

import pytest

from garp.mind.conversation import COOLDOWN_S, ConversationManager, SocialState
from garp.mind.dialogue import (
    MAX_LINE_WORDS, ConversationLine, LineInputs, LineOut, SpeakerContext, SpokenLine, Transcript,
    conversation_effects, run_conversation,
)


def state(name, x=0.0, y=0.0, **kw):
    return SocialState(name=name, x=x, y=y, **kw)


def test_booking_blocks_a_third_agent_until_release():
    cm = ConversationManager()
    cid = cm.book("Ana", "Ben", 100.0, paused={"Ana": "birthday party", "Ben": "birthday party"})
    assert cid is not None and cm.is_booked("Ana") and cm.is_booked("Ben")
    assert cm.book("Cleo", "Ana", 110.0) is None
    assert cm.book("Ben", "Cleo", 110.0) is None
    assert cm.paused_activity("Ana") == "birthday party"  # the gathering is paused, not ended
    ok, why = cm.precheck(state("Cleo"), state("Ana"), 120.0, random.Random(0))
    assert not ok and why == "already in a conversation"
    assert cm.release("Ana", "Cleo") == {}  # not a pair that is booked together
    assert cm.release("Ana", "Ben") == {"Ana": "birthday party", "Ben": "birthday party"}
    assert not cm.is_booked("Ana") and cm.paused_activity("Ana") is None
    assert cm.book("Cleo", "Ana", 130.0) is not None


def test_cooldown_is_16_7_game_minutes_per_pair():
    assert COOLDOWN_S == pytest.approx(16.7 * 60)
    cm = ConversationManager()
    cm.start_cooldown("Ana", "Ben", 1000.0)
    assert cm.on_cooldown("Ben", "Ana", 1000.0 + COOLDOWN_S - 1)
    assert not cm.on_cooldown("Ana", "Ben", 1000.0 + COOLDOWN_S)
    assert not cm.on_cooldown("Ana", "Cleo", 1001.0)
    ok, why = cm.precheck(state("Ana", chat_probability=1.0), state("Ben"), 1500.0, random.Random(0))
    assert (ok, why) == (False, "cooldown")


def test_a_pair_that_talked_today_waits_longer_each_time():
    """Two coworkers side by side talked every 17 game minutes all day (16-17 talks a pair in a recorded
    party_news): each talk held today adds a cooldown before the next, unless one of them has heard or
    told news in a talk with someone else since (news travels); a new day starts afresh, and a save keeps the count."""
    cm = ConversationManager()
    t = 8 * 3600.0
    for held in range(3):
        cm.note_talk("Erica", "Arjun", t)
        cm.start_cooldown("Erica", "Arjun", t)
        assert cm.on_cooldown("Arjun", "Erica", t + (held + 2) * COOLDOWN_S - 1)
        assert not cm.on_cooldown("Arjun", "Erica", t + (held + 2) * COOLDOWN_S)
    assert not cm.on_cooldown("Erica", "Dara", t + 1)  # other pairs are not held back
    saved = ConversationManager()
    saved.restore(cm.state())
    assert saved.on_cooldown("Erica", "Arjun", t + 4 * COOLDOWN_S - 1)
    cm.note_talk("Erica", "Maya", t + 30.0)  # small talk elsewhere: the coworkers still wait (a play had Arjun,
    assert cm.on_cooldown("Erica", "Arjun", t + COOLDOWN_S)  # who talks with everyone, chat with Erica hourly)
    cm.note_talk("Erica", "Maya", t + 60.0, news=True)  # Erica has since heard news: she may pass it on
    assert not cm.on_cooldown("Erica", "Arjun", t + COOLDOWN_S)
    tomorrow = 86400.0 + 7 * 3600.0
    saved.start_cooldown("Erica", "Arjun", tomorrow - 3600.0)
    assert not saved.on_cooldown("Erica", "Arjun", tomorrow - 3600.0 + COOLDOWN_S)  # a new day: the paper's cooldown


def test_chat_gate_follows_personality_and_mood():
    cm = ConversationManager()
    rng = random.Random(7)
    n = 4000
    outgoing = state("Ana", chat_probability=0.6)
    withdrawn = state("Ana", chat_probability=0.6, emotion_label="sad", valence=-0.6)
    rate = sum(cm.gate(outgoing, rng) for _ in range(n)) / n
    rate_w = sum(cm.gate(withdrawn, rng) for _ in range(n)) / n
    assert rate == pytest.approx(0.6, abs=0.03) and rate_w == pytest.approx(0.3, abs=0.03)
    assert not any(cm.gate(state("Ana", chat_probability=0.0), rng) for _ in range(200))
    far = state("Ben", x=500.0)
    assert cm.precheck(state("Ana", chat_probability=1.0), far, 0.0, rng) == (False, "out of range")
    assert cm.precheck(state("Ana", chat_probability=1.0), state("Ben", x=40.0), 0.0, rng) == (True, "ok")


def test_guard_keeps_chatter_from_making_someone_late():
    cm = ConversationManager()
    t = 18 * 3600.0
    going = state("Ana", chat_probability=1.0, place="Park", next_commitment="jam session",
                  next_commitment_start=t + 20 * 60, next_commitment_end=t + 7200, next_commitment_place="School")
    assert cm.precheck(going, state("Ben"), t, random.Random(0)) == (False, "heading to a commitment")
    assert cm.precheck(state("Ben", chat_probability=1.0), going, t, random.Random(0))[1] == "heading to a commitment"
    there = going.model_copy(update={"place": "School"})  # at the gathering: chatting is fine
    assert cm.precheck(there, state("Ben"), t, random.Random(0)) == (True, "ok")
    later = going.model_copy(update={"next_commitment_start": t + 3 * 3600, "next_commitment_end": t + 4 * 3600})
    assert cm.precheck(later, state("Ben"), t, random.Random(0)) == (True, "ok")


def test_line_check_rejects_empty_repeated_and_parroted_lines():
    fn = ConversationLine()
    inputs = LineInputs(speaker="Ana", listener="Ben", persona_text="Ana is kind.", emotion="calm",
                        relationship="a friend", history=["Ana: Hello there, Ben!", "Ben: Hi Ana, how are you?"],
                        exemplars=["Oh, I love hearing about that!"])
    for bad in ["            ", "Hello there, Ben!", "Ana: hello there ben", "oh, I love hearing about that!",
                "Ana's last line here", "Ben"]:
        with pytest.raises(ValueError):
            fn.check(inputs, LineOut.model_construct(line=bad))
    long = " ".join(f"word{i}" for i in range(50))  # distinct words: a looping line is rejected instead
    assert len(fn.check(inputs, LineOut.model_construct(line=long)).line.split()) == MAX_LINE_WORDS
    assert fn.check(inputs, LineOut(line='Ana: "I am well, thanks."')).line == "I am well, thanks."
    fb = fn.fallback(inputs)
    assert fb.line and fb.line.lower() not in {"hello there, ben!", "hi ana, how are you?"}


def test_line_check_cleans_scaffold_labels_and_rejects_echoes_and_near_repeats():
    fn = ConversationLine()
    inputs = LineInputs(speaker="Lena", listener="Dara", persona_text="Lena is kind.", emotion="calm",
                        relationship="a friend", history=["Lena: How was your day at the bakery, Dara?",
                                                          "Dara: Long, but the bread came out well."])
    cleaned = fn.check(inputs, LineOut(line="Lena's next line to Dara: That sounds lovely, well done!"))
    assert cleaned.line == "That sounds lovely, well done!"
    assert fn.check(inputs, LineOut(line="Lena's reply: Glad to hear it.")).line == "Glad to hear it."
    assert fn.check(inputs, LineOut(line="Listen: I baked too.")).line == "Listen: I baked too."  # speech keeps its colon
    for bad in ["Lena's next line to Dara:", "Dara just said: Long, but the bread came out well.",
                "How was your day at the bakery, Dara??", "So how was your day at the bakery, Dara?",
                "Dara is nice, Dara is nice, Dara is nice, Dara is nice.", "Lena's reply"]:
        with pytest.raises(ValueError):
            fn.check(inputs, LineOut.model_construct(line=bad))


@pytest.mark.model
def test_two_agent_conversation_with_the_real_model(scheduler):
    a = SpeakerContext(name="Ludwig", persona_text="Ludwig is a cheerful piano teacher. By temperament, Ludwig is "
                       "very extraverted.", emotion="excited", relationship="Maria is a close friend",
                       exemplars=["Come on, the more the merrier!"],
                       urgent_thoughts=["Ludwig is hosting his birthday party tomorrow at 7pm at Ludwig's House"],
                       place="Park")
    b = SpeakerContext(name="Maria", persona_text="Maria is a quiet librarian. By temperament, Maria is quite "
                       "introverted.", emotion="calm", relationship="Ludwig is a good friend", reserved=True,
                       exemplars=["Hm. That sounds fine, I suppose."], memories=["Maria read a novel this morning"],
                       place="Park")
    seen, records = [], []
    t = 86400.0 + 10 * 3600

    async def chat():
        tr = await run_conversation(a, b, scheduler, t, on_line=seen.append, records=records)
        fx = await conversation_effects(tr, scheduler, known_places=["Ludwig's House", "Park", "Library"],
                                        known_agents=["Ludwig", "Maria"], start_date=date(2026, 1, 1),
                                        clock_label="Friday 2 January, 10:00", records=records)
        return tr, fx

    tr, fx = asyncio.run(chat())
    assert 2 <= len(tr.lines) <= 6 and seen == tr.lines
    assert [l.speaker for l in tr.lines] == (["Ludwig", "Maria"] * 3)[:len(tr.lines)]
    texts = [l.text for l in tr.lines]
    assert all(t_.strip() and len(t_.split()) <= MAX_LINE_WORDS for t_ in texts)
    assert len(set(texts)) == len(texts)  # no line repeated
    assert set(fx.summaries) == {"Ludwig", "Maria"} and all(len(s.split()) >= 4 for s in fx.summaries.values())
    assert fx.lines == tr.as_text() and fx.cooldown_pair == ("Ludwig", "Maria")
    assert {r.function for r in records} >= {"conversation_line", "conversation_summary"}
    for owner, c in fx.commitments.items():  # if an arrangement was extracted, it is grounded and valid
        assert owner in ("Ludwig", "Maria") and c.place in ("Ludwig's House", "Park", "Library") and c.start > t


def _at_meeting(name, place="Hobbs Cafe", x=0.0, **kw):
    t0 = 15 * 3600.0
    fields = dict(place=place, chat_probability=0.0, next_commitment="Tomas apologises to Jonah over coffee",
                  next_commitment_start=t0, next_commitment_end=t0 + 3600, next_commitment_place="Hobbs Cafe",
                  next_commitment_id="c-tomas-0-apology", next_commitment_host="Tomas",
                  next_commitment_with=["Jonah", "Tomas"])
    fields.update(kw)
    return state(name, x=x, **fields)


def test_an_arranged_meeting_talks_across_the_place_without_the_chat_gate_once():
    cm = ConversationManager()
    t = 15 * 3600.0 + 600
    tomas, jonah = _at_meeting("Tomas"), _at_meeting("Jonah", x=400.0)  # far apart in the cafe, gate p = 0
    m = cm.meeting(jonah, tomas, t)
    assert m is not None and (m.host, m.partner) == ("Tomas", "Jonah") and "apologises" in m.what
    assert cm.precheck(tomas, jonah, t, random.Random(0), meeting=True) == (True, "ok")
    assert cm.precheck(tomas, jonah, t, random.Random(0)) == (False, "out of range")  # a chance chat would not
    cm.hold_meeting(m)
    assert cm.meeting(tomas, jonah, t + 60) is None  # held once per arrangement and pair
    # not yet both there, over, or an arrangement that is not about the two of them: no meeting
    assert ConversationManager().meeting(tomas, jonah.model_copy(update={"place": "Jonah's House"}), t) is None
    assert ConversationManager().meeting(tomas, jonah, 17 * 3600.0) is None
    party = {"next_commitment": "Lena's piano recital", "next_commitment_host": "Lena",
             "next_commitment_with": ["Dara", "Lena"]}
    assert ConversationManager().meeting(_at_meeting("Lena", **party), _at_meeting("Dara", **party), t) is None


def test_line_prompt_carries_the_meetings_purpose():
    fn = ConversationLine()
    base = dict(speaker="Tomas", listener="Jonah", persona_text="Tomas is kind.", emotion="guilty",
                relationship="a friend", place="Hobbs Cafe")
    text = fn.messages(LineInputs(**base, purpose="Tomas apologises to Jonah over coffee"), False)[-1]["content"]
    assert "They met because: Tomas apologises to Jonah over coffee." in text
    assert text.rstrip().endswith("about why they met.")
    plain = fn.messages(LineInputs(**base), False)[-1]["content"]
    assert "They met because" not in plain and plain.rstrip().endswith("to start the chat.")


def test_line_check_rejects_a_line_that_recites_the_prompts_memories():
    fn = ConversationLine()
    memories = ["This morning Tomas tore my design apart in front of everyone.",
                "Maya promised to come to my exhibition opening and never showed up."]
    inputs = LineInputs(speaker="Jonah", listener="Tomas", persona_text="Jonah paints.", emotion="calm",
                        relationship="a friend", memories=memories, history=["Tomas: Hi Jonah."])
    with pytest.raises(ValueError, match="memories"):
        fn.check(inputs, LineOut(line="; ".join(memories) + "; Jonah feels calm."))
    quoted = fn.check(inputs, LineOut(line="This morning Tomas tore my design apart in front of everyone."))
    assert quoted.line.startswith("This morning")  # saying one remembered thing is speech


def test_an_invitation_visit_is_a_meeting_though_only_the_host_holds_it():
    t = 15 * 3600.0 + 600
    visit = {"next_commitment": "invite Ren to Ludwig's birthday party", "next_commitment_host": "Ludwig",
             "next_commitment_with": ["Ludwig", "Ren"], "next_commitment_id": "c-ludwig-0-invite-ren",
             "next_commitment_place": "Ren's House", "place": "Ren's House"}
    ludwig = _at_meeting("Ludwig", **visit)
    ren = _at_meeting("Ren", x=400.0, place="Ren's House", next_commitment="", next_commitment_id="",
                      next_commitment_host="", next_commitment_with=[], next_commitment_start=None,
                      next_commitment_end=None, next_commitment_place=None)  # the guest knows nothing yet
    m = ConversationManager().meeting(ren, ludwig, t)
    assert m is not None and (m.host, m.partner) == ("Ludwig", "Ren")
    assert ConversationManager().meeting(ren.model_copy(update={"place": "Park"}), ludwig, t) is None


class _DeadlineLog:
    """The real scheduler, noting the deadline each call was given."""

    def __init__(self, scheduler):
        self.scheduler, self.deadlines = scheduler, []

    def deadline_in(self, seconds):
        return self.scheduler.deadline_in(seconds)

    async def call(self, fn, inputs, **kw):
        self.deadlines.append((fn.name, kw.get("deadline")))
        return await self.scheduler.call(fn, inputs, **kw)


def test_in_play_every_call_after_a_conversation_has_a_deadline(scheduler):
    """Without one a summary waits behind every request that has a deadline, and both speakers
    stay booked (seen in play: two agents frozen for two game hours at 75x)."""
    log = _DeadlineLog(scheduler)
    tr = Transcript(participants=["Ludwig", "Maria"], place="Park", start_t=0.0, end_t=20.0,
                    lines=[SpokenLine(speaker="Ludwig", text="Come to my party tomorrow at 7pm!", t=0.0),
                           SpokenLine(speaker="Maria", text="I will be there at 7pm.", t=20.0)])
    asyncio.run(conversation_effects(tr, log, known_places=["Park", "Ludwig's House"], known_agents=["Ludwig", "Maria"],
                                     deadline_s=20.0))
    assert [name for name, _ in log.deadlines] == ["conversation_summary", "conversation_summary",
                                                   "commitment_extraction"]
    assert all(d is not None for _, d in log.deadlines)


def test_in_play_a_talk_is_composed_for_when_its_lines_will_be_shown():
    """Play shows a talk's lines when they arrive: a play had "Next on my list: guitar practice at 14:00."
    shown at 14:12, composed a quarter of an hour before. The next talk is composed for the clock plus
    how long talks lately took; lockstep composes for when the two met, whatever the speed."""
    import types

    from garp.sim.pipeline import TALK_LAG_MAX_S, Brain
    clock = types.SimpleNamespace(t=13 * 3600.0)
    job = types.SimpleNamespace(asked_t=13 * 3600.0 - 60)
    play = object.__new__(Brain)
    play.sequential, play.clock, play.talk_lag = False, clock, 0.0
    assert play.talk_time(job) == clock.t
    play.talk_composed(clock.t - 800.0)  # the last talk took 800 game s to compose
    assert clock.t < play.talk_time(job) <= clock.t + 800.0
    for _ in range(6):
        play.talk_composed(clock.t - 800.0)
    assert play.talk_time(job) == pytest.approx(clock.t + 800.0, abs=20.0)
    play.talk_composed(clock.t - 10 * TALK_LAG_MAX_S)  # a stall (a pause) is not taken for the usual lag
    assert play.talk_time(job) <= clock.t + TALK_LAG_MAX_S
    lockstep = object.__new__(Brain)
    lockstep.sequential, lockstep.clock, lockstep.talk_lag = True, clock, 0.0
    lockstep.talk_composed(clock.t - 800.0)
    assert lockstep.talk_time(job) == job.asked_t
