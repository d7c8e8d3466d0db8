"""The St. George and the Dragon computer player: legal, sensible, repeatable, fair."""

from __future__ import annotations

import random
from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engines.stgeorge import GAME, fast
from engines.stgeorge.board import current_board
from engines.stgeorge.state import State
from games import spec_for
from players import stgeorge as strong
from players.base import EASY
from tests.engines.test_stgeorge import position

BOARD = current_board()
PLAYER = strong.PLAYER


def seats(players: int) -> list[str]:
    return [role.key for role in GAME.roles(players, {})]


def decide(state: State, seed: int = 0) -> strong.Decision:
    seat = state.to_move
    return PLAYER.choose(GAME, GAME.observe(state, seat), seat, random.Random(seed))


def legal(state: State) -> set[str]:
    return {choice.action for choice in GAME.legal_actions(state, state.to_move)}


def random_game(seed: int, players: int, strong_seats: set[int], lapses: bool):
    """Yield (state, seat) at every prompt of a whole game: strong seats play the strong
    player's answer, the others play at random; with ``lapses`` a prompt now and then runs
    out of time (skipped, or rarely forfeited)."""
    rng = random.Random(seed)
    state = GAME.setup(seats(players), {}, rng)
    for step in range(3000):
        if GAME.result(state) is not None:
            return
        seat = GAME.prompts(state)[0].seat
        yield state, seat
        chance = rng.random()
        if lapses and chance < 0.01:
            state, _ = GAME.forfeit(state, seat, rng)
        elif lapses and chance < 0.04:
            state, _ = GAME.skip(state, seat, rng)
        else:
            player = PLAYER if seat in strong_seats else EASY
            decision = player.choose(GAME, GAME.observe(state, seat), seat, random.Random(step))
            state, _ = GAME.apply(state, seat, decision.action, rng)
    raise AssertionError("a game did not end")


# --- the contract --------------------------------------------------------------------


def test_the_registry_hands_out_this_player_for_strong():
    assert spec_for("stgeorge").player("strong") is PLAYER
    assert spec_for("stgeorge").player("easy") is EASY


@settings(max_examples=10)
@given(
    seed=st.integers(0, 10**6),
    players=st.integers(2, 5),
    strong_mask=st.integers(1, 31),
    lapses=st.booleans(),
)
def test_every_answer_is_legal_in_random_games(seed, players, strong_mask, lapses):
    strong_seats = {seat for seat in range(players) if strong_mask >> seat & 1}
    asked = 0
    for state, seat in random_game(seed, players, strong_seats, lapses):
        if seat not in strong_seats:
            continue
        before = GAME.dump(state)
        decision = PLAYER.choose(GAME, GAME.observe(state, seat), seat, random.Random(seed))
        assert decision.action in {c.action for c in GAME.legal_actions(state, seat)}
        assert isinstance(decision.why, str)
        assert GAME.dump(state) == before
        asked += 1
    assert asked > 0


def test_the_roll_is_taken_without_thought():
    state = GAME.setup(seats(2), {}, random.Random(0))
    assert PLAYER.choose(GAME, state, 0, random.Random(0)).action == "roll"


def test_same_inputs_give_the_same_decision():
    for state, seat in random_game(11, 5, {0, 1, 2, 3, 4}, lapses=False):
        if state.phase != "move" or len(legal(state)) < 2:
            continue
        first = PLAYER.choose(GAME, GAME.observe(state, seat), seat, random.Random(3))
        # Forget the walks worked out so far: the answer must not depend on them.
        fast._geometry.clear()
        again = PLAYER.choose(GAME, GAME.observe(state, seat), seat, random.Random(3))
        assert first == again


def test_observe_is_an_equal_copy_and_the_decision_uses_only_it():
    """Nothing is hidden in St. George: the seat sees an equal state, but a copy of it."""
    state = position(5, {"lair": "dragon", "3c": "george", "7d": "andrew"}, 0, 4)
    seen = GAME.observe(state, 0)
    assert GAME.dump(seen) == GAME.dump(state)
    assert seen is not state and seen.pieces is not state.pieces
    seen.pieces.pop("3c")
    seen.taken["george"] = 2
    assert state.pieces["3c"] == "george" and state.taken["george"] == 0
    fresh = GAME.observe(state, 0)
    assert PLAYER.choose(GAME, fresh, 0, random.Random(1)) == PLAYER.choose(
        GAME, state, 0, random.Random(1)
    )


# --- good play in hand-built positions -------------------------------------------------


def test_a_knight_takes_the_winning_step_into_the_lair():
    """14a is last in the move list (2e's moves come first): the player looks, it does not
    take the first move offered."""
    state = position(
        5, {"7c": "dragon", "14a": "george", "2e": "george"}, 0, 3, scored={"george": 1}
    )
    assert "14a-lair" in legal(state) and len(legal(state)) > 5
    decision = decide(state)
    assert decision.action == "14a-lair"
    assert "wins" in decision.why and "St. George" in decision.why


@pytest.mark.parametrize(
    ("dragon", "best"),
    [("9c", "4d-3d"), ("10f", "4d-4c")],
)
def test_a_last_knight_keeps_out_of_the_dragons_reach(dragon, best):
    """St. George has one Knight left and needs it. 4c is nearer the Lair than 3d, but a
    Dragon on 9c lands on 4c with a 5 or a 6 and cannot reach 3d: the Knight goes to 3d.
    With the Dragon far off on 10f, it takes the nearer point."""
    state = position(
        5, {dragon: "dragon", "4d": "george"}, 0, 1, taken={"george": 1}, scored={"george": 1}
    )
    assert {"4d-4c", "4d-3d"} <= legal(state)
    decision = decide(state)
    assert decision.action == best
    assert "none of our Knights" in decision.why


def test_the_dragon_takes_the_knight_that_wins_the_game():
    """A St. George Knight (first in the move list) is no use: the Dragon has two of those.
    The St. David Knight is its eighth."""
    state = position(
        5,
        {"5c": "dragon", "5e": "david", "5a": "george"},
        4,
        2,
        taken={"george": 2, "patrick": 2, "andrew": 2, "david": 1},
    )
    assert {"5c-5e", "5c-5a"} <= legal(state)
    decision = decide(state)
    assert decision.action == "5c-5e"
    assert "St. David" in decision.why


@pytest.mark.parametrize(
    ("andrew", "scored", "best"),
    [("8a", 1, "3b-lair"), ("A2", 0, "3b-3d")],
)
def test_the_dragon_blocks_the_lair_before_a_castle_brings_its_second_knight(andrew, scored, best):
    """St. Andrew has one Knight home and one on 8a: any roll brings it in unless the Dragon
    sits on the Lair, so the St. George Knight on 3d can wait. With no such threat the
    Dragon takes the Knight instead."""
    state = position(
        5, {"3b": "dragon", andrew: "andrew", "3d": "george"}, 4, 2, scored={"andrew": scored}
    )
    assert {"3b-lair", "3b-3d"} <= legal(state)
    decision = decide(state)
    assert decision.action == best
    assert ("Lair" in decision.why) == (best == "3b-lair")


@pytest.mark.parametrize(
    ("near", "far", "best"),
    [("andrew", "george", "5c-3c"), ("george", "andrew", "5c-5e")],
)
def test_the_dragon_prefers_a_knight_it_still_needs(near, far, best):
    """Two St. George Knights are taken already; a third counts for nothing, a St. Andrew
    Knight counts towards the Dragon's win, whichever of the two is first in the list."""
    state = position(5, {"5c": "dragon", "3c": near, "5e": far}, 4, 2, taken={"george": 2})
    assert {"5c-5e", "5c-3c"} <= legal(state)
    assert decide(state).action == best


def test_the_knights_of_two_player_game_do_not_hand_the_dragon_its_eighth_knight():
    """The Dragon has every castle's two but one of St. David's: a David Knight within its
    reach would lose the game, so the Knights move another piece."""
    state = position(
        2,
        {"7c": "dragon", "12d": "david", "1e": "george"},
        0,
        1,
        taken={"george": 2, "patrick": 2, "andrew": 2, "david": 1},
    )
    decision = decide(state)
    assert decision.action in legal(state)
    after, _ = GAME.apply(state, 0, decision.action, random.Random(0))
    geo = fast.geometry()
    pos = fast.position_of(geo, after)
    ends = fast.reach(geo, pos.dragon, pos.knight_mask(), True, {})
    david = pos.knight_mask(("david",))
    assert not any(ends[roll] & david for roll in strong.FACES)


def test_the_turns_table_matches_the_rule_of_exact_landing():
    """A Knight one point out lands with any roll (one turn); from six out only a 6 lands at
    once, so it needs more than two turns on average; farther is never quicker."""
    turns = strong.turns_to_lair(8)
    assert turns[0] == 0 and turns[1] == 1
    assert turns[2] == 1 + 1 / 6
    assert all(a < b for a, b in pairwise(turns))
    assert 2 < turns[6] < turns[7] < 3
