"""Offers waiting for answers: the statements of :class:`~bot.store.protocol.OfferStore`
both dialects share."""

from __future__ import annotations

import json
from collections.abc import Sequence

from bot.store.records import (
    OfferRecord,
    Outgoing,
)
from bot.store.sql.base import (
    S,
    SqlBase,
)


class OfferSql(SqlBase[S]):
    """Offers waiting for answers: the statements of :class:`~bot.store.protocol.OfferStore`."""

    async def make_offer(
        self,
        game_id: int,
        version: int,
        *,
        kind: str,
        seat: int,
        user_id: int,
        now: float,
        notices: Sequence[Outgoing] = (),
        lapse: Outgoing | None = None,
    ) -> bool:
        lapsing = json.dumps({"lane": lapse.lane, "body": lapse.body}) if lapse else None
        async with self._transaction() as tx:
            # The game's row says which offer waits, and how it lapses, for the write that
            # bumps it next (read back from the row it bumps, whenever it began); setting
            # it checks the version and that no offer waits at it, and locks the row.
            marked = await tx.execute(
                "UPDATE games SET offer_version = version, offer_lapse = ?"
                " WHERE id = ? AND version = ? AND COALESCE(offer_version, -1) <> version",
                lapsing, game_id, version,
            )  # fmt: skip
            if marked != 1:
                return False
            await tx.execute(
                "INSERT INTO offers (game_id, version, kind, seat, user_id, accepted, created_at)"
                " VALUES (?, ?, ?, ?, ?, '[]', ?) ON CONFLICT (game_id) DO UPDATE SET"
                " version = excluded.version, kind = excluded.kind, seat = excluded.seat,"
                " user_id = excluded.user_id, accepted = '[]', created_at = excluded.created_at",
                game_id, version, kind, seat, user_id, now,
            )  # fmt: skip
            await self._enqueue(tx, game_id, notices, now)
            return True

    async def offer(self, game_id: int) -> OfferRecord | None:
        row = await self._read_row(
            "SELECT offers.* FROM offers JOIN games ON games.id = offers.game_id"
            " WHERE offers.game_id = ? AND offers.version = games.version",
            game_id,
        )
        return OfferRecord.from_row(row) if row is not None else None

    async def accept_offer(
        self,
        game_id: int,
        version: int,
        user_id: int,
        *,
        now: float,
        notices: Sequence[Outgoing] = (),
    ) -> bool:
        async with self._transaction() as tx:
            if not await self._at_version(tx, game_id, version):
                return False
            accepted = await tx.fetchval(
                "SELECT accepted FROM offers WHERE game_id = ? AND version = ?", game_id, version
            )
            if accepted is None or user_id in json.loads(accepted):
                return False
            await tx.execute(
                "UPDATE offers SET accepted = ? WHERE game_id = ?",
                json.dumps([*json.loads(accepted), user_id]), game_id,
            )  # fmt: skip
            await self._enqueue(tx, game_id, notices, now)
            return True

    async def drop_offer(
        self, game_id: int, version: int, *, now: float, notices: Sequence[Outgoing] = ()
    ) -> bool:
        async with self._transaction() as tx:
            cleared = await tx.execute(  # its lapse goes with it; the row is locked
                "UPDATE games SET offer_version = NULL, offer_lapse = NULL"
                " WHERE id = ? AND version = ? AND offer_version = version",
                game_id, version,
            )  # fmt: skip
            if cleared != 1:
                return False
            dropped = await tx.execute(
                "DELETE FROM offers WHERE game_id = ? AND version = ?", game_id, version
            )
            if dropped != 1:
                return False
            await self._enqueue(tx, game_id, notices, now)
            return True

    async def _at_version(self, tx: S, game_id: int, version: int) -> bool:
        """Whether the game is at ``version``, its row locked where the dialect needs it (so
        an answer and a versioned write of the game take turns)."""
        current = await tx.fetchval(
            f"SELECT version FROM games WHERE id = ?{self._LOCK_ROW}", game_id
        )
        return bool(current == version)
