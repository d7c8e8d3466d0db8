"""Applying an action: a pending decision's answer, or the current seat's next step.

Text that is not notation (:func:`notation.read` refuses it) is refused with
:class:`UnreadableAction`; its message is the hint the position gives (what this decision
or phase takes), else the notation's own."""

from __future__ import annotations

import random

from engines.base import Event, IllegalAction, UnreadableAction, unreadable
from engines.clone import clone
from engines.dragonslayer import challenges, decisions, fight, flow, losses, taking
from engines.dragonslayer.model import load_urland
from engines.dragonslayer.moves import is_lair, magician_steps
from engines.dragonslayer.notation import key_of, match, read, split
from engines.dragonslayer.state import (
    GAIN_DAY,
    KingsMen,
    State,
    in_game,
    kings_man_name,
    magician_name,
    name,
    standing,
    where_words,
)
from engines.options import clip


def apply(state: State, seat: int, action: str, rng: random.Random) -> tuple[State, list[Event]]:
    """The state after ``seat`` plays ``action`` (a new copy), and what happened.

    Raises UnreadableAction if ``action`` is not notation at all, IllegalAction if the
    rules do not allow it now.
    """
    try:
        read(action)
    except UnreadableAction as error:
        raise unreadable(error, lambda: _apply(state, seat, action, rng)) from None
    return _apply(state, seat, action, rng)


def _apply(state: State, seat: int, action: str, rng: random.Random) -> tuple[State, list[Event]]:
    """The rules' answer to ``action``, read or not (an unreadable one gets the refusal
    this position gives it)."""
    if state["outcome"] is not None:
        raise IllegalAction("The game is over.")
    state = clone(state)
    events: list[Event] = []
    verb, rest = split(action)
    if state["pending"]:
        decision = state["pending"][0]
        if decision["seat"] != seat:
            who = magician_name(state, decision["seat"])
            raise IllegalAction(f"Waiting for {who} to decide first.")
        decisions.resolve(state, verb, rest, events, rng)
    elif seat != state["seat"]:
        raise IllegalAction(f"It is {magician_name(state, state['seat'])}'s turn.")
    else:
        _PHASES[state["phase"]](state, seat, verb, rest, events, rng)
    after(state, events)
    return state, events


def after(state: State, events: list[Event]) -> None:
    """Drop what parties can no longer carry, then move play on."""
    for seat in in_game(state):
        if not any(d["seat"] == seat for d in state["pending"]):
            losses.check_limits(state, seat, events)
    current = state["fight"]
    if current and current["stage"] == "over" and not state["pending"]:
        fight.aftermath(state, events)
    if state["outcome"] is None:
        flow.settle(state, events)


def _place(
    state: State, seat: int, verb: str, rest: str, events: list[Event], rng: random.Random
) -> None:
    """'Place each of your King's men tiles face-down in a castle on the map.'"""
    castles = [(p.key, p.name) for p in load_urland().of_kind("castle")]
    castle = match(rest, castles) if verb == "place" else None
    if castle is None:
        raise IllegalAction(
            "Place your King's men in a castle: " + ", ".join(f"`place {k}`" for k, _ in castles)
        )
    km = unplaced(state, seat)[0]
    state["arrivals"] += 1
    km["at"] = castle
    km["arrived"] = state["arrivals"]
    state["last"] = {"text": f"{kings_man_name(km)} placed", "path": [castle]}
    events.append(Event(f"{kings_man_name(km)} take up post at {dict(castles)[castle]}."))
    if unplaced(state, seat):
        return
    waiting = [s for s in in_game(state) if unplaced(state, s)]
    if waiting:
        state["seat"] = waiting[0]
    else:
        flow.begin_turn(state, in_game(state)[0], events)


def unplaced(state: State, seat: int) -> list[KingsMen]:
    return [km for km in state["kings_men"] if km["seat"] == seat and km["at"] is None]


def _magician(
    state: State, seat: int, verb: str, rest: str, events: list[Event], rng: random.Random
) -> None:
    if verb == "go":
        _go(state, seat, rest, events, rng)
    elif verb == "take":
        taking.take(state, seat, key_of(rest), events)
    elif verb == "gain":
        kept = state["parties"][seat]["kept"]
        if GAIN_DAY not in kept:
            raise IllegalAction(f"You hold no {name(GAIN_DAY)} tile.")
        if state["rest"]:
            raise IllegalAction("Your magician stays in Morgenthorme for the rest of this turn.")
        kept.remove(GAIN_DAY)
        state["removed"].append(GAIN_DAY)
        state["days"] += 1
        events.append(Event(f"{magician_name(state, seat)} uses {name(GAIN_DAY)}: one more day."))
    elif verb == "done":
        events.append(Event(f"{magician_name(state, seat)} rests; the King's men move."))
        flow.begin_kings_men(state, events)
    else:
        raise IllegalAction(
            "Your magician can `go <place or sea>`, `take <slot>`, `gain` (use a Gain One Day "
            "tile) or be `done` for this turn."
        )


def _go(state: State, seat: int, rest: str, events: list[Event], rng: random.Random) -> None:
    steps = magician_steps(state, seat)
    named = [(s.key, _step_name(s.to)) for s in steps]
    wanted = match(rest, named)
    if wanted is None:
        options = ", ".join(f"`go {k}`" for k, _ in named)
        raise IllegalAction(f"From {where_words(state['magicians'][seat]['where'])}: {options}.")
    step = next(s for s in steps if s.key == wanted)
    if step.days > state["days"]:
        hint = " (use `gain` first)" if GAIN_DAY in state["parties"][seat]["kept"] else ""
        raise IllegalAction(
            f"Going to {_step_name(step.to)} costs {step.days} days (King's men guard the way) "
            f"and {state['days']} are left{hint}."
        )
    magician = state["magicians"][seat]
    start = standing(state, seat)
    magician["where"] = step.to
    state["days"] -= step.days
    path = [p.partition(":")[2].split(":")[0] for p in (start, step.to)]
    who = magician_name(state, seat)
    state["last"] = {"text": f"{who} to {_step_name(step.to)}", "path": path}
    extra = f" ({step.days} days)" if step.days > 1 else ""
    events.append(Event(f"{who} goes to {where_words(step.to)}{extra}."))
    if is_lair(step.to):
        fight.enter(state, seat)


def _step_name(position: str) -> str:
    words = where_words(position)
    return words[4:] if words.startswith("the ") else words


def _kings_men(
    state: State, seat: int, verb: str, rest: str, events: list[Event], rng: random.Random
) -> None:
    if verb == "done":
        if state["active"] is None:
            events.append(Event(f"{magician_name(state, seat)} ends the turn."))
            flow.end_turn(state, events)
        else:
            flow.finish_active(state, events)
        return
    mine = {f"k{km['number']}": km for km in state["kings_men"] if km["seat"] == seat}
    if verb not in mine:
        raise IllegalAction("Move a King's man with `k1 <place>` or `k2 <place>`, or say `done`.")
    place = match(rest, [(p.key, p.name) for p in load_urland().places.values()])
    if place is None:
        raise IllegalAction(f"No place called {clip(rest)!r} in Urland.")
    challenges.move(state, mine[verb]["key"], place, events)


_PHASES = {"place": _place, "magician": _magician, "kings_men": _kings_men}
