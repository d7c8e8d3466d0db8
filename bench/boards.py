"""CPU time and size of one board picture, per game: drawing and encoding apart.

``python -m bench.boards [--games a,b] [--boards 300] [--seed 1]`` (or ``python -m bench
--boards``)

For each game, random legal actions are played from fresh set-ups through
``engines.replay`` (``start``, ``step`` with ``action_rng``, as the host replays a log) and
the public view after each is kept, until ``--boards`` views are collected. Each view is
then drawn (the renderer's ``picture``) and encoded (its ``encode``: the game's fixed
palette and PNG), timed in process CPU time, so waiting on other work of the machine does
not count. The first board of each game is drawn once before timing: static backgrounds
and palettes are made once per process, and a worker process draws thousands of boards.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from dataclasses import dataclass
from typing import Any

from engines.replay import action_rng, start, step
from games import SPECS

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
        options = engine.parse_options("")
        roles = [role.key for role in engine.roles(players, options)]
        game_seed = f"{seed}:{game}"
        state = start(engine, roles, options, game_seed)
        found.append(engine.view(state, None))
        seq = 0
        while engine.result(state) is None and len(found) < count:
            prompts = engine.prompts(state)
            if not prompts:
                break
            prompt = chooser.choice(prompts)
            action = chooser.choice(engine.legal_actions(state, prompt.seat)).action
            seq += 1
            state, _ = step(engine, state, prompt.seat, action, action_rng(game_seed, seq))
            found.append(engine.view(state, None))
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


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default=",".join(SPECS), help="comma-separated slugs")
    parser.add_argument("--boards", type=int, default=300, help="views per game")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    slugs = [slug.strip() for slug in args.games.split(",") if slug.strip()]
    unknown = [slug for slug in slugs if slug not in SPECS]
    if unknown or args.boards < 1:
        parser.error(f"unknown game(s) {', '.join(unknown)}" if unknown else "--boards >= 1")
    run(slugs, args.boards, args.seed)


if __name__ == "__main__":
    main()
