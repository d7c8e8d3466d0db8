"""Game pages on the web with many live games: how soon a page answers, what a replay
step costs, and what following pages live costs the bot's actions.

``python -m bench.pages [--games 1000] [--sample 50] [--followers 50] [--seconds 15]
[--rate 20] [--long 200] [--workers N] [--seed 1]`` (or ``python -m bench pages ...``)

``--games`` running games are opened in a SQLite file as :mod:`bench.cluster` opens them
(the four games in turn). One bot process serves them: a real host drawing boards in
picture processes (as many as the bot would start: one per core, at most four, or
``--workers``), and the pages' web server (:class:`bot.web.server.WebServer`) on its own
event loop, on 127.0.0.1. Every request is made with a real HTTP client
(``aiohttp.ClientSession``, one kept-alive connection, as a browser has); time to first
byte runs from sending the request to its status line and headers arriving.

1. **Time to first byte**: ``--sample`` games, each a few moves in, are asked for in turn:
   the page cold (the first request for that game: its story is walked), the page again
   (warm), its newest board cold (drawn) and again (kept). Median and p95.
2. **A replay step**: one game played ``--long`` random moves (or to its end), its board
   positions asked for one after another, forward (each drawn), then back (the newest the
   host keeps come from memory, older ones are drawn again). Beside them, the CPU of
   walking the game's story once, and of the whole cold page (story, page, HTML), each as
   a ratio to one board draw (of that game, in this process) measured in the same run:
   machines differ twofold in speed, ratios much less.
3. **Actions while pages follow games live**: an open loop of ``--rate`` actions/s for
   ``--seconds`` through ``host.turns.act``, each action's notices sent at once to a fake
   Discord that draws each board they carry (as :mod:`bench.cluster` measures: from the
   action's scheduled time to its notices sent). Half of the actions go to ``--followers``
   games being played (a few moves in already), half to the other games. Run twice, each
   on its own fresh set of played games: with no page followed, and with one page per
   played game followed by a Server-Sent Events reader (in a process of its own, as
   browsers are elsewhere) that loads each new board as the page's script does. Printed
   for both: p50/p95 latency, how late a 10 ms heartbeat of the event loop wakes (p99),
   the bot process's CPU per action, and the ratios; then how soon after a move (stored,
   ``act()`` returned) its followed page received the event, and had its new board.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import json
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench.cluster import GUILD, open_games, percentile

HISTORY = 10
"""Moves played in each sampled or followed game before it is measured."""
COLD_PAGES = 10
"""Times the long game's page is asked for cold, each after one more move."""


def ms(seconds: float) -> str:
    return f"{1000 * seconds:7.1f} ms"


def spread(values: list[float]) -> str:
    """Median and p95 of ``values`` (seconds), in milliseconds."""
    if not values:
        return f"{'-':>10} {'-':>10}"
    return f"{ms(statistics.median(values))} {ms(percentile(values, 95))}"


# -- the bot process ----------------------------------------------------------------------


class Bench:
    """The host, its picture processes and web server, and the games they serve."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.chooser = random.Random(args.seed)

    async def start(self, location: str) -> None:
        import aiohttp

        from bot.service.boards.pictures import Pictures
        from bot.service.host import GameHost
        from bot.settings import default_render_workers
        from bot.store.opening import open_store
        from bot.web.server import WebServer

        self.store = await open_store(location)
        self.workers = self.args.workers or default_render_workers()
        self.pictures = Pictures(self.workers)
        self.host = GameHost(
            self.store, drawer=self.pictures.draw, seeds=random.Random(self.args.seed)
        )
        self.pictures.start()
        await asyncio.gather(*(self.pictures.warmed() for _ in range(self.workers)))
        self.server = WebServer(self.host.pages, "127.0.0.1", 0)
        await self.server.start()
        self.base = f"http://127.0.0.1:{self.server.port}"
        self.session = aiohttp.ClientSession()
        self.sends = 0

        async def send(delivery: Any) -> int:  # a fake Discord: draws each board it is sent
            board = getattr(delivery.notice, "board", None)
            if board is not None:
                await self.host.drawing.draw(board)
            self.sends += 1
            return self.sends

        self.outbox = self.host.new_outbox(send)
        records = await self.store.games(guild_id=GUILD, limit=10**6)
        self.live = sorted(g.id for g in records if g.status == "running")
        self.slugs = {g.id: g.slug for g in records}

    async def close(self) -> None:
        await self.session.close()
        await self.server.close()
        await self.pictures.close()
        await self.store.close()

    async def play(self, game_id: int, moves: int) -> int:
        """Play up to ``moves`` random legal moves (fewer if the game ends); how many."""
        for played in range(moves):
            table = await self.host.desk.table(game_id)
            if table.record.status != "running" or not table.prompts():
                return played
            seat = self.chooser.choice(table.prompts()).seat
            action = self.chooser.choice(table.legal_actions(seat)).action
            await self.host.turns.act(
                game_id=game_id, user_id=player(table, seat), action=action,
                version=table.record.version,
            )  # fmt: skip
        return moves

    async def notices_sent_undrawn(self) -> None:
        """Send what the moves played so far stored, counted, not drawn (as
        :func:`bench.cluster.open_games` does with the openings' notices)."""

        async def sent(delivery: Any) -> int:
            return 1

        outbox = self.host.new_outbox(sent, concurrency=64)
        while await self.store.pending_notices(limit=1):
            await outbox.flush()

    async def token(self, game_id: int) -> str:
        record = await self.store.get_game(game_id)
        assert record is not None and record.page, "every game opened here has a page"
        return record.page

    async def get(self, path: str) -> float:
        """Time to first byte of ``path`` (the body is read, and must be a 200)."""
        began = time.perf_counter()
        async with self.session.get(self.base + path) as response:
            first = time.perf_counter() - began
            await response.read()
            assert response.status == 200, (path, response.status)
        return first


async def first_bytes(bench: Bench, sample: list[int]) -> list[tuple[str, list[float]]]:
    """Part 1: page cold and warm, newest board cold and warm, over ``sample``."""
    rows: dict[str, list[float]] = {
        "page, cold (its story walked)": [],
        "page, warm": [],
        "newest board, cold (drawn)": [],
        "newest board, warm (kept)": [],
    }
    cold_page, warm_page, cold_board, warm_board = rows.values()
    for game_id in sample:
        token = await bench.token(game_id)
        cold_page.append(await bench.get(f"/g/{token}"))
        warm_page.append(await bench.get(f"/g/{token}"))
        page = await bench.host.pages.page(token)  # kept by the requests: no walk
        assert page is not None and page.latest >= 0
        cold_board.append(await bench.get(f"/g/{token}/board/{page.latest}.png"))
        warm_board.append(await bench.get(f"/g/{token}/board/{page.latest}.png"))
    return list(rows.items())


def player(table: Any, seat: int) -> int:
    """The person playing ``seat`` (every seat of the games opened here is a person's)."""
    user = table.record.user_at(seat)
    assert user is not None
    return int(user)


def cpu_of(work: Callable[[], Any], repeats: int = 3) -> float:
    """The least CPU seconds (this process, all its threads) of ``work()`` run ``repeats``
    times."""
    spent = []
    for _ in range(repeats):
        before = time.process_time()
        work()
        spent.append(time.process_time() - before)
    return min(spent)


async def replay_steps(bench: Bench, game_id: int) -> dict[str, Any]:
    """Part 2: a long game's page cold, its positions stepped through, and the CPU of its
    story walked against one board drawn."""
    from bot.service.history.story import walk
    from bot.service.history.web_pages import Pages
    from bot.web import html
    from engines import data as engine_data
    from games import render

    token = await bench.token(game_id)
    await bench.play(game_id, max(0, bench.args.long - COLD_PAGES))
    page_cold = []
    for _ in range(COLD_PAGES):  # each move makes a version whose story is walked anew
        if not await bench.play(game_id, 1):
            break
        await bench.notices_sent_undrawn()
        page_cold.append(await bench.get(f"/g/{token}"))
    if not page_cold:
        page_cold.append(await bench.get(f"/g/{token}"))
    table = await bench.host.desk.table(game_id)
    record, engine = table.record, table.engine
    page = await bench.host.pages.page(token)
    assert page is not None
    positions = range(page.latest + 1)
    forward = [await bench.get(f"/g/{token}/board/{n}.png") for n in positions]
    kept = bench.host.drawing.boards.size
    back = [await bench.get(f"/g/{token}/board/{n}.png") for n in reversed(positions)]

    # CPU, in this process with nothing else running: the story walked (the cold page's
    # work in its thread), the whole cold page (a fresh Pages keeps nothing), one board.
    actions = await bench.store.actions(game_id)
    walking = cpu_of(lambda: walk(engine, record, actions, every_view=True))
    pages = []
    for _ in range(3):
        fresh = Pages(bench.host.desk, bench.host.drawing)
        before = time.process_time()
        made = await fresh.page(token)
        assert made is not None
        html.page_html(made, None)
        pages.append(time.process_time() - before)
    story = walk(engine, record, actions, every_view=True)
    views: list[dict[str, Any]] = [story.start, *(e.view or {} for e in story.entries)]
    shown = views[:: max(1, len(views) // 10)][:10]

    def draw(view: dict[str, Any]) -> Callable[[], bytes]:
        return lambda: render(engine.slug, view)

    with engine_data.corrected(record.data):
        render(engine.slug, views[0])  # the renderer's own caches, once
        draws = [cpu_of(draw(view), repeats=1) for view in shown]
    return {
        "slug": engine.slug,
        "title": table.title,
        "moves": len(actions),
        "status": record.status,
        "positions": len(positions),
        "page_cold": page_cold,
        "forward": forward,
        "back_kept": back[:kept],
        "back_redrawn": back[kept:],
        "kept": kept,
        "walk": walking,
        "page_cpu": min(pages),
        "draw": statistics.median(draws),
    }


async def actions_load(
    bench: Bench, played: list[int], others: list[int], followers: dict[int, str] | None
) -> dict[str, Any]:
    """Part 3: an open loop of actions, half on ``played`` games; with ``followers``
    (game id to page token), a reader process follows each of those pages live."""
    from bot.service.errors import UserError
    from bot.service.tables import Table

    args = bench.args
    seen: dict[int, Table] = {g: await bench.host.desk.table(g) for g in [*played, *others]}
    chooser = random.Random(f"{args.seed}:load")
    latencies: list[float] = []
    moves: list[tuple[int, int, float]] = []  # (game, version after, monotonic when stored)
    lags: list[float] = []
    refused = failed = 0
    in_flight: set[asyncio.Task[None]] = set()
    reader = None
    if followers:
        reader = await start_reader(bench.server.port, list(followers.values()))

    def see_move(game_id: int, table: Table) -> None:
        """The board after this host's move, as the host kept it (read again next time
        if it is gone)."""
        version = table.record.version + 1
        kept = bench.host.desk.states.get(game_id, version)
        if kept is None:
            seen.pop(game_id, None)
            return
        record = dataclasses.replace(table.record, version=version)
        seen[game_id] = Table(record, table.engine, kept[0], kept[1])

    async def one(scheduled: float) -> None:
        nonlocal refused, failed
        pool = played if chooser.random() < 0.5 else others
        for _ in range(5):
            if not pool:
                return
            game_id = chooser.choice(pool)
            table = seen.get(game_id) or await bench.host.desk.table(game_id)
            if table.record.status != "running" or not table.prompts():
                pool.remove(game_id)
                continue
            seat = chooser.choice(table.prompts()).seat
            action = chooser.choice(table.legal_actions(seat)).action
            try:
                outcome = await bench.host.turns.act(
                    game_id=game_id, user_id=player(table, seat), action=action,
                    version=table.record.version,
                )  # fmt: skip
            except UserError:  # another action on this game came first
                refused += 1
                seen.pop(game_id, None)
                return
            except Exception:
                failed += 1
                seen.pop(game_id, None)
                return
            moves.append((game_id, table.record.version + 1, time.monotonic()))
            see_move(game_id, table)
            await bench.outbox.flush_outcome(outcome)
            latencies.append(time.perf_counter() - scheduled)
            return

    beating = True

    async def heartbeat() -> None:
        while beating:
            before = time.perf_counter()
            await asyncio.sleep(0.01)
            lags.append(time.perf_counter() - before - 0.01)

    beat = asyncio.create_task(heartbeat())
    cpu_before = time.process_time()
    started = time.perf_counter()
    offered = int(args.rate * args.seconds)
    for index in range(offered):
        scheduled = started + index / args.rate
        delay = scheduled - time.perf_counter()
        if delay > 0:
            await asyncio.sleep(delay)
        task = asyncio.create_task(one(scheduled))
        in_flight.add(task)
        task.add_done_callback(in_flight.discard)
    if in_flight:
        await asyncio.wait(set(in_flight), timeout=10.0)
    cpu = time.process_time() - cpu_before
    beating = False
    await beat
    report: dict[str, Any] = {
        "latencies": latencies,
        "lag_p99": percentile(lags, 99),
        "cpu": cpu / max(1, len(latencies)),
        "refused": refused,
        "failed": failed,
        "offered": offered,
        "unfinished": len(in_flight),
    }
    if reader is not None and followers:
        await asyncio.sleep(1.5)  # the last moves' events (a poll is at most a second late)
        got = await stop_reader(reader)
        report.update(delays(moves, followers, got))
        report["streams"] = len(followers)
    return report


def delays(
    moves: list[tuple[int, int, float]], followers: dict[int, str], got: dict[str, Any]
) -> dict[str, Any]:
    """For each move on a followed game, how long until its page received an event of
    that version or later, and until that event's newest board had loaded."""
    events: dict[str, list[list[Any]]] = {
        token: got["events"].get(token, []) for token in followers.values()
    }
    to_event: list[float] = []
    to_board: list[float] = []
    missed = 0
    for game_id, version, stored in moves:
        token = followers.get(game_id)
        if token is None:
            continue
        came = next(((t, b) for v, t, b in events[token] if v >= version and t >= stored), None)
        if came is None:
            missed += 1
            continue
        to_event.append(came[0] - stored)
        if came[1] is not None:
            to_board.append(came[1] - stored)
    count = sum(len(e) for e in events.values())
    return {"to_event": to_event, "to_board": to_board, "missed": missed, "events": count}


# -- the page readers (a process of their own) ---------------------------------------------


async def start_reader(port: int, tokens: list[str]) -> asyncio.subprocess.Process:
    command = [sys.executable, "-m", "bench.pages", "--reader", json.dumps([port, tokens])]
    process = await asyncio.create_subprocess_exec(
        *command, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE
    )
    assert process.stdout is not None
    ready = await asyncio.wait_for(process.stdout.readline(), 60)
    if ready.strip() != b"ready":
        raise SystemExit(f"the page readers did not start: {ready!r}")
    return process


async def stop_reader(process: asyncio.subprocess.Process) -> dict[str, Any]:
    out, _ = await process.communicate(b"stop\n")
    if process.returncode != 0:
        raise SystemExit(f"the page readers failed (exit {process.returncode})")
    report: dict[str, Any] = json.loads(out.decode().strip().splitlines()[-1])
    return report


async def reader(port: int, tokens: list[str]) -> dict[str, Any]:
    """Follow each page's events, noting (version, when received, when its newest board
    had loaded) for each; print ``ready`` once every page sent its first event, and stop
    when a line comes in on stdin."""
    import aiohttp

    base = f"http://127.0.0.1:{port}"
    events: dict[str, list[tuple[int, float, float | None]]] = {t: [] for t in tokens}
    first = {t: asyncio.get_running_loop().create_future() for t in tokens}
    errors: list[str] = []

    async def follow(session: aiohttp.ClientSession, token: str) -> None:
        try:
            async with session.get(f"{base}/g/{token}/events") as response:
                assert response.status == 200, response.status
                kind, data = "message", ""
                async for raw in response.content:
                    line = raw.decode().rstrip("\r\n")
                    if line.startswith("event:"):
                        kind = line.partition(":")[2].strip()
                    elif line.startswith("data:"):
                        data = line.partition(":")[2].strip()
                    elif not line and data:
                        received = time.monotonic()
                        if kind == "page":
                            await page(session, token, json.loads(data), received)
                        kind, data = "message", ""
        except Exception as error:  # noted, and the stream counts as dropped
            errors.append(f"{token[:6]}: {error!r}")
            if not first[token].done():
                first[token].set_result(None)

    async def page(
        session: aiohttp.ClientSession, token: str, data: dict[str, Any], received: float
    ) -> None:
        if not first[token].done():
            first[token].set_result(None)
            events[token].append((data["version"], received, None))
            return
        loaded = None
        if data["positions"]:  # the script shows the newest position's board
            async with session.get(base + data["positions"][-1]["src"]) as board:
                await board.read()
            loaded = time.monotonic()
        events[token].append((data["version"], received, loaded))

    connector = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=connector) as session:
        tasks = [asyncio.create_task(follow(session, t)) for t in tokens]
        await asyncio.gather(*first.values())
        print("ready", flush=True)
        await asyncio.to_thread(sys.stdin.readline)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    return {"events": events, "errors": errors}


# -- this process: the setups and the figures ----------------------------------------------


async def run(args: argparse.Namespace) -> None:
    folder = Path(tempfile.mkdtemp(prefix="dragon-pages-"))
    location = str(folder / "games.sqlite3")
    opened = await open_games(location, args.games, args.seed)
    bench = Bench(args)
    await bench.start(location)
    try:
        await measure(bench, opened)
    finally:
        await bench.close()


async def measure(bench: Bench, opened: float) -> None:
    args = bench.args
    live = list(bench.live)
    bench.chooser.shuffle(live)
    sample, live = live[: args.sample], live[args.sample :]
    # The long game: St. George's (played at random, it mostly runs hundreds of moves).
    long_game = next((g for g in live if bench.slugs[g] == "stgeorge"), live[0])
    live.remove(long_game)
    groups = [live[: args.followers], live[args.followers : 2 * args.followers]]
    others = live[2 * args.followers :]
    began = time.perf_counter()
    for game_id in [*sample, *groups[0], *groups[1]]:
        await bench.play(game_id, HISTORY)
    await bench.notices_sent_undrawn()
    print(
        f"Game pages: {args.games} live games on SQLite (opened in {opened:.1f} s; "
        f"{HISTORY} moves played in {len(sample) + 2 * args.followers} of them in "
        f"{time.perf_counter() - began:.1f} s), boards drawn by {bench.workers} picture "
        f"processes; HTTP from aiohttp on 127.0.0.1, one kept-alive connection"
    )
    head = f"{'':<50} {'p50':>10} {'p95':>10}"

    # One page and board of another game first: what a process does once (imports, the
    # first thread) is not any sampled game's.
    await first_bytes(bench, others[:1])
    rows = await first_bytes(bench, sample)
    print(f"1. Time to first byte, {len(sample)} games {HISTORY} moves in")
    print(head)
    for name, values in rows:
        print(f"   {name:<47} {spread(values)}")

    long = await replay_steps(bench, long_game)
    ended = "" if long["status"] == "running" else f", {long['status']}"
    print(
        f"2. Replay of one game: {long['title']}, {long['moves']} moves{ended} "
        f"({long['positions']} positions)"
    )
    print(head)
    # The first is walked from the start; each later one walks on from where it stopped.
    cold = f"page after a move (TTFB; {len(long['page_cold'])}, one each)"
    print(f"   {cold:<47} {spread(long['page_cold'])}")
    print(f"   {'next board forward, cold (drawn)':<47} {spread(long['forward'])}")
    kept = f"back, warm (the newest {long['kept']} kept)"
    print(f"   {kept:<47} {spread(long['back_kept'])}")
    if long["back_redrawn"]:
        print(f"   {'back past those (drawn again)':<47} {spread(long['back_redrawn'])}")
    draw = long["draw"]
    print(
        f"   CPU: one board drawn {ms(draw).strip()}; its story walked once "
        f"{ms(long['walk']).strip()} = {long['walk'] / draw:.1f} draws; the whole cold page "
        f"(story, page, HTML) {ms(long['page_cpu']).strip()} = "
        f"{long['page_cpu'] / draw:.1f} draws"
    )

    alone = await actions_load(bench, groups[0], others, None)
    tokens = {g: await bench.token(g) for g in groups[1]}
    followed = await actions_load(bench, groups[1], others, tokens)
    print(
        f"3. Actions: {args.rate:g}/s offered for {args.seconds:g} s, half on "
        f"{args.followers} games being played (fresh ones each run), half on the others"
    )
    print(f"{'':<50} {'p50':>10} {'p95':>10} {'loop p99':>10} {'CPU/act':>10}")
    for name, report in (
        ("no page followed", alone),
        (f"{args.followers} pages followed", followed),
    ):
        print(
            f"   {name:<47} {spread(report['latencies'])} {ms(report['lag_p99'])} "
            f"{ms(report['cpu'])}   ({len(report['latencies'])} done, "
            f"{report['refused']} refused as stale, {report['failed']} failed, "
            f"{report['unfinished']} unfinished)"
        )
    ratios = [
        statistics.median(followed["latencies"]) / statistics.median(alone["latencies"]),
        percentile(followed["latencies"], 95) / percentile(alone["latencies"], 95),
        followed["lag_p99"] / alone["lag_p99"],
        followed["cpu"] / alone["cpu"],
    ]
    print(f"   {'ratio, followed / none':<47} " + " ".join(f"{r:9.2f}x" for r in ratios))
    print(head)
    print(f"   {'move stored -> its page got the event':<47} {spread(followed['to_event'])}")
    print(f"   {'move stored -> that page had its new board':<47} {spread(followed['to_board'])}")
    print(
        f"   ({followed['events']} events on {followed['streams']} streams; "
        f"{len(followed['to_event'])} moves on followed games, {followed['missed']} never seen)"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m bench.pages", description=(__doc__ or "").splitlines()[0]
    )
    parser.add_argument("--games", type=int, default=1000, help="live games (%(default)s)")
    parser.add_argument("--sample", type=int, default=50, help="games timed (%(default)s)")
    parser.add_argument(
        "--followers", type=int, default=50, help="pages followed live (%(default)s)"
    )
    parser.add_argument(
        "--seconds", type=float, default=15.0, help="each action load (%(default)s)"
    )
    parser.add_argument("--rate", type=float, default=20.0, help="actions/s (%(default)s)")
    parser.add_argument("--long", type=int, default=200, help="long game moves (%(default)s)")
    parser.add_argument("--workers", type=int, default=None, help="picture processes")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--reader", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.reader:
        port, tokens = json.loads(args.reader)
        print(json.dumps(asyncio.run(reader(port, tokens))), flush=True)
        return
    needed = args.sample + 2 * args.followers + 8
    if args.games < needed:
        parser.error(f"--games must be at least {needed} (sample, two sets of followed, more)")
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(run(args))


if __name__ == "__main__":
    main()
