"""Dragon's Cave ``observe``: the state as one seat may know it.

A seat sees what its own view shows: its hand, Chest and secret answers, and in public the
board, Purses, face-up cards and how many secret answers are in (not whose). Everything
else is replaced by ``"hidden"``.
"""

from __future__ import annotations

import copy
import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engines.dragons_cave.observe import HIDDEN
from tests.engines.test_dragons_cave_setup import GAME, KINDS, act, arrange, new_game


def caught_round(players: int = 4):
    """A game in the split phase: Blue (seat 1) and Green (seat 2) were caught on Ruby with
    5 and 3 coins in their Purses; Red (seat 0) is the Dragon."""
    state = arrange(new_game(players), purses=[0, 5, 3, 0][:players])
    for seat in range(1, players):
        state, _ = act(state, seat, "card ruby" if seat < 3 else "card chest")
    state, _ = act(state, 0, "lair ruby")
    assert state["phase"] == "split"
    return state


def secret_free(state, seat):
    """Everything of ``state`` that ``seat`` may know, as plain data to compare."""
    return json.dumps(GAME.observe(state, seat), sort_keys=True)


# --- secret cards and the Dragon's square ---------------------------------------------------


def test_another_seats_card_does_not_show():
    """Cards are chosen 'secretly' and placed 'face-down': Blue's card is not in what Green
    or the Dragon observe, and two different cards observe the same."""
    state = new_game(4)
    ruby, _ = act(state, 1, "card ruby")
    chest, _ = act(state, 1, "card chest")
    for seat in (0, 2, 3):
        assert secret_free(ruby, seat) == secret_free(chest, seat)
        seen = GAME.observe(ruby, seat)
        assert all(c is None or c["card"] == HIDDEN for c in seen["cards"])
        assert "ruby" not in json.dumps([seen["cards"], seen["lair_choice"]])


def test_own_card_stays():
    """A seat still knows the card it locked in."""
    state, _ = act(new_game(4), 1, "card emerald")
    assert GAME.observe(state, 1)["cards"][1] == {"card": "emerald", "dwarf": 1}


def test_dragons_square_is_hidden_from_the_dwarves_only():
    """'The player in control of the Dragon then places the Dragon on one of the 5 squares'
    in secret: Dwarf players cannot tell which; the Dragon knows its own square."""
    state = new_game(4)
    ruby, _ = act(state, 0, "lair ruby")
    amber, _ = act(state, 0, "lair amber")
    for seat in (1, 2, 3):
        assert secret_free(ruby, seat) == secret_free(amber, seat)
        assert GAME.observe(ruby, seat)["lair_choice"] == HIDDEN
    assert GAME.observe(ruby, 0)["lair_choice"] == "ruby"
    assert GAME.observe(amber, 0)["lair_choice"] == "amber"


def test_two_player_moving_dwarf_is_hidden():
    """2 players: which Dwarf moves is part of the secret card."""
    state = new_game(2, first_dragon=0)
    one, _ = act(state, 1, "card ruby 1")
    two, _ = act(state, 1, "card ruby 2")
    assert secret_free(one, 0) == secret_free(two, 0)
    assert GAME.observe(one, 1)["cards"][1] == {"card": "ruby", "dwarf": 1}
    assert GAME.observe(two, 1)["cards"][1] == {"card": "ruby", "dwarf": 2}


def test_who_has_answered_is_not_shown():
    """The table hears only how many choices are in: Blue having answered looks the same to
    Yellow as Green having answered, while the count of answers stays right."""
    state = new_game(4)
    blue, _ = act(state, 1, "card ruby")
    green, _ = act(state, 2, "card ruby")
    dragon, _ = act(state, 0, "lair ruby")
    assert secret_free(blue, 3) == secret_free(green, 3) == secret_free(dragon, 3)
    seen = GAME.observe(blue, 3)
    assert GAME.view(seen, None)["waiting"] == GAME.view(blue, None)["waiting"]
    assert GAME.view(seen, None)["waiting"]["done"] == 1


# --- hands and Chests -------------------------------------------------------------------


def test_another_caught_players_split_does_not_show():
    """'Each unlucky player secretly distributes all of their gold ... between their two
    hands': Green's split is hidden from Blue and from the Dragon; Blue keeps its own."""
    state = caught_round()
    even, _ = act(state, 2, "split 1")
    lopsided, _ = act(state, 2, "split 3")
    for seat in (0, 1, 3):
        assert secret_free(even, seat) == secret_free(lopsided, seat)
    assert next(c for c in GAME.observe(even, 2)["catches"] if c["seat"] == 2)["split"] == [1, 2]
    mine, _ = act(even, 1, "split 4")
    assert mine["phase"] == "hand"
    seen = GAME.observe(mine, 0)
    assert [c["split"] for c in seen["catches"]] == [HIDDEN, HIDDEN]
    assert GAME.observe(mine, 1)["catches"][0]["split"] == [4, 1]


def test_the_dragon_can_still_pick_hands_on_what_it_observes():
    """The Dragon's hand prompt and its actions work on the observed state."""
    state = caught_round()
    state, _ = act(state, 1, "split 2")
    state, _ = act(state, 2, "split 0")
    seen = GAME.observe(state, 0)
    assert GAME.prompts(seen) == GAME.prompts(state)
    assert GAME.legal_actions(seen, 0) == GAME.legal_actions(state, 0)


def test_other_chests_are_hidden_while_the_game_runs():
    """'The contents of the Treasure Chests can't be checked': a seat sees its own Chest
    only, whatever the others hold."""
    state = arrange(new_game(4), chests=[2, 4, 6, 8])
    richer = arrange(new_game(4), chests=[2, 4, 13, 1])
    assert GAME.observe(state, 1)["chests"] == [HIDDEN, 4, HIDDEN, HIDDEN]
    assert secret_free(state, 1) != secret_free(state, 2)
    assert secret_free(state, 0) == secret_free(richer, 0)
    assert secret_free(state, 1) == secret_free(richer, 1)
    assert secret_free(state, 2) != secret_free(richer, 2)


def test_chests_are_shown_at_the_end_but_a_departed_chest_stays_sealed():
    """At the end 'all players count the number of coins ... in their Chest'; a player who
    left the game keeps a sealed Chest (see the rules help)."""
    state = arrange(new_game(3), chests=[2, 4, 6])
    state, _ = GAME.forfeit(state, 2, random.Random(0))
    state, _ = GAME.forfeit(state, 1, random.Random(0))
    assert state["phase"] == "over"
    assert GAME.observe(state, 0)["chests"] == [2, HIDDEN, HIDDEN]
    assert GAME.observe(state, 2)["chests"] == [2, HIDDEN, 6]


def test_observe_returns_a_copy():
    """Changing the observed state does not change the game."""
    state, _ = act(new_game(4), 1, "card ruby")
    before = copy.deepcopy(state)
    seen = GAME.observe(state, 1)
    seen["cards"][1]["card"] = "amber"
    seen["dwarves"][0]["square"] = 7
    seen["hands"][1].clear()
    assert state == before


# --- over random games ------------------------------------------------------------------


def scrambled_for(state, seat, rng):
    """``state`` with every secret ``seat`` cannot see changed: other seats' cards and
    Dwarf numbers, the lair square (unless ``seat`` is the Dragon), other splits, other
    Chests (before the end), and which of the others have answered (same count)."""
    other = copy.deepcopy(state)
    dragon = other["dragon_seat"]
    if other["phase"] == "choose":
        waiting = [p.seat for p in GAME.prompts(state) if p.kind == "card" and p.seat != seat]
        answered = [
            s
            for s in range(len(other["roles"]))
            if s != seat and s != dragon and other["cards"][s] is not None
        ]
        for s in answered:
            other["cards"][s] = {"card": rng.choice([*KINDS, "chest"]), "dwarf": 1}
        if seat != dragon and other["lair_choice"] is not None:
            other["lair_choice"] = rng.choice(KINDS)
        # Someone else answering instead (the count stays the same).
        if answered and waiting and rng.random() < 0.5:
            leaving, joining = rng.choice(answered), rng.choice(waiting)
            other["cards"][joining] = other["cards"][leaving]
            other["cards"][leaving] = None
        elif seat != dragon and other["lair_choice"] is not None and waiting:
            other["cards"][rng.choice(waiting)] = {"card": "ruby", "dwarf": 1}
            other["lair_choice"] = None
    for catch in other["catches"]:
        if catch["seat"] != seat and catch["split"] is not None:
            left = rng.randint(0, catch["purse"])
            catch["split"] = [left, catch["purse"] - left]
    if other["phase"] != "over":
        for s in range(len(other["chests"])):
            if s != seat:
                other["chests"][s] += rng.randint(0, 9)
    return other


def random_states(players, seed, limit=400):
    """The states of a random game, with its departures (forfeits) now and then."""
    rng = random.Random(seed)
    state = new_game(players, first_dragon=rng.randrange(players))
    for _ in range(limit):
        yield state
        if GAME.result(state) is not None:
            return
        prompt = rng.choice(GAME.prompts(state))
        if players > 2 and rng.random() < 0.01:
            state, _ = GAME.forfeit(state, prompt.seat, rng)
            continue
        action = rng.choice(GAME.legal_actions(state, prompt.seat)).action
        state, _ = GAME.apply(state, prompt.seat, action, rng)


@settings(max_examples=12)
@given(players=st.sampled_from([2, 3, 4]), seed=st.integers(0, 2**32))
def test_observed_states_hide_secrets(players, seed):
    """On every state of random games, for every seat: the observed state is JSON-ready and
    round-trips through dump/load, and hidden changes to the state do not change it. (That it
    keeps the seat's prompts, legal actions and views: tests/engines/test_contract.py.)"""
    rng = random.Random(seed)
    for state in random_states(players, seed):
        for seat in range(players):
            seen = GAME.observe(state, seat)
            assert json.loads(json.dumps(seen)) == seen
            assert GAME.load(GAME.dump(seen)) == seen
            twin = scrambled_for(state, seat, rng)
            assert GAME.observe(twin, seat) == seen
