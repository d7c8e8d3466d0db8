"""Turn time limits: what they are, and when a turn's deadline and reminder fall."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from bot.service import wire
from bot.service.errors import UserError
from bot.service.text import Mention, Text, said, said_plural, visible
from bot.service.timekeeping import playing_hours
from bot.service.timekeeping.playing_hours import PlayingHours
from bot.store import GameRecord, JsonObject, JsonValue
from engines.options import clip

HOUR = 3600.0
MAX_HOURS = 60 * 24
"""The longest turn limit or reminder: 60 days."""
ON_TIMEOUT = ("skip", "forfeit", "computer")
TIMEOUT_WORDS = {
    "skip": said("skipped"),
    "forfeit": said("forfeited"),
    "computer": said("played by a strong computer player"),
}
"""What a timed-out turn is, by what a timeout does: ``a timed-out turn is {word}``."""


@dataclass(frozen=True)
class Timing:
    """A game's clock: ``limit`` seconds per turn (0: no limit), a reminder ``reminder``
    seconds before the end (0: none), and what a timeout does (``skip``, ``forfeit``, or
    ``computer``: a strong computer player moves for the late player). With ``playing``
    hours the clock runs only inside them: the limit and the reminder are playing time."""

    limit: float = 48 * HOUR
    reminder: float = 12 * HOUR
    on_timeout: str = "skip"
    playing: PlayingHours | None = None

    @classmethod
    def from_dict(cls, data: dict[str, Any] | None) -> Timing:
        known = {k: v for k, v in (data or {}).items() if k in cls.__dataclass_fields__}
        # A value no setting can give (stored by an older release) falls back to the default.
        for name in ("limit", "reminder"):
            if name in known and not _usable_seconds(known[name]):
                del known[name]
        if known.get("on_timeout") not in ON_TIMEOUT:
            known.pop("on_timeout", None)
        known["playing"] = PlayingHours.from_dict(known.get("playing"))
        return cls(**known)

    def to_dict(self) -> JsonObject:
        stored: JsonObject = {
            "limit": self.limit,
            "reminder": self.reminder,
            "on_timeout": self.on_timeout,
        }
        if self.playing is not None:
            stored["playing"] = self.playing.to_dict()
        return stored

    def changed(
        self,
        limit_hours: float | None = None,
        reminder_hours: float | None = None,
        on_timeout: str | None = None,
        *,
        playing_hours_text: str | None = None,
        playing_days: str | None = None,
        timezone: str | None = None,
    ) -> Timing:
        """A copy with the given settings changed; UserError for impossible values: hours
        must be from 0 (off) to 60 days, and a reminder given must come before the end.
        Playing hours are changed from what the user typed (see
        :func:`playing_hours.changed`)."""
        for hours in (limit_hours, reminder_hours):
            if hours is not None and not _usable_hours(hours):
                raise UserError(
                    said(
                        "Times are hours from 0 to {most} (60 days); 0 turns the limit or "
                        "reminder off.",
                        most=MAX_HOURS,
                    )
                )
        limit = self.limit if limit_hours is None else float(limit_hours) * HOUR
        reminder = self.reminder if reminder_hours is None else float(reminder_hours) * HOUR
        action = self.on_timeout if on_timeout is None else on_timeout.strip().lower()
        if reminder_hours is not None and reminder and limit and reminder >= limit:
            raise UserError(
                said(
                    "The reminder must come before the end of the turn: less than the "
                    "{limit} of the limit (or 0 for no reminder).",
                    limit=_hours(limit),
                )
            )
        if action not in ON_TIMEOUT:
            raise UserError(
                said(
                    "A timeout can `skip` the turn, `forfeit` the seat or let the `computer` "
                    "play it, not `{typed}`.",
                    typed=visible(clip(action)),
                )
            )
        playing = playing_hours.changed(self.playing, playing_hours_text, playing_days, timezone)
        return Timing(limit, reminder, action, playing)

    def deadlines(self, now: float) -> dict[str, float | None]:
        """The ``deadline`` and ``remind_at`` of a turn that starts at ``now``: the limit
        (and the reminder before the end) counted in playing time."""
        if not self.limit:
            return {"deadline": None, "remind_at": None}
        deadline = self.after(now, self.limit)
        remind = self.before(deadline, self.reminder) if 0 < self.reminder < self.limit else None
        return {"deadline": deadline, "remind_at": remind}

    def after(self, start: float, seconds: float) -> float:
        """The real time ``seconds`` of turn clock after ``start``."""
        return playing_hours.after(self.playing, start, seconds)

    def before(self, end: float, seconds: float) -> float:
        """The real time ``seconds`` of turn clock before ``end``."""
        return playing_hours.before(self.playing, end, seconds)

    def describe(self) -> Text:
        """``48 hours per turn, a reminder 12 hours before the end; a timed-out turn is
        skipped``, and the playing hours (see :func:`playing_text`)."""
        if not self.limit:
            return said("no turn time limit")
        limit, outcome = _hours(self.limit), TIMEOUT_WORDS[self.on_timeout]
        if self.reminder and self.reminder < self.limit:
            text = said(
                "{limit} per turn, a reminder {reminder} before the end; a timed-out turn is "
                "{outcome}",
                limit=limit, reminder=_hours(self.reminder), outcome=outcome,
            )  # fmt: skip
        else:
            text = said("{limit} per turn; a timed-out turn is {outcome}", limit=limit,
                        outcome=outcome)  # fmt: skip
        return text + playing_text(self.playing)


def playing_text(playing: PlayingHours | None) -> Text:
    """``; playing hours 09:00–22:00 Mon–Fri (Europe/Paris): the clock rests outside
    them`` (nothing without playing hours)."""
    if playing is None:
        return Text()
    return "; " + said(
        "playing hours {hours}: the clock rests outside them", hours=playing.describe()
    )


NO_DEADLINES = {"deadline": None, "remind_at": None}


def _usable_hours(hours: object) -> bool:
    """Whether ``hours`` is a number of hours a setting may take: 0 to MAX_HOURS."""
    if isinstance(hours, bool) or not isinstance(hours, int | float):
        return False
    return math.isfinite(hours) and 0 <= hours <= MAX_HOURS


def _usable_seconds(seconds: object) -> bool:
    if isinstance(seconds, bool) or not isinstance(seconds, int | float):
        return False
    return _usable_hours(seconds / HOUR)


def _hours(seconds: float) -> Text:
    """``1 hour``, ``48 hours``, ``1.5 hours``."""
    hours = seconds / HOUR
    if hours.is_integer():
        return said_plural("{count} hour", "{count} hours", int(hours))
    return said("{hours} hours", hours=f"{hours:g}")


def rest_line(record: GameRecord, now: float) -> Text:
    """For a running game with playing hours, a line (with a newline before it) naming
    them and when the clock rests: ``🌙 The clock rests until Mon 09:00 (Europe/Paris);
    playing hours 09:00–22:00 Mon–Fri.`` while it rests, else the next rest if it falls
    before the deadline; nothing without playing hours."""
    playing = Timing.from_dict(record.timing).playing
    if playing is None or record.status != "running":
        return Text()
    hours = playing.describe()
    begins, ends = playing.next_rest(now)
    if not math.isfinite(ends) or (record.deadline is not None and begins >= record.deadline):
        return "\n🕘 " + said("The clock runs in its playing hours {hours}.", hours=hours)
    if begins <= now:
        return "\n🌙 " + said(
            "The clock rests until {until} ({zone}); playing hours {hours}.",
            until=playing.local(ends), zone=playing.zone, hours=playing.describe(zone=False),
        )  # fmt: skip
    return "\n🕘 " + said(
        "The clock runs in its playing hours {hours}: it rests from {start} until {end}.",
        hours=hours, start=playing.local(begins), end=playing.local(ends),
    )  # fmt: skip


PAUSED_BY = "paused_by"
PAUSED_WHY = "paused_why"
"""Keys of a game's stored ``timing`` saying, while it is paused, who paused it or why:
the clock's own record of being stopped (``Timing.from_dict`` leaves them out)."""


def with_pause(
    timing: JsonObject | None, *, by: int | None = None, why: Text | None = None
) -> JsonObject:
    """A game's stored ``timing`` once paused ``by`` a user, or for a reason (``why``, kept
    as a stored text, so that it is read in each reader's words)."""
    reason = wire.dump_text(why or Text())
    note: JsonObject = {PAUSED_BY: by} if by is not None else {PAUSED_WHY: reason}
    return {**without_pause(timing), **note}


def without_pause(timing: JsonObject | None) -> JsonObject:
    """A game's stored ``timing`` going on again: no word of a pause left in it."""
    return {k: v for k, v in (timing or {}).items() if k not in (PAUSED_BY, PAUSED_WHY)}


PAUSED_SUBJECT = said("Paused")
"""How :func:`pause_text` opens unless told otherwise."""


def pause_text(record: GameRecord, subject: str | Text = PAUSED_SUBJECT) -> Text:
    """What a paused game says of itself, wherever its state is shown: who paused it (or
    why it stopped) and how to go on. ``subject`` opens it (``Game #3 is paused``)."""
    timing = record.timing or {}
    host, game = Mention(record.host_id), record.id
    by = timing.get(PAUSED_BY)
    if record.channel_id == 0:
        return "⏸️ " + said(
            "{subject}: its channel was deleted. Its host, {host}, goes on with "
            "`/game resume game:{game}` in the channel to play in.",
            subject=subject, host=host, game=game,
        )  # fmt: skip
    if by == record.host_id:
        return "⏸️ " + said(
            "{subject} by its host, {host}: no moves until they go on with "
            "`/game resume game:{game}`.",
            subject=subject, host=host, game=game,
        )  # fmt: skip
    if isinstance(by, int):
        return "⏸️ " + said(
            "{subject} by {by}: no moves until its host, {host}, goes on with "
            "`/game resume game:{game}`.",
            subject=subject, by=Mention(by), host=host, game=game,
        )  # fmt: skip
    why = _reason(timing.get(PAUSED_WHY))
    if why:
        return "⏸️ " + said(
            "{subject}: {why}. No moves until its host, {host}, goes on with "
            "`/game resume game:{game}`.",
            subject=subject, why=why, host=host, game=game,
        )  # fmt: skip
    return "⏸️ " + said(
        "{subject}. No moves until its host, {host}, goes on with `/game resume game:{game}`.",
        subject=subject, host=host, game=game,
    )  # fmt: skip


def _reason(stored: JsonValue | None) -> Text:
    """Why a game was paused, as :func:`with_pause` kept it (a reason stored as plain
    words by an older release is shown as it is; nothing kept, or unreadable: none)."""
    if isinstance(stored, str):
        return Text.of(stored)
    try:
        return wire.load_text(stored) if stored else Text()
    except (ValueError, KeyError, TypeError):
        return Text()
