"""PostgreSQL store through asyncpg: a connection pool, one transaction per write, for
several bot processes sharing one database.

The statements both dialects share are in :class:`~bot.store.sql.SqlStore` (by concern); here are
PostgreSQL's execution layer (``?`` placeholders numbered ``$1``, ``$2``, ...) and its
tuned paths. How it keeps the protocol's promises across processes:

- **Versions.** A versioned write runs ``UPDATE games SET version = version + 1 ... WHERE
  id = $n AND version = $m RETURNING version`` first in its transaction. The update locks
  the game's row until the transaction ends, so a second writer at the same version waits,
  then finds the version moved (PostgreSQL re-checks the condition on the row it waited
  for) and gets :class:`~bot.store.StaleVersion`; the transaction is rolled back, so
  nothing of it is written. A seat already taken fails its unique key the same way.
- **Reads** are single statements (a game's seats come in the same statement, as JSON), so
  each sees one committed moment and never half of another call's transaction.
- **Notices** are inserted last in their write's transaction, after it takes one
  transaction-scoped advisory lock per lane (in a fixed order). Writes to one lane thus
  take their outbox ids and commit one after another, so a reader never sees an entry of
  a lane while an older one of that lane is still uncommitted: id order is send order.
- **Migrations** are the PostgreSQL dialect of the numbered steps
  (``migrations.py``), one transaction each under an advisory lock, numbered by
  the one-row table ``schema_version``. A database whose number is past the newest step is
  refused with :class:`~bot.store.NewerDatabase` before anything is written.
- **Wake-ups.** A write that moves a deadline, a reminder or a game's status sends
  ``NOTIFY dragon_host, 'clock <store>'`` in its own transaction, one that stores notices
  ``NOTIFY dragon_host, 'outbox <store>'``; PostgreSQL delivers them to every listener once the
  transaction commits (and never if it is rolled back). :meth:`PostgresStore.subscribe`
  listens on a connection of its own, outside the pool, and connects again if it is lost
  (then calling back with both kinds, for what it may have missed).
- **Busy.** A lock waited for past ``lock_timeout`` (the ``busy_timeout`` of ``open``)
  raises :class:`~bot.store.StoreBusy`, its transaction rolled back, as SQLite's busy
  timeout does.

JSON fields are stored as text, so they read back exactly as written, as in SQLite.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import zlib
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from functools import lru_cache
from typing import Any, TypeAlias
from urllib.parse import urlsplit, urlunsplit

import asyncpg
from asyncpg.pool import PoolConnectionProxy

from bot.store.migrations import MIGRATIONS, scripts
from bot.store.records import (
    GameRecord,
    JsonObject,
    NewerDatabase,
    OutboxEntry,
    Outgoing,
    Rater,
    ResultRow,
    Row,
    StaleVersion,
    StoreBusy,
)
from bot.store.sql import SqlStore
from bot.store.sql.base import (
    MESSAGE_COLUMNS,
    bump_sql,
    game_values,
    moves_clock,
    readable_records,
    with_lapse,
)
from bot.store.sql.outbox import CLAIM_LANE, PENDING, WAITING

CHANNEL = "dragon_host"
"""The ``LISTEN``/``NOTIFY`` channel of wake-ups; payloads ``"clock <store>"`` and
``"outbox <store>"``, where ``<store>`` marks the store object that wrote (it does not hear
its own wake-ups: its host pokes its own scheduler and outbox)."""
RELISTEN = (0.5, 1.0, 2.0, 5.0, 10.0, 30.0)
"""Seconds between tries to listen again after the listening connection was lost."""

# Advisory lock keys (the first of two int4 keys): one for migrating, one space for lanes.
_MIGRATION_LOCK = 0x6468_0001
_LANE_LOCKS = 0x6468_0002
_RATING_LOCKS = 0x6468_0003  # one per pool of ratings (a server's games of one kind)

_GAME_JSON = ("options", "timing", "snapshot")

_Conn: TypeAlias = "asyncpg.Connection[asyncpg.Record] | PoolConnectionProxy[asyncpg.Record]"

log = logging.getLogger(__name__)


class _Session:
    """A pooled connection, its statements' ``?`` placeholders numbered for PostgreSQL."""

    def __init__(self, conn: _Conn) -> None:
        self.conn = conn

    async def fetch(self, sql: str, *args: object) -> list[asyncpg.Record]:
        return await self.conn.fetch(numbered(sql), *args)

    async def fetchrow(self, sql: str, *args: object) -> asyncpg.Record | None:
        return await self.conn.fetchrow(numbered(sql), *args)

    async def fetchval(self, sql: str, *args: object) -> Any:
        return await self.conn.fetchval(numbered(sql), *args)

    async def execute(self, sql: str, *args: object) -> int:
        status = await self.conn.execute(numbered(sql), *args)
        count = status.rpartition(" ")[2]  # "UPDATE 1", "INSERT 0 1", "DELETE 3"
        return int(count) if count.isdigit() else 0

    async def executemany(self, sql: str, rows: Iterable[Sequence[object]]) -> None:
        many = list(rows)
        if many:
            await self.conn.executemany(numbered(sql), many)


class PostgresStore(SqlStore[_Session]):
    """Games, seats, actions and settings in one PostgreSQL database."""

    _GAMES = (
        "SELECT g.*, (SELECT COALESCE(json_agg(json_build_object("
        "'seat', s.seat, 'role', s.role, 'user_id', s.user_id, 'name', s.name,"
        " 'left', s.\"left\", 'computer', s.computer, 'notify', u.notify, 'calls', u.calls,"
        " 'away_until', u.away_until) ORDER BY s.seat), '[]'::json)"
        " FROM seats s LEFT JOIN users u ON u.user_id = s.user_id WHERE s.game_id = g.id)::text"
        " AS seat_list,"
        " (SELECT COALESCE(json_agg(w.user_id ORDER BY w.since, w.user_id), '[]'::json)"
        "  FROM watchers w WHERE w.game_id = g.id)::text AS watcher_list,"
        " (SELECT COALESCE(json_agg(w.user_id), '[]'::json) FROM watchers w JOIN digests d"
        "  ON d.user_id = w.user_id AND d.kind = 'watching' WHERE w.game_id = g.id)::text"
        " AS digest_watcher_list,"
        " (SELECT json_build_object('version', o.version, 'kind', o.kind, 'seat', o.seat,"
        "  'user_id', o.user_id, 'accepted', o.accepted, 'created_at', o.created_at)"
        "  FROM offers o WHERE o.game_id = g.id AND o.version = g.version)::text AS open_offer"
        " FROM games g"
    )
    _LOCK_ROW = " FOR UPDATE"
    _DUPLICATE = asyncpg.UniqueViolationError

    def __init__(self, pool: asyncpg.Pool, url: str | None = None) -> None:
        self._pool = pool
        self._url = url
        # Marks this store's own wake-ups, which it does not hear (a process may hold two).
        self._token = secrets.token_hex(6)
        self._closed = False
        self._callbacks: list[Callable[[str], None]] = []
        self._listening: asyncpg.Connection | None = None
        self._relisten: asyncio.Task[None] | None = None

    @classmethod
    async def open(
        cls, url: str, *, max_connections: int = 10, busy_timeout: float = 5.0
    ) -> PostgresStore:
        """The store in the PostgreSQL database at ``url`` (``postgresql://user@host/db``),
        its schema migrated to the newest version. A database written by a newer release is
        refused with :class:`~bot.store.NewerDatabase` before anything is written. A call
        that waits more than ``busy_timeout`` seconds for a lock another writer holds (the
        server's ``lock_timeout``) raises :class:`~bot.store.StoreBusy`, writing nothing."""
        pool = await asyncpg.create_pool(
            url,
            # Two connections stand ready, so that calls arriving together (a double click)
            # are read side by side rather than one waiting for a connection to be made.
            min_size=min(2, max_connections),
            max_size=max_connections,
            server_settings={"lock_timeout": str(max(1, round(busy_timeout * 1000)))},
            reset=_keep_session,
        )
        try:
            async with pool.acquire() as conn, _busy():
                await _migrate(conn, _shown(url))
        except BaseException:
            await pool.close()
            raise
        return cls(pool, url)

    # -- the execution layer -------------------------------------------------------------

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[_Session]:
        async with _busy(), self._pool.acquire() as conn, conn.transaction():
            yield _Session(conn)

    @asynccontextmanager
    async def _one_statement(self) -> AsyncIterator[_Session]:
        async with _busy(), self._pool.acquire() as conn:
            yield _Session(conn)

    def _any(
        self, column: str, values: Sequence[object], sql_type: str
    ) -> tuple[str, list[object]]:
        # One array parameter, so the statement's text (and its prepared plan) is one.
        return f"{column} = ANY(?::{sql_type}[])", [list(values)]

    async def _enqueue(
        self,
        tx: _Session,
        game_id: int,
        notices: Sequence[Outgoing],
        now: float,
        *,
        clock: bool = False,
    ) -> None:
        conn = tx.conn
        if not notices:
            if clock:
                await conn.execute("SELECT pg_notify($1, $2)", CHANNEL, self._payload("clock"))
            return
        rows = [(game_id, n.lane, json.dumps(n.body), float(now)) for n in notices]
        # Every lane's lock in key order (unnest keeps the array's order, and the count
        # takes each), so two writes sharing lanes never wait for each other crosswise;
        # the wake-up rides in the same statement, since each statement is a round trip.
        keys = sorted({_lane_key(n.lane) for n in notices})
        wake = self._payload("outbox", "clock") if clock else self._payload("outbox")
        await conn.execute(
            "SELECT count(pg_advisory_xact_lock($1, k)), pg_notify($3, $4)"
            " FROM unnest($2::int[]) AS k",
            _LANE_LOCKS, keys, CHANNEL, wake,
        )  # fmt: skip
        await conn.executemany(
            "INSERT INTO outbox (game_id, lane, body, created_at) VALUES ($1, $2, $3, $4)", rows
        )

    async def _lock_pool(self, tx: _Session, guild_id: int, slug: str) -> None:
        # Shared with every game ending, exclusive per pool: see _lock_all_ratings.
        await tx.conn.execute("SELECT pg_advisory_xact_lock_shared($1, 0)", _RATING_LOCKS)
        key = _pool_key(guild_id, slug)
        await tx.conn.execute("SELECT pg_advisory_xact_lock($1, $2)", _RATING_LOCKS, key)

    async def _lock_all_ratings(self, tx: _Session) -> None:
        await tx.conn.execute("SELECT pg_advisory_xact_lock($1, 0)", _RATING_LOCKS)

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
        values = game_values(fields)
        logged = json.dumps(events)
        if results and rater is None:
            raise ValueError("results need a rater to keep the ratings")
        if not results:
            version = await self._fetchval(
                *self._one_statement_action(
                    game_id, expected_version, now, values, (seat, action, logged), notices
                )
            )
            if version is not None:
                return int(version)
            # Stale, or an offer waits that none of the notices settles (made after the
            # caller read the game): the transaction below tells which, and stores the
            # offer's lapse with the action.
        async with self._transaction() as tx:
            version, told = await _bump_and_log(
                tx.conn, game_id, expected_version, now, values, (seat, action, logged), notices
            )
            if results:
                await self._record_results(tx, results, rater)
            await self._enqueue(tx, game_id, told, now, clock=moves_clock(values))
            return version

    def _one_statement_action(
        self,
        game_id: int,
        expected_version: int,
        now: float,
        values: dict[str, object],
        log: tuple[int, str, str],
        notices: Sequence[Outgoing],
    ) -> tuple[Any, ...]:
        """An action that ends no game as one statement (its own transaction, one round
        trip): the version bump, the log entry, the lanes' locks, the notices and the
        wake-up, each step taking the previous one's rows, so a game that moved on writes,
        locks and tells nothing. The statement's value is the new version, NULL if stale.

        Unless one of ``notices`` settles an offer waiting at ``expected_version``, the
        bump also needs no offer to wait there (the game's row says so, as it is once the
        statement has its lock): an offer made after the caller read the game leaves the
        statement writing nothing (NULL), and the action goes the way of a transaction,
        which stores the offer's lapse first. A CTE step cannot store that lapse here:
        an offer committed while the statement waited for the row is not in its snapshot
        of other tables, and the lapse's lane would need its lock taken in order.

        What :meth:`_enqueue` does in a transaction, in the same order: the lanes are
        locked (the count needs every lock) before the first notice takes its id."""
        settled = any(n.settles == expected_version for n in notices)
        bump, last = _bump_sql(values, "" if settled else _NO_OFFER_WAITS)
        params: list[object] = [float(now), *values.values(), game_id, expected_version, *log]
        steps = [
            f"bumped AS ({bump})",
            "logged AS (INSERT INTO actions (game_id, seq, seat, action, events, created_at)"
            f" SELECT ${last}, version, ${last + 2}, ${last + 3}, ${last + 4}, $1 FROM bumped"
            " RETURNING seq)",
        ]
        told = ""
        clock = moves_clock(values)
        if notices:
            at = len(params) + 1
            params += [
                _LANE_LOCKS, sorted({_lane_key(n.lane) for n in notices}), CHANNEL,
                self._payload("outbox", "clock") if clock else self._payload("outbox"),
                [n.lane for n in notices], [json.dumps(n.body) for n in notices],
            ]  # fmt: skip
            steps += [
                f"locked AS (SELECT count(pg_advisory_xact_lock(${at}, k)) AS locks,"
                f" pg_notify(${at + 2}, ${at + 3}) FROM bumped, unnest(${at + 1}::int[]) AS k"
                " HAVING count(*) > 0)",
                "queued AS (INSERT INTO outbox (game_id, lane, body, created_at)"
                f" SELECT ${last}, n.lane, n.body, $1 FROM locked,"
                f" unnest(${at + 4}::text[], ${at + 5}::text[]) WITH ORDINALITY AS n(lane, body, i)"
                " ORDER BY n.i RETURNING id)",
            ]
        elif clock:
            params += [CHANNEL, self._payload("clock")]
            steps.append(
                f"told AS (SELECT pg_notify(${len(params) - 1}, ${len(params)}) FROM bumped)"
            )
            told = ", (SELECT count(*) FROM told)"
        return (f"WITH {', '.join(steps)} SELECT (SELECT seq FROM logged){told}", *params)

    # -- deadlines -----------------------------------------------------------------------

    async def next_wakeup(self, exclude: Sequence[int] = ()) -> float | None:
        # Each side walks its partial index in time order: the first ``wanted`` rows, in
        # one statement. A side whose rows are all unreadable is read again, further.
        wanted = 1
        while True:
            rows = await self._fetch(
                " UNION ALL ".join(
                    f"(SELECT '{column}' AS side, {column} AS t, options, timing, snapshot"
                    f" FROM games WHERE {column} IS NOT NULL AND status = 'running'"
                    f" AND NOT (id = ANY($1::bigint[])) ORDER BY {column} LIMIT $2)"
                    for column in ("deadline", "remind_at")
                ),
                list(exclude), wanted,
            )  # fmt: skip
            earliest: list[float] = []
            settled = True
            for column in ("deadline", "remind_at"):
                side = sorted((r for r in rows if r["side"] == column), key=lambda r: r["t"])
                readable = next((r["t"] for r in side if _readable(r)), None)
                if readable is not None:
                    earliest.append(readable)
                elif len(side) == wanted:
                    settled = False
            if settled:
                return min(earliest, default=None)
            wanted *= 4

    async def due(self, now: float, limit: int = 100) -> list[GameRecord]:
        return await self._game_records(
            "WHERE g.status = 'running' AND (g.deadline <= ? OR g.remind_at <= ?)"
            " ORDER BY LEAST(g.deadline, g.remind_at), g.id",
            (now, now),
            limit=limit,
        )

    async def claim_due(
        self, now: float, owner: str, lease_seconds: float, limit: int = 100
    ) -> list[GameRecord]:
        # One statement: rows another claimer has locked meanwhile are skipped (SKIP
        # LOCKED), so claimers at the same moment get disjoint sets. A claimed row that
        # cannot be read is left out (its claim lapses with its lease).
        rows = await self._fetch(
            "WITH claimed AS (UPDATE games SET claimed_by = $2, claimed_until = $3"
            " WHERE id IN (SELECT id FROM games WHERE status = 'running'"
            " AND (deadline <= $1 OR remind_at <= $1)"
            " AND (claimed_by IS NULL OR claimed_by = $2 OR claimed_until <= $1)"
            " ORDER BY LEAST(deadline, remind_at), id LIMIT $4 FOR UPDATE SKIP LOCKED)"
            " RETURNING *)"
            f" {self._GAMES.replace('FROM games g', 'FROM claimed g')}"
            " ORDER BY LEAST(g.deadline, g.remind_at), g.id",
            float(now), owner, float(now) + float(lease_seconds), limit,
        )  # fmt: skip
        return readable_records(rows)

    # -- the outbox ----------------------------------------------------------------------

    async def take_lane(
        self, lane: str, owner: str, *, now: float, lease_seconds: float, limit: int = 200
    ) -> list[OutboxEntry] | None:
        # One statement: the claim, then (only if it was won) the lane's pending notices;
        # a claim won over an empty lane gives one row of NULLs. A claim can be won by
        # waiting for the holder's release to commit, after this statement's snapshot was
        # taken: locking the notices read makes PostgreSQL read each again as it is now,
        # so one the holder marked sent meanwhile is left out.
        rows = await self._fetch(
            f"WITH claim AS ({CLAIM_LANE})"
            f" SELECT pending.* FROM claim LEFT JOIN LATERAL ({PENDING}"
            f"  WHERE o.lane = ? AND {WAITING}"
            "  ORDER BY o.id LIMIT ? FOR UPDATE OF o) pending ON true",
            lane, owner, float(now) + float(lease_seconds), float(now), lane, limit,
        )  # fmt: skip
        if not rows:
            return None
        return [OutboxEntry.from_row(r) for r in rows if r["id"] is not None]

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
            "UPDATE outbox SET sent_at = $1, message_id = $2"
            " WHERE id = $3 AND sent_at IS NULL AND failed IS NULL RETURNING game_id"
        )
        if message_id is None:
            column = None
        if column is None and not covers:
            marked = await self._fetchval(mark, float(now), message_id, entry_id)
            return marked is not None
        # One statement: the game remembers the message, and the entries folded into the
        # send are recorded as sent by it, only if this caller marked it.
        remembered = (
            f", remembered AS (UPDATE games SET {column} = $2"
            " FROM marked WHERE games.id = marked.game_id)"
            if column is not None
            else ""
        )
        marked = await self._fetchval(
            f"WITH marked AS ({mark}){remembered}, covered AS (UPDATE outbox"
            " SET sent_at = $1, superseded_by = $3 WHERE id = ANY($4::bigint[])"
            " AND sent_at IS NULL AND failed IS NULL AND EXISTS (SELECT 1 FROM marked))"
            " SELECT count(*) FROM marked",
            float(now), message_id, entry_id, list(covers),
        )  # fmt: skip
        return bool(marked == 1)

    # -- wake-ups ------------------------------------------------------------------------

    async def subscribe(self, callback: Callable[[str], None]) -> None:
        if self._closed:
            raise RuntimeError("the store is closed")
        self._callbacks.append(callback)
        if self._listening is None and self._relisten is None:
            await self._listen()

    async def _listen(self) -> None:
        """Open the listening connection and ``LISTEN`` on :data:`CHANNEL`."""
        if self._url is None:
            raise RuntimeError("a store made without its URL cannot listen")
        conn = await asyncpg.connect(self._url)
        try:
            await conn.add_listener(CHANNEL, self._heard)
        except BaseException:
            await conn.close()
            raise
        conn.add_termination_listener(self._lost)
        self._listening = conn

    def _heard(self, conn: object, pid: int, channel: str, payload: object) -> None:
        *kinds, sender = str(payload).split(" ")
        if sender != self._token:  # this store's own writes: its host pokes itself
            for kind in kinds:
                self._tell(kind)

    def _payload(self, *kinds: str) -> str:
        """A wake-up's payload: its kinds, then the store that sent it."""
        return " ".join((*kinds, self._token))

    def _tell(self, kind: str) -> None:
        for callback in list(self._callbacks):
            try:
                callback(kind)
            except Exception:
                log.exception("a wake-up (%s) could not be handled", kind)

    def _lost(self, conn: object) -> None:
        """The listening connection ended (the server restarted, the network dropped):
        listen again in the background, unless the store is closing."""
        if self._closed or conn is not self._listening:
            return
        self._listening = None
        self._relisten = asyncio.get_running_loop().create_task(
            self._listen_again(), name="store-listen"
        )

    async def _listen_again(self) -> None:
        tries = 0
        while not self._closed:
            try:
                await self._listen()
            except (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError) as e:
                log.warning("listening for wake-ups failed (%r); trying again", e)
                await asyncio.sleep(RELISTEN[min(tries, len(RELISTEN) - 1)])
                tries += 1
                continue
            self._relisten = None
            log.info("listening for wake-ups again")
            for kind in ("clock", "outbox"):  # some may have been sent meanwhile
                self._tell(kind)
            return

    # -- lifetime ------------------------------------------------------------------------

    async def close(self) -> None:
        if not self._closed:
            self._closed = True
            relisten, self._relisten = self._relisten, None
            if relisten is not None:
                relisten.cancel()
                await asyncio.gather(relisten, return_exceptions=True)
            listening, self._listening = self._listening, None
            if listening is not None:
                await listening.close()
            await self._pool.close()


@lru_cache(maxsize=1024)
def numbered(sql: str) -> str:
    """``sql`` with its ``?`` placeholders numbered in order (``$1``, ``$2``, ...), as
    PostgreSQL takes them; a statement already numbered comes back as it is."""
    first, *rest = sql.split("?")
    return first + "".join(f"${i}{part}" for i, part in enumerate(rest, start=1))


async def _keep_session(conn: _Conn) -> None:
    """What a connection needs on its way back to the pool beyond asyncpg's own rollback of
    an unfinished transaction: nothing. The store changes no session state (its advisory
    locks end with their transaction, and it listens on a connection of its own), so the
    default reset (``RESET ALL``, ``UNLISTEN *``, … : a round trip on every release) is
    left out."""


@asynccontextmanager
async def _busy() -> AsyncIterator[None]:
    """A lock wait past ``lock_timeout`` becomes StoreBusy (its transaction rolled back)."""
    try:
        yield
    except asyncpg.LockNotAvailableError as error:
        raise StoreBusy(str(error)) from error


async def _bump_and_log(
    conn: _Conn,
    game_id: int,
    expected_version: int,
    now: float,
    values: dict[str, object],
    log: tuple[int, str, str],
    notices: Sequence[Outgoing],
) -> tuple[int, list[Outgoing]]:
    """Check the version, bump it and set ``values``, locking the game's row until the
    transaction ends, and write the action's log entry (seat, action, events as JSON) with
    ``seq`` the new version, in one statement (each statement is a round trip): the new
    version and the notices to store (``notices``, after the lapse of an offer the bump
    moved past unsettled: :func:`~bot.store.sql.base.with_lapse`). StaleVersion if the game is
    missing or has moved on."""
    bump, last = _bump_sql(values)
    bumped = await conn.fetchrow(
        f"WITH bumped AS ({bump}), logged AS (INSERT INTO actions"
        " (game_id, seq, seat, action, events, created_at)"
        f" SELECT ${last}, version, ${last + 2}, ${last + 3}, ${last + 4}, $1 FROM bumped"
        " RETURNING seq) SELECT seq, offer_version, offer_lapse FROM logged, bumped",
        float(now), *values.values(), game_id, expected_version, *log,
    )  # fmt: skip
    if bumped is None:
        raise StaleVersion(game_id)
    return int(bumped["seq"]), with_lapse(bumped, expected_version, notices)


_NO_OFFER_WAITS = " AND offer_version IS DISTINCT FROM version"
"""A bump's condition that no offer waits at the version it moves the game from."""


def _bump_sql(values: dict[str, object], also: str = "") -> tuple[str, int]:
    """The version bump setting ``values`` (``$1`` the time, then the values), on the
    condition ``also`` too, and the number of its game id parameter (the expected
    version's is the next)."""
    return numbered(bump_sql(values, also=also)), len(values) + 2


def _lane_key(lane: str) -> int:
    """A lane's advisory lock key: a signed 32-bit hash (two lanes sharing one only wait
    for each other)."""
    key = zlib.crc32(lane.encode())
    return key - 2**32 if key >= 2**31 else key


def _pool_key(guild_id: int, slug: str) -> int:
    """A pool's advisory lock key: a signed 32-bit hash, never 0 (the key of all pools)."""
    key = zlib.crc32(f"{guild_id}:{slug}".encode()) or 1
    return key - 2**32 if key >= 2**31 else key


def _readable(row: Row) -> bool:
    """Whether a game row's JSON can be read, as :meth:`GameRecord.from_row` reads it."""
    try:
        for column in _GAME_JSON:
            if row[column] or column != "snapshot":
                json.loads(row[column])
    except ValueError:
        return False
    return True


async def _migrate(conn: _Conn, shown: str) -> None:
    """Apply the steps past the database's schema version, one transaction each, under an
    advisory lock so that processes starting together migrate once; a database newer than
    the code is refused (NewerDatabase) before anything is written."""
    known = len(MIGRATIONS)
    while True:
        async with conn.transaction():
            await conn.execute("SELECT pg_advisory_xact_lock($1, 0)", _MIGRATION_LOCK)
            current = await _schema_version(conn)
            if current is not None and current > known:
                raise NewerDatabase(shown, current, known)
            if current == known:
                return
            if current is None:
                await conn.execute(
                    "CREATE TABLE schema_version (one boolean PRIMARY KEY DEFAULT true"
                    " CHECK (one), version integer NOT NULL);"
                    " INSERT INTO schema_version (version) VALUES (0)"
                )
                current = 0
            await conn.execute(scripts("postgres")[current])
            await conn.execute("UPDATE schema_version SET version = $1", current + 1)


async def _schema_version(conn: _Conn) -> int | None:
    """The database's schema version; None for a database without ``schema_version``."""
    if await conn.fetchval("SELECT to_regclass('schema_version')") is None:
        return None
    version: int = await conn.fetchval("SELECT version FROM schema_version")
    return version


def _shown(url: str) -> str:
    """``url`` without its password, to name the database in a message."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.replace(f":{parts.password}@", ":***@", 1)
    return urlunsplit(parts._replace(netloc=netloc))
