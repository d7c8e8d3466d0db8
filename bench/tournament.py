"""Computer players against each other: win rates with 95% confidence intervals.

``python -m bench.tournament [--games a,b] [--rounds N] [--seed S]``

For each game and each seat, ``N`` seeded games are played twice with the same seeds: once
with ``strong`` in that seat, once with ``easy`` there; every other seat is ``easy``. The
difference in that seat's win rate is what the strong player adds. Lions and Dragons Chess
also reports strong against easy directly (strong plays White in half the games). Dragon's
Cave adds average coins. Every decision is timed: the p95 is the figure that matters for a
table waiting on the computer.

Games are played through the engines alone (no host, no Discord), exactly as the host asks
a computer player: the state as the seat observes it, legal actions only.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time
from dataclasses import dataclass, field

from games import ENGINES, spec_for

TURN_CAP = 4000
"""Decisions after which an unfinished game counts as won by nobody."""
TARGET_P95_MS = 1000.0


@dataclass
class Played:
    """One finished (or capped) game: winners, Dragon's Cave totals, decision times."""

    winners: tuple[int, ...]
    totals: list[int] | None
    times_ms: list[float] = field(default_factory=list)
    strong_times_ms: list[float] = field(default_factory=list)


def play(slug: str, levels: list[str], seed: int, options: dict[str, str] | None = None) -> Played:
    """A whole game with ``levels[seat]`` choosing for each seat."""
    game = ENGINES[slug]
    normal = game.normalize_options(options or {})
    roles = [r.key for r in game.roles(len(levels), normal)]
    state = game.setup(roles, normal, random.Random(seed))
    players = [spec_for(slug).player(level) for level in levels]
    played = Played(winners=(), totals=None)
    for step in range(TURN_CAP):
        if game.result(state) is not None:
            break
        prompt = game.prompts(state)[0]
        seen = game.observe(state, prompt.seat)
        start = time.perf_counter()
        decision = players[prompt.seat].choose(
            game, seen, prompt.seat, random.Random(f"{seed}:{step}:choose")
        )
        spent = (time.perf_counter() - start) * 1000
        played.times_ms.append(spent)
        if levels[prompt.seat] == "strong":
            played.strong_times_ms.append(spent)
        state, _ = game.apply(state, prompt.seat, decision.action, random.Random(f"{seed}:{step}"))
    result = game.result(state)
    played.winners = result.winners if result else ()
    outcome = game.dump(state).get("outcome")
    if isinstance(outcome, dict) and "totals" in outcome:
        played.totals = list(outcome["totals"])
    return played


def interval(wins: float, games: int) -> tuple[float, float, float]:
    """Win rate and its 95% Wilson score interval."""
    if games == 0:
        return 0.0, 0.0, 0.0
    p = wins / games
    z = 1.96
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return p, max(0.0, centre - half), min(1.0, centre + half)


def share(played: Played, seat: int) -> float:
    """A seat's share of the win: 1 alone, 1/k when k share it, 0 otherwise."""
    return 1 / len(played.winners) if seat in played.winners else 0.0


def percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, math.ceil(q * len(ordered)) - 1)]


def seat_table(slug: str, players: int, rounds: int, seed: int) -> list[str]:
    """Per seat: win share with strong there vs easy there, same seeds, others easy."""
    lines = [f"{ENGINES[slug].title}, {players} players, {rounds} games per line"]
    times: list[float] = []
    for seat in range(players):
        results: dict[str, list[Played]] = {}
        for level in ("strong", "easy"):
            levels = ["easy"] * players
            levels[seat] = level
            results[level] = [play(slug, levels, seed + n) for n in range(rounds)]
        times += [t for p in results["strong"] for t in p.strong_times_ms]
        rates = {
            level: interval(sum(share(p, seat) for p in games), rounds)
            for level, games in results.items()
        }
        (s, s_lo, s_hi), (e, e_lo, e_hi) = rates["strong"], rates["easy"]
        line = (
            f"  seat {seat}: strong {s:6.1%} [{s_lo:.1%}, {s_hi:.1%}]  "
            f"easy {e:6.1%} [{e_lo:.1%}, {e_hi:.1%}]  gain {100 * (s - e):+5.1f} pp"
        )
        coins = [p.totals[seat] for p in results["strong"] if p.totals]
        if coins:
            easy_coins = [p.totals[seat] for p in results["easy"] if p.totals]
            line += f"  coins {statistics.mean(coins):.1f} vs {statistics.mean(easy_coins):.1f}"
        lines.append(line)
    lines.append(
        f"  strong decision time p50 {percentile(times, 0.5):.1f} ms, "
        f"p95 {percentile(times, 0.95):.1f} ms (target {TARGET_P95_MS:.0f} ms)"
    )
    return lines


def head_to_head(slug: str, rounds: int, seed: int) -> list[str]:
    """Strong against easy, strong taking each side in half the games."""
    wins, draws, times = 0.0, 0, []
    for n in range(rounds):
        strong = n % 2
        levels = ["easy", "easy"]
        levels[strong] = "strong"
        played = play(slug, levels, seed + n)
        times += played.strong_times_ms
        wins += share(played, strong)
        draws += not played.winners
    rate, low, high = interval(wins, rounds)
    return [
        f"{ENGINES[slug].title}: strong against easy, {rounds} games",
        f"  strong wins {rate:.1%} [{low:.1%}, {high:.1%}], draws {draws}",
        f"  strong decision time p50 {percentile(times, 0.5):.1f} ms, "
        f"p95 {percentile(times, 0.95):.1f} ms (target {TARGET_P95_MS:.0f} ms)",
    ]


def report(slugs: list[str], rounds: int, seed: int) -> list[str]:
    lines: list[str] = []
    for slug in slugs:
        game = ENGINES[slug]
        if slug == "lions-dragons":
            lines += head_to_head(slug, rounds, seed)
        else:
            for players in sorted({game.min_players, game.max_players}):
                lines += seat_table(slug, players, rounds, seed)
        lines.append("")
    return lines


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.tournament", description=__doc__)
    parser.add_argument("--games", default=",".join(ENGINES))
    parser.add_argument("--rounds", type=int, default=200, help="games per line (%(default)s)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    for line in report(args.games.split(","), args.rounds, args.seed):
        print(line, flush=True)


if __name__ == "__main__":
    main()
