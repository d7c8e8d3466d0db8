"""Writing a game's rules help with its examples kept as it writes them.

A rules help shows example actions and options in backticks. Written through
:class:`Examples`, each example is also kept in a list, so the tests that play every
example of ``/rules`` (``tests/bot/test_rules_examples.py``) and the text cannot drift apart.
"""

from __future__ import annotations


class Examples:
    """The examples one rules help writes, in the order written."""

    def __init__(self) -> None:
        self.actions: list[str] = []
        """Every action written as an example."""
        self.options: list[str] = []
        """Every ``key=value`` option written as an example."""

    def action(self, action: str) -> str:
        """``action`` in backticks, kept in :attr:`actions`."""
        self.actions.append(action)
        return f"`{action}`"

    def option(self, spelling: str) -> str:
        """The option ``key=value`` in backticks, kept in :attr:`options`."""
        self.options.append(spelling)
        return f"`{spelling}`"
