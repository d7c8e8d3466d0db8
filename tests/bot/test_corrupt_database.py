"""A database file that is not a database (damaged, or something else entirely) stops the
bot and the local table with one line naming the file and what to do, and is left as it was."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from bot.store.sqlite import DamagedDatabase, SqliteStore

ROOT = Path(__file__).parents[2]


def random_bytes_file(tmp_path: Path) -> Path:
    path = tmp_path / "data" / "games.sqlite3"
    path.parent.mkdir()
    path.write_bytes(random.Random(24).randbytes(8192))
    return path


def files_of(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


def run_bot(args: list[str], tmp_path: Path, **env: str) -> subprocess.CompletedProcess:
    environment = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN",)}
    environment.update(PYTHONPATH=str(ROOT), **env)
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        cwd=tmp_path, env=environment, capture_output=True, text=True, timeout=60,
        stdin=subprocess.DEVNULL,
    )  # fmt: skip


def assert_stopped_with_one_line(done: subprocess.CompletedProcess, path: Path) -> None:
    assert done.returncode == 2
    assert "Traceback" not in done.stderr + done.stdout
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr
    assert str(path) in lines[0] and "backup" in lines[0]


async def test_opening_a_file_of_random_bytes_is_refused_naming_it_and_leaving_it_alone(
    tmp_path,
):
    path = random_bytes_file(tmp_path)
    before = files_of(path.parent)
    with pytest.raises(DamagedDatabase) as refused:
        await SqliteStore.open(path)
    assert str(path) in str(refused.value) and "backup" in str(refused.value)
    assert files_of(path.parent) == before


def test_the_bot_stops_on_a_file_of_random_bytes_with_one_line_and_writes_nothing(tmp_path):
    path = random_bytes_file(tmp_path)
    before = files_of(path.parent)
    done = run_bot(["run"], tmp_path, DISCORD_TOKEN="abc.def", DATABASE_PATH=str(path))
    assert_stopped_with_one_line(done, path)
    assert files_of(path.parent) == before


def test_the_local_table_stops_on_a_file_of_random_bytes_with_one_line_and_writes_nothing(
    tmp_path,
):
    path = random_bytes_file(tmp_path)
    before = files_of(path.parent)
    done = run_bot(["console", "--db", str(path)], tmp_path)
    assert_stopped_with_one_line(done, path)
    assert files_of(path.parent) == before


def test_recomputing_ratings_stops_on_a_file_of_random_bytes_with_one_line(tmp_path):
    path = random_bytes_file(tmp_path)
    before = files_of(path.parent)
    done = run_bot(["ratings", "--recompute", "--db", str(path)], tmp_path)
    assert_stopped_with_one_line(done, path)
    assert files_of(path.parent) == before
