"""The refusals an engine raises, shared by every module of ``engines`` (and imported by
:mod:`engines.base` and :mod:`engines.options` alike, so neither needs the other for them).

A refused action is one of two siblings under :class:`ActionError`: text that is not the
game's notation at all (:class:`UnreadableAction`) or a well-formed action the rules do not
allow now (:class:`IllegalAction`). A handler catches the one it words differently, or
:class:`ActionError` for both; neither is a kind of the other. ``str(error)`` of each is
shown to the player as it is.
"""

from __future__ import annotations


class ActionError(ValueError):
    """An action the game refuses, for either cause; ``str(error)`` is shown to the player."""


class IllegalAction(ActionError):
    """A well-formed action (it reads in the game's notation) that the rules do not allow
    in this position: not the seat's turn, a move that cannot be made, the game over."""


class UnreadableAction(ActionError):
    """Text that is not an action in the game's notation at all (``"hello"``, a point or
    cell that does not exist, a verb the game does not have).

    Each engine's ``notation.read`` raises it with a message saying how actions are
    written, with examples; ``Game.apply`` raises it for any text ``read`` refuses,
    possibly with a hint fitted to the position instead.
    """


class BadOptions(ValueError):
    """Options or a player count the game cannot be set up with. Shown to the player."""
