"""Whose turn it is and what part of it: the magician's days, then each King's man's.

'Players always take their turns in this order: Aurric, Merridyds, Old Kyvin, and Galen.'
'In each of your turns, your magician can spend up to 3 days, and then each of your King's
men can spend up to 3 days.' Every function here changes ``state`` in place (the caller
works on its own copy) and appends what happened to ``events``.
"""

from __future__ import annotations

from engines.base import Event
from engines.dragonslayer.model import CASTLE, load_urland
from engines.dragonslayer.state import (
    DAYS,
    GAIN_DAY,
    KingsMen,
    State,
    in_game,
    kings_man_name,
    magician_name,
    place_of,
)

TURN_NAME = "turn"


def turn_number(state: State) -> int:
    """The turn ``state`` is in, from 1: a turn is one round of every magician still
    playing, in turn order, each with its King's men after it (the setting up belongs to
    turn 1). A finished game stays on the turn it ended in."""
    return int(state["turn"])


def begin_turn(state: State, seat: int, events: list[Event]) -> None:
    """``seat`` starts a turn: idle King's men sit it out, a magician with a lost turn loses it
    (or, held in a castle with a Gain One Day tile, may use it to escape)."""
    state["seat"] = seat
    state["rest"] = False
    state["active"] = None
    state["finished"] = []
    state["days"] = 0
    for km in state["kings_men"]:
        if km["seat"] == seat and km["lost"] > 0:
            km["lost"] -= 1
            state["finished"].append(km["key"])
            events.append(Event(f"{kings_man_name(km)} lose this turn."))
    magician = state["magicians"][seat]
    if magician["lost"] > 0:
        if in_castle(state, seat) and GAIN_DAY in state["parties"][seat]["kept"]:
            state["phase"] = "magician"
            state["pending"].append({"kind": "escape", "seat": seat})
            return
        lose_turn(state, seat, events)
        begin_kings_men(state, events)
        return
    state["phase"] = "magician"
    state["days"] = DAYS


def lose_turn(state: State, seat: int, events: list[Event]) -> None:
    """``seat``'s magician sits out the turn it owed."""
    magician = state["magicians"][seat]
    magician["lost"] -= 1
    magician["delayed"] = False
    events.append(Event(f"{magician_name(state, seat)} loses this turn."))


def in_castle(state: State, seat: int) -> bool:
    place = place_of(state["magicians"][seat]["where"])
    return place is not None and load_urland().places[place].kind == CASTLE


def begin_kings_men(state: State, events: list[Event]) -> None:
    """The magician's days are over: the King's men move, or the turn ends if none can."""
    state["phase"] = "kings_men"
    state["days"] = 0
    state["active"] = None
    if not movable_kings_men(state):
        end_turn(state, events)


def movable_kings_men(state: State) -> list[KingsMen]:
    """The current seat's King's men that may still start moving this turn."""
    return [
        km
        for km in state["kings_men"]
        if km["seat"] == state["seat"] and km["at"] and km["key"] not in state["finished"]
    ]


def finish_active(state: State, events: list[Event]) -> None:
    """The moving King's man is done; the turn ends when no other can move."""
    if state["active"] is not None:
        state["finished"].append(state["active"])
    state["active"] = None
    state["days"] = 0
    if not movable_kings_men(state):
        end_turn(state, events)


def end_turn(state: State, events: list[Event]) -> None:
    """The turn passes to the next magician still playing (a new round after the last)."""
    playing = in_game(state)
    if not playing:
        return
    later = [seat for seat in playing if seat > state["seat"]]
    if later:
        nxt = later[0]
    else:
        nxt = playing[0]
        state["turn"] += 1
    begin_turn(state, nxt, events)


def settle(state: State, events: list[Event]) -> None:
    """Move play on once nothing is pending: a magician out of days (and of Gain One Day
    tiles, or who lost the rest of the turn) hands over to the King's men; a King's man out
    of days stops."""
    if state["pending"] or state["phase"] in ("over", "place"):
        return
    seat = state["seat"]
    if state["magicians"][seat]["out"]:
        end_turn(state, events)
        return
    if state["phase"] == "magician" and state["days"] == 0:
        # A magician who lost the rest of this turn (Delayed, Captured) cannot gain a day.
        lost = state["magicians"][seat]["lost"] > 0
        if lost or state["rest"] or GAIN_DAY not in state["parties"][seat]["kept"]:
            begin_kings_men(state, events)
    elif state["phase"] == "kings_men":
        if state["active"] is not None and state["days"] == 0:
            finish_active(state, events)
        elif state["active"] is None and not movable_kings_men(state):
            end_turn(state, events)
