"""Dragonslayer (2-4 players): the engine the host plays through, declared from the
package's modules (chance: the Dragon Location tile drawn by ``draw`` in the Lair, told in
an event)."""

from __future__ import annotations

from dataclasses import dataclass

from engines.declared import DeclaredGame
from engines.dragonslayer import actions, endings, flow, observe, prompts, setup, timeouts, views
from engines.dragonslayer import state as states
from engines.dragonslayer.help import rules_help
from engines.dragonslayer.state import State

__all__ = ["GAME", "Dragonslayer"]


@dataclass(frozen=True, eq=False)
class Dragonslayer(DeclaredGame[State]):
    """Magicians gather parties in Urland, dodging each other's King's men.
    Its own class names the package it lives in."""


GAME = Dragonslayer(
    slug="dragonslayer",
    title=setup.TITLE,
    min_players=setup.MIN_PLAYERS,
    max_players=setup.MAX_PLAYERS,
    options=setup.OPTIONS,
    turn_name=flow.TURN_NAME,
    roles=setup.roles,
    normalize_options=setup.normalize,
    setup=setup.setup,
    prompts=prompts.prompts,
    legal_actions=prompts.legal_actions,
    apply=actions.apply,
    skip=timeouts.skip,
    forfeit=timeouts.forfeit,
    draw_by_agreement=endings.draw_by_agreement,
    agree_draw=endings.agree_draw,
    revealed=endings.revealed,
    view=views.view,
    observe=observe.observe,
    result=states.result,
    turn=flow.turn_number,
    dump=states.dump,
    load=states.load,
    rules_help=rules_help,
)
"""Dragonslayer: magicians gather parties in Urland, dodging each other's King's men."""
