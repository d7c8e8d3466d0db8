"""St. George and the Dragon: the fast model (``engines.stgeorge.fast``) moves pieces by the
engine's rules: the same legal moves for every roll, the same position after each, the same
wins."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engines.stgeorge import GAME, fast
from engines.stgeorge import prompts as prompts_module
from engines.stgeorge.board import current_board
from engines.stgeorge.moves import DRAGON, destinations
from engines.stgeorge.seats import seat as role_of


def seats(players: int) -> list[str]:
    return [role.key for role in GAME.roles(players, {})]


def random_game(seed: int, players: int, lapses: bool = False):
    """Every state of a random game (with ``lapses`` now and then a skip or a forfeit)."""
    rng = random.Random(seed)
    state = GAME.setup(seats(players), {}, rng)
    for _ in range(3000):
        yield state
        if GAME.result(state) is not None:
            return
        seat = GAME.prompts(state)[0].seat
        chance = rng.random()
        if lapses and chance < 0.01:
            state, _ = GAME.forfeit(state, seat, rng)
        elif lapses and chance < 0.04:
            state, _ = GAME.skip(state, seat, rng)
        else:
            action = rng.choice([c.action for c in GAME.legal_actions(state, seat)])
            state, _ = GAME.apply(state, seat, action, rng)
    raise AssertionError("a game did not end")


def owners(state) -> tuple[str, ...]:
    return role_of(state.roles[state.to_move]).castles or (DRAGON,)


def as_actions(geo: fast.Geometry, found) -> list[str]:
    return [f"{geo.names[start]}-{geo.names[end]}" for start, end in found]


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.integers(2, 5), lapses=st.booleans())
def test_same_moves_and_positions_as_the_engine(seed, players, lapses):
    """At every move prompt of a random game the model lists the engine's legal actions in
    the engine's order; after each of them the model's position is the engine's, and the
    wins agree."""
    geo = fast.geometry()
    memo: fast.Memo = {}
    checked = 0
    for state in random_game(seed, players, lapses):
        if state.phase != "move":
            continue
        pos = fast.position_of(geo, state)
        found = fast.moves(geo, pos, owners(state), state.roll, memo)
        actions = [c.action for c in GAME.legal_actions(state, state.to_move)]
        assert as_actions(geo, found) == actions
        for (start, end), action in zip(found, actions, strict=True):
            after, _ = GAME.apply(state, state.to_move, action, random.Random(0))
            if pos.dragon == start:
                mine = pos.dragon_moved(end)
            else:
                mine = pos.knight_moved(start, end, geo.lair)
            theirs = fast.position_of(geo, after)
            assert (mine.dragon, mine.knights, mine.scored, mine.taken) == (
                theirs.dragon,
                theirs.knights,
                theirs.scored,
                theirs.taken,
            )
            winners = after.winners or []
            dragon_seat = next(i for i, k in enumerate(after.roles) if k == DRAGON)
            assert mine.dragon_won() == (winners == [dragon_seat])
            castle = mine.castle_won()
            assert (castle is not None) == (bool(winners) and winners != [dragon_seat])
            if castle is not None:
                assert winners == [next(i for i, k in enumerate(after.roles)
                                        if castle in role_of(k).castles)]  # fmt: skip
        checked += 1
    assert checked > 0


def test_reach_is_destinations_for_every_roll():
    """For every piece of many random positions and every roll, the ends ``reach`` finds
    are the keys of the engine's ``destinations``."""
    board = current_board()
    geo = fast.geometry()
    memo: fast.Memo = {}
    checked = 0
    for seed in range(4):
        for number, state in enumerate(random_game(seed, 2 + seed % 4)):
            if number % 7:
                continue
            pos = fast.position_of(geo, state)
            for point, owner in state.pieces.items():
                dragon = owner == DRAGON
                blockers = pos.knight_mask() if dragon else pos.occupied()
                ends = fast.reach(geo, geo.index[point], blockers, dragon, memo)
                for roll in fast.FACES:
                    engine = destinations(board, state.pieces, point, roll)
                    assert {geo.names[e] for e in fast.bits(ends[roll])} == set(engine)
                    checked += 1
    assert checked > 1000


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.integers(2, 5))
def test_the_prompts_example_is_the_first_legal_move(seed, players):
    """A move prompt's example (found without listing every move) is the first legal move."""
    board = current_board()
    checked = 0
    for state in random_game(seed, players):
        if state.phase != "move":
            continue
        first = prompts_module.legal_moves(board, state)[0]
        assert prompts_module.first_move(board, state) == first
        start, end, _path = first
        assert f"e.g. `{start}-{end}`" in GAME.prompts(state)[0].text
        checked += 1
    assert checked
