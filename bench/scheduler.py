"""The turn clock with many active games: start-up, memory, and the next-deadline query.

``python -m bench.scheduler [--games 10000]`` fills a fresh database with running games
(real St. George snapshots, deadlines spread over two days), then measures what a bot start
costs: opening the store, the first "when is the next deadline?" and the first firing,
plus the steady-state cost of the next-deadline query. Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import resource
import sqlite3
import statistics
import tempfile
import time
import tracemalloc
from pathlib import Path

from bot.service.host import GameHost
from bot.store.sqlite import SqliteStore
from engines.base import Game
from engines.replay import setup_rng
from games import ENGINES

HOUR = 3600.0


def fill(path: Path, games: int, now: float) -> None:
    """``games`` running St. George games, deadlines spread over 12 to 48 hours from now."""
    engine: Game = ENGINES["stgeorge"]
    roles = [r.key for r in engine.roles(2, {})]
    snapshot = json.dumps(engine.dump(engine.setup(roles, {}, setup_rng(1))))
    chooser = random.Random(7)
    rows = []
    for index in range(games):
        deadline = now + chooser.uniform(12 * HOUR + 60, 48 * HOUR)
        rows.append((1, 10 + index, "stgeorge", "running", 100, 2, "{}", index, 1, snapshot,
                     deadline, deadline - 12 * HOUR, now, now))  # fmt: skip
    db = sqlite3.connect(path)
    db.executemany(
        "INSERT INTO games (guild_id, channel_id, slug, status, host_id, players, options, seed,"
        " version, snapshot, deadline, remind_at, created_at, updated_at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        rows,
    )
    db.executemany(
        "INSERT INTO seats (game_id, role, seat, user_id, name) VALUES (?, ?, ?, ?, ?)",
        [(g, role, seat, 1000 + seat, role) for g in range(1, games + 1)
         for seat, role in enumerate(roles)],
    )  # fmt: skip
    db.commit()
    db.close()


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f} ms"


async def measure(path: Path, now: float, queries: int) -> None:
    tracemalloc.start()
    started = time.perf_counter()
    store = await SqliteStore.open(path)
    host = GameHost(store, clock=lambda: now)
    first_wakeup = await host.turn_clock.next_wakeup()
    opened = time.perf_counter() - started
    due_start = time.perf_counter()
    outcome = await host.turn_clock.fire_due()
    fired = time.perf_counter() - due_start
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    print(f"start-up: open store + first next-deadline query: {ms(opened)}")
    print(
        f"first firing at start-up (nothing due yet): {ms(fired)}, {len(outcome.notices)} notices"
    )
    print(f"Python memory at its peak during start-up: {peak / 1024:.0f} KB")
    print(f"process max RSS: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.1f} MB")
    print(f"next wake-up in {(first_wakeup - now) / 60:.1f} minutes")

    timings = []
    for _ in range(queries):
        tick = time.perf_counter()
        await host.turn_clock.next_wakeup()
        timings.append(time.perf_counter() - tick)
    timings.sort()
    print(
        f"next-deadline query x{queries}: p50 {ms(statistics.median(timings))}, "
        f"p95 {ms(timings[int(0.95 * len(timings)) - 1])}, max {ms(timings[-1])}"
    )
    later = now + 13 * HOUR
    tick = time.perf_counter()
    due = await store.due(later)
    spent = ms(time.perf_counter() - tick)
    print(f"due-games query 13 hours later: {len(due)} games (at most 100) in {spent}")
    await store.close()


def explain(path: Path) -> None:
    db = sqlite3.connect(path)
    plan = db.execute(
        "EXPLAIN QUERY PLAN SELECT MIN(deadline) FROM games"
        " WHERE deadline IS NOT NULL AND status = 'running'"
    ).fetchall()
    db.close()
    print("query plan of the next-deadline query:", "; ".join(row[-1] for row in plan))


async def run(games: int, queries: int) -> None:
    now = 1_800_000_000.0
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "games.sqlite3"
        store = await SqliteStore.open(path)  # creates the schema
        await store.close()
        tick = time.perf_counter()
        fill(path, games, now)
        spent = time.perf_counter() - tick
        print(f"Turn clock bench: {games} running games (filled in {spent:.1f} s)")
        explain(path)
        await measure(path, now, queries)


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.scheduler", description=__doc__)
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--queries", type=int, default=1000)
    args = parser.parse_args()
    asyncio.run(run(args.games, args.queries))


if __name__ == "__main__":
    main()
