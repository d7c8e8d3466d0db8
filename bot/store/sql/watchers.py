"""Who watches which game: the statements of :class:`~bot.store.protocol.WatcherStore` both
dialects share."""

from __future__ import annotations

from bot.store.records import (
    GameRecord,
)
from bot.store.sql.base import (
    S,
    SqlBase,
)


class WatcherSql(SqlBase[S]):
    """Who watches which game: the statements of :class:`~bot.store.protocol.WatcherStore`."""

    async def add_watcher(self, game_id: int, user_id: int, *, now: float) -> bool:
        added = await self._execute(
            "INSERT INTO watchers (game_id, user_id, since)"
            " SELECT id, ?, ? FROM games WHERE id = ? ON CONFLICT DO NOTHING",
            user_id, now, game_id,
        )  # fmt: skip
        return added == 1

    async def remove_watcher(self, game_id: int, user_id: int) -> bool:
        removed = await self._execute(
            "DELETE FROM watchers WHERE game_id = ? AND user_id = ?", game_id, user_id
        )
        return removed == 1

    async def watchers(self, game_id: int) -> list[int]:
        rows = await self._read(
            "SELECT user_id FROM watchers WHERE game_id = ? ORDER BY since, user_id", game_id
        )
        return [row["user_id"] for row in rows]

    async def watched_games(self, user_id: int) -> list[GameRecord]:
        return await self._game_records(
            "WHERE g.id IN (SELECT game_id FROM watchers WHERE user_id = ?)"
            " AND g.status IN ('lobby', 'running', 'paused') ORDER BY g.id DESC",
            (user_id,),
            limit=100,
        )
