"""What each seat may see. The public view holds nothing secret: no unrevealed card or
lair square, no hand split before the Dragon picks, no Chest total before the game ends.

Public view keys (lists "per seat" are indexed by seat number):

* ``game`` ``"dragons-cave"``; ``round`` (from 1); ``phase``: ``"choose"`` (cards and the
  Dragon's square), ``"split"`` (caught players hide coins), ``"hand"`` (the Dragon picks
  hands) or ``"over"``; ``two_player``: bool.
* ``seats``: ``[{"seat", "role", "name"}]``; ``kinds``: ``[{"key", "name", "colour",
  "symbol"}]``; ``path``: ``[{"index", "kind", "coins", "section"}]`` (index 0 is the
  square after Start; people see it numbered index + 1); ``lair``: kinds left to right.
* ``dwarves``: ``[{"seat", "role", "dwarf", "square"}]``; ``square`` is ``"start"``, a path
  index, or ``"lair:<kind>"``; ``dwarf`` is 1, or 1 and 2 with two players.
* ``dragon_seat``, ``dragon_role``: who plays the Dragon this round.
* ``dragon_square``: the kind the Dragon sat on in the last revealed round
  (``last_round["round"]``), ``None`` before the first reveal.
* ``played``: per seat, face-up cards; ``hand_sizes``: per seat, cards in hand.
* ``purses``: per seat, coins; ``chests``: per seat ``"hidden"``, or coins once over (a
  departed seat's Chest stays sealed: always ``"hidden"``).
* ``departed``: seats that forfeited and left the game, in the order they left; their
  Dwarf is no longer in ``dwarves``.
* ``treasure``: coins left in the Dragon's Treasure; ``undistributed``: coins set aside when
  a short Treasure was shared out.
* ``waiting``: ``{"kind": "choices"|"splits"|"hands", "done", "total"}`` or ``None`` when over.
* ``caught``: seats whose hand the Dragon has yet to pick this round.
* ``last_round``: ``None`` or ``{"round", "dragon_seat", "dragon_square", "plays", "hands",
  "shortage"}``; each play is ``{"seat", "card", "dwarf", "outcome": "moved"|"caught"|
  "chest", "coins" (paid), "from", "to"}`` (no from/to for a Chest; ``printed`` too when
  the Treasure ran short); each hand is ``{"seat", "hand", "returned", "kept"}``;
  ``shortage`` is ``None`` or ``{"treasure", "owed", "players", "share", "undistributed",
  "text"}``.
* ``last_action``: ``None`` or ``{"seat", "verb", "text"}``; for secret answers ``seat`` is
  ``None``, ``verb`` is ``"secret"`` and the text only counts; a hand pick adds ``action``;
  a seat whose time ran out has ``verb`` ``"skip"`` or ``"forfeit"``.
* ``result``: ``None`` or ``{"reason": "lair"|"treasure"|"forfeit", "winners", "tiebreak": None|
  "closest"|"shared", "bonus", "totals", "text", "details"}``.
* ``summary``: one line in words.

A seat's view adds ``seat``, ``role``, ``hand``, ``chest`` (its total), ``my_choice``
(``{"card", "dwarf"}``, or ``{"lair"}`` for the Dragon, once locked in this round, else
``None``), ``my_split`` (``[left, right]`` once made) and ``private`` (words).
"""

from __future__ import annotations

from typing import Any

from engines.clone import clone
from engines.dragons_cave.board import coin_words, kind_name
from engines.dragons_cave.notation import CHEST
from engines.dragons_cave.prompts import waiting
from engines.dragons_cave.state import State, name, seats


def view(state: State, seat: int | None) -> dict[str, Any]:
    """The view ``seat`` may see (:func:`seat_view`), or the public one for ``None``."""
    if seat is None:
        return public_view(state)
    return seat_view(state, seat)


def public_view(state: State) -> dict[str, Any]:
    """The public view (keys in the module docstring)."""
    board = state["board"]
    over = state["phase"] == "over"
    last_round = clone(state["last_round"])
    outcome = clone(state["outcome"])
    return {
        "game": "dragons-cave",
        "round": state["round"],
        "phase": state["phase"],
        "two_player": state["two_player"],
        "seats": [
            {"seat": s, "role": state["roles"][s], "name": name(state, s)} for s in seats(state)
        ],
        "kinds": clone(board["kinds"]),
        "path": [
            {"index": i, "kind": sq["kind"], "coins": sq["coins"], "section": sq["section"]}
            for i, sq in enumerate(board["path"])
        ],
        "lair": list(board["lair"]),
        "dwarves": [
            {
                "seat": d["seat"],
                "role": state["roles"][d["seat"]],
                "dwarf": d["dwarf"],
                "square": d["square"],
            }
            for d in state["dwarves"]
        ],
        "dragon_seat": state["dragon_seat"],
        "dragon_role": state["roles"][state["dragon_seat"]],
        "dragon_square": last_round["dragon_square"] if last_round else None,
        "played": [list(cards) for cards in state["played"]],
        "hand_sizes": [len(cards) for cards in state["hands"]],
        "purses": list(state["purses"]),
        "chests": [
            chest if over and seat not in state["departed"] else "hidden"
            for seat, chest in enumerate(state["chests"])
        ],
        "departed": list(state["departed"]),
        "treasure": state["treasure"],
        "undistributed": state["undistributed"],
        "waiting": waiting(state),
        "caught": [c["seat"] for c in state["catches"] if c["hand"] is None],
        "last_round": last_round,
        "last_action": clone(state["last_action"]),
        "result": outcome,
        "summary": summary(state),
    }


def seat_view(state: State, seat: int) -> dict[str, Any]:
    """The public view plus what only ``seat`` knows: its hand, Chest and secret choices."""
    board = state["board"]
    view = public_view(state)
    choice: dict[str, Any] | None = None
    if state["phase"] == "choose":
        if seat == state["dragon_seat"] and state["lair_choice"] is not None:
            choice = {"lair": state["lair_choice"]}
        elif (card := state["cards"][seat]) is not None:
            choice = dict(card)
    split = next(
        (list(c["split"]) for c in state["catches"] if c["seat"] == seat and c["split"]), None
    )
    view.update(
        seat=seat,
        role=state["roles"][seat],
        hand=list(state["hands"][seat]),
        chest=state["chests"][seat],
        my_choice=choice,
        my_split=split,
    )
    words = [
        f"Your Chest: {coin_words(state['chests'][seat])}.",
        "Cards in hand: " + ", ".join(kind_name(board, c) for c in state["hands"][seat]) + ".",
    ]
    if choice and "lair" in choice:
        words.append(f"You sit on {kind_name(board, choice['lair'])} this round (locked in).")
    elif choice:
        played = "Chest" if choice["card"] == CHEST else kind_name(board, choice["card"])
        if state["two_player"] and choice["card"] != CHEST:
            played += f" for Dwarf {choice['dwarf']}"
        words.append(f"Your card this round: {played} (locked in).")
    if split:
        words.append(f"Your hands: {coin_words(split[0])} left, {split[1]} right.")
    view["private"] = " ".join(words)
    return view


def summary(state: State) -> str:
    """One line: the round, the Dragon, what is awaited, the Treasure; or the result."""
    if state["phase"] == "over":
        assert state["outcome"] is not None, "an ended game has its outcome"
        return f"Game over. {state['outcome']['text']}"
    dragon = name(state, state["dragon_seat"])
    counts = waiting(state) or {"done": 0, "total": 0}
    head = f"Round {state['round']}, {dragon} is the Dragon"
    tail = f"Treasure: {coin_words(state['treasure'])}."
    if state["phase"] == "choose":
        middle = f"secret choices: {counts['done']} of {counts['total']} in"
    elif state["phase"] == "split":
        caught = ", ".join(name(state, c["seat"]) for c in state["catches"])
        middle = f"caught: {caught}, hiding coins in two hands ({counts['done']} of "
        middle += f"{counts['total']} done)"
    else:
        pending = ", ".join(name(state, c["seat"]) for c in state["catches"] if not c["hand"])
        middle = f"the Dragon picks a hand of {pending}"
    gone = ", ".join(name(state, s) for s in state["departed"])
    tail += f" Left the game: {gone}." if gone else ""
    return f"{head}; {middle}. {tail}"
