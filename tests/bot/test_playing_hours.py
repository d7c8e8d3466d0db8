"""Playing hours: the turn clock's arithmetic in playing time, over nights, weekends and
daylight-saving changes in both directions, and what a user types."""

import random
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from bot.service.errors import UserError
from bot.service.timekeeping.playing_hours import PlayingHours, changed, parse_days, parse_range
from bot.service.timekeeping.timing import HOUR, Timing

PARIS = "Europe/Paris"
NEW_YORK = "America/New_York"


def at(zone: str, *parts: int) -> float:
    """A wall-clock time in ``zone`` as a real timestamp."""
    return datetime(*parts, tzinfo=ZoneInfo(zone)).timestamp()  # type: ignore[misc]


WEEKDAYS = PlayingHours.parse("9-22", "mon-fri", PARIS)


def test_a_turn_started_on_friday_evening_ends_after_the_weekend():
    friday = at(PARIS, 2026, 12, 4, 20, 0)  # a Friday
    # 2 h on Friday, then the clock rests until Monday 09:00.
    assert WEEKDAYS.add(friday, 12 * HOUR) == at(PARIS, 2026, 12, 7, 19, 0)
    assert WEEKDAYS.add(friday, 16 * HOUR) == at(PARIS, 2026, 12, 8, 10, 0)  # Tuesday
    assert WEEKDAYS.playing_between(friday, at(PARIS, 2026, 12, 8, 10, 0)) == 16 * HOUR
    assert WEEKDAYS.before(at(PARIS, 2026, 12, 8, 10, 0), 16 * HOUR) == friday


def test_a_night_is_not_counted():
    daily = PlayingHours.parse("9-22", "all", PARIS)
    evening = at(PARIS, 2026, 12, 2, 21, 0)
    assert daily.add(evening, 3 * HOUR) == at(PARIS, 2026, 12, 3, 11, 0)
    assert daily.playing_between(evening, at(PARIS, 2026, 12, 3, 9, 0)) == HOUR
    assert daily.before(at(PARIS, 2026, 12, 3, 11, 0), 3 * HOUR) == evening


def test_resting_and_the_next_opening():
    saturday = at(PARIS, 2026, 12, 5, 15, 0)
    monday = at(PARIS, 2026, 12, 7, 9, 0)
    assert WEEKDAYS.resting(saturday)
    assert WEEKDAYS.next_opening(saturday) == monday
    assert WEEKDAYS.next_rest(saturday) == (saturday, monday)
    assert not WEEKDAYS.resting(monday)
    assert WEEKDAYS.next_opening(monday + HOUR) == monday + HOUR
    assert WEEKDAYS.next_rest(monday) == (at(PARIS, 2026, 12, 7, 22, 0), at(PARIS, 2026, 12, 8, 9))
    assert WEEKDAYS.resting(at(PARIS, 2026, 12, 7, 22, 0))  # the end is not inside
    assert WEEKDAYS.local(monday) == "Mon 09:00"


def test_the_clocks_going_forward_in_paris():
    # The last Sunday of March 2026: 02:00 CET becomes 03:00 CEST.
    night = PlayingHours.parse("1-4", "all", PARIS)
    sunday = at(PARIS, 2026, 3, 29, 1, 0)
    assert night.playing_between(sunday, at(PARIS, 2026, 3, 29, 5, 0)) == 2 * HOUR
    assert night.add(sunday, 2.5 * HOUR) == at(PARIS, 2026, 3, 30, 1, 30)
    assert night.before(at(PARIS, 2026, 3, 30, 1, 30), 2.5 * HOUR) == sunday
    # 09-22 daily: a turn over the change's night loses no playing time, one real hour.
    daily = PlayingHours.parse("9-22", "all", PARIS)
    saturday = at(PARIS, 2026, 3, 28, 21, 0)
    end = daily.add(saturday, 2 * HOUR)
    assert end == at(PARIS, 2026, 3, 29, 10, 0)
    assert end - saturday == 12 * HOUR


def test_the_clocks_going_back_in_paris():
    # The last Sunday of October 2026: 03:00 CEST becomes 02:00 CET.
    night = PlayingHours.parse("1-4", "all", PARIS)
    sunday = at(PARIS, 2026, 10, 25, 1, 0)
    assert night.playing_between(sunday, at(PARIS, 2026, 10, 25, 5, 0)) == 4 * HOUR
    assert night.add(sunday, 3.5 * HOUR) == at(PARIS, 2026, 10, 25, 3, 30)
    daily = PlayingHours.parse("9-22", "all", PARIS)
    saturday = at(PARIS, 2026, 10, 24, 21, 0)
    end = daily.add(saturday, 2 * HOUR)
    assert end == at(PARIS, 2026, 10, 25, 10, 0)
    assert end - saturday == 14 * HOUR


def test_new_york_weekends_over_both_changes():
    office = PlayingHours.parse("9-17", "mon-fri", NEW_YORK)
    # Clocks go forward on Sunday 8 March 2026: the weekend is an hour shorter.
    friday = at(NEW_YORK, 2026, 3, 6, 16, 0)
    end = office.add(friday, 2 * HOUR)
    assert end == at(NEW_YORK, 2026, 3, 9, 10, 0)
    assert end - friday == 65 * HOUR
    # Clocks go back on Sunday 1 November 2026: an hour longer.
    friday = at(NEW_YORK, 2026, 10, 30, 16, 0)
    end = office.add(friday, 2 * HOUR)
    assert end == at(NEW_YORK, 2026, 11, 2, 10, 0)
    assert end - friday == 67 * HOUR
    assert office.playing_between(friday, end) == 2 * HOUR


def test_add_before_and_between_agree():
    rng = random.Random(5)
    hours = [WEEKDAYS, PlayingHours.parse("1-4", "sat,sun", PARIS),
             PlayingHours.parse("08:30-23:00", "tue-thu", NEW_YORK)]  # fmt: skip
    for _ in range(300):
        playing = rng.choice(hours)
        start = at(PARIS, 2026, 1, 1) + rng.uniform(0, 365 * 24 * HOUR)
        seconds = rng.uniform(0, 200 * HOUR)
        end = playing.add(start, seconds)
        assert end >= start
        assert playing.playing_between(start, end) == pytest.approx(seconds, abs=1e-3)
        assert playing.add(playing.before(end, seconds), seconds) == pytest.approx(end, abs=1e-3)


def test_what_users_type():
    assert parse_range("9-22") == (9 * 60, 22 * 60)
    assert parse_range("08:30-23:00") == (8 * 60 + 30, 23 * 60)
    assert parse_range("18-24") == parse_range("18-0") == (18 * 60, 24 * 60)
    assert parse_days("mon-fri") == frozenset(range(5))
    assert parse_days("fri-mon") == frozenset({4, 5, 6, 0})
    assert parse_days("sat, sun") == parse_days("weekends") == frozenset({5, 6})
    assert parse_days("all") == frozenset(range(7))
    for bad in ("20-02", "22-9"):
        with pytest.raises(UserError, match="cannot cross midnight"):
            parse_range(bad)
    for bad in ("25-3", "9", "nine to five", "9-9", "9:75-10"):
        with pytest.raises(UserError, match="such as `9-22`"):
            parse_range(bad)
    with pytest.raises(UserError, match=r"`mon-frog` is not a set of days.*`mon-fri`"):
        parse_days("mon-frog")
    with pytest.raises(UserError, match=r"`Mars/Olympus` is not a time zone.*Europe/Paris"):
        PlayingHours.parse("9-22", "all", "Mars/Olympus")


def test_changing_playing_hours():
    assert changed(None) is None
    assert changed(WEEKDAYS, hours="off") is None
    assert changed(WEEKDAYS, zone="UTC") == PlayingHours(9 * 60, 22 * 60, WEEKDAYS.days, "UTC")
    weekdays_only = changed(None, days="mon-fri")
    assert weekdays_only == PlayingHours(0, 24 * 60, frozenset(range(5)), "UTC")
    assert changed(weekdays_only, days="all") is None  # around the clock again
    assert changed(None, hours="9-22", days="mon-fri", zone=PARIS) == WEEKDAYS


def test_timing_keeps_its_playing_hours():
    timing = Timing().changed(playing_hours_text="9-22", playing_days="mon-fri", timezone=PARIS)
    assert timing.playing == WEEKDAYS
    stored = timing.to_dict()
    assert stored["playing"] == {"start": 540, "end": 1320, "days": [0, 1, 2, 3, 4],
                                 "zone": PARIS}  # fmt: skip
    assert Timing.from_dict(stored) == timing
    assert "playing" not in Timing().to_dict()
    assert Timing.from_dict({"playing": {"start": 5, "zone": "nowhere"}}).playing is None
    assert "playing hours 09:00–22:00 Mon–Fri (Europe/Paris)" in timing.describe()
    friday = at(PARIS, 2026, 12, 4, 20, 0)
    twelve = Timing(limit=12 * HOUR, reminder=3 * HOUR, playing=WEEKDAYS)
    assert twelve.deadlines(friday) == {
        "deadline": at(PARIS, 2026, 12, 7, 19, 0),
        "remind_at": at(PARIS, 2026, 12, 7, 16, 0),
    }
    # A reminder before the weekend: 3 playing hours before Monday 10:00.
    three = Timing(limit=4 * HOUR, reminder=3 * HOUR, playing=WEEKDAYS)
    assert three.deadlines(friday)["remind_at"] == at(PARIS, 2026, 12, 4, 20, 0) + HOUR
