"""Line editing at the local table: the arrow keys move in the line and recall earlier
lines, kept in a history file between sessions (the standard ``readline`` module)."""

from __future__ import annotations

import contextlib
import sys
from pathlib import Path
from typing import Protocol

HISTORY_LENGTH = 1000


class History(Protocol):
    """What the table uses of ``readline``: its history, kept in a file."""

    def set_history_length(self, length: int, /) -> None: ...

    def read_history_file(self, filename: str | None = None, /) -> None: ...

    def write_history_file(self, filename: str | None = None, /) -> None: ...


class LineEditing:
    """Turns ``readline`` on for ``input()`` when the table is typed at a terminal (piped
    lines are read as they are), loading and saving the history in ``path``."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._readline = _readline() if sys.stdin.isatty() else None
        if self._readline is None:
            return
        self._readline.set_history_length(HISTORY_LENGTH)
        if path.is_file():
            # An unreadable history only loses the earlier lines.
            with contextlib.suppress(OSError):
                self._readline.read_history_file(str(path))

    @property
    def on(self) -> bool:
        return self._readline is not None

    def save(self) -> None:
        """Write the history now (after every line, so a crash loses none)."""
        if self._readline is None:
            return
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._readline.write_history_file(str(self.path))
        except OSError:
            pass  # a history that cannot be written must not stop the game


def _readline() -> History | None:
    """The ``readline`` module, or None where Python has none."""
    try:
        import readline
    except ImportError:  # not every Python has it (Windows)
        return None
    return readline
