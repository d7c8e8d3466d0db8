"""The text notation of Dragon's Cave actions: parsed case-insensitively, and written in
canonical form (:func:`canonical_card`, :func:`lair_action`, :func:`split_action`,
:func:`hand_action`).

* ``card <kind>`` or ``card chest``: a Dwarf player's secret card (``card ruby``).
  In the 2-player game ``card <kind> <1|2>`` also names the Dwarf that moves.
* ``lair <kind>``: the Dragon's secret square in its lair (``lair amber``).
* ``split <n>``: a caught player puts ``n`` coins of the Purse in the left hand.
* ``hand <seat> left|right``: the Dragon picks a caught player's hand (``hand blue left``).

A kind may be written as its name (``ruby``) or its colour (``red``).
"""

from __future__ import annotations

from dataclasses import dataclass

from engines.base import IllegalAction
from engines.dragons_cave.board import Board, kind_keys
from engines.options import clip

CHEST = "chest"
VERBS = ("card", "lair", "split", "hand")
HANDS = ("left", "right")


@dataclass(frozen=True)
class Parsed:
    """An action split into its verb and the words after it (lower case)."""

    verb: str
    words: tuple[str, ...]


def parse(action: str) -> Parsed:
    """Split ``action`` into verb and words. Raises IllegalAction for an unknown verb."""
    words = tuple(str(action).lower().split())
    if not words or words[0] not in VERBS:
        raise IllegalAction(
            f"I don't know the action {clip(action)!r}. Actions are `card <kind>`, "
            "`card chest`, `lair <kind>`, `split <coins in left hand>` and "
            "`hand <player> left|right`."
        )
    return Parsed(words[0], words[1:])


def kind_word(board: Board, word: str, allow_chest: bool) -> str:
    """The kind key meant by ``word`` (name or colour), or ``"chest"`` if allowed.

    Raises IllegalAction listing the accepted words otherwise.
    """
    for kind in board["kinds"]:
        if word in (kind["key"], kind["name"].lower(), kind["colour"]):
            return kind["key"]
    if word == "purple":
        for kind in board["kinds"]:
            if kind["colour"] == "violet":
                return kind["key"]
    if allow_chest and word == CHEST:
        return CHEST
    names = ", ".join(kind_keys(board)) + (" or chest" if allow_chest else "")
    raise IllegalAction(f"{clip(word)!r} is not a card I know; name one of {names}.")


def canonical_card(kind: str, dwarf: int | None) -> str:
    """The canonical text of a card action."""
    return f"card {kind}" if dwarf is None else f"card {kind} {dwarf}"


def lair_action(kind: str) -> str:
    """The canonical text of the Dragon's lair square: ``lair amber``."""
    return f"lair {kind}"


def split_action(left: int) -> str:
    """The canonical text of a caught player's split: ``split 3`` (coins in the left hand)."""
    return f"split {left}"


def hand_action(role: str, side: str) -> str:
    """The canonical text of the Dragon's pick of a caught player's hand: ``hand blue left``."""
    return f"hand {role} {side}"
