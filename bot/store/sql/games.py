"""Games and their seats: the statements of :class:`~bot.store.protocol.GameStore` both
dialects share."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence

from bot.store.records import (
    GameRecord,
    JsonObject,
    NewSeat,
    Outgoing,
    StaleVersion,
)
from bot.store.sql.base import (
    S,
    SqlBase,
    game_values,
    moves_clock,
)


class GameSql(SqlBase[S]):
    """Games and their seats: the statements of :class:`~bot.store.protocol.GameStore`."""

    async def create_game(
        self,
        *,
        guild_id: int,
        channel_id: int,
        slug: str,
        host_id: int,
        players: int,
        options: JsonObject,
        seed: int,
        now: float,
        timing: JsonObject | None = None,
        own_thread: bool = False,
        seats: Sequence[NewSeat] = (),
        notices: Sequence[Outgoing] | Callable[[int], Sequence[Outgoing]] = (),
        data: JsonObject | None = None,
        rematch_of: int | None = None,
        page: str | None = None,
    ) -> int:
        async with self._transaction() as tx:
            game_id: int = await tx.fetchval(
                "INSERT INTO games (guild_id, channel_id, slug, status, host_id, players,"
                " options, seed, timing, own_thread, version, created_at, updated_at, data,"
                " page) VALUES (?, ?, ?, 'lobby', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
                guild_id, channel_id, slug, host_id, players, json.dumps(options), seed,
                json.dumps(timing or {}), bool(own_thread), len(seats), now, now,
                json.dumps(data or {}), page,
            )  # fmt: skip
            if rematch_of is not None:
                try:
                    await tx.execute(
                        "UPDATE games SET rematch_of = ? WHERE id = ?", rematch_of, game_id
                    )
                except self._DUPLICATE as error:  # the unique index: one rematch
                    raise StaleVersion(rematch_of) from error
            await tx.executemany(
                "INSERT INTO seats (game_id, role, seat, user_id, name, computer)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                [(game_id, s.role, s.seat, s.user_id, s.name, s.computer) for s in seats],
            )
            told = notices(game_id) if callable(notices) else notices
            await self._enqueue(tx, game_id, told, now)
            return game_id

    async def get_game(self, game_id: int) -> GameRecord | None:
        row = await self._read_row(f"{self._GAMES} WHERE g.id = ?", game_id)
        return GameRecord.with_seat_list(row) if row is not None else None

    async def games(
        self,
        *,
        guild_id: int | None = None,
        channel_id: int | None = None,
        user_id: int | None = None,
        active_only: bool = True,
        limit: int = 100,
    ) -> list[GameRecord]:
        where: list[str] = []
        params: list[object] = []
        if guild_id is not None:
            where.append("g.guild_id = ?")
            params.append(guild_id)
        if channel_id is not None:
            where.append("g.channel_id = ?")
            params.append(channel_id)
        if user_id is not None:
            where.append("g.id IN (SELECT game_id FROM seats WHERE user_id = ?)")
            params.append(user_id)
        if active_only:
            where.append("g.status IN ('lobby', 'running', 'paused')")
        sql = f"WHERE {' AND '.join(where)}" if where else ""
        return await self._game_records(f"{sql} ORDER BY g.id DESC", params, limit=limit)

    async def finished_games(
        self, *, guild_id: int, user_id: int | None = None, limit: int = 10
    ) -> list[GameRecord]:
        where, params = "WHERE g.guild_id = ? AND g.status = 'finished'", [guild_id]
        if user_id is not None:
            where += " AND g.id IN (SELECT game_id FROM seats WHERE user_id = ?)"
            params.append(user_id)
        order = " ORDER BY g.updated_at DESC, g.id DESC"
        return await self._game_records(where + order, params, limit=limit)

    async def update_game(
        self,
        game_id: int,
        expected_version: int,
        *,
        now: float,
        notices: Sequence[Outgoing] = (),
        **fields: object,
    ) -> int:
        values = game_values(fields)
        async with self._transaction() as tx:
            version, told = await self._bump(tx, game_id, expected_version, now, values, notices)
            await self._enqueue(tx, game_id, told, now, clock=moves_clock(values))
            return version

    async def add_seat(
        self,
        game_id: int,
        expected_version: int,
        *,
        seat: int,
        role: str,
        user_id: int,
        name: str,
        now: float,
        computer: str | None = None,
        notices: Sequence[Outgoing] = (),
    ) -> int:
        async with self._transaction() as tx:
            version, told = await self._bump(tx, game_id, expected_version, now, {}, notices)
            try:
                await tx.execute(
                    "INSERT INTO seats (game_id, role, seat, user_id, name, computer)"
                    " VALUES (?, ?, ?, ?, ?, ?)",
                    game_id, role, seat, user_id, name, computer,
                )  # fmt: skip
            except self._DUPLICATE as error:
                raise StaleVersion(game_id) from error
            await self._enqueue(tx, game_id, told, now)
            return version

    async def mark_left(
        self,
        game_id: int,
        expected_version: int,
        *,
        user_id: int,
        now: float,
        notices: Sequence[Outgoing] = (),
    ) -> int:
        return await self._seats_changed(
            game_id, expected_version, now, notices,
            'UPDATE seats SET "left" = true WHERE game_id = ? AND user_id = ?', user_id,
        )  # fmt: skip

    async def remove_seats(
        self,
        game_id: int,
        expected_version: int,
        *,
        user_id: int,
        now: float,
        notices: Sequence[Outgoing] = (),
    ) -> int:
        return await self._seats_changed(
            game_id, expected_version, now, notices,
            "DELETE FROM seats WHERE game_id = ? AND user_id = ?", user_id,
        )  # fmt: skip

    async def _seats_changed(
        self,
        game_id: int,
        expected_version: int,
        now: float,
        notices: Sequence[Outgoing],
        statement: str,
        user_id: int,
    ) -> int:
        """One versioned write that changes ``user_id``'s seats of the game by ``statement``
        (its parameters: the game, then the user), with its notices; the new version."""
        async with self._transaction() as tx:
            version, told = await self._bump(tx, game_id, expected_version, now, {}, notices)
            await tx.execute(statement, game_id, user_id)
            await self._enqueue(tx, game_id, told, now)
            return version

    async def rematch(self, game_id: int) -> int | None:
        found: int | None = await self._read_value(
            "SELECT id FROM games WHERE rematch_of = ?", game_id
        )
        return found
