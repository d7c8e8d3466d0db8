"""How each player wants to be called, event by event (``/notify``).

Five events call a player: their turn, a reminder before their deadline, an invitation,
an offer to answer (a draw or a takeback) and a game's end. For each the player chooses a
mention in the game's channel, a DM, both, or neither. What they never chose is as it
always was: a turn is a mention, a reminder and an invitation are DMs, an offer is a
mention, a game's end calls nobody. The older three-level ``/notify when:`` still counts
for the events it spoke of (``reminders``: no turn mention; ``none``: no turn mention and
no reminder) until the event is chosen on its own.

A DM always says which game, on which server, with a link to the game's table.
"""

from __future__ import annotations

from collections.abc import Mapping

from bot.service.text import ChannelRef, ServerRef, Text, said
from bot.store import GameRecord, PlayerStore

TURN, REMINDER, INVITE, OFFER, END = "turn", "reminder", "invite", "offer", "end"

EVENT_NAMES = {
    TURN: said("my turn"),
    REMINDER: said("a reminder before my deadline"),
    INVITE: said("an invitation"),
    OFFER: said("an offer to answer (draw, takeback)"),
    END: said("a game over"),
}
"""The events that call a player, in the order ``/notify`` shows them, as a person reads
them."""
EVENTS = {event: name.plain() for event, name in EVENT_NAMES.items()}
"""The same events by their English names: the choices of the ``/notify`` command, which
its translator writes in each reader's language."""

MENTION, DM, BOTH, NONE = "mention", "dm", "both", "none"
HOWS = {
    MENTION: said("a mention in the game's channel"),
    DM: said("a DM"),
    BOTH: said("a mention and a DM"),
    NONE: said("nothing"),
}
"""How an event may call a player, as a person reads it."""

DEFAULTS = {TURN: MENTION, REMINDER: DM, INVITE: DM, OFFER: MENTION, END: NONE}
"""How each event calls a player who never chose."""

DIGESTS = {"turns": "digest", "watching": "watching"}
"""Each kind of digest (:mod:`bot.service.delivery.digest`) and where its hours are kept here."""
MAX_DIGEST_HOURS = 168


def digest_hours(calls: Mapping[str, str], kind: str = "turns") -> int:
    """A user's digest hours of ``kind`` (0: none)."""
    try:
        hours = int(calls.get(DIGESTS[kind], "0"))
    except ValueError:
        return 0
    return hours if 0 < hours <= MAX_DIGEST_HOURS else 0


_LEGACY = {"reminders": {TURN: NONE}, "none": {TURN: NONE, REMINDER: NONE}}
"""What the older ``/notify when:`` choices say of the events."""


def how(calls: Mapping[str, str], notify: str, event: str) -> str:
    """How ``event`` calls a player with per-event ``calls`` and the older ``notify``."""
    chosen = calls.get(event)
    if chosen not in HOWS:
        chosen = _LEGACY.get(notify, {}).get(event, DEFAULTS[event])
    if event == TURN and digest_hours(calls):  # turn DMs are folded into the digest
        chosen = {DM: NONE, BOTH: MENTION}.get(chosen, chosen)
    return chosen


def of(record: GameRecord, user_id: int, event: str) -> str:
    """How ``event`` calls a player seated in ``record``, as read with the game."""
    seat = next((s for s in record.seats if s.user_id == user_id), None)
    if seat is None:
        return DEFAULTS[event]
    return how(seat.calls, seat.notify, event)


async def reachable(store: PlayerStore, user_id: int, how_: str) -> str:
    """``how_`` for a user whose DMs may be closed: a DM they cannot get becomes a mention
    in the game's channel (as a reminder always has), so the call is not lost."""
    if dms(how_) and await store.dm_closed(user_id):
        return MENTION
    return how_


def mentions(how_: str) -> bool:
    return how_ in (MENTION, BOTH)


def dms(how_: str) -> bool:
    return how_ in (DM, BOTH)


def where(record: GameRecord, title: str) -> Text:
    """Which game, on which server, in which channel (a DM's first words)."""
    return said(
        "**{title}** on {server}, in {channel}",
        title=title, server=ServerRef(record.guild_id), channel=ChannelRef(record.channel_id),
    )  # fmt: skip


DM_OPENINGS = {TURN: "➡️ Your turn in ", REMINDER: "⏰ Reminder: ", OFFER: "🤝 In "}
"""The first words of the DM of each event that stops being true when the game moves on
(its turn passes, or the offer is answered or lapses)."""


def passing_event(text: Text) -> str | None:
    """Which of the events that pass (:data:`DM_OPENINGS`) a DM call's ``text`` is; None
    for any other (a game's end, what a player alone is told, a watched board)."""
    opening = text.plain()  # in English, as the openings are, whatever its reader reads
    return next((event for event, words in DM_OPENINGS.items() if opening.startswith(words)), None)
