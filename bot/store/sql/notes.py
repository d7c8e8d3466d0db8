"""Private notes: the statements of :class:`~bot.store.protocol.NoteStore` both dialects share."""

from __future__ import annotations

from collections.abc import Sequence

from bot.store.sql.base import (
    S,
    SqlBase,
)


class NoteSql(SqlBase[S]):
    """Private notes: the statements of :class:`~bot.store.protocol.NoteStore`."""

    async def notes(self, user_id: int, game_ids: Sequence[int]) -> dict[int, str]:
        if not game_ids:
            return {}
        among, params = self._any("game_id", list(game_ids), "bigint")
        rows = await self._read(
            f"SELECT game_id, text FROM notes WHERE user_id = ? AND {among}", user_id, *params
        )
        return {row["game_id"]: row["text"] for row in rows}

    async def set_note(self, game_id: int, user_id: int, text: str | None, *, now: float) -> bool:
        if not text:
            await self._execute(
                "DELETE FROM notes WHERE game_id = ? AND user_id = ?", game_id, user_id
            )
            return True
        written = await self._execute(
            "INSERT INTO notes (game_id, user_id, text, updated_at)"
            " SELECT id, ?, ?, ? FROM games WHERE id = ?"
            " ON CONFLICT (game_id, user_id) DO UPDATE"
            " SET text = excluded.text, updated_at = excluded.updated_at",
            user_id, text, now, game_id,
        )  # fmt: skip
        return written == 1
