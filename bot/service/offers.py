"""How a draw offer's or takeback request's post is settled: the line it gets once it is
answered or lapses, and the notice that puts it there (its Accept and Decline go).

An offer made at one version is answered by the very next action when everyone accepts
(``!draw`` or ``!takeback``); any other action at that version makes it lapse. Either way
the action's own transaction stores the notice that settles the offer's post.
"""

from __future__ import annotations

from bot.service.notices import ChannelPost
from bot.service.text import Text
from bot.store import GameRecord, OfferRecord
from engines.replay import DRAW, TAKEBACK

SETTLED = {
    DRAW: "🤝 Accepted: the game is drawn.",
    TAKEBACK: "↩️ Accepted: the move is taken back.",
}
DECLINED = "❌ Declined: the game goes on."
LAPSED = "⌛ Lapsed: the game moved on before everyone answered. Ask again if you still want it."


def outcome_line(action: str | None) -> str:
    """What became of an offer that the action ``action`` (None: no action) followed: the
    agreed draw or takeback answered it, anything else made it lapse."""
    return SETTLED.get(action or "", LAPSED)


def settling(record: GameRecord, offer: OfferRecord, action: str) -> ChannelPost:
    """The notice that settles the post of ``offer`` once ``action`` is played in its
    game: the offer's post says what became of it, and loses its buttons."""
    line = Text.of(outcome_line(action))
    return ChannelPost(record.id, record.channel_id, line, settles=offer.version)
