"""Dragon's Cave (2-4 players): the engine the host plays through, declared from the
package's modules: :mod:`.setup` (options, seats, the first state), :mod:`.prompts` (who
decides what, the legal actions), :mod:`.actions` (applying them; nothing in the rules is
left to chance, ``rng`` only draws the hand picks of a Dragon that left), :mod:`.timeouts`
(a skipped secret is answered for the player; a forfeit leaves the game, or with 2 players
the other wins), :mod:`.endings`, :mod:`.views`, :mod:`.observe`, :mod:`.rounds` (a turn is
a round), :mod:`.state` (snapshots, the result) and :mod:`.help`.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, cast

from engines.declared import DeclaredGame
from engines.dragons_cave import actions, endings, observe, prompts, rounds, setup, timeouts, views
from engines.dragons_cave import state as states
from engines.dragons_cave.help import rules_help
from engines.dragons_cave.state import State

__all__ = ["GAME", "DragonsCave"]


def _setup(roles: list[str], options: dict[str, Any], rng: random.Random) -> State:
    """All Dwarves on Start, 44 coins in the Treasure: set-up draws no chance."""
    return setup.setup(roles, options)


def _observe(state: State, seat: int) -> State:
    """The seat's observed state (other Chests and secrets ``"hidden"``). It keeps the
    state's own keys, and what a seat decides from reads both (``prompts``, ``legal_actions``
    and the views take ``State | Observed``), so it stands for the game's state."""
    return cast(State, observe.observe(state, seat))


@dataclass(frozen=True, eq=False)
class DragonsCave(DeclaredGame[State]):
    """Secret cards against the Dragon's guess; the richest Dwarf wins.
    Its own class names the package it lives in."""


GAME = DragonsCave(
    slug="dragons-cave",
    title=setup.TITLE,
    min_players=setup.MIN_PLAYERS,
    max_players=setup.MAX_PLAYERS,
    options=setup.OPTIONS,
    turn_name=rounds.TURN_NAME,
    roles=setup.roles,
    normalize_options=setup.normalize,
    setup=_setup,
    prompts=prompts.prompts,
    legal_actions=prompts.legal_actions,
    apply=actions.apply,
    skip=timeouts.skip,
    forfeit=timeouts.forfeit,
    draw_by_agreement=endings.draw_by_agreement,
    agree_draw=endings.agree_draw,
    revealed=endings.revealed,
    view=views.view,
    observe=_observe,
    result=states.result,
    turn=rounds.round_number,
    dump=states.dump,
    load=states.load,
    rules_help=rules_help,
)
"""Dragon's Cave: Dwarves play secret cards to walk into the cave while the Dragon guesses
where to sit; the richest player wins."""
