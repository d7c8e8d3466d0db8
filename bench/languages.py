"""An action's CPU with the server in another language, against English, in one run.

``python -m bench latency`` ends with it; alone: ``python -m bench languages [--actions N]``.

The same seeded games of every registered game are played through the host once per
language of the server (English, German, the pseudo-locale), the languages taking turns
over several rounds so that a drifting machine speed falls on each alike. Each action is
played as a click is (``host.turns.act``) and everything it tells is delivered through the
real outbox to a sender that writes each notice for its reader as a frontend does: the
delivery's locale (the server's language for the channel, the reader's for a DM), every
text written out in it, the board drawn. The CPU of the whole (this process's, from
``time.process_time``) is divided by the actions played.

Aim: an action costs at most 1.05 times the CPU with a non-English server.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import random
import tempfile
import time
from pathlib import Path

import games
from bot.service.delivery.outbox import Delivery
from bot.service.host import GameHost
from bot.service.notices import ChannelPost, Controls
from bot.service.text import Part, Text
from bot.store.sqlite import SqliteStore
from games import ENGINES
from i18n import Locale

GUILD_ID = 1
CHANNEL_ID = 10
FIRST_USER = 1001
LOCALES: tuple[Locale, ...] = ("en", "de", "en-XA")
AIM = 1.05


def write_part(part: Part) -> str:
    """A typed part as a frontend writes it (its cost, not its markup, is what counts)."""
    return f"<{type(part).__name__}>"


def write_out(value: object, locale: Locale) -> int:
    """Write every text ``value`` holds (a notice, its controls) in ``locale``; the number
    of characters written, so the work cannot be skipped."""
    if isinstance(value, Text):
        return len(value.render(write_part, locale))
    if isinstance(value, str):
        return len(value)
    if isinstance(value, Controls):
        return write_out(value.prompt.text, locale) + sum(
            write_out(choice.label, locale) for choice in value.choices
        )
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return sum(write_out(getattr(value, f.name), locale) for f in dataclasses.fields(value))
    if isinstance(value, tuple | list):
        return sum(write_out(item, locale) for item in value)
    return 0


async def play(slug: str, locale: Locale, actions: int, seed: int, folder: Path) -> float:
    """CPU seconds of ``actions`` actions of ``slug`` with the server in ``locale``."""
    store = await SqliteStore.open(folder / f"{slug}-{locale}.sqlite3")
    host = GameHost(store, renderer=games.render, seeds=random.Random(seed))
    written = 0

    async def send(delivery: Delivery) -> int:
        nonlocal written
        written += write_out(delivery.notice, delivery.locale)
        board = getattr(delivery.notice, "board", None)
        if board is not None:
            await host.drawing.draw(board, delivery.locale)
        return written

    outbox = host.new_outbox(send)
    chooser = random.Random(f"{seed}:{slug}")
    users = [FIRST_USER, FIRST_USER + 1]
    await host.languages.set_server(GUILD_ID, users[0], locale, is_admin=True)
    spent = 0.0
    played = 0
    try:
        while played < actions:
            game_id = await open_game(host, slug, users)
            while played < actions:
                offers = [
                    (user, controls)
                    for user in users
                    for controls in await host.turns.controls_for(game_id=game_id, user_id=user)
                    if controls.choices
                ]
                if not offers:
                    break
                user, controls = chooser.choice(offers)
                choice = chooser.choice(controls.choices)
                began = time.process_time()
                outcome = await host.turns.act(
                    game_id=game_id, user_id=user, action=choice.action, version=controls.version
                )
                await outbox.flush_outcome(outcome)
                spent += time.process_time() - began
                played += 1
    finally:
        await store.close()
    return spent / played


async def open_game(host: GameHost, slug: str, users: list[int]) -> int:
    opened = await host.lobby.new_game(
        guild_id=GUILD_ID, channel_id=CHANNEL_ID, user_id=users[0], user_name="player1",
        slug=slug, players=len(users),
    )  # fmt: skip
    game_id = next(n.game_id for n in opened.notices if isinstance(n, ChannelPost))
    await host.lobby.join(game_id=game_id, user_id=users[1], user_name="player2")
    await host.lobby.start(game_id=game_id, user_id=users[0])
    return game_id


async def run(slugs: list[str], *, actions: int, seed: int, rounds: int = 3) -> dict[Locale, float]:
    """Mean CPU per action (seconds) for each locale, over every game and round. A first
    round, not counted, warms what every language shares (the renderers, the catalogs); the
    languages then take turns, each round in another order."""
    spent: dict[Locale, list[float]] = {locale: [] for locale in LOCALES}
    with tempfile.TemporaryDirectory(prefix="dragon-languages-") as name:
        for round_ in range(rounds + 1):
            folder = Path(name) / f"round{round_}"
            folder.mkdir()
            order = LOCALES[round_ % len(LOCALES) :] + LOCALES[: round_ % len(LOCALES)]
            for slug in slugs:
                for locale in order:
                    cost = await play(slug, locale, actions, seed, folder)
                    if round_:
                        spent[locale].append(cost)
    return {locale: sum(values) / len(values) for locale, values in spent.items()}


def report(figures: dict[Locale, float]) -> None:
    english = figures["en"]
    print("An action's CPU by the server's language (same games, languages taking turns):")
    for locale, seconds in figures.items():
        print(
            f"  {locale:<6} {seconds * 1000:7.2f} ms per action  {seconds / english:5.3f}x English"
        )
    worst = max(seconds / english for locale, seconds in figures.items() if locale != "en")
    verdict = "met" if worst <= AIM else "missed"
    print(f"  aim: at most {AIM:.2f}x English: {verdict} ({worst:.3f}x)")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench languages", description=__doc__)
    parser.add_argument("--actions", type=int, default=60, help="actions per game and round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    figures = asyncio.run(
        run(list(ENGINES), actions=args.actions, seed=args.seed, rounds=args.rounds)
    )
    report(figures)


if __name__ == "__main__":
    main()
