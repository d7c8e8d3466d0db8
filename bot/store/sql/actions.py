"""The action log (an action itself is written per dialect, tuned): the statements of
:class:`~bot.store.protocol.ActionStore` both dialects share."""

from __future__ import annotations

import json

from bot.store.records import (
    ActionRecord,
)
from bot.store.sql.base import (
    S,
    SqlBase,
)


class ActionSql(SqlBase[S]):
    """The action log (an action itself is written per dialect, tuned): the statements of
    :class:`~bot.store.protocol.ActionStore`."""

    async def actions(self, game_id: int) -> list[ActionRecord]:
        rows = await self._read("SELECT * FROM actions WHERE game_id = ? ORDER BY seq", game_id)
        return [
            ActionRecord(
                r["game_id"], r["seq"], r["seat"], r["action"], json.loads(r["events"]),
                r["created_at"],
            )
            for r in rows
        ]  # fmt: skip

    async def acted_since(self, game_id: int, seats: list[int], seq: int) -> bool:
        if not seats:
            return False
        among, params = self._any("seat", seats, "integer")
        row = await self._read_row(
            f"SELECT 1 AS found FROM actions WHERE game_id = ? AND seq > ? AND {among} LIMIT 1",
            game_id, seq, *params,
        )  # fmt: skip
        return row is not None
