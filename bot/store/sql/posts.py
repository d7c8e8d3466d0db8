"""A game's messages and its notices so far: the statements of
:class:`~bot.store.protocol.PostStore` both dialects share."""

from __future__ import annotations

import json

from bot.store.records import JsonObject
from bot.store.sql.base import (
    MESSAGE_COLUMNS,
    S,
    SqlBase,
)


class PostSql(SqlBase[S]):
    """A game's messages and its notices so far: the statements of
    :class:`~bot.store.protocol.PostStore`."""

    async def set_message(self, game_id: int, kind: str, message_id: int | None) -> None:
        column = MESSAGE_COLUMNS.get(kind)
        if column is None:
            raise ValueError(f"not a kind of message: {kind!r}")
        await self._execute(f"UPDATE games SET {column} = ? WHERE id = ?", message_id, game_id)

    async def recent_notices(self, game_id: int, lane: str, limit: int = 10) -> list[JsonObject]:
        rows = await self._read(
            "SELECT body FROM outbox WHERE game_id = ? AND lane = ? ORDER BY id DESC LIMIT ?",
            game_id, lane, limit,
        )  # fmt: skip
        return [json.loads(row["body"]) for row in rows]
