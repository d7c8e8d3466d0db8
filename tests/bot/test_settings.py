"""Settings are checked at start-up: a bad one stops the bot with a message naming it and
saying what it must be, never a traceback."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from bot.settings import BadSettings, Settings, default_render_workers

ROOT = Path(__file__).parents[2]
NAMES = re.findall(r"^([A-Z_]+)=", (ROOT / ".env.example").read_text(), re.MULTILINE)


@pytest.fixture
def env(monkeypatch):
    for name in NAMES:
        monkeypatch.delenv(name, raising=False)

    def read(**values: str) -> Settings:
        for name, value in values.items():
            monkeypatch.setenv(name, value)
        return Settings.from_env(env_file=None)

    return read


BAD = {
    "DISCORD_TOKEN": ("abc def", "bot token"),
    "DATABASE_PATH": (".", "not a folder"),
    "DATABASE_URL": ("mysql://db", "a PostgreSQL URL"),
    "SYNC_GUILD_ID": ("abc", "a server id, a whole number"),
    "DATA_OVERRIDES": ("no/such/folder", "an existing folder"),
    "MEMBERS_INTENT": ("maybe", "1 (on) or 0 (off)"),
    "GAME_SEED": ("1.5", "a whole number"),
    "COMPUTER_DELAY": ("inf", "a number of seconds from 0 to 60"),
    "RENDER_WORKERS": ("many", "a whole number from 0"),
    "SHARD_COUNT": ("0", "a whole number of shards from 1"),
    "SHARD_IDS": ("0,1", "set together with SHARD_COUNT"),
    "WEB_PORT": ("80a", "a port number from 1 to 65535"),
    "WEB_HOST": ("http://0.0.0.0", "an address of this machine to listen on"),
    "WEB_URL": ("dragons.example.org", "the address players reach the pages at"),
}


def test_every_setting_of_the_example_file_is_checked():
    assert NAMES and sorted(NAMES) == sorted(BAD)


@pytest.mark.parametrize("name", sorted(BAD))
def test_a_bad_setting_is_named_with_what_it_must_be(env, name):
    value, must = BAD[name]
    with pytest.raises(BadSettings) as refused:
        env(**{name: value})
    text = str(refused.value)
    assert f"{name} must be" in text and must in text, text
    if name in ("DISCORD_TOKEN", "DATABASE_URL"):
        assert value not in text, "a token or a URL (it may hold a password) is never repeated"
    else:
        assert f"{name}={value!r}" in text
    assert refused.value.problems == [p for p in refused.value.problems if name in p]


@pytest.mark.parametrize(
    ("name", "value"),
    [("SYNC_GUILD_ID", "-5"), ("SYNC_GUILD_ID", "1e5"), ("SYNC_GUILD_ID", "0"),
     ("SYNC_GUILD_ID", str(2**64)), ("GAME_SEED", "seven"), ("COMPUTER_DELAY", "-1"),
     ("COMPUTER_DELAY", "nan"), ("COMPUTER_DELAY", "1e308"), ("COMPUTER_DELAY", "soon"),
     ("DATABASE_PATH", "README.md/games.sqlite3"), ("RENDER_WORKERS", "-1"),
     ("RENDER_WORKERS", "1.5"), ("RENDER_WORKERS", "33"), ("WEB_PORT", "0"),
     ("WEB_PORT", "70000"), ("WEB_URL", "ftp://x.org"), ("WEB_URL", "https://x.org/?a=1"),
     ("WEB_HOST", "a b")],
)  # fmt: skip
def test_more_bad_values_are_refused(env, name, value):
    with pytest.raises(BadSettings, match=name):
        env(**{name: value})


def test_web_pages_are_served_on_the_port_set_and_linked_at_the_url_set(env):
    assert env().web_port is None and env().web_url is None
    local = env(WEB_PORT="8080")
    assert (local.web_port, local.web_host, local.web_url) == (
        8080,
        "127.0.0.1",
        "http://localhost:8080",
    )
    proxied = env(WEB_PORT="8080", WEB_HOST="0.0.0.0", WEB_URL="https://dragons.example.org/")
    assert (proxied.web_host, proxied.web_url) == ("0.0.0.0", "https://dragons.example.org")
    linked_only = env(WEB_PORT="", WEB_HOST="", WEB_URL="https://dragons.example.org")
    assert linked_only.web_port is None and linked_only.web_url == "https://dragons.example.org"


POSTGRES = "postgresql://postgres@127.0.0.1:5432/dragons"


@pytest.mark.parametrize(
    ("value", "must"),
    [("0,0", "each once"), ("4", "each from 0 to 3"), ("0,-1", "each from 0 to 3"),
     ("one", "separated by commas"), ("0,,1", "separated by commas"), ("1.0", "such as 0,1")],
)  # fmt: skip
def test_shard_ids_must_be_shards_below_the_count_each_once(env, value, must):
    with pytest.raises(BadSettings) as refused:
        env(SHARD_COUNT="4", SHARD_IDS=value, DATABASE_URL=POSTGRES)
    text = str(refused.value)
    assert f"SHARD_IDS={value!r}: SHARD_IDS must be" in text and must in text, text
    assert len(refused.value.problems) == 1


def test_shard_ids_are_read_with_their_count_on_postgresql(env):
    settings = env(SHARD_COUNT="4", SHARD_IDS=" 2, 3", DATABASE_URL=POSTGRES)
    assert (settings.shard_count, settings.shard_ids) == (4, (2, 3))
    assert settings.database == POSTGRES
    assert env(SHARD_IDS="").shard_ids is None


def test_shard_ids_with_a_bad_count_name_only_the_count(env):
    with pytest.raises(BadSettings) as refused:
        env(SHARD_COUNT="0", SHARD_IDS="0", DATABASE_URL=POSTGRES)
    assert [p.split(":")[0] for p in refused.value.problems] == ["SHARD_COUNT='0'"]


@pytest.mark.parametrize("database", [{}, {"DATABASE_PATH": "games.sqlite3"}])
def test_several_processes_are_refused_on_sqlite(env, database):
    with pytest.raises(BadSettings) as refused:
        env(SHARD_COUNT="4", SHARD_IDS="0,1", **database)
    (problem,) = refused.value.problems
    assert problem.startswith("SHARD_IDS: ")
    assert "one PostgreSQL database" in problem and "DATABASE_URL=postgresql://" in problem


def test_every_bad_setting_is_listed_at_once(env):
    with pytest.raises(BadSettings) as refused:
        env(SYNC_GUILD_ID="abc", GAME_SEED="1.5")
    assert len(refused.value.problems) == 2


def test_good_settings_are_read(env, tmp_path):
    settings = env(
        DISCORD_TOKEN="abc.def", DATABASE_PATH=str(tmp_path / "x" / "g.sqlite3"),
        SYNC_GUILD_ID="123456789012345678", DATA_OVERRIDES=str(tmp_path), GAME_SEED="-7",
        MEMBERS_INTENT="yes", COMPUTER_DELAY="0.5", RENDER_WORKERS="3",
    )  # fmt: skip
    assert settings == Settings(
        token="abc.def", database=str(tmp_path / "x" / "g.sqlite3"),
        sync_guild=123456789012345678, data_overrides=str(tmp_path), seed=-7,
        members_intent=True, computer_delay=0.5, render_workers=3,
    )  # fmt: skip
    assert env(MEMBERS_INTENT="0", SYNC_GUILD_ID="", GAME_SEED="", RENDER_WORKERS="") == Settings(
        token="abc.def", database=str(tmp_path / "x" / "g.sqlite3"),
        data_overrides=str(tmp_path), computer_delay=0.5,
        render_workers=default_render_workers(),
    )  # fmt: skip


def run_bot(tmp_path: Path, args: list[str], **values: str) -> subprocess.CompletedProcess:
    environment = {k: v for k, v in os.environ.items() if k not in NAMES}
    environment.update(PYTHONPATH=str(ROOT), **values)
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        cwd=tmp_path, env=environment, capture_output=True, text=True, timeout=60,
    )  # fmt: skip


def test_python_m_bot_stops_with_a_message_for_bad_settings(tmp_path):
    for args in (["run"], ["console"], ["run-or-console"]):
        done = run_bot(tmp_path, args, DISCORD_TOKEN="abc.def", SYNC_GUILD_ID="abc",
                       GAME_SEED="1.5")  # fmt: skip
        assert done.returncode == 2, done
        assert "SYNC_GUILD_ID='abc': SYNC_GUILD_ID must be a server id" in done.stderr
        assert "GAME_SEED='1.5': GAME_SEED must be a whole number" in done.stderr
        assert "Traceback" not in done.stderr + done.stdout


def test_python_m_bot_stops_with_a_message_for_a_broken_data_file(tmp_path):
    folder = tmp_path / "overrides" / "dragons_cave"
    folder.mkdir(parents=True)
    raw = json.loads((ROOT / "engines/dragons_cave/data/path.json").read_text())
    del raw["kinds"][0]["name"]
    (folder / "path.json").write_text(json.dumps(raw))
    done = run_bot(tmp_path, ["run"], DISCORD_TOKEN="abc.def",
                   DATA_OVERRIDES=str(tmp_path / "overrides"))  # fmt: skip
    assert done.returncode == 2, done
    assert "path.json: kinds[0].name is missing" in done.stderr
    assert str(folder) in done.stderr and "Traceback" not in done.stderr
    assert not (tmp_path / "data").exists(), "nothing was started"
