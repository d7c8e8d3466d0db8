"""St. George and the Dragon: the engine the host plays through, declared from the
package's modules.

A turn is two decisions of the same seat: ``roll`` (the die, from the host's rng), then a
move ``<from>-<to>``. A roll with no legal move passes the turn by itself. When a turn runs
out of time the host calls ``skip`` (the turn passes) or ``forfeit`` (the seat leaves).

:mod:`.setup` (seats, the first state), :mod:`.prompts`, :mod:`.actions` (rolling and
moving), :mod:`.timeouts`, :mod:`.views`, :mod:`.observe`, :mod:`.state` (the state type,
snapshots, the result), :mod:`.notation` and :mod:`.help`; the rules themselves are in
:mod:`.board`, :mod:`.moves`, :mod:`.rules`, :mod:`.seats` and :mod:`.turns` (passing the
turn, the endings).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from engines.declared import DeclaredGame
from engines.stgeorge import actions, endings, observe, prompts, setup, timeouts, turns, views
from engines.stgeorge import state as states
from engines.stgeorge.help import rules_help
from engines.stgeorge.state import State

__all__ = ["GAME", "StGeorge"]


def _setup(roles: list[str], options: dict[str, Any], rng: random.Random) -> State:
    """Knights on their castles' three points, the Dragon on the Lair: no chance drawn."""
    return setup.setup(roles, options)


@dataclass(frozen=True, eq=False)
class StGeorge(DeclaredGame[State]):
    """The rules of St. George and the Dragon (see ``rules_help`` for the readings).
    Its own class names the package it lives in."""


GAME = StGeorge(
    slug="stgeorge",
    title=setup.TITLE,
    min_players=2,
    max_players=5,
    options=setup.OPTIONS,
    turn_name=turns.TURN_NAME,
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
    observe=observe.observe,
    result=states.result,
    turn=turns.turn_number,
    dump=states.dump,
    load=states.load,
    rules_help=rules_help,
)
"""St. George and the Dragon: a wheel board, one die, Knights racing to the Dragon's Lair.

Its slug is ``"stgeorge"``; :mod:`games` registers it.
"""
