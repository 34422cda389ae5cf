"""Word of mouth (issue 19): an event told in a conversation is learned with its source, passed on
by those who heard it, accepted into a commitment, and the host's own word beats hearsay."""

from __future__ import annotations

import asyncio
import types

from garp.engine.lmfunction import checked_candidates
from garp.mind.commitments import make_commitment
from garp.mind.dialogue import SpeakerContext, run_conversation
from garp.mind.news import EventKnowledge, heard
from sim_helpers import BestByCode

H = 3600.0
PARTY = make_commitment("Maya's party", 19 * H, "Hobbs Cafe", "Maya", participants=["Priya"], end=21.5 * H)


def talk(a: SpeakerContext, b: SpeakerContext, t: float = 10 * H):
    return asyncio.run(run_conversation(a, b, BestByCode(), t))


def test_the_host_invites_and_the_guest_accepts_with_the_time_and_place():
    host = EventKnowledge("Maya")
    host.learn(PARTY)
    a = SpeakerContext(name="Maya", persona_text="", familiarity=0.8, news=host.news_for("Priya", 10 * H))
    b = SpeakerContext(name="Priya", persona_text="", familiarity=0.8)
    tr = talk(a, b)
    assert tr.lines[0].act == f"invite:{PARTY.id}"
    assert "my party at Hobbs Cafe today at 19:00" in tr.lines[0].text
    assert tr.lines[1].act == f"accept:{PARTY.id}" and "19:00" in tr.lines[1].text
    assert not any(l.act.startswith("invite") for l in tr.lines[2:])  # told once, not again


def test_news_goes_second_hand_and_the_hosts_word_wins():
    priya = EventKnowledge("Priya")
    assert priya.learn(heard(PARTY, "Priya", "Maya", 11 * H))
    relay = priya.news_for("Greta", 12 * H)
    assert [n.host for n in relay] == ["Maya"] and not relay[0].speaker_is_host
    assert priya.news_for("Maya", 12 * H) == []  # nobody tells the host about their own event
    tr = talk(SpeakerContext(name="Priya", persona_text="", familiarity=0.9, news=relay),
              SpeakerContext(name="Greta", persona_text="", familiarity=0.9), t=12 * H)
    assert tr.lines[0].act == f"relay:{PARTY.id}" and "There's Maya's party at Hobbs Cafe today at 19:00" in tr.lines[0].text
    assert tr.lines[1].act == f"accept:{PARTY.id}"
    greta = EventKnowledge("Greta")
    assert greta.learn(heard(PARTY, "Greta", "Priya", 12 * H))
    assert greta.known[PARTY.id].source == "second-hand" and greta.known[PARTY.id].heard_from == "Priya"
    assert not greta.learn(heard(PARTY, "Greta", "Maya", 13 * H))  # not news any more...
    assert greta.known[PARTY.id].source == "heard-from-host"  # ...but the host's word replaces hearsay


def test_an_event_that_is_over_or_already_told_is_not_news():
    k = EventKnowledge("Maya")
    k.learn(PARTY)
    k.told.add((PARTY.id, "Priya"))
    assert k.news_for("Priya", 10 * H) == [] and k.news_for("Greta", 22 * H) == []
    arjun = EventKnowledge("Arjun")
    arjun.learn(heard(PARTY, "Arjun", "Greta", 17 * H))
    assert arjun.news_for("Greta", 17 * H) == [] and arjun.news_for("Sam", 17 * H) != []  # not back to its teller
    assert arjun.news_for("Sam", 19.5 * H, "Hobbs Cafe") == []  # met at the party itself: no news to either
    assert arjun.news_for("Sam", 19.5 * H, "Greta's House") != []
    again = EventKnowledge("Maya")
    again.restore(k.state())
    assert again.known == k.known and again.told == k.told


def test_word_of_mouth_logs_who_heard_and_commits_who_accepted():
    from garp.eventlog import EventLog
    from garp.sim.conversation_job import word_of_mouth
    maya = types.SimpleNamespace(name="Maya", events=EventKnowledge("Maya"))
    priya = types.SimpleNamespace(name="Priya", events=EventKnowledge("Priya"))
    maya.events.learn(PARTY)
    tr = talk(SpeakerContext(name="Maya", persona_text="", familiarity=0.8, news=maya.events.news_for("Priya", 10 * H)),
              SpeakerContext(name="Priya", persona_text="", familiarity=0.8))
    log = EventLog(None)
    accepted = word_of_mouth(types.SimpleNamespace(log=log), tr, {"Maya": maya, "Priya": priya})
    assert set(accepted) == {"Priya"} and accepted["Priya"].source == "heard-from-host"
    assert accepted["Priya"].start == PARTY.start and accepted["Priya"].place == PARTY.place
    news = [e for e in log.events if e["kind"] == "news_heard"]
    assert [(e["agent"], e["heard_from"]) for e in news] == [("Priya", "Maya")]
    assert (PARTY.id, "Priya") in maya.events.told


def test_a_same_day_party_gets_a_call_on_every_invitee_before_it_starts():
    """Maya's party tonight (party_news): her housemate over breakfast, a friend home all day next,
    then those who work at their work, since after work would be too late for 19:00."""
    from garp.mind.news import invitation_visits
    homes = {"Maya": "Maya's House", "Priya": "Maya's House", "Greta": "Greta's House",
             "Mika": "Mika's House", "Erica": "Erica's House"}
    work = {"Maya": "Corner Shop", "Priya": "Town Library", "Greta": None, "Mika": "Corner Shop",
            "Erica": "Hobbs Cafe"}
    visits = invitation_visits(PARTY, ["Priya", "Mika", "Greta", "Erica"], homes, work, 7 * H)
    where = {next(p for p in v.participants if p != "Maya"): (v.start, v.place) for v in visits}
    assert where["Priya"] == (7.5 * H, "Maya's House")
    assert where["Greta"][1] == "Greta's House" and where["Greta"][0] > where["Priya"][0]
    assert where["Mika"][1] == "Corner Shop" and where["Erica"][1] == "Hobbs Cafe"
    assert all(v.end <= PARTY.start for v in visits) and len(visits) == 4
    for a, b in zip(visits, visits[1:]):
        assert b.start - a.end >= 45 * 60  # a walk between calls


def test_someone_with_news_ranks_telling_it_and_says_what_over_its_silence():
    """Decide-to-talk is ranked: with news for the other, talking to tell it (the prompt names the news);
    without, going over to say hello, which a friend does and a stranger mostly does not."""
    from garp.mind.conversation import DecideToTalk, TalkInputs
    base = dict(speaker="Greta", other="Arjun", speaker_activity="gardening", other_activity="reading",
                relationship="housemates", emotion="calm")
    fn = DecideToTalk()
    friend, stranger = (fn.candidates(TalkInputs(**base, familiarity=f)) for f in (0.8, 0.0))
    assert friend[0].text == "Greta goes over to say hello to Arjun." and friend[0].out.talk
    assert friend[0].utility > friend[1].utility and stranger[0].utility < stranger[1].utility
    news = "Maya's party at Hobbs Cafe today at 19:00"
    eager = fn.candidates(TalkInputs(**base, news=news, familiarity=0.8))
    assert [c.out.talk for c in eager] == [True, False] and eager[0].utility > eager[1].utility
    assert news in fn.rank_messages(TalkInputs(**base, news=news))[-1]["content"]
    low = fn.candidates(TalkInputs(**base, news=news, familiarity=0.0, withdrawn=True))
    assert max(low, key=lambda c: c.utility).out.talk is False  # not in the mood: code would keep quiet



def test_an_invitation_call_at_the_partys_own_place_keeps_the_party_in_the_hosts_book():
    """Erica works at Hobbs Cafe, where the party is: the call on her there at 13:00 is an errand of
    its own, so Maya's book still has her party at 19:00, and a chat that would pull her home at
    19:00 is refused as a clash with it."""
    from garp.eventlog import EventLog
    from garp.mind.commitments import CommitmentBook
    from garp.sim.conversation_job import _commitments
    books = {n: CommitmentBook(n) for n in ("Maya", "Mika")}
    books["Maya"].add(PARTY)
    books["Maya"].add(make_commitment("invite Erica to Maya's party", 13 * H, "Hobbs Cafe", "Maya",
                                      participants=["Erica"], end=14 * H))
    assert sorted(c.what for c in books["Maya"].all()) == ["Maya's party", "invite Erica to Maya's party"]
    minds = {n: types.SimpleNamespace(name=n, commitments=b) for n, b in books.items()}
    log, committed = EventLog(None), []
    brain = types.SimpleNamespace(minds=minds, log=log, commit=lambda m, c, t: committed.append((m.name, c)),
                                  hooks=types.SimpleNamespace(heard_from_host=lambda a, b, t: None))
    meet = make_commitment("meet up", 19 * H, "Maya's House", "Maya", participants=["Mika"], end=21 * H)
    assert _commitments(brain, minds["Maya"], minds["Mika"], {"Mika": meet}, 17 * H) == [] and not committed
    refused, = [e for e in log.events if e["kind"] == "commitment_refused"]
    assert (refused["agent"], refused["clash"]) == ("Mika", "Maya's party")


def _guest_brain(names: list[str]):
    """Just enough of a Brain for a conversation's commitments: real personas, relationships and
    books for `names`, and a `commit` that stores into the book as the planner's would."""
    from garp.eventlog import EventLog
    from garp.mind.commitments import CommitmentBook
    from garp.mind.persona import load_persona
    from garp.mind.relationships import Relationships
    from garp.mind.routine import work_end_times
    from garp.paths import PERSONAS
    minds = {}
    for n in names:
        persona = load_persona(PERSONAS / f"{n.lower()}.json")
        rel = Relationships(n)
        rel.seed(persona)
        minds[n] = types.SimpleNamespace(name=n, persona=persona, relationships=rel, commitments=CommitmentBook(n))
    personas = {n: m.persona for n, m in minds.items()}
    return types.SimpleNamespace(
        minds=minds, homes={n: p.home for n, p in personas.items()}, log=EventLog(None),
        workplaces={n: p.workplace for n, p in personas.items()}, free_at=work_end_times(personas),
        hooks=types.SimpleNamespace(heard_from_host=lambda *a: None), commit=lambda mind, c, t: mind.commitments.add(c))


def test_a_guest_who_accepts_an_open_party_sets_out_to_tell_a_close_friend_who_has_not_heard():
    """Arjun hears of Maya's party at lunch and accepts. It is open to anyone, so he calls on Dara,
    his friend from the cafe kitchen who knows nothing of it, at her home once both their shifts are
    over (the routine's "until three"), and then Sam, the new lodger he shares Greta's House with
    (however little they know each other), once Sam's work is over; Greta and Erica are already invited. A party for the
    invited only sends him to nobody."""
    from garp.sim.conversation_job import _commitments
    cast = ["Maya", "Arjun", "Dara", "Greta", "Erica", "Sam"]
    invited = make_commitment("Maya's party", 19 * H, "Hobbs Cafe", "Maya", participants=["Greta", "Erica"],
                              end=21.5 * H)
    brain = _guest_brain(cast)
    arjun, maya = brain.minds["Arjun"], brain.minds["Maya"]
    heard_it = heard(invited.model_copy(update={"open": True}), "Arjun", "Maya", 13 * H)
    _commitments(brain, maya, arjun, {"Arjun": heard_it}, 13 * H)
    calls = [c for c in arjun.commitments.all() if c.what.startswith("tell")]
    assert [(c.what, c.place, c.start) for c in calls] == [("tell Dara about Maya's party", "Lena's House", 15 * H),
                                                           ("tell Sam about Maya's party", "Greta's House", 17 * H)]
    assert all(c.end <= invited.start and c.host == "Arjun" for c in calls) and "Dara" in calls[0].participants
    _commitments(brain, maya, arjun, {"Arjun": heard_it}, 14 * H)  # told again: no second round of calls
    assert len([c for c in arjun.commitments.all() if c.what.startswith("tell")]) == 2
    closed = _guest_brain(cast)
    _commitments(closed, closed.minds["Maya"], closed.minds["Arjun"], {"Arjun": heard(invited, "Arjun", "Maya", 13 * H)},
                 13 * H)
    assert [c.what for c in closed.minds["Arjun"].commitments.all()] == ["Maya's party"]


def test_whoever_tells_of_an_event_passes_on_who_has_heard_so_nobody_is_sent_to_tell_them():
    """In a recorded party_news day Maya told Arjun herself, and three guests who heard from her later
    still set out to tell him: her copy of the party did not know whom she had told."""
    maya = EventKnowledge("Maya")
    maya.learn(PARTY)
    maya.told_of(PARTY.id, "Arjun")
    assert maya.news_for("Arjun", 12 * H) == [] and "Arjun" in maya.known[PARTY.id].participants
    dara = EventKnowledge("Dara")
    dara.learn(heard(maya.known[PARTY.id], "Dara", "Maya", 13 * H))
    from garp.mind.news import friends_to_tell
    closeness = {"Arjun": 0.9, "Lena": 0.8}
    assert friends_to_tell(dara.known[PARTY.id], "Dara", closeness, {"Arjun", "Lena", "Maya"}) == ["Lena"]
