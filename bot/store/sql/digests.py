"""Users' digests: the statements of :class:`~bot.store.protocol.DigestStore` both dialects
share."""

from __future__ import annotations

from collections.abc import Sequence

from bot.store.records import (
    DigestRow,
    Outgoing,
)
from bot.store.sql.base import (
    S,
    SqlBase,
)


class DigestSql(SqlBase[S]):
    """Users' digests: the statements of :class:`~bot.store.protocol.DigestStore`."""

    async def set_digest(
        self, user_id: int, every: float | None, due_at: float, kind: str = "turns"
    ) -> None:
        if every is None:
            await self._execute("DELETE FROM digests WHERE user_id = ? AND kind = ?", user_id, kind)
            return
        await self._execute(
            "INSERT INTO digests (user_id, kind, every, due_at, seen) VALUES (?, ?, ?, ?, '')"
            " ON CONFLICT (user_id, kind) DO UPDATE SET every = excluded.every,"
            " due_at = excluded.due_at",
            user_id, kind, float(every), float(due_at),
        )  # fmt: skip

    async def next_digest(self) -> float | None:
        when = await self._read_value("SELECT min(due_at) FROM digests")
        return None if when is None else float(when)

    async def digests_due(self, now: float, limit: int = 200) -> list[DigestRow]:
        rows = await self._read(
            "SELECT user_id, kind, every, due_at, seen FROM digests"
            " WHERE due_at <= ? ORDER BY due_at, user_id, kind LIMIT ?",
            now, limit,
        )  # fmt: skip
        return [DigestRow.from_row(r) for r in rows]

    async def settle_digest(
        self,
        row: DigestRow,
        *,
        due_at: float,
        seen: str,
        game_id: int,
        notices: Sequence[Outgoing],
        now: float,
    ) -> bool:
        async with self._transaction() as tx:
            moved = await tx.execute(
                "UPDATE digests SET due_at = ?, seen = ?"
                " WHERE user_id = ? AND kind = ? AND due_at = ?",
                due_at, seen, row.user_id, row.kind, row.due_at,
            )  # fmt: skip
            if moved != 1:
                return False
            await self._enqueue(tx, game_id, notices, now)
            return True
