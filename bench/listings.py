"""How long the listings and the due query take with many games.

``python -m bench.listings [--games 41] [--due 100] [--rounds 50]``

``/game list`` and ``/game mine`` with ``--games`` running games on one server, and the due
query with ``--due`` running games whose deadlines have passed, through the real host and
a SQLite store in a temporary folder. Prints p50 and p95 over ``--rounds`` calls.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from pathlib import Path

from bot.service.host import GameHost
from bot.store.sqlite import SqliteStore
from games import SPECS

BASELINE = "before: /game list with 41 games 23-40 ms; the due query for 100 games 20-35 ms"


class Clock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


async def open_games(host: GameHost, count: int, channel: int) -> None:
    for index in range(count):
        slug = list(SPECS)[index % len(SPECS)]
        players = 3 if slug == "dragons-cave" else 2
        outcome = await host.new_game(
            guild_id=1, channel_id=channel + index, user_id=100, user_name="alice", slug=slug,
            players=players,
        )  # fmt: skip
        game_id = outcome.outgoing[0].game_id
        for guest in range(1, players):
            await host.join(game_id=game_id, user_id=100 + guest, user_name=f"p{guest}")
        await host.start(game_id=game_id, user_id=100)


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


async def main_async(games: int, due: int, rounds: int) -> None:
    folder = Path(tempfile.mkdtemp(prefix="dragon-listings-"))
    store = await SqliteStore.open(folder / "games.sqlite3")
    clock = Clock()
    host = GameHost(store, clock=clock, seeds=random.Random(1))
    await open_games(host, games, channel=1000)
    print(f"{games} running games on one server, {rounds} calls each")
    print("  /game list   ", figures(await timed(rounds, lambda: host.list_games(guild_id=1))))
    print(
        "  /game mine   ",
        figures(await timed(rounds, lambda: host.mine(guild_id=1, user_id=100))),
    )
    await open_games(host, max(0, due - games), channel=5000)
    clock.now += 400 * 24 * 3600.0  # every deadline has passed
    print(f"{due} running games, every deadline passed")
    print("  due query    ", figures(await timed(rounds, lambda: store.due(clock.now))))
    print(" ", BASELINE)
    await store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=41)
    parser.add_argument("--due", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=50)
    args = parser.parse_args()
    asyncio.run(main_async(args.games, args.due, args.rounds))


if __name__ == "__main__":
    main()
