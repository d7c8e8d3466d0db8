"""Replay animations of the longest example of each game: frames, size, drawing time.

``python -m bench replay`` (or ``python -m bench.replay``)

Each example script in ``examples/`` is played at the local table with its seed; for each
game the one with the most logged actions is replayed with ``GameHost.replay_animation``
(every board at a change of turn drawn in a thread, then put together as a GIF). Printed
per game: the example, its turns, the frames in the GIF, its size against Discord's 10 MiB
limit, and the seconds the whole drawing took.
"""

from __future__ import annotations

import asyncio
import io
import re
import time
from pathlib import Path

from PIL import Image

from bot.console.table import LocalTable
from games.animation import LIMIT

EXAMPLES = Path(__file__).parents[1] / "examples"


async def played(path: Path) -> tuple[LocalTable, str, int]:
    """The local table after playing the example at ``path``; its game's slug and log length."""
    script = path.read_text(encoding="utf-8")
    seed = int(re.search(r"^# seed: (\d+)$", script, re.MULTILINE)[1])
    table = await LocalTable.open(seed=seed, out=io.StringIO())
    await table.run_lines(script.splitlines())
    game = await table.host.desk.table(1)
    return table, game.record.slug, len(await table.host.store.actions(1))


async def longest_examples() -> dict[str, Path]:
    """For each game, its example with the longest log."""
    best: dict[str, tuple[int, Path]] = {}
    for path in sorted(EXAMPLES.glob("*.txt")):
        table, slug, length = await played(path)
        await table.close()
        if slug not in best or length > best[slug][0]:
            best[slug] = (length, path)
    return {slug: path for slug, (_, path) in best.items()}


async def measure(path: Path) -> dict[str, object]:
    table, slug, _ = await played(path)
    try:
        started = time.perf_counter()
        made = await table.host.stories.replay_animation(game_id=1)
        seconds = time.perf_counter() - started
    finally:
        await table.close()
    with Image.open(io.BytesIO(made.data)) as image:
        frames, size = image.n_frames, image.size
    turns = re.search(r"(\d+) turns", made.text)
    return {
        "game": slug, "example": path.name, "turns": int(turns[1]) if turns else 0,
        "frames": frames, "bytes": len(made.data), "size": f"{size[0]}x{size[1]}",
        "seconds": seconds,
    }  # fmt: skip


async def run() -> list[dict[str, object]]:
    rows = [await measure(path) for path in (await longest_examples()).values()]
    print("Replay animations of the longest example of each game (GIF, drawn in a thread)")
    print(f"{'game':<14} {'example':<24} {'turns':>5} {'frames':>6} {'bytes':>10} "
          f"{'of limit':>8} {'frame px':>9} {'seconds':>7}")  # fmt: skip
    for row in rows:
        print(
            f"{row['game']:<14} {row['example']:<24} {row['turns']:>5} {row['frames']:>6} "
            f"{row['bytes']:>10,} {row['bytes'] / LIMIT:>8.0%} {row['size']:>9} "
            f"{row['seconds']:>7.2f}"
        )
    return rows


def main() -> None:
    asyncio.run(run())


if __name__ == "__main__":
    main()
