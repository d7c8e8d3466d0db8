"""Playing hours: the daily hours and days of the week when a game's turn clock runs.

A server (``/server defaults``) or a game in its lobby (``/game settings``) may set them,
e.g. 09:00-22:00, Monday to Friday, Europe/Paris. Outside them the clock rests: a turn's
limit, its reminder and a time bank are counted in playing time, so a deadline falls later
by the resting time in between. Deadlines are still stored (and shown) as real times.

Each day's window is the local wall-clock time of that day in the zone (``zoneinfo``), so
a daylight-saving change moves the real times with it: a window 01:00-04:00 on the night
the clocks go forward holds two real hours, on the night they go back four. A window
crossing midnight (20-02) is refused: its two halves are set as one day's hours each.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from bot.service.errors import UserError
from bot.service.text import Text, said, visible

DAY_NAMES = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
EVERY_DAY = frozenset(range(7))
OFF_WORDS = ("", "off", "none", "default", "always", "24/7")
MIN_WINDOW = 60
"""The shortest daily window, in minutes."""
MAX_DAYS_SCANNED = 366 * 200
"""A bound on the days a computation looks through (never reached by a usable setting)."""
HOURS_HELP = said(
    "Playing hours are a daily range in 24-hour time, such as `9-22` or `08:30-23:00` "
    "(start before end, at least an hour, not across midnight), or `off` for a clock "
    "that runs around the clock."
)
DAYS_HELP = said(
    "Playing days are days of the week such as `mon-fri`, `sat,sun`, `mon,wed,fri` or "
    "`all` (every day)."
)
ZONE_HELP = said("A time zone is an IANA name such as `Europe/Paris`, `America/New_York` or `UTC`.")
DAY_WORDS = (
    said("Mon"), said("Tue"), said("Wed"), said("Thu"), said("Fri"), said("Sat"), said("Sun")
)  # fmt: skip
"""Each day of the week as a person reads it, Monday first (what is typed stays
:data:`DAY_NAMES`)."""


@dataclass(frozen=True)
class PlayingHours:
    """Daily playing hours from ``start`` to ``end`` (minutes after local midnight, end up
    to 24 * 60) on ``days`` (0 is Monday) in the IANA time zone ``zone``."""

    start: int = 0
    end: int = 24 * 60
    days: frozenset[int] = EVERY_DAY
    zone: str = "UTC"

    def __post_init__(self) -> None:
        if not 0 <= self.start < self.end <= 24 * 60 or self.end - self.start < MIN_WINDOW:
            raise UserError(HOURS_HELP)
        if not self.days or not self.days <= EVERY_DAY:
            raise UserError(DAYS_HELP)
        _zone(self.zone)

    # -- what a user types, and JSON ---------------------------------------------------

    @classmethod
    def parse(cls, hours: str, days: str = "all", zone: str = "UTC") -> PlayingHours:
        """From what a user types; UserError saying what to type."""
        start, end = parse_range(hours)
        return cls(start, end, parse_days(days), parse_zone(zone))

    @property
    def always(self) -> bool:
        """Whether the clock never rests (every day, all day)."""
        return self.start == 0 and self.end == 24 * 60 and self.days == EVERY_DAY

    def to_dict(self) -> dict[str, Any]:
        return {
            "start": self.start,
            "end": self.end,
            "days": sorted(self.days),
            "zone": self.zone,
        }

    @classmethod
    def from_dict(cls, data: object) -> PlayingHours | None:
        """From stored JSON; None for nothing, or a value no setting can give."""
        if not isinstance(data, dict):
            return None
        try:
            found = cls(
                int(data["start"]), int(data["end"]), frozenset(int(d) for d in data["days"]),
                str(data["zone"]),
            )  # fmt: skip
        except (KeyError, TypeError, ValueError, UserError):
            return None
        return None if found.always else found

    def describe(self, zone: bool = True) -> Text:
        """``09:00–22:00 Mon–Fri (Europe/Paris)`` (without the zone unless ``zone``)."""
        hours = Text.of(f"{_clock(self.start)}–{_clock(self.end)} ", days_text(self.days))
        return hours + f" ({self.zone})" if zone else hours

    # -- the arithmetic ---------------------------------------------------------------

    def windows(self, at: float, backward: bool = False) -> Iterator[tuple[float, float]]:
        """The playing windows as real ``(start, end)`` times, from the one of the local
        day before ``at`` on, forward in time (or from the day after it, backward)."""
        zone = _zone(self.zone)
        day = datetime.fromtimestamp(at, zone).date() + timedelta(days=1 if backward else -1)
        step = timedelta(days=-1 if backward else 1)
        for _ in range(MAX_DAYS_SCANNED):
            if day.weekday() in self.days:
                yield self._window(day, zone)
            day += step

    def _window(self, day: date, zone: ZoneInfo) -> tuple[float, float]:
        opens = _local(day, self.start, zone)
        closes = _local(day, self.end, zone)
        return opens, max(opens, closes)

    def add(self, start: float, seconds: float) -> float:
        """The real time after ``seconds`` of playing time from ``start``."""
        if seconds <= 0:
            return start
        left = seconds
        for opens, closes in self.windows(start):
            if closes <= start:
                continue
            begin = max(opens, start)
            if left <= closes - begin:
                return begin + left
            left -= closes - begin
        return math.inf

    def before(self, end: float, seconds: float) -> float:
        """The real time ``seconds`` of playing time before ``end``."""
        if seconds <= 0:
            return end
        left = seconds
        for opens, closes in self.windows(end, backward=True):
            if opens >= end:
                continue
            finish = min(closes, end)
            if left <= finish - opens:
                return finish - left
            left -= finish - opens
        return -math.inf

    def playing_between(self, a: float, b: float) -> float:
        """The seconds of playing time from ``a`` to ``b`` (0 if ``b`` is not later)."""
        total = 0.0
        if b <= a:
            return total
        for opens, closes in self.windows(a):
            if opens >= b:
                break
            total += max(0.0, min(closes, b) - max(opens, a))
        return total

    def resting(self, at: float) -> bool:
        """Whether the clock rests at ``at``."""
        return self.next_opening(at) > at

    def next_opening(self, at: float) -> float:
        """``at`` if the clock runs then, else when it runs again."""
        for opens, closes in self.windows(at):
            if closes > at:
                return max(opens, at)
        return math.inf

    def next_rest(self, at: float) -> tuple[float, float]:
        """The next resting time after ``at``: ``(from, until)`` (``from`` is ``at`` when
        the clock rests now)."""
        for opens, closes in self.windows(at):
            if closes <= at or opens == closes:
                continue
            if opens > at:
                return at, opens
            # The clock runs now: it rests from this window's end to the next opening.
            return closes, self.next_opening(closes)
        return at, math.inf

    def local(self, at: float) -> Text:
        """``Mon 09:00``: ``at`` on the zone's wall clock."""
        moment = datetime.fromtimestamp(at, _zone(self.zone))
        return Text.of(DAY_WORDS[moment.weekday()], f" {moment:%H:%M}")


# -- the clock with or without playing hours ---------------------------------------------


def after(hours: PlayingHours | None, start: float, seconds: float) -> float:
    """The real time ``seconds`` of turn clock after ``start``."""
    return start + seconds if hours is None else hours.add(start, seconds)


def before(hours: PlayingHours | None, end: float, seconds: float) -> float:
    """The real time ``seconds`` of turn clock before ``end``."""
    return end - seconds if hours is None else hours.before(end, seconds)


def between(hours: PlayingHours | None, a: float, b: float) -> float:
    """The seconds of turn clock from ``a`` to ``b`` (0 if ``b`` is not later)."""
    if hours is None:
        return max(0.0, b - a)
    return hours.playing_between(a, b)


def of(timing: dict[str, Any] | None) -> PlayingHours | None:
    """The playing hours kept in a game's stored ``timing`` (None: around the clock)."""
    return PlayingHours.from_dict((timing or {}).get("playing"))


def changed(
    current: PlayingHours | None,
    hours: str | None = None,
    days: str | None = None,
    zone: str | None = None,
) -> PlayingHours | None:
    """``current`` with what a user typed changed (None: not given). ``hours:off`` turns
    playing hours off altogether; days or a zone given alone keep the hours (all day when
    none were set)."""
    if hours is None and days is None and zone is None:
        return current
    if hours is not None and hours.strip().lower() in OFF_WORDS:
        return None
    base = current or PlayingHours()
    start, end = (base.start, base.end) if hours is None else parse_range(hours)
    chosen_days = base.days if days is None else parse_days(days)
    chosen_zone = base.zone if zone is None else parse_zone(zone)
    found = PlayingHours(start, end, chosen_days, chosen_zone)
    return None if found.always else found


def parse_range(text: str) -> tuple[int, int]:
    """Minutes after midnight of ``9-22`` or ``08:30-23:00``; UserError saying what to type."""
    found = re.fullmatch(
        r"\s*(\d{1,2})(?:[:h.](\d{2}))?\s*(?:-|–|to)\s*(\d{1,2})(?:[:h.](\d{2}))?\s*h?\s*",
        text.strip().lower(),
    )
    if not found:
        raise UserError(HOURS_HELP)
    start = int(found[1]) * 60 + int(found[2] or 0)
    end = int(found[3]) * 60 + int(found[4] or 0)
    if int(found[2] or 0) >= 60 or int(found[4] or 0) >= 60 or start >= 24 * 60:
        raise UserError(HOURS_HELP)
    if end == 0:
        end = 24 * 60  # 18-0 is 18:00 to midnight
    if end < start:
        crossing = said(
            "Playing hours cannot cross midnight (`{typed}`): use an end no later than 24, "
            "such as `18-24`.",
            typed=visible(text.strip()),
        )
        raise UserError(crossing + " " + HOURS_HELP)
    if end > 24 * 60 or end - start < MIN_WINDOW:
        raise UserError(HOURS_HELP)
    return start, end


def parse_days(text: str) -> frozenset[int]:
    """Days of the week of ``mon-fri``, ``sat,sun`` or ``all``; UserError saying what to type."""
    words = text.strip().lower()
    if words in ("", "all", "off", "every day", "everyday", "daily", "any"):
        return EVERY_DAY
    named = {"weekdays": "mon-fri", "weekends": "sat-sun", "weekend": "sat-sun"}
    words = named.get(words, words)
    days: set[int] = set()
    for part in re.split(r"[,\s]+", words):
        if not part:
            continue
        ends = [p.strip() for p in part.split("-")]
        if len(ends) > 2 or not all(_day(p) is not None for p in ends):
            unread = said("`{typed}` is not a set of days.", typed=visible(text.strip()))
            raise UserError(unread + " " + DAYS_HELP)
        first, last = _day(ends[0]), _day(ends[-1])
        assert first is not None and last is not None
        day = first
        days.add(day)
        while day != last:
            day = (day + 1) % 7  # fri-mon wraps round the weekend
            days.add(day)
    if not days:
        raise UserError(DAYS_HELP)
    return frozenset(days)


def parse_zone(text: str) -> str:
    """An IANA time zone name; UserError saying what to type."""
    name = text.strip()
    if name.lower() == "utc":
        return "UTC"
    try:
        _zone(name)
    except UserError:
        unknown = said("`{typed}` is not a time zone I know.", typed=visible(name[:60]))
        raise UserError(unknown + " " + ZONE_HELP) from None
    return name


def days_text(days: frozenset[int]) -> Text:
    """``Mon–Fri``, ``every day``, ``Mon, Wed, Fri``."""
    if days == EVERY_DAY:
        return said("every day")
    ordered = sorted(days)
    if len(ordered) > 2 and ordered == list(range(ordered[0], ordered[-1] + 1)):
        return Text.of(DAY_WORDS[ordered[0]], "–", DAY_WORDS[ordered[-1]])
    return Text.of(", ").join(DAY_WORDS[d] for d in ordered)


def _day(word: str) -> int | None:
    for index, name in enumerate(DAY_NAMES):
        if len(word) >= 2 and name.startswith(word[:3]):
            return index
    return None


def _clock(minutes: int) -> str:
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


def _zone(name: str) -> ZoneInfo:
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError, TypeError):
        raise UserError(ZONE_HELP) from None


def _local(day: date, minutes: int, zone: ZoneInfo) -> float:
    """The real time of ``minutes`` after midnight on ``day``, on the zone's wall clock
    (24:00 is the next midnight). A wall time skipped when the clocks go forward is read
    with the offset before the change (02:30 is 03:30 summer time); one met twice when
    they go back is its first."""
    if minutes >= 24 * 60:
        day, minutes = day + timedelta(days=1), minutes - 24 * 60
    wall = datetime.combine(day, time(minutes // 60, minutes % 60), zone)
    return wall.timestamp()
