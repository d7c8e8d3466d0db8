"""The state of a game of Lions and Dragons Chess: a JSON-ready dict, and its snapshot.

Keys: ``seats`` (role key per seat), ``options``, ``lions`` (non-hex cells), ``goals`` (each
side's own goal cell), ``pieces`` (cell -> piece dict), ``reserves`` (Proto-Dragons in
hand), ``to_move``, ``ply``, ``quiet`` (plies since the last progress), ``seen`` (position
key -> times seen since the last progress), ``last`` (the last action, see
:mod:`engines.lions_dragons.views`), ``result`` (``None`` or ``{"winner", "reason",
"text"}``) and ``setup`` (how the Lions were chosen).

A turn lost to the clock only fills ``last`` (``kind`` ``"skip"`` or ``"forfeit"``, no
``action``) and ``result``: no extra keys.
"""

from __future__ import annotations

from typing import Any, NotRequired, TypedDict, TypeGuard

from engines.base import IllegalAction, Result, Termination, termination
from engines.clone import clone
from engines.lions_dragons.pieces import Piece
from engines.snapshot import check_format


class Outcome(TypedDict):
    """How the game ended: the winning side (``None`` for a draw), why, and in words."""

    winner: str | None
    reason: str
    text: str
    how: NotRequired[str]
    """How it ended (a :class:`~engines.base.Termination` value); absent in snapshots kept
    before it was recorded."""


class LionSetup(TypedDict):
    """How the Lions were chosen: ``lions`` (``symmetric``, ``random`` or ``given``), the
    random draws it took and the cells chosen."""

    lions: str
    draws: int
    chosen: list[str]


Last = TypedDict(
    "Last",
    {
        "seat": int,
        "side": str,
        "action": str | None,
        "kind": str,
        "from": str | None,
        "to": str | None,
        "captured": list[Piece],
        "shot": dict[str, Any] | None,
        "fireballs": list[dict[str, Any]],
        "text": str,
    },
)
"""The last action: who, what (``kind`` ``move``, ``drop`` or ``fire``; ``skip`` or
``forfeit`` for a turn lost to the clock), what it took, its Fireball flights, in words."""


class State(TypedDict):
    """A game of Lions and Dragons Chess (see the module's description of each key)."""

    seats: list[str]
    options: dict[str, Any]
    lions: list[str]
    goals: dict[str, str]
    pieces: dict[str, Piece]
    reserves: dict[str, int]
    to_move: str
    ply: int
    quiet: int
    seen: dict[str, int]
    last: Last | None
    result: Outcome | None
    setup: LionSetup


FORMAT = 1
"""The snapshot format :func:`dump` writes; snapshots stored without one are format 1."""

KEYS = State.__required_keys__


def dump(state: State) -> dict[str, Any]:
    """The state as JSON-ready data, with its ``format``."""
    return {"format": FORMAT, **clone(state)}


def load(data: dict[str, Any]) -> State:
    """The state :func:`dump` wrote. Raises ``ValueError`` (``UnknownFormat`` for an
    unknown or newer format) for anything else."""
    check_format(data, FORMAT, "Lions and Dragons", missing=1)
    state = {key: clone(value) for key, value in data.items() if key != "format"}
    if not _has_every_key(state):
        raise ValueError(f"Not a Lions and Dragons state: missing {sorted(KEYS - set(data))}")
    return state


def _has_every_key(data: dict[str, Any]) -> TypeGuard[State]:
    return set(data) >= KEYS


def seat_of(state: State, side: str) -> int:
    """The seat playing ``side``."""
    return state["seats"].index(side)


def result(state: State) -> Result | None:
    """The winner (none for a draw) and the ending in words once the game is over."""
    outcome = state["result"]
    if outcome is None:
        return None
    winners = () if outcome["winner"] is None else (seat_of(state, outcome["winner"]),)
    return Result(winners=winners, text=outcome["text"], how=_how(outcome))


_LEGACY_HOW = {"agreement": Termination.AGREED, "forfeit": Termination.FORFEIT}


def _how(outcome: Outcome) -> Termination:
    """How the game ended; for a snapshot kept before that was recorded, read from its
    reason (a forfeit's own reason was not kept then)."""
    legacy = _LEGACY_HOW.get(outcome["reason"], Termination.RULES)
    return termination(outcome.get("how"), legacy)


def check_turn(state: State, seat: int) -> str:
    """The side of ``seat`` if it is to act now, else :class:`IllegalAction`."""
    if state["result"] is not None:
        raise IllegalAction(f"The game is over. {state['result']['text']}")
    side = state["seats"][seat]
    if side != state["to_move"]:
        raise IllegalAction(f"It is {state['to_move'].capitalize()}'s turn; please wait.")
    return side
