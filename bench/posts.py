"""Bot posts per turn: how many messages the channel gets for each turn of a game.

``python -m bench posts`` (or ``python -m bench.posts``)

Each example script in ``examples/`` is played at the local table with its seed, and so
is one game of St. George and one of Lions and Dragons against a strong computer (the
person playing random legal moves). A counting sender stands in front of the table's: a
channel post that adds a message counts as a post, one that edits the turn's post in
place (or the status message) as an edit. Turns are counted from the game's log: a turn
is a run of actions by one seat (a timeout starts another). Printed per game: posts,
edits, turns and posts per turn.
"""

from __future__ import annotations

import asyncio
import io
import random
import re
from dataclasses import dataclass
from pathlib import Path

from bot.console.table import LocalTable
from bot.service.notices import ChannelPost, PrivateFallback, StatusUpdate
from bot.service.outbox import Delivery

EXAMPLES = Path(__file__).parents[1] / "examples"
COMPUTER_GAMES = {
    "stgeorge-vs-computer": ["alice: /game new game:stgeorge players:2"],
    "lions-dragons-vs-computer": ["alice: /game new game:lions-dragons players:2"],
}
MAX_MOVES = 400


@dataclass
class Count:
    posts: int = 0
    edits: int = 0

    def sent(self, delivery: Delivery) -> None:
        notice = delivery.notice
        if isinstance(notice, ChannelPost):
            if getattr(notice, "edit", False) and delivery.board_message_id:
                self.edits += 1
            else:
                self.posts += 1
        elif isinstance(notice, PrivateFallback):
            self.posts += 1
        elif isinstance(notice, StatusUpdate):
            if delivery.status_message_id:
                self.edits += 1
            else:
                self.posts += 1


def counted(table: LocalTable) -> Count:
    """Count what ``table``'s outbox sends (and still print it, to nowhere)."""
    count = Count()
    send = table.outbox.send
    posted = iter(range(1, 10**9))

    async def counting(delivery: Delivery) -> int | None:
        count.sent(delivery)
        await send(delivery)
        # The local table makes no message ids; give each post one, as Discord would.
        return next(posted)

    table.outbox.send = counting
    return count


async def turns(table: LocalTable) -> int:
    """Runs of actions by one seat in game 1's log (a timeout starts a new run)."""
    runs, last = 0, None
    for entry in await table.host.store.actions(1):
        key = (entry.seat, entry.action.startswith("!"))
        if key != last or entry.action.startswith("!"):
            runs += 1
        last = key
    return runs


async def example(path: Path) -> tuple[int, int, int]:
    script = path.read_text(encoding="utf-8")
    seed = int(re.search(r"^# seed: (\d+)$", script, re.MULTILINE)[1])
    table = await LocalTable.open(seed=seed, out=io.StringIO())
    try:
        count = counted(table)
        await table.run_lines(script.splitlines())
        return count.posts, count.edits, await turns(table)
    finally:
        await table.close()


async def against_computer(opening: list[str], seed: int = 5) -> tuple[int, int, int]:
    """A person (random legal moves) against a strong computer, to the end."""
    table = await LocalTable.open(seed=seed, out=io.StringIO())
    rng = random.Random(seed)
    try:
        count = counted(table)
        await table.run_lines([*opening, "alice: /game addbot level:strong", "alice: /game start"])
        alice = table.user("alice")
        for _ in range(MAX_MOVES):
            game = await table.host.table(1)
            if game.record.status != "running":
                break
            choices = await table.host.action_choices(user_id=alice, game_id=1)
            if not choices:
                break
            await table.run_line(f"alice: {rng.choice(choices).action}")
        return count.posts, count.edits, await turns(table)
    finally:
        await table.close()


async def run() -> None:
    rows: list[tuple[str, tuple[int, int, int]]] = []
    for path in sorted(EXAMPLES.glob("*.txt")):
        rows.append((path.stem, await example(path)))
    for name, opening in COMPUTER_GAMES.items():
        rows.append((name, await against_computer(opening)))
    print(f"{'game':<28}{'posts':>7}{'edits':>7}{'turns':>7}{'posts/turn':>12}")
    for name, (posts, edits, turn_count) in rows:
        per = posts / turn_count if turn_count else 0.0
        print(f"{name:<28}{posts:>7}{edits:>7}{turn_count:>7}{per:>12.2f}")


def main() -> None:
    asyncio.run(run())


if __name__ == "__main__":
    main()
