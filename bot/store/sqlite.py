"""SQLite store through aiosqlite: WAL, foreign keys, one lock-guarded writer.

It implements :class:`bot.store.Store`, whose docstrings say what each method promises.
Every write is one transaction. Writes that change a game check its ``version`` and bump
it, so a stale button, a double click or a second process finds the version moved and
gets :class:`~bot.store.StaleVersion` instead of applying anything twice.
"""

from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiosqlite

from bot.store.migrations import MIGRATIONS
from bot.store.ratings import games_in, rate_in_order
from bot.store.records import (
    GAME_FIELDS,
    GAME_STATUSES,
    ActionRecord,
    GameRecord,
    GuildDataRecord,
    NewerDatabase,
    NewSeat,
    OfferRecord,
    OutboxEntry,
    Outgoing,
    Rater,
    RatingRow,
    ResultRow,
    StaleVersion,
    StoreBusy,
)

_JSON_FIELDS = {"snapshot", "options", "timing"}
_READABLE = (
    "json_valid(options) AND json_valid(timing)"
    " AND (snapshot IS NULL OR snapshot = '' OR json_valid(snapshot))"
)
"""A game row whose JSON can be read: the deadline queries pass over the others."""
_DUE = (
    # Two index searches, so only the due games are read and sorted.
    "id IN (SELECT id FROM games WHERE deadline <= ? AND deadline IS NOT NULL"
    " UNION SELECT id FROM games WHERE remind_at <= ? AND remind_at IS NOT NULL)"
    f" AND status = 'running' AND {_READABLE}"
)
"""Running, readable games whose deadline or reminder has come (``now`` twice)."""
_EARLIEST = "MIN(COALESCE(deadline, remind_at), COALESCE(remind_at, deadline)), id"

log = logging.getLogger(__name__)
_MESSAGE_COLUMNS = {"status": "status_message_id", "board": "board_message_id"}
_GAMES = (
    "SELECT g.*, (SELECT json_group_array(json_object("
    "'seat', s.seat, 'role', s.role, 'user_id', s.user_id, 'name', s.name,"
    " 'left', s.\"left\", 'computer', s.computer, 'notify', u.notify,"
    " 'away_until', u.away_until))"
    " FROM seats s LEFT JOIN users u ON u.user_id = s.user_id WHERE s.game_id = g.id)"
    " AS seat_list,"
    " (SELECT json_group_array(user_id) FROM (SELECT w.user_id FROM watchers w"
    "  WHERE w.game_id = g.id ORDER BY w.since, w.user_id)) AS watcher_list"
    " FROM games g"
)
"""A game row with all its seats (each with its player's notify choice and time away) and
its watchers as JSON lists, in one statement: everything a turn's notices need. A WHERE
clause may follow (on the game's own columns)."""


class SqliteStore:
    """Games, seats, actions and settings in one SQLite file (or ``":memory:"``)."""

    def __init__(self, db: aiosqlite.Connection) -> None:
        self._db = db
        # One connection serves every coroutine; the lock keeps their transactions apart.
        self._lock = asyncio.Lock()

    @classmethod
    async def open(cls, path: str | Path, *, busy_timeout: float = 5.0) -> SqliteStore:
        """The store in the SQLite file ``path`` (made with its folder if missing, or
        ``":memory:"``), its schema migrated to the newest version.

        A database written by a newer release is refused with
        :class:`~bot.store.NewerDatabase` before anything is written. A write that waits
        more than ``busy_timeout`` seconds for another writer raises
        :class:`~bot.store.StoreBusy`, writing nothing.
        """
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        db = await aiosqlite.connect(str(path), isolation_level=None)
        try:
            await _refuse_newer(db, str(path))
            db.row_factory = aiosqlite.Row
            pragmas = ("journal_mode = WAL", f"busy_timeout = {round(busy_timeout * 1000)}")
            for pragma in (*pragmas, "foreign_keys = ON"):
                await _run(db, f"PRAGMA {pragma}")
            store = cls(db)
            await store._migrate(str(path))
        except BaseException:
            await db.close()
            raise
        return store

    async def subscribe(self, callback: Callable[[str], None]) -> None:
        """Nothing to hear: an SQLite file is one process's, whose host pokes its own
        scheduler and outbox."""
        return None

    async def close(self) -> None:
        await self._db.close()  # aiosqlite: a second close does nothing

    async def _migrate(self, path: str = "the database") -> None:
        current = await _refuse_newer(self._db, path)
        for number, script in enumerate(MIGRATIONS[current:], start=current + 1):
            async with self._transaction():
                for statement in _statements(script):
                    await _run(self._db, statement)
                await _run(self._db, f"PRAGMA user_version = {number}")

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """One write transaction; a database held by another writer past the busy timeout
        raises StoreBusy, with everything rolled back."""
        async with self._lock:
            try:
                await _run(self._db, "BEGIN IMMEDIATE")
            except sqlite3.OperationalError as error:
                if _is_busy(error):
                    raise StoreBusy(str(error)) from error
                raise
            try:
                yield self._db
                await _run(self._db, "COMMIT")
            except BaseException as error:
                if self._db.in_transaction:
                    await _run(self._db, "ROLLBACK")
                if isinstance(error, sqlite3.OperationalError) and _is_busy(error):
                    raise StoreBusy(str(error)) from error
                raise

    @asynccontextmanager
    async def _autocommit(self) -> AsyncIterator[aiosqlite.Connection]:
        """The connection for statements that are each a transaction by themselves (SQLite
        commits a lone statement on its own: one trip to the database thread instead of
        three), kept out of other coroutines' transactions by the lock. A database held by
        another writer past the busy timeout raises StoreBusy, the statement undone."""
        async with self._lock:
            try:
                yield self._db
            except sqlite3.OperationalError as error:
                if _is_busy(error):
                    raise StoreBusy(str(error)) from error
                raise

    async def _in_one_trip(self, work: Callable[..., Any], *args: Any) -> Any:
        """``work(connection, *args)`` run in the database thread in one trip, kept out of
        other coroutines' transactions by the lock; busy past the timeout is StoreBusy.

        aiosqlite runs every call of its own through ``Connection._execute`` (the queue
        to its thread); a transaction of several statements goes through it once here,
        since each trip costs the event loop a wake-up from another thread."""
        async with self._lock:
            try:
                return await self._db._execute(work, self._db._conn, *args)
            except sqlite3.OperationalError as error:
                if _is_busy(error):
                    raise StoreBusy(str(error)) from error
                raise

    async def _fetchall(self, sql: str, params: Iterable[Any] = ()) -> list[aiosqlite.Row]:
        async with self._lock:
            return await _rows(self._db, sql, params)

    async def _game_records(
        self, sql: str, params: Iterable[Any] = (), *, skip_unreadable: bool = True
    ) -> list[GameRecord]:
        """The games ``sql`` selects (it starts with :data:`_GAMES`), each with its seats,
        read in one statement so a record's seats always belong to its version. A row that
        cannot be read (damaged JSON) is left out and logged, or, with
        ``skip_unreadable=False``, raises ValueError."""
        async with self._lock:
            rows = await _rows(self._db, sql, params)
        return _records(rows, skip_unreadable=skip_unreadable)

    # -- games -------------------------------------------------------------------------

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
    ) -> int:
        """A new game in the lobby with ``seats`` taken; returns its id. Each seat counts as
        one write, as if it were taken by :meth:`add_seat` after the game was opened.
        StaleVersion if ``rematch_of`` has a rematch already."""
        async with self._transaction() as db:
            [(game_id,)] = await _rows(
                db,
                "INSERT INTO games (guild_id, channel_id, slug, status, host_id, players,"
                " options, seed, timing, own_thread, version, created_at, updated_at, data)"
                " VALUES (?, ?, ?, 'lobby', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
                (
                    guild_id, channel_id, slug, host_id, players, json.dumps(options), seed,
                    json.dumps(timing or {}), int(own_thread), len(seats), now, now,
                    json.dumps(data or {}),
                ),
            )  # fmt: skip
            if rematch_of is not None:
                try:
                    await _run(
                        db, "UPDATE games SET rematch_of = ? WHERE id = ?", (rematch_of, game_id)
                    )
                except sqlite3.IntegrityError as error:  # the unique index: one rematch
                    raise StaleVersion(rematch_of) from error
            for seat in seats:
                await _run(
                    db,
                    "INSERT INTO seats (game_id, role, seat, user_id, name, computer) "
                    "VALUES (?, ?, ?, ?, ?, ?)",
                    (game_id, seat.role, seat.seat, seat.user_id, seat.name, seat.computer),
                )
            await _enqueue(db, game_id, notices(game_id) if callable(notices) else notices, now)
            return game_id

    async def get_game(self, game_id: int) -> GameRecord | None:
        records = await self._game_records(
            f"{_GAMES} WHERE id = ?", (game_id,), skip_unreadable=False
        )
        return records[0] if records else None

    async def games(
        self,
        *,
        guild_id: int | None = None,
        channel_id: int | None = None,
        user_id: int | None = None,
        active_only: bool = True,
        limit: int = 100,
    ) -> list[GameRecord]:
        """Games matching every filter given, newest first."""
        where, params = [], []
        if guild_id is not None:
            where.append("guild_id = ?")
            params.append(guild_id)
        if channel_id is not None:
            where.append("channel_id = ?")
            params.append(channel_id)
        if user_id is not None:
            where.append("id IN (SELECT game_id FROM seats WHERE user_id = ?)")
            params.append(user_id)
        if active_only:
            where.append("status IN ('lobby', 'running', 'paused')")
        sql = _GAMES
        if where:
            sql += " WHERE " + " AND ".join(where)
        sql += " ORDER BY id DESC LIMIT ?"
        return await self._game_records(sql, [*params, limit])

    async def finished_games(
        self, *, guild_id: int, user_id: int | None = None, limit: int = 10
    ) -> list[GameRecord]:
        """The server's finished games, most recently ended first."""
        where, params = "guild_id = ? AND status = 'finished'", [guild_id]
        if user_id is not None:
            where += " AND id IN (SELECT game_id FROM seats WHERE user_id = ?)"
            params.append(user_id)
        sql = f"{_GAMES} WHERE {where} ORDER BY updated_at DESC, id DESC LIMIT ?"
        return await self._game_records(sql, [*params, limit])

    async def update_game(
        self,
        game_id: int,
        expected_version: int,
        *,
        now: float,
        notices: Sequence[Outgoing] = (),
        **fields: Any,
    ) -> int:
        """Change game fields if the version is still ``expected_version``; returns the new one."""
        async with self._transaction() as db:
            version = await self._bump(db, game_id, expected_version, now, fields)
            await _enqueue(db, game_id, notices, now)
            return version

    async def _bump(
        self,
        db: aiosqlite.Connection,
        game_id: int,
        expected_version: int,
        now: float,
        fields: dict[str, Any],
    ) -> int:
        changed = await _run(db, *_bump_statement(game_id, expected_version, now, fields))
        if changed != 1:
            raise StaleVersion(game_id)
        return expected_version + 1

    # -- seats -------------------------------------------------------------------------

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
        """Seat ``user_id`` in ``role`` (a computer at level ``computer``, if given);
        StaleVersion if the game moved or the role was taken."""
        async with self._transaction() as db:
            version = await self._bump(db, game_id, expected_version, now, {})
            try:
                await _run(
                    db,
                    "INSERT INTO seats (game_id, role, seat, user_id, name, computer) "
                    "VALUES (?, ?, ?, ?, ?, ?)",
                    (game_id, role, seat, user_id, name, computer),
                )
            except sqlite3.IntegrityError as error:
                raise StaleVersion(game_id) from error
            await _enqueue(db, game_id, notices, now)
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
        """Record that ``user_id`` left a running game (their seats give up on their turn)."""
        async with self._transaction() as db:
            version = await self._bump(db, game_id, expected_version, now, {})
            await _run(
                db,
                "UPDATE seats SET left = 1 WHERE game_id = ? AND user_id = ?",
                (game_id, user_id),
            )
            await _enqueue(db, game_id, notices, now)
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
        async with self._transaction() as db:
            version = await self._bump(db, game_id, expected_version, now, {})
            await _run(
                db, "DELETE FROM seats WHERE game_id = ? AND user_id = ?", (game_id, user_id)
            )
            await _enqueue(db, game_id, notices, now)
            return version

    # -- the action log ----------------------------------------------------------------

    async def append_action(
        self,
        game_id: int,
        expected_version: int,
        *,
        seat: int,
        action: str,
        events: list[dict[str, Any]],
        now: float,
        notices: Sequence[Outgoing] = (),
        results: Sequence[ResultRow] = (),
        rater: Rater | None = None,
        **fields: Any,
    ) -> int:
        """Log one accepted action, update the game and store its notices, in one transaction.

        The action's sequence number is the game's new version, so the log and the
        snapshot can never disagree. Returns the new version.
        """
        logged = (
            "INSERT INTO actions (game_id, seq, seat, action, events, created_at)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            (game_id, expected_version + 1, seat, action, json.dumps(events), now),
        )
        if not results:
            # Nearly every action: the whole transaction in one trip to the database thread.
            statements = [
                _bump_statement(game_id, expected_version, now, fields),
                logged,
                *_enqueue_statements(game_id, notices, now),
            ]
            if not await self._in_one_trip(_one_transaction, statements):
                raise StaleVersion(game_id)
            return expected_version + 1
        async with self._transaction() as db:
            version = await self._bump(db, game_id, expected_version, now, fields)
            await _run(db, *logged)
            await _record_results(db, results, rater)
            await _enqueue(db, game_id, notices, now)
            return version

    async def actions(self, game_id: int) -> list[ActionRecord]:
        rows = await self._fetchall(
            "SELECT * FROM actions WHERE game_id = ? ORDER BY seq", (game_id,)
        )
        return [
            ActionRecord(
                r["game_id"],
                r["seq"],
                r["seat"],
                r["action"],
                json.loads(r["events"]),
                r["created_at"],
            )
            for r in rows
        ]

    async def set_message(self, game_id: int, kind: str, message_id: int | None) -> None:
        """Remember a game's ``status`` or ``board`` message (not versioned: a pointer only)."""
        column = _MESSAGE_COLUMNS.get(kind)
        if column is None:
            raise ValueError(f"not a kind of message: {kind!r}")
        async with self._autocommit() as db:
            await _run(db, f"UPDATE games SET {column} = ? WHERE id = ?", (message_id, game_id))

    async def notify_choice(self, user_id: int) -> str:
        rows = await self._fetchall("SELECT notify FROM users WHERE user_id = ?", (user_id,))
        return rows[0]["notify"] if rows else "turns"

    async def set_notify_choice(self, user_id: int, choice: str) -> None:
        await self._set_user_fact(user_id, "notify", choice)

    # -- deadlines ---------------------------------------------------------------------

    async def next_wakeup(self, exclude: Sequence[int] = ()) -> float | None:
        """The earliest deadline or reminder time of any running game not in ``exclude``."""
        # Each side walks its partial index in time order and stops at the first match.
        others = f" AND id NOT IN ({', '.join('?' * len(exclude))})" if exclude else ""
        rows = await self._fetchall(
            "SELECT MIN(t) AS t FROM ("
            " SELECT * FROM (SELECT deadline AS t FROM games WHERE deadline IS NOT NULL"
            f" AND status = 'running'{others} AND {_READABLE} ORDER BY deadline LIMIT 1)"
            " UNION ALL"
            " SELECT * FROM (SELECT remind_at FROM games WHERE remind_at IS NOT NULL"
            f" AND status = 'running'{others} AND {_READABLE} ORDER BY remind_at LIMIT 1))",
            (*exclude, *exclude),
        )
        return rows[0]["t"] if rows else None

    async def due(self, now: float, limit: int = 100) -> list[GameRecord]:
        """Running games whose deadline or reminder time has come, earliest first."""
        return await self._game_records(
            f"{_GAMES} WHERE {_DUE} ORDER BY {_EARLIEST} LIMIT ?", (now, now, limit)
        )

    async def claim_due(
        self, now: float, owner: str, lease_seconds: float, limit: int = 100
    ) -> list[GameRecord]:
        """Claim the due games nobody else holds for ``owner``, and read them, in one
        transaction."""
        async with self._transaction() as db:
            free = "(claimed_by IS NULL OR claimed_by = ? OR claimed_until <= ?)"
            ids = [
                row["id"]
                for row in await _rows(
                    db,
                    f"SELECT id FROM games WHERE {_DUE} AND {free} ORDER BY {_EARLIEST} LIMIT ?",
                    (now, now, owner, now, limit),
                )
            ]
            if not ids:
                return []
            marks = ", ".join("?" * len(ids))
            await _run(
                db,
                f"UPDATE games SET claimed_by = ?, claimed_until = ? WHERE id IN ({marks})",
                (owner, now + lease_seconds, *ids),
            )
            rows = await _rows(db, f"{_GAMES} WHERE id IN ({marks}) ORDER BY {_EARLIEST}", ids)
        return _records(rows, skip_unreadable=True)

    async def release_game(self, game_id: int, owner: str) -> None:
        async with self._transaction() as db:
            await _run(
                db,
                "UPDATE games SET claimed_by = NULL, claimed_until = NULL"
                " WHERE id = ? AND claimed_by = ?",
                (game_id, owner),
            )

    async def take_reminder(
        self, game_id: int, remind_at: float, *, now: float = 0.0, notices: Sequence[Outgoing] = ()
    ) -> bool:
        """Clear a due reminder and store its notices; True only for the one caller that
        cleared it (the others store nothing)."""
        async with self._transaction() as db:
            changed = await _run(
                db,
                "UPDATE games SET remind_at = NULL WHERE id = ? AND remind_at = ?",
                (game_id, remind_at),
            )
            if changed == 1:
                await _enqueue(db, game_id, notices, now)
            return changed == 1

    # -- the turn's post -----------------------------------------------------------------

    async def recent_notices(self, game_id: int, lane: str, limit: int = 10) -> list[dict]:
        async with self._lock:
            rows = await _rows(
                self._db,
                "SELECT body FROM outbox WHERE game_id = ? AND lane = ? ORDER BY id DESC LIMIT ?",
                (game_id, lane, limit),
            )
        return [json.loads(row["body"]) for row in rows]

    async def acted_since(self, game_id: int, seats: list[int], seq: int) -> bool:
        """Whether any of ``seats`` has an action logged after sequence number ``seq``."""
        if not seats:
            return False
        marks = ", ".join("?" * len(seats))
        rows = await self._fetchall(
            f"SELECT 1 FROM actions WHERE game_id = ? AND seq > ? AND seat IN ({marks}) LIMIT 1",
            (game_id, seq, *seats),
        )
        return bool(rows)

    # -- the outbox --------------------------------------------------------------------

    async def enqueue(self, game_id: int, notices: Sequence[Outgoing], *, now: float) -> None:
        async with self._transaction() as db:
            await _enqueue(db, game_id, notices, now)

    async def pending_notices(
        self, *, lanes: Sequence[str] | None = None, limit: int = 200
    ) -> list[OutboxEntry]:
        if lanes is not None and not lanes:
            return []
        async with self._lock:
            return await _pending(self._db, lanes, limit)

    async def take_lane(
        self, lane: str, owner: str, *, now: float, lease_seconds: float, limit: int = 200
    ) -> list[OutboxEntry] | None:
        def take(connection: sqlite3.Connection) -> list[OutboxEntry] | None:
            claimed = connection.execute(*_claim_lane_statement(lane, owner, now, lease_seconds))
            if not claimed.fetchall():
                return None
            rows = connection.execute(*_pending_statement([lane], limit)).fetchall()
            return [OutboxEntry.from_row(r) for r in rows]

        # Two statements, each its own transaction, in one trip to the database thread.
        return await self._in_one_trip(take)

    async def mark_sent(
        self,
        entry_id: int,
        *,
        now: float,
        message_id: int | None = None,
        remember: str | None = None,
    ) -> bool:
        column = _MESSAGE_COLUMNS.get(remember) if remember is not None else None
        if remember is not None and column is None:
            raise ValueError(f"not a kind of message: {remember!r}")
        mark = (
            "UPDATE outbox SET sent_at = ?, message_id = ?"
            " WHERE id = ? AND sent_at IS NULL AND failed IS NULL RETURNING game_id",
            (now, message_id, entry_id),
        )
        if column is None or message_id is None:
            async with self._autocommit() as db:
                return bool(await _rows(db, *mark))

        def mark_and_remember(connection: sqlite3.Connection) -> bool:
            marked = connection.execute(*mark).fetchall()
            if marked:
                connection.execute(
                    f"UPDATE games SET {column} = ? WHERE id = ?", (message_id, marked[0][0])
                )
            return bool(marked)

        # Remembering the message is a second statement: one transaction, in one trip.
        return await self._in_one_trip(_in_transaction, mark_and_remember)

    async def retry_later(self, entry_id: int, *, not_before: float) -> int:
        async with self._autocommit() as db:
            rows = await _rows(
                db,
                "UPDATE outbox SET attempts = attempts + 1, not_before = ? WHERE id = ?"
                " RETURNING attempts",
                (not_before, entry_id),
            )
            return rows[0]["attempts"] if rows else 0

    async def give_up(self, entry_id: int, *, reason: str) -> None:
        async with self._autocommit() as db:
            await _run(
                db,
                "UPDATE outbox SET failed = ? WHERE id = ? AND sent_at IS NULL",
                (reason or "failed", entry_id),
            )

    async def claim_lane(self, lane: str, owner: str, now: float, lease_seconds: float) -> bool:
        async with self._autocommit() as db:
            return await _claim_lane(db, lane, owner, now, lease_seconds)

    async def release_lane(self, lane: str, owner: str) -> None:
        async with self._autocommit() as db:
            await _run(db, "DELETE FROM lanes WHERE lane = ? AND owner = ?", (lane, owner))

    # -- users and guild settings ------------------------------------------------------

    async def dm_closed(self, user_id: int) -> bool:
        rows = await self._fetchall("SELECT dm_closed FROM users WHERE user_id = ?", (user_id,))
        return bool(rows and rows[0]["dm_closed"])

    async def set_dm_closed(self, user_id: int, closed: bool) -> None:
        await self._set_user_fact(user_id, "dm_closed", int(closed))

    async def guild_setting(self, guild_id: int, key: str) -> str | None:
        rows = await self._fetchall(
            "SELECT value FROM guild_settings WHERE guild_id = ? AND key = ?", (guild_id, key)
        )
        return rows[0]["value"] if rows else None

    async def set_guild_setting(self, guild_id: int, key: str, value: str) -> None:
        async with self._autocommit() as db:
            await _run(
                db,
                "INSERT INTO guild_settings (guild_id, key, value) VALUES (?, ?, ?)"
                " ON CONFLICT (guild_id, key) DO UPDATE SET value = excluded.value",
                (guild_id, key, value),
            )

    # -- a server's corrected data files -----------------------------------------------

    async def guild_data(self, guild_id: int) -> list[GuildDataRecord]:
        rows = await self._fetchall(
            "SELECT * FROM guild_data WHERE guild_id = ? ORDER BY package, name", (guild_id,)
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
        async with self._transaction() as db:
            await _run(
                db,
                "INSERT INTO guild_data (guild_id, package, name, content, user_id, uploaded_at)"
                " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id, package, name) DO UPDATE"
                " SET content = excluded.content, user_id = excluded.user_id,"
                " uploaded_at = excluded.uploaded_at",
                (guild_id, package, name, json.dumps(content), user_id, now),
            )

    async def clear_guild_data(self, guild_id: int, package: str | None = None) -> int:
        async with self._transaction() as db:
            if package is None:
                return await _run(db, "DELETE FROM guild_data WHERE guild_id = ?", (guild_id,))
            return await _run(
                db, "DELETE FROM guild_data WHERE guild_id = ? AND package = ?", (guild_id, package)
            )

    # -- offers waiting for answers ----------------------------------------------------

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
    ) -> bool:
        """Store an offer made at ``version`` unless one made then already waits."""
        async with self._transaction() as db:
            if not await _at_version(db, game_id, version):
                return False
            if await _offer_row(db, game_id, version):
                return False
            await _run(
                db,
                "INSERT INTO offers (game_id, version, kind, seat, user_id, accepted, created_at)"
                " VALUES (?, ?, ?, ?, ?, '[]', ?) ON CONFLICT (game_id) DO UPDATE SET"
                " version = excluded.version, kind = excluded.kind, seat = excluded.seat,"
                " user_id = excluded.user_id, accepted = '[]', created_at = excluded.created_at",
                (game_id, version, kind, seat, user_id, now),
            )
            await _enqueue(db, game_id, notices, now)
            return True

    async def offer(self, game_id: int) -> OfferRecord | None:
        rows = await self._fetchall(
            "SELECT offers.* FROM offers JOIN games ON games.id = offers.game_id"
            " WHERE offers.game_id = ? AND offers.version = games.version",
            (game_id,),
        )
        return OfferRecord.from_row(rows[0]) if rows else None

    async def accept_offer(
        self,
        game_id: int,
        version: int,
        user_id: int,
        *,
        now: float,
        notices: Sequence[Outgoing] = (),
    ) -> bool:
        """Add one acceptance to the offer made at ``version``, once per user."""
        async with self._transaction() as db:
            row = await _offer_row(db, game_id, version)
            if row is None or not await _at_version(db, game_id, version):
                return False
            accepted = json.loads(row["accepted"])
            if user_id in accepted:
                return False
            await _run(
                db,
                "UPDATE offers SET accepted = ? WHERE game_id = ?",
                (json.dumps([*accepted, user_id]), game_id),
            )
            await _enqueue(db, game_id, notices, now)
            return True

    async def drop_offer(
        self, game_id: int, version: int, *, now: float, notices: Sequence[Outgoing] = ()
    ) -> bool:
        """Remove the offer made at ``version``, if it still waits."""
        async with self._transaction() as db:
            if not await _at_version(db, game_id, version):
                return False
            changed = await _run(
                db, "DELETE FROM offers WHERE game_id = ? AND version = ?", (game_id, version)
            )
            if changed == 1:
                await _enqueue(db, game_id, notices, now)
            return changed == 1

    # -- results and ratings -----------------------------------------------------------

    async def ratings(self, *, guild_id: int, slug: str) -> list[RatingRow]:
        rows = await self._fetchall(
            "SELECT * FROM ratings WHERE guild_id = ? AND slug = ?", (guild_id, slug)
        )
        return [RatingRow.from_row(r) for r in rows]

    async def player_ratings(self, *, guild_id: int, user_id: int) -> list[RatingRow]:
        rows = await self._fetchall(
            "SELECT * FROM ratings WHERE guild_id = ? AND user_id = ? ORDER BY slug",
            (guild_id, user_id),
        )
        return [RatingRow.from_row(r) for r in rows]

    async def player_results(self, *, guild_id: int, user_id: int) -> list[ResultRow]:
        rows = await self._fetchall(
            "SELECT * FROM results WHERE guild_id = ? AND user_id = ?"
            " ORDER BY ended_at, game_id, seat",
            (guild_id, user_id),
        )
        return [ResultRow.from_row(r) for r in rows]

    async def finished_without_results(
        self, *, after_id: int = 0, limit: int = 100
    ) -> list[GameRecord]:
        return await self._game_records(
            f"{_GAMES} WHERE status = 'finished' AND id > ?"
            " AND NOT EXISTS (SELECT 1 FROM results r WHERE r.game_id = g.id)"
            " ORDER BY id LIMIT ?",
            (after_id, limit),
        )

    async def rebuild_ratings(self, rater: Rater, *, add: Sequence[ResultRow] = ()) -> int:
        async with self._transaction() as db:
            for row in add:
                await _insert_result(db, row, " ON CONFLICT (game_id, seat) DO NOTHING")
            rows = [ResultRow.from_row(r) for r in await _rows(db, "SELECT * FROM results")]
            await _run(db, "DELETE FROM ratings")
            await _save_ratings(db, rate_in_order(rater, rows))
            return games_in(rows)

    # -- rematches ---------------------------------------------------------------------

    async def rematch(self, game_id: int) -> int | None:
        rows = await self._fetchall("SELECT id FROM games WHERE rematch_of = ?", (game_id,))
        return rows[0]["id"] if rows else None

    # -- watchers and time away --------------------------------------------------------

    async def add_watcher(self, game_id: int, user_id: int, *, now: float) -> bool:
        async with self._transaction() as db:
            changed = await _run(
                db,
                "INSERT INTO watchers (game_id, user_id, since)"
                " SELECT id, ?, ? FROM games WHERE id = ? ON CONFLICT DO NOTHING",
                (user_id, now, game_id),
            )
            return changed == 1

    async def remove_watcher(self, game_id: int, user_id: int) -> bool:
        async with self._transaction() as db:
            changed = await _run(
                db, "DELETE FROM watchers WHERE game_id = ? AND user_id = ?", (game_id, user_id)
            )
            return changed == 1

    async def watchers(self, game_id: int) -> list[int]:
        rows = await self._fetchall(
            "SELECT user_id FROM watchers WHERE game_id = ? ORDER BY since, user_id", (game_id,)
        )
        return [row["user_id"] for row in rows]

    async def watched_games(self, user_id: int) -> list[GameRecord]:
        return await self._game_records(
            _GAMES + " WHERE id IN (SELECT game_id FROM watchers WHERE user_id = ?)"
            " AND status IN ('lobby', 'running', 'paused') ORDER BY id DESC LIMIT ?",
            [user_id, 100],
        )

    async def away_until(self, user_id: int) -> float | None:
        rows = await self._fetchall("SELECT away_until FROM users WHERE user_id = ?", (user_id,))
        return rows[0]["away_until"] if rows else None

    async def set_away(self, user_id: int, until: float | None) -> None:
        await self._set_user_fact(user_id, "away_until", until)

    async def _set_user_fact(self, user_id: int, column: str, value: Any) -> None:
        """Set one of a user's facts (a column of ``users``), leaving the others as they are."""
        if column not in _USER_FACTS:
            raise ValueError(f"not a user's fact: {column!r}")
        async with self._autocommit() as db:
            await _run(
                db,
                f"INSERT INTO users (user_id, {column}) VALUES (?, ?)"
                f" ON CONFLICT (user_id) DO UPDATE SET {column} = excluded.{column}",
                (user_id, value),
            )

    async def move_deadline(
        self,
        game_id: int,
        version: int,
        *,
        deadline: float | None,
        remind_at: float | None,
        now: float,
        notices: Sequence[Outgoing] = (),
    ) -> bool:
        async with self._transaction() as db:
            changed = await _run(
                db,
                "UPDATE games SET deadline = ?, remind_at = ? WHERE id = ? AND version = ?",
                (deadline, remind_at, game_id, version),
            )
            if changed == 1:
                await _enqueue(db, game_id, notices, now)
            return changed == 1


async def _at_version(db: aiosqlite.Connection, game_id: int, version: int) -> bool:
    rows = await _rows(db, "SELECT version FROM games WHERE id = ?", (game_id,))
    return bool(rows) and rows[0]["version"] == version


async def _offer_row(db: aiosqlite.Connection, game_id: int, version: int) -> aiosqlite.Row | None:
    rows = await _rows(
        db, "SELECT * FROM offers WHERE game_id = ? AND version = ?", (game_id, version)
    )
    return rows[0] if rows else None


def _records(rows: list[aiosqlite.Row], *, skip_unreadable: bool) -> list[GameRecord]:
    records = []
    for row in rows:
        try:
            records.append(GameRecord.with_seat_list(row))
        except ValueError:
            if not skip_unreadable:
                raise
            log.warning("game %s cannot be read (damaged JSON); left out", row["id"])
    return records


async def _run(db: aiosqlite.Connection, sql: str, params: Iterable[Any] = ()) -> int:
    """Execute one statement; returns how many rows it changed.

    One trip to the database thread: the statement runs to its end there, so nothing is
    left "in progress" to make COMMIT fail. The count comes from the connection's running
    total, which only this statement moves (the store's lock is held around every use).
    """
    before = db.total_changes
    await db.execute_fetchall(sql, tuple(params))
    return db.total_changes - before


async def _rows(
    db: aiosqlite.Connection, sql: str, params: Iterable[Any] = ()
) -> list[aiosqlite.Row]:
    """The rows of one statement, in one trip to the database thread."""
    return list(await db.execute_fetchall(sql, tuple(params)))


async def _claim_lane(
    db: aiosqlite.Connection, lane: str, owner: str, now: float, lease_seconds: float
) -> bool:
    return bool(await _rows(db, *_claim_lane_statement(lane, owner, now, lease_seconds)))


def _claim_lane_statement(
    lane: str, owner: str, now: float, lease_seconds: float
) -> tuple[str, tuple[Any, ...]]:
    """Claim or renew ``lane`` for ``owner`` unless another owner's lease runs on; a row
    back when claimed."""
    return (
        "INSERT INTO lanes (lane, owner, until) VALUES (?, ?, ?)"
        " ON CONFLICT (lane) DO UPDATE SET owner = excluded.owner,"
        " until = excluded.until WHERE lanes.owner = excluded.owner OR lanes.until <= ?"
        " RETURNING owner",
        (lane, owner, now + lease_seconds, now),
    )


async def _pending(
    db: aiosqlite.Connection, lanes: Sequence[str] | None, limit: int
) -> list[OutboxEntry]:
    rows = await _rows(db, *_pending_statement(lanes, limit))
    return [OutboxEntry.from_row(r) for r in rows]


def _pending_statement(lanes: Sequence[str] | None, limit: int) -> tuple[str, tuple[Any, ...]]:
    """The first ``limit`` notices waiting to be sent (of ``lanes``, if given), in order,
    with their games' status and board messages."""
    where = "o.sent_at IS NULL AND o.failed IS NULL"
    params: list[Any] = []
    if lanes is not None:
        where += f" AND o.lane IN ({', '.join('?' * len(lanes))})"
        params += list(lanes)
    return (
        "SELECT o.*, g.status_message_id AS status_message, g.board_message_id AS board_message"
        f" FROM outbox o LEFT JOIN games g ON g.id = o.game_id WHERE {where}"
        " ORDER BY o.id LIMIT ?",
        (*params, limit),
    )


_USER_FACTS = frozenset({"notify", "dm_closed", "away_until"})
"""The columns of ``users`` set one at a time."""

_ROWS_AT_ONCE = 100
"""Rows one INSERT writes (well under SQLite's limit of bound parameters)."""


async def _enqueue(
    db: aiosqlite.Connection, game_id: int, notices: Sequence[Outgoing], now: float
) -> None:
    for statement in _enqueue_statements(game_id, notices, now):
        await _run(db, *statement)


def _enqueue_statements(
    game_id: int, notices: Sequence[Outgoing], now: float
) -> list[tuple[str, list[Any]]]:
    """The statements storing ``notices``: one for many rows, since each statement is a
    trip to the database thread."""
    statements = []
    for start in range(0, len(notices), _ROWS_AT_ONCE):
        chunk = notices[start : start + _ROWS_AT_ONCE]
        values = ", ".join(["(?, ?, ?, ?)"] * len(chunk))
        params = [p for n in chunk for p in (game_id, n.lane, json.dumps(n.body), now)]
        statements.append(
            (f"INSERT INTO outbox (game_id, lane, body, created_at) VALUES {values}", params)
        )
    return statements


def _bump_statement(
    game_id: int, expected_version: int, now: float, fields: dict[str, Any]
) -> tuple[str, tuple[Any, ...]]:
    """The version check and bump setting game ``fields`` (checked: ValueError for an
    unknown field or status); it changes one row, or none if the version moved."""
    unknown = set(fields) - GAME_FIELDS
    if unknown:
        raise ValueError(f"not a game field: {sorted(unknown)}")
    if "status" in fields and fields["status"] not in GAME_STATUSES:
        raise ValueError(f"not a game status: {fields['status']!r}")
    values = {k: json.dumps(v) if k in _JSON_FIELDS else v for k, v in fields.items()}
    assignments = "".join(f", {k} = ?" for k in values)
    return (
        f"UPDATE games SET version = version + 1, updated_at = ?{assignments}"
        " WHERE id = ? AND version = ?",
        (now, *values.values(), game_id, expected_version),
    )


class _Stale(Exception):
    """The version bump opening a transaction changed no row."""


def _one_transaction(
    connection: sqlite3.Connection, statements: Sequence[tuple[str, Sequence[Any]]]
) -> bool:
    """Run ``statements`` in one transaction (in the database thread). The first is a
    version bump: if it changed no row, everything is undone and the answer is False."""

    def run(connection: sqlite3.Connection) -> None:
        (bump, bumped), *rest = statements
        if connection.execute(bump, bumped).rowcount != 1:
            raise _Stale
        for sql, params in rest:
            connection.execute(sql, params)

    try:
        _in_transaction(connection, run)
    except _Stale:
        return False
    return True


def _in_transaction(connection: sqlite3.Connection, work: Callable[..., Any]) -> Any:
    """``work(connection)`` in one write transaction (in the database thread): committed,
    or rolled back if it raises. A statement's rows are read to their end inside ``work``,
    so nothing is in progress at COMMIT."""
    connection.execute("BEGIN IMMEDIATE")
    try:
        result = work(connection)
        connection.execute("COMMIT")
    except BaseException:
        if connection.in_transaction:
            connection.execute("ROLLBACK")
        raise
    return result


async def _insert_result(db: aiosqlite.Connection, row: ResultRow, conflict: str = "") -> None:
    await _run(
        db,
        "INSERT INTO results (game_id, seat, guild_id, slug, user_id, role, rank, won,"
        f" ended_at, computer) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?){conflict}",
        (
            row.game_id, row.seat, row.guild_id, row.slug, row.user_id, row.role, row.rank,
            int(row.won), row.ended_at, row.computer,
        ),
    )  # fmt: skip


async def _record_results(
    db: aiosqlite.Connection, rows: Sequence[ResultRow], rater: Rater | None
) -> None:
    """Store a game's result rows and bring its pool's ratings up to date: rate the game
    on the ratings as they are, or, if a game of the pool that ended later is rated
    already, rate the whole pool again in end order (so the ratings stay what rating
    every result in end order gives)."""
    if rater is None:
        raise ValueError("results need a rater to keep the ratings")
    for row in rows:
        await _insert_result(db, row)
    first = rows[0]
    pool = (first.guild_id, first.slug)
    later = await _rows(
        db,
        "SELECT 1 FROM results WHERE guild_id = ? AND slug = ?"
        " AND (ended_at > ? OR (ended_at = ? AND game_id > ?)) LIMIT 1",
        (*pool, first.ended_at, first.ended_at, first.game_id),
    )
    if later:
        every = await _rows(db, "SELECT * FROM results WHERE guild_id = ? AND slug = ?", pool)
        await _run(db, "DELETE FROM ratings WHERE guild_id = ? AND slug = ?", pool)
        await _save_ratings(db, rate_in_order(rater, [ResultRow.from_row(r) for r in every]))
        return
    players = sorted({row.user_id for row in rows})
    current = await _rows(
        db,
        "SELECT * FROM ratings WHERE guild_id = ? AND slug = ?"
        f" AND user_id IN ({', '.join('?' * len(players))})",
        (*pool, *players),
    )
    ratings = {r["user_id"]: RatingRow.from_row(r) for r in current}
    await _save_ratings(db, rater(ratings, rows))


async def _save_ratings(db: aiosqlite.Connection, ratings: Iterable[RatingRow]) -> None:
    for r in ratings:
        await _run(
            db,
            "INSERT INTO ratings (guild_id, slug, user_id, mu, sigma, games, wins)"
            " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id, slug, user_id) DO UPDATE SET"
            " mu = excluded.mu, sigma = excluded.sigma, games = excluded.games,"
            " wins = excluded.wins",
            (r.guild_id, r.slug, r.user_id, r.mu, r.sigma, r.games, r.wins),
        )


async def _refuse_newer(db: aiosqlite.Connection, path: str) -> int:
    """The database's schema version; NewerDatabase if it is past the newest migration."""
    async with db.execute("PRAGMA user_version") as cursor:
        (current,) = await cursor.fetchone()
    if current > len(MIGRATIONS):
        raise NewerDatabase(path, current, len(MIGRATIONS))
    return current


def _is_busy(error: sqlite3.OperationalError) -> bool:
    """Whether ``error`` is SQLite's "database is locked" (another writer holds it)."""
    code = getattr(error, "sqlite_errorcode", None)
    if code is not None:
        return code & 0xFF in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)
    return "database is locked" in str(error) or "database is busy" in str(error)


def _statements(script: str) -> list[str]:
    return [part.strip() for part in script.split(";") if part.strip()]
