"""St. George and the Dragon computer player: expectimax over the next roll, hand-tuned scores.

Approach. The die decides most of the game, and a move matters mostly through what the next
roll can do to it: whether the Dragon can then land on one of our Knights, or whether a Knight
can then reach the empty Lair. So each legal move is scored by the expected value, over the
six faces of the next relevant roll, of a hand-tuned evaluation. What the next roll can do
is found on the engine's fast model of the same rules (:mod:`engines.stgeorge.fast`: points
as bits, every exact-length walk of up to six steps found once per piece and position).

Knights (a Knight seat, holding one castle or several). The evaluation is the race: a
castle's ``eta`` is the expected number of turns its two nearest Knights need to reach the
Lair unhindered (``turns_to_lair``: 1 turn from ring a, 2.5 from a castle, 0 once home; a
castle that cannot bring two home is ``DEAD`` turns away). The seat's score is minus its
best castle's ``eta``, minus a little of its other castles'. After our move the Dragon
rolls: for each face it is assumed to take whichever of our Knights it can reach that hurts
us most, so a move that leaves a Knight where the Dragon can land pays for its risk.

The Dragon. A move is worth ``CAPTURE`` per Knight taken from a castle that still owes two,
plus what taking it does to that castle's race; minus the Knights' threat (a castle close
to two in the Lair costs much more: ``THREAT * THREAT_DECAY ** eta``); minus ``LOSS`` times
the chance that a castle with one Knight home brings in its second before our next turn
(none while we sit on the Lair); plus ``HUNT`` times the expected best capture our next roll
offers from where we land; and a small pull towards the nearest Knight still worth taking.

Bounds: the work per decision is bounded by the legal moves times six faces (no deepening),
so results never depend on machine speed; ``TIME_GUARD`` seconds only stops an unexpectedly
slow decision early, keeping the best move found so far. The only shared state is the board
model and its walks, filled in once with the same values whichever thread gets there first.

Measured (``python -m bench.tournament --games stgeorge --rounds 200``, strong in one seat,
easy elsewhere, against easy in that seat with the same seeds):

* 2 players: the Knights 100.0% against 72.0% (+28.0 pp), the Dragon 100.0% against 28.0%
  (+72.0 pp).
* 5 players: St. George 100.0% / 26.5%, St. Patrick 99.0% / 28.0%, St. Andrew 99.5% / 26.0%,
  St. David 99.0% / 19.0%, the Dragon 98.0% / 0.5% (gains +71 to +97.5 pp).
* Decision time over all strong decisions (rolls included): p50 0.2 ms, p95 22.7 ms at two
  players; p50 0.0 ms, p95 9.7 ms at five. Move decisions alone: p95 under 35 ms, the
  slowest (the first walks worked out from a point) about 0.3 s.

Strong against strong (200 games each), the Knights win 94% of two-player games (the Dragon
must take eight Knights, the Knights bring home two of one castle); at five players the
Dragon did not win once and the Knight seats won in turn order: 37%, 23.5%, 27%, 12.5%.
"""

from __future__ import annotations

import random
import time
from functools import lru_cache
from typing import Any

from engines.base import Game
from engines.stgeorge.board import current_board
from engines.stgeorge.fast import (
    FACES,
    Geometry,
    Memo,
    Position,
    bits,
    geometry,
    position_of,
    reach,
)
from engines.stgeorge.rules import DIE_SIDES, PIECES_TO_WIN
from engines.stgeorge.seats import seat as role_of
from players.base import Decision

WIN = 10_000.0
"""The score of a won position (a lost one is ``-WIN``)."""
DEAD = 40.0
"""The ``eta`` of a castle that can no longer bring two Knights home."""
OTHER_CASTLES = 0.1
"""Weight of a Knight seat's other castles' ``eta`` next to its best one's."""
CAPTURE = 10.0
"""The Dragon's reward for a Knight taken from a castle it still needs two of."""
THREAT = 40.0
THREAT_DECAY = 0.6
"""A castle ``eta`` turns from winning costs the Dragon ``THREAT * THREAT_DECAY ** eta``."""
LOSS = 300.0
"""What the Dragon pays per unit of chance that the Knights win before its next turn."""
HUNT = 0.5
"""Weight of the best capture the Dragon's next roll is expected to offer."""
PULL = 0.3
"""The Dragon's cost per step to the nearest Knight still worth taking."""
TIME_GUARD = 0.8
"""Seconds after which a decision stops weighing further moves (a safety net only)."""


@lru_cache(maxsize=4)
def turns_to_lair(longest: int) -> tuple[float, ...]:
    """Expected turns for a lone Knight ``d`` points out to land on the Lair, for d = 0..longest.

    With a roll at least ``d`` it lands at once (a detour along a ring uses up the surplus);
    with less it moves that many points closer.
    """
    turns = [0.0]
    for d in range(1, longest + 1):
        turns.append(1 + sum(turns[d - r] for r in FACES if r < d) / DIE_SIDES)
    return tuple(turns)


# --- the evaluation ----------------------------------------------------------------------


class Judge:
    """Scores positions for one decision (it remembers walks worked out along the way)."""

    def __init__(self, geo: Geometry) -> None:
        self.geo = geo
        # Long enough for any distance, even a point a corrected board cut off from the Lair.
        self.turns = turns_to_lair(max(geo.to_lair))
        self.memo: Memo = {}

    def eta(self, pos: Position, castle: str) -> float:
        """Expected turns until ``castle`` has two Knights in the Lair, running unhindered."""
        need = PIECES_TO_WIN - pos.scored[castle]
        if need <= 0:
            return 0.0
        out = sorted(self.geo.to_lair[p] for p, c in pos.knights.items() if c == castle)
        if len(out) < need:
            return DEAD
        return sum(self.turns[d] for d in out[:need])

    # Knights ------------------------------------------------------------------------

    def knights_value(self, pos: Position, mine: tuple[str, ...]) -> float:
        """A Knight seat's score: minus its best castle's eta (and a little of the others')."""
        if any(pos.scored[c] >= PIECES_TO_WIN for c in pos.in_play):
            return WIN if pos.castle_won() in mine else -WIN
        if pos.dragon_won():
            return -WIN
        etas = sorted(self.eta(pos, c) for c in mine if c in pos.in_play)
        if not etas:
            return -WIN
        # A castle that can no longer win counts as one DEAD turns away, not as lost: a seat
        # too afraid of that would stand still, and standing still loses the race too.
        return -etas[0] - OTHER_CASTLES * sum(etas[1:])

    def dragon_reach(self, pos: Position) -> tuple[int, ...]:
        if pos.dragon is None:
            return (0,) * (DIE_SIDES + 1)
        return reach(self.geo, pos.dragon, pos.knight_mask(), True, self.memo)

    def knights_after_dragon(self, pos: Position, mine: tuple[str, ...]) -> tuple[float, int]:
        """Expected score over the Dragon's next roll, the Dragon taking whichever of our
        Knights hurts most; and how many faces let it take one of ours."""
        still = self.knights_value(pos, mine)
        if abs(still) >= WIN:
            return still, 0
        ours = pos.knight_mask(mine)
        ends = self.dragon_reach(pos)
        total, risky = 0.0, 0
        hurt: dict[int, float] = {}
        for roll in FACES:
            worst = still
            targets = ends[roll] & ours
            if targets:
                risky += 1
            for point in bits(targets):
                if point not in hurt:
                    hurt[point] = self.knights_value(pos.without(point), mine)
                worst = min(worst, hurt[point])
            total += worst
        return total / DIE_SIDES, risky

    # The Dragon -----------------------------------------------------------------------

    def threat(self, pos: Position, castle: str) -> float:
        if castle not in pos.in_play:
            return 0.0
        return float(THREAT * THREAT_DECAY ** self.eta(pos, castle))

    def landing_rolls(self, pos: Position, point: int) -> int:
        """The rolls (bit ``r`` set for roll ``r``) that let the Knight on ``point`` land on
        the Lair now."""
        geo = self.geo
        if pos.dragon == geo.lair or geo.to_lair[point] > DIE_SIDES:
            return 0
        ends = reach(geo, point, pos.occupied(), False, self.memo)
        lair = 1 << geo.lair
        return sum(1 << roll for roll in FACES if ends[roll] & lair)

    def loss_chance(self, pos: Position) -> float:
        """The chance that a castle brings in its second Knight before the Dragon moves again
        (each Knight seat rolls once; seats taken as independent)."""
        if pos.dragon == self.geo.lair:
            return 0.0
        safe = 1.0
        for castles in pos.knight_seats:
            lands = 0
            for point, castle in pos.knights.items():
                if castle in castles and pos.scored[castle] == PIECES_TO_WIN - 1:
                    lands |= self.landing_rolls(pos, point)
            safe *= 1 - lands.bit_count() / DIE_SIDES
        return 1 - safe

    def capture_value(self, pos: Position, point: int) -> float:
        """What taking the Knight on ``point`` is worth to the Dragon (before the position's
        other terms): a needed Knight, and the castle's threat it removes."""
        castle = pos.knights[point]
        after = pos.without(point)
        value = self.threat(pos, castle) - self.threat(after, castle)
        if pos.taken[castle] < PIECES_TO_WIN:
            value += CAPTURE
        return value

    def hunt(self, pos: Position) -> float:
        """Expected value of the best capture the Dragon's next roll offers from here."""
        ends = self.dragon_reach(pos)
        prey = pos.knight_mask()
        worth: dict[int, float] = {}
        total = 0.0
        for roll in FACES:
            best = 0.0
            for point in bits(ends[roll] & prey):
                if point not in worth:
                    worth[point] = self.capture_value(pos, point)
                best = max(best, worth[point])
            total += best
        return total / DIE_SIDES

    def pull(self, pos: Position) -> float:
        """Steps from the Dragon to the nearest Knight it still needs (0 if none)."""
        if pos.dragon is None:
            return 0.0
        row = self.geo.apart[pos.dragon]
        wanted = [p for p, c in pos.knights.items() if pos.taken[c] < PIECES_TO_WIN]
        return float(min((row[p] for p in wanted), default=0))

    def dragon_value(self, pos: Position) -> float:
        """The Dragon's score of a position where the Knights are to move next."""
        if pos.dragon_won():
            return WIN
        if pos.castle_won() is not None:
            return -WIN
        progress = sum(min(pos.taken[c], PIECES_TO_WIN) for c in pos.in_play)
        threat = sum(self.threat(pos, c) for c in pos.in_play)
        return (
            CAPTURE * progress
            - threat
            - LOSS * self.loss_chance(pos)
            + HUNT * self.hunt(pos)
            - PULL * self.pull(pos)
        )


# --- the player -------------------------------------------------------------------------


class StGeorgePlayer:
    """Knights race two of a castle's Knights to the Lair out of the Dragon's reach; the
    Dragon takes the Knights it needs, guards the Lair and keeps within reach of its prey."""

    def choose(self, game: Game[Any], state: Any, seat: int, rng: random.Random) -> Decision:
        choices = game.legal_actions(state, seat)
        if not choices:
            raise ValueError("this seat has nothing to decide now")
        if len(choices) == 1:
            return Decision(choices[0].action, _single_why(choices[0].action))
        geo = geometry()
        judge = Judge(geo)
        pos = position_of(geo, state)
        mine = role_of(state.roles[seat]).castles
        started = time.perf_counter()
        scored: list[tuple[float, int, str]] = []
        for order, choice in enumerate(choices):
            start_name, end_name = choice.action.split("-")
            start, end = geo.index[start_name], geo.index[end_name]
            if mine:
                after = pos.knight_moved(start, end, geo.lair)
                value, _ = judge.knights_after_dragon(after, mine)
            else:
                value = judge.dragon_value(pos.dragon_moved(end))
            scored.append((value, order, choice.action))
            if time.perf_counter() - started > TIME_GUARD:
                break
        best = max(value for value, _, _ in scored)
        tied = [action for value, _, action in scored if value >= best - 1e-9]
        action = tied[0] if len(tied) == 1 else rng.choice(tied)
        return Decision(action, _why(judge, pos, mine, action, geo))


def _single_why(action: str) -> str:
    return "" if action == "roll" else "the only legal move"


def _castle_name(castle: str) -> str:
    return current_board().castles[castle].name


def _turns(eta: float) -> str:
    count = max(1, round(eta))
    return "1 turn" if count == 1 else f"{count} turns"


def _why(judge: Judge, pos: Position, mine: tuple[str, ...], action: str, geo: Geometry) -> str:
    """One line on the chosen move, from the public position only."""
    start_name, end_name = action.split("-")
    start, end = geo.index[start_name], geo.index[end_name]
    if mine:
        castle = pos.knights[start]
        name = _castle_name(castle)
        after = pos.knight_moved(start, end, geo.lair)
        if end == geo.lair:
            home = after.scored[castle]
            if home >= PIECES_TO_WIN:
                return f"brings a second Knight of {name} into the Lair and wins"
            return f"brings a Knight of {name} into the Lair ({home} of 2)"
        _, risky = judge.knights_after_dragon(after, mine)
        eta = judge.eta(after, castle)
        knight = "a Knight" if len(mine) == 1 else f"a Knight of {name}"
        race = (
            f"{name} can no longer win"
            if eta >= DEAD
            else f"{name} is about {_turns(eta)} from two in the Lair"
        )
        danger = (
            "the Dragon can reach none of our Knights"
            if risky == 0
            else f"the Dragon can take one of ours on {risky} of 6 rolls"
        )
        return f"moves {knight} to {end_name}: {race}; {danger}"
    if end in pos.knights:
        castle = pos.knights[end]
        taken = pos.taken[castle] + 1
        needed = f"{taken} of the 2 it needs" if taken <= PIECES_TO_WIN else "no longer needed"
        return f"takes a Knight of {_castle_name(castle)} ({needed} from that castle)"
    if end == geo.lair:
        return "sits on the Lair so no Knight can land there"
    after = pos.dragon_moved(end)
    ends = judge.dragon_reach(after)
    faces = sum(1 for roll in FACES if ends[roll] & after.knight_mask())
    if faces:
        return f"moves to {end_name}: from there it can take a Knight on {faces} of 6 rolls"
    return f"moves to {end_name}, closing in on the Knights"


PLAYER = StGeorgePlayer()
