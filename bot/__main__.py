"""Command line: ``python -m bot [run | console | run-or-console | web | ratings --recompute |
catalog]``."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import signal
import sys
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from bot import logs
from bot.settings import BadSettings, Settings

if TYPE_CHECKING:
    from bot.console.table import LocalTable
    from bot.discord.client import DragonBot
    from i18n import Locale

NO_TOKEN = """No Discord bot token is set, so the bot cannot connect.

Set DISCORD_TOKEN in a .env file next to README.md (copy .env.example) or in the
environment, then start again. README.md, "Connect to Discord", says how to get a token.
To play offline instead: `python -m bot console` (or `make run` with no token)."""

OFFLINE = """No DISCORD_TOKEN set: opening the offline local table.
(To connect to Discord, put DISCORD_TOKEN=... in .env; see README.md.)"""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot", description=__doc__)
    sub = parser.add_subparsers(dest="mode")
    sub.add_parser("run", help="connect to Discord (needs DISCORD_TOKEN)")
    sub.add_parser("run-or-console", help="connect if a token is set, else the local table")
    sub.add_parser(
        "web", help="serve the game pages only, from the bot's database (needs WEB_PORT)"
    )
    console = sub.add_parser("console", help="play offline at the local table")
    console.add_argument("--script", type=Path, help="read player lines from this file")
    console.add_argument(
        "--record", type=Path, help="play back a finished game's record (from /game export)"
    )
    console.add_argument(
        "--seed", type=int, help="make dice and shuffles repeatable (default: a script's `# seed:`)"
    )
    console.add_argument("--out", type=Path, default=Path("out"), help="folder for board pictures")
    console.add_argument(
        "--locale", type=_locale, default="en",
        help="the language the table writes in: en (the default), de, fr, es, pt-BR or en-XA",
    )  # fmt: skip
    console.add_argument(
        "--db",
        help="SQLite file to keep games in (default: $LOCAL_TABLE_DB, else "
        "data/local-table.sqlite3; a script or a record starts from an empty one in memory)",
    )
    rating = sub.add_parser("ratings", help="rate every stored game result again")
    rating.add_argument(
        "--recompute", action="store_true", required=True,
        help="rebuild every rating from the stored results, in the order the games ended",
    )  # fmt: skip
    rating.add_argument("--db", help="the database (default: DATABASE_URL or DATABASE_PATH)")
    sub.add_parser(
        "catalog", help="bring every language's message catalog (i18n/locale) in step with the code"
    )
    args = parser.parse_args(argv)
    if args.mode == "catalog":
        from bot.catalog import write_catalogs

        return write_catalogs()
    from bot.store import NewerDatabase, StoreBusy
    from bot.store.sqlite import DamagedDatabase
    from engines.data import BadDataFile

    try:
        return _start(args)
    except (BadSettings, BadDataFile, NewerDatabase, DamagedDatabase) as error:
        print(error, file=sys.stderr)
        return 2
    except StoreBusy:
        print(
            "The database is held by another program (another copy of the bot?); "
            "stop it or wait, then start again.",
            file=sys.stderr,
        )
        return 2


def _start(args: argparse.Namespace) -> int:
    """Start the mode asked for; settings, data files and the database are checked first,
    so a bad one stops the start with a message naming it."""
    settings = Settings.from_env()
    if args.mode == "console":
        return asyncio.run(
            _console(args.script, args.seed, args.out, args.db, args.record, settings, args.locale)
        )
    if args.mode == "ratings":
        return asyncio.run(_recompute(args.db or settings.database))
    if args.mode == "web":
        return _web(settings)
    if args.mode == "run-or-console" and not settings.token:
        print(OFFLINE)
        return asyncio.run(_console(None, settings.seed, Path("out"), None, settings=settings))
    if not settings.token:
        print(NO_TOKEN, file=sys.stderr)
        return 2
    return _run(settings, settings.token)


def _run(settings: Settings, token: str) -> int:
    import games
    from bot import create_bot

    games.use_overrides(settings.data_overrides)
    asyncio.run(_check_database(settings.database))
    logs.setup(logging.INFO)
    # The process is the bot's alone, so its garbage collections may be kept short.
    asyncio.run(_serve(create_bot(replace(settings, short_collections=True)), token))
    return 0


async def _serve(bot: DragonBot, token: str) -> None:
    """Run ``bot`` until it closes or the process is asked to stop (Ctrl-C, or SIGTERM
    from the host running it): then it stops in order (``DragonBot.close``: no new work,
    sends under way finished or left for the next start, claims released, the store
    closed last), with no traceback."""
    loop = asyncio.get_running_loop()
    closing: list[asyncio.Task[None]] = []

    def stop() -> None:
        if not closing:
            print("Stopping: finishing what is under way…", file=sys.stderr)
            closing.append(asyncio.create_task(bot.close()))

    for signum in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):  # (no signal handlers on Windows)
            loop.add_signal_handler(signum, stop)
    async with bot:
        await bot.start(token)
    if closing:
        await closing[0]


NO_WEB_PORT = """No WEB_PORT is set, so there is nowhere to serve the game pages.

Set WEB_PORT (and WEB_URL, the address players reach them at) in .env or the environment;
README.md, "Game pages on the web", says how."""


def _web(settings: Settings) -> int:
    """Serve the game pages alone, reading the bot's database, until stopped."""
    if settings.web_port is None:
        print(NO_WEB_PORT, file=sys.stderr)
        return 2
    import games

    games.use_overrides(settings.data_overrides)
    asyncio.run(_check_database(settings.database))
    logs.setup(logging.INFO)
    asyncio.run(_serve_pages(settings))
    return 0


async def _serve_pages(settings: Settings) -> None:
    """The pages' server on its own: boards drawn by picture workers, as in the bot."""
    from bot.service.boards.pictures import Pictures
    from bot.service.history.web_pages import POLL_ALONE
    from bot.service.host import GameHost
    from bot.store import open_store
    from bot.web.server import WebServer
    from games import render

    store = await open_store(settings.database)
    pictures = (
        Pictures(settings.render_workers, settings.data_overrides)
        if settings.render_workers
        else None
    )
    host = GameHost(
        store, renderer=render, drawer=pictures.draw if pictures else None,
        web_url=settings.web_url,
    )  # fmt: skip
    if pictures is not None:
        pictures.start()
    host.pages.follows.poll = POLL_ALONE  # no write of the bot's rings here
    server = WebServer(
        host.pages, settings.web_host, settings.web_port or 0, languages=host.languages
    )
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(signum, stop.set)
    await server.start()
    print(f"Serving the game pages on port {server.port} ({settings.web_url}).", file=sys.stderr)
    try:
        await stop.wait()
    finally:
        await server.close()
        await host.close()
        if pictures is not None:
            await pictures.close()


async def _check_database(location: str) -> None:
    """Open (and migrate) the database once before connecting, so a database that cannot
    be used stops the start with a message."""
    from bot.store import open_store

    store = await open_store(location)
    await store.close()


async def _recompute(location: str) -> int:
    """Rate every stored result again (adding those of games that ended before results
    were kept) and say what was done."""
    from bot.service.host import GameHost
    from bot.store import open_store

    store = await open_store(location)
    try:
        done = await GameHost(store).standings.recompute_ratings()
    finally:
        await store.close()
    print(
        f"Rated {done.games} finished game{'s' if done.games != 1 else ''} again, in the "
        f"order they ended ({done.added} of them ended before results were kept and were "
        "added from their final state)."
    )
    if done.unreadable:
        numbers = ", ".join(f"#{n}" for n in done.unreadable)
        print(f"Left unrated, their final state cannot be read: {numbers}.")
    return 0


def _locale(code: str) -> Locale:
    """The language ``--locale`` names, read loosely (``pt_br``, ``de-AT``); an unknown
    one is refused with the choices."""
    import i18n

    found = i18n.normalise(code)
    if found is None:
        choices = ", ".join(i18n.SUPPORTED)
        raise argparse.ArgumentTypeError(f"no language {code!r} here; choose one of {choices}")
    return found


async def _console(
    script: Path | None,
    seed: int | None,
    out: Path,
    db: str | None,
    record: Path | None = None,
    settings: Settings | None = None,
    locale: Locale = "en",
) -> int:
    """The local table, writing in ``locale``: a script played through, a record played
    back, or people typing. A script whose lines were refused exits 1, naming them."""
    from bot.console import places
    from bot.console.script import recorded_seed, refused_report, seed_note
    from bot.console.table import PROMPT, WELCOME, LocalTable

    text = script.read_text(encoding="utf-8") if script is not None else None
    found = None
    if text is not None and seed is None and (found := recorded_seed(text)) is not None:
        seed = found
    database = places.database(db, playing=script is None and record is None)
    places.prepare(database)
    # Pages are served while people play at the table, not for a script or a record.
    web = settings is not None and script is None and record is None
    table = await LocalTable.open(
        seed=seed, database=database, images=out,
        web_port=settings.web_port if web and settings else None,
        web_url=settings.web_url if web and settings else None, locale=locale,
    )  # fmt: skip
    try:
        if found is not None:
            table.say(seed_note(found))
        if record is not None:
            await table.play_record(record)
        elif text is not None:
            refused = await table.run_lines(text.splitlines())
            if refused:
                print(table.write(refused_report(str(script), refused)), file=sys.stderr)
                return 1
        else:
            await table.welcome(database)
            table.say(WELCOME)
            await _interactive(table, places.history(database), table.write(PROMPT))
    finally:
        await table.close()
    return 0


async def _interactive(table: LocalTable, history: Path, prompt: str) -> None:
    """Read lines typed at the table (after ``prompt``) until `quit` or the end of input."""
    from bot.console.editing import LineEditing

    editing = LineEditing(history)
    loop = asyncio.get_running_loop()
    while True:
        try:
            text = await loop.run_in_executor(None, input, prompt)
        except EOFError:
            return
        editing.save()
        if text.strip().lower() in ("quit", "exit"):
            return
        await table.run_line(text)


if __name__ == "__main__":
    sys.exit(main())
