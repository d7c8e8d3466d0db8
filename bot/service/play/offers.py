"""How a draw offer's or takeback request's post is settled: the line it gets once it is
answered or lapses, and the notice that puts it there (its Accept and Decline go).

An offer made at one version is answered by the very next action when everyone accepts
(``!draw`` or ``!takeback``). Any other write that moves the game's version on makes it
lapse: another action, and as much a pause, a player leaving or resigning, the host
changing the clock, a cancellation. Every such write reads the game with the offer waiting
in it (``GameRecord.offer``) and stores, in its own transaction, the notice
:func:`settling` gives, so the offer's post says at once what became of it, in the words
of what happened. (A game whose channel was deleted has no post left to settle.)

A write that read the game just before the offer was made cannot have seen it. So the
offer is stored with its lapse notice (:func:`lapsing`), and the store's versioned write
itself stores that notice when it moves the game past an offer none of its own notices
settles: the post then says only that the game moved on.
"""

from __future__ import annotations

from bot.service.notices import ChannelPost
from bot.service.text import Mention, Text, as_text, said
from bot.store import GameRecord
from engines.replay import DRAW, TAKEBACK

SETTLED = {
    DRAW: "🤝 " + said("Accepted: the game is drawn."),
    TAKEBACK: "↩️ " + said("Accepted: the move is taken back."),
}
DECLINED = "❌ " + said("Declined: the game goes on.")
LAPSED = "⌛ " + said(
    "Lapsed: the game moved on before everyone answered. Ask again if you still want it."
)
PAUSED = "⌛ " + said(
    "Lapsed: the game was paused before everyone answered. Ask again once it goes on."
)
CLOCK_CHANGED = "⌛ " + said(
    "Lapsed: the host changed the game's clock before everyone answered. Ask again if you "
    "still want it."
)
CANCELLED = "⌛ " + said("Lapsed: the game was cancelled before everyone answered.")


def outcome_line(action: str | None) -> Text:
    """What became of an offer that the action ``action`` (None: no action) followed: the
    agreed draw or takeback answered it, anything else made it lapse."""
    return SETTLED.get(action or "", LAPSED)


def left_line(user_id: int) -> Text:
    """An offer that lapsed because ``user_id`` left the game (``/game leave``)."""
    return "⌛ " + said(
        "Lapsed: {player} left the game before everyone answered.", player=Mention(user_id)
    )


def resigned_line(user_id: int) -> Text:
    """An offer that lapsed because ``user_id`` resigned."""
    return "⌛ " + said(
        "Lapsed: {player} resigned before everyone answered.", player=Mention(user_id)
    )


def lapsing(record: GameRecord) -> ChannelPost:
    """The notice that settles the post of an offer made now, at the version of
    ``record``, when the game moves on past it unseen by the write that moves it (see
    the module's docstring): it lapsed."""
    return ChannelPost(record.id, record.channel_id, LAPSED, settles=record.version)


def settling(record: GameRecord, line: str | Text = LAPSED) -> list[ChannelPost]:
    """The notice to store with a write that moves the game of ``record`` (as read before
    the write) on to a new version: the post of the offer waiting in it says ``line`` and
    loses its buttons. None when no offer waits."""
    if record.offer is None:
        return []
    return [ChannelPost(record.id, record.channel_id, as_text(line), settles=record.offer.version)]
