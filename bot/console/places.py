"""Where the local table keeps its games and its typed lines between sessions."""

from __future__ import annotations

import os
from pathlib import Path

MEMORY = ":memory:"
DATABASE_VARIABLE = "LOCAL_TABLE_DB"
DEFAULT_DATABASE = Path("data") / "local-table.sqlite3"
"""Beside the bot's own ``data/dragon-host.sqlite3``; ``data/`` is ignored by git."""


def database(given: str | None, *, playing: bool) -> str:
    """The SQLite file for this run: the one given (``--db``), else ``$LOCAL_TABLE_DB``,
    else ``data/local-table.sqlite3`` when people play; a script or a record played back
    starts from nothing (in memory) unless a file is given, so its game numbers and dice
    are the same every time."""
    if given:
        return given
    if not playing:
        return MEMORY
    return os.environ.get(DATABASE_VARIABLE) or str(DEFAULT_DATABASE)


def prepare(location: str) -> None:
    """Make the folder a database file is to live in."""
    if location != MEMORY:
        Path(location).parent.mkdir(parents=True, exist_ok=True)


def history(location: str) -> Path:
    """The file of typed lines: next to the database (``table.sqlite3`` keeps its lines in
    ``table.history``)."""
    if location == MEMORY:
        return DEFAULT_DATABASE.with_suffix(".history")
    return Path(location).with_suffix(".history")
