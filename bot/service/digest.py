"""A player's digest (``/notify digest:<hours>``): instead of a DM for each turn, one DM
every N hours listing the games waiting on them (as ``/games`` lists them), sent only when
one of them is new since the last digest (a game, or a new turn of it).

The hours are kept with the player's calls (``users.calls``, under ``digest``), so a
turn's calls, read with the game's seats, fold a turn DM into the digest at no extra read
(:func:`bot.service.calls.how`); a mention in the channel stays as the player chose. When
the next one is due, and what the last one listed, are kept in ``digests`` (migration 19):
the turn clock's scheduler wakes for the earliest and :func:`send_due` moves each due
digest on and stores its DM in one transaction, so a restart loses none and sends none
twice. A digest is a DM call like any other: quiet hours hold it back.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from bot.service import wire
from bot.service.errors import UserError
from bot.service.notices import Outcome, PrivateMessage
from bot.service.text import Text, fitted

if TYPE_CHECKING:
    from bot.service.host import GameHost

KEY = "digest"
"""Where a player's digest hours are kept among their calls."""
MAX_HOURS = 168
HOUR = 3600.0
DIGEST_LIMIT = 1900
DIGEST_HELP = f"A digest comes every 1 to {MAX_HOURS} hours; `digest:0` stops it."


def hours_of(calls: Mapping[str, str]) -> int:
    """A player's digest hours (0: none)."""
    try:
        hours = int(calls.get(KEY, "0"))
    except ValueError:
        return 0
    return hours if 0 < hours <= MAX_HOURS else 0


def checked(hours: int) -> int:
    """``hours`` as a user gave them; UserError saying what to give."""
    if not 0 <= hours <= MAX_HOURS:
        raise UserError(DIGEST_HELP)
    return hours


async def send_due(host: GameHost, now: float) -> Outcome:
    """Send every digest due at ``now`` that has something new, and move each on."""
    outcome = Outcome()
    store = host.store
    for row in await store.digests_due(now):
        waiting = await host.inbox.waiting(user_id=row.user_id)
        marks = [f"{record.id}:{record.version}" for record, _ in waiting]
        before = set(row.seen.split(",")) if row.seen else set()
        due_at = row.due_at + row.every
        while due_at <= now:  # days the bot was down: the next one is in the future
            due_at += row.every
        notices = []
        if any(m not in before for m in marks):
            head = Text.of(f"📬 Your digest: {len(waiting)} game(s) waiting for you.")
            lines = fitted([head, *(line for _, line in waiting)], DIGEST_LIMIT)
            notices.append(PrivateMessage(waiting[0][0].id, row.user_id, Text.of("\n").join(lines)))
        game_id = waiting[0][0].id if waiting else 0
        settled = await store.settle_digest(
            row, due_at=due_at, seen=",".join(marks), game_id=game_id,
            notices=wire.outgoing(Outcome(list(notices))), now=now,
        )  # fmt: skip
        if settled:
            outcome.notices += notices
    return outcome
