"""Per-game test tables drawn from the registry (:data:`games.SPECS`): a test that needs
something of each game (a table size, a count of places, whether it has secrets) names it
per game, and a registered game its table leaves out FAILS the test, never skips it."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TypeVar

import pytest

from games import SPECS

V = TypeVar("V")


def registered() -> list[str]:
    """Every registered game's slug, in the order the games are offered."""
    return list(SPECS)


def tuned(table: Mapping[str, V], slug: str, what: str) -> V:
    """What ``table`` says of ``slug``; fails the test, saying what to add, when the table
    leaves a registered game out."""
    if slug not in table:
        pytest.fail(f"{slug} is registered but {what} does not say {slug}'s entry: add it")
    return table[slug]


def unlisted(*listed: Iterable[str]) -> list[str]:
    """The registered games none of ``listed`` names (each test asserts this is empty)."""
    named = {slug for group in listed for slug in group}
    return [slug for slug in SPECS if slug not in named]
