"""Taking a tile in a town or hamlet, and what the tile then does.

'When you take a tile, you will find that it gives you instructions, or it represents a
companion or thing. If the tile instructs you to do something, you must follow those
instructions immediately and then remove the tile from the game. If the tile is a companion,
it becomes part of your party ... If the tile is a thing (weapon, spell, or magic item), you
may be able to add it to your party, provided you have enough companions to carry it.'
"""

from __future__ import annotations

from typing import TypeGuard

from engines.base import Event, IllegalAction
from engines.dragonslayer import losses
from engines.dragonslayer.model import COMPANION, EVENT, load_urland
from engines.dragonslayer.state import (
    GAIN_DAY,
    SLOT_LETTERS,
    State,
    face_down,
    fits,
    forget_slot,
    kind_of,
    kings_man_name,
    kings_men_at,
    magician_name,
    name,
    place_of,
    where_words,
)


def take(state: State, seat: int, letter: str, events: list[Event]) -> None:
    """The magician of ``seat`` spends a day and takes the face-down tile in slot ``letter``."""
    place = place_of(state["magicians"][seat]["where"])
    if not takes_tiles(place):
        raise IllegalAction("Tiles are taken in towns and hamlets only.")
    here = dict(face_down(state, place))
    if not here:
        raise IllegalAction("There is no face-down tile here to take.")
    if not letter and len(here) == 1:
        letter = next(iter(here))
    if letter not in here:
        slots = ", ".join(here)
        raise IllegalAction(f"Say which face-down tile to take: `take <slot>`, one of {slots}.")
    if state["days"] < 1:
        raise IllegalAction("Taking a tile costs a day and your magician has none left.")
    state["days"] -= 1
    key = here[letter]
    state["slots"][place][SLOT_LETTERS.index(letter)] = None
    forget_slot(state, place, letter)
    who = magician_name(state, seat)
    at = where_words(state["magicians"][seat]["where"])
    state["last"] = {"text": f"{who} takes a tile at {at}", "path": [place]}
    kind = kind_of(key)
    if kind == EVENT:
        _event(state, seat, key, events)
    elif kind == COMPANION:
        state["parties"][seat]["companions"].append(key)
        events.append(Event(f"{who} takes a tile at {at}: {name(key)} joins the party."))
    elif fits(state, seat, key):
        state["parties"][seat]["things"].append(key)
        events.append(Event(f"{who} takes a tile at {at}: the {name(key)} joins the party."))
    else:
        state["pending"].insert(
            0, {"kind": "keep", "seat": seat, "tile": key, "place": place, "slot": letter}
        )
        events.append(Event(f"{who} takes a tile at {at} and cannot carry it as things stand."))
        events.append(
            Event(
                f"The tile is the {name(key)}. Your party cannot carry it: put it back "
                "face down (`return`) or keep it and put one of yours there instead (`swap`).",
                seat=seat,
                data={"tile": key},
            )
        )


def takes_tiles(place: str | None) -> TypeGuard[str]:
    """'Takes a tile in a hamlet or town': a tile put down elsewhere stays where it lies."""
    return place is not None and load_urland().places[place].holds_tiles


def _event(state: State, seat: int, key: str, events: list[Event]) -> None:
    """Follow an event tile's instructions at once (a Gain One Day tile is kept instead)."""
    who = magician_name(state, seat)
    party = state["parties"][seat]
    if key == GAIN_DAY:
        party["kept"].append(key)
        events.append(Event(f"{who} draws {name(key)} and keeps it for later."))
        return
    state["removed"].append(key)
    told = f"{who} draws {name(key)}"
    magician = state["magicians"][seat]
    if key == "delayed":
        state["days"] = 0
        magician["lost"] += 1
        magician["delayed"] = True
        events.append(Event(f"{told}: no more days this turn, and the next turn is lost."))
    elif key == "item_stolen":
        if losses.things(state, seat):
            events.append(Event(f"{told}: one of the party's things is stolen."))
            losses.ask(state, seat, "thing", "stolen", events)
        else:
            events.append(Event(f"{told}, but has nothing to steal."))
    elif key == "companion_killed":
        _companion_lost(state, seat, told, "killed", events)
    elif key == "companion_deserts":
        if not party["companions"]:
            events.append(Event(f"{told}, but has no companion to desert."))
        elif not losses.weapons_to_lose(state, seat):
            _companion_lost(state, seat, told + " (no weapon to take along)", "killed", events)
        else:
            events.append(Event(f"{told}: a companion leaves, taking a weapon."))
            losses.ask(state, seat, "companion", "deserts", events)
            losses.ask(state, seat, "weapon", "taken by the deserter", events)
    elif key == "captured":
        if not _capture(state, seat, told, events):
            events.append(Event(f"{told}, but no King's men are here."))
    elif key == "betrayed":
        if not party["companions"]:
            events.append(Event(f"{told}, but has no companion to betray them."))
        elif not kings_men_at(state, place_of(magician["where"]) or ""):
            events.append(Event(f"{told}, but no King's men are here to betray them to."))
        else:
            # The traitor leaves where the party stands, before it is taken to a castle.
            losses.ask(state, seat, "companion", "betrays the party", events)
            _capture(state, seat, told + " by a companion", events)


def _companion_lost(state: State, seat: int, told: str, how: str, events: list[Event]) -> None:
    if state["parties"][seat]["companions"]:
        events.append(Event(f"{told}: a companion is {how}."))
        losses.ask(state, seat, "companion", how, events)
    else:
        events.append(Event(f"{told}, but has no companion."))


def _capture(state: State, seat: int, told: str, events: list[Event]) -> bool:
    """'The player who owns the King's men tile puts you and his King's men in a castle
    (use the King's men on top if there is more than one ...)'. False if none is here."""
    place = place_of(state["magicians"][seat]["where"])
    here = kings_men_at(state, place) if place else []
    if not here:
        return False
    top = here[-1]
    magician = state["magicians"][seat]
    if seat == state["seat"] and state["phase"] == "magician":
        state["days"] = 0
    magician["lost"] += 1
    events.append(
        Event(f"{told}: captured by {kings_man_name(top)}; this turn and the next are lost.")
    )
    state["pending"].append(
        {"kind": "castle", "seat": top["seat"], "km": top["key"], "magician": seat}
    )
    return True
