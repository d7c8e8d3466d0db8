"""Time banks: extra time for each seat, spent by a turn that runs over its limit.

A game's host may give every seat a bank (``/game settings bank:<hours>``) while the game
is in its lobby. Everything lives in the game's stored ``timing``:

- ``bank``: the seconds each seat was given at the opening (0 or missing: none);
- ``banks``: the seconds each seat has left, by seat (a seat missing has ``bank``);
- ``over``: the seats spending their bank now, each with when its overrun began and the
  game's version it belongs to (an entry of an older version is stale and counts for
  nothing: a write that moved the game on without settling it, such as a move made while
  the deadline was being moved, left it behind).

At the deadline, each late seat played by a person with bank left goes on spending it
(its overrun begins at the deadline), and the deadline moves on to the earliest moment a
late seat's bank runs out; a late seat with no bank left times out as before. With several
seats asked at once (secret choices), each late seat spends its own bank from the same
deadline: a seat without bank time times out at the deadline, the others go on until each
one's own bank runs out. When a seat acts (or its turn ends otherwise), only the time it
spent beyond the limit is taken from its bank. Pausing, or changing the clock, ends every
overrun and takes what was spent so far (the next turn gets its full limit again).

With playing hours (``playing_hours``) a bank is playing time like the limit: it is not
spent while the clock rests, and an overrun ends after its bank's playing time.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from bot.service.errors import UserError
from bot.service.text import Text, said
from bot.service.timekeeping import playing_hours
from bot.store import GameRecord, JsonObject, JsonValue
from engines.base import Prompt

HOUR = 3600.0
MAX_BANK_HOURS = 60 * 24
"""The most time a seat's bank may hold: 60 days."""
BANK = "bank"
BANKS = "banks"
OVER = "over"


def bank_hours_checked(hours: object) -> float:
    """Seconds of a bank of ``hours``; UserError unless 0 to :data:`MAX_BANK_HOURS`."""
    if (
        isinstance(hours, bool)
        or not isinstance(hours, int | float)
        or not math.isfinite(hours)
        or not 0 <= hours <= MAX_BANK_HOURS
    ):
        raise UserError(
            said(
                "A time bank is hours from 0 (none) to {most} (60 days) for each seat.",
                most=MAX_BANK_HOURS,
            )
        )
    return float(hours) * HOUR


def duration(seconds: float) -> Text:
    """``5 h``, ``2 h 30 min``, ``45 min`` (to the minute)."""
    hours, minutes = divmod(max(0, round(seconds / 60)), 60)
    if hours and minutes:
        return said("{hours} h {minutes} min", hours=hours, minutes=minutes)
    return said("{hours} h", hours=hours) if hours else said("{minutes} min", minutes=minutes)


def _seconds(value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        return 0.0
    return max(0.0, float(value))


def left(timing: JsonObject | None, seat: int) -> float:
    """The seconds ``seat`` has in its bank (as stored: an overrun's time is not yet taken)."""
    timing = timing or {}
    stored = timing.get(BANKS)
    banks = _object(stored)
    return _seconds(banks.get(str(seat), timing.get(BANK, 0)))


def _object(stored: JsonValue) -> JsonObject:
    """A copy of a stored JSON object (``{}`` for none, or for anything else)."""
    return dict(stored) if isinstance(stored, dict) else {}


def running(record: GameRecord) -> dict[int, float]:
    """The seats spending their bank now, with when their overrun began (stale entries
    left out)."""
    over = (record.timing or {}).get(OVER)
    found: dict[int, float] = {}
    if not isinstance(over, dict):
        return found
    for seat, entry in over.items():
        match entry:
            case [int() | float() as start, version] if version == record.version:
                found[int(seat)] = float(start)
    return found


def has_banks(record: GameRecord) -> bool:
    timing = record.timing or {}
    return bool(timing.get(BANK) or timing.get(BANKS) or timing.get(OVER))


def _people(record: GameRecord) -> list[int]:
    return [s.seat for s in record.seats if s.computer is None]


def settled(
    record: GameRecord, actor: int | None, still_asked: list[int], turn_over: bool, now: float
) -> JsonObject | None:
    """The stored ``timing`` after an action by ``actor`` written at the next version: the
    overrun of the actor (and of every seat, when the turn is over, or of a seat no longer
    asked) ends and takes the time it spent; the others go on. None when nothing changes."""
    timing = record.timing or {}
    if OVER not in timing:
        return None
    banks = _object(timing.get(BANKS))
    over: JsonObject = {}
    hours = playing_hours.of(timing)
    for seat, start in running(record).items():
        if turn_over or seat == actor or seat not in still_asked:
            spent = playing_hours.between(hours, start, now)
            banks[str(seat)] = max(0.0, left(timing, seat) - spent)
        else:
            over[str(seat)] = [start, record.version + 1]
    fresh = {k: v for k, v in timing.items() if k != OVER}
    if banks:
        fresh[BANKS] = banks
    if over:
        fresh[OVER] = over
    return fresh


def all_settled(record: GameRecord, now: float) -> JsonObject:
    """The stored ``timing`` with every overrun ended and its spent time taken."""
    return settled(record, None, [], True, now) or dict(record.timing or {})


@dataclass(frozen=True)
class Overrun:
    """What a deadline does to the banks: the new ``timing``, the new ``deadline``, the
    seats that begin spending their bank (with the time they have), and the late seats
    that time out now."""

    timing: JsonObject
    deadline: float
    started: list[tuple[int, float]]
    out: list[int]


def at_deadline(record: GameRecord, prompts: list[Prompt], now: float) -> Overrun | None:
    """The banks at the game's deadline (``record.deadline``, passed at ``now``): None when
    no late seat has bank time left (every late seat times out as before)."""
    deadline = record.deadline
    timing = record.timing or {}
    if deadline is None or not has_banks(record):
        return None
    people = set(_people(record))
    late = [s for s in dict.fromkeys(p.seat for p in prompts) if s in people]
    runs = running(record)
    banks = _object(timing.get(BANKS))
    over: JsonObject = {}
    ends: dict[int, float] = {}
    started: list[tuple[int, float]] = []
    out: list[int] = []
    hours = playing_hours.of(timing)
    for seat in late:
        have = left(timing, seat)
        start = runs.get(seat)
        if start is None:
            if have <= 0 or record.has_left(seat):
                out.append(seat)
                continue
            start = deadline
            started.append((seat, have))
        end = playing_hours.after(hours, start, have)
        if end <= now:
            banks[str(seat)] = 0.0  # used up: the timeout applies
            out.append(seat)
            continue
        ends[seat] = end
        over[str(seat)] = [start, record.version]
    if not ends:
        return None
    fresh = {k: v for k, v in timing.items() if k != OVER}
    fresh[BANKS] = banks
    fresh[OVER] = over
    return Overrun(fresh, min(ends.values()), started, out)


def banks_line(record: GameRecord, now: float | None = None) -> Text:
    """``\\n⏳ Time banks: alice 5 h, bob 2 h 30 min`` while any seat played by a person has
    bank time (or is spending it); else nothing."""
    if not has_banks(record) or record.status not in ("running", "paused"):
        return Text()
    runs = running(record)
    parts = []
    for seat in record.seats:
        if seat.computer is not None:
            continue
        part = Text.of(seat.name, " ", duration(left(record.timing, seat.seat)))
        if seat.seat in runs:
            part += " " + said("(running now)")
        parts.append(part)
    if not any(left(record.timing, s) > 0 for s in _people(record)) and not runs:
        return Text()
    return "\n⏳ " + said("Time banks: {banks}", banks=Text.of(", ").join(parts))


def given(record: GameRecord, seat: int, seconds: float) -> JsonObject:
    """The stored ``timing`` once ``seat``'s bank gets ``seconds`` more (60 days at most,
    counting what its overrun has spent so far); UserError if it would hold more."""
    timing = record.timing or {}
    have = left(timing, seat)
    if have + seconds > MAX_BANK_HOURS * HOUR:
        raise UserError(
            said(
                "A time bank holds at most {most} hours (60 days); this seat has {left}.",
                most=MAX_BANK_HOURS,
                left=duration(have),
            )
        )
    banks = _object(timing.get(BANKS))
    banks[str(seat)] = have + seconds
    return {**timing, BANKS: banks}


def for_rematch(timing: JsonObject | None) -> JsonObject:
    """A finished game's ``timing`` for its rematch: the same banks, none of it spent."""
    return {k: v for k, v in (timing or {}).items() if k not in (BANKS, OVER)}


def overrun_deadline(record: GameRecord, timing: JsonObject) -> float | None:
    """The earliest end of a bank being spent under ``timing`` (None: no overrun)."""
    hours = playing_hours.of(timing)
    ends = [
        playing_hours.after(hours, start, left(timing, seat))
        for seat, start in running(record).items()
    ]
    return min(ends, default=None)
