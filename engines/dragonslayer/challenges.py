"""King's men: moving them, challenging magicians, and what a challenge decides.

'Each time you move a King's men tile into a hamlet or town that has a magician in it, you
may challenge that magician if you want to. (If there is more than one magician in a place
and you want to challenge, you have to challenge each magician in the place, one at a time —
even your own, if he is there — until a magician accepts your challenge. You can choose
which magician you will challenge first.)' 'Your King's men can never challenge a magician
who is in a town if there is a companion in that magician's party who lives in that town.'
"""

from __future__ import annotations

from engines.base import Event, IllegalAction
from engines.dragonslayer.model import HAMLET, TOWN, load_urland
from engines.dragonslayer.moves import kings_man_steps
from engines.dragonslayer.state import (
    DAYS,
    Answer,
    Castle,
    Challenge,
    State,
    kings_man,
    kings_man_name,
    magician_name,
    magicians_at,
    party_combat,
    strength_of,
    tile,
)


def move(state: State, key: str, place: str, events: list[Event]) -> None:
    """The current seat's King's man ``key`` spends a day to enter ``place`` by road."""
    km = kings_man(state, key)
    if state["active"] not in (None, key):
        other = kings_man_name(kings_man(state, state["active"]))
        raise IllegalAction(f"{other} must finish moving first (`done` stops them).")
    if key in state["finished"]:
        raise IllegalAction(f"{kings_man_name(km)} cannot move again this turn.")
    if state["active"] is None:
        state["active"] = key
        state["days"] = DAYS
    urland = load_urland()
    start = km["at"]
    if start is None or place not in kings_man_steps(state, key):
        roads = ", ".join(urland.places[p].name for p in kings_man_steps(state, key))
        raise IllegalAction(
            f"{kings_man_name(km)} can go by road to {roads} (never to sea or the Lair)."
        )
    state["arrivals"] += 1
    km["at"] = place
    km["arrived"] = state["arrivals"]
    state["days"] -= 1
    name = urland.places[place].name
    state["last"] = {"text": f"{kings_man_name(km)} to {name}", "path": [start, place]}
    events.append(Event(f"{kings_man_name(km)} march to {name}."))
    candidates = challengeable(state, place)
    if candidates:
        state["pending"].append(
            {
                "kind": "challenge",
                "seat": km["seat"],
                "km": key,
                "place": place,
                "candidates": candidates,
                "started": False,
            }
        )


def challengeable(state: State, place: str) -> list[int]:
    """Magicians in ``place`` that King's men entering it may challenge."""
    kind = load_urland().places[place].kind
    if kind not in (TOWN, HAMLET):
        return []
    return [
        seat
        for seat in magicians_at(state, place)
        if not (kind == TOWN and _has_townsfolk(state, seat, place))
    ]


def _has_townsfolk(state: State, seat: int, town: str) -> bool:
    return any(tile(k).home == town for k in state["parties"][seat]["companions"])


def challenge(state: State, decision: Challenge, target: int, events: list[Event]) -> None:
    """The owner challenges the magician of ``target``, who must answer."""
    if target not in decision["candidates"]:
        raise IllegalAction("That magician cannot be challenged here.")
    decision["candidates"].remove(target)
    decision["started"] = True
    km = kings_man(state, decision["km"])
    events.append(Event(f"{kings_man_name(km)} challenge {magician_name(state, target)}."))
    state["pending"].insert(
        0, {"kind": "answer", "seat": target, "km": km["key"], "place": decision["place"]}
    )


def take_road(state: State, decision: Answer, neighbour: str, events: list[Event]) -> None:
    """'He moves his magician out of the place onto a neighboring road of his choice
    (spending no days for the move) and your King's men can continue to move.'"""
    seat = decision["seat"]
    place = decision["place"]
    urland = load_urland()
    if state["magicians"][seat]["delayed"]:
        raise IllegalAction("A delayed magician may not take the road: `accept` the challenge.")
    if neighbour not in urland.neighbours(place):
        roads = ", ".join(urland.places[p].name for p in urland.neighbours(place))
        raise IllegalAction(f"Roads out of {urland.places[place].name} lead to {roads}.")
    state["magicians"][seat]["where"] = f"road:{place}:{neighbour}"
    state["pending"].pop(0)
    events.append(
        Event(
            f"{magician_name(state, seat)} takes the road towards {urland.places[neighbour].name}."
        )
    )
    _close_challenge_if_done(state)


def _close_challenge_if_done(state: State) -> None:
    first = state["pending"][0] if state["pending"] else None
    if first and first["kind"] == "challenge" and not first["candidates"]:
        state["pending"].pop(0)


def accept(state: State, decision: Answer, events: list[Event]) -> None:
    """'Compare the strength of your King's men tile to the total combat strength of all the
    people in the magician's party.' The King's men stop; a castle is chosen next."""
    seat = decision["seat"]
    km = kings_man(state, decision["km"])
    state["pending"].pop(0)
    if state["pending"] and state["pending"][0]["kind"] == "challenge":
        state["pending"].pop(0)
    km["revealed"] = True
    party = party_combat(state, seat)
    who = magician_name(state, seat)
    strength = strength_of(km)
    if strength >= party:
        km["lost"] += 1
        state["magicians"][seat]["lost"] += 1
        events.append(
            Event(
                f"{who} accepts. {kings_man_name(km)} (strength {strength}) against "
                f"the party's {party}: {who} is taken to a castle and loses the next turn; "
                "so do the King's men.",
                data={"kings_men": km["key"], "strength": strength, "party": party},
            )
        )
        chooser, captive = km["seat"], seat
    else:
        events.append(
            Event(
                f"{who} accepts. {kings_man_name(km)} (strength {strength}) against "
                f"the party's {party}: the party is stronger and sends them to a castle.",
                data={"kings_men": km["key"], "strength": strength, "party": party},
            )
        )
        chooser, captive = seat, None
    state["pending"].insert(
        0, {"kind": "castle", "seat": chooser, "km": km["key"], "magician": captive}
    )


def to_castle(state: State, decision: Castle, castle: str, events: list[Event]) -> None:
    """Put the King's men (and a captive magician) in ``castle``."""
    urland = load_urland()
    castles = [p.key for p in urland.of_kind("castle")]
    if castle not in castles:
        names = ", ".join(urland.places[c].name for c in castles)
        raise IllegalAction(f"Choose a castle: {names}.")
    km = kings_man(state, decision["km"])
    state["pending"].pop(0)
    state["arrivals"] += 1
    km["at"] = castle
    km["arrived"] = state["arrivals"]
    name = urland.places[castle].name
    captive = decision["magician"]
    if captive is not None:
        state["magicians"][captive]["where"] = f"place:{castle}"
        events.append(
            Event(f"{magician_name(state, captive)} and {kings_man_name(km)} go to {name}.")
        )
    else:
        events.append(Event(f"{kings_man_name(km)} go to {name}."))
    if state["active"] == km["key"]:
        # 'loses the rest of this turn': the next King's man (or the next turn) follows.
        state["days"] = 0
        state["finished"].append(km["key"])
        state["active"] = None
