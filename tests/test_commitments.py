"""Commitments: host beats hearsay (VI-e), duplicates merge, times resolved by code (VI-b)."""

from datetime import date

import pytest

from garp.engine.lmfunction import checked_candidates, run_function
from garp.mind.commitments import (
    CommitmentBook, CommitmentExtraction, ExtractedPlan, ExtractionInputs, commitments_from_extraction,
    make_commitment, match_place, parse_day_index, parse_time_of_day, resolve_when, same_event,
)

START = date(2026, 1, 1)  # a Thursday
D = 86400.0
PLACES = ["Ludwig's House", "Hobbs Cafe", "School Music Room", "Library"]


@pytest.mark.parametrize("text,expected", [
    ("at 19:00", 19 * 3600), ("7pm", 19 * 3600), ("7:30 pm", 19.5 * 3600), ("at 7", 19 * 3600),
    ("9 am", 9 * 3600), ("noon", 12 * 3600), ("midnight", 0), ("8 o'clock tonight", 20 * 3600),
    ("tomorrow evening", 19 * 3600), ("12am", 0), ("nothing here", None),
])
def test_time_of_day(text, expected):
    assert parse_time_of_day(text) == expected


def test_day_words_and_dates():
    assert parse_day_index("tomorrow at 7", 1, START) == 2
    assert parse_day_index("the day after tomorrow", 1, START) == 3
    assert parse_day_index("tonight", 4, START) == 4
    assert parse_day_index("party on 3 Jan", 0, START) == 2
    assert parse_day_index("January 3rd", 0, START) == 2
    assert parse_day_index("on Saturday", 0, START) == 2  # 1 Jan 2026 is a Thursday
    assert parse_day_index("next Thursday", 0, START) == 7
    assert parse_day_index("2026-01-05", 0, START) == 4
    assert parse_day_index("3 Jan", 0, date(2025, 12, 30)) == 4  # across the new year
    assert parse_day_index("some day", 0, START) is None


def test_resolve_when_against_the_clock():
    now = 1 * D + 10 * 3600  # day 1, 10:00
    assert resolve_when("tomorrow at 7pm", now, START) == 2 * D + 19 * 3600
    assert resolve_when("at 7pm", now, START) == 1 * D + 19 * 3600  # later today
    assert resolve_when("at 9am", now, START) == 2 * D + 9 * 3600  # already past today → tomorrow
    assert resolve_when("on 3 Jan at 18:30", now, START) == 2 * D + 18.5 * 3600
    assert resolve_when("sometime", now, START) is None


def test_host_statement_wins_over_second_hand_either_order():
    rumour = make_commitment("birthday party", 2 * D + 20 * 3600, "Hobbs Cafe", "Ludwig",
                             participants=["Maria"], source="second-hand", heard_from="Klaus", created_t=D)
    host = make_commitment("Ludwig's birthday party", 2 * D + 19 * 3600, "Ludwig's House", "Ludwig",
                           participants=["Maria"], source="heard-from-host", heard_from="Ludwig", created_t=D + 60)
    for first, second in ((rumour, host), (host, rumour)):
        book = CommitmentBook("Maria")
        book.add(first)
        book.add(second)
        assert len(book) == 1
        (c,) = book.for_day(2)
        assert (c.start, c.place, c.source) == (2 * D + 19 * 3600, "Ludwig's House", "heard-from-host")
    # a different host's event is a different commitment
    book.add(make_commitment("jam session", 2 * D + 15 * 3600, "School Music Room", "Erica"))
    assert len(book) == 2 and [c.what for c in book.for_day(2)][0] == "jam session"


def test_duplicates_merge_participants_and_keep_id():
    book = CommitmentBook("Ludwig")
    a = book.add(make_commitment("birthday party", 2 * D + 19 * 3600, "Ludwig's House", "Ludwig",
                                 participants=["Maria"], created_t=100))
    b = book.add(make_commitment("my birthday party", 2 * D + 19 * 3600, "Ludwig's House", "Ludwig",
                                 participants=["Klaus"], created_t=200))
    assert len(book) == 1 and b.id == a.id and b.created_t == 100
    assert set(b.participants) == {"Ludwig", "Maria", "Klaus"}
    assert book.upcoming(2 * D + 18.5 * 3600, 3600) == [b] and book.upcoming(D, 3600) == []
    assert CommitmentBook.from_dict(book.to_dict()).all() == book.all()


def test_hosts_errand_for_an_event_is_not_the_event():
    book = CommitmentBook("Ludwig")
    jam = book.add(make_commitment("jam session", 2 * D + 18 * 3600, "School Music Room", "Ludwig",
                                   participants=["Erica"]))
    errand = book.add(make_commitment("invite Erica to jam session", D + 18 * 3600, "Erica's House", "Ludwig",
                                      participants=["Erica"]))
    assert len(book) == 2 and errand.id != jam.id
    assert [c.what for c in book.for_day(2)] == ["jam session"] and book.for_day(2)[0].start == jam.start
    # a guest's second-hand account of the jam with the wrong day is still the same event
    rumour = make_commitment("the jam session", D + 20 * 3600, "Hobbs Cafe", "Ludwig", source="second-hand")
    assert same_event(jam, rumour)


def test_place_matching():
    assert match_place("the cafe", PLACES) == "Hobbs Cafe"
    assert match_place("Ludwigs house", PLACES) == "Ludwig's House"
    assert match_place("music room", PLACES) == "School Music Room"
    assert match_place("the libary", PLACES) == "Library"
    assert match_place("Atlantis", PLACES, "home") == "home"
    # "around town" names no place: Sam's evening walk once went to the Town Office; a walk goes outside
    town = ["Town Office", "Johnson Park", "Sam's Flat"]
    assert match_place("walking around town to learn where things are", town, "home") == "Johnson Park"
    assert match_place("the office", town) == "Town Office"
    assert match_place("around town", ["Town Office"], "home") == "home"
    school = ["Oak Hill School", "Lena's House", "Maya's House", "Hobbs Cafe"]
    assert match_place("lessons at school", school, "home") == "Oak Hill School"  # the town's one school
    assert match_place("tidy the house", school, "home") == "home"  # one of many houses names none


def _inputs(lines, now=1 * D + 10 * 3600):
    return ExtractionInputs(speakers=["Ludwig", "Maria"], lines=lines, now_t=now, start_date=START,
                            known_places=PLACES, known_agents=["Ludwig", "Maria", "Klaus"])


def test_extraction_is_grounded_in_the_transcript():
    fn = CommitmentExtraction()
    lines = ["Ludwig: Maria, come to my birthday party tomorrow at 7pm at my house!",
             "Maria: I'd love to, see you there."]
    # the model paraphrased the time wrongly and misspelt the place: code repairs both
    out = fn.check(_inputs(lines), ExtractedPlan(agreed=True, what="birthday party", when="tomorrow 8pm",
                                                 where="Ludwigs house", proposed_by="ludwig"))
    got = commitments_from_extraction(_inputs(lines), out)
    assert got["Ludwig"].source == "own" and got["Maria"].source == "heard-from-host"
    assert got["Maria"].start == 2 * D + 19 * 3600 and got["Maria"].place == "Ludwig's House"
    assert got["Maria"].id == got["Ludwig"].id
    # "agreed" with no time in the conversation is not a commitment (fallback = none)
    chat = ["Ludwig: Nice weather.", "Maria: Yes, lovely."]
    with pytest.raises(ValueError):
        fn.check(_inputs(chat), ExtractedPlan(agreed=True, what="walk", when="tomorrow", where="Library"))
    assert fn.fallback(_inputs(chat)).agreed is False
    # a place that is not on the map drops it
    with pytest.raises(ValueError):
        fn.check(_inputs(["Ludwig: Let's meet at 7pm at the pier.", "Maria: Sure."]),
                 ExtractedPlan(agreed=True, what="meet", when="7pm", where="the pier"))


def test_second_hand_account_of_a_third_persons_party():
    lines = ["Klaus: Ludwig's party is tomorrow at 8pm at Ludwig's House, let's go together.", "Maria: Sure."]
    inputs = ExtractionInputs(speakers=["Klaus", "Maria"], lines=lines, now_t=D + 3600, start_date=START,
                              known_places=PLACES, known_agents=["Ludwig", "Maria", "Klaus"])
    got = commitments_from_extraction(inputs, ExtractedPlan(agreed=True, what="Ludwig's party", when="tomorrow 8pm",
                                                            where="Ludwig's House", proposed_by="Klaus"))
    assert got["Maria"].host == "Ludwig" and got["Maria"].source == "second-hand"
    assert got["Maria"].heard_from == "Klaus" and got["Maria"].proposer == "Klaus"


def test_an_arrangement_that_would_pull_a_host_from_their_own_event_clashes():
    day1 = 86400.0
    book = CommitmentBook("Ludwig")
    party = book.add(make_commitment("Ludwig's birthday party", day1 + 18 * 3600, "Ludwig's House", "Ludwig",
                                     participants=["Oliver"], end=day1 + 21 * 3600))
    meet = make_commitment("meet up", day1 + 18 * 3600, "Oliver's Flat", "Oliver", participants=["Ludwig"],
                           end=day1 + 20 * 3600, source="heard-from-host")
    assert book.hosted_clash(meet) == party
    later = meet.model_copy(update={"start": day1 + 21 * 3600, "end": day1 + 22 * 3600})
    assert book.hosted_clash(later) is None  # after the party: no clash
    retold = make_commitment("birthday party at Ludwig's", day1 + 18 * 3600, "Park", "Ludwig", participants=["Oliver"],
                             end=day1 + 21 * 3600, source="heard-from-host")
    assert book.hosted_clash(retold) is None  # the same event, told with another place, is no clash
    assert CommitmentBook("Oliver").hosted_clash(meet) is None  # Oliver hosts nothing


def test_rank_mode_offers_no_plan_and_each_plan_the_transcript_grounds():
    """The small model ranks "no plan" against the plans code reads off the lines; a plan needs a
    time said while proposing, and "my house" is the speaker's home."""
    fn = CommitmentExtraction()
    lines = ["Ludwig: Maria, come to my birthday party tomorrow at 7pm at my house!",
             "Maria: I'd love to, see you there."]
    cands = checked_candidates(fn, _inputs(lines))
    assert [c.out.agreed for c in cands] == [False, True]
    plan = cands[1].out
    assert (plan.what, plan.where, plan.proposed_by) == ("birthday party", "Ludwig's House", "Ludwig")
    assert commitments_from_extraction(_inputs(lines), plan)["Maria"].start == 2 * D + 19 * 3600
    # a time named without proposing anything, in the past, or turned down grounds no plan: "no plan" alone
    for chat in (["Ludwig: I got up at 7 this morning.", "Maria: Early!"],
                 ["Ludwig: Would you like to join me at Hobbs Cafe tomorrow at 7pm?", "Maria: Sorry, I can't make it."],
                 ["Ludwig: Let's meet today at 9am at Hobbs Cafe.", "Maria: Sure."]):
        assert [c.out.agreed for c in checked_candidates(fn, _inputs(chat))] == [False]


@pytest.mark.model
def test_a_conversation_without_a_plan_is_answered_by_code_not_counted_as_a_failure(llm_backend):
    lines = ["Ludwig: I got up at 7 this morning.", "Maria: Early!"]
    out, rec = run_function(CommitmentExtraction(), _inputs(lines), llm_backend, agent="Ludwig")
    assert out.agreed is False and not rec.fallback_used and rec.note == "one candidate"
    invite = ["Ludwig: Maria, come to my birthday party tomorrow at 7pm at my house!",
              "Maria: I'd love to, see you there."]
    out, rec = run_function(CommitmentExtraction(), _inputs(invite), llm_backend, agent="Ludwig")
    assert rec.mode == "score" and not rec.fallback_used and rec.parsed["source"] in ("none", "transcript")
