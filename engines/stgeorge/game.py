"""St. George and the Dragon: the engine the host plays through the contract in engines.base.

A turn is two decisions of the same seat: ``roll`` (the die, from the host's rng), then a
move ``<from>-<to>``. A roll with no legal move passes the turn by itself. When a turn runs
out of time the host calls ``skip`` (the turn passes) or ``forfeit`` (the seat leaves).

A thin facade over the package: :mod:`.setup` (seats, the first state), :mod:`.prompts`,
:mod:`.actions` (rolling and moving), :mod:`.timeouts`, :mod:`.views`, :mod:`.observe`,
:mod:`.state` (the state type, snapshots, the result), :mod:`.notation` and :mod:`.help`;
the rules themselves are in :mod:`.board`, :mod:`.moves`, :mod:`.rules`, :mod:`.seats`
and :mod:`.turns` (passing the turn, the endings).
"""

from __future__ import annotations

import random
from typing import Any

from engines import options as schema
from engines.base import Choice, Event, ForfeitReason, Prompt, Result, Role
from engines.stgeorge import actions, endings, observe, prompts, setup, timeouts, turns, views
from engines.stgeorge.help import rules_help
from engines.stgeorge.prompts import Move
from engines.stgeorge.state import State, dump, load, result

__all__ = ["GAME", "Move", "StGeorge"]


class StGeorge:
    """The rules of St. George and the Dragon (see ``rules_help`` for the readings)."""

    slug = "stgeorge"
    title = setup.TITLE
    min_players = 2
    max_players = 5
    options = setup.OPTIONS
    turn_name = turns.TURN_NAME

    def roles(self, players: int, options: dict[str, Any]) -> list[Role]:
        """The seats for ``players`` (2-5), Knights first and the Dragon last."""
        return setup.roles(players, options)

    def parse_options(self, text: str) -> dict[str, Any]:
        """The game has no options: ``{}`` for empty text, else BadOptions."""
        return schema.parse(self.options, text, self.title)

    def normalize_options(self, options: dict[str, Any]) -> dict[str, Any]:
        """Options already split into ``{key: value}``: an empty dict, or BadOptions naming
        the unknown keys (the same schema as :meth:`parse_options`)."""
        return setup.normalize(options)

    def setup(self, roles: list[str], options: dict[str, Any], rng: random.Random) -> State:
        """Knights on their castles' three points, the Dragon on the Lair, first seat to roll."""
        return setup.setup(roles, options)

    def prompts(self, state: State) -> list[Prompt]:
        """One prompt for the seat to move: ``roll`` or ``move``; none once the game is over."""
        return prompts.prompts(state)

    def legal_actions(self, state: State, seat: int) -> list[Choice]:
        """``roll``, or every move ``from-to`` (grouped by the piece's point)."""
        return prompts.legal_actions(state, seat)

    def apply(
        self, state: State, seat: int, action: str, rng: random.Random
    ) -> tuple[State, list[Event]]:
        """Roll the die or make a move; IllegalAction (state untouched) if not allowed now."""
        return actions.apply(state, seat, action, rng)

    def skip(self, state: State, seat: int, rng: random.Random) -> tuple[State, list[Event]]:
        """The seat's turn passes without a move (see :func:`timeouts.skip`)."""
        return timeouts.skip(state, seat, rng)

    def forfeit(
        self, state: State, seat: int, rng: random.Random, reason: ForfeitReason = "timeout"
    ) -> tuple[State, list[Event]]:
        """The seat leaves for good (see :func:`timeouts.forfeit`)."""
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
        """The public picture; a seat's view adds ``"private": ""`` (nothing is secret)."""
        return views.view(state, seat)

    def result(self, state: State) -> Result | None:
        """Winners (none for a draw) and the reason, once the game is over."""
        return result(state)

    def turn(self, state: State) -> int:
        """A round of every seat (see :func:`turns.turn_number`)."""
        return turns.turn_number(state)

    def observe(self, state: State, seat: int) -> State:
        """Nothing is hidden in St. George: every seat sees the whole state."""
        return observe.observe(state, seat)

    def dump(self, state: State) -> dict[str, Any]:
        return dump(state)

    def load(self, data: dict[str, Any]) -> State:
        return load(data)

    def rules_help(self) -> str:
        return rules_help()


GAME = StGeorge()
