"""One bot process for ``test_processes.py``: a GameHost with its Outbox and Scheduler on a
shared PostgreSQL database, as the Discord bot runs them, without Discord.

``python -m tests.bot.host_process URL LOG TAG CLICKS`` sends each notice by appending
``TAG NONCE`` to the file ``LOG``, submits each versioned action of the JSON list
``CLICKS`` (``[game_id, user_id, action, version]``; a double click when every process
submits it), writing ``TAG click GAME VERSION ok|stale``, and stops once nothing is due and
nothing waits to be sent (or after ``DEADLINE`` seconds), writing ``TAG done``.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import time

from bot.service.delivery.outbox import Delivery
from bot.service.errors import UserError
from bot.service.host import GameHost
from bot.store.postgres import PostgresStore

LEASE = 5.0
"""Seconds a claim lasts here: a killed process's games and lanes are taken over after it.
Long enough that a live process starved of CPU (the whole suite on two cores) renews its
claims in time, since a lapsed claim of a live sender is a notice sent twice."""
DEADLINE = 120.0
"""Seconds after which a process stops even with work left: only a guard against a hang
(its test then fails, finding notices unsent), however busy the machine."""


def write(log: str, line: str) -> None:
    # One small write with O_APPEND: lines of several processes never mix.
    fd = os.open(log, os.O_WRONLY | os.O_APPEND | os.O_CREAT)
    try:
        os.write(fd, (line + "\n").encode())
    finally:
        os.close(fd)


async def main(url: str, log: str, tag: str, clicks: list[list]) -> None:
    store = await PostgresStore.open(url)
    host = GameHost(store, clock=time.time)
    host.computer_delay = 0.0
    host.claim_lease = LEASE

    async def send(delivery: Delivery) -> None:
        write(log, f"{tag} {delivery.nonce}")
        await asyncio.sleep(0.002)  # a send takes a moment, as Discord's does

    outbox = host.new_outbox(send, lane_lease=LEASE)
    scheduler = host.new_scheduler(outbox.flush_outcome, time.time)
    # As the Discord bot does: the other processes' writes wake this one's workers.
    await store.subscribe(lambda kind: scheduler.poke() if kind == "clock" else outbox.poke())
    outbox.start()
    scheduler.start()
    write(log, f"{tag} ready")

    async def click(game_id: int, user_id: int, action: str, version: int) -> None:
        try:
            outcome = await host.turns.act(
                user_id=user_id, action=action, version=version, game_id=game_id
            )
        except UserError:
            write(log, f"{tag} click {game_id} {version} stale")
            return
        write(log, f"{tag} click {game_id} {version} ok")
        await outbox.flush_outcome(outcome)

    await asyncio.gather(*(click(*c) for c in clicks))
    started = time.monotonic()
    quiet = 0
    while time.monotonic() - started < DEADLINE and quiet < 5:
        await asyncio.sleep(0.2)
        now = time.time()
        busy = await store.due(now) or await store.pending_notices(limit=1)
        quiet = 0 if busy else quiet + 1
    await scheduler.stop()
    await outbox.stop()
    await store.close()
    write(log, f"{tag} done")


if __name__ == "__main__":
    url, log, tag, clicks = sys.argv[1:5]
    asyncio.run(main(url, log, tag, json.loads(clicks)))
