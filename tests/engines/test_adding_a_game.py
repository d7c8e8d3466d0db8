"""A fifth game touches its own folders and one registry entry (docs/ADDING_A_GAME.md).

A throw-away game (:mod:`tests.toy_game`) is registered in :data:`games.SPECS` for the
test's duration, and the whole engine contract suite runs over it, as it runs over the
four hosted games: nothing else had to learn its name.
"""

from __future__ import annotations

import pytest

import games
from players.base import EASY
from tests.engines import test_contract
from tests.toy_game import GAME as TOY
from tests.toy_game import toy_renderer


@pytest.fixture
def fifth_game(monkeypatch):
    """The toy game, registered as one more entry of the registry (undone afterwards)."""
    spec = games.GameSpec(TOY, lambda view: toy_renderer(TOY.slug, view), EASY)
    monkeypatch.setitem(games.SPECS, TOY.slug, spec)
    return spec


def test_a_game_registered_in_one_entry_is_hosted_and_keeps_the_contract(fifth_game):
    assert games.spec_for(TOY.slug) is fifth_game
    assert games.ENGINES[TOY.slug] is TOY
    assert games.starting_views(TOY.slug)[0]["summary"]
    test_contract.check_contract(games.ENGINES[TOY.slug])
