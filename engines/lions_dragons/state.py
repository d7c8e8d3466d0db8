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

from typing import Any

from engines.base import IllegalAction, Result
from engines.clone import clone
from engines.snapshot import check_format

State = dict[str, Any]

FORMAT = 1
"""The snapshot format :func:`dump` writes; snapshots stored without one are format 1."""

KEYS = frozenset(
    {
        "seats",
        "options",
        "lions",
        "goals",
        "pieces",
        "reserves",
        "to_move",
        "ply",
        "quiet",
        "seen",
        "last",
        "result",
        "setup",
    }
)


def dump(state: State) -> dict[str, Any]:
    """The state as JSON-ready data, with its ``format``."""
    return {"format": FORMAT, **clone(state)}


def load(data: dict[str, Any]) -> State:
    """The state :func:`dump` wrote. Raises ``ValueError`` (``UnknownFormat`` for an
    unknown or newer format) for anything else."""
    check_format(data, FORMAT, "Lions and Dragons", missing=1)
    missing = KEYS - set(data)
    if missing:
        raise ValueError(f"Not a Lions and Dragons state: missing {sorted(missing)}")
    return {key: clone(value) for key, value in data.items() if key != "format"}


def seat_of(state: State, side: str) -> int:
    """The seat playing ``side``."""
    return state["seats"].index(side)


def result(state: State) -> Result | None:
    """The winner (none for a draw) and the ending in words once the game is over."""
    outcome = state["result"]
    if outcome is None:
        return None
    winners = () if outcome["winner"] is None else (seat_of(state, outcome["winner"]),)
    return Result(winners=winners, text=outcome["text"])


def check_turn(state: State, seat: int) -> str:
    """The side of ``seat`` if it is to act now, else :class:`IllegalAction`."""
    if state["result"] is not None:
        raise IllegalAction(f"The game is over. {state['result']['text']}")
    side = state["seats"][seat]
    if side != state["to_move"]:
        raise IllegalAction(f"It is {state['to_move'].capitalize()}'s turn; please wait.")
    return side
