"""Dragon's Cave property tests over random full games (random legal actions, seeded).

What every engine must keep (no mutation, dump/load, replay, JSON-ready views, prompts and
legal actions, every game ends) is checked for all games by tests/engines/test_contract.py.
"""

from __future__ import annotations

import copy
import random

from hypothesis import given
from hypothesis import strategies as st

from tests.engines.test_dragons_cave_setup import GAME, KINDS, coins_in_play, new_game

MAX_ACTIONS = 4000


def scrambled(state):
    """``state`` with every secret replaced by something else: unrevealed cards and lair
    square, hand splits, and (before the end) Chest totals."""
    other = copy.deepcopy(state)
    for seat, choice in enumerate(other["cards"]):
        if choice is not None:
            swap = "chest" if choice["card"] != "chest" else "ruby"
            other["cards"][seat] = {"card": swap, "dwarf": choice["dwarf"] or 1}
    if other["lair_choice"] is not None:
        other["lair_choice"] = KINDS[(KINDS.index(other["lair_choice"]) + 1) % 5]
    for catch in other["catches"]:
        if catch["split"] is not None:
            catch["split"] = [catch["purse"] - catch["split"][0], catch["split"][0]]
            if catch["split"][0] == catch["split"][1]:
                catch["split"] = [catch["purse"], 0]
    if other["phase"] != "over":
        other["chests"] = [chest + 17 for chest in other["chests"]]
    return other


def public_part(events):
    return [(e.text, e.data) for e in events if e.public]


def check_state(state):
    """Invariants that hold in every reachable state."""
    assert coins_in_play(state) == 44
    assert state["treasure"] >= 0 and min(state["purses"]) >= 0
    for seat, hand in enumerate(state["hands"]):
        assert sorted(hand + state["played"][seat]) == sorted([*KINDS, "chest"])
        assert "chest" in hand
    view = GAME.view(state, None)
    assert view == GAME.view(scrambled(state), None), "public view shows a secret"


def random_game(players: int, seed: int, checks: bool = True):
    """Play random legal actions until the game ends; return the final state and log."""
    rng = random.Random(seed)
    state = new_game(players, first_dragon=rng.randrange(players))
    log = []
    for _ in range(MAX_ACTIONS):
        if GAME.result(state) is not None:
            return state, log
        if checks:
            check_state(state)
        prompt = rng.choice(GAME.prompts(state))
        choices = GAME.legal_actions(state, prompt.seat)
        action = rng.choice(choices).action
        after, events = GAME.apply(state, prompt.seat, action, rng)
        if checks and prompt.secret and len(choices) > 1:
            # Another secret answer that does not end the phase looks the same in public.
            alternative = rng.choice([c.action for c in choices if c.action != action])
            other, other_events = GAME.apply(state, prompt.seat, alternative, rng)
            if all(
                new["phase"] == state["phase"] and new["last_round"] == state["last_round"]
                for new in (after, other)
            ):
                assert public_part(events) == public_part(other_events)
                assert GAME.view(after, None) == GAME.view(other, None)
        log.append((prompt.seat, action))
        state = after
    raise AssertionError(f"no end after {MAX_ACTIONS} actions")


@given(players=st.sampled_from([2, 3, 4]), seed=st.integers(0, 2**32))
def test_random_games_end_with_coins_conserved_and_secrets_kept(players, seed):
    state, _ = random_game(players, seed)
    check_state(state)
    outcome = state["outcome"]
    assert outcome["winners"]
    assert GAME.result(state).winners == tuple(outcome["winners"])
    for seat in range(players):
        assert outcome["totals"][seat] == (
            state["purses"][seat] + state["chests"][seat] + outcome["bonus"][seat]
        )
        assert outcome["bonus"][seat] in (0, 4)
    assert max(outcome["totals"]) == outcome["totals"][outcome["winners"][0]]
    if outcome["reason"] == "treasure":
        assert state["treasure"] == 0
    else:
        assert any(str(d["square"]).startswith("lair:") for d in state["dwarves"])
    assert GAME.view(state, None)["chests"] == state["chests"]
