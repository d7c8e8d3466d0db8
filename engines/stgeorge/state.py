"""The game state and its JSON form."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engines.base import Result, Termination, termination
from engines.clone import clone
from engines.snapshot import check_format

FORMAT = 1
"""The snapshot format :func:`dump` writes."""


@dataclass
class State:
    """Everything about a game in progress or finished.

    ``pieces`` maps each occupied point to its owner: a castle key (a Knight of that castle)
    or ``"dragon"``. ``taken`` and ``scored`` count, per castle in play, the Knights the
    Dragon has captured and the Knights that reached the Lair. ``phase`` is ``"roll"``,
    ``"move"`` (``roll`` holds the die the seat ``to_move`` must now move by) or ``"over"``.
    ``roll``/``roll_seat`` are the last roll and who made it; ``passed`` says that roll had no
    legal move. ``last`` is the last move made: ``seat``, ``from``, ``to``, ``path`` (every
    point passed, both ends included), ``captured`` (castle of the Knight taken, or None),
    ``scored`` (a Knight reached the Lair) and ``roll``; None before the first move.
    ``turn`` counts rounds from 1, a round being one turn of every seat in order.
    ``winners`` and ``result_text`` are set when the game ends (no winners: a draw).
    ``departed`` lists the seats that forfeited, in the order they left: their castles are out
    of play and their turns are passed over. ``timed_out`` is the last seat that ran out of
    time or gave up since the last roll: ``seat``, ``forfeit`` (bool) and, for a forfeit,
    ``reason`` (``engines.base.ForfeitReason``; absent in older snapshots: a timeout), or
    None. Snapshots stored before these two fields existed load with ``[]`` and None.
    """

    roles: list[str]
    pieces: dict[str, str]
    taken: dict[str, int]
    scored: dict[str, int]
    to_move: int
    phase: str
    roll: int | None
    roll_seat: int | None
    passed: bool
    last: dict[str, Any] | None
    turn: int
    winners: list[int] | None
    result_text: str | None
    departed: list[int] = field(default_factory=list)
    timed_out: dict[str, Any] | None = None
    ended_by: str | None = None
    """How the game ended (a :class:`~engines.base.Termination` value) once it is over;
    None in snapshots kept before it was recorded."""

    @property
    def die(self) -> int:
        """The roll the seat ``to_move`` must now move by (the ``move`` phase has one)."""
        if self.roll is None:
            raise ValueError("the die has not been rolled this turn")
        return self.roll

    def copy(self) -> State:
        """A deep copy, so a new state never shares mutable parts with this one."""
        return clone(self)


def dump(state: State) -> dict[str, Any]:
    """The state as JSON-ready data."""
    return {"format": FORMAT, **clone(vars(state))}


def load(data: dict[str, Any]) -> State:
    """The state :func:`dump` produced. Raises ``ValueError`` (``UnknownFormat``) for an
    unknown or newer format."""
    check_format(data, FORMAT, "St. George")
    fields = {key: clone(value) for key, value in data.items() if key != "format"}
    return State(**fields)


def result(state: State) -> Result | None:
    """Winners (none for a draw) and the reason, once the game is over."""
    if state.phase != "over":
        return None
    return Result(winners=tuple(state.winners or ()), text=state.result_text or "", how=_how(state))


def _how(state: State) -> Termination:
    """How the game ended; for a snapshot kept before that was recorded, a forfeit since
    the last roll ended it, else the rules did."""
    if state.ended_by is not None:
        return termination(state.ended_by)
    gave_up = state.timed_out
    if gave_up is not None and gave_up.get("forfeit"):
        return termination(gave_up.get("reason", "timeout"))
    return Termination.RULES
