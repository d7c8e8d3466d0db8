"""Times read in the reader's language and zone: deadlines, quiet and playing hours."""

from __future__ import annotations

import datetime

import pytest

from i18n import pseudo
from i18n.times import date_time, relative, weekday_time

SUNDAY_17_UTC = datetime.datetime(2025, 12, 7, 17, 0, tzinfo=datetime.UTC).timestamp()
"""Sunday 7 December 2025, 17:00 UTC: 18:00 in Paris, 12:00 in New York."""


@pytest.mark.parametrize(
    ("locale", "expected"),
    [
        ("en", "in 3 hours"),
        ("de", "in 3 Stunden"),
        ("fr", "dans 3 heures"),
        ("es", "dentro de 3 horas"),
        ("pt-BR", "em 3 horas"),
    ],
)
def test_a_deadline_reads_in_the_readers_words(locale, expected):
    assert relative(3 * 3600, locale) == expected


def test_a_past_time_reads_as_ago_and_a_duration_rounds_as_people_say_it():
    assert relative(-120, "en") == "2 minutes ago"
    assert relative(-120, "fr") == "il y a 2 minutes"
    assert relative(2.6 * 3600, "en") == "in 3 hours"
    assert relative(36 * 3600, "de") == "in 2 Tagen"


def test_one_of_a_unit_is_singular_in_each_language():
    assert relative(3600, "en") == "in 1 hour"
    assert relative(3600, "fr") == "dans 1 heure"


@pytest.mark.parametrize(
    ("locale", "expected"),
    [
        ("en", "Sunday 18:00"),
        ("de", "Sonntag 18:00"),
        ("fr", "dimanche 18:00"),
        ("es", "domingo 18:00"),
        ("pt-BR", "domingo 18:00"),
    ],
)
def test_a_weekly_hour_names_the_day_in_the_readers_language(locale, expected):
    assert weekday_time(SUNDAY_17_UTC, "Europe/Paris", locale) == expected


def test_the_hour_is_the_zones_and_utc_without_one():
    assert weekday_time(SUNDAY_17_UTC, "America/New_York", "en") == "Sunday 12:00"
    assert weekday_time(SUNDAY_17_UTC, None, "en") == "Sunday 17:00"
    assert weekday_time(SUNDAY_17_UTC, "Pacific/Auckland", "en") == "Monday 06:00"


def test_an_unknown_zone_is_refused():
    with pytest.raises(LookupError):
        weekday_time(SUNDAY_17_UTC, "Mars/Olympus_Mons", "en")


@pytest.mark.parametrize(
    ("locale", "expected"),
    [
        ("en", "Dec 7, 2025, 18:00"),
        ("de", "7. Dez. 2025, 18:00"),
        ("fr", "7 déc. 2025, 18:00"),
        ("es", "7 dic 2025, 18:00"),
        ("pt-BR", "7 de dez. de 2025 18:00"),
    ],
)
def test_a_date_reads_in_the_readers_order_and_words(locale, expected):
    assert date_time(SUNDAY_17_UTC, "Europe/Paris", locale) == expected


def test_the_pseudo_locale_reads_english_accented_with_its_numbers_kept():
    for written, english in (
        (relative(3 * 3600, "en-XA"), "in 3 hours"),
        (weekday_time(SUNDAY_17_UTC, "Europe/Paris", "en-XA"), "Sunday 18:00"),
        (date_time(SUNDAY_17_UTC, "Europe/Paris", "en-XA"), "Dec 7, 2025, 18:00"),
    ):
        assert written == pseudo.accented(english)
        assert pseudo.is_accented(written)
    assert "18:00" in weekday_time(SUNDAY_17_UTC, "Europe/Paris", "en-XA")
    assert "Šûñðáý" in weekday_time(SUNDAY_17_UTC, "Europe/Paris", "en-XA")
