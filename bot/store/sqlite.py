"""SQLite store through aiosqlite: WAL, foreign keys, a lock-guarded writer connection and
a reader connection.

The statements both dialects share are in :class:`~bot.store.sql.SqlStore` (by concern); here are
SQLite's execution layer and its tuned paths. Every trip to the database thread costs the
event loop a wake-up from that thread, so a write of several statements on a hot path goes
to the thread in one trip (``_in_one_trip``).

One connection writes, and each commit waits for the disk (``synchronous = FULL``, so an
acknowledged write survives a power cut). Writes that arrive while another is being
committed are therefore committed together, once it is: one transaction, one trip and one
wait for the disk for all of them, each in a savepoint of its own so that one that fails
undoes only itself (``_commit_together``). A write that finds none being committed goes at
once, alone. A busy host makes about six writes per action (the action,
then taking, marking and releasing its lane); one commit each made the writer the host's
ceiling.

Reads outside a transaction go to a connection of their own (``PRAGMA query_only``, with a
thread of its own): in WAL mode they see the last commit and never wait for the write
lock, nor behind a write queued for it. Reads inside a write transaction stay on the
writer, which sees that transaction's own changes.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from bot.store.migrations import MIGRATIONS, scripts
from bot.store.records import (
    GameRecord,
    JsonObject,
    NewerDatabase,
    OutboxEntry,
    Outgoing,
    Rater,
    ResultRow,
    StaleVersion,
    StoreBusy,
)
from bot.store.sql import SqlStore
from bot.store.sql.base import MESSAGE_COLUMNS, bump_sql, game_values, readable_records, with_lapse
from bot.store.sql.outbox import CLAIM_LANE, PENDING, WAITING

T = TypeVar("T")

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

_ROWS_AT_ONCE = 100
"""Rows one INSERT writes (well under SQLite's limit of bound parameters)."""


class DamagedDatabase(Exception):
    """The file is damaged or is not an SQLite database at all; it was refused before
    anything was written to it. The message is one line naming the file and what to do."""

    def __init__(self, path: str, error: sqlite3.DatabaseError) -> None:
        self.path = path
        super().__init__(
            f"The database {path} cannot be read: it is damaged or not an SQLite database"
            f" ({error}). Nothing was written to it. Restore it from a backup, or move it"
            " aside to start with an empty database."
        )


class _Session:
    """The store's connection, used under its lock: each statement is one trip to the
    database thread, its rows read to their end there."""

    def __init__(self, db: aiosqlite.Connection) -> None:
        self._db = db

    async def fetch(self, sql: str, *args: object) -> list[sqlite3.Row]:
        return await _rows(self._db, sql, args)

    async def fetchrow(self, sql: str, *args: object) -> sqlite3.Row | None:
        rows = await _rows(self._db, sql, args)
        return rows[0] if rows else None

    async def fetchval(self, sql: str, *args: object) -> Any:
        rows = await _rows(self._db, sql, args)
        return rows[0][0] if rows else None

    async def execute(self, sql: str, *args: object) -> int:
        return await _run(self._db, sql, args)

    async def executemany(self, sql: str, rows: Iterable[Sequence[object]]) -> None:
        for row in rows:
            await _run(self._db, sql, row)


@dataclass
class _Write:
    """A write waiting to be committed: ``work(connection, *args)``, the body of a
    transaction, and where its answer goes."""

    work: Callable[..., Any]
    args: tuple[Any, ...]
    answer: asyncio.Future[Any]


class SqliteStore(SqlStore[_Session]):
    """Games, seats, actions and settings in one SQLite file (or ``":memory:"``)."""

    _GAMES = (
        "SELECT g.*, (SELECT json_group_array(json_object("
        "'seat', s.seat, 'role', s.role, 'user_id', s.user_id, 'name', s.name,"
        " 'left', s.\"left\", 'computer', s.computer, 'notify', u.notify, 'calls', u.calls,"
        " 'away_until', u.away_until))"
        " FROM seats s LEFT JOIN users u ON u.user_id = s.user_id WHERE s.game_id = g.id)"
        " AS seat_list,"
        " (SELECT json_group_array(user_id) FROM (SELECT w.user_id FROM watchers w"
        "  WHERE w.game_id = g.id ORDER BY w.since, w.user_id)) AS watcher_list,"
        " (SELECT json_group_array(w.user_id) FROM watchers w JOIN digests d"
        "  ON d.user_id = w.user_id AND d.kind = 'watching' WHERE w.game_id = g.id)"
        " AS digest_watcher_list,"
        " (SELECT json_object('version', o.version, 'kind', o.kind, 'seat', o.seat,"
        "  'user_id', o.user_id, 'accepted', o.accepted, 'created_at', o.created_at)"
        "  FROM offers o WHERE o.game_id = g.id AND o.version = g.version) AS open_offer"
        " FROM games g"
    )
    _LOCK_ROW = ""  # BEGIN IMMEDIATE holds the whole database until the transaction ends
    _DUPLICATE = sqlite3.IntegrityError

    def __init__(
        self, db: aiosqlite.Connection, reader: aiosqlite.Connection | None = None
    ) -> None:
        self._db = db
        self._session = _Session(db)
        # One writer connection serves every coroutine; the lock keeps their transactions
        # apart. Reads outside them go to the reader, which needs no lock: each is one
        # statement, one trip to its thread.
        self._lock = asyncio.Lock()
        self._queued: list[_Write] = []
        self._leading = False
        """Whether a write's coroutine is committing the queued writes (see ``_lead``)."""
        self._settled = asyncio.Event()
        """Set while no write is queued or being committed."""
        self._settled.set()
        self._successor: asyncio.Task[None] | None = None
        self._reader = reader
        self._reader_session = _Session(reader) if reader is not None else None

    @classmethod
    async def open(cls, path: str | Path, *, busy_timeout: float = 5.0) -> SqliteStore:
        """The store in the SQLite file ``path`` (made with its folder if missing, or
        ``":memory:"``), its schema migrated to the newest version.

        A database written by a newer release is refused with
        :class:`~bot.store.NewerDatabase`, and a file that is not a readable SQLite database
        with :class:`DamagedDatabase`, before anything is written. A write that waits
        more than ``busy_timeout`` seconds for another writer raises
        :class:`~bot.store.StoreBusy`, writing nothing.
        """
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        db = await aiosqlite.connect(str(path), isolation_level=None)
        try:
            await _refuse_damaged(db, str(path))
            await _refuse_newer(db, str(path))
            db.row_factory = aiosqlite.Row
            pragmas = ("journal_mode = WAL", f"busy_timeout = {round(busy_timeout * 1000)}")
            for pragma in (*pragmas, "foreign_keys = ON"):
                await _run(db, f"PRAGMA {pragma}")
            store = cls(db)
            await store._migrate(str(path))
            if str(path) != ":memory:":
                # A second connection to ":memory:" would be another, empty database.
                store._reader = await _open_reader(str(path), busy_timeout)
                store._reader_session = _Session(store._reader)
        except BaseException:
            await db.close()
            raise
        return store

    async def _migrate(self, path: str = "the database") -> None:
        current = await _refuse_newer(self._db, path)
        for number, script in enumerate(scripts("sqlite")[current:], start=current + 1):
            async with self._transaction():
                for statement in _statements(script):
                    await _run(self._db, statement)
                await _run(self._db, f"PRAGMA user_version = {number}")

    # -- the execution layer -------------------------------------------------------------

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[_Session]:
        async with self._lock:
            try:
                await _run(self._db, "BEGIN IMMEDIATE")
            except sqlite3.OperationalError as error:
                if _is_busy(error):
                    raise StoreBusy(str(error)) from error
                raise
            try:
                yield self._session
                await _run(self._db, "COMMIT")
            except BaseException as error:
                if self._db.in_transaction:
                    await _run(self._db, "ROLLBACK")
                if isinstance(error, sqlite3.OperationalError) and _is_busy(error):
                    raise StoreBusy(str(error)) from error
                raise

    @asynccontextmanager
    async def _one_statement(self) -> AsyncIterator[_Session]:
        # SQLite commits a lone statement by itself: one trip to the thread instead of three.
        async with self._lock:
            try:
                yield self._session
            except sqlite3.OperationalError as error:
                if _is_busy(error):
                    raise StoreBusy(str(error)) from error
                raise

    @asynccontextmanager
    async def _reading(self) -> AsyncIterator[_Session]:
        if self._reader_session is None:
            async with self._one_statement() as session:
                yield session
            return
        try:
            yield self._reader_session
        except sqlite3.OperationalError as error:
            if _is_busy(error):
                raise StoreBusy(str(error)) from error
            raise

    async def _in_database_thread(self, call: Callable[..., T], *args: object) -> T:
        """``call(*args)`` run in aiosqlite's thread of the writing connection, as every
        statement of that connection is (aiosqlite's own hand-off, which has no types)."""
        hand_off: Callable[..., Awaitable[T]] = self._db._execute
        return await hand_off(call, *args)

    async def _in_one_trip(self, work: Callable[..., Any], *args: object) -> Any:
        """``work(connection, *args)``, the body of a write transaction, run in the
        database thread and committed (what it returns, or what it raised, with its changes
        undone); busy past the timeout is StoreBusy.

        Writes that arrive while others are being committed wait and are then committed
        together (see the module docstring); each is answered only once its transaction is
        committed."""
        if self._leading:  # others are being committed: this one goes with the next group
            write = _Write(work, args, asyncio.get_running_loop().create_future())
            self._queued.append(write)
            return await write.answer
        self._leading = True
        self._settled.clear()
        try:
            async with self._lock:  # alone, as a write of a quiet host always is
                [(done, value)] = await self._in_database_thread(
                    _commit_together, self._db._conn, [(work, args)]
                )
        except sqlite3.OperationalError as error:  # the transaction itself failed
            done, value = False, error
        finally:
            await self._lead()
        if done:
            return value
        raise _raised(value)

    async def _lead(self) -> None:
        """Commit the writes queued while this coroutine's own was committed, all that are
        queued at once, until none is left. Each group's trip answers its writes itself as
        it ends, so a leader cancelled meanwhile strands none of them; writes it leaves
        queued are led by a task of their own."""
        try:
            while self._queued:
                async with self._lock:
                    writes, self._queued = self._queued, []
                    await asyncio.wait({self._trip(writes)})
        finally:
            if self._queued:  # the leader was cancelled: the writes left go on without it
                # (kept, since the event loop holds a task only weakly)
                self._successor = asyncio.get_running_loop().create_task(self._lead())
            else:
                self._leading = False
                self._settled.set()

    def _trip(self, writes: list[_Write]) -> asyncio.Future[Any]:
        """One trip to the database thread committing ``writes`` together
        (``_commit_together``); each write is answered from the trip's end."""
        trip: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        trip.add_done_callback(lambda ended: _answer(writes, ended))
        try:
            # aiosqlite's own queue to its thread, as ``Connection._execute`` uses it, with
            # no coroutine around the trip: nothing cancels it half way.
            if not self._db._running or self._db._connection is None:
                raise ValueError("Connection closed")
            work = [(w.work, w.args) for w in writes]
            self._db._tx.put_nowait((trip, partial(_commit_together, self._db._conn, work)))
        except Exception as error:
            trip.set_exception(error)
        return trip

    async def _fetch(self, sql: str, *args: object) -> Sequence[sqlite3.Row]:
        rows: list[sqlite3.Row] = await self._in_one_trip(_rows_of, sql, args)
        return rows

    async def _fetchrow(self, sql: str, *args: object) -> sqlite3.Row | None:
        rows = await self._in_one_trip(_rows_of, sql, args)
        return rows[0] if rows else None

    async def _fetchval(self, sql: str, *args: object) -> Any:
        rows = await self._in_one_trip(_rows_of, sql, args)
        return rows[0][0] if rows else None

    async def _execute(self, sql: str, *args: object) -> int:
        changed: int = await self._in_one_trip(_changes_of, sql, args)
        return changed

    def _any(
        self, column: str, values: Sequence[object], sql_type: str
    ) -> tuple[str, list[object]]:
        return f"{column} IN ({', '.join('?' * len(values))})", list(values)

    async def _enqueue(
        self,
        tx: _Session,
        game_id: int,
        notices: Sequence[Outgoing],
        now: float,
        *,
        clock: bool = False,
    ) -> None:
        # Nobody else listens to an SQLite file, so ``clock`` tells no one.
        for sql, params in _enqueue_statements(game_id, notices, now):
            await tx.execute(sql, *params)

    # -- the action log ------------------------------------------------------------------

    async def append_action(
        self,
        game_id: int,
        expected_version: int,
        *,
        seat: int,
        action: str,
        events: list[JsonObject],
        now: float,
        notices: Sequence[Outgoing] = (),
        results: Sequence[ResultRow] = (),
        rater: Rater | None = None,
        **fields: object,
    ) -> int:
        logged = (
            "INSERT INTO actions (game_id, seq, seat, action, events, created_at)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            (game_id, expected_version + 1, seat, action, json.dumps(events), now),
        )
        if not results:
            # Nearly every action: the whole transaction in one trip to the database thread.
            statements = [_bump_statement(game_id, expected_version, now, fields), logged]
            telling = (game_id, expected_version, notices, now)
            if not await self._in_one_trip(_bumped, statements, telling):
                raise StaleVersion(game_id)
            return expected_version + 1
        values = game_values(fields)
        async with self._transaction() as tx:
            version, told = await self._bump(tx, game_id, expected_version, now, values, notices)
            await tx.execute(logged[0], *logged[1])
            await self._record_results(tx, results, rater)
            await self._enqueue(tx, game_id, told, now)
            return version

    # -- deadlines -----------------------------------------------------------------------

    async def next_wakeup(self, exclude: Sequence[int] = ()) -> float | None:
        # Each side walks its partial index in time order and stops at the first match.
        others = f" AND id NOT IN ({', '.join('?' * len(exclude))})" if exclude else ""
        earliest: float | None = await self._read_value(
            "SELECT MIN(t) AS t FROM ("
            " SELECT * FROM (SELECT deadline AS t FROM games WHERE deadline IS NOT NULL"
            f" AND status = 'running'{others} AND {_READABLE} ORDER BY deadline LIMIT 1)"
            " UNION ALL"
            " SELECT * FROM (SELECT remind_at FROM games WHERE remind_at IS NOT NULL"
            f" AND status = 'running'{others} AND {_READABLE} ORDER BY remind_at LIMIT 1))",
            *exclude, *exclude,
        )  # fmt: skip
        return earliest

    async def due(self, now: float, limit: int = 100) -> list[GameRecord]:
        return await self._game_records(
            f"WHERE {_DUE} ORDER BY {_EARLIEST}", (now, now), limit=limit
        )

    async def claim_due(
        self, now: float, owner: str, lease_seconds: float, limit: int = 100
    ) -> list[GameRecord]:
        async with self._transaction() as tx:
            free = "(claimed_by IS NULL OR claimed_by = ? OR claimed_until <= ?)"
            found = await tx.fetch(
                f"SELECT id FROM games WHERE {_DUE} AND {free} ORDER BY {_EARLIEST} LIMIT ?",
                now, now, owner, now, limit,
            )  # fmt: skip
            ids = [row["id"] for row in found]
            if not ids:
                return []
            marks = ", ".join("?" * len(ids))
            await tx.execute(
                f"UPDATE games SET claimed_by = ?, claimed_until = ? WHERE id IN ({marks})",
                owner, now + lease_seconds, *ids,
            )  # fmt: skip
            rows = await tx.fetch(f"{self._GAMES} WHERE id IN ({marks}) ORDER BY {_EARLIEST}", *ids)
        return readable_records(rows)

    # -- the outbox ----------------------------------------------------------------------

    async def take_lane(
        self, lane: str, owner: str, *, now: float, lease_seconds: float, limit: int = 200
    ) -> list[OutboxEntry] | None:
        def take(connection: sqlite3.Connection) -> list[OutboxEntry] | None:
            claimed = connection.execute(CLAIM_LANE, (lane, owner, now + lease_seconds, now))
            if not claimed.fetchall():
                return None
            rows = connection.execute(
                f"{PENDING} WHERE {WAITING} AND o.lane = ? ORDER BY o.id LIMIT ?", (lane, limit)
            ).fetchall()
            return [OutboxEntry.from_row(r) for r in rows]

        # Two statements, one transaction, in one trip to the database thread.
        taken: list[OutboxEntry] | None = await self._in_one_trip(take)
        return taken

    async def mark_sent(
        self,
        entry_id: int,
        *,
        now: float,
        message_id: int | None = None,
        remember: str | None = None,
        covers: Sequence[int] = (),
    ) -> bool:
        column = MESSAGE_COLUMNS.get(remember) if remember is not None else None
        if remember is not None and column is None:
            raise ValueError(f"not a kind of message: {remember!r}")
        mark = (
            "UPDATE outbox SET sent_at = ?, message_id = ?"
            " WHERE id = ? AND sent_at IS NULL AND failed IS NULL RETURNING game_id"
        )
        if message_id is None:
            column = None
        if column is None and not covers:
            return await self._fetchrow(mark, now, message_id, entry_id) is not None
        covered = list(covers)

        def mark_with_the_rest(connection: sqlite3.Connection) -> bool:
            marked = connection.execute(mark, (now, message_id, entry_id)).fetchall()
            if not marked:
                return False
            if column is not None:
                connection.execute(
                    f"UPDATE games SET {column} = ? WHERE id = ?", (message_id, marked[0][0])
                )
            for start in range(0, len(covered), 500):  # within SQLite's count of parameters
                chunk = covered[start : start + 500]
                connection.execute(
                    "UPDATE outbox SET sent_at = ?, superseded_by = ?"
                    f" WHERE id IN ({', '.join('?' * len(chunk))})"
                    " AND sent_at IS NULL AND failed IS NULL",
                    (now, entry_id, *chunk),
                )
            return True

        # Remembering the message and the entries folded in are more statements: one
        # transaction, in one trip.
        return bool(await self._in_one_trip(mark_with_the_rest))

    # -- wake-ups ------------------------------------------------------------------------

    async def subscribe(self, callback: Callable[[str], None]) -> None:
        # An SQLite file is one process's, whose host pokes its own scheduler and outbox.
        return None

    # -- lifetime ------------------------------------------------------------------------

    async def close(self) -> None:
        # Writes already asked for are committed (and answered) before the connection goes.
        await self._settled.wait()
        # aiosqlite: a second close does nothing
        if self._reader is not None:
            await self._reader.close()
        await self._db.close()


async def _run(db: aiosqlite.Connection, sql: str, params: Iterable[object] = ()) -> int:
    """Execute one statement; returns how many rows it changed.

    One trip to the database thread: the statement runs to its end there, so nothing is
    left "in progress" to make COMMIT fail. The count comes from the connection's running
    total, which only this statement moves (the store's lock is held around every use).
    """
    before = db.total_changes
    await db.execute_fetchall(sql, tuple(params))
    return db.total_changes - before


async def _rows(
    db: aiosqlite.Connection, sql: str, params: Iterable[object] = ()
) -> list[sqlite3.Row]:
    """The rows of one statement, in one trip to the database thread."""
    return list(await db.execute_fetchall(sql, tuple(params)))


def _enqueue_statements(
    game_id: int, notices: Sequence[Outgoing], now: float
) -> list[tuple[str, list[object]]]:
    """The statements storing ``notices``: one for many rows, since each statement is a
    trip to the database thread."""
    statements: list[tuple[str, list[object]]] = []
    for start in range(0, len(notices), _ROWS_AT_ONCE):
        chunk = notices[start : start + _ROWS_AT_ONCE]
        values = ", ".join(["(?, ?, ?, ?)"] * len(chunk))
        params: list[object] = [
            p for n in chunk for p in (game_id, n.lane, json.dumps(n.body), now)
        ]
        statements.append(
            (f"INSERT INTO outbox (game_id, lane, body, created_at) VALUES {values}", params)
        )
    return statements


def _bump_statement(
    game_id: int, expected_version: int, now: float, fields: dict[str, object]
) -> tuple[str, tuple[Any, ...]]:
    """The version bump setting game ``fields`` (checked: ValueError for an unknown field
    or status) with its parameters; it changes one row, or none if the version moved."""
    values = game_values(fields)
    return bump_sql(values), (now, *values.values(), game_id, expected_version)


def _answer(writes: list[_Write], trip: asyncio.Future[Any]) -> None:
    """Answer each of ``writes`` from the trip that committed them (or failed them all)."""
    if trip.cancelled():
        outcomes: list[tuple[bool, Any]] = [(False, asyncio.CancelledError())] * len(writes)
    elif (error := trip.exception()) is not None:
        outcomes = [(False, error)] * len(writes)
    else:
        outcomes = trip.result()
    for write, (done, value) in zip(writes, outcomes, strict=True):
        if write.answer.done():
            continue
        if done:
            write.answer.set_result(value)
        else:
            write.answer.set_exception(_raised(value))


def _raised(error: BaseException) -> BaseException:
    """What a write that failed with ``error`` raises: busy past the timeout is
    StoreBusy, anything else itself."""
    if isinstance(error, sqlite3.OperationalError) and _is_busy(error):
        busy = StoreBusy(str(error))
        busy.__cause__ = error
        return busy
    return error


def _bumped(
    connection: sqlite3.Connection,
    statements: Sequence[tuple[str, Sequence[object]]],
    telling: tuple[int, int, Sequence[Outgoing], float] | None = None,
) -> bool:
    """Run ``statements`` (in the database thread, within a transaction). The first is a
    version bump: if it changed no row, nothing is run and the answer is False. Then, with
    ``telling`` (the game id, the version it was bumped from, notices and the time), the
    notices are stored, after the lapse of an offer the bump moved past unsettled
    (:func:`~bot.store.sql.base.with_lapse`)."""
    (bump, bumped), *rest = statements
    rows = connection.execute(bump, bumped).fetchall()
    if not rows:
        return False
    for sql, params in rest:
        connection.execute(sql, params)
    if telling is not None:
        game_id, expected_version, notices, now = telling
        told = with_lapse(rows[0], expected_version, notices)
        for sql, params in _enqueue_statements(game_id, told, now):
            connection.execute(sql, params)
    return True


def _rows_of(
    connection: sqlite3.Connection, sql: str, params: Sequence[object]
) -> list[sqlite3.Row]:
    """The rows of one statement, read to their end."""
    return connection.execute(sql, params).fetchall()


def _changes_of(connection: sqlite3.Connection, sql: str, params: Sequence[object]) -> int:
    """How many rows one statement changed (the connection's running total, which only
    this statement moves: the writes of a transaction run one after another)."""
    before = connection.total_changes
    connection.execute(sql, params).fetchall()
    return connection.total_changes - before


def _commit_together(
    connection: sqlite3.Connection, writes: Sequence[tuple[Callable[..., Any], tuple[Any, ...]]]
) -> list[tuple[bool, Any]]:
    """Run each of ``writes`` (``work(connection, *args)``) in a savepoint of its own and
    commit them in one transaction (in the database thread): for each, whether it was
    done and what it returned, or the exception it raised, its changes undone. Raises,
    with nothing committed, when the transaction itself fails (busy, a failing disk)."""
    outcomes: list[tuple[bool, Any]] = []
    connection.execute("BEGIN IMMEDIATE")
    try:
        for work, args in writes:
            connection.execute("SAVEPOINT write")
            try:
                outcomes.append((True, work(connection, *args)))
            except Exception as error:
                if not connection.in_transaction:
                    raise  # SQLite gave the whole transaction up: none of them is done
                connection.execute("ROLLBACK TO write")
                outcomes.append((False, error))
            connection.execute("RELEASE write")
        connection.execute("COMMIT")
    except BaseException:
        if connection.in_transaction:
            connection.execute("ROLLBACK")
        raise
    return outcomes


async def _open_reader(path: str, busy_timeout: float) -> aiosqlite.Connection:
    """A connection to the database at ``path`` (already open, in WAL mode) that only
    reads: each statement is its own read of the last commit."""
    reader = await aiosqlite.connect(path, isolation_level=None)
    try:
        reader.row_factory = aiosqlite.Row
        for pragma in ("query_only = ON", f"busy_timeout = {round(busy_timeout * 1000)}"):
            await _run(reader, f"PRAGMA {pragma}")
    except BaseException:
        await reader.close()
        raise
    return reader


async def _refuse_damaged(db: aiosqlite.Connection, path: str) -> None:
    """DamagedDatabase if the file cannot be read as an SQLite database: its header and
    schema are read (writing nothing) before anything is written."""
    try:
        await _rows(db, "SELECT count(*) FROM sqlite_master")
    except sqlite3.DatabaseError as error:
        if _is_damaged(error):
            raise DamagedDatabase(path, error) from error
        raise


def _is_damaged(error: sqlite3.DatabaseError) -> bool:
    """Whether ``error`` is SQLite's "not a database" or "malformed" (a damaged file)."""
    code = getattr(error, "sqlite_errorcode", None)
    if code is not None:
        return code & 0xFF in (sqlite3.SQLITE_NOTADB, sqlite3.SQLITE_CORRUPT)
    return "not a database" in str(error) or "malformed" in str(error)


async def _refuse_newer(db: aiosqlite.Connection, path: str) -> int:
    """The database's schema version; NewerDatabase if it is past the newest migration."""
    rows = await _rows(db, "PRAGMA user_version")
    current: int = rows[0][0]
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
