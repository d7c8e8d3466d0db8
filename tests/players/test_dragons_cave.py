"""The Dragon's Cave computer player: legal, sensible, repeatable, fair. (That its fast model
plays by the engine's rules is tested in ``tests/engines/test_dragons_cave_fast.py``.)"""

from __future__ import annotations

import copy
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from games import spec_for
from players import dragons_cave as strong
from tests.engines.test_dragons_cave_setup import GAME, KINDS, act, arrange, new_game

PLAYER = strong.PLAYER
QUICK = strong.DragonsCavePlayer(budget=300)
"""A lighter player for the many decisions of whole random games (same code)."""


def decide(state, seat, seed=0, player=PLAYER):
    return player.choose(GAME, GAME.observe(state, seat), seat, random.Random(seed))


def legal(state, seat):
    return [choice.action for choice in GAME.legal_actions(state, seat)]


def picks(state, seat, seeds=range(8)):
    """How often each action is chosen over several seeds."""
    return Counter(decide(state, seat, seed).action for seed in seeds)


def random_game(players, seed, strong_seat=None, forfeits=True):
    """States of a random game (now and then a seat forfeits); ``strong_seat`` plays by
    the quick strong player."""
    rng = random.Random(seed)
    state = new_game(players, first_dragon=rng.randrange(players))
    for _ in range(3000):
        yield state
        if GAME.result(state) is not None:
            return
        prompt = rng.choice(GAME.prompts(state))
        if forfeits and players > 2 and rng.random() < 0.005:
            state, _ = GAME.forfeit(state, prompt.seat, rng)
            continue
        if prompt.seat == strong_seat:
            action = decide(state, prompt.seat, rng.randrange(1000), QUICK).action
        else:
            action = rng.choice(legal(state, prompt.seat))
        state, _ = GAME.apply(state, prompt.seat, action, rng)
    raise AssertionError("the game did not end")


# --- legal, repeatable ------------------------------------------------------------------


@settings(max_examples=8)
@given(players=st.sampled_from([2, 3, 4]), seed=st.integers(0, 2**32))
def test_always_a_legal_action_in_random_games(players, seed):
    """Asked at each of its prompts in random games (cards, lair squares, splits, hand
    picks, with seats leaving now and then), the player answers a legal action and a
    line of explanation."""
    rng = random.Random(seed)
    seat = rng.randrange(players)
    asked = Counter()
    for state in random_game(players, seed, strong_seat=seat):
        for prompt in GAME.prompts(state):
            if prompt.seat == seat:
                decision = decide(state, seat, seed, QUICK)
                assert decision.action in legal(state, seat)
                assert isinstance(decision.why, str) and decision.why
                asked[prompt.kind] += 1
    assert asked["card"] + asked["lair"] > 0 or seat in state["departed"]


def test_each_kind_of_prompt_is_answered_legally():
    """A card, the Dragon's square, a split and a hand pick."""
    state = arrange(new_game(3), purses=[0, 6, 0])
    assert decide(state, 1).action in legal(state, 1)
    assert decide(state, 0).action in legal(state, 0)
    state, _ = act(state, 1, "card ruby")
    state, _ = act(state, 2, "card chest")
    state, _ = act(state, 0, "lair ruby")
    split = decide(state, 1)
    assert split.action in legal(state, 1)
    state, _ = act(state, 1, split.action)
    hand = decide(state, 0)
    assert hand.action in legal(state, 0)
    assert hand.action.startswith("hand blue ")


def test_same_inputs_same_decision():
    """The same observed state and the same seed give the same decision."""
    state = arrange(new_game(4), purses=[1, 3, 0, 2], squares={(1, 1): 4, (2, 1): 9})
    for seat in (0, 1, 2):
        first = decide(state, seat, seed=5)
        assert decide(copy.deepcopy(state), seat, seed=5) == first


def test_strong_is_registered():
    assert spec_for("dragons-cave").player("strong") is PLAYER


def test_the_play_is_mixed():
    """Over many seeds the opening card varies in 2-player games: a Dragon watching the
    computer cannot always know where it goes."""
    state = new_game(2, first_dragon=0)
    chosen = picks(state, 1, seeds=range(12))
    assert len(chosen) >= 2


# --- decisions depend only on what the seat can know --------------------------------------


def same_decision(state, twin, seat):
    """The two states look the same to ``seat`` and it decides the same in both."""
    assert GAME.observe(state, seat) == GAME.observe(twin, seat)
    for seed in (0, 1):
        assert decide(state, seat, seed) == decide(twin, seat, seed)


def test_another_players_secret_card_changes_nothing():
    state = arrange(new_game(4), purses=[0, 4, 2, 1])
    ruby, _ = act(state, 2, "card ruby")
    chest, _ = act(state, 2, "card chest")
    same_decision(ruby, chest, 1)
    same_decision(ruby, chest, 0)


def test_the_dragons_square_changes_nothing_for_a_dwarf():
    state = arrange(new_game(3), purses=[0, 4, 2])
    ruby, _ = act(state, 0, "lair ruby")
    crystal, _ = act(state, 0, "lair crystal")
    same_decision(ruby, crystal, 1)


def test_other_chests_change_nothing():
    """Chests are shown only at the end, so a different spread of the same hidden coins
    (the total can be worked out from the Treasure and Purses) changes nothing."""
    state = arrange(new_game(4), purses=[0, 4, 2, 1], chests=[3, 0, 9, 0])
    twin = arrange(new_game(4), purses=[0, 4, 2, 1], chests=[9, 0, 0, 3])
    same_decision(state, twin, 1)


def test_other_splits_change_nothing():
    """Blue and Green are caught: Green's split does not change Blue's split nor, once all
    are in, the Dragon's pick."""
    state = arrange(new_game(4), purses=[0, 6, 5, 0])
    state, _ = act(state, 1, "card emerald")
    state, _ = act(state, 2, "card emerald")
    state, _ = act(state, 3, "card chest")
    state, _ = act(state, 0, "lair emerald")
    low, _ = act(state, 2, "split 0")
    high, _ = act(state, 2, "split 4")
    same_decision(low, high, 1)
    low, _ = act(low, 1, "split 3")
    high, _ = act(high, 1, "split 3")
    same_decision(low, high, 0)


def test_two_player_moving_dwarf_changes_nothing_for_the_dragon():
    state = new_game(2, first_dragon=0)
    one, _ = act(state, 1, "card amber 1")
    two, _ = act(state, 1, "card ruby 2")
    same_decision(one, two, 0)


# --- sensible play ----------------------------------------------------------------------


def test_walks_into_the_lair_to_win():
    """One coin ahead of Green, who is about to reach the lair too, it walks into the lair
    now (15 against at most 14) instead of taking 2 coins and letting Green end it."""
    last = len(new_game(4)["board"]["path"]) - 2  # the second to last square
    state = arrange(
        new_game(4),
        squares={(1, 1): last, (2, 1): last},
        purses=[0, 0, 10, 0],
        chests=[0, 11, 0, 0],
        hands=[
            [*KINDS, "chest"],
            ["emerald", "ruby", "chest"],
            [*KINDS, "chest"],
            [*KINDS, "chest"],
        ],
        played=[[], ["sapphire", "amber", "crystal"], [], []],
    )
    board = state["board"]
    assert board["path"][last + 1]["kind"] == "ruby"
    assert "emerald" not in [sq["kind"] for sq in board["path"][last + 1 :]]
    chosen = picks(state, 1)
    assert chosen.most_common(1)[0][0] == "card emerald"
    assert chosen["card emerald"] >= 6
    assert "lair" in decide(state, 1).why


def test_the_dragon_blocks_a_leader_about_to_end_the_game():
    """Blue leads and can only walk into the lair with Emerald (or play the Chest): the
    Dragon sits on Emerald."""
    last = len(new_game(3)["board"]["path"]) - 2
    state = arrange(
        new_game(3),
        squares={(1, 1): last},
        purses=[0, 9, 0],
        chests=[2, 0, 1],
        hands=[
            [*KINDS, "chest"],
            ["emerald", "chest"],
            [*KINDS, "chest"],
        ],
        played=[[], ["ruby", "sapphire", "amber", "crystal"], []],
    )
    chosen = picks(state, 0)
    assert chosen.most_common(1)[0][0] == "lair emerald"
    assert chosen["lair emerald"] >= 6


def test_banks_a_purse_that_carries_the_lead():
    """With 14 coins in the Purse and little elsewhere, it locks them in the Chest rather
    than walk on for a coin or two and risk losing half."""
    state = arrange(
        new_game(4),
        squares={(1, 1): 5, (2, 1): 2, (3, 1): 3},
        purses=[0, 14, 1, 1],
        chests=[2, 0, 2, 2],
    )
    chosen = picks(state, 1)
    assert chosen.most_common(1)[0][0] == "card chest"
    assert "Chest" in decide(state, 1).why


def test_a_caught_leader_splits_evenly():
    """Ahead, a caught player hides its Purse evenly so the Dragon's pick hardly matters."""
    state = arrange(new_game(3), purses=[0, 9, 0], chests=[1, 10, 1])
    state, _ = act(state, 1, "card ruby")
    state, _ = act(state, 2, "card chest")
    state, _ = act(state, 0, "lair ruby")
    for seed in range(4):
        assert decide(state, 1, seed).action in ("split 4", "split 5")


def test_hand_picks_are_fair_draws():
    """Closed hands look alike: over seeds the Dragon picks both sides."""
    state = arrange(new_game(3), purses=[0, 6, 0])
    state, _ = act(state, 1, "card ruby")
    state, _ = act(state, 2, "card chest")
    state, _ = act(state, 0, "lair ruby")
    state, _ = act(state, 1, "split 3")
    assert set(picks(state, 0, seeds=range(10))) == {"hand blue left", "hand blue right"}
