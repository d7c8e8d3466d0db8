"""The fast model of Dragon's Cave: a game as a few lists of ints, for play-outs.

These are the same rules as the engine in a compact form for search: positions are the
engine's ``progress`` numbers (Start 0, path square i is i + 1, the lair last), hands are
bitmasks of kinds, and a round is carried out without events or checks. It mirrors:

* :func:`engines.dragons_cave.board.step_ahead`, ``step_back`` and ``coins_on`` (where a
  card takes a Dwarf, or sends a caught one, and what the square pays): :class:`Tables`;
* :func:`engines.dragons_cave.state.card_seats` and ``movable``: :meth:`Sim.card_seats`,
  :meth:`Sim.movable`;
* :func:`engines.dragons_cave.rounds.reveal` (moves, catches, the Chest card, payment with a
  short Treasure shared out, the game ending at once on an empty Treasure): :func:`reveal`
  and :func:`treasure_empty`;
* the Dragon taking back the coins of a picked hand (``actions.pick_hand``): :func:`take`;
* :func:`engines.dragons_cave.rounds.end_round` (the lair reached, the Dragon passing on or
  the 2-player swap) and ``next_dragon``: :func:`round_over`, :func:`next_round`;
* :func:`engines.dragons_cave.rounds.finish` (Purse + Chest + lair bonus, ties to the
  closest to the lair, then shared): :func:`totals`, :func:`share`.

``tests/engines/test_dragons_cave_fast.py`` replays the rounds of random engine games on it
and checks each ends in the engine's position and final result. Pure and deterministic.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from engines.dragons_cave.board import Board, progress
from engines.dragons_cave.state import LAIR_BONUS, StateBase

CHEST = -1
"""The Chest card in the model (kinds are numbered 0-4 in card order)."""

# --- the board as lookup tables ------------------------------------------------------------


@dataclass(frozen=True)
class Tables:
    """The board on positions: 0 is Start, path square i is i + 1, the lair is ``lair``
    (the engine's ``progress`` numbering). ``ahead``/``back`` are indexed [position][kind]."""

    keys: tuple[str, ...]
    ahead: tuple[tuple[int, ...], ...]
    back: tuple[tuple[int, ...], ...]
    coins: tuple[int, ...]
    lair: int
    full: int


def tables(board: Board) -> Tables:
    """The lookup tables of ``board`` (cached by its contents)."""
    keys = tuple(kind["key"] for kind in board["kinds"])
    path = tuple((square["kind"], int(square["coins"])) for square in board["path"])
    return _tables(keys, path)


@lru_cache(maxsize=8)
def _tables(keys: tuple[str, ...], path: tuple[tuple[str, int], ...]) -> Tables:
    lair = len(path) + 1
    kind_at = [-1] + [keys.index(kind) for kind, _ in path]
    ahead, back = [], []
    for pos in range(lair + 1):
        ahead.append(
            tuple(
                next((p for p in range(pos + 1, lair) if kind_at[p] == k), lair)
                for k in range(len(keys))
            )
        )
        back.append(
            tuple(
                next((p for p in range(min(pos, lair) - 1, 0, -1) if kind_at[p] == k), 0)
                for k in range(len(keys))
            )
        )
    coins = (0, *(c for _, c in path), 0)
    return Tables(keys, tuple(ahead), tuple(back), coins, lair, (1 << len(keys)) - 1)


KINDS_IN = tuple(tuple(k for k in range(8) if mask >> k & 1) for mask in range(256))
"""The kinds held in a hand bitmask."""


# --- the game model ----------------------------------------------------------------------


class Sim:
    """A compact copy of a game for playing rounds out fast (no events, no checks).

    ``pos[seat]`` lists positions of the seat's Dwarves (by Dwarf number); ``hand[seat]``
    is a bitmask of kinds in hand (the Chest card is always there); ``present`` are the
    seats still in the game.
    """

    __slots__ = (
        "chest", "dragon", "hand", "pos", "present", "purse", "t", "treasure", "two",
        "undistributed",
    )  # fmt: skip

    t: Tables
    two: bool
    pos: list[list[int]]
    hand: list[int]
    purse: list[int]
    chest: list[int]
    treasure: int
    undistributed: int
    dragon: int
    present: tuple[int, ...]

    def copy(self) -> Sim:
        other = Sim.__new__(Sim)
        other.t = self.t
        other.two = self.two
        other.pos = [list(p) for p in self.pos]
        other.hand = list(self.hand)
        other.purse = list(self.purse)
        other.chest = list(self.chest)
        other.treasure = self.treasure
        other.undistributed = self.undistributed
        other.dragon = self.dragon
        other.present = self.present
        return other

    def movable(self, seat: int) -> list[int]:
        """Indexes of ``seat``'s Dwarves not yet in the lair."""
        lair = self.t.lair
        return [d for d, p in enumerate(self.pos[seat]) if p != lair]

    def card_seats(self) -> list[int]:
        """Seats playing a card this round (as the engine's ``card_seats``)."""
        lair = self.t.lair
        return [s for s in self.present if s != self.dragon and any(p != lair for p in self.pos[s])]


def sim_from(state: StateBase, chests: list[int]) -> Sim:
    """The model of an engine (or observed) state, with ``chests`` as the Chest totals (an
    observed state may hide some)."""
    board = state["board"]
    t = tables(board)
    seats = len(state["roles"])
    sim = Sim.__new__(Sim)
    sim.t = t
    sim.two = bool(state["two_player"])
    sim.pos = [[] for _ in range(seats)]
    for dwarf in sorted(state["dwarves"], key=lambda d: (d["seat"], d["dwarf"])):
        sim.pos[dwarf["seat"]].append(progress(board, dwarf["square"]))
    sim.hand = [sum(1 << t.keys.index(c) for c in hand if c in t.keys) for hand in state["hands"]]
    sim.purse = list(state["purses"])
    sim.chest = list(chests)
    sim.treasure = state["treasure"]
    sim.undistributed = state["undistributed"]
    sim.dragon = state["dragon_seat"]
    sim.present = tuple(s for s in range(seats) if s not in state.get("departed", ()))
    return sim


def reveal(sim: Sim, cards: dict[int, tuple[int, int]], lair: int) -> tuple[list[int], bool]:
    """Carry out the revealed cards (``seat -> (kind or CHEST, Dwarf index)``) against the
    Dragon's kind ``lair``, paying coins (sharing a short Treasure) as the engine does.

    Returns the caught seats that have coins to split, and whether the 2-player roles swap
    (someone was caught or played the Chest card).
    """
    t = sim.t
    owed: list[tuple[int, int]] = []
    caught: list[int] = []
    swap = False
    for seat, (kind, d) in cards.items():
        if kind == CHEST:
            sim.chest[seat] += sim.purse[seat]
            sim.purse[seat] = 0
            sim.hand[seat] = t.full
            swap = True
        elif kind == lair:
            sim.pos[seat][d] = t.back[sim.pos[seat][d]][kind]
            sim.hand[seat] = t.full
            swap = True
            if sim.purse[seat] > 0:
                caught.append(seat)
        else:
            new = t.ahead[sim.pos[seat][d]][kind]
            sim.pos[seat][d] = new
            sim.hand[seat] &= ~(1 << kind)
            if t.coins[new]:
                owed.append((seat, t.coins[new]))
    demand = sum(c for _, c in owed)
    if demand <= sim.treasure:
        for seat, c in owed:
            sim.purse[seat] += c
        sim.treasure -= demand
    else:
        each, left = divmod(sim.treasure, len(owed))
        for seat, _ in owed:
            sim.purse[seat] += each
        sim.treasure = 0
        sim.undistributed += left
    return caught, swap


def take(sim: Sim, seat: int, taken: int) -> None:
    """The Dragon takes ``taken`` coins of ``seat``'s Purse back to the Treasure."""
    sim.purse[seat] -= taken
    sim.treasure += taken


def round_over(sim: Sim) -> bool:
    """Whether the game ends with this round: a Dwarf reached the lair (2 players: both
    Dwarves of one player)."""
    lair = sim.t.lair
    if sim.two:
        return any(all(p == lair for p in sim.pos[s]) for s in sim.present)
    return any(p == lair for s in sim.present for p in sim.pos[s])


def next_round(sim: Sim, swap: bool) -> None:
    """Pass the Dragon as the engine does: 2 players swap on ``swap``; otherwise the next
    seat still in the game."""
    if sim.two:
        if swap:
            sim.dragon = 1 - sim.dragon
        return
    count = len(sim.pos)
    seat = (sim.dragon + 1) % count
    while seat not in sim.present:
        seat = (seat + 1) % count
    sim.dragon = seat


def totals(sim: Sim) -> list[int]:
    """Final scores: Purse + Chest + the lair bonus; a departed seat counts -1 (never wins)."""
    lair = sim.t.lair
    return [
        sim.purse[s] + sim.chest[s] + (LAIR_BONUS if lair in sim.pos[s] else 0)
        if s in sim.present
        else -1
        for s in range(len(sim.pos))
    ]


def share(sim: Sim, seat: int) -> float:
    """``seat``'s share of the win in the finished game ``sim`` (ties: nearest the lair,
    then shared)."""
    scores = totals(sim)
    best = max(scores)
    if scores[seat] != best:
        return 0.0
    richest = [s for s in sim.present if scores[s] == best]
    if len(richest) == 1:
        return 1.0
    near = {s: sum(sim.pos[s]) for s in richest}
    top = max(near.values())
    if near[seat] != top:
        return 0.0
    return 1.0 / sum(1 for v in near.values() if v == top)


def treasure_empty(sim: Sim) -> bool:
    """Whether the game ends at once after a reveal: the Treasure is empty."""
    return sim.treasure == 0


def legal_cards(sim: Sim, seat: int) -> list[tuple[int, int]]:
    """The cards ``seat`` may play (as the engine's card choices): each kind in hand for each
    Dwarf not yet in the lair, as ``(kind, Dwarf index)``, then the Chest card
    ``(CHEST, 0)``."""
    kinds = KINDS_IN[sim.hand[seat]]
    cards = [(k, d) for d in sim.movable(seat) for k in kinds]
    cards.append((CHEST, 0))
    return cards
