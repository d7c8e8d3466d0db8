"""Time away: ``/away days:N`` stretches a player's turn deadlines in every game.

While a player is away (until ``away_until``), a deadline of a turn their seat must answer
is pushed back by the time away left, bounded: never past ``away_until`` plus the game's
own turn limit, and never more than :data:`MAX_DAYS` later. A reminder never falls while
they are away. Each game they play is told in its channel, and its turn posts and status
message say who is away until when. ``/away days:0`` ends it early: a stretched deadline
then shrinks back to at most one turn limit from that moment.

With playing hours the stretch is the playing time of the time away left, and the turn
limit after it is playing time too; a deadline is never pushed back more than
:data:`MAX_DAYS` real days.

Deadline changes are versioned like pause and resume (``Store.move_deadline`` at the
version read; a game that moved on meanwhile is read again), but bump no version, so the
turn's buttons stay valid.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Protocol

from bot.service.desk import Desk
from bot.service.errors import UserError
from bot.service.notices import ChannelPost, Outcome, Reply, StatusUpdate
from bot.service.play.computers import computer_seats
from bot.service.tables import Table
from bot.service.text import Moment, Text, said
from bot.service.timekeeping import playing_hours
from bot.service.timekeeping.playing_hours import PlayingHours
from bot.service.timekeeping.timing import Timing
from bot.store import GameRecord
from engines.base import Prompt

DAY = 24 * 3600.0
MAX_DAYS = 30
"""The longest time away, and the most a deadline is ever pushed back."""
TRIES = 3
"""Reads of a game whose version moves while its deadline is being stretched."""


def stretched(
    deadline: float, until: float, now: float, limit: float, hours: PlayingHours | None = None
) -> float:
    """``deadline`` pushed back by the time away left (``until - now``, in playing time
    under playing ``hours``), but never past one turn ``limit`` after ``until`` nor by
    more than :data:`MAX_DAYS`; never earlier than it was."""
    away = playing_hours.between(hours, now, until)
    longer = min(
        playing_hours.after(hours, deadline, away),
        playing_hours.after(hours, until, limit),
        deadline + MAX_DAYS * DAY,
    )
    return max(deadline, longer)


def shrunk(deadline: float, now: float, limit: float, hours: PlayingHours | None = None) -> float:
    """A deadline for a player back early: at most one turn ``limit`` from ``now``."""
    return min(deadline, playing_hours.after(hours, now, limit))


def reminder_for(deadline: float, until: float | None, timing: Timing) -> float | None:
    """When to remind before ``deadline``: as the game's timing says, but never before
    ``until`` (the end of the time away); None if no reminder fits."""
    if not 0 < timing.reminder < timing.limit:
        return None
    at = max(timing.before(deadline, timing.reminder), until or 0.0)
    return at if at < deadline else None


def away_deadlines(
    record: GameRecord, prompts: list[Prompt], fields: dict[str, Any], now: float
) -> dict[str, Any]:
    """The clock ``fields`` of a new turn, stretched if a person asked to act is away
    (the write of the turn stores them)."""
    if not fields.get("deadline") or computer_seats(record, prompts):
        return fields
    until = _latest_away(record, prompts, now)
    if until is None:
        return fields
    timing = Timing.from_dict(record.timing)
    deadline = stretched(fields["deadline"], until, now, timing.limit, timing.playing)
    return {**fields, "deadline": deadline, "remind_at": reminder_for(deadline, until, timing)}


def away_text(table: Table, now: float) -> Text:
    """A line for each player asked to act at ``now`` who is away (with a newline before
    each): ``bob is away until <when>``; or nothing."""
    text = Text()
    for user in _asked_users(table.record, table.prompts()):
        until = _away_at(table.record, user, now)
        if until is not None:
            name = _name(table.record, user)
            text += "\n💤 " + said(
                "{player} is away until {until}", player=name, until=Moment(until)
            )
    return text


def show_away(outcome: Outcome, table: Table, now: float) -> None:
    """Add who is away to the game's new board posts and status update in ``outcome``
    (when they are asked to act)."""
    lines = away_text(table, now)
    if not lines:
        return
    for index, notice in enumerate(outcome.notices):
        if isinstance(notice, Reply) or notice.game_id != table.record.id:
            continue
        if isinstance(notice, StatusUpdate) or (
            isinstance(notice, ChannelPost) and notice.board is not None
        ):
            outcome.notices[index] = replace(notice, text=notice.text + lines)


def _latest_away(record: GameRecord, prompts: list[Prompt], now: float) -> float | None:
    untils = [_away_at(record, u, now) for u in _asked_users(record, prompts)]
    return max((u for u in untils if u is not None), default=None)


class StatusReader(Protocol):
    """Whoever puts a game's status message together as it stands."""

    async def status_update(self, table: Table) -> StatusUpdate: ...


class Away:
    """``/away``: a player's time away, and the deadlines it moves."""

    def __init__(self, desk: Desk, status: StatusReader) -> None:
        self._desk = desk
        self._status = status

    async def go_away(self, *, user_id: int, days: int) -> Outcome:
        """``user_id`` is away for ``days`` (1 to 30) from now, or back (0): their current
        turns' deadlines are stretched (or shrunk back) in every running game, and each
        game they play is told."""
        if isinstance(days, bool) or not isinstance(days, int) or not 0 <= days <= MAX_DAYS:
            raise UserError(
                said(
                    "`days` is a whole number of days from 1 to {most}; `days:0` ends your "
                    "time away.",
                    most=MAX_DAYS,
                )
            )
        now = self._desk.clock()
        if days == 0 and not await self.away_now(user_id, now):
            raise UserError(said("You are not away. `/away days:N` stretches your deadlines."))
        until = now + days * DAY if days else None
        await self._desk.store.set_away(user_id, until)
        outcome = Outcome()
        changed: list[Text] = []
        for record in await self._desk.store.games(user_id=user_id):
            seats = record.seat_of(user_id)
            if record.status == "running" and any(not record.has_left(s) for s in seats):
                line = await self._away_in_game(outcome, record.id, user_id, until, now)
                if line:
                    changed.append(line)
        outcome.notices.insert(0, Reply(_answer(until, changed)))
        return outcome

    async def away_now(self, user_id: int, now: float) -> float | None:
        """Until when ``user_id`` is away, if they are away at ``now``; else None."""
        until = await self._desk.store.away_until(user_id)
        return until if until is not None and until > now else None

    async def _away_in_game(
        self, outcome: Outcome, game_id: int, user_id: int, until: float | None, now: float
    ) -> Text | None:
        """Stretch (or shrink back) the game's deadline if ``user_id`` is asked to act,
        and tell its channel; the line for the asker's answer if the deadline moved."""
        for _ in range(TRIES):
            table = await self._desk.table(game_id)
            record = table.record
            asked = user_id in _asked_users(record, table.prompts())
            deadline = _moved(record, until, now) if asked else None
            told = Outcome([_away_post(record, user_id, until, deadline)])
            if deadline is None:
                await self._desk.tell(told)
                outcome.notices += told.notices
                return None
            timing = Timing.from_dict(record.timing)
            remind_at = reminder_for(deadline, until, timing)
            moved = Table(replace(record, deadline=deadline, remind_at=remind_at), table.engine,
                          table.state)  # fmt: skip
            told.add(await self._status.status_update(moved))
            if await self._desk.stored(
                told, self._desk.store.move_deadline, game_id, record.version,
                deadline=deadline, remind_at=remind_at, now=now,
            ):  # fmt: skip
                outcome.notices += told.notices
                return said(
                    "{game}: the turn now ends {when}", game=table.title, when=Moment(deadline)
                )
        return None


def _moved(record: GameRecord, until: float | None, now: float) -> float | None:
    """The game's new deadline for a player asked to act who goes away until ``until``
    (None: is back), or None if it stays."""
    if record.deadline is None:
        return None
    timing = Timing.from_dict(record.timing)
    if until is None:
        new = shrunk(record.deadline, now, timing.limit, timing.playing)
    else:
        new = stretched(record.deadline, until, now, timing.limit, timing.playing)
    return new if new != record.deadline else None


def _away_at(record: GameRecord, user_id: int, now: float) -> float | None:
    """Until when a player of ``record`` is away, if they are at ``now`` (as read with the
    game, so a turn's notices ask nothing more of the store)."""
    until = record.away_until_of(user_id)
    return until if until is not None and until > now else None


def _asked_users(record: GameRecord, prompts: list[Prompt]) -> list[int]:
    """The people (not computers) asked to act by ``prompts``, each once."""
    users = (record.user_at(p.seat) for p in prompts)
    return list(dict.fromkeys(u for u in users if u is not None))


def _name(record: GameRecord, user_id: int) -> str | Text:
    return next((s.name for s in record.seats if s.user_id == user_id), said("a player"))


def _away_post(
    record: GameRecord, user_id: int, until: float | None, deadline: float | None
) -> ChannelPost:
    """The game's channel is told that a player is away (or back), and of the deadline."""
    name = _name(record, user_id)
    if until is None:
        text = "👋 " + said("{player} is back.", player=name)
    else:
        text = "💤 " + said("{player} is away until {until}.", player=name, until=Moment(until))
    if deadline is not None:
        text += " " + said("This turn now ends {when}.", when=Moment(deadline))
    return ChannelPost(record.id, record.channel_id, text)


def _answer(until: float | None, changed: list[Text]) -> Text:
    if until is None:
        text = "👋 " + said("Welcome back: your time away has ended.")
        if changed:
            shortened = said("Shortened to one turn limit from now:")
            text += "\n" + shortened + "\n" + Text.of("\n").join(changed)
        return text
    text = "💤 " + said(
        "You are away until {until}. While you are away, the deadlines of your turns are "
        "stretched by the time away left (at most to one turn limit after you are back) and "
        "no reminder is sent; the other players are told. `/away days:0` ends it early.",
        until=Moment(until),
    )
    if changed:
        text += "\n" + said("Stretched now:") + "\n" + Text.of("\n").join(changed)
    else:
        text += "\n" + said("No game is waiting for you now; your next turns will be stretched.")
    return text
