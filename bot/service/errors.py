"""Errors a user caused. The message says what went wrong and what to do instead."""


class UserError(Exception):
    """A request that cannot be done as asked; nothing was changed."""


class AlreadyDone(UserError):
    """The control clicked belongs to a board that has moved on (a double click, a stale button)."""
