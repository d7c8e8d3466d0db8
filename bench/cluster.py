"""An open-loop load of actions with pictures on, from one or two bot processes.

``python -m bench.cluster [--games 1000] [--rate 100] [--seconds 20] [--workers N]
[--shared] [--only sqlite,postgres,postgres2] [--overload]``

``--games`` live games (seeded, across the four games) are opened first. Then actions are
offered at ``--rate`` per second at fixed times, whether or not earlier ones are done (an
open loop, as players click): each is a version-stamped legal action of a random prompted
seat of a random live game, through the real host. Players choose from the board as they
last saw it (read before the clock runs, then kept up from the host's own moves), so
choosing costs the bot nothing; the action itself reads the game, as a click does. Every
notice goes through the real outbox to a fake Discord sender that draws each board the
notice carries (``host.drawing.draw``, in picture processes) and counts it as sent. The machine's
cores are shared out: each bot process of a setup has ``cores / processes`` picture
processes (at least one), as a deployment of several processes on one machine sets
``RENDER_WORKERS``; ``--workers`` gives every bot process that many instead. An action's
latency runs from the time it was scheduled to ``act()`` returning and its notices sent.

Three setups, each in child processes (a fresh interpreter, as the bot runs), each of which
reports to this process over a pipe:

- SQLite, one process offered the whole rate;
- PostgreSQL, one process;
- PostgreSQL, two processes offered half the rate each, on disjoint halves of the games
  (``--shared``: both on every game), each with its own host, outbox and sender.

``--overload`` (SQLite, one process, direct calls to the host, no frontend): the peak is
measured at ``--rate``, then 1.5x, 2x and 3x that peak is offered, then the peak is measured
again (a shared machine's speed drifts). For each step: actions done per second as a share
of the mean peak, clicks refused as busy (the host's admission), and CPU per finished
action. Aim: done stays at 90% of the peak or more however much is offered.

Printed for each: actions completed per second, p50/p95 latency, how late a 10 ms heartbeat
of the event loop wakes up (p99, the worst process), CPU per completed action (the bot
processes' and their picture workers'), and what was left undone when the time was up.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import json
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

from games import SPECS

SLUGS = tuple(SPECS)
GUILD = 1
POSTGRES_SERVER = os.environ.get("DRAGON_BENCH_POSTGRES", "postgresql://postgres@127.0.0.1:5432")
GRACE = 5.0
"""Seconds the actions still in flight when the offered time ends may take to finish."""

AIMS = (
    "aims: 100 actions/s sustained with p95 <= 250 ms; event loop late by (p99) <= 20 ms; "
    "CPU per action with pictures <= 7 ms"
)
BASELINE = (
    "baseline (SQLite, one process, pictures, measured before): 63-76 actions/s at most, "
    "CPU 14.5 ms per action, p95 880-1,399 ms with 64 clicks in flight; offered 100 "
    "actions/s, only 25-36/s completed, with a backlog of 844"
)


# -- opening the games (this process) ---------------------------------------------------


async def open_games(location: str, count: int, seed: int) -> float:
    """Open ``count`` running games in the store at ``location``; the seconds it took."""
    from bot.service.host import GameHost
    from bot.store.opening import open_store

    started = time.perf_counter()
    store = await open_store(location)
    host = GameHost(store, seeds=random.Random(seed))
    try:
        for index in range(count):
            slug = SLUGS[index % len(SLUGS)]
            players = 3 if slug == "dragons-cave" else 2
            user = 10 * (index + 1)
            opened = await host.lobby.new_game(
                guild_id=GUILD, channel_id=100_000 + index, user_id=user, user_name=f"p{user}",
                slug=slug, players=players,
            )  # fmt: skip
            game_id = opened.outgoing[0].game_id
            for guest in range(1, players):
                await host.lobby.join(
                    game_id=game_id, user_id=user + guest, user_name=f"p{user + guest}"
                )
            await host.lobby.start(game_id=game_id, user_id=user)

        async def sent(delivery) -> int:  # the openings' notices count as sent, undrawn
            return 1

        outbox = host.new_outbox(sent, concurrency=64)
        while await store.pending_notices(limit=1):  # a flush reads a few hundred at a time
            await outbox.flush()
    finally:
        await store.close()
    return time.perf_counter() - started


# -- one bot process under load (a child) ------------------------------------------------


def worker_cpu(pids: list[int]) -> float:
    """CPU seconds used so far by the processes ``pids`` (Linux ``/proc``)."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for pid in pids:
        with contextlib.suppress(OSError):
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / tick
    return total


async def child(options: dict) -> dict:
    from bot.service.errors import UserError
    from bot.service.host import GameHost

    try:
        from bot.service.admission import Busy
    except ImportError:  # older code: no admission, nothing is refused as busy

        class Busy(Exception):  # type: ignore[no-redef]
            pass

    from bot.service.boards.pictures import Pictures
    from bot.service.tables import Table
    from bot.store.opening import open_store

    store = await open_store(options["location"])
    pictures = Pictures(options["workers"])
    host = GameHost(store, drawer=pictures.draw, seeds=random.Random(options["seed"]))
    sends = 0

    drawing: list[float] = []  # seconds each board took to draw, waiting for a worker included

    async def send(delivery) -> int:
        nonlocal sends
        board = getattr(delivery.notice, "board", None)
        if board is not None:
            began = time.perf_counter()
            await host.drawing.draw(board)
            drawing.append(time.perf_counter() - began)
        sends += 1
        return sends

    outbox = host.new_outbox(send)
    records = sorted(
        (g for g in await store.games(guild_id=GUILD, limit=10**6) if g.status == "running"),
        key=lambda g: g.id,
    )
    part, parts = options["part"]
    live = [g.id for g in records][part::parts]
    # Start the picture workers (a fresh interpreter each) before the clock runs: every
    # worker draws each game's board once.
    warm = [await host.desk.table(game_id) for game_id in live[: len(SLUGS)]]
    await asyncio.gather(
        *(
            pictures.draw(t.engine.slug, t.engine.view(t.state, None))
            for t in warm * 2 * options["workers"]
        )
    )
    pids = pictures.pids
    # What each player sees: the board as it was last played, read before the clock runs
    # and then kept up from this host's own moves. Players choose on their own devices,
    # so choosing reads nothing from the store (only the action itself does, in act()).
    seen: dict[int, Table] = {game_id: await host.desk.table(game_id) for game_id in live}

    def see_move(game_id: int, table: Table) -> None:
        """The board after this host's move at ``table``, as the host kept it (read again
        next time if the host went further, a departed player's forfeit say)."""
        version = table.record.version + 1
        kept = host.desk.states.get(game_id, version)
        if kept is None:
            seen.pop(game_id, None)
            return
        record = dataclasses.replace(table.record, version=version)
        seen[game_id] = Table(record, table.engine, kept[0], kept[1])

    chooser = random.Random(f"{options['seed']}:{options['index']}")
    rate, seconds = options["rate"], options["seconds"]
    latencies: list[float] = []
    acting: list[float] = []  # act() alone
    sending: list[float] = []  # sending the action's notices alone
    completions: list[float] = []  # seconds after the start when each action was done
    lags: list[float] = []
    refused = 0
    busy = 0
    failed = 0
    in_flight: set[asyncio.Task] = set()

    async def one(scheduled: float) -> None:
        nonlocal refused, busy, failed
        for _ in range(5):
            if not live:
                return
            game_id = chooser.choice(live)
            table = seen.get(game_id) or await host.desk.table(game_id)
            if table.record.status != "running" or not table.prompts():
                with contextlib.suppress(ValueError):
                    live.remove(game_id)
                continue
            seat = chooser.choice(table.prompts()).seat
            user = table.record.user_at(seat)
            action = chooser.choice(table.legal_actions(seat)).action
            began = time.perf_counter()
            try:
                outcome = await host.turns.act(
                    game_id=game_id, user_id=user, action=action, version=table.record.version
                )
            except Busy:  # the host is full: the player is told to try again
                busy += 1
                return
            except UserError:  # another action on this game came first
                refused += 1
                seen.pop(game_id, None)
                return
            except Exception:
                failed += 1
                seen.pop(game_id, None)
                return
            see_move(game_id, table)
            acted = time.perf_counter()
            await outbox.flush_outcome(outcome)
            finished = time.perf_counter()
            acting.append(acted - began)
            sending.append(finished - acted)
            latencies.append(finished - scheduled)
            completions.append(finished - started)
            return

    stop_beating = False

    async def heartbeat() -> None:
        while not stop_beating:
            before = time.perf_counter()
            await asyncio.sleep(0.01)
            lags.append(time.perf_counter() - before - 0.01)

    # Both processes of a setup begin at the same moment.
    await asyncio.sleep(max(0.0, options["start_at"] - time.time()))
    beat = asyncio.create_task(heartbeat())
    own_before, workers_before = time.process_time(), worker_cpu(pids)
    started = time.perf_counter()
    offered = int(rate * seconds)
    for index in range(offered):
        scheduled = started + index / rate
        delay = scheduled - time.perf_counter()
        if delay > 0:
            await asyncio.sleep(delay)
        task = asyncio.create_task(one(scheduled))
        in_flight.add(task)
        task.add_done_callback(in_flight.discard)
    offered_for = time.perf_counter() - started
    backlog_at_end = len(in_flight)
    if in_flight:
        await asyncio.wait(set(in_flight), timeout=GRACE)
    elapsed = time.perf_counter() - started
    unfinished = len(in_flight)
    for task in list(in_flight):
        task.cancel()
    with contextlib.suppress(Exception):
        await asyncio.gather(*in_flight, return_exceptions=True)
    own = time.process_time() - own_before
    workers_cpu = worker_cpu(pids) - workers_before
    stop_beating = True
    await beat
    await pictures.close()
    await store.close()
    return {
        "offered": offered,
        "offered_for": offered_for,
        "elapsed": elapsed,
        "latencies": latencies,
        "acting": acting,
        "sending": sending,
        "drawing": drawing,
        "in_window": sum(1 for t in completions if t <= offered_for),
        "lag_p99": percentile(lags, 99),
        "cpu": own + workers_cpu,
        "cpu_bot": own,
        "cpu_workers": workers_cpu,
        "refused": refused,
        "busy": busy,
        "failed": failed,
        "backlog_at_end": backlog_at_end,
        "unfinished": unfinished,
        "sends": sends,
        "live": len(live),
    }


def percentile(values: list[float], p: int) -> float:
    if len(values) < 2:
        return values[0] if values else float("nan")
    return statistics.quantiles(values, n=100)[p - 1]


# -- this process: the setups and the figures --------------------------------------------


def workers_per_process(args: argparse.Namespace, processes: int) -> int:
    """Picture processes for each of ``processes`` bot processes: ``--workers``, else the
    machine's cores shared out among them (at least one each)."""
    if args.workers is not None:
        return args.workers
    return max(1, (os.cpu_count() or 1) // processes)


async def run_setup(location: str, processes: int, args: argparse.Namespace) -> dict:
    start_at = time.time() + 4.0  # time for the children to import and start their workers
    children = []
    for part in range(processes):
        options = {
            "location": location,
            "workers": workers_per_process(args, processes),
            "seed": args.seed,
            "part": [0, 1] if args.shared else [part, processes],
            "index": part,
            "rate": args.rate / processes,
            "seconds": args.seconds,
            "start_at": start_at,
        }
        command = [sys.executable, "-m", "bench.cluster", "--child", json.dumps(options)]
        children.append(
            await asyncio.create_subprocess_exec(*command, stdout=asyncio.subprocess.PIPE)
        )
    reports = []
    for process in children:
        out, _ = await process.communicate()
        if process.returncode != 0:
            raise SystemExit(f"a bot process failed (exit {process.returncode})")
        reports.append(json.loads(out.decode().strip().splitlines()[-1]))
    latencies = [x for r in reports for x in r["latencies"]]
    done = len(latencies)
    window = max(r["elapsed"] for r in reports)
    return {
        "offered": sum(r["offered"] for r in reports),
        "offered_rate": sum(r["offered"] / r["offered_for"] for r in reports),
        "per_s": sum(r["in_window"] for r in reports) / max(r["offered_for"] for r in reports),
        "p50": 1000 * statistics.median(latencies) if latencies else float("nan"),
        "p95": 1000 * percentile(latencies, 95),
        "lag_p99": 1000 * max(r["lag_p99"] for r in reports),
        "cpu_ms": 1000 * sum(r["cpu"] for r in reports) / max(1, done),
        "done": done,
        "bot_ms": 1000 * sum(r["cpu_bot"] for r in reports) / max(1, done),
        "workers_ms": 1000 * sum(r["cpu_workers"] for r in reports) / max(1, done),
        "draws": sum(len(r["drawing"]) for r in reports),
        "draw_p50": 1000 * statistics.median([x for r in reports for x in r["drawing"]] or [0]),
        "act_p50": 1000 * statistics.median([x for r in reports for x in r["acting"]] or [0]),
        "send_p50": 1000 * statistics.median([x for r in reports for x in r["sending"]] or [0]),
        "refused": sum(r["refused"] for r in reports),
        "busy": sum(r["busy"] for r in reports),
        "failed": sum(r["failed"] for r in reports),
        "backlog": sum(r["backlog_at_end"] for r in reports),
        "unfinished": sum(r["unfinished"] for r in reports),
        "sends": sum(r["sends"] for r in reports),
        "window": window,
    }


def line(name: str, f: dict) -> str:
    return (
        f"  {name:<28} {f['per_s']:6.1f} actions/s done of {f['offered_rate']:5.1f} offered"
        f"   p50 {f['p50']:6.0f} ms   p95 {f['p95']:6.0f} ms   loop late (p99) "
        f"{f['lag_p99']:5.1f} ms   CPU {f['cpu_ms']:5.1f} ms/action\n"
        f"  {'':<28} {f['done']} done of {f['offered']} offered in {f['window']:.1f} s,"
        f" {f['refused']} refused as stale, {f['busy']} as busy, {f['failed']} failed;"
        f" in flight when the offer ended {f['backlog']},"
        f" unfinished after {GRACE:g} s more {f['unfinished']};"
        f" {f['sends']} notices sent, {f['draws']} boards drawn (p50 {f['draw_p50']:.0f} ms"
        f" each, waiting for a worker included); p50 of act() alone {f['act_p50']:.0f} ms,"
        f" of sending its notices alone {f['send_p50']:.0f} ms; CPU per action in the bot"
        f" process {f['bot_ms']:.1f} ms, in its picture workers {f['workers_ms']:.1f} ms"
    )


@contextlib.asynccontextmanager
async def postgres_database():
    import asyncpg

    name = f"dragon_bench_{uuid.uuid4().hex}"
    admin = await asyncpg.connect(f"{POSTGRES_SERVER}/postgres")
    try:
        await admin.execute(f'CREATE DATABASE "{name}"')
    finally:
        await admin.close()
    try:
        yield f"{POSTGRES_SERVER}/{name}"
    finally:
        admin = await asyncpg.connect(f"{POSTGRES_SERVER}/postgres")
        try:
            await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        finally:
            await admin.close()


async def main_async(args: argparse.Namespace) -> None:
    print(
        f"Open loop: {args.rate:g} actions/s offered for {args.seconds:g} s over {args.games}"
        f" live games, pictures on ({_workers_said(args)})"
    )
    if args.overload:
        await overload(args)
        return
    print(" ", AIMS)
    print(" ", BASELINE)
    if "sqlite" in args.only:
        folder = Path(tempfile.mkdtemp(prefix="dragon-cluster-"))
        location = str(folder / "games.sqlite3")
        took = await open_games(location, args.games, args.seed)
        print(f"  (SQLite: {args.games} games opened in {took:.1f} s)")
        print(line("SQLite, one process", await run_setup(location, 1, args)))
    # Each PostgreSQL setup plays the same freshly opened games (as SQLite's does), so the
    # three are offered the same positions, not games another setup already moved on.
    if "postgres" in args.only:
        async with postgres_database() as url:
            took = await open_games(url, args.games, args.seed)
            print(f"  (PostgreSQL: {args.games} games opened in {took:.1f} s)")
            print(line("PostgreSQL, one process", await run_setup(url, 1, args)))
    if "postgres2" in args.only:
        async with postgres_database() as url:
            await open_games(url, args.games, args.seed)
            how = "shared" if args.shared else "disjoint"
            print(line(f"PostgreSQL, two ({how})", await run_setup(url, 2, args)))


OVERLOADS = (1.5, 2.0, 3.0)
"""Offers past capacity, as multiples of the measured peak."""
HELD = 0.9
"""Aim: done per second at every overload, as a share of the peak."""


async def overload(args: argparse.Namespace) -> None:
    """Offer 1.5x, 2x and 3x the measured peak to one SQLite bot process, each step on a
    fresh copy of the same opened games; print done per second as a share of the peak."""
    folder = Path(tempfile.mkdtemp(prefix="dragon-overload-"))
    opened = folder / "opened.sqlite3"
    took = await open_games(str(opened), args.games, args.seed)
    print(f"  (SQLite: {args.games} games opened in {took:.1f} s; each step on a fresh copy)")

    async def step(rate: float) -> dict:
        location = folder / "step.sqlite3"
        for suffix in ("", "-wal", "-shm"):
            target = Path(f"{location}{suffix}")
            target.unlink(missing_ok=True)
            if Path(f"{opened}{suffix}").exists():
                shutil.copyfile(f"{opened}{suffix}", target)
        return await run_setup(str(location), 1, argparse.Namespace(**{**vars(args), "rate": rate}))

    first = await step(args.rate)
    steps = [("peak", first)]
    for factor in OVERLOADS:
        steps.append((f"{factor:g}x peak", await step(factor * first["per_s"])))
    last = await step(args.rate)
    steps.append(("peak again", last))
    peak = (first["per_s"] + last["per_s"]) / 2
    print(f"  peak (mean of the first and last step): {peak:.1f} actions/s done")
    for name, f in steps:
        print(overload_line(name, f, peak))
    worst = min(f["per_s"] for name, f in steps if name.endswith("x peak")) / peak
    verdict = "met" if worst >= HELD else "missed"
    print(f"  aim: done >= {HELD:.0%} of the peak at every overload: {verdict} ({worst:.0%})")


def overload_line(name: str, f: dict, peak: float) -> str:
    return (
        f"  {name:<12} offered {f['offered_rate']:6.1f}/s  done {f['per_s']:6.1f}/s"
        f" ({f['per_s'] / peak:4.0%} of peak)  busy {f['busy']:5d}  stale {f['refused']:4d}"
        f"  failed {f['failed']:3d}  CPU {f['cpu_ms']:7.1f} ms/done  p50 {f['p50']:6.0f} ms"
        f"  p95 {f['p95']:6.0f} ms  (act p50 {f['act_p50']:.0f} ms, sending p50"
        f" {f['send_p50']:.0f} ms)  unfinished {f['unfinished']}"
    )


def _workers_said(args: argparse.Namespace) -> str:
    if args.workers is not None:
        return f"{args.workers} picture processes per bot process"
    one, two = workers_per_process(args, 1), workers_per_process(args, 2)
    return f"{one} picture processes for one bot process, {two} each for two"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--rate", type=float, default=100.0)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--shared", action="store_true", help="two processes on every game")
    parser.add_argument("--only", default="sqlite,postgres,postgres2")
    parser.add_argument(
        "--overload", action="store_true", help="SQLite: 1.5x, 2x and 3x the peak, direct calls"
    )
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        report = asyncio.run(child(json.loads(args.child)))
        print(json.dumps(report))
        return
    args.only = [word.strip() for word in args.only.split(",") if word.strip()]
    asyncio.run(main_async(args))


if __name__ == "__main__":
    main()
