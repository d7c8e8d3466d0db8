"""The state of a game of Dragon's Cave: a JSON-ready dict, and small queries on it.

Every value is a JSON type, so ``dump``/``load`` are plain copies. :class:`State` describes
each key. In short: the ``board``; the seats' ``roles`` and ``names``; the ``dwarves``; each
seat's ``hands``, ``played`` cards, ``purses`` and ``chests``; the ``treasure``; who is the
Dragon, the ``round`` and its ``phase``; this round's secret ``cards``, ``lair_choice`` and
``catches``; the public ``last_round`` and ``last_action``; the ``outcome``; and the seats
that ``departed``.

A seat that forfeited and left the game (3-4 players) has its Dwarf off the board, its Purse
back in the Treasure and its Chest sealed in ``chests`` (it still holds its coins but no
longer counts).

What one seat may know of a state (:mod:`.observe`) is an :class:`Observed` state: the same
keys, with what it cannot see replaced by ``"hidden"``: other seats' secret cards and the
lair square (which keep their types) and other Chests and Purse splits (which do not).
"""

from __future__ import annotations

from typing import Any, Literal, NotRequired, TypedDict, TypeGuard

from engines.base import Result, Termination, termination
from engines.clone import clone
from engines.dragons_cave.board import START, Board, Square, in_lair, kind_keys
from engines.dragons_cave.notation import CHEST
from engines.snapshot import check_format

TREASURE = 44
"""Gold coins in the box: the Dragon's Treasure at the start (given by the rule text)."""
LAIR_BONUS = 4
"""Coins won by a player who reaches the Dragon's lair (given by the rule text)."""
CARDS_PER_SET = 6
"""Each player's set: one card per kind of square plus the Treasure Chest card."""

Phase = Literal["choose", "split", "hand", "over"]
"""The part of the round: ``"choose"`` (the secret cards and the Dragon's square),
``"split"`` (caught players hide their Purse in two hands), ``"hand"`` (the Dragon picks a
hand of each), or ``"over"`` (the game has ended)."""


class Dwarf(TypedDict):
    """A Dwarf on the board: its player's ``seat``, its number ``dwarf`` (1, or 1 and 2 in
    the 2-player game) and its ``square`` (see :mod:`.board`)."""

    seat: int
    dwarf: int
    square: Square


class CardChoice(TypedDict):
    """A seat's secret card this round: the ``card`` (a kind's key or ``"chest"``;
    ``"hidden"`` in another seat's observed state) and the ``dwarf`` it moves (``None`` for
    the Chest card, which moves nobody, or a hidden card)."""

    card: str
    dwarf: int | None


class Catch(TypedDict):
    """A caught player still settling its Purse this round."""

    seat: int
    """The caught player."""
    dwarf: int | None
    """The Dwarf that was caught."""
    purse: int
    """The coins in the Purse when caught."""
    split: list[int] | None
    """``[left, right]``: the coins hidden in each hand, once split."""
    hand: str | None
    """The hand the Dragon picked (``"left"`` or ``"right"``), once picked."""


class SeenCatch(TypedDict):
    """A :class:`Catch` as one seat knows it: another player's ``split`` is ``"hidden"``."""

    seat: int
    dwarf: int | None
    purse: int
    split: list[int] | str | None
    hand: str | None


Play = TypedDict(
    "Play",
    {
        "seat": int,
        "card": str,
        "dwarf": int | None,
        "outcome": str,
        "coins": int,
        "from": NotRequired[Square],
        "to": NotRequired[Square],
        "printed": NotRequired[int],
    },
)
"""A revealed card: who played it (``seat``, ``dwarf``), the ``card``, its ``outcome``
(``"moved"``, ``"caught"`` or ``"chest"``) and the ``coins`` paid; the squares a Dwarf moved
``from`` and ``to`` (none for the Chest card); ``printed``: the coins on the square when a
short Treasure paid less."""


class HandPick(TypedDict):
    """A hand the Dragon picked: whose (``seat``), which ``hand``, the coins ``returned`` to
    the Treasure and those ``kept`` in the Purse."""

    seat: int
    hand: str
    returned: int
    kept: int


class Shortage(TypedDict):
    """A Treasure too short to pay every moved Dwarf: what it held (``treasure``), the coins
    ``owed``, the ``players`` paid, each one's ``share``, the coins left ``undistributed``
    and all that in words (``text``)."""

    treasure: int
    owed: int
    players: list[int]
    share: int
    undistributed: int
    text: str


class LastRound(TypedDict):
    """The public summary of the last revealed round: its number, who was the Dragon and
    the kind of square it sat on, the revealed ``plays`` (in seat order), the ``hands``
    the Dragon picked since, and the ``shortage`` of the Treasure, if any."""

    round: int
    dragon_seat: int
    dragon_square: str
    plays: list[Play]
    hands: list[HandPick]
    shortage: Shortage | None


class LastAction(TypedDict):
    """The public note of the last accepted action. For a secret answer ``seat`` is
    ``None``, ``verb`` is ``"secret"`` and the ``text`` only counts the answers in; a hand
    pick is ``"hand"`` and adds the ``action``; a seat whose time ran out has ``"skip"`` or
    ``"forfeit"``."""

    seat: int | None
    verb: str
    action: NotRequired[str]
    text: str


class Outcome(TypedDict):
    """The final count once the game is over."""

    reason: str
    """Why the game ended: ``"lair"``, ``"treasure"`` or ``"forfeit"``."""
    how: NotRequired[str]
    """How it ended (a :class:`~engines.base.Termination` value); absent in snapshots kept
    before it was recorded (a ``"forfeit"`` reason then did not say which)."""
    winners: list[int]
    """The winning seats (more than one share the victory)."""
    tiebreak: str | None
    """``None``, or how a tie on gold was settled: ``"closest"`` or ``"shared"``."""
    bonus: list[int]
    """Per seat, the lair bonus won."""
    totals: list[int]
    """Per seat, the coins that count (0 for a seat that left the game)."""
    text: str
    """The winners in words."""
    details: str
    """Every seat's count in words."""


class StateBase(TypedDict):
    """The keys a :class:`State` and an :class:`Observed` state have alike."""

    format: int
    """The snapshot format (:data:`FORMAT`)."""
    board: Board
    """The path, lair and kinds, copied from the data file at set-up."""
    roles: list[str]
    """Per seat, its role key (``"red"``)."""
    names: list[str]
    """Per seat, its display name (``"Red"``)."""
    two_player: bool
    """The 2-player variation is on."""
    dwarves: list[Dwarf]
    """One Dwarf per seat (numbered 1), or two per seat (1 and 2) in the 2-player game; a
    seat that left the game has none."""
    hands: list[list[str]]
    """Per seat, the cards in hand."""
    played: list[list[str]]
    """Per seat, the cards lying face up."""
    purses: list[int]
    """Per seat, the coins in its Purse."""
    treasure: int
    """The coins left in the Dragon's Treasure."""
    undistributed: int
    """Coins left over when a short Treasure was shared out."""
    dragon_seat: int
    """Who plays the Dragon this round."""
    round: int
    """The round, from 1."""
    phase: Phase
    """The part of the round (see :data:`Phase`)."""
    cards: list[CardChoice | None]
    """Per seat, this round's secret card, or ``None`` while not chosen (or not playing)."""
    lair_choice: str | None
    """The Dragon's secret square this round (a kind's key, or ``"hidden"`` when observed by
    a Dwarf player), or ``None`` while not chosen."""
    last_round: LastRound | None
    """The public summary of the last revealed round."""
    last_action: LastAction | None
    """The public note of the last accepted action."""
    outcome: Outcome | None
    """The final count once the game is over."""
    departed: list[int]
    """Seats that forfeited and left the game for good (3-4 players), in the order they
    left."""


class State(StateBase):
    """A game of Dragon's Cave."""

    chests: list[int]
    """Per seat, the coins locked in its Chest."""
    catches: list[Catch]
    """This round's caught players still settling their Purse, in catch order."""


class Observed(StateBase):
    """A game as one seat may know it (:func:`.observe.observe`): what it cannot see is
    ``"hidden"``. Its own Chest and split are as they are."""

    chests: list[int | str]
    """Per seat, the coins in its Chest, or ``"hidden"``."""
    catches: list[SeenCatch]
    """As in :class:`State`, another seat's split ``"hidden"``."""


FORMAT = 1
"""The snapshot format :func:`dump` writes (kept in the state as ``"format"``)."""

KEYS = State.__required_keys__
"""The keys of every state (a seat's observed state has the same)."""


def full_hand(board: Board) -> list[str]:
    """A complete set of cards: every kind in board order, then the Chest card."""
    return [*kind_keys(board), CHEST]


def new_state(roles: list[str], names: list[str], board: Board, first_dragon: int) -> State:
    """A game at the start of round 1: every Dwarf on Start, all 44 coins in the Treasure."""
    seats = len(roles)
    two_player = seats == 2
    per_seat = 2 if two_player else 1
    return {
        "format": FORMAT,
        "board": board,
        "roles": list(roles),
        "names": list(names),
        "two_player": two_player,
        "dwarves": [
            {"seat": seat, "dwarf": number, "square": START}
            for seat in range(seats)
            for number in range(1, per_seat + 1)
        ],
        "hands": [full_hand(board) for _ in range(seats)],
        "played": [[] for _ in range(seats)],
        "purses": [0] * seats,
        "chests": [0] * seats,
        "treasure": TREASURE,
        "undistributed": 0,
        "dragon_seat": first_dragon,
        "round": 1,
        "phase": "choose",
        "cards": [None] * seats,
        "lair_choice": None,
        "catches": [],
        "last_round": None,
        "last_action": None,
        "outcome": None,
        "departed": [],
    }


def dump(state: State | Observed) -> dict[str, Any]:
    """The state (or a seat's observed state) as JSON-ready data: a copy (it holds its
    ``format``)."""
    return dict(clone(state))


def load(data: dict[str, Any]) -> State:
    """The state :func:`dump` wrote; an unknown or newer format raises ``UnknownFormat``,
    a snapshot missing a key ``ValueError``."""
    check_format(data, FORMAT, "Dragon's Cave")
    state = clone(data)
    state.setdefault("departed", [])  # snapshots stored before seats could leave
    if not _has_every_key(state):
        raise ValueError(f"Not a Dragon's Cave state: missing {sorted(KEYS - set(state))}")
    return state


def _has_every_key(data: dict[str, Any]) -> TypeGuard[State]:
    """Whether ``data`` holds every key of a state."""
    return set(data) >= KEYS


def result(state: State) -> Result | None:
    """The winners and the ending in words once the game is over."""
    outcome = state["outcome"]
    if outcome is None:
        return None
    legacy = Termination.FORFEIT if outcome["reason"] == "forfeit" else Termination.RULES
    how = termination(outcome.get("how"), legacy)
    return Result(winners=tuple(outcome["winners"]), text=outcome["text"], how=how)


def seats(state: StateBase) -> range:
    """All seat numbers."""
    return range(len(state["roles"]))


def present(state: StateBase) -> list[int]:
    """The seats still in the game (not departed)."""
    return [seat for seat in seats(state) if seat not in state["departed"]]


def dragon_away(state: StateBase) -> bool:
    """Whether this round's Dragon has left the game (its choices are then drawn)."""
    return state["dragon_seat"] in state["departed"]


def dwarves_of(state: StateBase, seat: int) -> list[Dwarf]:
    """The Dwarves of ``seat`` (one, or two in the 2-player game)."""
    return [dwarf for dwarf in state["dwarves"] if dwarf["seat"] == seat]


def dwarf(state: StateBase, seat: int, number: int | None) -> Dwarf:
    """Dwarf ``number`` (1 or 2) of ``seat``; ``KeyError`` if it has none (``None`` is the
    Dwarf of no card but the Chest's)."""
    for candidate in dwarves_of(state, seat):
        if candidate["dwarf"] == number:
            return candidate
    raise KeyError((seat, number))


def movable(state: StateBase, seat: int) -> list[int]:
    """Numbers of ``seat``'s Dwarves that are not yet in the lair."""
    return [d["dwarf"] for d in dwarves_of(state, seat) if not in_lair(d["square"])]


def card_seats(state: StateBase) -> list[int]:
    """Seats that play a card this round: everyone still in the game but the Dragon with a
    Dwarf that can still move (a Dwarf already in the lair does not play)."""
    return [s for s in present(state) if s != state["dragon_seat"] and movable(state, s)]


def name(state: StateBase, seat: int) -> str:
    """Display name of ``seat`` (its colour, e.g. ``"Red"``)."""
    return state["names"][seat]


def seat_of_word(state: StateBase, word: str) -> int | None:
    """The seat a player word names: its role key (``"blue"``) or its seat number."""
    word = word.lower()
    if word in state["roles"]:
        return state["roles"].index(word)
    if word.isdecimal() and int(word) < len(state["roles"]):
        return int(word)
    return None
