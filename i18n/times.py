"""Times as a reader reads them, in their language: how long until a deadline ("in 3
hours", "dans 3 heures"), which day and hour quiet or playing hours end ("Sunday 18:00",
"dimanche 18:00"), and a date with its hour.

The words, the order of day, month and year, and the plural rules are Babel's (CLDR's);
hours are on the 24-hour clock in every language, as the host's settings are given. The
pseudo-locale reads English, accented (:func:`i18n.pseudo.accented`).
"""

from __future__ import annotations

import datetime
from zoneinfo import ZoneInfo

from babel.dates import format_datetime, format_skeleton, format_timedelta

from i18n import pseudo
from i18n.catalogs import babel_locale
from i18n.locales import Locale


def relative(seconds: float, locale: Locale) -> str:
    """``seconds`` from now, in words: ``in 3 hours``, ``dans 3 heures``, ``vor 2
    Minuten`` (a past time when negative), rounded to its largest unit as people say it."""
    span = datetime.timedelta(seconds=seconds)
    return _in(locale, format_timedelta(span, add_direction=True, locale=babel_locale(locale)))


def weekday_time(at: float, zone: str | None, locale: Locale) -> str:
    """The day of the week and the hour of the moment ``at`` (seconds since the epoch) in
    the time zone ``zone`` (an IANA name such as ``Europe/Paris``; UTC when None):
    ``Sunday 18:00``, ``dimanche 18:00``. An unknown zone raises ``ZoneInfoNotFoundError``."""
    moment = _moment(at, zone)
    return _in(locale, format_datetime(moment, "EEEE HH:mm", locale=babel_locale(locale)))


def date_time(at: float, zone: str | None, locale: Locale) -> str:
    """The date and hour of the moment ``at`` in ``zone`` (UTC when None), in the order and
    words of ``locale``: ``Dec 7, 2025, 18:00``, ``7 déc. 2025, 18:00``."""
    moment = _moment(at, zone)
    language = babel_locale(locale)
    day = format_skeleton("yMMMd", moment, locale=language)
    hour = format_datetime(moment, "HH:mm", locale=language)
    joined = str(language.datetime_formats["medium"]).replace("{1}", day).replace("{0}", hour)
    return _in(locale, joined)


def _moment(at: float, zone: str | None) -> datetime.datetime:
    return datetime.datetime.fromtimestamp(at, ZoneInfo(zone) if zone else datetime.UTC)


def _in(locale: Locale, written: str) -> str:
    return pseudo.accented(written) if locale == "en-XA" else written
