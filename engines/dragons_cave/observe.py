"""The state as one seat may know it: what :func:`views.seat_view` shows that seat, and no more.

Hidden parts are replaced by the placeholder ``"hidden"``:

* other seats' secret card this round (``{"card": "hidden", "dwarf": None}``) and, unless
  ``seat`` is this round's Dragon, its lair square;
* other caught players' hand splits (the Dragon never sees an amount);
* other players' Chest totals while the game runs, and a departed seat's sealed Chest always.

The public view says only *how many* secret answers are in, not whose, so the placeholders
are given to the other seats in a fixed order (the Dragon first, then seat order; catches
in catch order) rather than to those who really answered. The seat's own answers stay as
they are, so :func:`prompts.prompts` and :func:`prompts.legal_actions` for ``seat`` are
exactly those of the real state. Everything else (the board, Dwarves, face-up cards, hands,
Purses, the Treasure, the last round) is public and copied as is.
"""

from __future__ import annotations

from engines.clone import clone
from engines.dragons_cave.state import Catch, Observed, SeenCatch, State, StateBase, card_seats

HIDDEN = "hidden"
"""What stands in for anything the seat cannot see."""


def observe(state: State, seat: int) -> Observed:
    """A deep copy of ``state`` with everything ``seat`` cannot see replaced by ``HIDDEN``.

    Two states that differ only in what ``seat`` cannot see (other seats' secret choices,
    whose answers are in, other Chests) give equal results; ``state`` is not changed.
    """
    copy = clone(state)
    if copy["phase"] == "choose":
        _hide_choices(copy, seat)
    over = copy["phase"] == "over"
    chests: list[int | str] = [
        chest if other == seat or (over and other not in copy["departed"]) else HIDDEN
        for other, chest in enumerate(copy["chests"])
    ]
    return {**copy, "catches": _hide_splits(copy["catches"], seat), "chests": chests}


def _hide_choices(state: StateBase, seat: int) -> None:
    """Other seats' cards and (for a Dwarf player) the lair square, keeping only the count."""
    dragon = state["dragon_seat"]
    others = [s for s in card_seats(state) if s != seat]
    done = sum(state["cards"][s] is not None for s in others)
    if seat != dragon:
        done += state["lair_choice"] is not None
        state["lair_choice"] = None
        if done:
            state["lair_choice"] = HIDDEN
            done -= 1
    for other in range(len(state["cards"])):
        if other != seat:
            state["cards"][other] = None
    for other in others[:done]:
        state["cards"][other] = {"card": HIDDEN, "dwarf": None}


def _hide_splits(catches: list[Catch], seat: int) -> list[SeenCatch]:
    """The catches with other caught players' splits hidden, keeping only how many are made
    (in catch order)."""
    done = sum(c["split"] is not None for c in catches if c["seat"] != seat)
    seen: list[SeenCatch] = []
    for catch in catches:
        if catch["seat"] == seat:
            seen.append({**catch})
        else:
            seen.append({**catch, "split": HIDDEN if done > 0 else None})
            done -= 1
    return seen
