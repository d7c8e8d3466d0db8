"""Errors a user caused. The message says what went wrong and what to do instead."""

from __future__ import annotations

from bot.service.text import Text, visible


class UserError(Exception):
    """A request that cannot be done as asked; nothing was changed.

    The message may name people or channels (:class:`~bot.service.text.Text`); a frontend
    writes it with :attr:`text`, logs and ``str()`` get the plain version. What it quotes
    of typed text shows its control characters visibly (:func:`~bot.service.text.visible`).
    """

    def __init__(self, message: str | Text) -> None:
        self.text: Text = visible(message)
        super().__init__(self.text.plain())


class AlreadyDone(UserError):
    """The control clicked belongs to a board that has moved on (a double click, a stale button)."""


class Unreadable(UserError):
    """The action typed is not in the game's notation at all (the engine raised
    :class:`~engines.base.UnreadableAction`); a plain :class:`UserError` from ``act`` is a
    well-formed action the rules refused."""
