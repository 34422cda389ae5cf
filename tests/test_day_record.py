"""What a character did today, read back from the event log for the interview (garp.mind.day_record)."""

from garp.eventlog import EventLog
from garp.mind.day_record import DAY_EVENTS, Done, covers, day_before, day_so_far, object_name, said, told, woke_at

DAY2 = 86400.0
HOME = "Noor's House"


def _at(hhmm: str) -> float:
    hours, minutes = hhmm.split(":")
    return DAY2 + 3600.0 * int(hours) + 60.0 * int(minutes)


def _yukis_morning() -> EventLog:
    log = EventLog()
    log.emit("arrive", DAY2 - 600.0, agent="Yuki", place=HOME, room="Bedroom", to=HOME)  # went to bed last night
    log.emit("action_start", _at("06:00"), agent="Yuki", object="noors-house/bed-4", verb="sleep", place=HOME,
             name="Yuki's bed")
    log.emit("action_start", _at("06:00"), agent="Victor", object="noors-house/bed-2", verb="sleep", place=HOME,
             name="Victor's bed")
    log.emit("action_end", _at("08:30"), agent="Yuki", object="noors-house/bed-4", verb="sleep", place=HOME)
    log.emit("action_start", _at("08:32"), agent="Yuki", object="noors-house/toilet", verb="use toilet", place=HOME,
             name="toilet")
    log.emit("action_start", _at("08:40"), agent="Yuki", object="noors-house/dining-table", verb="eat", place=HOME,
             name="dining table")  # no action_end: it ends when the walk to school begins
    log.emit("arrive", _at("09:25"), agent="Yuki", place="Oak Hill School", room="Classroom", to="Oak Hill School")
    log.emit("action_start", _at("09:30"), agent="Yuki", object="school/desk-3", verb="study", place="Oak Hill School",
             name="school desk")
    log.emit("action_end", _at("09:50"), agent="Yuki", object="school/desk-3", verb="study", place="Oak Hill School")
    log.emit("action_start", _at("09:55"), agent="Yuki", object="school/desk-3", verb="study", place="Oak Hill School",
             name="school desk")  # back at the desk after a break: one spell of study
    return log


def test_the_days_uses_and_walks_come_back_in_order_each_with_its_end():
    done = day_so_far(_yukis_morning().events, "Yuki", _at("10:30"))
    assert [(d.verb, d.thing) for d in done] == [("sleep", "Yuki's bed"), ("eat", "dining table"),
                                                 ("go", "Oak Hill School"), ("study", "school desk")]
    assert done[0].end == _at("08:30") and done[1].end == _at("09:25") and done[3].end is None
    assert day_so_far(_yukis_morning().events, "Yuki", _at("08:35"))[-1].verb == "sleep"  # later events not yet
    # a new day opens with the use under way at midnight (she never got up from the desk), from midnight
    assert day_so_far(_yukis_morning().events, "Yuki", _at("10:30") + 86400.0) == (
        Done(DAY2 + 86400.0, None, "study", "school desk", "Oak Hill School"),)


def test_the_night_that_began_yesterday_opens_today_and_yesterday_is_told_as_such():
    log = _yukis_morning()
    log.emit("action_start", _at("22:30"), agent="Yuki", object="noors-house/bed-4", verb="sleep", place=HOME,
             name="Yuki's bed")
    log.emit("action_end", _at("07:15") + 86400.0, agent="Yuki", object="noors-house/bed-4", verb="sleep", place=HOME)
    now = _at("09:00") + 86400.0
    today = day_so_far(log.events, "Yuki", now)
    assert today == (Done(DAY2 + 86400.0, _at("07:15") + 86400.0, "sleep", "Yuki's bed", HOME),)
    assert woke_at(today) == _at("07:15") + 86400.0 and covers(today, DAY2 + 86400.0 + 4 * 3600.0)
    before = day_before(log.events, "Yuki", now)
    assert [d.verb for d in before] == ["sleep", "eat", "go", "study", "sleep"]
    assert said(before[1], "Yuki", HOME, "Yesterday") == \
        "Yesterday from 08:40 to 09:25 I had breakfast at the dining table at home."


def test_things_done_are_told_in_the_first_person_past_tense():
    done = day_so_far(_yukis_morning().events, "Yuki", _at("10:30"))
    assert [said(d, "Yuki", HOME) for d in done] == [
        "From 06:00 to 08:30 I slept in my bed at home.", "From 08:40 to 09:25 I had breakfast at the dining table at home.",
        "At 09:25 I went to Oak Hill School.", "At 09:30 I studied at the school desk at Oak Hill School."]
    kept = [d for d in done if d.verb != "go"]
    assert told(kept, "Yuki", HOME, "This morning") == ("This morning I slept in my bed at home, had breakfast at "
                                                        "the dining table and studied at the school desk at Oak Hill "
                                                        "School.")
    # told at the school, where the teller stands: the place goes unnamed and the walk there is "came here"
    assert told(done[1:], "Yuki", HOME, "This morning", here="Oak Hill School") == (
        "This morning I had breakfast at the dining table at home, came here and studied at the school desk.")


def test_a_log_from_before_uses_carried_names_reads_the_object_id():
    assert object_name("noors-house/dining-table-2") == "dining table"
    assert object_name("cafe/tv") == "tv"


def test_the_record_knows_meals_eaten_when_the_night_ended_and_what_is_being_done_now():
    from garp.mind.agent import Activity
    from garp.mind.day_record import covers, doing_now, meals_had, progressive, woke_at

    done = day_so_far(_yukis_morning().events, "Yuki", _at("10:30"))
    assert meals_had(done) == {"breakfast"} and woke_at(done) == _at("08:30")
    assert covers(done, _at("04:00"))  # it opens with the night's sleep: nothing was eaten before it
    assert not covers(done[2:], _at("04:00")) and covers(done[2:], _at("09:30"))
    assert covers(done[2:], _at("04:00"), began=_at("06:00"))  # came into the world as its day began
    assert not covers(done[2:], _at("04:00"), began=_at("10:00"))  # placed mid-morning: a morning off-screen
    assert not covers(done[2:], _at("04:00"), began=_at("06:00") - 86400.0)  # a day earlier: the log tells it
    assert [progressive(d, "Yuki", HOME) for d in done[:2]] == ["sleeping in my bed at home",
                                                                "having breakfast at the dining table at home"]
    shelf = Activity("use", "browse (bookshelf) for reading", "Town Library", "town-library/bookshelf-10", "browse")
    assert progressive(doing_now(shelf), "Yuki", HOME) == "browsing the bookshelf at Town Library"
    assert doing_now(Activity("walk", "go home", "Noor's House")) is None


def test_the_logs_day_events_are_read_in_order_and_stay_current_after_the_first_ask(tmp_path):
    """A talk reads both speakers' days from the log's day events: the view of those kinds is kept as events
    come, in log order, whatever came before or after the first ask, and each ask gets its own list."""
    log = EventLog(tmp_path / "events.jsonl")
    log.emit("arrive", 10.0, agent="Ana", place="Cafe")
    log.emit("needs", 11.0, agent="Ana")
    first = log.of_kind(*DAY_EVENTS)
    log.emit("action_start", 12.0, agent="Ana", verb="read", object="cafe/shelf", place="Cafe")
    log.emit("chat_line", 13.0, agent="Ana", text="Hi")
    log.emit("action_end", 14.0, agent="Ana", verb="read")
    later = log.of_kind(*DAY_EVENTS)
    assert [e["t"] for e in first] == [10.0] and [e["t"] for e in later] == [10.0, 12.0, 14.0]
    assert later == [e for e in log.events if e["kind"] in DAY_EVENTS] and later is not log.of_kind(*DAY_EVENTS)
    assert EventLog.read(tmp_path / "events.jsonl") == log.events


def test_cooking_is_named_for_a_meal_only_near_that_meal():
    """A play had Greta, baking at her stove from 08:38 to noon, say she was "cooking breakfast" at 10:36."""
    from garp.mind.day_record import Done, progressive

    def greta(hour: float) -> str:
        return progressive(Done(hour * 3600.0, None, "cook", "stove", "Greta's House"), "Greta", "Greta's House")
    assert greta(7.0) == "cooking breakfast at the stove at home"
    assert greta(8.64) == "cooking at the stove at home"
    assert greta(11.5) == "cooking lunch at the stove at home"
    assert greta(15.0) == "cooking at the stove at home"
    assert greta(18.5) == "cooking dinner at the stove at home"
