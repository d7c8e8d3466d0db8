"""The execution layer every concern's statements run on, and what they share: the game
query, the version bump, and a game's fields checked and converted."""

from __future__ import annotations

import json
import logging
from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from bot.store.records import (
    GAME_FIELDS,
    GAME_STATUSES,
    GameRecord,
    Outgoing,
    Row,
    StaleVersion,
)

log = logging.getLogger(__name__)

JSON_FIELDS = frozenset({"snapshot", "options", "timing"})
"""Game fields stored as JSON text."""


CLOCK_FIELDS = frozenset({"deadline", "remind_at", "status"})
"""Game fields whose change may make a game due sooner (or no longer due)."""


MESSAGE_COLUMNS = {"status": "status_message_id", "board": "board_message_id"}


class Session(Protocol):
    """One connection of a store's dialect, running statements written with ``?``."""

    async def fetch(self, sql: str, *args: object) -> Sequence[Row]: ...

    async def fetchrow(self, sql: str, *args: object) -> Row | None: ...

    async def fetchval(self, sql: str, *args: object) -> Any: ...

    async def execute(self, sql: str, *args: object) -> int:
        """Run a statement; how many rows it changed."""
        ...

    async def executemany(self, sql: str, rows: Iterable[Sequence[object]]) -> None: ...


S = TypeVar("S", bound=Session)


class SqlBase(ABC, Generic[S]):
    """A store's execution layer over a dialect's sessions of type ``S``, which every
    concern's statements run on."""

    _GAMES: ClassVar[str]
    """A game row with its seats (each with its player's notify choice and time away) and
    its watchers as the JSON lists ``seat_list`` and ``watcher_list``, and the offer made at
    its version as the JSON object ``open_offer`` (NULL when none waits), in one statement,
    ``FROM games g``: everything a turn's notices need. A WHERE clause may follow."""
    _LOCK_ROW: ClassVar[str]
    """What locks the game row read before answering an offer, until the transaction ends
    (nothing where a write transaction holds the whole database)."""
    _DUPLICATE: ClassVar[type[Exception]]
    """The driver's error for a row breaking a unique key."""

    # -- the execution layer -------------------------------------------------------------

    @abstractmethod
    def _transaction(self) -> AbstractAsyncContextManager[S]:
        """One write transaction: committed at the end, rolled back if anything raises; a
        lock waited for past the busy timeout raises StoreBusy."""

    @abstractmethod
    def _one_statement(self) -> AbstractAsyncContextManager[S]:
        """A session for one statement, which is its own transaction."""

    def _reading(self) -> AbstractAsyncContextManager[S]:
        """A session for one statement that only reads, outside any transaction: it sees
        what was committed last. A dialect with a connection of its own for reads hands that
        out, so a read never waits for a write lock; by default, a lone statement."""
        return self._one_statement()

    @abstractmethod
    def _any(
        self, column: str, values: Sequence[object], sql_type: str
    ) -> tuple[str, list[object]]:
        """A condition that ``column`` is one of ``values`` (of SQL type ``sql_type``),
        and its parameters."""

    @abstractmethod
    async def _enqueue(
        self, tx: S, game_id: int, notices: Sequence[Outgoing], now: float, *, clock: bool = False
    ) -> None:
        """Store ``notices`` in the outbox within ``tx``, in order; ``clock``: the write
        also moved a deadline."""

    async def _lock_pool(self, tx: S, guild_id: int, slug: str) -> None:
        """Keep games of one rating pool ending at once from rating side by side."""

    async def _lock_all_ratings(self, tx: S) -> None:
        """Keep every game ending from rating while all ratings are rebuilt."""

    async def _fetch(self, sql: str, *args: object) -> Sequence[Row]:
        async with self._one_statement() as session:
            return await session.fetch(sql, *args)

    async def _fetchrow(self, sql: str, *args: object) -> Row | None:
        async with self._one_statement() as session:
            return await session.fetchrow(sql, *args)

    async def _fetchval(self, sql: str, *args: object) -> Any:
        async with self._one_statement() as session:
            return await session.fetchval(sql, *args)

    async def _execute(self, sql: str, *args: object) -> int:
        async with self._one_statement() as session:
            return await session.execute(sql, *args)

    async def _read(self, sql: str, *args: object) -> Sequence[Row]:
        """The rows of a statement that writes nothing (see ``_reading``)."""
        async with self._reading() as session:
            return await session.fetch(sql, *args)

    async def _read_row(self, sql: str, *args: object) -> Row | None:
        """The first row of a statement that writes nothing (see ``_reading``)."""
        async with self._reading() as session:
            return await session.fetchrow(sql, *args)

    async def _read_value(self, sql: str, *args: object) -> Any:
        """The first value of a statement that writes nothing (see ``_reading``)."""
        async with self._reading() as session:
            return await session.fetchval(sql, *args)

    async def _game_records(
        self, where: str, params: Sequence[object] = (), *, limit: int
    ) -> list[GameRecord]:
        """At most ``limit`` of the games ``where`` selects (and orders), each with its
        seats, leaving out (and logging) a row whose JSON cannot be read. Each read is one
        statement; one that met such a row is read again with room for as many more."""
        wanted = limit
        while True:
            rows = await self._read(f"{self._GAMES} {where} LIMIT ?", *params, wanted)
            records = readable_records(rows)
            if len(records) >= limit or len(rows) < wanted:
                return records[:limit]
            wanted += limit - len(records)

    async def _bump(
        self,
        tx: S,
        game_id: int,
        expected_version: int,
        now: float,
        values: dict[str, object],
        notices: Sequence[Outgoing],
    ) -> tuple[int, list[Outgoing]]:
        """Check the version, bump it and set ``values``: the new version and the notices
        to store with the write (``notices``, after the lapse of an offer the bump moved
        past unsettled, see :func:`with_lapse`); StaleVersion if the game is missing or
        has moved on."""
        bumped = await tx.fetchrow(
            bump_sql(values), now, *values.values(), game_id, expected_version
        )
        if bumped is None:
            raise StaleVersion(game_id)
        return int(bumped["version"]), with_lapse(bumped, expected_version, notices)


def readable_records(rows: Iterable[Row]) -> list[GameRecord]:
    """The games of rows read with :attr:`SqlStore._GAMES`, leaving out (and logging) a
    row whose JSON cannot be read."""
    records = []
    for row in rows:
        try:
            records.append(GameRecord.with_seat_list(row))
        except ValueError:
            log.warning("game %s cannot be read (damaged JSON); left out", row["id"])
    return records


def game_values(fields: dict[str, object]) -> dict[str, object]:
    """The column values of game ``fields``, checked (ValueError for an unknown field or
    status) and converted (JSON to text) before anything is written."""
    unknown = set(fields) - GAME_FIELDS
    if unknown:
        raise ValueError(f"not a game field: {sorted(unknown)}")
    if "status" in fields and fields["status"] not in GAME_STATUSES:
        raise ValueError(f"not a game status: {fields['status']!r}")
    values: dict[str, object] = {}
    for name, value in fields.items():
        if name == "snapshot" and value is None:
            values[name] = None
        elif name in JSON_FIELDS:
            values[name] = json.dumps(value)
        elif name == "own_thread":
            values[name] = bool(value)
        else:
            values[name] = value
    return values


def bump_sql(values: dict[str, object], *, also: str = "") -> str:
    """The version bump setting ``values``: its parameters are the time, the values, the
    game id and the expected version. It changes one row, or none if the game is missing or
    has moved on (or ``also``, a condition on the row, does not hold); that row's new
    ``version`` comes back, with the offer waiting at the old one (``offer_version``,
    ``offer_lapse``) for :func:`with_lapse`. The offer is read from the row bumped, not
    from ``offers``: a statement that waited for the row to be unlocked reads the row as
    it is now, but other tables as they were when the statement began."""
    assignments = "".join(f", {name} = ?" for name in values)
    return (
        f"UPDATE games SET version = version + 1, updated_at = ?{assignments}"
        f" WHERE id = ? AND version = ?{also} RETURNING version, offer_version, offer_lapse"
    )


def with_lapse(bumped: Row, expected_version: int, notices: Sequence[Outgoing]) -> list[Outgoing]:
    """The notices a write that bumped the game from ``expected_version`` (its row as the
    bump returned it) stores: ``notices``, after the lapse notice of the offer that was
    waiting at that version, unless one of ``notices`` settles that offer itself (the
    writer read the game with the offer in it) or the offer was made with no lapse
    notice."""
    if bumped["offer_version"] != expected_version or bumped["offer_lapse"] is None:
        return list(notices)
    if any(n.settles == expected_version for n in notices):
        return list(notices)
    lapse = json.loads(bumped["offer_lapse"])
    return [Outgoing(lapse["lane"], lapse["body"], expected_version), *notices]


def moves_clock(values: dict[str, object]) -> bool:
    """Whether a write setting ``values`` may make a game due sooner (or no longer due)."""
    return bool(CLOCK_FIELDS & values.keys())
