"""What both stores share in keeping ratings: rating a pool's games in end order.

A *pool* is one server's games of one kind (``guild_id``, ``slug``); each pool's ratings
come from its own results alone. Games are rated in end order, by ``ended_at`` and then
``game_id``, each through the application's :data:`~bot.store.records.Rater`, so rating
the stored results again from nothing gives exactly the ratings kept as games ended.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import groupby

from bot.store.records import Rater, RatingRow, ResultRow


def end_order(row: ResultRow) -> tuple[int, str, float, int, int]:
    """The sort key that puts result rows in rating order (pool, end, game, seat)."""
    return (row.guild_id, row.slug, row.ended_at, row.game_id, row.seat)


def rate_in_order(rater: Rater, rows: Iterable[ResultRow]) -> list[RatingRow]:
    """The ratings that rating the games of ``rows`` one after another in end order gives,
    starting from nobody rated; every pool apart."""
    pools: dict[tuple[int, str], dict[int, RatingRow]] = {}
    games = groupby(sorted(rows, key=end_order), key=lambda r: (r.guild_id, r.slug, r.game_id))
    for (guild_id, slug, _), seats in games:
        pool = pools.setdefault((guild_id, slug), {})
        for rating in rater(pool, list(seats)):
            pool[rating.user_id] = rating
    return [rating for pool in pools.values() for rating in pool.values()]


def games_in(rows: Iterable[ResultRow]) -> int:
    """How many games ``rows`` are the results of."""
    return len({row.game_id for row in rows})
