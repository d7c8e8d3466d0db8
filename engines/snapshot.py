"""The format version every engine writes into its stored snapshot (``dump``).

Each engine's ``state.py`` has a ``FORMAT``: the version of the snapshot its ``dump``
writes (under the key ``"format"``). ``load`` accepts that version and older ones it knows
how to read, and refuses anything else with :class:`UnknownFormat`, so a snapshot written by
a newer engine is never misread by an older one.
"""

from __future__ import annotations

from typing import Any


class UnknownFormat(ValueError):
    """A snapshot this engine cannot read: not its game, or written by a newer version."""


def check_format(data: Any, current: int, game: str, missing: int | None = None) -> int:
    """The format of the snapshot ``data``, if this engine (writing ``current``) reads it.

    ``missing`` is the format assumed for a snapshot without the key (written before
    formats were recorded); ``None`` refuses such a snapshot.
    """
    if not isinstance(data, dict):
        raise UnknownFormat(f"Not a {game} snapshot: a JSON object is expected.")
    found = data.get("format", missing)
    if isinstance(found, bool) or not isinstance(found, int) or found < 1:
        raise UnknownFormat(f"Not a {game} snapshot: unknown state format {found!r}.")
    if found > current:
        raise UnknownFormat(
            f"This {game} snapshot has state format {found}, newer than this engine reads "
            f"(format {current} and older): update the engine to load it."
        )
    return found
