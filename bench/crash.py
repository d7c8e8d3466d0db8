"""Crash test: the bot killed at random moments loses nothing and sends nothing twice.

``python -m bench.crash [--actions 2000] [--seed 1]``

A child process plays seeded random games of every hosted game through the real host and
store (SQLite in a temporary folder), sending each notice through the outbox to a fake
Discord that runs in this process and counts what arrives. The child tells this process
about every action the host acknowledged. This process kills the child with SIGKILL at
random moments and starts it again, until enough actions were acknowledged; a last child
runs until everything stored is sent. Then it checks, and prints:

- acknowledged actions missing from the action log (must be 0);
- actions applied twice (an acknowledged action logged more than once; must be 0);
- notices of committed actions not delivered (must be 0; a notice folded into a newer send
  is delivered by it), and messages made per send recorded (must be exactly one: a
  repeated send carries the same nonce, and Discord, like the fake, makes no second
  message for it);
- ``PRAGMA integrity_check``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import signal
import sqlite3
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from games import SPECS

GAMES = [(slug, 3 if slug == "dragons-cave" else 2) for slug in SPECS]
TABLES_PER_GAME = 2
GUILD, CHANNEL = 1, 10


# -- the child: plays and sends ---------------------------------------------------------


async def child(database: str, port: int, seed: int, finish: bool) -> None:
    from bot.service.delivery.outbox import LANE_LEASE
    from bot.service.errors import UserError
    from bot.service.host import GameHost
    from bot.service.wire import dump
    from bot.store.sqlite import SqliteStore

    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    lock = asyncio.Lock()

    async def call(message: dict) -> dict:
        async with lock:
            writer.write((json.dumps(message) + "\n").encode())
            await writer.drain()
            return json.loads(await reader.readline())

    async def send(delivery) -> int:
        reply = await call({"send": delivery.nonce, "body": dump(delivery.notice)})
        return reply["id"]

    store = await SqliteStore.open(database)
    host = GameHost(store, seeds=random.Random(seed))
    host.computer_delay = 0.0
    outbox = host.new_outbox(send)
    await outbox.flush()  # what an earlier process stored and did not send
    if finish:
        # A killed process's claim on a lane lasts its lease, and a failed send waits its
        # pause: the last process sends until nothing is left.
        for _ in range(int(LANE_LEASE) + 30):
            if await outbox.flush() and not await store.pending_notices(limit=1):
                break
            await asyncio.sleep(1.0)
        await store.close()
        await call({"done": True})
        return
    chooser = random.Random(f"{seed}:{os.getpid()}")
    while True:
        running = [g for g in await store.games(guild_id=GUILD) if g.status == "running"]
        if not running:
            await open_tables(host)  # every game is over (or none began): new tables
            continue
        record = chooser.choice(running)
        table = await host.desk.table(record.id)
        prompts = table.prompts()
        seat = chooser.choice(prompts).seat
        user = record.seats[seat].user_id
        choices = table.engine.legal_actions(table.state, seat)
        action = chooser.choice(choices).action
        try:
            await host.turns.act(
                game_id=record.id, user_id=user, action=action, version=record.version
            )
        except UserError:
            continue
        await call({"ack": [record.id, record.version + 1, seat, action]})
        await outbox.flush()


async def open_tables(host) -> None:
    user = 100
    for slug, players in GAMES:
        for _ in range(TABLES_PER_GAME):
            user += 10
            opened = await host.lobby.new_game(
                guild_id=GUILD, channel_id=CHANNEL, user_id=user, user_name=f"p{user}",
                slug=slug, players=players,
            )  # fmt: skip
            game_id = opened.outgoing[0].game_id
            for guest in range(1, players):
                await host.lobby.join(
                    game_id=game_id, user_id=user + guest, user_name=f"p{user + guest}"
                )
            await host.lobby.start(game_id=game_id, user_id=user)


# -- this process: the fake Discord and the killer --------------------------------------


class FakeDiscord:
    """Counts every send; a nonce seen before gets the message it made (as Discord does)."""

    def __init__(self) -> None:
        self.arrivals: Counter[str] = Counter()
        self.acked: list[tuple[int, int, int, str]] = []
        self.done = asyncio.Event()

    async def serve(self, reader, writer) -> None:
        with contextlib.suppress(ConnectionError):  # the child was killed mid-message
            await self._serve(reader, writer)

    async def _serve(self, reader, writer) -> None:
        while line := await reader.readline():
            message = json.loads(line)
            if "send" in message:
                self.arrivals[message["send"]] += 1
                reply = {"id": abs(hash(message["send"])) % 10**12}
            elif "ack" in message:
                self.acked.append(tuple(message["ack"]))
                reply = {}
            else:
                self.done.set()
                reply = {}
            writer.write((json.dumps(reply) + "\n").encode())
            await writer.drain()


async def run(actions: int, seed: int) -> None:
    discord = FakeDiscord()
    server = await asyncio.start_server(discord.serve, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    folder = Path(tempfile.mkdtemp(prefix="dragon-crash-"))
    database = str(folder / "games.sqlite3")
    killer = random.Random(seed)
    kills = 0
    started = time.perf_counter()
    command = [sys.executable, "-m", "bench.crash", "--child", database, "--port", str(port)]
    while len(discord.acked) < actions:
        process = await asyncio.create_subprocess_exec(*command, "--seed", str(seed))
        await asyncio.sleep(killer.uniform(0.2, 1.2))
        if process.returncode is None:
            process.send_signal(signal.SIGKILL)
            kills += 1
        await process.wait()
    final = await asyncio.create_subprocess_exec(
        *command, "--seed", str(seed), "--finish"
    )  # the last process sends what is left and stops
    await final.wait()
    server.close()
    report(database, discord, kills, time.perf_counter() - started)


def report(database: str, discord: FakeDiscord, kills: int, seconds: float) -> None:
    db = sqlite3.connect(database)
    logged = Counter(
        (g, seq, seat, action)
        for g, seq, seat, action in db.execute("SELECT game_id, seq, seat, action FROM actions")
    )
    acked = Counter(discord.acked)
    lost = [a for a in acked if a not in logged]
    twice = [a for a, n in acked.items() if n > 1 or logged.get(a, 0) > 1]
    rows = db.execute("SELECT id, superseded_by FROM outbox").fetchall()
    entries = [f"dh{i}" for i, _ in rows]
    unsent = db.execute("SELECT COUNT(*) FROM outbox WHERE sent_at IS NULL").fetchone()[0]
    # A notice folded into a newer send is delivered by that send (under its nonce).
    carried = {f"dh{i}": f"dh{by}" for i, by in rows if by}
    missing = [n for n in entries if discord.arrivals[carried.get(n, n)] == 0]
    sends = len(entries) - len(carried)
    repeated = sum(n - 1 for n in discord.arrivals.values() if n > 1)
    integrity = db.execute("PRAGMA integrity_check").fetchone()[0]
    print(f"crash test: {kills} kills with SIGKILL in {seconds:.0f} s")
    print(f"  acknowledged actions:           {len(discord.acked)}")
    print(f"  actions in the log:             {sum(logged.values())}")
    print(f"  acknowledged actions lost:      {len(lost)}")
    print(f"  actions applied twice:          {len(twice)}")
    print(f"  notices stored:                 {len(entries)}")
    print(f"  notices never delivered:        {len(missing)} (unsent rows: {unsent})")
    messages = len(discord.arrivals)
    print(f"  sends repeated after a crash:   {repeated} (same nonce: no second message)")
    print(f"  notices folded into newer sends: {len(carried)}")
    print(f"  messages made:                  {messages} for {sends} sends recorded")
    print(f"  PRAGMA integrity_check:         {integrity}")
    ok = not lost and not twice and not missing and not unsent and integrity == "ok"
    ok = ok and messages == sends
    print("  result:", "PASS" if ok else "FAIL")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--child", metavar="DATABASE", help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--finish", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        asyncio.run(child(args.child, args.port, args.seed, args.finish))
    else:
        asyncio.run(run(args.actions, args.seed))


if __name__ == "__main__":
    main()
