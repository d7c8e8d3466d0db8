"""Endings the players agree on: Lions and Dragons Chess has a draw by agreement, as chess
has, and hides nothing.

The rule text is silent on agreed draws; it is a chess variant with drawn endings of its
own (the quiet-ply cap, repetition), and chess players expect to agree one. Nothing is
hidden and nothing is left to chance after the set-up, so any move can be taken back.
"""

from __future__ import annotations

from engines.base import Event, IllegalAction, Termination
from engines.clone import clone
from engines.lions_dragons.state import Outcome, State

DRAWN = "Drawn by agreement: White and Black agreed to a draw."


def draw_by_agreement(state: State) -> bool:
    """While the game runs."""
    return state["result"] is None


def agree_draw(state: State) -> tuple[State, list[Event]]:
    """The game ends drawn (reason ``"agreement"``); the board stays as it stands."""
    if state["result"] is not None:
        raise IllegalAction(f"The game is over. {state['result']['text']}")
    new = clone(state)
    outcome: Outcome = {
        "winner": None,
        "reason": "agreement",
        "text": DRAWN,
        "how": Termination.AGREED.value,
    }
    new["result"] = outcome
    return new, [Event(DRAWN, data={"result": dict(outcome)})]


def revealed(before: State, after: State) -> bool:
    """Never: every seat sees the whole board."""
    return False
