"""Dragon's Cave (2-4 players): the engine object the host plays through.

A thin facade over the package: :mod:`.setup` (options, seats, the first state),
:mod:`.prompts` (who decides what, the legal actions), :mod:`.actions` (applying them),
:mod:`.timeouts` (skip and forfeit), :mod:`.views`, :mod:`.observe`, :mod:`.state`
(snapshots) and :mod:`.help`.
"""

from __future__ import annotations

import random
from typing import Any

from engines import options as schema
from engines.base import Choice, Event, ForfeitReason, Prompt, Result, Role
from engines.dragons_cave import (
    actions,
    endings,
    observe,
    prompts,
    rounds,
    setup,
    timeouts,
    views,
)
from engines.dragons_cave.help import rules_help
from engines.dragons_cave.setup import COLOURS
from engines.dragons_cave.state import Observed, State, dump, load, result

__all__ = ["COLOURS", "GAME", "DragonsCave"]


class DragonsCave:
    """Secret cards against the Dragon's guess; the richest Dwarf wins."""

    slug = "dragons-cave"
    title = setup.TITLE
    min_players = setup.MIN_PLAYERS
    max_players = setup.MAX_PLAYERS
    options = setup.OPTIONS
    turn_name = rounds.TURN_NAME

    def roles(self, players: int, options: dict[str, Any]) -> list[Role]:
        """``red``, ``blue``, then ``green`` and ``yellow``; with 2 players each has 2 Dwarves."""
        return setup.roles(players, options)

    def parse_options(self, text: str) -> dict[str, Any]:
        """Typed options (``first_dragon=blue``), checked, with the default seat 0 filled."""
        return schema.parse(self.options, text, self.title)

    def normalize_options(self, options: dict[str, Any]) -> dict[str, Any]:
        """Options already split into ``{key: value}``, checked against the same schema as
        :meth:`parse_options` (for hosts that split the typed text themselves)."""
        return setup.normalize(options)

    def setup(self, roles: list[str], options: dict[str, Any], rng: random.Random) -> State:
        """All Dwarves on Start, 44 coins in the Treasure, round 1 with the chosen Dragon."""
        return setup.setup(roles, options)

    def prompts(self, state: State) -> list[Prompt]:
        return prompts.prompts(state)

    def legal_actions(self, state: State, seat: int) -> list[Choice]:
        return prompts.legal_actions(state, seat)

    def apply(
        self, state: State, seat: int, action: str, rng: random.Random
    ) -> tuple[State, list[Event]]:
        """Nothing in the rules is left to chance; ``rng`` only draws the hand picks of a
        Dragon that left the game."""
        return actions.apply(state, seat, action, rng)

    def skip(self, state: State, seat: int, rng: random.Random) -> tuple[State, list[Event]]:
        """The pending secret is answered for the player (see the rules help)."""
        return timeouts.skip(state, seat, rng)

    def forfeit(
        self, state: State, seat: int, rng: random.Random, reason: ForfeitReason = "timeout"
    ) -> tuple[State, list[Event]]:
        """2 players: the other wins. 3-4 players: the seat leaves the game for good."""
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
        if seat is None:
            return views.public_view(state)
        return views.seat_view(state, seat)

    def observe(self, state: State, seat: int) -> Observed:
        """A copy with other seats' secrets and Chests replaced by ``"hidden"``."""
        return observe.observe(state, seat)

    def result(self, state: State) -> Result | None:
        return result(state)

    def turn(self, state: State) -> int:
        """The round (see :func:`rounds.round_number`)."""
        return rounds.round_number(state)

    def dump(self, state: State) -> dict[str, Any]:
        return dump(state)

    def load(self, data: dict[str, Any]) -> State:
        return load(data)

    def rules_help(self) -> str:
        return rules_help()


GAME = DragonsCave()
