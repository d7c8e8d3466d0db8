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
from bot.service.tables import engine_for, level_word, table_from
from bot.service.text import Mention, Text, said, said_plural
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
                said(
                    "Nobody has finished a game of {game} on this server yet, so there are no "
                    "ratings. Start one with `/game new game:{slug}`.",
                    game=engine.title,
                    slug=game,
                )
            )
        lines = [_place(n, rating) for n, rating in enumerate(pool[:SHOWN], start=1)]
        mine = next((n for n, r in enumerate(pool, start=1) if r.user_id == user_id), None)
        if mine is not None and mine > SHOWN:
            lines.append(Text.of("…\n") + _place(mine, pool[mine - 1]))
        head = said_plural(
            "**{game}: ratings on this server** ({count} rated)",
            "**{game}: ratings on this server** ({count} rated)",
            len(pool),
            game=engine.title,
        )
        text = Text.of("🏆 ", head, "\n", Text.of("\n").join(lines))
        return Reply(text, private=False, quiet=True)

    async def stats(
        self, *, guild_id: int | None, user_id: int, target: int | None = None, **_: object
    ) -> Reply:
        """A player's games, wins, rating and roles played, per game, on this server
        (``target``, else the asker)."""
        server, who = _server(guild_id), target or user_id
        results = await self._store.player_results(guild_id=server, user_id=who)
        if not results:
            if who == user_id:
                none_yet = said(
                    "You have not finished a game on this server yet; `/game list` shows the "
                    "games open here."
                )
            else:
                none_yet = said(
                    "{player} has not finished a game on this server yet; `/game list` shows "
                    "the games open here.",
                    player=Mention(who),
                )
            return Reply(none_yet, quiet=True)
        rated = {r.slug: r for r in await self._store.player_ratings(guild_id=server, user_id=who)}
        blocks = [
            _game_stats(slug, [r for r in results if r.slug == slug], rated.get(slug))
            for slug in SPECS
            if any(r.slug == slug for r in results)
        ]
        head = Text.of("📊 ", said("{player} on this server", player=Mention(who)), "\n")
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
        raise UserError(said("Ratings are kept per server: ask in a server's channel."))
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
    return Text.of("🤖 ", level_word(level)) if level else Text.of(Mention(user_id))


def _rating(rating: RatingRow) -> str:
    return f"**{round(ratings.ordinal(rating))}** (μ {rating.mu:.1f} ± {rating.sigma:.1f})"


def _place(place: int, rating: RatingRow) -> Text:
    return Text.of(
        f"{place}. ", _who(rating.user_id), f": {_rating(rating)} · ",
        _games(rating.games), ", ", _wins(rating.wins),
    )  # fmt: skip


def _games(count: int) -> Text:
    return said_plural("{count} game", "{count} games", count)


def _wins(count: int) -> Text:
    return said_plural("{count} win", "{count} wins", count)


def _game_stats(slug: str, results: list[ResultRow], rating: RatingRow | None) -> Text:
    """One game's line of ``/stats``: finished games, wins, rating, roles with counts."""
    engine = SPECS[slug].engine
    games = len({r.game_id for r in results})
    wins = len({r.game_id for r in results if r.won})
    names = role_names(slug)
    roles = Counter(names.get(r.role, r.role) for r in results)
    played = ", ".join(f"{name} ×{count}" for name, count in roles.most_common())
    return said(
        "**{game}**: {games}, {wins} · rating {rating} · played {roles}",
        game=engine.title,
        games=_games(games),
        wins=_wins(wins),
        rating=_rating(rating) if rating is not None else said("not rated yet"),
        roles=played,
    )


def role_names(slug: str) -> dict[str, str]:
    """Every role key of the game with its name, over every table size it is played at."""
    engine = SPECS[slug].engine
    names: dict[str, str] = {}
    for players in range(engine.min_players, engine.max_players + 1):
        names.update({role.key: role.name for role in engine.roles(players, {})})
    return names
