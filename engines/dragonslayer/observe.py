"""A game of Dragonslayer as one seat may know it (what a computer player decides from).

Hidden from a seat, and replaced by ``"?"`` or ``None``: face-down tiles it has not looked at
(or seen put down), the 17 set-aside tiles, tiles destroyed unseen, other players' memories
and the tile another player is deciding about, and the strengths of other players' King's
men that no challenge revealed.
"""

from __future__ import annotations

from engines.clone import clone
from engines.dragonslayer.state import SLOT_LETTERS, State, slot_ref

HIDDEN = "?"


def observe(state: State, seat: int) -> State:
    seen = clone(state)
    memory = seen["memory"][seat]
    for place, slots in seen["slots"].items():
        for index, key in enumerate(slots):
            if key and slot_ref(place, SLOT_LETTERS[index]) not in memory:
                slots[index] = HIDDEN
    seen["set_aside"] = [HIDDEN] * len(seen["set_aside"])
    seen["removed"] = [HIDDEN] * len(seen["removed"])
    seen["memory"] = [m if s == seat else {} for s, m in enumerate(seen["memory"])]
    for km in seen["kings_men"]:
        if km["seat"] != seat and not km["revealed"]:
            km["strength"] = None
    for decision in seen["pending"]:
        if decision["kind"] == "keep" and decision["seat"] != seat:
            decision["tile"] = HIDDEN
    return seen
