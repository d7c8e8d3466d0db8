"""``/leaderboard`` and ``/stats``, and rating every stored result again.

Both answers are public: ratings are no secret. They name people with a ``Mention`` in a
quiet reply (nobody is called by it) and computers by their level.
"""

from __future__ import annotations

import logging
from collections import Counter
from dataclasses import dataclass

from bot.service.community import ratings
from bot.service.errors import UserError
from bot.service.notices import Reply
from bot.service.tables import engine_for, table_from
from bot.service.text import Mention, Text
from bot.store import GameRecord, RatingRow, RatingStore, ResultRow
from games import SPECS

log = logging.getLogger(__name__)

SHOWN = 10
"""Places a leaderboard shows."""

PAGE = 200
"""Finished games read at a time when adding the results of games that ended before
results were kept."""


@dataclass(frozen=True)
class Recomputed:
    """What rating every result again did."""

    games: int
    """Games whose results are rated."""
    added: int
    """Games that ended before results were kept, whose results were added from their
    final state."""
    unreadable: tuple[int, ...]
    """Finished games whose result could not be read (left unrated)."""


class Standings:
    """``/leaderboard``, ``/stats``, and recomputing every rating from the results."""

    def __init__(self, store: RatingStore) -> None:
        self._store = store

    async def leaderboard(
        self, *, guild_id: int | None, user_id: int, game: str, **_: object
    ) -> Reply:
        """The server's best ten in ``game`` (rating, games, wins), and the asker's own
        place when it is lower."""
        engine = engine_for(game)
        pool = ratings.ranked(await self._store.ratings(guild_id=_server(guild_id), slug=game))
        if not pool:
            return Reply(
                Text.of(
                    f"Nobody has finished a game of {engine.title} on this server yet, so "
                    f"there are no ratings. Start one with `/game new game:{game}`."
                ),
            )
        lines = [_place(n, rating) for n, rating in enumerate(pool[:SHOWN], start=1)]
        mine = next((n for n, r in enumerate(pool, start=1) if r.user_id == user_id), None)
        if mine is not None and mine > SHOWN:
            lines.append(Text.of("…\n") + _place(mine, pool[mine - 1]))
        head = f"🏆 **{engine.title}: ratings on this server** ({len(pool)} rated)\n"
        return Reply(Text.of(head) + Text.of("\n").join(lines), private=False, quiet=True)

    async def stats(
        self, *, guild_id: int | None, user_id: int, target: int | None = None, **_: object
    ) -> Reply:
        """A player's games, wins, rating and roles played, per game, on this server
        (``target``, else the asker)."""
        server, who = _server(guild_id), target or user_id
        results = await self._store.player_results(guild_id=server, user_id=who)
        if not results:
            whom = "You have" if who == user_id else Text.of(Mention(who), " has")
            return Reply(
                Text.of(whom, " not finished a game on this server yet; `/game list` shows "
                        "the games open here."),
                quiet=True,
            )  # fmt: skip
        rated = {r.slug: r for r in await self._store.player_ratings(guild_id=server, user_id=who)}
        blocks = [
            _game_stats(slug, [r for r in results if r.slug == slug], rated.get(slug))
            for slug in SPECS
            if any(r.slug == slug for r in results)
        ]
        head = Text.of("📊 ", Mention(who), " on this server\n")
        return Reply(head + Text.of("\n").join(blocks), private=False, quiet=True)

    async def recompute_ratings(self) -> Recomputed:
        """Rate every stored result again from nothing, in end order, after adding the
        results of finished games that have none (they ended before results were kept:
        their result is read from their final state, ended when they were last written)."""
        added: list[ResultRow] = []
        unreadable: list[int] = []
        last = 0
        while page := await self._store.finished_without_results(after_id=last, limit=PAGE):
            for record in page:
                rows = _final_results(record)
                if rows is None:
                    unreadable.append(record.id)
                added += rows or []
            last = page[-1].id
        games = await self._store.rebuild_ratings(ratings.rate, add=added)
        count = len({row.game_id for row in added})
        return Recomputed(games=games, added=count, unreadable=tuple(unreadable))


def _server(guild_id: int | None) -> int:
    if guild_id is None:
        raise UserError("Ratings are kept per server: ask in a server's channel.")
    return guild_id


def _final_results(record: GameRecord) -> list[ResultRow] | None:
    """A finished game's result rows from its stored final state; None if it cannot be
    read or has no result."""
    try:
        table = table_from(record)
    except UserError:  # its snapshot is damaged, or its game is no longer hosted
        log.warning("game %s cannot be read; its result is not rated", record.id)
        return None
    result = table.engine.result(table.state) if table.state is not None else None
    if result is None or len(record.seats) < 2:
        return None
    return ratings.results_of(record, result, record.updated_at)


def _who(user_id: int) -> Text:
    level = ratings.LEVELS.get(user_id)
    return Text.of(f"🤖 {level}") if level else Text.of(Mention(user_id))


def _rating(rating: RatingRow) -> str:
    return f"**{round(ratings.ordinal(rating))}** (μ {rating.mu:.1f} ± {rating.sigma:.1f})"


def _place(place: int, rating: RatingRow) -> Text:
    games = f"{rating.games} game{'s' if rating.games != 1 else ''}"
    wins = f"{rating.wins} win{'s' if rating.wins != 1 else ''}"
    return Text.of(f"{place}. ", _who(rating.user_id), f": {_rating(rating)} · {games}, {wins}")


def _game_stats(slug: str, results: list[ResultRow], rating: RatingRow | None) -> str:
    """One game's line of ``/stats``: finished games, wins, rating, roles with counts."""
    engine = SPECS[slug].engine
    games = len({r.game_id for r in results})
    wins = len({r.game_id for r in results if r.won})
    names = role_names(slug)
    roles = Counter(names.get(r.role, r.role) for r in results)
    played = ", ".join(f"{name} ×{count}" for name, count in roles.most_common())
    shown = _rating(rating) if rating is not None else "not rated yet"
    return (
        f"**{engine.title}**: {games} game{'s' if games != 1 else ''}, "
        f"{wins} win{'s' if wins != 1 else ''} · rating {shown} · played {played}"
    )


def role_names(slug: str) -> dict[str, str]:
    """Every role key of the game with its name, over every table size it is played at."""
    engine = SPECS[slug].engine
    names: dict[str, str] = {}
    for players in range(engine.min_players, engine.max_players + 1):
        names.update({role.key: role.name for role in engine.roles(players, {})})
    return names
