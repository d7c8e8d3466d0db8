"""Game pages: the statements of :class:`~bot.store.protocol.PageStore` both dialects share."""

from __future__ import annotations

from collections.abc import Sequence

from bot.store.records import (
    GameRecord,
)
from bot.store.sql.base import (
    S,
    SqlBase,
)


class PageSql(SqlBase[S]):
    """Game pages: the statements of :class:`~bot.store.protocol.PageStore`."""

    async def game_by_page(self, page: str) -> GameRecord | None:
        row = await self._read_row(f"{self._GAMES} WHERE g.page = ?", page)
        return GameRecord.with_seat_list(row) if row is not None else None

    async def set_page(self, game_id: int, page: str | None) -> bool:
        return await self._execute("UPDATE games SET page = ? WHERE id = ?", page, game_id) > 0

    async def clear_pages(self, guild_id: int) -> int:
        return await self._execute(
            "UPDATE games SET page = NULL WHERE guild_id = ? AND page IS NOT NULL", guild_id
        )

    async def versions(self, game_ids: Sequence[int]) -> dict[int, int]:
        if not game_ids:
            return {}
        among, params = self._any("id", list(game_ids), "bigint")
        rows = await self._read(f"SELECT id, version FROM games WHERE {among}", *params)
        return {row["id"]: row["version"] for row in rows}
