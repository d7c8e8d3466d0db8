"""Send faults: what the channel shows stays true when sends fail, reach Discord unanswered,
or the process dies between a send and its record.

``python -m bench.send_faults [--actions 600] [--faults 0.3] [--seed 1]``

Seeded random games of every hosted game are played through the real host and store
(SQLite in a temporary folder); each notice goes through the outbox to a fake Discord that
keeps every message and what it shows, and that answers a send under a nonce it has seen
with the message made then (as Discord does). A share ``--faults`` of the sends that make
a message fail, in three ways in turn: refused before reaching Discord (a 503), made but
the reply lost (a 503 after the fact), and made with the process dying before it records
the send (a new outbox, as after a restart, sends what was left). At the end the faults
stop and everything left is sent. Printed, each must be 0:

- notices lost (neither sent nor folded into a send, or given up on);
- turns posted twice (two messages made opening one turn of one game);
- duplicate status messages (a game with more than one);
- posts left stale (a game whose turn post or status message shows other than its newest).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

from bench.crash import GUILD, open_tables

FAULTS = ("refused", "lost", "killed")


class Killed(BaseException):
    """The process dies here."""


class FakeDiscord:
    """Messages by id and what each shows; a nonce seen before answers its first message."""

    def __init__(self, faults: float, seed: int) -> None:
        self.rate = faults
        self.chance = random.Random(seed)
        self.shows: dict[int, Any] = {}
        self.made_as: dict[int, Any] = {}
        self.by_nonce: dict[str, int] = {}
        self.faulted: Counter[str] = Counter()
        self.sends = 0

    async def __call__(self, delivery: Any) -> int | None:
        from bot.service.delivery.outbox import TryLater
        from bot.service.notices import ChannelPost, StatusUpdate

        self.sends += 1
        notice = delivery.notice
        if not isinstance(notice, ChannelPost | StatusUpdate):
            return None  # DMs: not what a channel shows
        if isinstance(notice, StatusUpdate):
            target = delivery.status_message_id
        else:
            target = delivery.board_message_id if notice.edit else None
        if target in self.shows:
            self.shows[target] = notice
            return int(target)
        if isinstance(notice, ChannelPost) and (notice.settles is not None or notice.passed):
            return None
        fault = self.chance.choice(FAULTS) if self.chance.random() < self.rate else None
        if fault == "refused":
            self.faulted[fault] += 1
            raise TryLater("Discord 503")
        if delivery.nonce in self.by_nonce:
            message = self.by_nonce[delivery.nonce]
        else:
            message = 9000 + len(self.shows)
            self.shows[message] = self.made_as[message] = notice
            self.by_nonce[delivery.nonce] = message
        if fault is not None:
            self.faulted[fault] += 1
            if fault == "lost":
                raise TryLater("Discord 503 (the reply was lost)")
            raise Killed
        return message


async def run(actions: int, rate: float, seed: int) -> dict[str, int]:
    from bot.service.errors import UserError
    from bot.service.host import GameHost
    from bot.store.sqlite import SqliteStore

    folder = Path(tempfile.mkdtemp(prefix="dragon-send-faults-"))
    store = await SqliteStore.open(str(folder / "games.sqlite3"))
    now = [1_000_000.0]
    host = GameHost(store, seeds=random.Random(seed), clock=lambda: now[0])
    host.computer_delay = 0.0
    discord = FakeDiscord(rate, seed)
    restarts = 0

    async def flush() -> None:
        nonlocal restarts
        outbox = host.new_outbox(discord)
        try:
            await outbox.flush()
        except Killed:
            restarts += 1
        await outbox.stop()

    chooser = random.Random(seed)
    done = 0
    while done < actions:
        running = [g for g in await store.games(guild_id=GUILD) if g.status == "running"]
        if not running:
            await open_tables(host)
            await flush()
            continue
        record = chooser.choice(running)
        table = await host.desk.table(record.id)
        seat = chooser.choice(table.prompts()).seat
        action = chooser.choice(table.engine.legal_actions(table.state, seat)).action
        user = record.seats[seat].user_id
        try:
            await host.turns.act(
                game_id=record.id, user_id=user, action=action, version=record.version
            )
        except UserError:
            continue
        done += 1
        now[0] += chooser.uniform(0.2, 3.0)
        await flush()
    discord.rate = 0.0
    for _ in range(20):  # the faults stop: whatever waits goes out
        now[0] += 400
        await flush()
    figures = await check(store, discord)
    figures |= {"actions": done, "sends": discord.sends, "restarts": restarts}
    figures |= {f"faults {k}": n for k, n in discord.faulted.items()}
    await store.close()
    return figures


async def check(store: Any, discord: FakeDiscord) -> dict[str, int]:
    from bot.service import wire
    from bot.service.notices import ChannelPost, StatusUpdate

    lost = len(await store.pending_notices(limit=100_000))
    opened: Counter[tuple[int, int]] = Counter()
    statuses: Counter[int] = Counter()
    for notice in discord.made_as.values():
        if isinstance(notice, StatusUpdate):
            statuses[notice.game_id] += 1
        elif notice.turn is not None:
            opened[(notice.game_id, notice.turn)] += 1
    stale = []
    for record in await store.games(guild_id=GUILD):
        bodies = await store.recent_notices(record.id, f"c{record.channel_id}", 50)
        loaded = [wire.load(b) for b in bodies]
        post = next((n for n in loaded if isinstance(n, ChannelPost) and n.of_turn), None)
        status = next((n for n in loaded if isinstance(n, StatusUpdate)), None)
        shown = discord.shows.get(record.board_message_id)
        showing = shown is not None and str(shown.text).endswith(str(post.text if post else ""))
        if post is not None and not post.passed and not showing:
            stale.append(record.id)
        if status is not None:
            shown = discord.shows.get(record.status_message_id)
            if shown is None or str(shown.text) != str(status.text):
                stale.append(record.id)
    return {
        "notices lost": lost,
        "turns posted twice": sum(n - 1 for n in opened.values()),
        "duplicate status messages": sum(n - 1 for n in statuses.values()),
        "games left stale": len(set(stale)),
        "games": len(await store.games(guild_id=GUILD)),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=600)
    parser.add_argument("--faults", type=float, default=0.3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    figures = asyncio.run(run(args.actions, args.faults, args.seed))
    print(f"send faults: {args.faults:.0%} of the sends that make a message, seed {args.seed}")
    for name, value in figures.items():
        print(f"  {name + ':':30} {value}")
    bad = ("notices lost", "turns posted twice", "duplicate status messages", "games left stale")
    print("  result:", "PASS" if not any(figures[k] for k in bad) else "FAIL")


if __name__ == "__main__":
    main()
