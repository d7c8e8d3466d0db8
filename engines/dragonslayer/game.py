"""Dragonslayer (2-4 players): the engine object the host plays through."""

from __future__ import annotations

import random
from typing import Any

from engines import options as schema
from engines.base import Choice, Event, ForfeitReason, Prompt, Result, Role
from engines.dragonslayer import (
    actions,
    endings,
    flow,
    observe,
    prompts,
    setup,
    timeouts,
    views,
)
from engines.dragonslayer.help import rules_help
from engines.dragonslayer.setup import DEFAULT_MAGICIANS
from engines.dragonslayer.state import State, dump, load, result

__all__ = ["DEFAULT_MAGICIANS", "GAME", "Dragonslayer"]


class Dragonslayer:
    """Magicians gather parties in Urland, dodging each other's King's men."""

    slug = "dragonslayer"
    title = setup.TITLE
    min_players = setup.MIN_PLAYERS
    max_players = setup.MAX_PLAYERS
    options = setup.OPTIONS
    turn_name = flow.TURN_NAME

    def roles(self, players: int, options: dict[str, Any]) -> list[Role]:
        """The chosen magicians in turn order (Aurric, Merridyds, Old Kyvin, Galen)."""
        return setup.roles(players, options)

    def parse_options(self, text: str) -> dict[str, Any]:
        """Typed options (``magicians=merridyds,galen``), checked; no ``magicians`` key
        when the table does not choose (the default then follows the table size)."""
        return schema.parse(self.options, text, self.title)

    def normalize_options(self, options: dict[str, Any]) -> dict[str, Any]:
        """Options already split into ``{key: value}``, checked against the same schema as
        :meth:`parse_options` (for hosts that split the typed text themselves)."""
        return setup.normalize(options)

    def setup(self, roles: list[str], options: dict[str, Any], rng: random.Random) -> State:
        """Magicians in their abodes, tiles dealt face down; King's men are placed first."""
        return setup.setup(roles, options, rng)

    def prompts(self, state: State) -> list[Prompt]:
        return prompts.prompts(state)

    def legal_actions(self, state: State, seat: int) -> list[Choice]:
        return prompts.legal_actions(state, seat)

    def apply(
        self, state: State, seat: int, action: str, rng: random.Random
    ) -> tuple[State, list[Event]]:
        """Chance: the Dragon Location tile drawn by `draw` in the Lair (told in an event)."""
        return actions.apply(state, seat, action, rng)

    def skip(self, state: State, seat: int, rng: random.Random) -> tuple[State, list[Event]]:
        return timeouts.skip(state, seat, rng)

    def forfeit(
        self, state: State, seat: int, rng: random.Random, reason: ForfeitReason = "timeout"
    ) -> tuple[State, list[Event]]:
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

    def observe(self, state: State, seat: int) -> State:
        """Face-down tiles, set-aside tiles and unrevealed King's men strengths hidden."""
        return observe.observe(state, seat)

    def result(self, state: State) -> Result | None:
        return result(state)

    def turn(self, state: State) -> int:
        """A round of every magician (see :func:`flow.turn_number`)."""
        return flow.turn_number(state)

    def dump(self, state: State) -> dict[str, Any]:
        return dump(state)

    def load(self, data: dict[str, Any]) -> State:
        return load(data)

    def rules_help(self) -> str:
        return rules_help()


GAME = Dragonslayer()
