"""Deadlines and reminders (the due games' queries and claims are per dialect, tuned): the
statements of :class:`~bot.store.protocol.DeadlineStore` both dialects share."""

from __future__ import annotations

import json
from collections.abc import Sequence

from bot.store.records import (
    JsonObject,
    Outgoing,
)
from bot.store.sql.base import (
    S,
    SqlBase,
)


class DeadlineSql(SqlBase[S]):
    """Deadlines and reminders (the due games' queries and claims are per dialect, tuned):
    the statements of :class:`~bot.store.protocol.DeadlineStore`."""

    async def take_reminder(
        self, game_id: int, remind_at: float, *, now: float = 0.0, notices: Sequence[Outgoing] = ()
    ) -> bool:
        async with self._transaction() as tx:
            taken = await tx.execute(
                "UPDATE games SET remind_at = NULL WHERE id = ? AND remind_at = ?",
                game_id, remind_at,
            )  # fmt: skip
            if taken != 1:
                return False
            await self._enqueue(tx, game_id, notices, now)
            return True

    async def release_game(self, game_id: int, owner: str) -> None:
        await self._execute(
            "UPDATE games SET claimed_by = NULL, claimed_until = NULL"
            " WHERE id = ? AND claimed_by = ?",
            game_id, owner,
        )  # fmt: skip

    async def move_deadline(
        self,
        game_id: int,
        version: int,
        *,
        deadline: float | None,
        remind_at: float | None,
        now: float,
        notices: Sequence[Outgoing] = (),
        timing: JsonObject | None = None,
        timing_was: JsonObject | None = None,
    ) -> bool:
        async with self._transaction() as tx:
            if timing is None:
                moved = await tx.execute(
                    "UPDATE games SET deadline = ?, remind_at = ? WHERE id = ? AND version = ?",
                    deadline, remind_at, game_id, version,
                )  # fmt: skip
            else:
                moved = await tx.execute(
                    "UPDATE games SET deadline = ?, remind_at = ?, timing = ?"
                    " WHERE id = ? AND version = ? AND timing = ?",
                    deadline, remind_at, json.dumps(timing), game_id, version,
                    json.dumps(timing_was or {}),
                )  # fmt: skip
            if moved != 1:
                return False
            await self._enqueue(tx, game_id, notices, now, clock=True)
            return True
