"""Quiet hours: the daily hours, on a player's own wall clock, when no call reaches them.

A player sets them as ``22-8`` (or ``22:30-07:00``) with an IANA time zone such as
``Europe/Paris``. Unlike playing hours, quiet hours may cross midnight, as they usually do:
``22-8`` is quiet from 22:00 one evening to 08:00 the next morning. Each night's window is
read on that night's wall clock (``zoneinfo``), so a daylight-saving change moves the real
times with it: the night the clocks go forward holds one real hour less, the night they
go back one more.

They are kept with the player's calls (``users.calls``, under ``quiet``). The outbox asks
:func:`until` before it sends: a DM call (one with no buttons to answer) made in quiet
hours is held back in the store (``held_calls``) until they end, and a channel post names
the player without pinging them. The turn clock's scheduler wakes when the earliest held
call is due and :func:`release` sends each player's held calls as one DM, once.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from itertools import groupby
from typing import Any, Protocol

from bot.service import wire
from bot.service.delivery import calls
from bot.service.errors import UserError
from bot.service.notices import MAX_BOARDS, Board, Outcome, PrivateMessage
from bot.service.tables import table_from
from bot.service.text import Moment, Text, fitted, said
from bot.service.timekeeping.playing_hours import OFF_WORDS, _clock, _local, _zone, parse_zone
from bot.store import GameStore, HeldCall, HeldCallStore, JsonObject, PlayerStore


class QuietStore(HeldCallStore, GameStore, PlayerStore, Protocol):
    """The store's ports releasing held calls uses: the calls held, the games they are of,
    and how each player is called."""


QUIET_HELP = said(
    "Quiet hours are a daily range in 24-hour time on your own clock, such as `22-8` or "
    "`23:30-07:00` (they may cross midnight), with a time zone such as `Europe/Paris`; "
    "`off` removes them."
)
DAY = 24 * 60
KEY = "quiet"
"""Where a player's quiet hours are kept among their calls."""
HELD_LIMIT = 1900
"""The longest DM of held calls (the oldest lines give way)."""


@dataclass(frozen=True)
class QuietHours:
    """Quiet from ``start`` to ``end`` (minutes after local midnight; ``end`` before
    ``start`` crosses midnight) every day in the IANA time zone ``zone``."""

    start: int
    end: int
    zone: str = "UTC"

    def __post_init__(self) -> None:
        if not (0 <= self.start < DAY and 0 <= self.end < DAY) or self.start == self.end:
            raise UserError(QUIET_HELP)
        _zone(self.zone)

    @classmethod
    def parse(cls, hours: str, zone: str = "UTC") -> QuietHours | None:
        """From what a user types (None for ``off``); UserError saying what to type."""
        if hours.strip().lower() in OFF_WORDS:
            return None
        found = re.fullmatch(
            r"\s*(\d{1,2})(?:[:h.](\d{2}))?\s*(?:-|–|to)\s*(\d{1,2})(?:[:h.](\d{2}))?\s*h?\s*",
            hours.strip().lower(),
        )
        if not found or int(found[2] or 0) >= 60 or int(found[4] or 0) >= 60:
            raise UserError(QUIET_HELP)
        start = int(found[1]) * 60 + int(found[2] or 0)
        end = int(found[3]) * 60 + int(found[4] or 0)
        if end == DAY:
            end = 0  # 20-24 is 20:00 to midnight
        if start >= DAY or end >= DAY or start == end:
            raise UserError(QUIET_HELP)
        return cls(start, end, parse_zone(zone))

    def to_dict(self) -> dict[str, Any]:
        return {"start": self.start, "end": self.end, "zone": self.zone}

    @classmethod
    def from_dict(cls, data: object) -> QuietHours | None:
        """From stored JSON; None for nothing, or a value no setting can give."""
        if not isinstance(data, dict):
            return None
        try:
            return cls(int(data["start"]), int(data["end"]), str(data["zone"]))
        except (KeyError, TypeError, ValueError, UserError):
            return None

    def describe(self) -> str:
        """``22:00–08:00 (Europe/Paris)``."""
        return f"{_clock(self.start)}–{_clock(self.end)} ({self.zone})"

    # -- the arithmetic ---------------------------------------------------------------

    def window(self, at: float) -> tuple[float, float] | None:
        """The real ``(start, end)`` of the quiet hours ``at`` falls in, or None."""
        zone = _zone(self.zone)
        today = datetime.fromtimestamp(at, zone).date()
        for back in (1, 0):
            day = today - timedelta(days=back)
            opens = _local(day, self.start, zone)
            closes = _local(day + timedelta(days=int(self.end <= self.start)), self.end, zone)
            if opens <= at < closes:
                return opens, closes
        return None

    def quiet(self, at: float) -> bool:
        """Whether ``at`` is in the quiet hours."""
        return self.window(at) is not None

    def ends(self, at: float) -> float:
        """When the quiet hours ``at`` falls in end (``at`` itself when not quiet)."""
        found = self.window(at)
        return at if found is None else found[1]


# -- a player's quiet hours, and their held calls -------------------------------------------


def of_calls(calls: Mapping[str, str]) -> QuietHours | None:
    """The quiet hours kept among a player's ``calls`` (None: none)."""
    kept = calls.get(KEY, "")
    hours, _, zone = kept.partition(" ")
    try:
        return QuietHours.parse(hours, zone or "UTC") if hours else None
    except UserError:
        return None


def kept(quiet: QuietHours) -> str:
    """How ``quiet`` is kept among a player's calls."""
    return f"{_clock(quiet.start)}-{_clock(quiet.end)} {quiet.zone}"


async def until(store: PlayerStore, user_id: int, now: float) -> float | None:
    """When the quiet hours ``user_id`` is in at ``now`` end; None when not quiet."""
    quiet = of_calls(await store.calls(user_id))
    found = None if quiet is None else quiet.window(now)
    return None if found is None else found[1]


async def release(store: QuietStore, now: float) -> Outcome:
    """Send each player's calls held until ``now`` as one DM (stored in the outbox as the
    held calls are removed, in one transaction, so each is told once).

    Each held call is looked at again first, as the player would read it in the morning
    (see :func:`_still_true`): a call to act is told only if it still calls them, and only
    the newest of each kind for each game; what stays true once said is told as it was.
    A player none of whose held calls still holds gets no DM; the calls are removed all
    the same."""
    outcome = Outcome()
    for user_id, group in groupby(await store.held_due(now), key=lambda h: h.user_id):
        held = list(group)
        kept = await _still_true(store, user_id, held)
        ids = [h.id for h in held]
        if not kept:
            await store.release_held(ids, held[-1].game_id, [], now=now)
            continue
        texts = [wire.load_text(h.body.get("text") or []) for h in kept]
        lines = ["🌙 " + said("While your quiet hours lasted:"), *texts]
        last = kept[-1]
        newest = {h.game_id: b for h in kept for b in _boards(h.body)}  # each game's last
        notice = PrivateMessage(
            last.game_id, user_id, Text.of("\n\n").join(fitted(lines, HELD_LIMIT)),
            channel_id=_channel_of(last),
            boards=tuple(newest.values())[-MAX_BOARDS:],
        )  # fmt: skip
        if await store.release_held(ids, last.game_id, wire.outgoing(Outcome([notice])), now=now):
            outcome.add(notice)
    return outcome


async def _still_true(store: QuietStore, user_id: int, held: list[HeldCall]) -> list[HeldCall]:
    """The calls of ``held`` (one player's, oldest first) that a player waking up would
    still want, in order:

    - "your turn" and a reminder: only while the game, still under way, waits on them
      (any of their seats is asked now), and of each only the newest for each game: a
      turn that passed in the night and came back is told once, as it is now;
    - an offer to answer: only while an offer still waits in that game for their answer
      (not answered by them, not lapsed, not settled), the newest for each game;
    - everything else stays true once said (a game's end, what they alone were told, a
      watched game's board, a word from a game's host) and is told as it was.
    """
    newest: dict[tuple[int, str], int] = {}
    for call in held:
        event = calls.passing_event(_text(call))
        if event is not None:
            newest[(call.game_id, event)] = call.id
    if not newest:
        return held
    by_id = {call.id: call for call in held}
    holds = {
        key: await _calls_now(store, key[0], user_id, key[1], _text(by_id[call_id]))
        for key, call_id in newest.items()
    }
    kept = []
    for call in held:
        event = calls.passing_event(_text(call))
        if event is None or (
            newest[(call.game_id, event)] == call.id and holds[(call.game_id, event)]
        ):
            kept.append(call)
    return kept


async def _calls_now(store: QuietStore, game_id: int, user_id: int, event: str, text: Text) -> bool:
    """Whether the call of ``event`` (a turn, a reminder, an offer) saying ``text`` still
    calls ``user_id`` as game ``game_id`` is stored now: for a turn, they are asked now
    what it asked (every public question now at their seats is in its words); for a
    reminder, their turn still runs out when it said; for an offer, one still waits for
    their answer."""
    record = await store.get_game(game_id)
    if record is None or record.status != "running":
        return False
    if event == calls.OFFER:
        offer = record.offer
        return offer is not None and user_id != offer.user_id and user_id not in offer.accepted
    try:
        prompts = table_from(record).prompts()
    except UserError:  # a game that cannot be read calls nobody
        return False
    mine = [p for p in prompts if p.seat in record.seat_of(user_id)]
    if event == calls.REMINDER:
        ends = [p for p in text.parts if isinstance(p, Moment)]
        return bool(mine) and (not ends or ends[0] == Moment(record.deadline or 0.0))
    asked = [p for p in mine if not p.secret]  # a secret question comes as its own DM
    return bool(asked) and all(p.text in text.plain() for p in asked)


def _text(call: HeldCall) -> Text:
    return wire.load_text(call.body.get("text") or [])


def _channel_of(call: HeldCall) -> int:
    """The channel of a held call's game (0: it names none)."""
    channel = call.body.get("channel")
    return channel if isinstance(channel, int) else 0


def _boards(body: JsonObject) -> tuple[Board, ...]:
    """The boards a held call carried (a watcher's), kept for the DM that replaces it."""
    notice = wire.load(body)
    return notice.boards if isinstance(notice, PrivateMessage) else ()
