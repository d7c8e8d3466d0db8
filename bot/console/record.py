"""Write a whole-game local-table script by letting seeded random players play.

``python -m bot.console.record --game stgeorge --players 2 --seed 7 > examples/x.txt``
prints a script that ``python -m bot console --script x.txt --seed 7`` replays to the
same end: the script's first line records the seed.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import random

from bot.console.table import LocalTable
from games import ENGINES

NAMES = ("alice", "bob", "carol", "dave", "erin")


async def record(slug: str, players: int, seed: int, options: str = "", limit: int = 5000) -> str:
    """The script of one seeded game of ``slug``, played by random legal choices."""
    table = await LocalTable.open(seed=seed, out=io.StringIO())
    chooser = random.Random(f"{seed}:choices")
    names = NAMES[:players]
    lines = [f"# {ENGINES[slug].title}, {players} players, random legal play.", f"# seed: {seed}"]
    opened = f"{names[0]}: /game new game:{slug} players:{players}"
    if options:
        opened += f' options:"{options}"'
    lines += [opened, *(f"{n}: /game join" for n in names[1:]), f"{names[0]}: /game start"]
    await table.run_lines(lines, echo=False)
    host = table.host
    for _ in range(limit):
        if (await host.desk.table(1)).record.status != "running":
            break
        for name in names:
            controls = await host.turns.controls_for(game_id=1, user_id=table.user(name))
            if controls:
                action = chooser.choice(controls[0].choices).action
                line = f"{name}: {action}"
                lines.append(line)
                await table.run_line(line)
                break
    await table.close()
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--game", required=True, choices=sorted(ENGINES))
    parser.add_argument("--players", type=int, required=True)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--options", default="")
    args = parser.parse_args()
    print(asyncio.run(record(args.game, args.players, args.seed, args.options)), end="")


if __name__ == "__main__":
    main()
