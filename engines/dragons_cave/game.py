"""Dragon's Cave (2-4 players): the engine object the host plays through."""

from __future__ import annotations

import copy
import random
from typing import Any

from engines import register
from engines.base import BadOptions, Choice, Event, Prompt, Result, Role
from engines.dragons_cave import actions, observe, prompts, timeouts, views
from engines.dragons_cave.board import load_board
from engines.dragons_cave.help import rules_help
from engines.dragons_cave.state import State, new_state

COLOURS = ("red", "blue", "green", "yellow")
"""Role keys in seat order; the next seat is the player "on the left"."""


class DragonsCave:
    """Secret cards against the Dragon's guess; the richest Dwarf wins."""

    slug = "dragons-cave"
    title = "Dragon's Cave"
    min_players = 2
    max_players = 4

    def roles(self, players: int, options: dict[str, Any]) -> list[Role]:
        """``red``, ``blue``, then ``green`` and ``yellow``; with 2 players each has 2 Dwarves."""
        if not self.min_players <= players <= self.max_players:
            raise BadOptions("Dragon's Cave is for 2 to 4 players.")
        first = _first_dragon(self, options)
        if first >= players:
            raise BadOptions(
                f"first_dragon must be a seat from 0 to {players - 1} "
                f"({', '.join(COLOURS[:players])})."
            )
        return [Role(key, key.capitalize()) for key in COLOURS[:players]]

    def normalize_options(self, options: dict[str, str]) -> dict[str, Any]:
        """Only ``first_dragon``: the seat (number or colour) playing the Dragon first."""
        unknown = sorted(set(options) - {"first_dragon"})
        if unknown:
            raise BadOptions(
                f"Unknown option(s) {', '.join(unknown)}; Dragon's Cave knows only "
                "first_dragon=<seat number or colour> (who plays the Dragon first)."
            )
        raw = str(options.get("first_dragon", "0")).strip().lower()
        if raw in COLOURS:
            return {"first_dragon": COLOURS.index(raw)}
        if raw.isdecimal() and int(raw) < len(COLOURS):
            return {"first_dragon": int(raw)}
        raise BadOptions(
            f"first_dragon={raw!r}: give a seat number (0 is the first seat) or a colour "
            f"({', '.join(COLOURS)})."
        )

    def setup(self, roles: list[str], options: dict[str, Any], rng: random.Random) -> State:
        """All Dwarves on Start, 44 coins in the Treasure, round 1 with the chosen Dragon."""
        expected = [role.key for role in self.roles(len(roles), options)]
        if list(roles) != expected:
            raise BadOptions(f"Dragon's Cave seats are {', '.join(expected)}, in that order.")
        names = [role.capitalize() for role in roles]
        first = _first_dragon(self, options)
        return new_state(list(roles), names, load_board(), first)

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

    def forfeit(self, state: State, seat: int, rng: random.Random) -> tuple[State, list[Event]]:
        """2 players: the other wins. 3-4 players: the seat leaves the game for good."""
        return timeouts.forfeit(state, seat, rng)

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        if seat is None:
            return views.public_view(state)
        return views.seat_view(state, seat)

    def observe(self, state: State, seat: int) -> State:
        """A copy with other seats' secrets and Chests replaced by ``"hidden"``."""
        return observe.observe(state, seat)

    def result(self, state: State) -> Result | None:
        outcome = state["outcome"]
        if outcome is None:
            return None
        return Result(winners=tuple(outcome["winners"]), text=outcome["text"])

    def dump(self, state: State) -> dict[str, Any]:
        return copy.deepcopy(state)

    def load(self, data: dict[str, Any]) -> State:
        state = copy.deepcopy(data)
        state.setdefault("departed", [])  # snapshots stored before seats could leave
        return state

    def rules_help(self) -> str:
        return rules_help()


def _first_dragon(game: DragonsCave, options: dict[str, Any]) -> int:
    """The first Dragon's seat from (raw or normalised) options; other keys are ignored."""
    raw = {"first_dragon": str(options.get("first_dragon", 0))}
    return game.normalize_options(raw)["first_dragon"]


GAME = register(DragonsCave())
