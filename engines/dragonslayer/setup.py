"""Setting up Urland: magicians in their abodes, tiles dealt face down, King's men dealt.

'Each of you selects one magician tile and places it on the map in the space marked as your
magician's abode.' 'Put Vermithrax Pejorative in the "5" box.' 'Without looking at them,
place four of these tiles in each of the four towns ... and two in each of the 21 hamlets.
Put the 17 leftover tiles aside.' The King's men are placed by their owners during the
``place`` phase that opens the game.
"""

from __future__ import annotations

import random

from engines.dragonslayer.battle import ROWS
from engines.dragonslayer.model import HAMLET, TOWN, load_parties, load_tiles, load_urland
from engines.dragonslayer.state import State, is_companion


def new_state(roles: list[str], rng: random.Random) -> State:
    """A game before the King's men are placed, seats in turn order."""
    urland, tiles, parties = load_urland(), load_tiles(), load_parties()
    deck = list(tiles.deck())
    rng.shuffle(deck)
    slots: dict[str, list[str | None]] = {}
    for place in urland.places.values():
        count = {TOWN: tiles.per_town, HAMLET: tiles.per_hamlet}.get(place.kind, 0)
        if count:
            slots[place.key] = [deck.pop() for _ in range(count)]
    kings_men = []
    for seat, role in enumerate(roles):
        men = parties.kings_men_of(role)
        # Shuffled so that the tile numbers people see say nothing of the strengths.
        strengths = [km.strength for km in men.men]
        rng.shuffle(strengths)
        for number, strength in enumerate(strengths, start=1):
            kings_men.append(
                {
                    "key": f"{men.key}_{number}",
                    "seat": seat,
                    "leader": men.leader,
                    "number": number,
                    "strength": strength,
                    "at": None,
                    "lost": 0,
                    "revealed": False,
                    "arrived": 0,
                }
            )
    galen = [tile.key for tile in parties.galen_tiles]
    return {
        "format": 1,
        "roles": list(roles),
        "turn": 1,
        "seat": 0,
        "phase": "place",
        "days": 0,
        "magicians": [
            {"where": f"abode:{role}", "lost": 0, "delayed": False, "out": False} for role in roles
        ],
        "parties": [
            {
                "companions": [k for k in galen if role == "galen" and is_companion(k)],
                "things": [k for k in galen if role == "galen" and not is_companion(k)],
                "kept": [],
            }
            for role in roles
        ],
        "kings_men": kings_men,
        "arrivals": 0,
        "active": None,
        "finished": [],
        "slots": slots,
        "memory": [{} for _ in roles],
        "set_aside": sorted(deck),
        "removed": [],
        "boxes": [tile.key for tile in tiles.map_tiles],
        "dragon": urland.dragon_start,
        "abandoned": {row: [] for row in ROWS},
        "fought": [False for _ in roles],
        "fight": None,
        "rest": False,
        "pending": [],
        "last": None,
        "outcome": None,
    }
