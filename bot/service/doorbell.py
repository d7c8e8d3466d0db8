"""The host's two wake-ups: notices were stored, a deadline moved.

The host rings; the outbox and the scheduler listen from the moment they are built, so a
stored notice or a moved deadline reaches them without anything being swapped in later.
"""

from __future__ import annotations

from collections.abc import Callable

Listener = Callable[[], None]


class Doorbell:
    """Calls every listener of a kind when the host rings it (never awaits them)."""

    def __init__(self) -> None:
        self._notices: list[Listener] = []
        self._deadlines: list[Listener] = []

    def on_notices_stored(self, listener: Listener) -> None:
        """Call ``listener`` whenever the host has stored notices (the outbox sends them)."""
        self._notices.append(listener)

    def on_deadline_moved(self, listener: Listener) -> None:
        """Call ``listener`` whenever a deadline may have moved earlier (the scheduler
        looks again)."""
        self._deadlines.append(listener)

    def notices_stored(self) -> None:
        for listener in self._notices:
            listener()

    def deadline_moved(self) -> None:
        for listener in self._deadlines:
            listener()
