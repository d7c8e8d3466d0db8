"""Several bot processes on one PostgreSQL database: each deadline fires once, each action
applies once, each notice is sent once, and a process killed while it holds claims loses
them within their lease, so the others finish its work.

PostgreSQL only (SQLite is one process's store); without the server this test fails,
saying how to start it, and is never skipped.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

import asyncpg

from bot.service.host import GameHost
from bot.service.notices import ChannelPost
from bot.store.postgres import PostgresStore
from tests.bot.host_process import DEADLINE
from tests.store.conftest import postgres_database

GUILD = 1
ALICE, BOB, CAROL, DAVE = 101, 102, 103, 104
PROCESSES = 3
ROOT = Path(__file__).resolve().parents[2]
HANG_GUARD = 120.0
"""Seconds a wait on the processes may last before the test fails: only a guard against a
hang (three Python processes starting on a busy machine take a while)."""


async def opened(host: GameHost, channel: int, user: int, slug: str = "lions-dragons") -> int:
    outcome = await host.lobby.new_game(
        guild_id=GUILD, channel_id=channel, user_id=user, user_name=f"u{user}", slug=slug,
        players=2,
    )  # fmt: skip
    return next(n.game_id for n in outcome.notices if isinstance(n, ChannelPost))


async def people(host: GameHost, channel: int, first: int, second: int) -> int:
    game = await opened(host, channel, first)
    await host.lobby.join(game_id=game, user_id=second, user_name=f"u{second}")
    await host.lobby.start(game_id=game, user_id=first)
    return game


async def setup(url: str) -> dict:
    """The games the processes share: computer games running, people's games whose
    deadline or reminder is due, and one versioned action each process will submit."""
    store = await PostgresStore.open(url)
    try:
        host = GameHost(store, clock=time.time)
        host.computer_delay = 0.0
        computer_games = []
        for channel in (10, 11):
            game = await opened(host, channel, ALICE)
            await host.lobby.add_computer(game_id=game, user_id=ALICE, level="easy")
            await store.remove_seats(
                game, (await store.get_game(game)).version, user_id=ALICE, now=time.time()
            )
            await host.lobby.add_computer(game_id=game, user_id=ALICE, level="easy")
            computer_games.append(game)
        clicks, skips, reminded = [], [], []
        for channel in (20, 21):
            game = await people(host, channel, BOB, CAROL)
            table = await host.desk.table(game)
            seat = table.prompts()[0].seat
            action = table.engine.legal_actions(table.state, seat)[0].action
            clicks.append([game, table.record.user_at(seat), action, table.record.version])
        for channel in (30, 31):
            game = await people(host, channel, CAROL, DAVE)
            record = await store.get_game(game)
            await store.update_game(
                game, record.version, now=time.time(), deadline=time.time() - 1, remind_at=None
            )
            skips.append(game)
        game = await people(host, 40, DAVE, BOB)
        record = await store.get_game(game)
        await store.update_game(
            game, record.version, now=time.time(), deadline=time.time() + 3600,
            remind_at=time.time() - 1,
        )  # fmt: skip
        reminded.append(game)
        # The computer games start last, so that their first moves are due at once.
        for game in computer_games:
            await host.lobby.start(game_id=game, user_id=ALICE)
        return {"computers": computer_games, "clicks": clicks, "skips": skips,
                "reminded": reminded}  # fmt: skip
    finally:
        await store.close()


def child(url: str, log: Path, tag: str, clicks: list) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "tests.bot.host_process", url, str(log), tag, json.dumps(clicks)],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )


def lines(log: Path) -> list[list[str]]:
    return [line.split() for line in log.read_text().splitlines()] if log.exists() else []


async def until(done, children: dict[str, subprocess.Popen], what: str) -> None:
    """Wait until ``done()``, while every process is alive; fail saying ``what`` did not
    happen if it does not within the hang guard."""
    started = time.monotonic()
    while not done():
        for process in children.values():
            assert process.poll() is None, process.stdout.read().decode()[-3000:]
        assert time.monotonic() - started < HANG_GUARD, what
        await asyncio.sleep(0.01)


async def test_processes_fire_each_deadline_and_send_each_notice_once(tmp_path):
    async with postgres_database() as url:
        games = await setup(url)
        log = tmp_path / "sent.log"
        tags = [f"p{i}" for i in range(PROCESSES)]
        victim = tags[0]
        # The process to be killed starts first, so that it is surely at work (holding
        # claims) when the others start and when it is killed.
        children = {victim: child(url, log, victim, games["clicks"])}
        try:
            await until(
                lambda: sum(1 for w in lines(log) if w[0] == victim and w[1].startswith("dh")) >= 5,
                children,
                "the first process sent nothing",
            )
            for tag in tags[1:]:
                children[tag] = child(url, log, tag, games["clicks"])
            # All of them at work on the same games: the others have submitted their clicks.
            await until(
                lambda: (
                    sum(1 for w in lines(log) if w[0] != victim and w[1:2] == ["click"])
                    >= len(games["clicks"]) * (PROCESSES - 1)
                ),
                children,
                "the other processes did not start work",
            )
            children[victim].send_signal(signal.SIGKILL)
            for tag in tags:
                output = await asyncio.to_thread(
                    children[tag].communicate, timeout=DEADLINE + HANG_GUARD
                )
                if tag != victim:
                    assert children[tag].returncode == 0, output[0].decode()[-3000:]
        finally:
            for process in children.values():
                if process.poll() is None:
                    process.kill()
                    process.wait()
        records = lines(log)
        survivors = [t for t in tags if t != victim]
        assert {w[0] for w in records if w[1:] == ["done"]} == set(survivors)
        assert not [w for w in records if w[0] == victim and w[1:] == ["done"]]
        await check(url, games, records, victim)


async def check(url: str, games: dict, records: list[list[str]], victim: str) -> None:
    conn = await asyncpg.connect(url)
    try:
        actions = defaultdict(list)
        for row in await conn.fetch("SELECT game_id, seq, seat, action FROM actions"):
            actions[row["game_id"]].append((row["seq"], row["seat"], row["action"]))
        # every action applied once: a seq is never logged twice
        for game, logged in actions.items():
            seqs = [seq for seq, _, _ in logged]
            assert len(seqs) == len(set(seqs)), f"game {game}: a version logged twice"
        # the computer games ran to their end (their deadlines fired, taken over too)
        for game in games["computers"]:
            status = await conn.fetchval("SELECT status FROM games WHERE id = $1", game)
            assert status == "finished", f"game {game} is {status}"
            assert len(actions[game]) > 10
        # each double click applied once, at the version it was offered at
        for game, _user, action, version in games["clicks"]:
            applied = [a for a in actions[game] if a[0] == version + 1]
            assert len(applied) == 1 and applied[0][2] == action, actions[game]
            told = [w for w in records if w[1:4] == ["click", str(game), str(version)]]
            oks = [w for w in told if w[4] == "ok"]
            assert len(oks) <= 1, told
            assert len(oks) == 1 or any(w[0] == victim for w in told) or len(told) < PROCESSES
        # each due deadline fired once: one skip per game, and nothing else
        for game in games["skips"]:
            assert [a[2] for a in actions[game]] == ["!skip"], actions[game]
        # the due reminder was taken once: one reminder stored per player asked
        for game in games["reminded"]:
            bodies = await conn.fetch(
                "SELECT body FROM outbox WHERE game_id = $1 AND body LIKE '%Reminder%'", game
            )
            assert len(bodies) == 1, bodies
            assert await conn.fetchval("SELECT remind_at FROM games WHERE id = $1", game) is None
        # every stored notice was sent, none given up on
        unsent = await conn.fetch("SELECT id, lane, failed FROM outbox WHERE sent_at IS NULL")
        assert not unsent, unsent
        stored = await conn.fetchval("SELECT count(*) FROM outbox")
        # each notice sent by one process, except one the killed process sent and had not
        # recorded as sent when it died
        senders = defaultdict(list)
        for w in records:
            if len(w) == 2 and w[1].startswith("dh"):
                senders[w[1]].append(w[0])
        # (a notice a newer one of its lane told for it was sent by that one's send; the one
        # the killed process sent unrecorded may have been folded into a newer one since)
        folded = await conn.fetch("SELECT id, superseded_by FROM outbox WHERE superseded_by > 0")
        both = [n for n in (f"dh{r['id']}" for r in folded) if n in senders]
        assert len(both) <= 1 and all(victim in senders[n] for n in both), both
        assert len(senders) + len(folded) - len(both) == stored
        assert all(f"dh{r['superseded_by']}" in senders for r in folded)
        for nonce, who in senders.items():
            counted = Counter(who)
            assert all(n == 1 for n in counted.values()), (nonce, who)
            if len(who) > 1:
                assert victim in who and len(who) == 2, (nonce, who)
        # the claims left are only the killed process's (lapsed ones)
        owners = {r["claimed_by"] for r in await conn.fetch("SELECT claimed_by FROM games")}
        lane_owners = {r["owner"] for r in await conn.fetch("SELECT owner FROM lanes")}
        assert len(owners - {None}) <= 1 and len(lane_owners) <= 1
    finally:
        await conn.close()
