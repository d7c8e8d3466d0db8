"""The state of a game of Dragonslayer: a JSON-ready dict, and small queries on it.

Keys (all JSON types, so ``dump``/``load`` are plain copies):

* ``roles``: the magician key of each seat, in turn order. ``turn``: the round, from 1.
* ``seat``: whose turn it is. ``phase``: ``"place"`` (King's men go to castles),
  ``"magician"`` (the magician spends days), ``"kings_men"`` or ``"over"``.
* ``days``: days left to whoever moves now (the magician, or the active King's man).
* ``magicians``: per seat ``{"where", "lost", "delayed", "out"}``. ``where`` is a position
  (see below) or ``None`` once out; ``lost`` counts whole turns still to lose; ``delayed``
  forbids taking the road until that lost turn is over.
* ``parties``: per seat ``{"companions", "things", "kept"}``, lists of tile keys: people who
  joined, weapons/spells/magic items carried, saved 'Gain One Day' tiles.
* ``kings_men``: ``{"key", "seat", "number", "strength", "at", "lost", "revealed",
  "arrived"}`` per tile; ``arrived`` orders tiles in one place (the highest is "on top").
* ``active``: the King's man moving now (its key) or ``None``; ``finished``: keys of
  King's men done for this turn.
* ``slots``: per place, its face-down tiles by slot (``None`` for an empty slot), so a slot
  letter keeps meaning the same tile. ``memory``: per seat, ``"place/slot" -> tile`` the
  seat looked at and put back (or put down).
* ``set_aside``, ``removed``: tile keys out of play. ``boxes``: tiles still in their map
  boxes. ``dragon``: the Dragon's strength.
* ``pending``: decisions waiting before play goes on, first one first (see
  :mod:`engines.dragonslayer.decisions`).
* ``last``: ``{"text", "path"}`` of the last move, for the picture. ``outcome``.

Positions are strings: ``"abode:<magician>"``, ``"sea:<zone>"``, ``"place:<key>"`` or
``"road:<from>:<to>"`` (standing on the road after taking it out of ``<from>``).
"""

from __future__ import annotations

from typing import Any

from engines.base import Result
from engines.clone import clone
from engines.dragonslayer.model import (
    COMPANION,
    MAGIC_ITEM,
    SPELL,
    WEAPON,
    Tile,
    load_parties,
    load_tiles,
    load_urland,
)
from engines.snapshot import check_format

State = dict[str, Any]

FORMAT = 2
"""The snapshot format :func:`dump` writes (kept in the state as ``"format"``). Format 2
draws the Dragon Location tile first (pending ``draw``, then ``lair``); format 1 asked why
a party came (``purpose``) before the draw and held a draw to face (``location``), and
:func:`load` reads it as format 2."""

DAYS = 3
"""'Each of your turns represents 3 days.'"""
ASHES = "ulrichs_ashes"
GAIN_DAY = "gain_one_day_or_escape_from_castle"
SLOT_LETTERS = "abcdefghijklmnopqrstuvwxyz"


def dump(state: State) -> dict[str, Any]:
    """The state as JSON-ready data: a copy (it holds its ``format``)."""
    return clone(state)


def load(data: dict[str, Any]) -> State:
    """The state :func:`dump` wrote; an unknown or newer format raises ``UnknownFormat``."""
    found = check_format(data, FORMAT, "Dragonslayer")
    state = clone(data)
    if found < 2:
        _draw_first(state)
    return state


def _draw_first(state: State) -> None:
    """A format 1 snapshot as format 2: a party asked why it came has not drawn yet (it
    draws now, and chooses after), and a draw held for a redraw offers what it allows."""
    for index, decision in enumerate(state["pending"]):
        if decision["kind"] == "purpose":
            state["pending"][index] = {"kind": "draw", "seat": decision["seat"]}
        elif decision["kind"] == "location":
            state["pending"][index] = {
                "kind": "lair",
                "seat": decision["seat"],
                "location": decision["location"],
                "items": decision["items"],
            }
    state["format"] = FORMAT


def result(state: State) -> Result | None:
    """The winners and the ending in words once the game is over."""
    outcome = state["outcome"]
    if outcome is None:
        return None
    return Result(winners=tuple(outcome["winners"]), text=outcome["text"])


def tile(key: str) -> Tile:
    """The tile ``key``, wherever the data lists it (pool, map boxes, Galen's tiles)."""
    tiles = load_tiles()
    try:
        return tiles.tile(key)
    except KeyError:
        for galen in load_parties().galen_tiles:
            if galen.key == key:
                return galen
        raise


def name(key: str) -> str:
    """Display name of a tile."""
    return tile(key).name


def magician_name(state: State, seat: int) -> str:
    return load_parties().magicians[state["roles"][seat]].name


def seats(state: State) -> range:
    return range(len(state["roles"]))


def in_game(state: State) -> list[int]:
    """Seats whose magician is still playing."""
    return [seat for seat in seats(state) if not state["magicians"][seat]["out"]]


# -- positions -------------------------------------------------------------------------


def place_of(position: str | None) -> str | None:
    """The place key of a position in a place, else ``None`` (sea, abode, road, out)."""
    if position and position.startswith("place:"):
        return position[6:]
    return None


def where_words(position: str | None) -> str:
    """A position in words: 'Swanscombe', 'the West Sea', 'the road from A towards B'."""
    urland = load_urland()
    if position is None:
        return "out of the game"
    kind, _, rest = position.partition(":")
    if kind == "place":
        return urland.places[rest].name
    if kind == "sea":
        return f"the {urland.seas[rest].name}"
    if kind == "abode":
        return urland.abodes[rest].name
    start, _, end = rest.partition(":")
    return f"the road from {urland.places[start].name} towards {urland.places[end].name}"


def magicians_at(state: State, place: str) -> list[int]:
    """Seats whose magician stands in ``place``."""
    return [s for s in in_game(state) if place_of(state["magicians"][s]["where"]) == place]


def kings_men_at(state: State, place: str) -> list[dict[str, Any]]:
    """King's men tiles in ``place``, bottom first (the last one is 'on top')."""
    here = [km for km in state["kings_men"] if km["at"] == place]
    return sorted(here, key=lambda km: km["arrived"])


def kings_man(state: State, key: str) -> dict[str, Any]:
    for km in state["kings_men"]:
        if km["key"] == key:
            return km
    raise KeyError(key)


def kings_man_name(km: dict[str, Any]) -> str:
    """Public name of a King's men tile: its leader's and its number, never its strength."""
    return f"{km['leader']}'s King's men {km['number']}"


# -- parties ---------------------------------------------------------------------------


def kind_of(key: str) -> str:
    return tile(key).kind


def weapons(state: State, seat: int) -> list[str]:
    return [k for k in state["parties"][seat]["things"] if kind_of(k) == WEAPON]


def magic(state: State, seat: int) -> list[str]:
    """Spells and magic items carried, Ulrich's Ashes included."""
    return [k for k in state["parties"][seat]["things"] if kind_of(k) in (SPELL, MAGIC_ITEM)]


def people(state: State, seat: int) -> int:
    """The magician and the companions."""
    return 1 + len(state["parties"][seat]["companions"])


def party_combat(state: State, seat: int) -> int:
    """Total combat strength of the people in the party (what King's men are matched with)."""
    magician = load_parties().magicians[state["roles"][seat]]
    people = state["parties"][seat]["companions"]
    return magician.combat + sum(tile(k).strength or 0 for k in people)


def weapon_limit(state: State, seat: int) -> int:
    """'You can never have more weapons than you have people (including your magician).'"""
    return people(state, seat)


def magic_limit(state: State, seat: int) -> int:
    """Pentacles, plus what companions such as Ulrich carry for the magician."""
    magician = load_parties().magicians[state["roles"][seat]]
    helpers = sum(tile(k).carries for k in state["parties"][seat]["companions"])
    return magician.pentacles + helpers


def magic_load(state: State, seat: int) -> int:
    """Spells and magic items that count against the limit: Galen's Ashes never do."""
    return sum(1 for k in magic(state, seat) if k != ASHES)


def fits(state: State, seat: int, key: str) -> bool:
    """Whether the party can carry one more ``key`` (companions and kept tiles always fit)."""
    kind = kind_of(key)
    if kind == WEAPON:
        return len(weapons(state, seat)) < weapon_limit(state, seat)
    if kind in (SPELL, MAGIC_ITEM):
        return magic_load(state, seat) < magic_limit(state, seat)
    return True


def same_load(a: str, b: str) -> bool:
    """Whether swapping ``b`` out makes room for ``a`` (both weapons, or both spell/item)."""
    kinds = {kind_of(a), kind_of(b)}
    return kinds == {WEAPON} or kinds <= {SPELL, MAGIC_ITEM}


def companions(state: State, seat: int) -> list[str]:
    return list(state["parties"][seat]["companions"])


def is_companion(key: str) -> bool:
    return kind_of(key) == COMPANION


# -- slots -----------------------------------------------------------------------------


def face_down(state: State, place: str) -> list[tuple[str, str]]:
    """``(letter, tile)`` for each face-down tile in ``place``, in slot order."""
    return [(SLOT_LETTERS[i], key) for i, key in enumerate(state["slots"].get(place, [])) if key]


def slot_ref(place: str, letter: str) -> str:
    return f"{place}/{letter}"


def forget_slot(state: State, place: str, letter: str, keep: int | None = None) -> None:
    """Every seat but ``keep`` forgets what lay in this slot (it was taken or changed)."""
    ref = slot_ref(place, letter)
    for seat, memory in enumerate(state["memory"]):
        if seat != keep:
            memory.pop(ref, None)


def put_face_down(state: State, place: str, key: str, knowing: list[int]) -> str:
    """Lay ``key`` face down in the first free slot of ``place``; ``knowing`` seats remember it.

    Returns the slot's letter. Reusing free slots keeps letters few and short.
    """
    slots = state["slots"].setdefault(place, [])
    index = slots.index(None) if None in slots else len(slots)
    if index == len(slots):
        slots.append(None)
    slots[index] = key
    letter = SLOT_LETTERS[index]
    for seat in knowing:
        state["memory"][seat][slot_ref(place, letter)] = key
    return letter
