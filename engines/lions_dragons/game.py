"""Lions and Dragons Chess (Tony Quintanilla, 2002): the engine the host plays through,
declared from the package's modules: :mod:`.setup` (options, seats, positions),
:mod:`.prompts`, :mod:`.actions` (a move, drop or shot), :mod:`.timeouts` (a skipped side
passes and the Fireball phase still runs; a forfeit lets the other side win), :mod:`.views`,
:mod:`.observe`, :mod:`.state` (snapshots, the result) and :mod:`.help`; the rules
themselves are in :mod:`.moves`, :mod:`.rules`, :mod:`.fireballs`, :mod:`.board`,
:mod:`.pieces` and :mod:`.layout`.

The state is a JSON-ready dict; ``apply`` works on a deep copy and never touches the state
it is given.
"""

from __future__ import annotations

from dataclasses import dataclass

from engines.declared import DeclaredGame
from engines.lions_dragons import actions, endings, observe, prompts, rules, setup, timeouts, views
from engines.lions_dragons import state as states
from engines.lions_dragons.help import rules_help
from engines.lions_dragons.state import State

__all__ = ["GAME", "LionsDragons", "State"]


@dataclass(frozen=True, eq=False)
class LionsDragons(DeclaredGame[State]):
    """The game, and :meth:`position`: a game in progress with exactly the pieces given,
    for puzzles, analysis and tests."""

    position = staticmethod(setup.position)


GAME = LionsDragons(
    slug="lions-dragons",
    title=setup.TITLE,
    min_players=2,
    max_players=2,
    options=setup.OPTIONS,
    turn_name=rules.TURN_NAME,
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
    turn=rules.turn_number,
    dump=states.dump,
    load=states.load,
    rules_help=rules_help,
)
"""Lions and Dragons Chess: a ball game for two Wizards on an 84-hex board."""
