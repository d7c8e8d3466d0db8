"""How long the listings, the inbox and the due query take with many games.

``python -m bench listings [--games 41] [--due 100] [--rounds 50] [--inbox 10000]``

``/game list`` and ``/game mine`` with ``--games`` running games on one server, the due
query with ``--due`` running games whose deadlines have passed, and ``/games`` (the inbox
across servers) for a player sitting in 50 games over 10 servers among ``--inbox`` games,
through the real host and a SQLite store in a temporary folder. Prints p50 and p95 over
``--rounds`` calls, and the SQL statements one inbox runs.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sqlite3
import statistics
import tempfile
import time
from pathlib import Path

from bot.service.host import GameHost
from bot.store.sqlite import SqliteStore
from games import SPECS

BASELINE = "before: /game list with 41 games 23-40 ms; the due query for 100 games 20-35 ms"
PLAYER = 100
SERVERS = 10
SEATED = 50
"""The inbox's player sits in this many games, spread over ``SERVERS`` servers."""


class Clock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


async def open_games(
    host: GameHost, count: int, channel: int, guilds: int = 1, user: int = PLAYER
) -> None:
    for index in range(count):
        slug = list(SPECS)[index % len(SPECS)]
        players = 3 if slug == "dragons-cave" else 2
        outcome = await host.lobby.new_game(
            guild_id=1 + index % guilds, channel_id=channel + index, user_id=user,
            user_name="alice", slug=slug, players=players,
        )  # fmt: skip
        game_id = outcome.outgoing[0].game_id
        for guest in range(1, players):
            await host.lobby.join(game_id=game_id, user_id=user + guest, user_name=f"p{guest}")
        await host.lobby.start(game_id=game_id, user_id=user)


def copy_games(path: Path, total: int) -> None:
    """Fill the store up to ``total`` games with copies of those in it, on other servers,
    channels and players, as fast as SQL can (the host would take minutes)."""
    with sqlite3.connect(path) as db:
        columns = [r[1] for r in db.execute("PRAGMA table_info(games)") if r[1] != "id"]
        seat_columns = [r[1] for r in db.execute("PRAGMA table_info(seats)")]
        have = db.execute("SELECT count(*) FROM games").fetchone()[0]
        for copy in range(total - have):
            source = 1 + copy % have
            values = {c: c for c in columns}
            values.update(guild_id=str(1000 + copy % 500), channel_id=str(100_000 + copy))
            values.update(page="lower(hex(randomblob(12)))")
            game_id = db.execute(
                f"INSERT INTO games ({', '.join(columns)})"
                f" SELECT {', '.join(values[c] for c in columns)} FROM games WHERE id = ?",
                (source,),
            ).lastrowid
            seats = {c: c for c in seat_columns}
            seats.update(game_id="?", user_id=f"user_id + {10_000 + 10 * copy}")
            db.execute(
                f"INSERT INTO seats ({', '.join(seat_columns)})"
                f" SELECT {', '.join(seats[c] for c in seat_columns)} FROM seats WHERE game_id = ?",
                (game_id, source),
            )


async def statements(store: SqliteStore, call) -> list[str]:
    """The SQL statements ``call`` runs on either of the store's connections."""
    ran: list[str] = []
    connections = [c for c in (store._db, store._reader) if c is not None]
    for connection in connections:
        await connection.set_trace_callback(ran.append)
    await call()
    for connection in connections:
        await connection.set_trace_callback(None)  # type: ignore[arg-type]  # None: stop
    return [s for s in ran if not s.startswith(("BEGIN", "COMMIT", "ROLLBACK"))]


async def inbox(total: int, rounds: int) -> None:
    """``/games`` for a player in ``SEATED`` games over ``SERVERS`` servers among ``total``."""
    folder = Path(tempfile.mkdtemp(prefix="dragon-inbox-"))
    store = await SqliteStore.open(folder / "games.sqlite3")
    host = GameHost(store, clock=Clock(), seeds=random.Random(1))
    await open_games(host, SEATED, channel=1000, guilds=SERVERS)
    await store.close()
    copy_games(folder / "games.sqlite3", total)
    store = await SqliteStore.open(folder / "games.sqlite3")
    host = GameHost(store, clock=Clock(), seeds=random.Random(1))
    visible = {guild: f"server {guild}" for guild in range(1, SERVERS + 1)}

    async def ask() -> None:
        await host.inbox.inbox(user_id=PLAYER, visible=visible)

    listed = await host.inbox.inbox(user_id=PLAYER, visible=visible)
    assert "Your games" in str(listed.text), listed.text
    ran = await statements(store, ask)
    stored = len(await store.games(active_only=False, limit=total + 1))
    print(f"/games for a player in {SEATED} games over {SERVERS} servers, among {stored} games")
    print("  /games       ", figures(await timed(rounds, ask)))
    print(f"  SQL statements per /games: {len(ran)}")
    for statement in ran:
        print("    " + " ".join(statement.split())[:110] + "…")
    await store.close()


def figures(times: list[float]) -> str:
    ms = [1000 * t for t in times]
    return f"p50 {statistics.median(ms):6.2f} ms   p95 {statistics.quantiles(ms, n=20)[-1]:6.2f} ms"


async def timed(rounds: int, call) -> list[float]:
    times = []
    for _ in range(rounds):
        started = time.perf_counter()
        await call()
        times.append(time.perf_counter() - started)
    return times


async def main_async(games: int, due: int, rounds: int, total: int) -> None:
    folder = Path(tempfile.mkdtemp(prefix="dragon-listings-"))
    store = await SqliteStore.open(folder / "games.sqlite3")
    clock = Clock()
    host = GameHost(store, clock=clock, seeds=random.Random(1))
    await open_games(host, games, channel=1000)
    print(f"{games} running games on one server, {rounds} calls each")
    print(
        "  /game list   ",
        figures(await timed(rounds, lambda: host.listings.list_games(guild_id=1))),
    )
    print(
        "  /game mine   ",
        figures(await timed(rounds, lambda: host.listings.mine(guild_id=1, user_id=100))),
    )
    await open_games(host, max(0, due - games), channel=5000)
    clock.now += 400 * 24 * 3600.0  # every deadline has passed
    print(f"{due} running games, every deadline passed")
    print("  due query    ", figures(await timed(rounds, lambda: store.due(clock.now))))
    print(" ", BASELINE)
    await store.close()
    if total:
        await inbox(total, rounds)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=41)
    parser.add_argument("--due", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=50)
    parser.add_argument("--inbox", type=int, default=10_000, help="games in the inbox's store")
    args = parser.parse_args(argv)
    asyncio.run(main_async(args.games, args.due, args.rounds, args.inbox))


if __name__ == "__main__":
    main()
