"""Random full games of St. George and the Dragon: the rules' invariants hold at every step.

What every engine must keep (no mutation, dump/load, replay, views JSON-ready, every game
ends) is checked for all games by tests/engines/test_contract.py.
"""

from __future__ import annotations

import random
from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engines.base import IllegalAction
from engines.stgeorge import GAME
from engines.stgeorge.board import LAIR, current_board

BOARD = current_board()
MAX_ACTIONS = 20_000  # far above the longest of 300 random games (about 1,200 actions)


def new_game(players: int, seed: int):
    rng = random.Random(seed)
    roles = [role.key for role in GAME.roles(players, {})]
    return GAME.setup(roles, {}, rng), rng


def check_invariants(state) -> None:
    in_play = list(state.taken)
    # Castles whose seat forfeited have left play: none of their Knights stay on the board.
    gone = set(in_play) - set(GAME.view(state, None)["castles_in_play"])
    for castle in in_play:
        on_board = list(state.pieces.values()).count(castle)
        if castle in gone:
            assert on_board == 0
            continue
        assert on_board + state.taken[castle] + state.scored[castle] == 3
        assert state.scored[castle] <= 2
    assert set(state.pieces.values()) <= {*in_play, "dragon"}
    assert list(state.pieces.values()).count("dragon") == 1
    assert set(state.pieces) <= set(BOARD.points)
    assert state.pieces.get(LAIR, "dragon") == "dragon"


def check_views(state) -> None:
    public = GAME.view(state, None)
    for seat in range(len(state.roles)):
        assert GAME.view(state, seat) == {**public, "private": ""}
    assert sorted(p["point"] for p in public["pieces"]) == sorted(state.pieces)


def check_move(before, after, seat: int) -> None:
    """The move just made followed the movement rules in the position before it."""
    last = after.last
    path = last["path"]
    assert last["seat"] == seat and last["roll"] == before.roll
    assert len(path) == before.roll + 1 and len(set(path)) == len(path)
    assert path[0] == last["from"] and path[-1] == last["to"]
    mover = before.pieces[path[0]]
    for first, second in pairwise(path):
        assert second in BOARD.neighbours[first]
    for point in path[1:-1]:
        assert point not in before.pieces
        assert mover == "dragon" or point != LAIR
    target = before.pieces.get(path[-1])
    assert target is None or (mover == "dragon" and target != "dragon")
    assert last["captured"] == target


def play_out(players: int, seed: int):
    """Play random legal actions until the game ends; returns the final state and count."""
    state, rng = new_game(players, seed)
    for count in range(MAX_ACTIONS):
        if GAME.result(state) is not None:
            return state, count
        prompts = GAME.prompts(state)
        assert len(prompts) == 1
        seat = prompts[0].seat
        assert seat == state.to_move and prompts[0].kind == state.phase
        choices = GAME.legal_actions(state, seat)
        assert choices
        action = rng.choice(choices).action
        other = (seat + 1) % len(state.roles)
        with pytest.raises(IllegalAction):
            GAME.apply(state, other, action, rng)
        after, events = GAME.apply(state, seat, action, rng)
        assert events and all(event.public for event in events)
        if action == "roll":
            assert events[0].data["roll"] in range(1, 7)
            assert after.roll == events[0].data["roll"]
        else:
            check_move(state, after, seat)
        check_invariants(after)
        check_views(after)
        state = after
    raise AssertionError(f"game did not end within {MAX_ACTIONS} actions")


@settings(max_examples=12)
@given(players=st.sampled_from([2, 3, 4, 5]), seed=st.integers(0, 2**32 - 1))
def test_random_games_keep_the_rules(players, seed):
    state, _count = play_out(players, seed)
    result = GAME.result(state)
    assert result is not None and result.text
    assert GAME.prompts(state) == []
    assert all(GAME.legal_actions(state, seat) == [] for seat in range(players))
    # A win is either two taken from every castle or two of one castle in the Lair.
    if result.winners == (players - 1,):
        assert all(n >= 2 for n in state.taken.values())
    else:
        (winner,) = result.winners
        castles = GAME.view(state, None)["seats"][winner]["castles"]
        assert any(state.scored[castle] == 2 for castle in castles)


@settings(max_examples=40)
@given(
    players=st.sampled_from([2, 3, 4, 5]),
    seed=st.integers(0, 2**32 - 1),
    steps=st.integers(0, 150),
    start=st.sampled_from(BOARD.points),
    end=st.sampled_from(BOARD.points),
)
def test_moves_outside_the_legal_list_are_refused(players, seed, steps, start, end):
    """Any ``from-to`` is accepted exactly when legal_actions lists it."""
    state, rng = new_game(players, seed)
    for _ in range(steps):
        if GAME.result(state) is not None:
            return
        seat = state.to_move
        action = rng.choice(GAME.legal_actions(state, seat)).action
        state, _events = GAME.apply(state, seat, action, rng)
    while state.phase == "roll":
        state, _events = GAME.apply(state, state.to_move, "roll", rng)
    seat = state.to_move
    legal = {choice.action for choice in GAME.legal_actions(state, seat)}
    action = f"{start}-{end}"
    before = GAME.dump(state)
    if action in legal:
        after, _events = GAME.apply(state, seat, action, rng)
        assert after.last["from"] == start and after.last["to"] == end
    else:
        with pytest.raises(IllegalAction):
            GAME.apply(state, seat, action, rng)
    assert GAME.dump(state) == before
