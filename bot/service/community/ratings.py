"""Ratings: what a finished game's result means for each seat, and the rating model.

**Pools.** Ratings are kept per server and per game (a *pool*): a St. George rating says
nothing about Lions and Dragons, and each server ranks its own players.

**Standings.** Each seat is rated as its own side, because every engine names its
winners seat by seat (``Result.winners``): in St. George and the Dragon one castle's
holder wins alone ("St. George wins"), not the Knights together, so the other Knights
lose with the Dragon; in Dragon's Cave and Dragonslayer the richest seats win; in Lions
and Dragons one of the two sides wins. So the winners share rank 1 and every other seat
rank 2; a game with no winners (a draw, agreed or reached on the board) ranks all seats
equal. A resignation or a forfeit is a result like any other (the engine's forfeit rule
decides it); a cancelled game has no result and is never rated.

**Computers.** A computer seat is rated as one pseudo-player per level ("🤖 strong",
"🤖 easy") in the same pool as people, so people can measure themselves against it: its
results carry the level's fixed negative key (:data:`COMPUTER_KEYS`) as ``user_id``.

**One player on several seats** (one person at every seat, or two computers of one
level at one table) is not rated by that game: it played itself. Its seats still count
as opponents for the others, at its rating before the game.

**The model** is openskill's Plackett-Luce with its defaults (mu 25, sigma 25/3), which
rates any number of sides with ties. A rating is shown as its ordinal, mu - 3 sigma (0
for a new player), the conservative estimate openskill ranks by.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from openskill.models import PlackettLuce

from bot.store import GameRecord, RatingRow, ResultRow
from engines.base import Result

MODEL = PlackettLuce()
"""The rating model; its parameters are part of what makes ratings repeatable."""

COMPUTER_KEYS = {"easy": -1000, "strong": -1001}
"""The ``user_id`` under which each computer level is rated (people's ids are positive;
a computer seat's own id, ``-1 - seat``, differs per seat, so it is not used)."""

LEVELS = {key: level for level, key in COMPUTER_KEYS.items()}
"""The computer level rated under a negative key."""


def player_key(user_id: int, computer: str | None) -> int:
    """Who a seat is in the ratings: the person, or the computer's level."""
    if computer is None:
        return user_id
    return COMPUTER_KEYS.get(computer, COMPUTER_KEYS["strong"])


def results_of(record: GameRecord, result: Result, ended_at: float) -> list[ResultRow]:
    """One result row per seat of the finished game ``record`` (its seats as stored)."""
    winners = set(result.winners)
    return [
        ResultRow(
            game_id=record.id, seat=seat.seat, guild_id=record.guild_id, slug=record.slug,
            user_id=player_key(seat.user_id, seat.computer), role=seat.role,
            rank=1 if not winners or seat.seat in winners else 2,
            won=seat.seat in winners, ended_at=ended_at, computer=seat.computer,
        )
        for seat in sorted(record.seats, key=lambda s: s.seat)
    ]  # fmt: skip


def rate(current: Mapping[int, RatingRow], rows: Sequence[ResultRow]) -> list[RatingRow]:
    """The new ratings one game gives (a :data:`bot.store.Rater`): each seat a side, ranked
    by its row; players seated more than once are not rated (see the module)."""
    if len(rows) < 2:
        return []
    first = rows[0]
    seated = Counter(row.user_id for row in rows)
    before = {
        row.user_id: current.get(row.user_id) or new_rating(first.guild_id, first.slug, row.user_id)
        for row in rows
    }
    sides = [[MODEL.rating(before[r.user_id].mu, before[r.user_id].sigma)] for r in rows]
    after = MODEL.rate(sides, ranks=[float(row.rank) for row in rows])
    rated = []
    for row, [rating] in zip(rows, after, strict=True):
        if seated[row.user_id] != 1:
            continue
        old = before[row.user_id]
        rated.append(
            RatingRow(
                old.guild_id, old.slug, old.user_id, rating.mu, rating.sigma,
                old.games + 1, old.wins + int(row.won),
            )
        )  # fmt: skip
    return rated


def new_rating(guild_id: int, slug: str, user_id: int) -> RatingRow:
    """A player's rating before their first game in the pool."""
    return RatingRow(guild_id, slug, user_id, MODEL.mu, MODEL.sigma, 0, 0)


def ordinal(rating: RatingRow) -> float:
    """The rating as one number: mu - 3 sigma (openskill's ordinal), 0 to begin with."""
    return MODEL.rating(rating.mu, rating.sigma).ordinal()


def ranked(ratings: Sequence[RatingRow]) -> list[RatingRow]:
    """A pool's ratings best first: by ordinal, then more games, then lower key."""
    return sorted(ratings, key=lambda r: (-ordinal(r), -r.games, r.user_id))
