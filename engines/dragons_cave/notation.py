"""The text notation of Dragon's Cave actions: parsed case-insensitively, and written in
canonical form (:func:`canonical_card`, :func:`lair_action`, :func:`split_action`,
:func:`hand_action`).

* ``card <kind>`` or ``card chest``: a Dwarf player's secret card (``card ruby``).
  In the 2-player game ``card <kind> <1|2>`` also names the Dwarf that moves.
* ``lair <kind>``: the Dragon's secret square in its lair (``lair amber``).
* ``split <n>``: a caught player puts ``n`` coins of the Purse in the left hand.
* ``hand <seat> left|right``: the Dragon picks a caught player's hand (``hand blue left``).

A kind may be written as its name (``ruby``) or its colour (``red``).

:func:`read` turns text into an :class:`Action` (raising :class:`UnreadableAction` for text
that is not notation: an unknown verb or kind, a missing or malformed word) and
:func:`write` gives an action's canonical text: lower case, kinds by key (``card ruby``, not
``card red``), players by role (``hand blue left``, not ``hand 1 left``).
"""

from __future__ import annotations

from dataclasses import dataclass

from engines.base import UnreadableAction
from engines.dragons_cave.board import COLOURS, Board, kind_keys, load_board
from engines.options import clip

CHEST = "chest"
VERBS = ("card", "lair", "split", "hand")
HANDS = ("left", "right")


@dataclass(frozen=True)
class Action:
    """A read action. ``verb`` is ``card``, ``lair``, ``split`` or ``hand``; the other
    fields are those of its verb, the rest left empty:

    * ``card``: ``kind`` (a kind key, or ``"chest"``) and ``dwarf`` (the Dwarf named, or
      ``None``: always for the Chest, and when no Dwarf is named);
    * ``lair``: ``kind``;
    * ``split``: ``left``, the coins in the left hand;
    * ``hand``: ``side`` (``left`` or ``right``) and ``player``, the caught player's role
      (``""`` when not named, which does when one caught player is waiting).
    """

    verb: str
    kind: str = ""
    dwarf: int | None = None
    left: int | None = None
    player: str = ""
    side: str = ""


def read(action: str, board: Board | None = None) -> Action:
    """The action the text ``action`` writes (case and spacing do not matter), with the
    kinds of ``board`` (the game's board; the board data file's by default).

    Raises :class:`UnreadableAction` saying how actions are written if it is not notation.
    """
    parsed = parse(action)
    words = parsed.words
    if parsed.verb == "card":
        return _read_card(board or load_board(), words)
    if parsed.verb == "lair":
        if len(words) != 1:
            raise UnreadableAction("Name a square of your lair: `lair <kind>`, e.g. `lair ruby`.")
        return Action("lair", kind=kind_word(board or load_board(), words[0], allow_chest=False))
    if parsed.verb == "split":
        if len(words) != 1 or not words[0].isdecimal():
            raise UnreadableAction(
                "Say how many coins of your Purse go in the left hand: `split <n>`, e.g. `split 3`."
            )
        return Action("split", left=int(words[0]))
    return _read_hand(words)


def _read_card(board: Board, words: tuple[str, ...]) -> Action:
    if not words or len(words) > 2:
        raise UnreadableAction(
            "Name a card: `card <kind>` or `card chest`; with 2 players also the Dwarf that "
            "moves, e.g. `card ruby 1`."
        )
    kind = kind_word(board, words[0], allow_chest=True)
    if len(words) == 1:
        return Action("card", kind=kind)
    number = words[1].removeprefix("dwarf")
    if not number.isdecimal():
        raise UnreadableAction(
            f"{clip(words[1])!r} is not a Dwarf number: `card {words[0]} 1` or `card {words[0]} 2`."
        )
    # The Chest card moves nobody, so a Dwarf named with it says nothing.
    return Action("card", kind=kind, dwarf=None if kind == CHEST else int(number))


def _read_hand(words: tuple[str, ...]) -> Action:
    sides = [word for word in words if word in HANDS]
    others = [word for word in words if word not in HANDS]
    player = others[0] if others else ""
    if player.isdecimal() and int(player) < len(COLOURS):
        player = COLOURS[int(player)]
    if len(sides) != 1 or len(others) > 1 or (player and player not in COLOURS):
        raise UnreadableAction(
            "Pick a hand with `hand <player> left|right`: the player by colour or seat "
            "number, e.g. `hand blue left`."
        )
    return Action("hand", player=player, side=sides[0])


def write(action: Action) -> str:
    """The canonical text of ``action``: ``card ruby``, ``card ruby 2``, ``card chest``,
    ``lair amber``, ``split 3``, ``hand blue left`` (``hand left`` with no player named)."""
    if action.verb == "card":
        return canonical_card(action.kind, action.dwarf)
    if action.verb == "lair":
        return lair_action(action.kind)
    if action.verb == "split":
        return split_action(action.left or 0)
    return hand_action(action.player, action.side) if action.player else f"hand {action.side}"


def readable(action: str, board: Board | None = None) -> bool:
    """Whether :func:`read` reads ``action``."""
    try:
        read(action, board)
    except UnreadableAction:
        return False
    return True


@dataclass(frozen=True)
class Parsed:
    """An action split into its verb and the words after it (lower case)."""

    verb: str
    words: tuple[str, ...]


def parse(action: str) -> Parsed:
    """Split ``action`` into verb and words. Raises UnreadableAction for an unknown verb."""
    words = tuple(str(action).lower().split())
    if not words or words[0] not in VERBS:
        raise UnreadableAction(
            f"I don't know the action {clip(action)!r}. Actions are `card <kind>`, "
            "`card chest`, `lair <kind>`, `split <coins in left hand>` and "
            "`hand <player> left|right`."
        )
    return Parsed(words[0], words[1:])


def kind_word(board: Board, word: str, allow_chest: bool) -> str:
    """The kind key meant by ``word`` (name or colour), or ``"chest"`` if allowed.

    Raises UnreadableAction listing the accepted words otherwise.
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
    raise UnreadableAction(f"{clip(word)!r} is not a card I know; name one of {names}.")


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
