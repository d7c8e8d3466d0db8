"""Command line of the benchmarks: ``python -m bench [--games a,b] [--actions N] [--seed S]``;
with ``--boards N``, the CPU and size of board pictures instead (:mod:`bench.boards`);
``python -m bench replay`` for the replay animations (:mod:`bench.replay`);
``python -m bench posts`` for the bot's posts per turn (:mod:`bench.posts`);
``python -m bench pages`` for the game pages on the web (:mod:`bench.pages`);
``python -m bench listings`` for the listings, the inbox and the due query
(:mod:`bench.listings`); ``python -m bench latency`` for the latency tables followed by an
action's CPU with the server in another language (:mod:`bench.languages`), which
``python -m bench languages`` runs alone."""

from __future__ import annotations

import argparse
import asyncio
import sys

from bench import boards, languages, latency, listings, pages, posts
from bench import replay as replays
from games import ENGINES


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m bench",
        description="Per-action latency and board picture sizes of every hosted game.",
    )
    parser.add_argument(
        "--games",
        default=",".join(ENGINES),
        help="comma-separated game slugs (default: every registered game: %(default)s)",
    )
    parser.add_argument(
        "--actions",
        type=int,
        default=300,
        help="accepted actions to measure per table (default: %(default)s)",
    )
    parser.add_argument(
        "--seed",
        type=int,
        default=1,
        help="seed of game setups and of the random choice of moves (default: %(default)s)",
    )
    parser.add_argument(
        "--boards",
        type=int,
        default=0,
        help="measure the CPU and size of N board pictures per game instead (bench.boards)",
    )
    args = parser.parse_args(argv)
    args.games = parse_games(parser, args.games)
    if args.actions < 1:
        parser.error("--actions must be at least 1")
    return args


def parse_games(parser: argparse.ArgumentParser, text: str) -> list[str]:
    """The slugs named in ``text``, each checked against the registered games."""
    slugs = [word.strip() for word in text.split(",") if word.strip()]
    unknown = [slug for slug in slugs if slug not in ENGINES]
    if unknown:
        parser.error(f"unknown game(s) {', '.join(unknown)}; registered: {', '.join(ENGINES)}")
    if not slugs:
        parser.error("--games names no game")
    return slugs


def main(argv: list[str] | None = None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["replay"]:
        replays.main()
        return
    if argv[:1] == ["posts"]:
        posts.main()
        return
    if argv[:1] == ["pages"]:
        pages.main(argv[1:])
        return
    if argv[:1] == ["listings"]:
        listings.main(argv[1:])
        return
    if argv[:1] == ["languages"]:
        languages.main(argv[1:])
        return
    with_languages = argv[:1] == ["latency"]
    args = parse_args(argv[1:] if with_languages else argv)
    if args.boards > 0:
        boards.run(args.games, boards=args.boards, seed=args.seed)
        return
    asyncio.run(latency.run(args.games, actions=args.actions, seed=args.seed))
    if with_languages:
        print()
        languages.report(
            asyncio.run(languages.run(args.games, actions=min(args.actions, 60), seed=args.seed))
        )


if __name__ == "__main__":
    main()
