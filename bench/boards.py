"""CPU time and size of one board picture, per game: drawing and encoding apart.

``python -m bench.boards [--games a,b] [--boards 300] [--seed 1]`` (or ``python -m bench
--boards``); ``python -m bench.boards --first [--repeat 3]`` for each game's first board in a
fresh picture worker instead (see :func:`first_boards`).

For each game, random legal actions are played from fresh set-ups (:func:`games.playout`,
with the chance the host replays a log with) and the public view after each is kept, until
``--boards`` views are collected. Each view is then drawn (the renderer's ``picture``) and
encoded (its ``encode``: the game's fixed palette and PNG), timed in process CPU time, so
waiting on other work of the machine does not count. The first board of each game is drawn
once before timing: static backgrounds and palettes are made once per process, and a worker
process draws thousands of boards.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import random
import statistics
import sys
import time
from dataclasses import dataclass
from typing import Any

from bot.service.boards.pictures import Pictures
from games import SPECS, playout

BASELINE = {
    "stgeorge": (5.0, 18.4, 48.4),
    "lions-dragons": (4.7, 12.5, 36.3),
    "dragons-cave": (3.8, 14.0, 45.8),
    "dragonslayer": (13.3, 16.0, 73.5),
}
"""Measured before the fixed palettes: (draw ms, encode ms, KB) per board, octree
quantisation to 128 colours and zlib level 6."""

BUDGET_MS = 8.0
"""Budget: CPU per board, drawing and encoding together, on average."""


@dataclass
class Figures:
    """What one game's boards cost."""

    slug: str
    draw_ms: list[float]
    encode_ms: list[float]
    sizes: list[int]

    @property
    def total_ms(self) -> float:
        return statistics.fmean(self.draw_ms) + statistics.fmean(self.encode_ms)


def views(slug: str, count: int, seed: int) -> list[dict[str, Any]]:
    """``count`` public views of random games of ``slug``: every table size, set-ups and
    finished games included."""
    engine = SPECS[slug].engine
    chooser = random.Random(f"{slug}:{seed}")
    found: list[dict[str, Any]] = []
    game = 0
    while len(found) < count:
        game += 1
        players = chooser.randint(engine.min_players, engine.max_players)
        for view in playout(slug, players, f"{seed}:{game}", chooser):
            found.append(view)
            if len(found) >= count:
                break
    return found


def renderer_module(slug: str) -> Any:
    """The module of the game's renderer: its ``picture`` and ``encode``."""
    return sys.modules[SPECS[slug].renderer.__module__]


def measure(slug: str, boards: list[dict[str, Any]]) -> Figures:
    module = renderer_module(slug)
    module.encode(module.picture(boards[0]))
    figures = Figures(slug, [], [], [])
    for view in boards:
        started = time.process_time()
        image = module.picture(view)
        drawn = time.process_time()
        data = module.encode(image)
        done = time.process_time()
        figures.draw_ms.append(1000 * (drawn - started))
        figures.encode_ms.append(1000 * (done - drawn))
        figures.sizes.append(len(data))
    return figures


def line(figures: Figures) -> str:
    draw = statistics.fmean(figures.draw_ms)
    encode = statistics.fmean(figures.encode_ms)
    kb = statistics.fmean(figures.sizes) / 1024
    was = BASELINE.get(figures.slug)
    before = (
        f"{was[0] + was[1]:5.1f} ms ({was[0]:4.1f} + {was[1]:4.1f}) {was[2]:5.1f} KB" if was else ""
    )
    verdict = "ok" if figures.total_ms <= BUDGET_MS else "over budget"
    return (
        f"  {figures.slug:<14} {figures.total_ms:5.1f} ms ({draw:4.1f} + {encode:4.1f})"
        f" {kb:5.1f} KB (max {max(figures.sizes) / 1024:5.1f})   {before}   {verdict}"
    )


def run(slugs: list[str], boards: int, seed: int) -> list[Figures]:
    """Measure and print each game's figures; returns them."""
    print(f"CPU per board picture (draw + encode), {boards} random public views per game")
    print(f"  budget {BUDGET_MS:g} ms per board on average; baseline measured before")
    print(f"  {'game':<14} {'now':<27} {'KB now':<18}   {'before':<28}")
    results = []
    for slug in slugs:
        figures = measure(slug, views(slug, boards, seed))
        print(line(figures), flush=True)
        results.append(figures)
    return results


@dataclass
class First:
    """Wall-clock milliseconds of one game's board asked of a picture worker: the first in a
    fresh worker that did not warm (as every worker did before the warm-up), the first in a
    fresh worker once it has warmed, and a board of a worker long at work; and the warm-up's
    seconds."""

    slug: str
    cold_ms: float
    warmed_ms: float
    steady_ms: float
    warm_up_s: float
    new_game_ms: float
    """The same first board asked of a worker at work on another game: what a game's own
    first board costs anywhere (a cave's tiles, say), which no warm-up can know."""


async def _first_board(slug: str, view: dict[str, Any], warm: bool) -> tuple[float, float]:
    """The milliseconds of the first board a fresh worker draws (once it is up, and warm
    if ``warm``), and its warm-up's seconds."""
    pictures = Pictures(1, warm=warm)
    try:
        pictures.start()
        warmed = await pictures.warmed()  # the worker is up (and warm) and waiting
        gc.collect()  # this process's own garbage is no part of the worker's first board
        started = time.perf_counter()
        await pictures.draw(slug, view)
        return 1000 * (time.perf_counter() - started), warmed.seconds
    finally:
        await pictures.close()


async def _steady_board(
    slug: str, boards: list[dict[str, Any]], first: dict[str, Any]
) -> tuple[float, float]:
    """The median milliseconds of a board once a worker has drawn a game's boards for a
    while (the first half of ``boards`` drawn untimed, the second half timed); then the
    milliseconds of ``first``, another game's board, in that worker at work."""
    pictures = Pictures(1)
    try:
        pictures.start()
        await pictures.warmed()
        half = len(boards) // 2
        for view in boards[:half]:
            await pictures.draw(slug, view)
        times = []
        gc.collect()
        for view in boards[half:]:
            started = time.perf_counter()
            await pictures.draw(slug, view)
            times.append(1000 * (time.perf_counter() - started))
        gc.collect()
        started = time.perf_counter()
        await pictures.draw(slug, first)
        return statistics.median(times), 1000 * (time.perf_counter() - started)
    finally:
        await pictures.close()


async def first_boards(slugs: list[str], seed: int, repeat: int) -> list[First]:
    """For each game, its first board in a fresh worker, cold (as before workers warmed)
    and warmed, against a board of a worker at work, all through the same pool and socket
    (each timing the median of ``repeat`` fresh workers). The first board is a game under
    way, not a new game, nor one of the warm-up's own boards under way (another seed), and
    the boards at work are others."""
    print("First board of each game in a fresh picture worker, wall clock (median of "
          f"{repeat} fresh workers each), against a board of a worker at work")  # fmt: skip
    print(f"  {'game':<14} {'cold first':>11} {'warmed first':>13} {'at work':>9}"
          f"   {'cold/at work':>12} {'warmed/at work':>14}   warm-up"
          f"   {'new game at work':>16} {'warmed/new game':>15}")  # fmt: skip
    found = []
    for slug in slugs:
        view = views(slug, 40, seed)[-1]
        cold = [await _first_board(slug, view, warm=False) for _ in range(repeat)]
        warmed = [await _first_board(slug, view, warm=True) for _ in range(repeat)]
        steady, new_game = await _steady_board(slug, views(slug, 80, seed + 1), view)
        first = First(
            slug,
            statistics.median(ms for ms, _ in cold),
            statistics.median(ms for ms, _ in warmed),
            steady,
            statistics.median(s for _, s in warmed),
            new_game,
        )
        print(
            f"  {slug:<14} {first.cold_ms:8.1f} ms {first.warmed_ms:10.1f} ms"
            f" {first.steady_ms:6.1f} ms   {first.cold_ms / first.steady_ms:11.1f}x"
            f" {first.warmed_ms / first.steady_ms:13.1f}x   {first.warm_up_s:5.2f} s"
            f"   {first.new_game_ms:13.1f} ms {first.warmed_ms / first.new_game_ms:14.1f}x",
            flush=True,
        )
        found.append(first)
    return found


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default=",".join(SPECS), help="comma-separated slugs")
    parser.add_argument("--boards", type=int, default=300, help="views per game")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--first", action="store_true", help="each game's first board in a fresh worker instead"
    )
    parser.add_argument("--repeat", type=int, default=3, help="fresh workers per timing (--first)")
    args = parser.parse_args(argv)
    slugs = [slug.strip() for slug in args.games.split(",") if slug.strip()]
    unknown = [slug for slug in slugs if slug not in SPECS]
    if unknown or args.boards < 1:
        parser.error(f"unknown game(s) {', '.join(unknown)}" if unknown else "--boards >= 1")
    if args.first:
        asyncio.run(first_boards(slugs, args.seed, max(1, args.repeat)))
    else:
        run(slugs, args.boards, args.seed)


if __name__ == "__main__":
    main()
