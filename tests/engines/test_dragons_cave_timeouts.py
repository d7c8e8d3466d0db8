"""Dragon's Cave when time runs out: skip answers the pending secret for the player; forfeit
ends a 2-player game and takes a seat out of a 3-4 player game for good."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engines.base import IllegalAction
from tests.engines.test_dragons_cave_properties import check_state
from tests.engines.test_dragons_cave_setup import (
    GAME,
    KINDS,
    act,
    arrange,
    coins_in_play,
    new_game,
    play_round,
    public,
    square,
)

MAX_ACTIONS = 4000


def skip(state, seat, seed=0):
    """Skip ``seat``, checking the input is untouched and the outcome round-trips."""
    return _timed_out(GAME.skip, state, seat, seed)


def forfeit(state, seat, seed=0):
    """Forfeit ``seat``, checking the input is untouched and the outcome round-trips."""
    return _timed_out(GAME.forfeit, state, seat, seed)


def _timed_out(hook, state, seat, seed):
    before = json.dumps(state, sort_keys=True)
    after, events = hook(state, seat, random.Random(seed))
    assert json.dumps(state, sort_keys=True) == before, "the input state was changed"
    assert public(events), "no public event says what happened"
    for event in events:
        assert json.loads(json.dumps(event.data)) == event.data
    assert GAME.load(json.loads(json.dumps(GAME.dump(after)))) == after
    again, _ = hook(state, seat, random.Random(seed))
    assert again == after, "not deterministic given rng"
    assert coins_in_play(after) == 44
    return after, events


def public_blob(events):
    return " ".join((e.text + json.dumps(e.data)).lower() for e in public(events))


def play_cards_only(state, cards):
    """The Dwarf players' cards only (the Dragon has left or already chose)."""
    for seat, card in cards.items():
        state, _ = act(state, seat, card)
    return state


def caught_pair():
    """4 players, Red the Dragon; Blue (4 coins) and Green (5 coins) are caught on Ruby."""
    state = arrange(new_game(4), purses=[0, 4, 5, 0])
    state, _ = play_round(state, {1: "card ruby", 2: "card ruby", 3: "card emerald"}, "ruby")
    assert state["phase"] == "split"
    return state


# --- skip ----------------------------------------------------------------------------------


def test_skipping_a_card_plays_the_treasure_chest_card():
    state = arrange(new_game(3), purses=[0, 6, 0])
    after, events = skip(state, 1)
    assert after["cards"][1] == {"card": "chest", "dwarf": None}
    assert "Treasure Chest card" in public(events)[0].text
    assert public(events)[0].data == {"timeout": "skip", "seat": 1, "prompt": "card"}
    assert after["last_action"]["verb"] == "skip"
    assert [p.seat for p in GAME.prompts(after)] == [0, 2]
    after, events = play_round(after, {2: "card ruby"}, "ruby")
    assert square(after, 1) == "start"
    assert after["purses"][1] == 0 and after["chests"][1] == 6
    assert "chest" in after["hands"][1] and after["played"][1] == []
    assert all(c["seat"] != 1 for c in after["catches"])


def test_skipping_a_card_works_even_after_cards_were_played():
    """The Chest card is always in hand: playing it takes every card back."""
    full = [*KINDS, "chest"]
    state = arrange(new_game(3), hands=[full, ["chest"], full], played=[[], KINDS, []])
    after, _ = skip(state, 1)
    after, _ = play_round(after, {2: "card amber"}, "amber")
    assert sorted(after["hands"][1]) == sorted([*KINDS, "chest"])


def test_skipping_a_card_in_the_two_player_game_plays_the_chest_and_swaps_roles():
    state = arrange(new_game(2, first_dragon=1), purses=[3, 0])
    after, _ = skip(state, 0)
    assert after["cards"][0] == {"card": "chest", "dwarf": None}
    after, _ = act(after, 1, "lair ruby")
    assert [square(after, 0, n) for n in (1, 2)] == ["start", "start"]
    assert after["chests"][0] == 3 and after["dragon_seat"] == 0


def test_skipping_the_lair_draws_a_secret_square_with_rng():
    state = new_game(3)
    after, events = skip(state, 0, seed=11)
    drawn = random.Random(11).choice(KINDS)
    assert after["lair_choice"] == drawn
    private = [e for e in events if e.seat == 0]
    assert private and private[0].data == {"lair": drawn}
    assert drawn not in public_blob(events)
    other = KINDS[(KINDS.index(drawn) + 1) % len(KINDS)]
    assert GAME.view(after, None) == GAME.view(arrange(after, lair_choice=other), None)
    after = play_cards_only(after, {1: "card ruby", 2: "card emerald"})
    assert after["last_round"]["dragon_square"] == drawn


def test_skipping_the_last_lair_choice_reveals_the_round():
    state, _ = act(new_game(3), 1, "card ruby")
    state, _ = act(state, 2, "card emerald")
    after, events = skip(state, 0, seed=2)
    drawn = random.Random(2).choice(KINDS)
    assert after["last_round"]["dragon_square"] == drawn
    assert any(e.data.get("dragon_square") == drawn for e in public(events))


@pytest.mark.parametrize(("purse", "split"), [(5, [3, 2]), (4, [2, 2]), (1, [1, 0])])
def test_skipping_a_split_splits_evenly_with_the_odd_coin_left(purse, split):
    state = arrange(new_game(3), purses=[0, purse, 0])
    state, _ = play_round(state, {1: "card ruby", 2: "card amber"}, "ruby")
    after, events = skip(state, 1)
    assert after["catches"][0]["split"] == split
    assert "odd coin in the left hand" in public(events)[0].text
    assert after["phase"] == "hand"
    assert [(p.seat, p.kind) for p in GAME.prompts(after)] == [(0, "hand")]


def test_skipping_one_of_two_splits_waits_for_the_other():
    state = caught_pair()
    after, _ = skip(state, 2)
    assert after["phase"] == "split"
    assert [(p.seat, p.kind) for p in GAME.prompts(after)] == [(1, "split")]
    assert GAME.view(after, 2)["my_split"] == [3, 2]


def test_skipping_the_hand_pick_draws_a_hand_for_each_caught_player():
    state = caught_pair()
    state, _ = act(state, 1, "split 1")
    state, _ = act(state, 2, "split 5")
    state, _ = act(state, 0, "hand blue right")  # Blue keeps 1
    after, events = skip(state, 0, seed=4)
    side = random.Random(4).choice(["left", "right"])
    drawn = next(e for e in events if "drawn" in e.data)
    assert drawn.public and drawn.data["drawn"] == [{"seat": 2, "hand": side}]
    assert after["purses"][1:3] == [1, 0 if side == "left" else 5]
    assert after["phase"] == "choose" and after["dragon_seat"] == 1


def test_skipping_both_hand_picks():
    state = caught_pair()
    state, _ = act(state, 1, "split 4")
    state, _ = act(state, 2, "split 0")
    after, events = skip(state, 0, seed=9)
    draw = random.Random(9)
    sides = [draw.choice(["left", "right"]) for _ in range(2)]
    drawn = next(e for e in events if "drawn" in e.data)
    assert drawn.data["drawn"] == [{"seat": 1, "hand": sides[0]}, {"seat": 2, "hand": sides[1]}]
    assert [h["hand"] for h in after["last_round"]["hands"]] == sides
    assert after["round"] == 2


def test_skip_needs_a_pending_prompt():
    state, _ = act(new_game(3), 1, "card ruby")
    with pytest.raises(IllegalAction, match="nothing to decide"):
        GAME.skip(state, 1, random.Random(0))


# --- forfeit, 2 players ----------------------------------------------------------------------


@pytest.mark.parametrize("seat", [0, 1])
def test_forfeit_with_two_players_the_other_wins_at_once(seat):
    state = arrange(new_game(2, first_dragon=1), purses=[10, 0], chests=[0, 20])
    after, events = forfeit(state, seat)
    result = GAME.result(after)
    assert result.winners == (1 - seat,)
    assert GAME.prompts(after) == []
    assert after["outcome"]["reason"] == "forfeit"
    assert "forfeits" in public(events)[0].text
    with pytest.raises(IllegalAction, match="over"):
        act(after, 1 - seat, "lair ruby")


# --- forfeit, 3-4 players ---------------------------------------------------------------------


def test_forfeit_takes_the_seat_out_for_good():
    state = arrange(new_game(4), purses=[0, 7, 0, 0], chests=[0, 5, 0, 0])
    state, _ = act(state, 1, "card ruby")  # its locked-in card goes with it
    after, events = forfeit(state, 1)
    assert after["departed"] == [1]
    assert [d["seat"] for d in after["dwarves"]] == [0, 2, 3]
    assert after["purses"][1] == 0 and after["treasure"] == state["treasure"] + 7
    assert after["chests"][1] == 5
    assert after["cards"][1] is None
    text = public(events)[0].text
    assert "leaves the game" in text and "7 coins" in text and "sealed" in text
    assert GAME.view(after, None)["departed"] == [1]
    assert "Left the game: Blue" in GAME.view(after, None)["summary"]
    assert all(p.seat != 1 for p in GAME.prompts(after))
    assert GAME.legal_actions(after, 1) == []
    with pytest.raises(IllegalAction, match="left this game"):
        act(after, 1, "card emerald")
    with pytest.raises(IllegalAction, match="already left"):
        GAME.forfeit(after, 1, random.Random(0))
    # The Dragon passes over the departed seat.
    after, _ = play_round(after, {2: "card ruby", 3: "card ruby"}, "crystal")
    assert after["dragon_seat"] == 2
    assert GAME.view(after, None)["waiting"] == {"kind": "choices", "done": 0, "total": 3}
    for _ in range(3):
        cards = {s: "card chest" for s in (0, 2, 3) if s != after["dragon_seat"]}
        after, _ = play_round(after, cards, "crystal")
        assert after["dragon_seat"] != 1
    assert after["dragon_seat"] == 2


def test_forfeit_of_the_last_awaited_card_reveals_the_round():
    state, _ = act(new_game(3), 0, "lair ruby")
    state, _ = act(state, 2, "card emerald")
    after, _ = forfeit(state, 1)
    assert after["last_round"]["round"] == 1
    assert [p["seat"] for p in after["last_round"]["plays"]] == [2]
    assert after["dragon_seat"] == 2 and after["round"] == 2


def test_a_departed_chest_does_not_count_and_cannot_win():
    state = arrange(new_game(3), purses=[0, 0, 2], chests=[0, 30, 1])
    state = arrange(state, squares={(2, 1): len(state["board"]["path"]) - 1})
    state, _ = forfeit(state, 1)
    state, _ = play_round(state, {2: "card ruby"}, "crystal")
    result = GAME.result(state)
    assert result.winners == (2,)
    assert state["outcome"]["totals"] == [0, 0, 2 + 1 + 4]
    assert "Blue: left the game" in state["outcome"]["details"]
    view = GAME.view(state, None)
    assert view["chests"] == [0, "hidden", 1]
    assert coins_in_play(state) == 44


def test_forfeit_of_the_dragon_draws_its_lair_square():
    state, _ = act(new_game(4), 1, "card ruby")
    after, events = forfeit(state, 0, seed=6)
    drawn = random.Random(6).choice(KINDS)
    assert after["lair_choice"] == drawn
    assert drawn not in public_blob(events)
    assert "They were the Dragon" in public(events)[0].text
    assert sorted(p.seat for p in GAME.prompts(after)) == [2, 3]
    after = play_cards_only(after, {2: "card emerald", 3: "card amber"})
    assert after["last_round"]["dragon_square"] == drawn
    assert after["dragon_seat"] == 1


def test_forfeit_of_the_dragon_in_the_hand_phase_draws_the_hands():
    state = caught_pair()
    state, _ = act(state, 1, "split 4")
    state, _ = act(state, 2, "split 5")
    after, _ = forfeit(state, 0, seed=3)
    draw = random.Random(3)
    sides = [draw.choice(["left", "right"]) for _ in range(2)]
    assert [h["hand"] for h in after["last_round"]["hands"]] == sides
    assert after["round"] == 2 and after["dragon_seat"] == 1
    assert coins_in_play(after) == 44


def test_after_a_departed_dragon_the_last_split_draws_the_hands():
    state = caught_pair()
    state, _ = forfeit(state, 0)  # no prompt of its own now, but it may still leave
    state, _ = act(state, 1, "split 4")
    assert state["phase"] == "split"
    after, events = GAME.apply(state, 2, "split 0", random.Random(8))
    draw = random.Random(8)
    sides = [draw.choice(["left", "right"]) for _ in range(2)]
    assert next(e for e in events if "drawn" in e.data).data["drawn"] == [
        {"seat": 1, "hand": sides[0]},
        {"seat": 2, "hand": sides[1]},
    ]
    assert after["dragon_seat"] == 1 and after["phase"] == "choose"


def test_forfeit_of_a_caught_player_drops_its_split():
    state = caught_pair()
    after, _ = forfeit(state, 2)
    assert [c["seat"] for c in after["catches"]] == [1]
    assert after["treasure"] == state["treasure"] + 5
    after, _ = act(after, 1, "split 2")
    assert after["phase"] == "hand"
    only = arrange(new_game(3), purses=[0, 5, 0])
    only, _ = play_round(only, {1: "card ruby", 2: "card amber"}, "ruby")
    after, _ = forfeit(only, 1)
    assert after["phase"] == "choose" and after["dragon_seat"] == 2


def test_when_one_player_is_left_that_player_wins():
    state = arrange(new_game(3), chests=[20, 0, 1])
    state, _ = forfeit(state, 1)
    assert GAME.result(state) is None
    state, events = forfeit(state, 0)
    assert GAME.result(state).winners == (2,)
    assert state["outcome"]["reason"] == "forfeit"
    assert "Only Green is left" in public(events)[0].text
    assert GAME.prompts(state) == []
    assert GAME.view(state, None)["chests"] == ["hidden", "hidden", 1]


def test_old_snapshots_load_with_no_departed_seats():
    data = GAME.dump(new_game(3))
    del data["departed"]
    assert GAME.load(data)["departed"] == []


def test_rules_help_says_what_happens_when_time_runs_out():
    text = GAME.rules_help()
    assert "## Dragon's Cave: if time runs out" in text
    section = text.split("if time runs out", 1)[1]
    for words in (
        "Treasure Chest card",
        "drawn at random",
        "odd coin in the left hand",
        "the other player wins",
        "Chest stays sealed",
        "passes over them",
    ):
        assert words in section


# --- random games with timeouts ---------------------------------------------------------------


def timeout_game(players: int, seed: int):
    """Random game where a prompted seat sometimes is skipped or forfeits; each step gets its
    own rng, as the host gives each action. Returns the final state and the log."""
    rng = random.Random(seed)
    state = new_game(players, first_dragon=rng.randrange(players))
    log = []
    for _ in range(MAX_ACTIONS):
        if GAME.result(state) is not None:
            return state, log
        check_state(state)
        for seat in state["departed"]:
            assert GAME.legal_actions(state, seat) == []
            assert all(d["seat"] != seat for d in state["dwarves"])
            assert state["purses"][seat] == 0
        prompt = rng.choice(GAME.prompts(state))
        assert prompt.seat not in state["departed"]
        step_seed = rng.getrandbits(32)
        roll = rng.random()
        if roll < 0.02:
            action = "!forfeit"
            after, events = GAME.forfeit(state, prompt.seat, random.Random(step_seed))
        elif roll < 0.15:
            action = "!skip"
            after, events = GAME.skip(state, prompt.seat, random.Random(step_seed))
        else:
            action = rng.choice(GAME.legal_actions(state, prompt.seat)).action
            after, events = GAME.apply(state, prompt.seat, action, random.Random(step_seed))
        if action.startswith("!"):
            assert public(events)
        log.append((prompt.seat, action, step_seed))
        state = after
    raise AssertionError(f"no end after {MAX_ACTIONS} actions")


@given(players=st.sampled_from([2, 3, 4]), seed=st.integers(0, 2**32))
def test_random_games_with_timeouts_end_and_keep_invariants(players, seed):
    """Coins, scores and the seats that left stay right (replay: tests/engines/test_contract)."""
    state, _log = timeout_game(players, seed)
    check_state(state)
    outcome = state["outcome"]
    departed = state["departed"]
    assert outcome["winners"]
    assert not set(outcome["winners"]) & set(departed)
    assert GAME.result(state).winners == tuple(outcome["winners"])
    view = GAME.view(state, None)
    for seat in range(players):
        if seat in departed:
            assert outcome["totals"][seat] == 0 and view["chests"][seat] == "hidden"
            assert state["purses"][seat] == 0
        else:
            assert view["chests"][seat] == state["chests"][seat]
            assert outcome["totals"][seat] == (
                state["purses"][seat] + state["chests"][seat] + outcome["bonus"][seat]
            )
    if outcome["reason"] == "forfeit":
        assert len(outcome["winners"]) == 1
        assert players == 2 or len(departed) == players - 1
    else:
        best = max(outcome["totals"][s] for s in range(players) if s not in departed)
        assert outcome["totals"][outcome["winners"][0]] == best
    if players == 2:
        assert departed == []
