"""PostgreSQL store through asyncpg: a connection pool, one transaction per write.

It implements :class:`bot.store.Store`, whose docstrings say what each method promises, for
several bot processes sharing one database. How it keeps them:

- **Versions.** A versioned write runs ``UPDATE games SET version = version + 1 ... WHERE
  id = $1 AND version = $2 RETURNING version`` first in its transaction. The update locks
  the game's row until the transaction ends, so a second writer at the same version waits,
  then finds the version moved (PostgreSQL re-checks the condition on the row it waited
  for) and gets :class:`~bot.store.StaleVersion`; the transaction is rolled back, so
  nothing of it is written. A seat already taken fails its unique key the same way.
- **Reads** are single statements (a game's seats come in the same statement, as JSON), so
  each sees one committed moment and never half of another call's transaction. A game
  whose stored JSON cannot be read spoils only itself: ``get_game`` raises ValueError,
  listings and ``due`` leave it out, ``next_wakeup`` passes over it.
- **Notices** are inserted last in their write's transaction, after it takes one
  transaction-scoped advisory lock per lane (in a fixed order). Writes to one lane thus
  take their outbox ids and commit one after another, so a reader never sees an entry of
  a lane while an older one of that lane is still uncommitted: id order is send order.
- **Migrations** are the PostgreSQL dialect of the numbered steps
  (``postgres_migrations.py``), one transaction each under an advisory lock, numbered by
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
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import asyncpg

from bot.store.postgres_migrations import MIGRATIONS
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
_GAME_JSON = ("options", "timing", "snapshot")
_MESSAGE_COLUMNS = {"status": "status_message_id", "board": "board_message_id"}
_CLAIM_LANE = (
    "INSERT INTO lanes (lane, owner, until) VALUES ($1, $2, $3)"
    " ON CONFLICT (lane) DO UPDATE SET owner = excluded.owner, until = excluded.until"
    " WHERE lanes.owner = excluded.owner OR lanes.until <= $4 RETURNING owner"
)
"""Claim (or renew) lane $1 for owner $2 until $3 unless another claim lasts past $4."""
_PENDING = (
    "SELECT o.*, g.status_message_id AS status_message, g.board_message_id AS board_message"
    " FROM outbox o LEFT JOIN games g ON g.id = o.game_id"
)
"""Outbox rows with their games' message ids; a WHERE clause follows."""

CHANNEL = "dragon_host"
"""The ``LISTEN``/``NOTIFY`` channel of wake-ups; payloads ``"clock <store>"`` and
``"outbox <store>"``, where ``<store>`` marks the store object that wrote (it does not hear
its own wake-ups: its host pokes its own scheduler and outbox)."""
_USER_FACTS = frozenset({"notify", "dm_closed", "away_until"})
"""The columns of ``users`` set one at a time."""
_CLOCK_FIELDS = frozenset({"deadline", "remind_at", "status"})
"""Game fields whose change may make a game due sooner (or no longer due)."""
RELISTEN = (0.5, 1.0, 2.0, 5.0, 10.0, 30.0)
"""Seconds between tries to listen again after the listening connection was lost."""

# Advisory lock keys (the first of two int4 keys): one for migrating, one space for lanes.
_MIGRATION_LOCK = 0x6468_0001
_LANE_LOCKS = 0x6468_0002
_RATING_LOCKS = 0x6468_0003  # one per pool of ratings (a server's games of one kind)

# A game row with all its seats (ordered by seat number) as a JSON list, in one statement.
_GAME_SELECT = (
    "SELECT g.*, (SELECT COALESCE(json_agg(json_build_object("
    "'seat', s.seat, 'role', s.role, 'user_id', s.user_id, 'name', s.name,"
    " 'left', s.\"left\", 'computer', s.computer, 'notify', u.notify,"
    " 'away_until', u.away_until) ORDER BY s.seat), '[]'::json)"
    " FROM seats s LEFT JOIN users u ON u.user_id = s.user_id WHERE s.game_id = g.id)::text"
    " AS seat_list,"
    " (SELECT COALESCE(json_agg(w.user_id ORDER BY w.since, w.user_id), '[]'::json)"
    "  FROM watchers w WHERE w.game_id = g.id)::text AS watcher_list"
    " FROM games g"
)
"""A game row with all its seats (each with its player's notify choice and time away) and
its watchers as JSON lists, in one statement: everything a turn's notices need."""

log = logging.getLogger(__name__)


class PostgresStore:
    """Games, seats, actions and settings in one PostgreSQL database."""

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

    # -- wake-ups ----------------------------------------------------------------------

    async def subscribe(self, callback: Callable[[str], None]) -> None:
        """Call ``callback("clock")`` or ``callback("outbox")`` for each wake-up another store
        sends on the database; listening has begun when this returns."""
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

    def _heard(self, conn: object, pid: int, channel: str, payload: str) -> None:
        *kinds, sender = payload.split(" ")
        if sender != self._token:  # this store's own writes: its host pokes itself
            for kind in kinds:
                self._tell(kind)

    def _payload(self, *kinds: str) -> str:
        """A wake-up's payload: its kinds, then the store that sent it."""
        return " ".join((*kinds, self._token))

    async def _wake(self, conn: asyncpg.Connection, kind: str) -> None:
        """Tell the other listeners ``kind`` when this transaction commits."""
        await conn.execute("SELECT pg_notify($1, $2)", CHANNEL, self._payload(kind))

    async def _enqueue(
        self,
        conn: asyncpg.Connection,
        game_id: int,
        notices: Sequence[Outgoing],
        now: float,
        *,
        clock: bool = False,
    ) -> None:
        """Store ``notices`` in the outbox, last in the transaction: each lane's advisory
        lock (held until commit) makes writes to one lane take ids and commit one after
        another. The listeners are told ``"outbox"`` at commit, and ``"clock"`` too when
        ``clock`` (the write moved a deadline)."""
        if not notices:
            if clock:
                await self._wake(conn, "clock")
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

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[asyncpg.Connection]:
        """One transaction on a pooled connection: committed at the end, rolled back if
        anything raises."""
        async with _busy(), self._pool.acquire() as conn, conn.transaction():
            yield conn

    async def _fetch(self, sql: str, *args: Any) -> list[asyncpg.Record]:
        async with _busy():
            return await self._pool.fetch(sql, *args)

    async def _fetchrow(self, sql: str, *args: Any) -> asyncpg.Record | None:
        async with _busy():
            return await self._pool.fetchrow(sql, *args)

    async def _fetchval(self, sql: str, *args: Any) -> Any:
        async with _busy():
            return await self._pool.fetchval(sql, *args)

    async def _execute(self, sql: str, *args: Any) -> None:
        async with _busy():
            await self._pool.execute(sql, *args)

    async def _game_records(
        self, where: str, params: Sequence[Any] = (), *, limit: int
    ) -> list[GameRecord]:
        """At most ``limit`` of the games ``where`` selects (and orders), each with its seats,
        leaving out (and logging) a row whose JSON cannot be read. Each read is one
        statement; one that met such a row is read again with room for as many more."""
        wanted = limit
        while True:
            rows = await self._fetch(
                f"{_GAME_SELECT} {where} LIMIT ${len(params) + 1}", *params, wanted
            )
            records = []
            for row in rows:
                try:
                    records.append(GameRecord.with_seat_list(row))
                except ValueError:
                    log.warning("game %s cannot be read (damaged JSON); left out", row["id"])
            if len(records) >= limit or len(rows) < wanted:
                return records[:limit]
            wanted += limit - len(records)

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
        values = (
            guild_id, channel_id, slug, host_id, players, json.dumps(options), seed,
            json.dumps(timing or {}), bool(own_thread), len(seats), float(now), float(now),
            json.dumps(data or {}),
        )  # fmt: skip
        async with self._transaction() as conn:
            game_id = await conn.fetchval(
                "INSERT INTO games (guild_id, channel_id, slug, status, host_id, players,"
                " options, seed, timing, own_thread, version, created_at, updated_at, data)"
                " VALUES ($1, $2, $3, 'lobby', $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)"
                " RETURNING id",
                *values,
            )
            if rematch_of is not None:
                try:
                    await conn.execute(
                        "UPDATE games SET rematch_of = $1 WHERE id = $2", rematch_of, game_id
                    )
                except asyncpg.UniqueViolationError as error:  # the unique index: one rematch
                    raise StaleVersion(rematch_of) from error
            if seats:
                await conn.executemany(
                    "INSERT INTO seats (game_id, role, seat, user_id, name, computer)"
                    " VALUES ($1, $2, $3, $4, $5, $6)",
                    [(game_id, s.role, s.seat, s.user_id, s.name, s.computer) for s in seats],
                )
            told = notices(game_id) if callable(notices) else notices
            await self._enqueue(conn, game_id, told, now)
            return game_id

    async def get_game(self, game_id: int) -> GameRecord | None:
        """The game, or None; ValueError if its stored JSON cannot be read."""
        row = await self._fetchrow(f"{_GAME_SELECT} WHERE g.id = $1", game_id)
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
        """Games matching every filter given, newest first."""
        where: list[str] = []
        params: list[Any] = []

        def param(value: Any) -> str:
            params.append(value)
            return f"${len(params)}"

        if guild_id is not None:
            where.append(f"g.guild_id = {param(guild_id)}")
        if channel_id is not None:
            where.append(f"g.channel_id = {param(channel_id)}")
        if user_id is not None:
            where.append(f"g.id IN (SELECT game_id FROM seats WHERE user_id = {param(user_id)})")
        if active_only:
            where.append("g.status IN ('lobby', 'running', 'paused')")
        sql = f"WHERE {' AND '.join(where)}" if where else ""
        return await self._game_records(f"{sql} ORDER BY g.id DESC", params, limit=limit)

    async def finished_games(
        self, *, guild_id: int, user_id: int | None = None, limit: int = 10
    ) -> list[GameRecord]:
        """The server's finished games, most recently ended first."""
        where, params = "WHERE g.guild_id = $1 AND g.status = 'finished'", [guild_id]
        if user_id is not None:
            where += " AND g.id IN (SELECT game_id FROM seats WHERE user_id = $2)"
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
        """Change game fields if the version is still ``expected_version``; returns the new one."""
        values = _game_values(fields)
        async with self._transaction() as conn:
            version = await _bump(conn, game_id, expected_version, now, values)
            await self._enqueue(conn, game_id, notices, now, clock=_moves_clock(values))
            return version

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
        StaleVersion if the game moved or the seat or role was taken."""
        async with self._transaction() as conn:
            version = await _bump(conn, game_id, expected_version, now, {})
            try:
                await conn.execute(
                    "INSERT INTO seats (game_id, role, seat, user_id, name, computer)"
                    " VALUES ($1, $2, $3, $4, $5, $6)",
                    game_id, role, seat, user_id, name, computer,
                )  # fmt: skip
            except asyncpg.UniqueViolationError as error:
                raise StaleVersion(game_id) from error
            await self._enqueue(conn, game_id, notices, now)
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
        async with self._transaction() as conn:
            version = await _bump(conn, game_id, expected_version, now, {})
            await conn.execute(
                'UPDATE seats SET "left" = true WHERE game_id = $1 AND user_id = $2',
                game_id, user_id,
            )  # fmt: skip
            await self._enqueue(conn, game_id, notices, now)
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
        async with self._transaction() as conn:
            version = await _bump(conn, game_id, expected_version, now, {})
            await conn.execute(
                "DELETE FROM seats WHERE game_id = $1 AND user_id = $2", game_id, user_id
            )
            await self._enqueue(conn, game_id, notices, now)
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
        values = _game_values(fields)
        logged = json.dumps(events)
        if results and rater is None:
            raise ValueError("results need a rater to keep the ratings")
        if not results:
            version = await self._fetchval(
                *self._one_statement_action(
                    game_id, expected_version, now, values, (seat, action, logged), notices
                )
            )
            if version is None:
                raise StaleVersion(game_id)
            return version
        async with self._transaction() as conn:
            version = await _bump(
                conn, game_id, expected_version, now, values, log=(seat, action, logged)
            )
            if results and rater is not None:
                await _record_results(conn, results, rater)
            await self._enqueue(conn, game_id, notices, now, clock=_moves_clock(values))
            return version

    def _one_statement_action(
        self,
        game_id: int,
        expected_version: int,
        now: float,
        values: dict[str, Any],
        log: tuple[int, str, str],
        notices: Sequence[Outgoing],
    ) -> tuple[Any, ...]:
        """An action that ends no game as one statement (its own transaction, one round
        trip): the version bump, the log entry, the lanes' locks, the notices and the
        wake-up, each step taking the previous one's rows, so a game that moved on writes,
        locks and tells nothing. The statement's value is the new version, NULL if stale.

        What :meth:`_enqueue` does in a transaction, in the same order: the lanes are
        locked (the count needs every lock) before the first notice takes its id."""
        bump, last = _bump_sql(values)
        params: list[Any] = [float(now), *values.values(), game_id, expected_version, *log]
        steps = [
            f"bumped AS ({bump})",
            "logged AS (INSERT INTO actions (game_id, seq, seat, action, events, created_at)"
            f" SELECT ${last}, version, ${last + 2}, ${last + 3}, ${last + 4}, $1 FROM bumped"
            " RETURNING seq)",
        ]
        told = ""
        clock = _moves_clock(values)
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

    async def actions(self, game_id: int) -> list[ActionRecord]:
        rows = await self._fetch("SELECT * FROM actions WHERE game_id = $1 ORDER BY seq", game_id)
        return [
            ActionRecord(
                r["game_id"], r["seq"], r["seat"], r["action"], json.loads(r["events"]),
                r["created_at"],
            )
            for r in rows
        ]  # fmt: skip

    async def acted_since(self, game_id: int, seats: list[int], seq: int) -> bool:
        """Whether any of ``seats`` has an action logged after sequence number ``seq``."""
        if not seats:
            return False
        return await self._fetchval(
            "SELECT EXISTS (SELECT 1 FROM actions"
            " WHERE game_id = $1 AND seq > $2 AND seat = ANY($3::integer[]))",
            game_id, seq, list(seats),
        )  # fmt: skip

    async def set_message(self, game_id: int, kind: str, message_id: int | None) -> None:
        """Remember a game's ``status`` or ``board`` message (not versioned: a pointer only)."""
        column = _MESSAGE_COLUMNS.get(kind)
        if column is None:
            raise ValueError(f"not a kind of message: {kind!r}")
        await self._execute(f"UPDATE games SET {column} = $1 WHERE id = $2", message_id, game_id)

    # -- deadlines ---------------------------------------------------------------------

    async def next_wakeup(self, exclude: Sequence[int] = ()) -> float | None:
        """The earliest deadline or reminder time of any running, readable game not in
        ``exclude``."""
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
        """Running games whose deadline or reminder time has come, earliest first."""
        return await self._game_records(
            "WHERE g.status = 'running' AND (g.deadline <= $1 OR g.remind_at <= $1)"
            " ORDER BY LEAST(g.deadline, g.remind_at), g.id",
            (float(now),),
            limit=limit,
        )

    async def claim_due(
        self, now: float, owner: str, lease_seconds: float, limit: int = 100
    ) -> list[GameRecord]:
        """Claim the due games nobody else holds for ``owner`` and read them, in one
        statement: rows another claimer has locked meanwhile are skipped (``SKIP
        LOCKED``), so claimers at the same moment get disjoint sets. A claimed row that
        cannot be read is left out (its claim lapses with its lease)."""
        rows = await self._fetch(
            "WITH claimed AS (UPDATE games SET claimed_by = $2, claimed_until = $3"
            " WHERE id IN (SELECT id FROM games WHERE status = 'running'"
            " AND (deadline <= $1 OR remind_at <= $1)"
            " AND (claimed_by IS NULL OR claimed_by = $2 OR claimed_until <= $1)"
            " ORDER BY LEAST(deadline, remind_at), id LIMIT $4 FOR UPDATE SKIP LOCKED)"
            " RETURNING *)"
            f" {_GAME_SELECT.replace('FROM games g', 'FROM claimed g')}"
            " ORDER BY LEAST(g.deadline, g.remind_at), g.id",
            float(now), owner, float(now) + float(lease_seconds), limit,
        )  # fmt: skip
        records = []
        for row in rows:
            try:
                records.append(GameRecord.with_seat_list(row))
            except ValueError:
                log.warning("game %s cannot be read (damaged JSON); left out", row["id"])
        return records

    async def release_game(self, game_id: int, owner: str) -> None:
        await self._execute(
            "UPDATE games SET claimed_by = NULL, claimed_until = NULL"
            " WHERE id = $1 AND claimed_by = $2",
            game_id, owner,
        )  # fmt: skip

    async def take_reminder(
        self, game_id: int, remind_at: float, *, now: float = 0.0, notices: Sequence[Outgoing] = ()
    ) -> bool:
        """Clear a due reminder and store its notices; True only for the one caller that
        cleared it (the others store nothing)."""
        async with self._transaction() as conn:
            taken = await conn.fetchval(
                "UPDATE games SET remind_at = NULL WHERE id = $1 AND remind_at = $2"
                " RETURNING id",
                game_id, float(remind_at),
            )  # fmt: skip
            if taken is None:
                return False
            await self._enqueue(conn, game_id, notices, now)
            return True

    # -- the outbox --------------------------------------------------------------------

    async def enqueue(self, game_id: int, notices: Sequence[Outgoing], *, now: float) -> None:
        async with self._transaction() as conn:
            await self._enqueue(conn, game_id, notices, now)

    async def pending_notices(
        self, *, lanes: Sequence[str] | None = None, limit: int = 200
    ) -> list[OutboxEntry]:
        where = "o.sent_at IS NULL AND o.failed IS NULL"
        params: list[Any] = [limit]
        if lanes is not None:
            if not lanes:
                return []
            where += " AND o.lane = ANY($2::text[])"
            params.append(list(lanes))
        rows = await self._fetch(f"{_PENDING} WHERE {where} ORDER BY o.id LIMIT $1", *params)
        return [OutboxEntry.from_row(r) for r in rows]

    async def take_lane(
        self, lane: str, owner: str, *, now: float, lease_seconds: float, limit: int = 200
    ) -> list[OutboxEntry] | None:
        # One statement: the claim, then (only if it was won) the lane's pending notices;
        # a claim won over an empty lane gives one row of NULLs. A claim can be won by
        # waiting for the holder's release to commit, after this statement's snapshot was
        # taken: locking the notices read makes PostgreSQL read each again as it is now,
        # so one the holder marked sent meanwhile is left out.
        rows = await self._fetch(
            f"WITH claim AS ({_CLAIM_LANE})"
            f" SELECT pending.* FROM claim LEFT JOIN LATERAL ({_PENDING}"
            "  WHERE o.lane = $1 AND o.sent_at IS NULL AND o.failed IS NULL"
            "  ORDER BY o.id LIMIT $5 FOR UPDATE OF o) pending ON true",
            lane, owner, float(now) + float(lease_seconds), float(now), limit,
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
    ) -> bool:
        column = _MESSAGE_COLUMNS.get(remember) if remember is not None else None
        if remember is not None and column is None:
            raise ValueError(f"not a kind of message: {remember!r}")
        mark = (
            "UPDATE outbox SET sent_at = $1, message_id = $2"
            " WHERE id = $3 AND sent_at IS NULL AND failed IS NULL RETURNING game_id"
        )
        if column is None or message_id is None:
            marked = await self._fetchval(mark, float(now), message_id, entry_id)
            return marked is not None
        # One statement: the game remembers the message only if this caller marked it.
        marked = await self._fetchval(
            f"WITH marked AS ({mark}), remembered AS (UPDATE games SET {column} = $2"
            " FROM marked WHERE games.id = marked.game_id)"
            " SELECT count(*) FROM marked",
            float(now), message_id, entry_id,
        )  # fmt: skip
        return marked == 1

    async def retry_later(self, entry_id: int, *, not_before: float) -> int:
        attempts = await self._fetchval(
            "UPDATE outbox SET attempts = attempts + 1, not_before = $1 WHERE id = $2"
            " RETURNING attempts",
            float(not_before), entry_id,
        )  # fmt: skip
        return attempts or 0

    async def give_up(self, entry_id: int, *, reason: str) -> None:
        await self._execute(
            "UPDATE outbox SET failed = $1 WHERE id = $2 AND sent_at IS NULL",
            reason or "failed", entry_id,
        )  # fmt: skip

    async def claim_lane(self, lane: str, owner: str, now: float, lease_seconds: float) -> bool:
        claimed = await self._fetchval(
            _CLAIM_LANE, lane, owner, float(now) + float(lease_seconds), float(now)
        )
        return claimed is not None

    async def release_lane(self, lane: str, owner: str) -> None:
        await self._execute("DELETE FROM lanes WHERE lane = $1 AND owner = $2", lane, owner)

    # -- users and guild settings ------------------------------------------------------

    async def notify_choice(self, user_id: int) -> str:
        choice = await self._fetchval("SELECT notify FROM users WHERE user_id = $1", user_id)
        return choice if choice is not None else "turns"

    async def set_notify_choice(self, user_id: int, choice: str) -> None:
        await self._set_user_fact(user_id, "notify", choice)

    async def dm_closed(self, user_id: int) -> bool:
        closed = await self._fetchval("SELECT dm_closed FROM users WHERE user_id = $1", user_id)
        return bool(closed)

    async def set_dm_closed(self, user_id: int, closed: bool) -> None:
        await self._set_user_fact(user_id, "dm_closed", bool(closed))

    async def guild_setting(self, guild_id: int, key: str) -> str | None:
        return await self._fetchval(
            "SELECT value FROM guild_settings WHERE guild_id = $1 AND key = $2", guild_id, key
        )

    async def set_guild_setting(self, guild_id: int, key: str, value: str) -> None:
        await self._execute(
            "INSERT INTO guild_settings (guild_id, key, value) VALUES ($1, $2, $3)"
            " ON CONFLICT (guild_id, key) DO UPDATE SET value = excluded.value",
            guild_id, key, value,
        )  # fmt: skip

    # -- a server's corrected data files -----------------------------------------------

    async def guild_data(self, guild_id: int) -> list[GuildDataRecord]:
        rows = await self._fetch(
            "SELECT * FROM guild_data WHERE guild_id = $1 ORDER BY package, name", guild_id
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
            " VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (guild_id, package, name) DO UPDATE"
            " SET content = excluded.content, user_id = excluded.user_id,"
            " uploaded_at = excluded.uploaded_at",
            guild_id, package, name, json.dumps(content), user_id, float(now),
        )  # fmt: skip

    async def clear_guild_data(self, guild_id: int, package: str | None = None) -> int:
        if package is None:
            removed = await self._fetch(
                "DELETE FROM guild_data WHERE guild_id = $1 RETURNING name", guild_id
            )
        else:
            removed = await self._fetch(
                "DELETE FROM guild_data WHERE guild_id = $1 AND package = $2 RETURNING name",
                guild_id, package,
            )  # fmt: skip
        return len(removed)

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
        async with self._transaction() as conn:
            if not await _lock_at_version(conn, game_id, version):
                return False
            waiting = await conn.fetchval(
                "SELECT 1 FROM offers WHERE game_id = $1 AND version = $2", game_id, version
            )
            if waiting:
                return False
            await conn.execute(
                "INSERT INTO offers (game_id, version, kind, seat, user_id, accepted, created_at)"
                " VALUES ($1, $2, $3, $4, $5, '[]', $6) ON CONFLICT (game_id) DO UPDATE SET"
                " version = excluded.version, kind = excluded.kind, seat = excluded.seat,"
                " user_id = excluded.user_id, accepted = '[]', created_at = excluded.created_at",
                game_id, version, kind, seat, user_id, float(now),
            )  # fmt: skip
            await self._enqueue(conn, game_id, notices, now)
            return True

    async def offer(self, game_id: int) -> OfferRecord | None:
        row = await self._fetchrow(
            "SELECT offers.* FROM offers JOIN games ON games.id = offers.game_id"
            " WHERE offers.game_id = $1 AND offers.version = games.version",
            game_id,
        )
        return OfferRecord.from_row(row) if row else None

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
        async with self._transaction() as conn:
            if not await _lock_at_version(conn, game_id, version):
                return False
            accepted = await conn.fetchval(
                "SELECT accepted FROM offers WHERE game_id = $1 AND version = $2",
                game_id, version,
            )  # fmt: skip
            if accepted is None or user_id in json.loads(accepted):
                return False
            await conn.execute(
                "UPDATE offers SET accepted = $1 WHERE game_id = $2",
                json.dumps([*json.loads(accepted), user_id]), game_id,
            )  # fmt: skip
            await self._enqueue(conn, game_id, notices, now)
            return True

    async def drop_offer(
        self, game_id: int, version: int, *, now: float, notices: Sequence[Outgoing] = ()
    ) -> bool:
        """Remove the offer made at ``version``, if it still waits."""
        async with self._transaction() as conn:
            if not await _lock_at_version(conn, game_id, version):
                return False
            dropped = await conn.fetchval(
                "DELETE FROM offers WHERE game_id = $1 AND version = $2 RETURNING game_id",
                game_id, version,
            )  # fmt: skip
            if dropped is None:
                return False
            await self._enqueue(conn, game_id, notices, now)
            return True

    # -- results and ratings -----------------------------------------------------------

    async def ratings(self, *, guild_id: int, slug: str) -> list[RatingRow]:
        rows = await self._fetch(
            "SELECT * FROM ratings WHERE guild_id = $1 AND slug = $2", guild_id, slug
        )
        return [RatingRow.from_row(r) for r in rows]

    async def player_ratings(self, *, guild_id: int, user_id: int) -> list[RatingRow]:
        rows = await self._fetch(
            "SELECT * FROM ratings WHERE guild_id = $1 AND user_id = $2 ORDER BY slug",
            guild_id, user_id,
        )  # fmt: skip
        return [RatingRow.from_row(r) for r in rows]

    async def player_results(self, *, guild_id: int, user_id: int) -> list[ResultRow]:
        rows = await self._fetch(
            "SELECT * FROM results WHERE guild_id = $1 AND user_id = $2"
            " ORDER BY ended_at, game_id, seat",
            guild_id, user_id,
        )  # fmt: skip
        return [ResultRow.from_row(r) for r in rows]

    async def finished_without_results(
        self, *, after_id: int = 0, limit: int = 100
    ) -> list[GameRecord]:
        return await self._game_records(
            "WHERE g.status = 'finished' AND g.id > $1"
            " AND NOT EXISTS (SELECT 1 FROM results r WHERE r.game_id = g.id) ORDER BY g.id",
            [after_id],
            limit=limit,
        )

    async def rebuild_ratings(self, rater: Rater, *, add: Sequence[ResultRow] = ()) -> int:
        async with self._transaction() as conn:
            # Every game ending holds this lock shared while it rates: none rates meanwhile
            # on what is being replaced.
            await conn.execute("SELECT pg_advisory_xact_lock($1, 0)", _RATING_LOCKS)
            for row in add:
                await _insert_result(conn, row, " ON CONFLICT (game_id, seat) DO NOTHING")
            rows = [ResultRow.from_row(r) for r in await conn.fetch("SELECT * FROM results")]
            await conn.execute("DELETE FROM ratings")
            await _save_ratings(conn, rate_in_order(rater, rows))
            return games_in(rows)

    # -- rematches ---------------------------------------------------------------------

    async def rematch(self, game_id: int) -> int | None:
        return await self._fetchval("SELECT id FROM games WHERE rematch_of = $1", game_id)

    # -- watchers and time away --------------------------------------------------------

    async def add_watcher(self, game_id: int, user_id: int, *, now: float) -> bool:
        added = await self._fetchval(
            "INSERT INTO watchers (game_id, user_id, since)"
            " SELECT id, $2, $3 FROM games WHERE id = $1 ON CONFLICT DO NOTHING"
            " RETURNING game_id",
            game_id, user_id, float(now),
        )  # fmt: skip
        return added is not None

    async def remove_watcher(self, game_id: int, user_id: int) -> bool:
        removed = await self._fetchval(
            "DELETE FROM watchers WHERE game_id = $1 AND user_id = $2 RETURNING game_id",
            game_id, user_id,
        )  # fmt: skip
        return removed is not None

    async def watchers(self, game_id: int) -> list[int]:
        rows = await self._fetch(
            "SELECT user_id FROM watchers WHERE game_id = $1 ORDER BY since, user_id", game_id
        )
        return [row["user_id"] for row in rows]

    async def watched_games(self, user_id: int) -> list[GameRecord]:
        return await self._game_records(
            "WHERE g.id IN (SELECT game_id FROM watchers WHERE user_id = $1)"
            " AND g.status IN ('lobby', 'running', 'paused') ORDER BY g.id DESC",
            (user_id,),
            limit=100,
        )

    async def away_until(self, user_id: int) -> float | None:
        return await self._fetchval("SELECT away_until FROM users WHERE user_id = $1", user_id)

    async def set_away(self, user_id: int, until: float | None) -> None:
        await self._set_user_fact(user_id, "away_until", None if until is None else float(until))

    async def _set_user_fact(self, user_id: int, column: str, value: Any) -> None:
        """Set one of a user's facts (a column of ``users``), leaving the others as they are."""
        if column not in _USER_FACTS:
            raise ValueError(f"not a user's fact: {column!r}")
        await self._execute(
            f"INSERT INTO users (user_id, {column}) VALUES ($1, $2)"
            f" ON CONFLICT (user_id) DO UPDATE SET {column} = excluded.{column}",
            user_id, value,
        )  # fmt: skip

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
        async with self._transaction() as conn:
            moved = await conn.fetchval(
                "UPDATE games SET deadline = $3, remind_at = $4"
                " WHERE id = $1 AND version = $2 RETURNING id",
                game_id, version,
                None if deadline is None else float(deadline),
                None if remind_at is None else float(remind_at),
            )  # fmt: skip
            if moved is None:
                return False
            await self._enqueue(conn, game_id, notices, now, clock=True)
            return True

    # -- the turn's post -----------------------------------------------------------------

    async def recent_notices(self, game_id: int, lane: str, limit: int = 10) -> list[dict]:
        rows = await self._fetch(
            "SELECT body FROM outbox WHERE game_id = $1 AND lane = $2 ORDER BY id DESC LIMIT $3",
            game_id, lane, limit,
        )  # fmt: skip
        return [json.loads(row["body"]) for row in rows]


async def _keep_session(conn: asyncpg.Connection) -> None:
    """What a connection needs on its way back to the pool beyond asyncpg's own rollback of
    an unfinished transaction: nothing. The store changes no session state (its advisory
    locks end with their transaction, and it listens on a connection of its own), so the
    default reset (``RESET ALL``, ``UNLISTEN *``, … : a round trip on every release) is
    left out."""


async def _lock_at_version(conn: asyncpg.Connection, game_id: int, version: int) -> bool:
    """Whether the game is at ``version``, its row locked until the transaction ends (so an
    answer and a versioned write of the game take turns)."""
    current = await conn.fetchval("SELECT version FROM games WHERE id = $1 FOR UPDATE", game_id)
    return current == version


@asynccontextmanager
async def _busy() -> AsyncIterator[None]:
    """A lock wait past ``lock_timeout`` becomes StoreBusy (its transaction rolled back)."""
    try:
        yield
    except asyncpg.LockNotAvailableError as error:
        raise StoreBusy(str(error)) from error


def _game_values(fields: dict[str, Any]) -> dict[str, Any]:
    """The column values of game ``fields``, checked (ValueError for an unknown field or
    status) and converted (JSON to text) before anything is written."""
    unknown = set(fields) - GAME_FIELDS
    if unknown:
        raise ValueError(f"not a game field: {sorted(unknown)}")
    if "status" in fields and fields["status"] not in GAME_STATUSES:
        raise ValueError(f"not a game status: {fields['status']!r}")
    values = {}
    for name, value in fields.items():
        if name == "snapshot" and value is None:
            values[name] = None
        elif name in _JSON_FIELDS:
            values[name] = json.dumps(value)
        elif name in ("deadline", "remind_at") and value is not None:
            values[name] = float(value)
        elif name == "own_thread":
            values[name] = bool(value)
        else:
            values[name] = value
    return values


async def _bump(
    conn: asyncpg.Connection,
    game_id: int,
    expected_version: int,
    now: float,
    values: dict[str, Any],
    *,
    log: tuple[int, str, str] | None = None,
) -> int:
    """Check the version, bump it and set ``values``, locking the game's row until the
    transaction ends; StaleVersion if the game is missing or has moved on.

    With ``log`` (seat, action, events as JSON) the action's log entry is written in the
    same statement, its ``seq`` the new version, and only if the version moved: each
    statement is a round trip."""
    bump, last = _bump_sql(values)
    if log is None:
        version = await conn.fetchval(bump, float(now), *values.values(), game_id, expected_version)
    else:
        version = await conn.fetchval(
            f"WITH bumped AS ({bump}) INSERT INTO actions"
            " (game_id, seq, seat, action, events, created_at)"
            f" SELECT ${last}, version, ${last + 2}, ${last + 3}, ${last + 4}, $1 FROM bumped"
            " RETURNING seq",
            float(now), *values.values(), game_id, expected_version, *log,
        )  # fmt: skip
    if version is None:
        raise StaleVersion(game_id)
    return version


def _bump_sql(values: dict[str, Any]) -> tuple[str, int]:
    """The version bump setting ``values`` (``$1`` the time, then the values), and the
    number of its game id parameter (the expected version's is the next)."""
    assignments = "".join(f", {name} = ${i}" for i, name in enumerate(values, start=2))
    last = len(values) + 2
    return (
        f"UPDATE games SET version = version + 1, updated_at = $1{assignments}"
        f" WHERE id = ${last} AND version = ${last + 1} RETURNING version",
        last,
    )


def _moves_clock(values: dict[str, Any]) -> bool:
    """Whether a write setting ``values`` may make a game due sooner (or no longer due)."""
    return bool(_CLOCK_FIELDS & values.keys())


def _lane_key(lane: str) -> int:
    """A lane's advisory lock key: a signed 32-bit hash (two lanes sharing one only wait
    for each other)."""
    key = zlib.crc32(lane.encode())
    return key - 2**32 if key >= 2**31 else key


def _readable(row: asyncpg.Record) -> bool:
    """Whether a game row's JSON can be read, as :meth:`GameRecord.from_row` reads it."""
    try:
        for column in _GAME_JSON:
            if row[column] or column != "snapshot":
                json.loads(row[column])
    except ValueError:
        return False
    return True


def _pool_key(guild_id: int, slug: str) -> int:
    """A pool's advisory lock key: a signed 32-bit hash, never 0 (the key of all pools)."""
    key = zlib.crc32(f"{guild_id}:{slug}".encode()) or 1
    return key - 2**32 if key >= 2**31 else key


async def _insert_result(conn: asyncpg.Connection, row: ResultRow, conflict: str = "") -> None:
    await conn.execute(
        "INSERT INTO results (game_id, seat, guild_id, slug, user_id, role, rank, won,"
        f" ended_at, computer) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10){conflict}",
        row.game_id, row.seat, row.guild_id, row.slug, row.user_id, row.role, row.rank,
        bool(row.won), float(row.ended_at), row.computer,
    )  # fmt: skip


async def _record_results(
    conn: asyncpg.Connection, rows: Sequence[ResultRow], rater: Rater
) -> None:
    """Store a game's result rows and bring its pool's ratings up to date, under the
    pool's lock (so games of one pool ending at once are rated one after the other): rate
    the game on the ratings as they are, or, if a game of the pool that ended later is
    rated already, rate the whole pool again in end order."""
    first = rows[0]
    pool = (first.guild_id, first.slug)
    await conn.execute("SELECT pg_advisory_xact_lock_shared($1, 0)", _RATING_LOCKS)
    await conn.execute("SELECT pg_advisory_xact_lock($1, $2)", _RATING_LOCKS, _pool_key(*pool))
    for row in rows:
        await _insert_result(conn, row)
    later = await conn.fetchval(
        "SELECT EXISTS (SELECT 1 FROM results WHERE guild_id = $1 AND slug = $2"
        " AND (ended_at > $3 OR (ended_at = $3 AND game_id > $4)))",
        *pool, float(first.ended_at), first.game_id,
    )  # fmt: skip
    if later:
        every = await conn.fetch("SELECT * FROM results WHERE guild_id = $1 AND slug = $2", *pool)
        await conn.execute("DELETE FROM ratings WHERE guild_id = $1 AND slug = $2", *pool)
        await _save_ratings(conn, rate_in_order(rater, [ResultRow.from_row(r) for r in every]))
        return
    current = await conn.fetch(
        "SELECT * FROM ratings WHERE guild_id = $1 AND slug = $2 AND user_id = ANY($3::bigint[])",
        *pool, sorted({row.user_id for row in rows}),
    )  # fmt: skip
    ratings = {r["user_id"]: RatingRow.from_row(r) for r in current}
    await _save_ratings(conn, rater(ratings, rows))


async def _save_ratings(conn: asyncpg.Connection, ratings: Iterable[RatingRow]) -> None:
    await conn.executemany(
        "INSERT INTO ratings (guild_id, slug, user_id, mu, sigma, games, wins)"
        " VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (guild_id, slug, user_id) DO UPDATE"
        " SET mu = excluded.mu, sigma = excluded.sigma, games = excluded.games,"
        " wins = excluded.wins",
        [(r.guild_id, r.slug, r.user_id, r.mu, r.sigma, r.games, r.wins) for r in ratings],
    )


async def _migrate(conn: asyncpg.Connection, shown: str) -> None:
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
            await conn.execute(MIGRATIONS[current])
            await conn.execute("UPDATE schema_version SET version = $1", current + 1)


async def _schema_version(conn: asyncpg.Connection) -> int | None:
    """The database's schema version; None for a database without ``schema_version``."""
    if await conn.fetchval("SELECT to_regclass('schema_version')") is None:
        return None
    return await conn.fetchval("SELECT version FROM schema_version")


def _shown(url: str) -> str:
    """``url`` without its password, to name the database in a message."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.replace(f":{parts.password}@", ":***@", 1)
    return urlunsplit(parts._replace(netloc=netloc))
