"""The outbox and its lanes (a lane's claim with its read, and a send, are per dialect,
tuned): the statements of :class:`~bot.store.protocol.OutboxStore` both dialects share."""

from __future__ import annotations

from collections.abc import Sequence

from bot.store.records import (
    OutboxEntry,
    Outgoing,
)
from bot.store.sql.base import (
    S,
    SqlBase,
)

CLAIM_LANE = (
    "INSERT INTO lanes (lane, owner, until) VALUES (?, ?, ?)"
    " ON CONFLICT (lane) DO UPDATE SET owner = excluded.owner, until = excluded.until"
    " WHERE lanes.owner = excluded.owner OR lanes.until <= ? RETURNING owner"
)
"""Claim (or renew) a lane for an owner until a time unless another owner's claim lasts
past now (lane, owner, until, now); a row back when claimed."""


PENDING = (
    "SELECT o.*, g.status_message_id AS status_message, g.board_message_id AS board_message,"
    " g.guild_id AS guild_id FROM outbox o LEFT JOIN games g ON g.id = o.game_id"
)
"""Outbox rows with their games' message ids and server; a WHERE clause follows."""


WAITING = "o.sent_at IS NULL AND o.failed IS NULL"
"""An outbox row neither sent nor given up on."""


class OutboxSql(SqlBase[S]):
    """The outbox and its lanes (a lane's claim with its read, and a send, are per dialect,
    tuned): the statements of :class:`~bot.store.protocol.OutboxStore`."""

    async def enqueue(self, game_id: int, notices: Sequence[Outgoing], *, now: float) -> None:
        async with self._transaction() as tx:
            await self._enqueue(tx, game_id, notices, now)

    async def pending_notices(
        self, *, lanes: Sequence[str] | None = None, limit: int = 200
    ) -> list[OutboxEntry]:
        where, params = WAITING, list[object]()
        if lanes is not None:
            if not lanes:
                return []
            among, params = self._any("o.lane", lanes, "text")
            where += f" AND {among}"
        rows = await self._read(f"{PENDING} WHERE {where} ORDER BY o.id LIMIT ?", *params, limit)
        return [OutboxEntry.from_row(r) for r in rows]

    async def mark_superseded(self, entry_ids: Sequence[int], *, by: int, now: float) -> None:
        ids = list(entry_ids)
        for start in range(0, len(ids), 500):  # within every driver's count of parameters
            chunk = ids[start : start + 500]
            await self._execute(
                "UPDATE outbox SET sent_at = ?, superseded_by = ?"
                f" WHERE id IN ({', '.join('?' * len(chunk))})"
                " AND sent_at IS NULL AND failed IS NULL",
                now, by, *chunk,
            )  # fmt: skip

    async def note_shown(self, entry_id: int, shown: str) -> None:
        await self._execute("UPDATE outbox SET shown = ? WHERE id = ?", shown, entry_id)

    async def retry_later(self, entry_id: int, *, not_before: float) -> int:
        attempts = await self._fetchval(
            "UPDATE outbox SET attempts = attempts + 1, not_before = ? WHERE id = ?"
            " RETURNING attempts",
            not_before, entry_id,
        )  # fmt: skip
        return attempts or 0

    async def give_up(self, entry_id: int, *, reason: str) -> None:
        await self._execute(
            "UPDATE outbox SET failed = ? WHERE id = ? AND sent_at IS NULL",
            reason or "failed", entry_id,
        )  # fmt: skip

    async def claim_lane(self, lane: str, owner: str, now: float, lease_seconds: float) -> bool:
        claimed = await self._fetchrow(CLAIM_LANE, lane, owner, now + lease_seconds, now)
        return claimed is not None

    async def release_lane(self, lane: str, owner: str) -> None:
        await self._execute("DELETE FROM lanes WHERE lane = ? AND owner = ?", lane, owner)
