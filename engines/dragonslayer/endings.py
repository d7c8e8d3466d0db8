"""Endings the players agree on: Dragonslayer's agreed end (nobody wins), and which steps
show a hidden thing.

The rule text says "It is possible that no one will kill the Dragon, in which case no one
wins": magicians who agree the Dragon will not be slain end the game that way, with no
winner. A step reveals something when a seat learns a face-down tile (its memory grows), a
King's man's strength is shown, or a tile is put before a seat to decide about; drawing
tiles and Dragon Location tiles is chance, which the host sees by watching the rng.
"""

from __future__ import annotations

from engines.base import Event, IllegalAction, Termination
from engines.clone import clone
from engines.dragonslayer.state import State

DRAWN = "The magicians agreed to end the game: no one killed the Dragon, so no one wins."


def draw_by_agreement(state: State) -> bool:
    """While the game runs."""
    return state["outcome"] is None


def agree_draw(state: State) -> tuple[State, list[Event]]:
    """The game ends with no winner; the map stays as it stands."""
    if state["outcome"] is not None:
        raise IllegalAction(f"The game is over. {state['outcome']['text']}")
    new = clone(state)
    new["outcome"] = {"winners": [], "text": DRAWN, "how": Termination.AGREED.value}
    new["phase"] = "over"
    new["pending"] = []
    return new, [Event(DRAWN)]


def revealed(before: State, after: State) -> bool:
    """Whether any seat was shown a tile or a strength it had not seen."""
    for old, new in zip(before["memory"], after["memory"], strict=True):
        if set(new) - set(old) or any(old[ref] != new[ref] for ref in set(old) & set(new)):
            return True
    if _shown_strengths(after) - _shown_strengths(before):
        return True
    keeps = {(d["seat"], d.get("tile")) for d in before["pending"] if d["kind"] == "keep"}
    return any(
        (d["seat"], d.get("tile")) not in keeps for d in after["pending"] if d["kind"] == "keep"
    )


def _shown_strengths(state: State) -> set[str]:
    return {km["key"] for km in state["kings_men"] if km["revealed"]}
