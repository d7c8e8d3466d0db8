"""Who plays which castles at each table size (the rule text's last paragraph)."""

from __future__ import annotations

from dataclasses import dataclass

DRAGON = "dragon"


@dataclass(frozen=True)
class Seat:
    """A role: its key, display name, and the castles whose Knights it moves (none: Dragon)."""

    key: str
    name: str
    castles: tuple[str, ...]


_ALL = {
    "george": Seat("george", "St. George", ("george",)),
    "patrick": Seat("patrick", "St. Patrick", ("patrick",)),
    "andrew": Seat("andrew", "St. Andrew", ("andrew",)),
    "david": Seat("david", "St. David", ("david",)),
    "andrew-george": Seat("andrew-george", "St. Andrew & St. George", ("andrew", "george")),
    "david-patrick": Seat("david-patrick", "St. David & St. Patrick", ("david", "patrick")),
    "knights": Seat("knights", "All four Knights", ("george", "patrick", "andrew", "david")),
    DRAGON: Seat(DRAGON, "The Dragon", ()),
}

# Seat (and turn) order: the Knights first, the Dragon last ("Beginning with the Knights
# and ending with the Dragon").
LAYOUTS: dict[int, tuple[str, ...]] = {
    5: ("george", "patrick", "andrew", "david", DRAGON),
    4: ("george", "andrew", "david", DRAGON),
    3: ("andrew-george", "david-patrick", DRAGON),
    2: ("knights", DRAGON),
}


def seat(key: str) -> Seat:
    """The role with this key. Raises ``KeyError`` for an unknown key."""
    return _ALL[key]


def layout(players: int) -> tuple[Seat, ...]:
    """The seats of a table of ``players`` in turn order. Raises ``KeyError`` if unsupported."""
    return tuple(_ALL[key] for key in LAYOUTS[players])


def castles_in_play(keys: list[str] | tuple[str, ...]) -> list[str]:
    """The castles whose Knights are on the board with these seats, in board order."""
    held = {castle for key in keys for castle in _ALL[key].castles}
    return [c for c in ("george", "patrick", "andrew", "david") if c in held]
