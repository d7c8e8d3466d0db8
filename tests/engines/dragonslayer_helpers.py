"""Builders for Dragonslayer positions used by the rule and property tests.

A position starts as a real game (``GAME.setup`` and the King's men placed through the
engine), then the helpers edit the state dict in place: move a magician, give a party
tiles, move King's men, set the tiles of a place, hand the turn to a seat. The engine then
plays on from there through ``GAME.apply``.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

from engines.base import Event
from engines.dragonslayer.model import EVENT, load_parties, load_tiles, load_urland
from games import ENGINES

GAME = ENGINES["dragonslayer"]

ROLES = {
    2: ["aurric", "galen"],
    3: ["aurric", "merridyds", "galen"],
    4: ["aurric", "merridyds", "old_kyvin", "galen"],
}
"""The default tables, seats in turn order."""

PARK = "castle_morn"
"""A castle in the far south-west where tests leave King's men that should not matter."""

State = dict[str, Any]


def rng(seed: int = 0) -> random.Random:
    return random.Random(seed)


def fresh(players: int = 2, seed: int = 0) -> State:
    """A game just set up: King's men not yet placed."""
    return GAME.setup(ROLES[players], {}, rng(seed))


def placed(players: int = 2, seed: int = 0, castle: str = PARK) -> State:
    """A game whose King's men were all placed (through the engine) in ``castle``: the first
    magician's turn has begun with 3 days."""
    state = fresh(players, seed)
    while state["phase"] == "place":
        state, _ = GAME.apply(state, state["seat"], f"place {castle}", rng())
    return state


def act(state: State, seat: int, action: str, seed: int = 0) -> tuple[State, list[Event]]:
    """``GAME.apply`` with a fixed rng."""
    return GAME.apply(state, seat, action, rng(seed))


def play(state: State, moves: list[tuple[int, str]]) -> tuple[State, list[Event]]:
    """Apply ``(seat, action)`` pairs in order; all events together."""
    events: list[Event] = []
    for seat, action in moves:
        state, new = act(state, seat, action)
        events += new
    return state, events


def words(events: list[Event]) -> str:
    """Every public event's text, one a line."""
    return "\n".join(e.text for e in events if e.seat is None)


def actions(state: State, seat: int) -> list[str]:
    return [choice.action for choice in GAME.legal_actions(state, seat)]


def seat_of(state: State, magician: str) -> int:
    return state["roles"].index(magician)


def position(where: str) -> str:
    """``"holloway"`` -> ``"place:holloway"``; full positions (``"sea:west_sea"``) unchanged."""
    return where if ":" in where else f"place:{where}"


def put_magician(state: State, seat: int, where: str) -> State:
    state["magicians"][seat]["where"] = position(where)
    return state


def give(
    state: State,
    seat: int,
    companions: tuple[str, ...] = (),
    things: tuple[str, ...] = (),
    kept: tuple[str, ...] = (),
) -> State:
    """Add tiles to a party, taking each out of wherever the deal put it (a slot or the set
    aside pile), so that every tile stays in exactly one place."""
    for group, keys in (("companions", companions), ("things", things), ("kept", kept)):
        for key in keys:
            _take_out(state, key)
            state["parties"][seat][group].append(key)
    return state


def _take_out(state: State, key: str) -> None:
    if key == "ulrich" and key in state["boxes"]:
        state["boxes"].remove(key)
        return
    if key in state["set_aside"]:
        state["set_aside"].remove(key)
        return
    for slots in state["slots"].values():
        if key in slots:
            slots[slots.index(key)] = _spare(state, key)
            return
    raise AssertionError(f"{key} is not on the map or set aside")


def _spare(state: State, instead_of: str) -> str | None:
    """A set-aside tile to fill a slot emptied by a builder (so slot counts stay as dealt
    while set-aside tiles last; then the slot stays empty)."""
    for key in state["set_aside"]:
        if key != instead_of:
            state["set_aside"].remove(key)
            return key
    return None


def set_slots(state: State, place: str, tiles: list[str | None]) -> State:
    """Lay ``tiles`` face down in ``place`` (slot a, b, ...), swapping with the set-aside pile
    and other slots so that the tiles stay conserved."""
    old = [key for key in state["slots"].get(place, []) if key]
    state["slots"][place] = [None] * len(old)
    state["set_aside"] += old
    for key in tiles:
        if key is not None:
            _take_out(state, key)
    state["slots"][place] = list(tiles)
    state["set_aside"].sort()
    return state


def put_kings_men(state: State, key: str, place: str) -> State:
    """Move King's men ``key`` to ``place``, on top of any already there."""
    state["arrivals"] += 1
    km = kings_man(state, key)
    km["at"] = place
    km["arrived"] = state["arrivals"]
    return state


def kings_man(state: State, key: str) -> dict[str, Any]:
    return next(km for km in state["kings_men"] if km["key"] == key)


def set_strength(state: State, key: str, strength: int) -> State:
    """Give King's men ``key`` this strength, its partner the other one of the set."""
    km = kings_man(state, key)
    partner = next(
        other for other in state["kings_men"] if other["seat"] == km["seat"] and other["key"] != key
    )
    if km["strength"] != strength:
        km["strength"], partner["strength"] = partner["strength"], km["strength"]
    assert km["strength"] == strength
    return state


def turn(state: State, seat: int, days: int = 3) -> State:
    """It is ``seat``'s turn and its magician has ``days`` days."""
    state.update(seat=seat, phase="magician", days=days, active=None, finished=[])
    return state


def kings_men_turn(state: State, seat: int) -> State:
    """``seat``'s magician is done: its King's men may move."""
    state.update(seat=seat, phase="kings_men", days=0, active=None, finished=[])
    return state


# -- invariants ------------------------------------------------------------------------


def expected_tiles() -> Counter:
    """Every tile the pool and Galen's party hold at set-up."""
    return Counter(load_tiles().deck()) + Counter(t.key for t in load_parties().galen_tiles)


def where_tiles_are(state: State) -> Counter:
    """Every pool or Galen tile, wherever it is now (Ulrich counts only once taken out of
    his box, which no rule of this part does)."""
    found: Counter = Counter()
    for slots in state["slots"].values():
        found.update(key for key in slots if key)
    found.update(state["set_aside"])
    found.update(state["removed"])
    for party in state["parties"]:
        for group in ("companions", "things", "kept"):
            found.update(party[group])
    found.update(d["tile"] for d in state["pending"] if d["kind"] == "keep")
    return found


def unique_things() -> set[str]:
    """Tiles that exist once and say what they are (not events): a name that reveals them."""
    return {t.key for t in load_tiles().tiles if t.kind != EVENT and t.count == 1}


def json_text(view: dict[str, Any]) -> str:
    return json.dumps(view, sort_keys=True)


def castles() -> list[str]:
    return [p.key for p in load_urland().of_kind("castle")]
