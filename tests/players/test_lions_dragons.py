"""The strong Lions and Dragons Chess player: legal, deterministic, sensible. (That its fast
model agrees with the engine is tested in ``tests/engines/test_lions_dragons_fast.py``.)"""

from __future__ import annotations

import copy
import random

import pytest

from engines.lions_dragons import fast, rules
from games import ENGINES, spec_for
from players import lions_dragons as strong

GAME = ENGINES["lions-dragons"]
PLAYER = strong.PLAYER
WHITE, BLACK = 0, 1


def new_game(seed: int) -> dict:
    return GAME.setup(["white", "black"], GAME.normalize_options({}), random.Random(seed))


def seat_to_move(state: dict) -> int:
    return GAME.prompts(state)[0].seat


def legal(state: dict) -> set[str]:
    return {c.action for c in GAME.legal_actions(state, seat_to_move(state))}


def decide(state: dict, seed: int = 0, player=PLAYER) -> strong.Decision:
    seat = seat_to_move(state)
    return player.choose(GAME, GAME.observe(state, seat), seat, random.Random(seed))


def after(state: dict, action: str) -> dict:
    return GAME.apply(state, seat_to_move(state), action, random.Random(0))[0]


def can_win_at_once(state: dict) -> bool:
    """Whether the side to move has an action that wins on the spot."""
    if GAME.result(state) is not None:
        return False
    seat = seat_to_move(state)
    for action in legal(state):
        outcome = GAME.result(after(state, action))
        if outcome is not None and outcome.winners == (seat,):
            return True
    return False


def random_states(seeds: range, plies: int, every: int):
    """States met in random games (both sides random), every ``every`` plies."""
    for seed in seeds:
        rng = random.Random(seed)
        state = new_game(seed)
        for ply in range(plies):
            if GAME.result(state) is not None:
                break
            if ply % every == 0:
                yield state
            action = rng.choice(sorted(legal(state)))
            state = after(state, action)


# -- the player only ever plays legal actions ------------------------------------------------


def test_registered_as_the_strong_player():
    assert spec_for("lions-dragons").player("strong") is PLAYER


def test_legal_action_in_many_random_positions():
    asked = 0
    for state in random_states(range(3), plies=240, every=12):
        decision = decide(state, seed=asked)
        assert decision.action in legal(state)
        assert isinstance(decision.why, str)
        asked += 1
    assert asked > 45


def test_legal_action_at_every_prompt_of_games_against_easy():
    """Strong plays White in one game and Black in the other, all the way to the end."""
    easy = spec_for("lions-dragons").player("easy")
    for seed, strong_seat in ((11, WHITE), (12, BLACK)):
        state = new_game(seed)
        for step in range(150):
            if GAME.result(state) is not None:
                break
            seat = seat_to_move(state)
            player = PLAYER if seat == strong_seat else easy
            decision = player.choose(
                GAME, GAME.observe(state, seat), seat, random.Random(f"{seed}:{step}")
            )
            assert decision.action in legal(state)
            state = after(state, decision.action)
        result = GAME.result(state)
        assert result is not None and result.winners == (strong_seat,)


# -- it prefers obviously good moves -------------------------------------------------------


def test_captures_the_wizard_rather_than_a_dragon():
    state = GAME.position(
        {
            "a1": "white wizard",
            "f8": "black wizard",
            "f7": "white dragon_ball",
            "d5": "white dragon",
            "e8": "black dragon",
            "l6": "black roc",
        }
    )
    assert "d5xe8" in legal(state)  # a tempting capture that does not win
    decision = decide(state)
    assert decision.action == "f7xf8"
    assert "captures the Black Wizard" in decision.why


def test_carries_the_ball_into_the_goal():
    state = GAME.position(
        {
            "a1": "white wizard",
            "l6": "black wizard",
            "f10": "white dragon_ball",
            "e9": "black dragon",
            "g9": "black proto",
        },
        to_move="white",
    )
    decision = decide(state)
    assert decision.action == "f10-f11"
    assert "goal" in decision.why


def test_shoots_down_a_dragon_with_ball_about_to_score():
    state = GAME.position(
        {
            "f4": "white wizard",
            "l6": "black wizard",
            "f2": "black dragon_ball",
            "d5": "white dragon",
            "e3": "black roc",
        }
    )
    assert can_win_at_once(after(state, "d5xe3"))  # the greedy capture loses
    decision = decide(state)
    assert decision.action == "fire f4-f2"
    assert "Dragon-with-Ball on f2" in decision.why
    assert not can_win_at_once(after(state, decision.action))


def test_keeps_its_wizard_out_of_reach():
    state = GAME.position(
        {
            "d8": "white wizard",
            "l6": "black wizard",
            "d6": "black dragon_ball",
            "h5": "white dragon",
            "i7": "black roc",
            "a4": "white roc",
        }
    )
    losing = [a for a in legal(state) if can_win_at_once(after(state, a))]
    assert losing  # some moves do walk into a loss
    for seed in range(3):
        decision = decide(state, seed)
        assert not can_win_at_once(after(state, decision.action))


def test_takes_a_free_ball():
    state = GAME.position(
        {
            "a1": "white wizard",
            "l6": "black wizard",
            "e3": "white dragon",
            "d5": "ball",
            "h9": "black roc",
        }
    )
    decision = decide(state)
    assert decision.action == "e3xd5"
    assert "takes the Ball on d5" in decision.why


def test_first_move_wakes_a_proto_dragon():
    """From the starting array the only way to get a Dragon is to shoot a Proto-Dragon."""
    state = new_game(5)
    decision = decide(state)
    assert decision.action.startswith("fire ")
    dragons = [
        p
        for p in after(state, decision.action)["pieces"].values()
        if p == {"kind": "dragon", "side": "white"}
    ]
    assert len(dragons) == 1
    assert "wake the Proto-Dragon" in decision.why


def test_avoids_a_third_repetition_while_ahead():
    """Ahead on material, it does not repeat a position a third time (a draw)."""
    state = GAME.position(
        {
            "a1": "white wizard",
            "l6": "black wizard",
            "c2": "white dragon",
            "b1": "white roc",
            "i1": "white roc",
            "k1": "black roc",
        }
    )
    first = decide(state).action
    repeated = rules.position_key(after(state, first))
    state["seen"] = {repeated: 2}
    assert after(state, first)["result"]["reason"] == "repetition"  # now a draw
    second = decide(state).action
    assert second != first
    assert after(state, second)["result"] is None


# -- deterministic, from the seat's view only --------------------------------------------------


def test_same_inputs_same_decision():
    patient = strong.LionsDragonsPlayer(seconds=60.0)  # the node budget alone bounds it
    for state in random_states(range(20, 21), plies=120, every=20):
        seat = seat_to_move(state)
        first = patient.choose(GAME, GAME.observe(state, seat), seat, random.Random(7))
        again = patient.choose(GAME, GAME.observe(state, seat), seat, random.Random(7))
        assert first == again


def test_node_budget_bounds_the_search():
    state = next(random_states(range(30, 31), plies=60, every=59))
    pos, tables = strong.from_state(state)
    search = strong._Search(tables, nodes=500, seconds=60.0)
    ranked, depth = search.root(pos, fast.generate(pos, tables), max_depth=6)
    assert search.nodes <= 501
    assert depth < 6
    assert {m for m, _ in ranked} == set(fast.generate(pos, tables))


@pytest.mark.parametrize("seat", [WHITE, BLACK])
def test_observe_is_an_equal_copy(seat):
    """Perfect information: the seat sees everything, and the player cannot harm the game."""
    state = next(random_states(range(40, 41), plies=31, every=30))
    before = copy.deepcopy(state)
    seen = GAME.observe(state, seat)
    assert seen == state and seen is not state
    seen["pieces"].clear()
    seen["reserves"]["white"] = 99
    assert state == before
    if seat == seat_to_move(state):
        decision = PLAYER.choose(GAME, GAME.observe(state, seat), seat, random.Random(3))
        assert state == before  # choosing does not touch the state either
        assert decision == PLAYER.choose(GAME, copy.deepcopy(state), seat, random.Random(3))
