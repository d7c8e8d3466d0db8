"""Run-time settings, read from the environment (and a ``.env`` file, if present)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

DEFAULT_DATABASE = Path("data") / "dragon-host.sqlite3"


@dataclass(frozen=True)
class Settings:
    """Everything the bot needs to start; tests build one directly."""

    token: str | None = None
    database: str = str(DEFAULT_DATABASE)
    sync_guild: int | None = None
    data_overrides: str | None = None
    seed: int | None = None
    members_intent: bool = False
    computer_delay: float = 2.0
    """Seconds a computer seat waits before its move, so people can follow the game."""

    @classmethod
    def from_env(cls, env_file: str | None = ".env") -> Settings:
        """Settings from ``DISCORD_TOKEN``, ``DATABASE_PATH``, ``SYNC_GUILD_ID``,
        ``DATA_OVERRIDES``, ``GAME_SEED``, ``MEMBERS_INTENT`` and ``COMPUTER_DELAY`` (a
        ``.env`` file fills in unset ones)."""
        if env_file:
            from dotenv import load_dotenv

            load_dotenv(env_file, override=False)
        guild = os.environ.get("SYNC_GUILD_ID", "").strip()
        seed = os.environ.get("GAME_SEED", "").strip()
        members = os.environ.get("MEMBERS_INTENT", "").strip().lower() in ("1", "true", "yes")
        delay = os.environ.get("COMPUTER_DELAY", "").strip()
        return cls(
            token=os.environ.get("DISCORD_TOKEN", "").strip() or None,
            database=os.environ.get("DATABASE_PATH", "").strip() or str(DEFAULT_DATABASE),
            sync_guild=int(guild) if guild else None,
            data_overrides=os.environ.get("DATA_OVERRIDES", "").strip() or None,
            seed=int(seed) if seed else None,
            members_intent=members,
            computer_delay=float(delay) if delay else 2.0,
        )
