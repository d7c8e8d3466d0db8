"""When a turn runs out of time: the side passes (``skip``) or gives up (``forfeit``)."""

from __future__ import annotations

import random
from typing import Any

from engines.base import Event, ForfeitReason, IllegalAction, Termination
from engines.clone import clone
from engines.lions_dragons import fireballs, rules
from engines.lions_dragons.pieces import other
from engines.lions_dragons.state import Last, Outcome, State, check_turn


def skip(state: State, seat: int, rng: random.Random) -> tuple[State, list[Event]]:
    """The side to move passes. The Fireball phase that follows every turn still runs,
    then the other side is to move. The pass itself is not progress for the quiet-ply cap
    (a Fireball hit in that phase is) and its position counts for repetition like any
    other. The rng is not used: nothing is left to chance.
    """
    side = check_turn(state, seat)
    new = clone(state)
    text = f"{side.capitalize()} ran out of time: the turn passes without a move."
    events = [Event(text, data={"side": side, "seat": seat, "skipped": True})]
    flights = rules.fireball_phase(new)
    events.extend(Event(f["text"], data={"fireball": f}) for f in flights)
    progress = any(f["outcome"] in fireballs.PROGRESS_OUTCOMES for f in flights)
    rules.end_of_turn(new, progress)
    new["last"] = _lapse(seat, side, "skip", text, flights)
    if new["result"] is not None:
        events.append(Event(new["result"]["text"], data={"result": dict(new["result"])}))
    return new, events


FORFEITS: dict[ForfeitReason, tuple[str, str]] = {
    "timeout": ("{side} ran out of time and forfeits the game.", "{side} forfeited on time"),
    "resigned": ("{side} resigns.", "{side} resigned"),
    "left": ("{side} has left the game and so forfeits it.", "{side} left the game"),
}
"""How a forfeit is told, per reason: the event, and why the result came."""


def forfeit(
    state: State, seat: int, rng: random.Random, reason: ForfeitReason = "timeout"
) -> tuple[State, list[Event]]:
    """The side gives up for ``reason`` (its time ran out, it resigned, its player left):
    the other side wins at once (reason ``"forfeit"``), told as what it was. Either side
    may give up, on its turn or not. The board is left as it stands and no Fireball flies.
    The rng is not used.
    """
    if state["result"] is not None:
        raise IllegalAction(f"The game is over. {state['result']['text']}")
    side = state["seats"][seat]
    winner = other(side)
    new = clone(state)
    told, why = FORFEITS[reason]
    text = told.format(side=side.capitalize())
    outcome: Outcome = {
        "winner": winner,
        "reason": "forfeit",
        "how": Termination.of_forfeit(reason).value,
        "text": f"{winner.capitalize()} wins: {why.format(side=side.capitalize())}.",
    }
    new["result"] = outcome
    new["last"] = _lapse(seat, side, "forfeit", text, [])
    events = [
        Event(text, data={"side": side, "seat": seat, "forfeit": True, "reason": reason}),
        Event(outcome["text"], data={"result": dict(outcome)}),
    ]
    return new, events


def _lapse(seat: int, side: str, kind: str, text: str, flights: list[dict[str, Any]]) -> Last:
    """The ``last`` record of a turn lost to the clock: no piece moved, nothing taken."""
    return {
        "seat": seat,
        "side": side,
        "action": None,
        "kind": kind,
        "from": None,
        "to": None,
        "captured": [],
        "shot": None,
        "fireballs": flights,
        "text": text,
    }
