"""``/game note``: a private note on a game, kept for its author and shown to nobody else.

A note is stored beside the game (not in it: writing one changes no version, so no
control goes stale) and shown only in answers to its author: ``/game note`` itself and
``/hand``. Nothing public is built from notes: no post, status, picture, history, record,
web page or autocomplete reads them.
"""

from __future__ import annotations

from typing import Unpack

from bot.service.desk import Desk, Where
from bot.service.errors import UserError
from bot.service.notices import Reply
from bot.service.text import said

NOTE_CHARS = 1000
"""The longest note kept, in characters."""


class Notes:
    """Keeping, showing and removing a player's own note on a game."""

    def __init__(self, desk: Desk) -> None:
        self._desk = desk

    async def kept(self, *, user_id: int, **where: Unpack[Where]) -> str | None:
        """The asker's note on the game, or None."""
        table = await self._desk.find(user_id=user_id, **where)
        return (await self._desk.store.notes(user_id, [table.record.id])).get(table.record.id)

    async def note(
        self, *, user_id: int, text: str | None = None, clear: bool = False, **where: Unpack[Where]
    ) -> Reply:
        """Keep ``text`` as the asker's note on the game (replacing theirs), remove it with
        ``clear``, or with neither show it. Every answer is private."""
        table = await self._desk.find(user_id=user_id, **where)
        game_id, title = table.record.id, table.title
        store = self._desk.store
        if clear:
            await store.set_note(game_id, user_id, None, now=self._desk.clock())
            return Reply("📝 " + said("Your note on {game} is gone.", game=title))
        if text is None or not text.strip():
            kept = (await store.notes(user_id, [game_id])).get(game_id)
            if kept is None:
                return Reply(
                    "📝 "
                    + said(
                        "You have no note on {game}. `/game note text:…` keeps one; "
                        "only you ever see it.",
                        game=title,
                    )
                )
            told = said("Your note on {game} (only you see it):", game=title)
            return Reply("📝 " + told + "\n" + kept)
        text = text.strip()
        if len(text) > NOTE_CHARS:
            raise UserError(
                said(
                    "A note holds at most {most} characters; yours has {count}. "
                    "Shorten it and send it again.",
                    most=NOTE_CHARS,
                    count=len(text),
                )
            )
        await store.set_note(game_id, user_id, text, now=self._desk.clock())
        kept_note = said(
            "Kept your note on {game}; only you see it, here and with `/hand`:", game=title
        )
        return Reply("📝 " + kept_note + "\n" + text)
