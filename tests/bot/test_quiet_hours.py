"""Quiet hours: windows across midnight and daylight-saving changes in both directions,
and what a user types."""

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from bot.service.errors import UserError
from bot.service.timekeeping.quiet_hours import QuietHours

PARIS = "Europe/Paris"
NEW_YORK = "America/New_York"
HOUR = 3600.0


def at(zone: str, *parts: int) -> float:
    """A wall-clock time in ``zone`` as a real timestamp."""
    return datetime(*parts, tzinfo=ZoneInfo(zone)).timestamp()  # type: ignore[misc]


NIGHTS = QuietHours.parse("22-8", PARIS)


def test_quiet_hours_cross_midnight():
    assert NIGHTS is not None
    assert not NIGHTS.quiet(at(PARIS, 2026, 12, 2, 21, 59))
    assert NIGHTS.quiet(at(PARIS, 2026, 12, 2, 22, 0))
    assert NIGHTS.quiet(at(PARIS, 2026, 12, 3, 2, 0))
    assert NIGHTS.quiet(at(PARIS, 2026, 12, 3, 7, 59))
    assert not NIGHTS.quiet(at(PARIS, 2026, 12, 3, 8, 0))
    # Before and after midnight, the same night ends at 08:00 the next morning.
    assert NIGHTS.ends(at(PARIS, 2026, 12, 2, 23, 0)) == at(PARIS, 2026, 12, 3, 8, 0)
    assert NIGHTS.ends(at(PARIS, 2026, 12, 3, 1, 0)) == at(PARIS, 2026, 12, 3, 8, 0)
    noon = at(PARIS, 2026, 12, 3, 12, 0)
    assert NIGHTS.ends(noon) == noon
    assert NIGHTS.window(noon) is None


def test_the_night_the_clocks_go_forward_is_an_hour_shorter():
    assert NIGHTS is not None
    # Paris: 29 March 2026, 02:00 becomes 03:00.
    window = NIGHTS.window(at(PARIS, 2026, 3, 29, 1, 0))
    assert window == (at(PARIS, 2026, 3, 28, 22, 0), at(PARIS, 2026, 3, 29, 8, 0))
    assert window[1] - window[0] == 9 * HOUR
    assert not NIGHTS.quiet(at(PARIS, 2026, 3, 29, 8, 0))


def test_the_night_the_clocks_go_back_is_an_hour_longer():
    assert NIGHTS is not None
    # Paris: 25 October 2026, 03:00 becomes 02:00.
    window = NIGHTS.window(at(PARIS, 2026, 10, 25, 5, 0))
    assert window == (at(PARIS, 2026, 10, 24, 22, 0), at(PARIS, 2026, 10, 25, 8, 0))
    assert window[1] - window[0] == 11 * HOUR


def test_quiet_hours_within_a_day_and_in_another_zone():
    siesta = QuietHours.parse("13:30-15", NEW_YORK)
    assert siesta is not None
    assert siesta.quiet(at(NEW_YORK, 2026, 11, 1, 14, 0))  # the day the clocks go back
    assert not siesta.quiet(at(NEW_YORK, 2026, 11, 1, 15, 0))
    assert siesta.ends(at(NEW_YORK, 2026, 3, 8, 13, 30)) == at(NEW_YORK, 2026, 3, 8, 15, 0)
    # A window ending at the zone's skipped hour (02:30 on the night the clocks go
    # forward) ends at the real time the wall clock reads it as.
    late = QuietHours.parse("23-2:30", NEW_YORK)
    assert late is not None
    assert late.ends(at(NEW_YORK, 2026, 3, 8, 0, 30)) == at(NEW_YORK, 2026, 3, 8, 3, 30)


def test_what_a_user_types():
    assert QuietHours.parse("off") is None
    assert QuietHours.parse("22:30-07:00", "utc") == QuietHours(22 * 60 + 30, 7 * 60, "UTC")
    assert QuietHours.parse("20-24", PARIS) == QuietHours(20 * 60, 0, PARIS)
    for wrong in ("22", "8-8", "25-3", "22:75-8", "night"):
        with pytest.raises(UserError):
            QuietHours.parse(wrong, PARIS)
    with pytest.raises(UserError):
        QuietHours.parse("22-8", "Mars/Olympus")
    assert NIGHTS is not None
    assert QuietHours.from_dict(NIGHTS.to_dict()) == NIGHTS
    assert QuietHours.from_dict({"start": 1}) is None
    assert NIGHTS.describe() == "22:00–08:00 (Europe/Paris)"
