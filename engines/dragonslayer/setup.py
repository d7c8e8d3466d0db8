"""Setting up Urland: the options and seats, then magicians in their abodes, tiles dealt
face down, King's men dealt.

'Each of you selects one magician tile and places it on the map in the space marked as your
magician's abode.' 'Put Vermithrax Pejorative in the "5" box.' 'Without looking at them,
place four of these tiles in each of the four towns ... and two in each of the 21 hamlets.
Put the 17 leftover tiles aside.' The King's men are placed by their owners during the
``place`` phase that opens the game.
"""

from __future__ import annotations

import random
from typing import Any

from engines import options as schema
from engines.base import BadOptions, Role
from engines.dragonslayer.battle import ROWS
from engines.dragonslayer.model import HAMLET, TOWN, load_parties, load_tiles, load_urland
from engines.dragonslayer.state import FORMAT, KingsMen, State, is_companion

TITLE = "Dragonslayer"
MIN_PLAYERS, MAX_PLAYERS = 2, 4

MAGICIANS = ("aurric", "merridyds", "old_kyvin", "galen")
"""The magicians' keys, in turn order (the parties data checks its own)."""

DEFAULT_MAGICIANS = {
    2: ("aurric", "galen"),
    3: ("aurric", "merridyds", "galen"),
    4: ("aurric", "merridyds", "old_kyvin", "galen"),
}
"""Who plays when the table does not choose: 'One player should always play Galen.'"""


def _check_magicians(chosen: list[str]) -> list[str]:
    """Galen is in, 2 to 4 are chosen; returned in turn order."""
    parties = load_parties()
    if parties.always_played not in chosen:
        raise BadOptions("One player always plays Galen: include galen in magicians=.")
    if not MIN_PLAYERS <= len(chosen) <= MAX_PLAYERS:
        raise BadOptions("Choose 2 to 4 magicians, for example magicians=merridyds,galen.")
    return [key for key in parties.turn_order if key in chosen]


OPTIONS: schema.Schema = (
    schema.Option(
        "magicians",
        "the magicians played, Galen always among them",
        choices=MAGICIANS,
        many=True,
        check=_check_magicians,
        example="magicians=merridyds,galen",
        default_words="Aurric and Galen for 2, Aurric, Merridyds and Galen for 3, all four",
    ),
)


def normalize(options: dict[str, Any]) -> dict[str, Any]:
    """Options split into a mapping, checked; ``magicians`` only when chosen."""
    return schema.normalize(OPTIONS, options, TITLE)


def roles(players: int, options: dict[str, Any]) -> list[Role]:
    """The chosen magicians in turn order (Aurric, Merridyds, Old Kyvin, Galen)."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise BadOptions("Dragonslayer is for 2 to 4 players.")
    chosen = normalize({k: v for k, v in options.items() if k == "magicians"}).get(
        "magicians"
    ) or list(DEFAULT_MAGICIANS[players])
    if len(chosen) != players:
        raise BadOptions(
            f"magicians= names {len(chosen)} magicians but {players} players are seated."
        )
    magicians = load_parties().magicians
    return [Role(key, magicians[key].name) for key in chosen]


def setup(roles_: list[str], options: dict[str, Any], rng: random.Random) -> State:
    """Magicians in their abodes, tiles dealt face down; King's men are placed first."""
    expected = [role.key for role in roles(len(roles_), options)]
    if list(roles_) != expected:
        raise BadOptions(f"Dragonslayer seats are {', '.join(expected)}, in that order.")
    return new_state(list(roles_), rng)


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
    kings_men: list[KingsMen] = []
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
        "format": FORMAT,
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
