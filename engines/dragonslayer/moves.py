"""Travel in Urland: where a magician or a King's man can go next and what it costs.

'It costs you one day when your magician: moves along a road into any place in Urland;
moves from a port to a sea zone or from a sea zone to a port; moves from one sea zone into a
neighboring sea zone.' 'A magician must always spend an extra day to enter any place that
has a King's men tile in it. A magician must also spend a day to leave any place that has a
King's men tile in it. This is true even if your own magician enters or leaves a place with
your own King's men in it.' King's men 'can never go to sea, go to the Dragon's Lair, or
take tiles'; the extra days are the magicians' (a King's man pays one day a road).
"""

from __future__ import annotations

from dataclasses import dataclass

from engines.dragonslayer.model import LAIR, load_urland
from engines.dragonslayer.state import State, place_of, standing


@dataclass(frozen=True)
class Step:
    """One move: the position it leads to, its key as typed after ``go``, its cost."""

    to: str
    key: str
    days: int


def guarded(state: State, place: str | None) -> bool:
    """Whether a King's men tile stands in ``place``."""
    return place is not None and any(km["at"] == place for km in state["kings_men"])


def magician_steps(state: State, seat: int) -> list[Step]:
    """Every single move the magician of ``seat`` could make from where it stands."""
    return steps_from(state, standing(state, seat))


def steps_from(state: State, where: str) -> list[Step]:
    """Every single move a magician standing at position ``where`` could make now."""
    urland = load_urland()
    kind, _, rest = where.partition(":")
    targets: list[str] = []
    if kind == "abode":
        targets = [f"sea:{urland.abodes[rest].sea}"]
    elif kind == "sea":
        targets = [f"sea:{z}" for z in urland.seas[rest].neighbours]
        targets += [f"place:{p.key}" for p in urland.ports_on(rest)]
    elif kind == "place":
        targets = [f"place:{p}" for p in urland.neighbours(rest)]
        if urland.places[rest].port:
            targets.append(f"sea:{urland.places[rest].port}")
    elif kind == "road":
        start, _, end = rest.partition(":")
        targets = [f"place:{start}", f"place:{end}"]
    leave = 1 if guarded(state, place_of(where)) else 0
    steps = []
    for target in targets:
        enter = 1 if guarded(state, place_of(target)) else 0
        steps.append(Step(target, target.partition(":")[2], 1 + leave + enter))
    return steps


def is_lair(position: str) -> bool:
    place = place_of(position)
    return place is not None and load_urland().places[place].kind == LAIR


def kings_man_steps(state: State, key: str) -> list[str]:
    """Places a King's man can enter by road from where it stands (never the Lair; none
    before it is placed)."""
    urland = load_urland()
    km = next(km for km in state["kings_men"] if km["key"] == key)
    if km["at"] is None:
        return []
    return [p for p in urland.neighbours(km["at"]) if urland.places[p].kind != LAIR]
