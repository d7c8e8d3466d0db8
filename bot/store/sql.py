"""What the SQLite and PostgreSQL stores share: every statement that is the same in both
dialects, written once.

:class:`SqlStore` implements the :class:`~bot.store.Store` protocol (whose docstrings say
what each method promises) over a small execution layer each dialect provides: a
transaction and a lone statement, each handing out a :class:`Session` that runs
statements, and a read outside any transaction (``_reading``; a lone statement unless the
dialect keeps a connection for reads). Statements are written with ``?`` placeholders; the
PostgreSQL session numbers them (``$1``, ``$2``, ...). The few dialect words live in one
place each: the game query with its seats as JSON (``_GAMES``), a list parameter
(``_any``), the row lock a versioned answer takes (``_LOCK_ROW``), the error of a unique
key (``_DUPLICATE``), and how notices are stored (``_enqueue``). The tuned hot paths (an
action, the deadline queries, a lane's claim with its read, a send) are written per
dialect in ``sqlite.py`` and ``postgres.py``.

Sections follow the protocol's order.
"""

from __future__ import annotations

import json
import logging
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from bot.store.ratings import games_in, rate_in_order
from bot.store.records import (
    GAME_FIELDS,
    GAME_STATUSES,
    ActionRecord,
    DigestRow,
    GameRecord,
    GuildDataRecord,
    HeldCall,
    NewSeat,
    OfferRecord,
    OutboxEntry,
    Outgoing,
    Rater,
    RatingRow,
    ResultRow,
    StaleVersion,
    parse_calls,
)

log = logging.getLogger(__name__)

JSON_FIELDS = frozenset({"snapshot", "options", "timing"})
"""Game fields stored as JSON text."""
CLOCK_FIELDS = frozenset({"deadline", "remind_at", "status"})
"""Game fields whose change may make a game due sooner (or no longer due)."""
MESSAGE_COLUMNS = {"status": "status_message_id", "board": "board_message_id"}
USER_FACTS = frozenset({"notify", "calls", "dm_closed", "away_until"})
"""The columns of ``users`` set one at a time."""

CLAIM_LANE = (
    "INSERT INTO lanes (lane, owner, until) VALUES (?, ?, ?)"
    " ON CONFLICT (lane) DO UPDATE SET owner = excluded.owner, until = excluded.until"
    " WHERE lanes.owner = excluded.owner OR lanes.until <= ? RETURNING owner"
)
"""Claim (or renew) a lane for an owner until a time unless another owner's claim lasts
past now (lane, owner, until, now); a row back when claimed."""
PENDING = (
    "SELECT o.*, g.status_message_id AS status_message, g.board_message_id AS board_message"
    " FROM outbox o LEFT JOIN games g ON g.id = o.game_id"
)
"""Outbox rows with their games' message ids; a WHERE clause follows."""
WAITING = "o.sent_at IS NULL AND o.failed IS NULL"
"""An outbox row neither sent nor given up on."""


class Row(Protocol):
    """A row as both drivers hand it out, read by column name."""

    def __getitem__(self, key: str, /) -> Any: ...


class Session(Protocol):
    """One connection of a store's dialect, running statements written with ``?``."""

    async def fetch(self, sql: str, *args: Any) -> Sequence[Row]: ...

    async def fetchrow(self, sql: str, *args: Any) -> Row | None: ...

    async def fetchval(self, sql: str, *args: Any) -> Any: ...

    async def execute(self, sql: str, *args: Any) -> int:
        """Run a statement; how many rows it changed."""
        ...

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None: ...


S = TypeVar("S", bound=Session)


class _Released(Exception):
    """Held calls another process released first: the transaction is rolled back."""


class SqlStore(ABC, Generic[S]):
    """The store's statements over a dialect's sessions of type ``S``."""

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
    def _any(self, column: str, values: Sequence[Any], sql_type: str) -> tuple[str, list[Any]]:
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

    async def _fetch(self, sql: str, *args: Any) -> Sequence[Row]:
        async with self._one_statement() as session:
            return await session.fetch(sql, *args)

    async def _fetchrow(self, sql: str, *args: Any) -> Row | None:
        async with self._one_statement() as session:
            return await session.fetchrow(sql, *args)

    async def _fetchval(self, sql: str, *args: Any) -> Any:
        async with self._one_statement() as session:
            return await session.fetchval(sql, *args)

    async def _execute(self, sql: str, *args: Any) -> int:
        async with self._one_statement() as session:
            return await session.execute(sql, *args)

    async def _read(self, sql: str, *args: Any) -> Sequence[Row]:
        """The rows of a statement that writes nothing (see ``_reading``)."""
        async with self._reading() as session:
            return await session.fetch(sql, *args)

    async def _read_row(self, sql: str, *args: Any) -> Row | None:
        """The first row of a statement that writes nothing (see ``_reading``)."""
        async with self._reading() as session:
            return await session.fetchrow(sql, *args)

    async def _read_value(self, sql: str, *args: Any) -> Any:
        """The first value of a statement that writes nothing (see ``_reading``)."""
        async with self._reading() as session:
            return await session.fetchval(sql, *args)

    async def _game_records(
        self, where: str, params: Sequence[Any] = (), *, limit: int
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
        values: dict[str, Any],
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

    # -- games ---------------------------------------------------------------------------

    async def create_game(
        self,
        *,
        guild_id: int,
        channel_id: int,
        slug: str,
        host_id: int,
        players: int,
        options: dict[str, Any],
        seed: int,
        now: float,
        timing: dict[str, Any] | None = None,
        own_thread: bool = False,
        seats: Sequence[NewSeat] = (),
        notices: Sequence[Outgoing] | Callable[[int], Sequence[Outgoing]] = (),
        data: dict[str, Any] | None = None,
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
        params: list[Any] = []
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
        **fields: Any,
    ) -> int:
        values = game_values(fields)
        async with self._transaction() as tx:
            version, told = await self._bump(tx, game_id, expected_version, now, values, notices)
            await self._enqueue(tx, game_id, told, now, clock=moves_clock(values))
            return version

    # -- seats ---------------------------------------------------------------------------

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
        async with self._transaction() as tx:
            version, told = await self._bump(tx, game_id, expected_version, now, {}, notices)
            await tx.execute(
                'UPDATE seats SET "left" = true WHERE game_id = ? AND user_id = ?',
                game_id, user_id,
            )  # fmt: skip
            await self._enqueue(tx, game_id, told, now)
            return version

    async def remove_seats(
        self,
        game_id: int,
        expected_version: int,
        *,
        user_id: int,
        now: float,
        notices: Sequence[Outgoing] = (),
    ) -> int:
        async with self._transaction() as tx:
            version, told = await self._bump(tx, game_id, expected_version, now, {}, notices)
            await tx.execute(
                "DELETE FROM seats WHERE game_id = ? AND user_id = ?", game_id, user_id
            )
            await self._enqueue(tx, game_id, told, now)
            return version

    # -- the action log ------------------------------------------------------------------

    # append_action: per dialect, tuned.

    async def actions(self, game_id: int) -> list[ActionRecord]:
        rows = await self._read("SELECT * FROM actions WHERE game_id = ? ORDER BY seq", game_id)
        return [
            ActionRecord(
                r["game_id"], r["seq"], r["seat"], r["action"], json.loads(r["events"]),
                r["created_at"],
            )
            for r in rows
        ]  # fmt: skip

    async def acted_since(self, game_id: int, seats: list[int], seq: int) -> bool:
        if not seats:
            return False
        among, params = self._any("seat", seats, "integer")
        row = await self._read_row(
            f"SELECT 1 AS found FROM actions WHERE game_id = ? AND seq > ? AND {among} LIMIT 1",
            game_id, seq, *params,
        )  # fmt: skip
        return row is not None

    async def set_message(self, game_id: int, kind: str, message_id: int | None) -> None:
        column = MESSAGE_COLUMNS.get(kind)
        if column is None:
            raise ValueError(f"not a kind of message: {kind!r}")
        await self._execute(f"UPDATE games SET {column} = ? WHERE id = ?", message_id, game_id)

    # -- deadlines -----------------------------------------------------------------------

    # next_wakeup, due and claim_due: per dialect, tuned.

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

    # -- the outbox ----------------------------------------------------------------------

    async def enqueue(self, game_id: int, notices: Sequence[Outgoing], *, now: float) -> None:
        async with self._transaction() as tx:
            await self._enqueue(tx, game_id, notices, now)

    async def hold_call(
        self,
        entry_id: int,
        *,
        user_id: int,
        game_id: int,
        body: dict[str, Any],
        due_at: float,
        now: float,
    ) -> bool:
        async with self._transaction() as tx:
            taken = await tx.execute(
                "UPDATE outbox SET sent_at = ?"
                " WHERE id = ? AND sent_at IS NULL AND failed IS NULL",
                now, entry_id,
            )  # fmt: skip
            if taken != 1:
                return False
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

    async def set_digest(
        self, user_id: int, every: float | None, due_at: float, kind: str = "turns"
    ) -> None:
        if every is None:
            await self._execute("DELETE FROM digests WHERE user_id = ? AND kind = ?", user_id, kind)
            return
        await self._execute(
            "INSERT INTO digests (user_id, kind, every, due_at, seen) VALUES (?, ?, ?, ?, '')"
            " ON CONFLICT (user_id, kind) DO UPDATE SET every = excluded.every,"
            " due_at = excluded.due_at",
            user_id, kind, float(every), float(due_at),
        )  # fmt: skip

    async def next_digest(self) -> float | None:
        when = await self._read_value("SELECT min(due_at) FROM digests")
        return None if when is None else float(when)

    async def digests_due(self, now: float, limit: int = 200) -> list[DigestRow]:
        rows = await self._read(
            "SELECT user_id, kind, every, due_at, seen FROM digests"
            " WHERE due_at <= ? ORDER BY due_at, user_id, kind LIMIT ?",
            now, limit,
        )  # fmt: skip
        return [DigestRow.from_row(r) for r in rows]

    async def settle_digest(
        self,
        row: DigestRow,
        *,
        due_at: float,
        seen: str,
        game_id: int,
        notices: Sequence[Outgoing],
        now: float,
    ) -> bool:
        async with self._transaction() as tx:
            moved = await tx.execute(
                "UPDATE digests SET due_at = ?, seen = ?"
                " WHERE user_id = ? AND kind = ? AND due_at = ?",
                due_at, seen, row.user_id, row.kind, row.due_at,
            )  # fmt: skip
            if moved != 1:
                return False
            await self._enqueue(tx, game_id, notices, now)
            return True

    async def pending_notices(
        self, *, lanes: Sequence[str] | None = None, limit: int = 200
    ) -> list[OutboxEntry]:
        where, params = WAITING, list[Any]()
        if lanes is not None:
            if not lanes:
                return []
            among, params = self._any("o.lane", lanes, "text")
            where += f" AND {among}"
        rows = await self._read(f"{PENDING} WHERE {where} ORDER BY o.id LIMIT ?", *params, limit)
        return [OutboxEntry.from_row(r) for r in rows]

    # take_lane and mark_sent: per dialect, tuned.

    async def mark_superseded(self, entry_ids: Sequence[int], *, by: int, now: float) -> None:
        ids = list(entry_ids)
        for start in range(0, len(ids), 500):  # within every driver's count of parameters
            chunk = ids[start : start + 500]
            await self._execute(
                "UPDATE outbox SET sent_at = ?, superseded_by = ?"
                f" WHERE id IN ({', '.join('?' * len(chunk))})"
                " AND sent_at IS NULL AND failed IS NULL",
                now, by, *chunk,
            )  # fmt: skip

    async def note_shown(self, entry_id: int, shown: str) -> None:
        await self._execute("UPDATE outbox SET shown = ? WHERE id = ?", shown, entry_id)

    async def retry_later(self, entry_id: int, *, not_before: float) -> int:
        attempts = await self._fetchval(
            "UPDATE outbox SET attempts = attempts + 1, not_before = ? WHERE id = ?"
            " RETURNING attempts",
            not_before, entry_id,
        )  # fmt: skip
        return attempts or 0

    async def give_up(self, entry_id: int, *, reason: str) -> None:
        await self._execute(
            "UPDATE outbox SET failed = ? WHERE id = ? AND sent_at IS NULL",
            reason or "failed", entry_id,
        )  # fmt: skip

    async def claim_lane(self, lane: str, owner: str, now: float, lease_seconds: float) -> bool:
        claimed = await self._fetchrow(CLAIM_LANE, lane, owner, now + lease_seconds, now)
        return claimed is not None

    async def release_lane(self, lane: str, owner: str) -> None:
        await self._execute("DELETE FROM lanes WHERE lane = ? AND owner = ?", lane, owner)

    # -- users and server settings -------------------------------------------------------

    async def notify_choice(self, user_id: int) -> str:
        choice = await self._read_value("SELECT notify FROM users WHERE user_id = ?", user_id)
        return choice if choice is not None else "turns"

    async def set_notify_choice(self, user_id: int, choice: str) -> None:
        await self._set_user_fact(user_id, "notify", choice)

    async def calls(self, user_id: int) -> dict[str, str]:
        text = await self._read_value("SELECT calls FROM users WHERE user_id = ?", user_id)
        return parse_calls(text)

    async def set_calls(self, user_id: int, calls: Mapping[str, str]) -> None:
        await self._set_user_fact(user_id, "calls", json.dumps(dict(sorted(calls.items()))))

    async def dm_closed(self, user_id: int) -> bool:
        closed = await self._read_value("SELECT dm_closed FROM users WHERE user_id = ?", user_id)
        return bool(closed)

    async def set_dm_closed(self, user_id: int, closed: bool) -> None:
        await self._set_user_fact(user_id, "dm_closed", bool(closed))

    async def guild_setting(self, guild_id: int, key: str) -> str | None:
        value: str | None = await self._read_value(
            "SELECT value FROM guild_settings WHERE guild_id = ? AND key = ?", guild_id, key
        )
        return value

    async def set_guild_setting(self, guild_id: int, key: str, value: str) -> None:
        await self._execute(
            "INSERT INTO guild_settings (guild_id, key, value) VALUES (?, ?, ?)"
            " ON CONFLICT (guild_id, key) DO UPDATE SET value = excluded.value",
            guild_id, key, value,
        )  # fmt: skip

    # -- web pages ---------------------------------------------------------------------

    async def game_by_page(self, page: str) -> GameRecord | None:
        row = await self._read_row(f"{self._GAMES} WHERE g.page = ?", page)
        return GameRecord.with_seat_list(row) if row is not None else None

    async def set_page(self, game_id: int, page: str | None) -> bool:
        return await self._execute("UPDATE games SET page = ? WHERE id = ?", page, game_id) > 0

    async def clear_pages(self, guild_id: int) -> int:
        return await self._execute(
            "UPDATE games SET page = NULL WHERE guild_id = ? AND page IS NOT NULL", guild_id
        )

    async def versions(self, game_ids: Sequence[int]) -> dict[int, int]:
        if not game_ids:
            return {}
        among, params = self._any("id", list(game_ids), "bigint")
        rows = await self._read(f"SELECT id, version FROM games WHERE {among}", *params)
        return {row["id"]: row["version"] for row in rows}

    # -- private notes -----------------------------------------------------------------

    async def notes(self, user_id: int, game_ids: Sequence[int]) -> dict[int, str]:
        if not game_ids:
            return {}
        among, params = self._any("game_id", list(game_ids), "bigint")
        rows = await self._read(
            f"SELECT game_id, text FROM notes WHERE user_id = ? AND {among}", user_id, *params
        )
        return {row["game_id"]: row["text"] for row in rows}

    async def set_note(self, game_id: int, user_id: int, text: str | None, *, now: float) -> bool:
        if not text:
            await self._execute(
                "DELETE FROM notes WHERE game_id = ? AND user_id = ?", game_id, user_id
            )
            return True
        written = await self._execute(
            "INSERT INTO notes (game_id, user_id, text, updated_at)"
            " SELECT id, ?, ?, ? FROM games WHERE id = ?"
            " ON CONFLICT (game_id, user_id) DO UPDATE"
            " SET text = excluded.text, updated_at = excluded.updated_at",
            user_id, text, now, game_id,
        )  # fmt: skip
        return written == 1

    async def _set_user_fact(self, user_id: int, column: str, value: Any) -> None:
        """Set one of a user's facts (a column of ``users``), leaving the others as they are."""
        if column not in USER_FACTS:
            raise ValueError(f"not a user's fact: {column!r}")
        await self._execute(
            f"INSERT INTO users (user_id, {column}) VALUES (?, ?)"
            f" ON CONFLICT (user_id) DO UPDATE SET {column} = excluded.{column}",
            user_id, value,
        )  # fmt: skip

    # -- wake-ups and lifetime: per dialect -----------------------------------------------

    # -- offers waiting for answers ------------------------------------------------------

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

    # -- results and ratings -------------------------------------------------------------

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

    # -- a server's corrected data files -------------------------------------------------

    async def guild_data(self, guild_id: int) -> list[GuildDataRecord]:
        rows = await self._read(
            "SELECT * FROM guild_data WHERE guild_id = ? ORDER BY package, name", guild_id
        )
        return [GuildDataRecord.from_row(row) for row in rows]

    async def set_guild_data(
        self,
        guild_id: int,
        package: str,
        name: str,
        content: dict[str, Any],
        *,
        user_id: int,
        now: float,
    ) -> None:
        await self._execute(
            "INSERT INTO guild_data (guild_id, package, name, content, user_id, uploaded_at)"
            " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id, package, name) DO UPDATE"
            " SET content = excluded.content, user_id = excluded.user_id,"
            " uploaded_at = excluded.uploaded_at",
            guild_id, package, name, json.dumps(content), user_id, now,
        )  # fmt: skip

    async def clear_guild_data(self, guild_id: int, package: str | None = None) -> int:
        if package is None:
            return await self._execute("DELETE FROM guild_data WHERE guild_id = ?", guild_id)
        return await self._execute(
            "DELETE FROM guild_data WHERE guild_id = ? AND package = ?", guild_id, package
        )

    # -- watchers and time away ----------------------------------------------------------

    async def add_watcher(self, game_id: int, user_id: int, *, now: float) -> bool:
        added = await self._execute(
            "INSERT INTO watchers (game_id, user_id, since)"
            " SELECT id, ?, ? FROM games WHERE id = ? ON CONFLICT DO NOTHING",
            user_id, now, game_id,
        )  # fmt: skip
        return added == 1

    async def remove_watcher(self, game_id: int, user_id: int) -> bool:
        removed = await self._execute(
            "DELETE FROM watchers WHERE game_id = ? AND user_id = ?", game_id, user_id
        )
        return removed == 1

    async def watchers(self, game_id: int) -> list[int]:
        rows = await self._read(
            "SELECT user_id FROM watchers WHERE game_id = ? ORDER BY since, user_id", game_id
        )
        return [row["user_id"] for row in rows]

    async def watched_games(self, user_id: int) -> list[GameRecord]:
        return await self._game_records(
            "WHERE g.id IN (SELECT game_id FROM watchers WHERE user_id = ?)"
            " AND g.status IN ('lobby', 'running', 'paused') ORDER BY g.id DESC",
            (user_id,),
            limit=100,
        )

    async def away_until(self, user_id: int) -> float | None:
        until: float | None = await self._read_value(
            "SELECT away_until FROM users WHERE user_id = ?", user_id
        )
        return until

    async def set_away(self, user_id: int, until: float | None) -> None:
        await self._set_user_fact(user_id, "away_until", until)

    async def move_deadline(
        self,
        game_id: int,
        version: int,
        *,
        deadline: float | None,
        remind_at: float | None,
        now: float,
        notices: Sequence[Outgoing] = (),
        timing: dict[str, Any] | None = None,
        timing_was: dict[str, Any] | None = None,
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

    # -- rematches -----------------------------------------------------------------------

    async def rematch(self, game_id: int) -> int | None:
        found: int | None = await self._read_value(
            "SELECT id FROM games WHERE rematch_of = ?", game_id
        )
        return found

    # -- the turn's post -----------------------------------------------------------------

    async def recent_notices(self, game_id: int, lane: str, limit: int = 10) -> list[dict]:
        rows = await self._read(
            "SELECT body FROM outbox WHERE game_id = ? AND lane = ? ORDER BY id DESC LIMIT ?",
            game_id, lane, limit,
        )  # fmt: skip
        return [json.loads(row["body"]) for row in rows]


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


def game_values(fields: dict[str, Any]) -> dict[str, Any]:
    """The column values of game ``fields``, checked (ValueError for an unknown field or
    status) and converted (JSON to text) before anything is written."""
    unknown = set(fields) - GAME_FIELDS
    if unknown:
        raise ValueError(f"not a game field: {sorted(unknown)}")
    if "status" in fields and fields["status"] not in GAME_STATUSES:
        raise ValueError(f"not a game status: {fields['status']!r}")
    values: dict[str, Any] = {}
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


def bump_sql(values: dict[str, Any], *, also: str = "") -> str:
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


def moves_clock(values: dict[str, Any]) -> bool:
    """Whether a write setting ``values`` may make a game due sooner (or no longer due)."""
    return bool(CLOCK_FIELDS & values.keys())


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
