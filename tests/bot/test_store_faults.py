"""The store's faults: a database from a newer release, and a database held by another writer."""

from __future__ import annotations

import contextlib
import io
import os
import random
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from bot.console.table import LocalTable
from bot.service.host import GameHost
from bot.store import NewerDatabase, StoreBusy
from bot.store.migrations import MIGRATIONS
from bot.store.sqlite import SqliteStore
from games import render

ROOT = Path(__file__).parents[2]
BUSY = "The game store is busy right now; please try again in a moment."


async def newer_database(tmp_path: Path) -> Path:
    path = tmp_path / "games.sqlite3"
    store = await SqliteStore.open(path)
    await store.close()
    with contextlib.closing(sqlite3.connect(path)) as db:
        db.execute(f"PRAGMA user_version = {len(MIGRATIONS) + 3}")
        db.commit()
    return path


def files_of(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


async def test_a_database_from_a_newer_release_is_refused_before_anything_is_written(tmp_path):
    path = await newer_database(tmp_path)
    before = files_of(tmp_path)
    with pytest.raises(NewerDatabase) as refused:
        await SqliteStore.open(path)
    text = str(refused.value)
    assert str(path) in text and "newer release" in text
    assert f"version is {len(MIGRATIONS) + 3}" in text and f"up to {len(MIGRATIONS)}" in text
    assert files_of(tmp_path)[path.name] == before[path.name]
    with contextlib.closing(sqlite3.connect(path)) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS) + 3


def run_bot(args: list[str], tmp_path: Path, **env: str) -> subprocess.CompletedProcess:
    environment = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN",)}
    environment.update(PYTHONPATH=str(ROOT), **env)
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        cwd=tmp_path, env=environment, capture_output=True, text=True, timeout=60,
    )  # fmt: skip


async def test_python_m_bot_says_the_database_is_newer_and_exits(tmp_path):
    path = await newer_database(tmp_path)
    done = run_bot(["run"], tmp_path, DISCORD_TOKEN="abc.def", DATABASE_PATH=str(path))
    assert done.returncode != 0
    assert "newer release" in done.stderr and str(path) in done.stderr
    assert "Traceback" not in done.stderr + done.stdout
    done = run_bot(["console", "--db", str(path)], tmp_path)
    assert done.returncode != 0
    assert "newer release" in done.stderr and "Traceback" not in done.stderr


@contextlib.contextmanager
def held_by_another_writer(path: Path):
    """Another connection holding the database's write lock."""
    other = sqlite3.connect(path, isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")
        other.execute("UPDATE games SET updated_at = updated_at")
        yield other
    finally:
        other.execute("ROLLBACK")
        other.close()


async def started_table(tmp_path: Path) -> tuple[LocalTable, io.StringIO, Path]:
    path = tmp_path / "games.sqlite3"
    store = await SqliteStore.open(path, busy_timeout=0.1)
    host = GameHost(store, renderer=render, seeds=random.Random(5))
    out = io.StringIO()
    table = LocalTable(host, out)
    lines = ["alice: /game new game:stgeorge players:2 role:knights", "bob: /game join",
             "alice: /game start"]  # fmt: skip
    await table.run_lines(lines, echo=False)
    assert "The game begins!" in out.getvalue()
    return table, out, path


async def test_a_write_held_up_by_another_writer_is_store_busy_and_writes_nothing(tmp_path):
    table, _, path = await started_table(tmp_path)
    try:
        before = await table.host.store.get_game(1)
        logged = len(await table.host.store.actions(1))
        with held_by_another_writer(path), pytest.raises(StoreBusy):
            await table.host.turns.act(game_id=1, user_id=table.user("alice"), action="roll")
        after = await table.host.store.get_game(1)
        assert after.version == before.version and after.snapshot == before.snapshot
        assert len(await table.host.store.actions(1)) == logged
        # Once the other writer is done, the same move goes through.
        await table.host.turns.act(game_id=1, user_id=table.user("alice"), action="roll")
        assert (await table.host.store.get_game(1)).version == before.version + 1
    finally:
        await table.close()


async def test_the_local_table_answers_a_busy_store_kindly(tmp_path):
    table, out, path = await started_table(tmp_path)
    try:
        seen = len(out.getvalue())
        with held_by_another_writer(path):
            await table.run_line("alice: roll")
        said = out.getvalue()[seen:]
        assert f"[to alice] ⏳ {BUSY}" in said
        assert "rolled" not in said and "Traceback" not in said
        await table.run_line("alice: roll")
        assert "rolled" in out.getvalue()[seen:]
    finally:
        await table.close()
