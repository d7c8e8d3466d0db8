"""Bot posts per turn: how many messages the channel gets for each turn of a game.

``python -m bench posts`` (or ``python -m bench.posts``)

Each example script in ``examples/`` is played at the local table with its seed, and so
is one game of St. George and one of Lions and Dragons against a strong computer (the
person playing random legal moves). A counting sender stands in front of the table's: a
channel post that adds a message counts as a post, one that edits the turn's post in
place (or the status message) as an edit. Turns are counted from the game's log: a turn
is a run of actions by one seat (a timeout starts another). Printed per game: posts,
edits, turns and posts per turn.

Then clicks per move: seeded random games of every registered game, played on the engines
alone; at each person's decision the controls Discord would show (:mod:`bot.discord.controls.views`)
are asked how many clicks the move chosen takes and how many entries the player reads
through to find it (the longest menu, or all the menus one step shows together). Printed
per game: median and max clicks, and the most entries read in one step.
"""

from __future__ import annotations

import asyncio
import io
import random
import re
import statistics
from dataclasses import dataclass
from pathlib import Path

import discord

from bot.console.table import LocalTable
from bot.discord.controls.play import GroupSelect, PlacesButton
from bot.discord.controls.views import controls_view
from bot.service.delivery.outbox import Delivery
from bot.service.notices import ChannelPost, Controls, PrivateFallback, StatusUpdate
from bot.service.play import destinations
from bot.service.play.turns import group_of
from games import ENGINES

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
            game = await table.host.desk.table(1)
            if game.record.status != "running":
                break
            choices = await table.host.turns.action_choices(user_id=alice, game_id=1)
            if not choices:
                break
            await table.run_line(f"alice: {rng.choice(choices).action}")
        return count.posts, count.edits, await turns(table)
    finally:
        await table.close()


CLICK_GAMES = 3
"""Seeded random games per game for the clicks per move."""


def steps(control: Controls, action: str) -> list[int]:
    """The entries shown at each step Discord takes to play ``action`` from ``control``'s
    controls: buttons or one menu, a piece then its places, or several menus at once."""
    view = controls_view([control])
    if view is None:
        return []
    items = list(view.children)
    opener = next((i for i in items if isinstance(i, PlacesButton | GroupSelect)), None)
    chosen = next((c for c in control.choices if c.action == action), None)
    if opener is None or chosen is None or (not chosen.to and isinstance(opener, PlacesButton)):
        menus = [i for i in items if isinstance(i, discord.ui.Select)]
        return [sum(len(m.options) for m in menus) or len(items)]
    first = len(opener.item.options) if isinstance(opener, GroupSelect) else 1
    group = [c for c in control.choices if group_of(c) == group_of(chosen)]
    found = destinations.placed(group)
    second = len(group) if found is None else len(found[0])
    return [first, second]


def clicks_of(slug: str) -> tuple[list[int], int]:
    """Clicks per person's move and the most entries read in one step, over seeded
    random games of ``slug``."""
    engine = ENGINES[slug]
    clicks, widest = [], 0
    for seed in range(CLICK_GAMES):
        rng = random.Random(seed)
        roles = [r.key for r in engine.roles(engine.max_players, {})]
        state = engine.setup(roles, {}, rng)
        for _ in range(MAX_MOVES):
            prompts = engine.prompts(state)
            if not prompts:
                break
            prompt = prompts[0]
            choices = tuple(engine.legal_actions(state, prompt.seat))
            action = rng.choice(choices).action
            entries = steps(Controls(1, 1, prompt, choices), action)
            if entries:
                clicks.append(len(entries))
                widest = max(widest, *entries)
            state, _ = engine.apply(state, prompt.seat, action, rng)
    return clicks, widest


CLICKS_BEFORE = (
    "before: every move listed by its coordinates; St. George's Dragon after a 6 read"
    " up to 84 entries across four menus (1 click)"
)


def clicks_table() -> None:
    print()
    print(f"{'clicks per move':<20}{'median':>8}{'max':>6}{'most read in a step':>21}")
    for slug in ENGINES:
        clicks, widest = clicks_of(slug)
        print(f"{slug:<20}{statistics.median(clicks):>8.0f}{max(clicks):>6}{widest:>21}")
    print(" ", CLICKS_BEFORE)


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
    clicks_table()


def main() -> None:
    asyncio.run(run())


if __name__ == "__main__":
    main()
