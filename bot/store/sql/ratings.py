"""Results and ratings: the statements of :class:`~bot.store.protocol.RatingStore` both
dialects share."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from bot.store.ratings import games_in, rate_in_order
from bot.store.records import (
    GameRecord,
    Rater,
    RatingRow,
    ResultRow,
)
from bot.store.sql.base import (
    S,
    Session,
    SqlBase,
)


class RatingSql(SqlBase[S]):
    """Results and ratings: the statements of :class:`~bot.store.protocol.RatingStore`."""

    async def ratings(self, *, guild_id: int, slug: str) -> list[RatingRow]:
        rows = await self._read(
            "SELECT * FROM ratings WHERE guild_id = ? AND slug = ?", guild_id, slug
        )
        return [RatingRow.from_row(r) for r in rows]

    async def player_ratings(self, *, guild_id: int, user_id: int) -> list[RatingRow]:
        rows = await self._read(
            "SELECT * FROM ratings WHERE guild_id = ? AND user_id = ? ORDER BY slug",
            guild_id, user_id,
        )  # fmt: skip
        return [RatingRow.from_row(r) for r in rows]

    async def player_results(self, *, guild_id: int, user_id: int) -> list[ResultRow]:
        rows = await self._read(
            "SELECT * FROM results WHERE guild_id = ? AND user_id = ?"
            " ORDER BY ended_at, game_id, seat",
            guild_id, user_id,
        )  # fmt: skip
        return [ResultRow.from_row(r) for r in rows]

    async def finished_without_results(
        self, *, after_id: int = 0, limit: int = 100
    ) -> list[GameRecord]:
        return await self._game_records(
            "WHERE g.status = 'finished' AND g.id > ?"
            " AND NOT EXISTS (SELECT 1 FROM results r WHERE r.game_id = g.id) ORDER BY g.id",
            [after_id],
            limit=limit,
        )

    async def rebuild_ratings(self, rater: Rater, *, add: Sequence[ResultRow] = ()) -> int:
        async with self._transaction() as tx:
            await self._lock_all_ratings(tx)
            await _insert_results(tx, add, " ON CONFLICT (game_id, seat) DO NOTHING")
            rows = [ResultRow.from_row(r) for r in await tx.fetch("SELECT * FROM results")]
            await tx.execute("DELETE FROM ratings")
            await _save_ratings(tx, rate_in_order(rater, rows))
            return games_in(rows)

    async def _record_results(self, tx: S, rows: Sequence[ResultRow], rater: Rater | None) -> None:
        """Store a game's result rows and bring its pool's ratings up to date, under the
        pool's lock: rate the game on the ratings as they are, or, if a game of the pool
        that ended later is rated already, rate the whole pool again in end order (so the
        ratings stay what rating every result in end order gives)."""
        if rater is None:
            raise ValueError("results need a rater to keep the ratings")
        first = rows[0]
        pool = (first.guild_id, first.slug)
        await self._lock_pool(tx, *pool)
        await _insert_results(tx, rows)
        later = await tx.fetchrow(
            "SELECT 1 AS found FROM results WHERE guild_id = ? AND slug = ?"
            " AND (ended_at > ? OR (ended_at = ? AND game_id > ?)) LIMIT 1",
            *pool, first.ended_at, first.ended_at, first.game_id,
        )  # fmt: skip
        if later is not None:
            every = await tx.fetch("SELECT * FROM results WHERE guild_id = ? AND slug = ?", *pool)
            await tx.execute("DELETE FROM ratings WHERE guild_id = ? AND slug = ?", *pool)
            await _save_ratings(tx, rate_in_order(rater, [ResultRow.from_row(r) for r in every]))
            return
        among, params = self._any("user_id", sorted({row.user_id for row in rows}), "bigint")
        current = await tx.fetch(
            f"SELECT * FROM ratings WHERE guild_id = ? AND slug = ? AND {among}", *pool, *params
        )
        ratings = {r["user_id"]: RatingRow.from_row(r) for r in current}
        await _save_ratings(tx, rater(ratings, rows))


async def _insert_results(tx: Session, rows: Sequence[ResultRow], conflict: str = "") -> None:
    await tx.executemany(
        "INSERT INTO results (game_id, seat, guild_id, slug, user_id, role, rank, won,"
        f" ended_at, computer) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?){conflict}",
        [
            (r.game_id, r.seat, r.guild_id, r.slug, r.user_id, r.role, r.rank, bool(r.won),
             r.ended_at, r.computer)
            for r in rows
        ],
    )  # fmt: skip


async def _save_ratings(tx: Session, ratings: Iterable[RatingRow]) -> None:
    await tx.executemany(
        "INSERT INTO ratings (guild_id, slug, user_id, mu, sigma, games, wins)"
        " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id, slug, user_id) DO UPDATE"
        " SET mu = excluded.mu, sigma = excluded.sigma, games = excluded.games,"
        " wins = excluded.wins",
        [(r.guild_id, r.slug, r.user_id, r.mu, r.sigma, r.games, r.wins) for r in ratings],
    )
