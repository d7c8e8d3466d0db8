"""Computer turns and overdue deadlines through the real host, scheduler and outbox.

``python -m bench.computers [--games 100] [--seconds 15] [--overdue 50]`` runs two timed
scenes on SQLite in a temporary folder, with a sender that only counts what the outbox
sends:

1. ``--games`` games of computers only (the four games in turn, ``--level`` players),
   played by the scheduler for ``--seconds``: computer moves per second across all games,
   and the gaps between two moves of one game (the computer delay is the least possible).
2. a start with ``--overdue`` overdue two-player Dragonslayer games whose second magician
   is out (a skipped turn comes back to the same magician): the time until no game is due
   any more ("ready"), bounded by ``--ready-timeout``.

Figures are printed, never asserted; the figures measured before the turn clock's rework
are printed next to them. Ctrl-C (or SIGTERM) ends the scene under way early, stopped as
the bot stops: the scheduler, then the outbox, then the store.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import random
import signal
import sqlite3
import statistics
import tempfile
import time
from pathlib import Path

from bot.service.delivery.outbox import Delivery
from bot.service.host import GameHost
from bot.store.sqlite import SqliteStore
from engines.dragonslayer.fight import wipe_out
from engines.replay import action_rng
from games import ENGINES

BASELINE = {
    "moves": "about 8-9 computer moves per second reported for the whole bot; 45.6 here"
    " (100 games, strong players, 15 s)",
    "gap": "12 s p50 between two moves of one game reported; p50 2.27 s, p95 2.48 s here",
    "ready": "never ready (604 `!skip` actions in 5 s for one such game); here not ready"
    " after 5 s, 962 `!skip` actions",
}
"""What the turn clock did before computer turns ran concurrently and a skip that keeps the
same seat prompted restarted its clock."""

GUILD, HOST = 1, 100

STOP = asyncio.Event()
"""Set when the run is asked to stop (Ctrl-C, SIGTERM)."""


async def until_stopped(seconds: float) -> None:
    """Wait ``seconds``, or less if the run is asked to stop meanwhile."""
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(STOP.wait(), seconds)


class CountingSender:
    """An outbox sender that sends nothing and counts what it was given."""

    def __init__(self) -> None:
        self.sent = 0

    async def __call__(self, delivery: Delivery) -> int:
        self.sent += 1
        return self.sent


def pct(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


async def computer_games(host: GameHost, games: int, level: str) -> list[int]:
    """``games`` started games of computers only, the registered games in turn."""
    slugs = list(ENGINES)
    ids = []
    for index in range(games):
        slug = slugs[index % len(slugs)]
        opened = await host.lobby.new_game(
            guild_id=GUILD, channel_id=1000 + index, user_id=HOST, user_name="host", slug=slug
        )
        game = opened.notices[-1].game_id
        roles = (await host.desk.table(game)).roles()
        for role in roles[1:]:
            await host.lobby.add_computer(game_id=game, user_id=HOST, level=level, role=role.key)
        await host.lobby.add_computer(game_id=game, user_id=HOST, level=level, role=roles[0].key)
        await host.lobby.start(game_id=game, user_id=HOST)
        ids.append(game)
    return ids


async def scene_computers(folder: Path, games: int, seconds: float, delay: float, level: str):
    path = folder / "computers.sqlite3"
    store = await SqliteStore.open(path)
    host = GameHost(store, clock=time.time, seeds=random.Random(1))
    host.computer_delay = delay
    await computer_games(host, games, level)
    sender = CountingSender()
    outbox = host.new_outbox(sender)
    scheduler = host.new_scheduler(outbox.flush_outcome, clock=time.time)
    started = time.time()
    outbox.start()
    scheduler.start()
    await until_stopped(seconds)
    ended = time.time()  # moves still finishing while stopping are not counted
    await scheduler.stop()
    await outbox.stop()
    await store.close()

    db = sqlite3.connect(path)
    rows = db.execute(
        "SELECT game_id, created_at FROM actions WHERE created_at >= ? AND created_at <= ?"
        " ORDER BY game_id, seq",
        (started, ended),
    ).fetchall()
    db.close()
    by_game: dict[int, list[float]] = {}
    for game, when in rows:
        by_game.setdefault(game, []).append(when)
    gaps = [b - a for times in by_game.values() for a, b in itertools.pairwise(times)]
    spent = ended - started
    print(f"{games} games of {level} computers, computer delay {delay:g} s, for {spent:.1f} s:")
    print(f"  {len(rows)} computer moves in {len(by_game)} games, {sender.sent} notices sent")
    print(f"  computer moves per second across games: {len(rows) / spent:.1f}")
    print(f"    before: {BASELINE['moves']}; aim: at least 40")
    if gaps:
        print(
            f"  gap between two moves of one game: p50 {statistics.median(gaps):.2f} s,"
            f" p95 {pct(gaps, 0.95):.2f} s, max {max(gaps):.2f} s"
        )
    print(f"    before: {BASELINE['gap']}; aim: p95 at most {delay + 1:g} s")


def magician_out(state: dict, seed: int) -> dict:
    """A two-player Dragonslayer state in the first magician's turn, the second one slain."""
    engine = ENGINES["dragonslayer"]
    step = 0
    while state["phase"] == "place":
        seat = engine.prompts(state)[0].seat
        state, _ = engine.skip(state, seat, action_rng(seed, step))
        step += 1
    wipe_out(state, 1, [])
    return state


async def overdue_games(path: Path, games: int, now: float) -> None:
    store = await SqliteStore.open(path)
    host = GameHost(store, clock=lambda: now - 3 * 24 * 3600, seeds=random.Random(2))
    engine = ENGINES["dragonslayer"]
    for index in range(games):
        opened = await host.lobby.new_game(
            guild_id=GUILD, channel_id=2000 + index, user_id=HOST, user_name="host",
            slug="dragonslayer",
        )  # fmt: skip
        game = opened.notices[-1].game_id
        await host.lobby.join(game_id=game, user_id=HOST + 1 + index, user_name="other")
        await host.lobby.start(game_id=game, user_id=HOST)
        table = await host.desk.table(game)
        state = magician_out(table.state, table.record.seed)
        await store.update_game(
            game, table.record.version, now=now - 3600, snapshot=engine.dump(state),
            deadline=now - 60, remind_at=None,
        )  # fmt: skip
    await store.close()


async def scene_overdue(folder: Path, games: int, timeout: float) -> None:
    path = folder / "overdue.sqlite3"
    await overdue_games(path, games, time.time())
    started = time.perf_counter()
    store = await SqliteStore.open(path)
    host = GameHost(store, clock=time.time)
    sender = CountingSender()
    outbox = host.new_outbox(sender)
    scheduler = host.new_scheduler(outbox.flush_outcome, clock=time.time)
    outbox.start()
    scheduler.start()
    ready = None
    while time.perf_counter() - started < timeout and not STOP.is_set():
        if not await store.due(time.time()):
            ready = time.perf_counter() - started
            break
        await until_stopped(0.01)
    await scheduler.stop()
    await outbox.stop()
    skips = 0
    for record in await store.games(limit=games):
        skips += sum(a.action == "!skip" for a in await store.actions(record.id))
    await store.close()
    print(f"start-up with {games} overdue Dragonslayer games (the second magician out):")
    if ready is None:
        print(f"  not ready after {timeout:g} s; {skips} `!skip` actions by then")
    else:
        print(
            f"  ready (no game due any more) after {ready * 1000:.0f} ms; {skips} `!skip` actions"
        )
    print(f"    before: {BASELINE['ready']}; aim: under 1 s")


async def run(args: argparse.Namespace) -> None:
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, STOP.set)
    with tempfile.TemporaryDirectory() as folder:
        if args.games:
            await scene_computers(Path(folder), args.games, args.seconds, args.delay, args.level)
        if args.overdue and not STOP.is_set():
            await scene_overdue(Path(folder), args.overdue, args.ready_timeout)


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.computers", description=__doc__)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--delay", type=float, default=2.0, help="the computer delay")
    parser.add_argument("--level", default="strong", choices=("easy", "strong"))
    parser.add_argument("--overdue", type=int, default=50)
    parser.add_argument("--ready-timeout", type=float, default=10.0)
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
