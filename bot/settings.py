"""Run-time settings, read from the environment (and a ``.env`` file, if present).

:meth:`Settings.from_env` checks every setting of ``.env.example`` and raises
:class:`BadSettings`, naming each bad setting and what it must be, so the bot stops with a
message at start-up instead of failing later with a traceback.
"""

from __future__ import annotations

import math
import os
import re
from dataclasses import dataclass, replace
from pathlib import Path
from urllib.parse import urlsplit

DEFAULT_DATABASE = Path("data") / "dragon-host.sqlite3"
MAX_COMPUTER_DELAY = 60.0
"""The longest a computer seat may be told to wait before its move, in seconds."""
MAX_SHARDS = 4096
"""The most shards a bot may be split into."""
MAX_RENDER_WORKERS = 32
"""The most processes that may draw board pictures."""


def default_render_workers() -> int:
    """One drawing process per core, at most four (each holds a few tens of MB)."""
    return max(1, min(4, os.cpu_count() or 1))


_SNOWFLAKE_MAX = 2**63 - 1
_ON = ("1", "true", "yes", "on")
_OFF = ("", "0", "false", "no", "off")


class BadSettings(Exception):
    """Some settings cannot be used; ``problems`` has one line per bad setting, naming it
    and saying what it must be."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = list(problems)
        super().__init__(
            "The bot cannot start: "
            + ("a setting is" if len(problems) == 1 else "some settings are")
            + " not valid (in .env or the environment; see .env.example):\n"
            + "\n".join(f"- {problem}" for problem in self.problems)
        )


@dataclass(frozen=True)
class Settings:
    """Everything the bot needs to start; tests build one directly."""

    token: str | None = None
    database: str = str(DEFAULT_DATABASE)
    """Where the games are stored: an SQLite file, or a ``postgresql://`` URL."""
    sync_guild: int | None = None
    data_overrides: str | None = None
    seed: int | None = None
    members_intent: bool = False
    computer_delay: float = 2.0
    """Seconds a computer seat waits before its move, so people can follow the game."""
    render_workers: int = 0
    """Processes drawing board pictures; 0 draws them in a thread of the bot's process."""
    shard_count: int | None = None
    """Shards the bot is split into (discord.py's auto-sharded bot); None: one, unsharded."""
    shard_ids: tuple[int, ...] | None = None
    """Which of the ``shard_count`` shards this process runs, when several processes share
    them (each on the same PostgreSQL database); None: all of them."""
    web_port: int | None = None
    """The port the game pages are served on; None: no pages are served here."""
    web_host: str = "127.0.0.1"
    """The address the pages' server listens on (``0.0.0.0``: every interface)."""
    web_url: str | None = None
    """Where players reach the pages (behind the admin's proxy); links in Discord use it.
    Defaults to ``http://localhost:<web_port>`` when only the port is set."""
    paced: bool = True
    """Whether sends keep to Discord's pace per channel and for the bot
    (:mod:`bot.service.delivery.pacing`); tests whose simulated Discord answers every request at
    one instant turn it off."""
    short_collections: bool = False
    """Whether the process keeps its garbage collections' pauses short by freezing what
    survives each full collection (:mod:`bot.service.garbage`): on for a bot run from the
    command line, whose process is its alone; off where the process is shared, as in
    tests."""

    @classmethod
    def from_env(cls, env_file: str | None = ".env") -> Settings:
        """Settings from every variable of ``.env.example`` (a ``.env`` file fills in
        unset ones); ``DATABASE_URL``, when set, wins over ``DATABASE_PATH``. Raises
        :class:`BadSettings` naming every setting that cannot be used."""
        if env_file:
            from dotenv import load_dotenv

            load_dotenv(env_file, override=False)
        reader = _Reader()
        settings = cls(
            token=reader.token("DISCORD_TOKEN"),
            database=reader.database_url("DATABASE_URL") or reader.database("DATABASE_PATH"),
            sync_guild=reader.guild("SYNC_GUILD_ID"),
            data_overrides=reader.folder("DATA_OVERRIDES"),
            seed=reader.seed("GAME_SEED"),
            members_intent=reader.switch("MEMBERS_INTENT"),
            computer_delay=reader.delay("COMPUTER_DELAY", default=2.0),
            render_workers=reader.workers("RENDER_WORKERS", default=default_render_workers()),
            shard_count=reader.shards("SHARD_COUNT"),
            web_port=reader.port("WEB_PORT"),
            web_host=reader.listen("WEB_HOST", default="127.0.0.1"),
            web_url=reader.url("WEB_URL"),
        )
        if settings.web_url is None and settings.web_port is not None:
            settings = replace(settings, web_url=f"http://localhost:{settings.web_port}")
        shard_ids = reader.shard_ids("SHARD_IDS", settings.shard_count)
        if shard_ids is not None:
            settings = replace(settings, shard_ids=shard_ids)
            reader.one_process_store("SHARD_IDS", settings.database)
        if reader.problems:
            raise BadSettings(reader.problems)
        return settings


class _Reader:
    """Reads one setting at a time from the environment, noting each bad one."""

    def __init__(self) -> None:
        self.problems: list[str] = []

    def _raw(self, name: str) -> str:
        return os.environ.get(name, "").strip()

    def _bad(self, name: str, raw: str, must: str) -> None:
        shown = raw if len(raw) <= 40 else raw[:40] + "…"
        self.problems.append(f"{name}={shown!r}: {name} must be {must}.")

    def token(self, name: str) -> str | None:
        raw = self._raw(name)
        if any(char.isspace() for char in raw):
            self.problems.append(
                f"{name}: {name} must be the bot token from the Discord Developer Portal "
                "(Bot -> Reset Token), one word with no spaces, or empty for the local table."
            )
        return raw or None

    def database_url(self, name: str) -> str | None:
        raw = self._raw(name)
        if not raw:
            return None
        if raw.startswith(("postgresql://", "postgres://")) and len(raw) > len("postgres://"):
            return raw
        self.problems.append(
            f"{name}: {name} must be a PostgreSQL URL such as "
            "postgresql://user@host:5432/dragons, or empty to use DATABASE_PATH (SQLite)."
        )
        return None

    def database(self, name: str) -> str:
        raw = self._raw(name)
        if not raw:
            return str(DEFAULT_DATABASE)
        if raw == ":memory:":
            return raw
        path = Path(raw)
        must = "the path of an SQLite file (its folder is created if missing)"
        if path.is_dir():
            self._bad(name, raw, f"{must}, not a folder")
        elif any(parent.exists() and not parent.is_dir() for parent in path.parents):
            self._bad(name, raw, f"{must}; a part of that path is a file, not a folder")
        return raw

    def guild(self, name: str) -> int | None:
        raw = self._raw(name)
        if not raw:
            return None
        if raw.isdigit() and 0 < int(raw) <= _SNOWFLAKE_MAX:
            return int(raw)
        self._bad(
            name,
            raw,
            "a server id, a whole number such as 123456789012345678 (Discord: Developer "
            "Mode, then right-click the server -> Copy Server ID), or empty to sync globally",
        )
        return None

    def folder(self, name: str) -> str | None:
        raw = self._raw(name)
        if not raw:
            return None
        if not Path(raw).is_dir():
            self._bad(name, raw, "an existing folder of corrected data files, or empty")
        return raw

    def seed(self, name: str) -> int | None:
        raw = self._raw(name)
        if not raw:
            return None
        try:
            return int(raw)
        except ValueError:
            self._bad(name, raw, "a whole number such as 42, or empty for truly random dice")
            return None

    def switch(self, name: str) -> bool:
        raw = self._raw(name).lower()
        if raw in _ON:
            return True
        if raw not in _OFF:
            self._bad(name, raw, "1 (on) or 0 (off), or empty for off")
        return False

    def shards(self, name: str) -> int | None:
        raw = self._raw(name)
        if not raw:
            return None
        if raw.isdigit() and 1 <= int(raw) <= MAX_SHARDS:
            return int(raw)
        self._bad(name, raw, f"a whole number of shards from 1 to {MAX_SHARDS}, or empty")
        return None

    def shard_ids(self, name: str, shard_count: int | None) -> tuple[int, ...] | None:
        raw = self._raw(name)
        if not raw:
            return None
        if shard_count is None:
            if "SHARD_COUNT" not in " ".join(self.problems):
                self._bad(name, raw, "set together with SHARD_COUNT (how many shards in all)")
            return None
        parts = [part.strip() for part in raw.split(",")]
        if all(part.isdigit() for part in parts):
            ids = [int(part) for part in parts]
            if len(set(ids)) == len(ids) and all(i < shard_count for i in ids):
                return tuple(ids)
        self._bad(
            name, raw,
            f"the shards this process runs, each from 0 to {shard_count - 1} (below "
            f"SHARD_COUNT={shard_count}) and each once, separated by commas, such as 0,1; "
            "or empty for all of them",
        )  # fmt: skip
        return None

    def one_process_store(self, name: str, database: str) -> None:
        """Several processes (``name`` set) cannot share an SQLite file."""
        if database.startswith(("postgresql://", "postgres://")):
            return
        self.problems.append(
            f"{name}: {name} splits the bot into several processes, and they must share "
            "one PostgreSQL database: set DATABASE_URL=postgresql://… (an SQLite file "
            "serves one process), or leave SHARD_IDS empty to run every shard here."
        )

    def workers(self, name: str, *, default: int) -> int:
        raw = self._raw(name)
        if not raw:
            return default
        if raw.isdigit() and int(raw) <= MAX_RENDER_WORKERS:
            return int(raw)
        self._bad(
            name, raw,
            f"a whole number from 0 (draw in the bot's own process) to {MAX_RENDER_WORKERS}, "
            f"or empty for {default}",
        )  # fmt: skip
        return default

    def listen(self, name: str, *, default: str) -> str:
        raw = self._raw(name)
        if not raw:
            return default
        if re.fullmatch(r"[A-Za-z0-9.:\-]+|\[[0-9A-Fa-f:.]+\]", raw):
            return raw.strip("[]")
        self._bad(
            name, raw,
            f"an address of this machine to listen on, such as 127.0.0.1 or 0.0.0.0 "
            f"(no scheme, no port), or empty for {default}",
        )  # fmt: skip
        return default

    def port(self, name: str) -> int | None:
        raw = self._raw(name)
        if not raw:
            return None
        if raw.isdigit() and 1 <= int(raw) <= 65535:
            return int(raw)
        self._bad(name, raw, "a port number from 1 to 65535, or empty to serve no web pages")
        return None

    def url(self, name: str) -> str | None:
        raw = self._raw(name)
        if not raw:
            return None
        parsed = urlsplit(raw)
        if parsed.scheme in ("http", "https") and parsed.netloc and not parsed.query:
            return raw.rstrip("/")
        self._bad(
            name, raw,
            "the address players reach the pages at, such as https://dragons.example.org "
            "(http or https, no query), or empty",
        )  # fmt: skip
        return None

    def delay(self, name: str, *, default: float) -> float:
        raw = self._raw(name)
        if not raw:
            return default
        try:
            seconds = float(raw)
        except ValueError:
            seconds = math.nan
        if math.isfinite(seconds) and 0 <= seconds <= MAX_COMPUTER_DELAY:
            return seconds
        self._bad(
            name,
            raw,
            f"a number of seconds from 0 to {MAX_COMPUTER_DELAY:g}, or empty for {default:g}",
        )
        return default
