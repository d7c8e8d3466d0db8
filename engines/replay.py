"""Replaying a game exactly from its seed and action log.

Chance comes only from the ``rng`` an engine is given. The host derives it from the game's
seed: :func:`setup_rng` for the set-up, :func:`action_rng` for the action logged as ``seq``
(its sequence number in the log, from 1). A timeout is logged as :data:`SKIP` or
:data:`FORFEIT` instead of an action and replays through the engine's ``skip`` or
``forfeit``. So :func:`replay` rebuilds any game from what is stored.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

from engines.base import Event, Game, State

SKIP = "!skip"
"""The logged action of a prompt that ran out of time and was skipped."""
FORFEIT = "!forfeit"
"""The logged action of a seat that gave up for good (a timeout set to forfeit, or leaving)."""
TIMEOUTS = (SKIP, FORFEIT)


def setup_rng(seed: int | str) -> random.Random:
    """The chance source of a game's set-up."""
    return random.Random(f"{seed}:setup")


def action_rng(seed: int | str, seq: int) -> random.Random:
    """The chance source of the action logged as ``seq``: a replay rolls the same dice."""
    return random.Random(f"{seed}:{seq}")


def start(game: Game, roles: list[str], options: dict[str, Any], seed: int | str) -> State:
    """A new game for these seats and options, set up with the seed's chance."""
    return game.setup(list(roles), options, setup_rng(seed))


def step(
    game: Game, state: State, seat: int, action: str, rng: random.Random
) -> tuple[State, list[Event]]:
    """One logged entry applied: an action, or a timeout marker through ``skip``/``forfeit``."""
    if action == SKIP:
        return game.skip(state, seat, rng)
    if action == FORFEIT:
        return game.forfeit(state, seat, rng)
    return game.apply(state, seat, action, rng)


def replay(
    game: Game,
    roles: list[str],
    options: dict[str, Any],
    seed: int | str,
    actions: Iterable[tuple[int, int, str]],
) -> State:
    """The state after the logged ``(seq, seat, action)`` entries, from a fresh set-up.

    ``options`` are the game's checked options (as :meth:`Game.parse_options` returns
    them); ``roles`` the role keys of the seats, in seat order.
    """
    state = start(game, roles, options, seed)
    for seq, seat, action in actions:
        state, _events = step(game, state, seat, action, action_rng(seed, seq))
    return state
