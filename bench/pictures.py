"""Actions per second with board pictures, drawn in threads or in worker processes.

``python -m bench.pictures [--seconds 15] [--clicks 64] [--workers 2]``

Games of every hosted game are played at once through the real host and a SQLite store,
with ``--clicks`` actions in flight; every board an action's notices carry is drawn, as
sending them draws them. Printed for pictures drawn in threads of this process, then in
``--workers`` processes: actions completed per second, the latency of one action (store
plus pictures), and how late the event loop wakes up (what every other command waits).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from pathlib import Path

from bot.service.boards.pictures import Pictures
from bot.service.errors import UserError
from bot.service.host import GameHost
from bot.store.sqlite import SqliteStore
from games import SPECS, render

BASELINE = (
    "baseline (threads, measured before): 63-76 actions/s at most, p95 880-1,399 ms with "
    "64 clicks in flight"
)


async def measure(seconds: float, clicks: int, pictures: Pictures | None) -> dict[str, float]:
    folder = Path(tempfile.mkdtemp(prefix="dragon-pictures-"))
    store = await SqliteStore.open(folder / "games.sqlite3")
    host = GameHost(
        store,
        renderer=None if pictures else render,
        drawer=pictures.draw if pictures else None,
        seeds=random.Random(1),
    )
    games = await open_games(host, clicks)
    latencies: list[float] = []
    lags: list[float] = []
    done = 0
    stop = time.perf_counter() + seconds

    async def player(game_id: int, chooser: random.Random) -> None:
        nonlocal done
        while time.perf_counter() < stop:
            table = await host.desk.table(game_id)
            if table.record.status != "running":
                game_id = (await open_games(host, 1))[0]
                continue
            prompt = chooser.choice(table.prompts())
            user = table.record.user_at(prompt.seat)
            action = chooser.choice(table.engine.legal_actions(table.state, prompt.seat)).action
            started = time.perf_counter()
            try:
                outcome = await host.turns.act(
                    game_id=game_id, user_id=user, action=action, version=table.record.version
                )
            except UserError:
                continue
            for notice in outcome.outgoing:
                await host.drawing.draw(getattr(notice, "board", None))
            latencies.append(time.perf_counter() - started)
            done += 1

    async def heartbeat() -> None:
        while time.perf_counter() < stop:
            before = time.perf_counter()
            await asyncio.sleep(0.01)
            lags.append(time.perf_counter() - before - 0.01)

    started = time.perf_counter()
    await asyncio.gather(
        heartbeat(), *(player(g, random.Random(g)) for g in games)
    )  # fmt: skip
    elapsed = time.perf_counter() - started
    await store.close()
    return {
        "actions_per_s": done / elapsed,
        "p50_ms": 1000 * statistics.median(latencies),
        "p95_ms": 1000 * statistics.quantiles(latencies, n=20)[-1],
        "lag_p95_ms": 1000 * statistics.quantiles(lags, n=20)[-1],
    }


async def open_games(host: GameHost, count: int) -> list[int]:
    slugs = list(SPECS)
    opened = []
    for index in range(count):
        slug = slugs[index % len(slugs)]
        engine = SPECS[slug].engine
        user = 1000 * (len(opened) + 1) + random.randrange(1000)
        outcome = await host.lobby.new_game(
            guild_id=1, channel_id=10 + index, user_id=user, user_name="p", slug=slug
        )
        game_id = outcome.outgoing[0].game_id
        for guest in range(1, engine.min_players):
            await host.lobby.join(game_id=game_id, user_id=user + guest, user_name=f"p{guest}")
        await host.lobby.start(game_id=game_id, user_id=user)
        opened.append(game_id)
    return opened


def line(name: str, figures: dict[str, float]) -> str:
    return (
        f"  {name:<24} {figures['actions_per_s']:6.1f} actions/s   p50 {figures['p50_ms']:6.0f} ms"
        f"   p95 {figures['p95_ms']:6.0f} ms   event loop late by (p95) "
        f"{figures['lag_p95_ms']:5.0f} ms"
    )


async def main_async(seconds: float, clicks: int, workers: int) -> None:
    print(f"Board pictures with {clicks} actions in flight, {seconds:g} s each")
    print(" ", BASELINE)
    threads = await measure(seconds, clicks, None)
    print(line("drawn in threads", threads))
    pictures = Pictures(workers)
    try:
        processes = await measure(seconds, clicks, pictures)
    finally:
        await pictures.close()
    print(line(f"drawn in {workers} processes", processes))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--clicks", type=int, default=64)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    asyncio.run(main_async(args.seconds, args.clicks, args.workers))


if __name__ == "__main__":
    main()
