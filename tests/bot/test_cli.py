"""The command line: no token means a clear message, and `make run`'s fallback table."""

import os
import signal
import socket
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[2]


def run(args, tmp_path, stdin=""):
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    env["PYTHONPATH"] = str(ROOT)
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        cwd=tmp_path,
        env=env,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_without_a_token_the_bot_exits_saying_how_to_set_one(tmp_path):
    done = run([], tmp_path)
    assert done.returncode == 2
    assert "DISCORD_TOKEN" in done.stderr and ".env" in done.stderr


def test_run_or_console_without_a_token_opens_the_local_table(tmp_path):
    lines = "alice: /game new game:stgeorge players:2\nbob: /game join\nalice: /game start\n"
    done = run(["run-or-console"], tmp_path, stdin=lines + "quit\n")
    assert done.returncode == 0
    assert "offline local table" in done.stdout
    assert "St. George and the Dragon #1**: The game begins!" in done.stdout
    assert list((tmp_path / "out").glob("board-*.png"))


def test_a_token_in_dot_env_is_read(tmp_path):
    from bot.settings import Settings

    (tmp_path / ".env").write_text("DISCORD_TOKEN=abc.def\nSYNC_GUILD_ID=42\n")
    saved = {k: os.environ.pop(k) for k in ("DISCORD_TOKEN", "SYNC_GUILD_ID") if k in os.environ}
    try:
        settings = Settings.from_env(str(tmp_path / ".env"))
    finally:
        for key in ("DISCORD_TOKEN", "SYNC_GUILD_ID"):
            os.environ.pop(key, None)
        os.environ.update(saved)
    assert settings.token == "abc.def" and settings.sync_guild == 42


def test_the_procfile_runs_the_bot_itself():
    lines = dict(
        line.split(": ", 1) for line in (ROOT / "Procfile").read_text().splitlines() if line
    )
    assert lines["worker"] == "python -m bot"
    assert lines["web"] == "python -m bot web"  # the game pages, in a process of their own
    cluster = {name: command for name, command in lines.items() if name not in ("worker", "web")}
    assert cluster and all(command.endswith("python -m bot") for command in cluster.values())
    shards = [
        int(shard)
        for command in cluster.values()
        for shard in command.split("SHARD_IDS=")[1].split()[0].split(",")
    ]
    count = {command.split("SHARD_COUNT=")[1].split()[0] for command in cluster.values()}
    assert len(count) == 1 and sorted(shards) == list(range(int(count.pop())))


def test_the_pages_server_needs_a_port(tmp_path):
    done = run(["web"], tmp_path)
    assert done.returncode == 2
    assert "WEB_PORT" in done.stderr and "README" in done.stderr


def test_the_pages_server_serves_the_bot_s_database_until_it_is_stopped(tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "WEB_"))}
    env |= {"PYTHONPATH": str(ROOT), "WEB_PORT": str(_free_port()), "RENDER_WORKERS": "0"}
    env["DATABASE_PATH"] = str(tmp_path / "games.sqlite3")
    server = subprocess.Popen(
        [sys.executable, "-m", "bot", "web"], cwd=tmp_path, env=env,
        stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert server.stderr is not None
        said = [server.stderr.readline() for _ in range(1)]
        while said[-1] and "Serving the game pages on port" not in said[-1]:
            said.append(server.stderr.readline())  # said once it listens
        assert said[-1], f"it stopped without serving: {said}"
        url = f"http://127.0.0.1:{env['WEB_PORT']}/g/{'x' * 24}"
        with pytest.raises(urllib.error.HTTPError) as unknown:
            urllib.request.urlopen(url, timeout=30)
        assert unknown.value.code == 404
    finally:
        server.send_signal(signal.SIGTERM)
        assert server.wait(timeout=60) == 0


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]
