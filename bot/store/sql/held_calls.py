"""Calls held back through quiet hours: the statements of
:class:`~bot.store.protocol.HeldCallStore` both dialects share."""

from __future__ import annotations

import json
from collections.abc import Sequence

from bot.store.records import (
    HeldCall,
    JsonObject,
    Outgoing,
)
from bot.store.sql.base import (
    S,
    SqlBase,
)


class _Released(Exception):
    """Held calls another process released first: the transaction is rolled back."""


class HeldCallSql(SqlBase[S]):
    """Calls held back through quiet hours: the statements of
    :class:`~bot.store.protocol.HeldCallStore`."""

    async def hold_call(
        self,
        entry_id: int,
        *,
        user_id: int,
        game_id: int,
        body: JsonObject,
        due_at: float,
        now: float,
        covers: Sequence[int] = (),
    ) -> bool:
        async with self._transaction() as tx:
            taken = await tx.execute(
                "UPDATE outbox SET sent_at = ?"
                " WHERE id = ? AND sent_at IS NULL AND failed IS NULL",
                now, entry_id,
            )  # fmt: skip
            if taken != 1:
                return False
            for start in range(0, len(covers), 500):  # within every driver's parameters
                chunk = list(covers[start : start + 500])
                await tx.execute(
                    "UPDATE outbox SET sent_at = ?, superseded_by = ?"
                    f" WHERE id IN ({', '.join('?' * len(chunk))})"
                    " AND sent_at IS NULL AND failed IS NULL",
                    now, entry_id, *chunk,
                )  # fmt: skip
            await tx.execute(
                "INSERT INTO held_calls (user_id, game_id, body, due_at, created_at)"
                " VALUES (?, ?, ?, ?, ?)",
                user_id, game_id, json.dumps(body), due_at, now,
            )  # fmt: skip
            return True

    async def next_held(self) -> float | None:
        when = await self._read_value("SELECT min(due_at) FROM held_calls")
        return None if when is None else float(when)

    async def held_due(self, now: float, limit: int = 500) -> list[HeldCall]:
        rows = await self._read(
            "SELECT id, user_id, game_id, body, due_at FROM held_calls"
            " WHERE due_at <= ? ORDER BY user_id, id LIMIT ?",
            now, limit,
        )  # fmt: skip
        return [
            HeldCall(
                int(r["id"]),
                int(r["user_id"]),
                int(r["game_id"]),
                json.loads(r["body"]),
                float(r["due_at"]),
            )
            for r in rows
        ]

    async def release_held(
        self, ids: Sequence[int], game_id: int, notices: Sequence[Outgoing], *, now: float
    ) -> bool:
        if not ids:
            return False
        among, params = self._any("id", list(ids), "bigint")
        try:
            async with self._transaction() as tx:
                gone = await tx.execute(f"DELETE FROM held_calls WHERE {among}", *params)
                if gone != len(ids):
                    raise _Released
                await self._enqueue(tx, game_id, notices, now)
        except _Released:
            return False
        return True
