"""Lions and Dragons Chess (Tony Quintanilla, 2002) behind the engine contract.

A thin facade over the package: :mod:`.setup` (options, seats, positions), :mod:`.prompts`,
:mod:`.actions` (applying a move, drop or shot), :mod:`.timeouts` (skip and forfeit),
:mod:`.views`, :mod:`.observe`, :mod:`.state` (the state's keys, snapshots, the result),
:mod:`.notation` and :mod:`.help`; the rules themselves are in :mod:`.moves`,
:mod:`.rules`, :mod:`.fireballs`, :mod:`.board`, :mod:`.pieces` and :mod:`.layout`.

The state is a JSON-ready dict; ``apply`` works on a deep copy and never touches the state
it is given. When a turn runs out of time the host calls ``skip`` (the side passes; the
Fireball phase still runs) or ``forfeit`` (the side gives up and the other wins).
"""

from __future__ import annotations

import random
from typing import Any

from engines import options as schema
from engines.base import Choice, Event, ForfeitReason, Prompt, Result, Role
from engines.lions_dragons import (
    actions,
    endings,
    observe,
    prompts,
    rules,
    setup,
    timeouts,
    views,
)
from engines.lions_dragons.help import rules_help
from engines.lions_dragons.state import State, dump, load, result

__all__ = ["GAME", "OPTION_HELP", "LionsDragons", "State"]

OPTION_HELP = "Options: " + "; ".join(option.usage for option in setup.OPTIONS) + "."


class LionsDragons:
    """The rules of Lions and Dragons Chess for two seats, White and Black."""

    slug = "lions-dragons"
    title = setup.TITLE
    min_players = 2
    max_players = 2
    options = setup.OPTIONS
    turn_name = rules.TURN_NAME

    def roles(self, players: int, options: dict[str, Any]) -> list[Role]:
        return setup.roles(players, options)

    def parse_options(self, text: str) -> dict[str, Any]:
        """Typed options (``lions=symmetric reserve=2``), checked, with defaults filled."""
        return schema.parse(self.options, text, self.title)

    def normalize_options(self, options: dict[str, Any]) -> dict[str, Any]:
        """Options already split into ``{key: value}``, checked against the same schema as
        :meth:`parse_options` (for hosts that split the typed text themselves)."""
        return setup.normalize(options)

    def setup(self, roles: list[str], options: dict[str, Any], rng: random.Random) -> State:
        return setup.setup(roles, options, rng)

    def position(
        self,
        pieces: dict[str, str],
        to_move: str = "white",
        lions: list[str] | tuple[str, ...] = (),
        reserves: tuple[int, int] = (0, 0),
        options: dict[str, Any] | None = None,
    ) -> State:
        """A game in progress with exactly these pieces (see :func:`setup.position`)."""
        return setup.position(pieces, to_move, lions, reserves, options)

    def prompts(self, state: State) -> list[Prompt]:
        return prompts.prompts(state)

    def legal_actions(self, state: State, seat: int) -> list[Choice]:
        return prompts.legal_actions(state, seat)

    def apply(
        self, state: State, seat: int, action: str, rng: random.Random
    ) -> tuple[State, list[Event]]:
        return actions.apply(state, seat, action, rng)

    def skip(self, state: State, seat: int, rng: random.Random) -> tuple[State, list[Event]]:
        """The side to move passes; the Fireball phase still runs (see the rules help)."""
        return timeouts.skip(state, seat, rng)

    def forfeit(
        self, state: State, seat: int, rng: random.Random, reason: ForfeitReason = "timeout"
    ) -> tuple[State, list[Event]]:
        """The side to move gives up: the other side wins at once."""
        return timeouts.forfeit(state, seat, rng, reason)

    def draw_by_agreement(self, state: State) -> bool:
        """Whether the players may agree a draw now (see :mod:`.endings`)."""
        return endings.draw_by_agreement(state)

    def agree_draw(self, state: State) -> tuple[State, list[Event]]:
        """The game ends as a draw by agreement, or IllegalAction (see :mod:`.endings`)."""
        return endings.agree_draw(state)

    def revealed(self, before: State, after: State) -> bool:
        """Whether the step showed a hidden thing (see :mod:`.endings`)."""
        return endings.revealed(before, after)

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return views.view(state, seat)

    def result(self, state: State) -> Result | None:
        return result(state)

    def turn(self, state: State) -> int:
        """One side's action and its Fireball phase (see :func:`rules.turn_number`)."""
        return rules.turn_number(state)

    def observe(self, state: State, seat: int) -> State:
        """Nothing is hidden in Lions and Dragons Chess: both sides see the whole board."""
        return observe.observe(state, seat)

    def dump(self, state: State) -> dict[str, Any]:
        return dump(state)

    def load(self, data: dict[str, Any]) -> State:
        return load(data)

    def rules_help(self) -> str:
        return rules_help()


GAME = LionsDragons()
