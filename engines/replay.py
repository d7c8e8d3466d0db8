"""Replaying a game exactly from its seed and action log.

Chance comes only from the ``rng`` an engine is given. The host derives it from the game's
seed: :func:`setup_rng` for the set-up, :func:`action_rng` for the action logged as ``seq``
(its sequence number in the log, from 1). A timeout is logged as :data:`SKIP` or
:data:`FORFEIT` instead of an action and replays through the engine's ``skip`` or
``forfeit``; a forfeit for another reason is logged with it (``!forfeit resigned``,
``!forfeit left``, :func:`forfeit_marker`), and a bare ``!forfeit`` is a timeout. A draw
the players agreed is logged as :data:`DRAW` and replays through the
engine's ``agree_draw``. A takeback is logged as :data:`TAKEBACK` by the seat that asked
for it: it means "the state as it was before that seat's last action", so the entries it
undoes are passed over (:func:`in_effect`) while the log itself stays append-only. Every
entry keeps the chance of its own ``seq``, so :func:`replay` rebuilds any game exactly from
what is stored.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any, TypeVar

from engines.base import FORFEIT_REASONS, Event, ForfeitReason, Game

S = TypeVar("S")
"""The state type of the game replayed."""

SKIP = "!skip"
"""The logged action of a prompt that ran out of time and was skipped."""
FORFEIT = "!forfeit"
"""The logged action of a seat that gave up for good on a clock set to forfeit; followed by
the reason when it gave up for another (:func:`forfeit_marker`)."""
TIMEOUTS = (SKIP, FORFEIT)
DRAW = "!draw"
"""The logged entry of a draw by agreement (logged with the seat that offered it)."""
TAKEBACK = "!takeback"
"""The logged entry of a takeback: the seat's last action, and all after it, are undone."""
MARKERS = (SKIP, FORFEIT, DRAW, TAKEBACK)


def forfeit_marker(reason: ForfeitReason) -> str:
    """The logged action of a forfeit for ``reason``: ``!forfeit`` for a timeout (as every
    forfeit was logged before reasons were kept), else ``!forfeit resigned`` or
    ``!forfeit left``."""
    return FORFEIT if reason == "timeout" else f"{FORFEIT} {reason}"


def forfeit_reason(action: str) -> ForfeitReason | None:
    """The reason of a logged forfeit (:func:`forfeit_marker`), or None when ``action`` is
    not a forfeit this release knows."""
    if action == FORFEIT:
        return "timeout"
    head, _, rest = action.partition(" ")
    if head != FORFEIT:
        return None
    return next((reason for reason in FORFEIT_REASONS if reason == rest), None)


def is_marker(action: str) -> bool:
    """Whether a logged action is a marker (``!skip``, ``!forfeit ...``, ``!draw``,
    ``!takeback``, or one a later release adds) rather than a move in notation."""
    return action.startswith("!")


def setup_rng(seed: int | str) -> random.Random:
    """The chance source of a game's set-up."""
    return random.Random(f"{seed}:setup")


def action_rng(seed: int | str, seq: int) -> random.Random:
    """The chance source of the action logged as ``seq``: a replay rolls the same dice."""
    return random.Random(_action_key(seed, seq))


def _action_key(seed: int | str, seq: int) -> str:
    return f"{seed}:{seq}"


def start(game: Game[S], roles: list[str], options: dict[str, Any], seed: int | str) -> S:
    """A new game for these seats and options, set up with the seed's chance."""
    return game.setup(list(roles), options, setup_rng(seed))


def step(
    game: Game[S], state: S, seat: int, action: str, rng: random.Random
) -> tuple[S, list[Event]]:
    """One logged entry applied: an action, or a timeout marker through ``skip``/``forfeit``."""
    if action == SKIP:
        return game.skip(state, seat, rng)
    if (reason := forfeit_reason(action)) is not None:
        return game.forfeit(state, seat, rng, reason)
    if action == DRAW:
        return game.agree_draw(state)
    if action == TAKEBACK:
        raise ValueError("a takeback is replayed by replay() or in_effect(), not by step()")
    return game.apply(state, seat, action, rng)


Entry = tuple[int, int, str]
"""A logged ``(seq, seat, action)``."""


def in_effect(actions: Iterable[Entry]) -> list[Entry]:
    """The logged entries still in effect: each :data:`TAKEBACK` removes its seat's last
    action in effect (an entry that is not a marker) and every entry after it, and is left
    out itself. A takeback with nothing of its seat's to undo removes nothing."""
    kept: list[Entry] = []
    for entry in actions:
        _seq, seat, action = entry
        if action != TAKEBACK:
            kept.append(entry)
            continue
        index = last_action(kept, seat)
        if index is not None:
            del kept[index:]
    return kept


def last_action(entries: list[Entry], seat: int) -> int | None:
    """The index in ``entries`` of ``seat``'s last action (not a marker), or None."""
    for index in range(len(entries) - 1, -1, -1):
        _seq, who, action = entries[index]
        if who == seat and not is_marker(action):
            return index
    return None


class WatchedRandom(random.Random):
    """A ``random.Random`` that remembers whether anything was drawn from it (``used``).

    It draws exactly the numbers a plain ``random.Random`` with the same seed draws: every
    draw goes through ``random`` or ``getrandbits``, and both are only watched."""

    used = False

    def random(self) -> float:
        self.used = True
        return super().random()

    def getrandbits(self, k: int) -> int:
        self.used = True
        return super().getrandbits(k)


class NoTakeback(ValueError):
    """Why a seat's last action cannot be taken back; ``str(error)`` says it to the player."""


def takeback(
    game: Game[S],
    roles: list[str],
    options: dict[str, Any],
    seed: int | str,
    actions: Iterable[Entry],
    seat: int,
) -> S:
    """The state a :data:`TAKEBACK` by ``seat`` appended to ``actions`` would leave: the
    game as it was before ``seat``'s last action in effect.

    Raises :class:`NoTakeback` when the seat has no action in effect, or when that action
    or any entry after it revealed something: drew on chance (a die rolled, a tile drawn;
    seen by watching the rng) or showed a hidden thing (the engine's ``revealed``).
    """
    kept = in_effect(actions)
    index = last_action(kept, seat)
    if index is None:
        raise NoTakeback("You have no move in this game that could be taken back.")
    state = start(game, roles, options, seed)
    for seq, who, action in kept[:index]:
        state, _events = step(game, state, who, action, action_rng(seed, seq))
    before = state
    for seq, who, action in kept[index:]:
        rng = WatchedRandom(_action_key(seed, seq))
        after, _events = step(game, state, who, action, rng)
        if rng.used:
            raise NoTakeback(
                "Chance was used since your last move (a die rolled, a tile or a card "
                "drawn), so it can no longer be taken back."
            )
        if game.revealed(state, after):
            raise NoTakeback(
                "Something hidden was shown since your last move, so it can no longer be "
                "taken back."
            )
        state = after
    return before


def replay(
    game: Game[S],
    roles: list[str],
    options: dict[str, Any],
    seed: int | str,
    actions: Iterable[tuple[int, int, str]],
) -> S:
    """The state after the logged ``(seq, seat, action)`` entries, from a fresh set-up.

    ``options`` are the game's checked options (as :meth:`Game.parse_options` returns
    them); ``roles`` the role keys of the seats, in seat order. Entries undone by a
    takeback are passed over (:func:`in_effect`).
    """
    state = start(game, roles, options, seed)
    for seq, seat, action in in_effect(actions):
        state, _events = step(game, state, seat, action, action_rng(seed, seq))
    return state
