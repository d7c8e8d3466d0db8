"""Losing companions and things, and dropping what a smaller party cannot carry.

'You can never have more weapons than you have people (including your magician) in your
party. This means that, if you lose a companion, you may have to drop one of your weapons
(place it face down in your present location).' Which companion or thing goes is the
player's choice; a choice with one option is made at once.
"""

from __future__ import annotations

from typing import Literal

from engines.base import Event, IllegalAction
from engines.dragonslayer import fight
from engines.dragonslayer.model import load_urland
from engines.dragonslayer.state import (
    ASHES,
    State,
    magic,
    magic_limit,
    magic_load,
    magician_name,
    name,
    place_of,
    put_face_down,
    weapon_limit,
    weapons,
    where_words,
)

WHAT = {
    "companion": "companion",
    "thing": "weapon, spell or magic item",
    "weapon": "weapon",
    "battle": "companion, weapon, spell or magic item",
}


def things(state: State, seat: int) -> list[str]:
    """Things that can be lost: everything carried but Ulrich's Ashes ('Galen can never
    lose Ulrich's Ashes in any other way')."""
    return [k for k in state["parties"][seat]["things"] if k != ASHES]


def weapons_to_lose(state: State, seat: int) -> list[str]:
    return weapons(state, seat)


def options(state: State, seat: int, what: str) -> list[str]:
    """The tiles ``seat`` may give up for a loss of kind ``what``."""
    if what == "companion":
        return list(state["parties"][seat]["companions"])
    if what == "weapon":
        return weapons_to_lose(state, seat)
    if what == "battle":
        return fight.losable(state, seat)
    return things(state, seat)


def ask(state: State, seat: int, what: str, reason: str, events: list[Event]) -> None:
    """``seat`` must lose one ``what``: at once if there is one choice, else a decision."""
    choices = options(state, seat, what)
    if len(choices) == 1:
        remove(state, seat, choices[0], reason, events)
    elif choices:
        state["pending"].append({"kind": "lose", "seat": seat, "what": what, "reason": reason})


def remove(state: State, seat: int, key: str, reason: str, events: list[Event]) -> None:
    """Take ``key`` out of the party and out of the game."""
    party = state["parties"][seat]
    group: Literal["companions", "things"] = (
        "companions" if key in party["companions"] else "things"
    )
    if key not in party[group]:
        raise IllegalAction(f"{name(key)} is not in your party.")
    party[group].remove(key)
    state["removed"].append(key)
    events.append(Event(f"{magician_name(state, seat)} loses {name(key)} ({reason})."))


def over_limit(state: State, seat: int) -> str | None:
    """``"weapon"`` or ``"magic"`` if the party carries more than it may, else None."""
    if len(weapons(state, seat)) > weapon_limit(state, seat):
        return "weapon"
    if magic_load(state, seat) > magic_limit(state, seat):
        return "magic"
    return None


def drop_options(state: State, seat: int, what: str) -> list[str]:
    if what == "weapon":
        return weapons(state, seat)
    return [k for k in magic(state, seat) if k != ASHES]


def check_limits(state: State, seat: int, events: list[Event]) -> None:
    """Make ``seat`` drop what it can no longer carry (asking when there is a choice)."""
    while (what := over_limit(state, seat)) is not None:
        choices = drop_options(state, seat, what)
        if len(choices) > 1:
            state["pending"].append({"kind": "drop", "seat": seat, "what": what})
            return
        drop(state, seat, choices[0], events)


def drop(state: State, seat: int, key: str, events: list[Event]) -> None:
    """Put ``key`` face down where the party stands (out of the game if not in a place)."""
    party = state["parties"][seat]
    party["things"].remove(key)
    where = state["magicians"][seat]["where"]
    place = place_of(where)
    who = magician_name(state, seat)
    if place == load_urland().lair.key and state["fight"]:
        fight.abandon(state, key)
        events.append(Event(f"{who} cannot carry the {name(key)} and leaves it in the Lair."))
        return
    if place is None:
        state["removed"].append(key)
        events.append(Event(f"{who} cannot carry the {name(key)} and it is lost."))
        return
    # Everyone saw it leave the party, so everyone knows what lies there.
    put_face_down(state, place, key, list(range(len(state["roles"]))))
    at = where_words(where)
    events.append(Event(f"{who} cannot carry the {name(key)} and leaves it face down at {at}."))
