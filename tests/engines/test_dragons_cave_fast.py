"""Dragon's Cave: the fast model (``engines.dragons_cave.fast``) plays rounds by the engine's
rules: the same cards to choose from, the same reveal, payments, catches, Dragon and result."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engines.dragons_cave import fast
from engines.dragons_cave.board import coins_on, progress, step_ahead, step_back
from engines.dragons_cave.state import card_seats, movable
from tests.engines.test_dragons_cave_setup import GAME, arrange, new_game


def random_game(players: int, seed: int):
    """States of a random game, a seat forfeiting now and then (3-4 players)."""
    rng = random.Random(seed)
    state = new_game(players, first_dragon=rng.randrange(players))
    for _ in range(3000):
        yield state
        if GAME.result(state) is not None:
            return
        prompt = rng.choice(GAME.prompts(state))
        if players > 2 and rng.random() < 0.005:
            state, _ = GAME.forfeit(state, prompt.seat, rng)
            continue
        action = rng.choice([c.action for c in GAME.legal_actions(state, prompt.seat)])
        state, _ = GAME.apply(state, prompt.seat, action, rng)
    raise AssertionError("the game did not end")


def model_of(state):
    sim = fast.sim_from(state, state["chests"])
    return sim.pos, sim.hand, sim.purse, sim.chest, sim.treasure, sim.undistributed


def card_action(keys, two: bool, card: tuple[int, int]) -> str:
    kind, d = card
    if kind == fast.CHEST:
        return "card chest"
    return f"card {keys[kind]} {d + 1}" if two else f"card {keys[kind]}"


@settings(max_examples=10, deadline=None)
@given(players=st.sampled_from([2, 3, 4]), seed=st.integers(0, 2**32))
def test_rounds_end_exactly_as_in_the_engine(players, seed):
    """Each round of a random game, replayed on the fast model with the same cards, square
    and hand picks, ends in the engine's position (and its final score)."""
    states = list(random_game(players, seed))
    starts = [s for s in states if s["phase"] == "choose" and not any(s["cards"])]
    starts = [s for s in starts if s["lair_choice"] is None]
    for before, after in zip(starts, [*starts[1:], states[-1]], strict=True):
        if after["departed"] != before["departed"] or after["round"] != before["round"] + (
            after["phase"] != "over"
        ):
            continue
        record = after["last_round"]
        keys = fast.tables(before["board"]).keys
        cards = {
            play["seat"]: (
                fast.CHEST if play["card"] == "chest" else keys.index(play["card"]),
                (play["dwarf"] or 1) - 1,
            )
            for play in record["plays"]
        }
        sim = fast.sim_from(before, before["chests"])
        caught, swap = fast.reveal(sim, cards, keys.index(record["dragon_square"]))
        over = fast.treasure_empty(sim)
        if not over:
            taken = {hand["seat"]: hand["returned"] for hand in record["hands"]}
            assert sorted(caught) == sorted(taken)
            for seat in caught:
                fast.take(sim, seat, taken[seat])
            over = fast.round_over(sim)
        assert over == (after["phase"] == "over")
        assert (sim.pos, sim.hand, sim.purse, sim.chest, sim.treasure) == model_of(after)[:5]
        if over:
            winners = after["outcome"]["winners"]
            for seat in range(players):
                expected = 1 / len(winners) if seat in winners else 0.0
                assert fast.share(sim, seat) == expected
                if seat not in after["departed"]:
                    assert fast.totals(sim)[seat] == after["outcome"]["totals"][seat]
        else:
            fast.next_round(sim, swap)
            assert sim.dragon == after["dragon_seat"]


@settings(max_examples=6, deadline=None)
@given(players=st.sampled_from([2, 3, 4]), seed=st.integers(0, 2**32))
def test_same_card_seats_and_cards_as_the_engine(players, seed):
    """At every card prompt, the seats playing a card, their movable Dwarves and the cards
    they may play are the engine's."""
    checked = 0
    for state in random_game(players, seed):
        if state["phase"] != "choose":
            continue
        sim = fast.sim_from(state, state["chests"])
        assert sim.card_seats() == card_seats(state)
        keys = sim.t.keys
        for seat in card_seats(state):
            assert [d + 1 for d in sim.movable(seat)] == movable(state, seat)
            if state["cards"][seat] is not None:
                continue
            legal = {c.action for c in GAME.legal_actions(state, seat)}
            mine = [card_action(keys, sim.two, c) for c in fast.legal_cards(sim, seat)]
            assert sorted(mine) == sorted(legal)
            checked += 1
    assert checked > 0


def test_tables_follow_the_board():
    """``ahead``/``back``/``coins`` are ``step_ahead``/``step_back``/``coins_on`` on the
    engine's ``progress`` numbering (Start 0, the lair last)."""
    board = new_game(3)["board"]
    t = fast.tables(board)
    squares = ["start", *range(len(board["path"]))]
    for square in squares:
        pos = progress(board, square)
        assert t.coins[pos] == coins_on(board, square)
        for kind, key in enumerate(t.keys):
            assert t.ahead[pos][kind] == progress(board, step_ahead(board, square, key))
            assert t.back[pos][kind] == progress(board, step_back(board, square, key))
    assert t.lair == progress(board, "lair:ruby")


def test_positions_follow_the_engines_progress():
    """The model numbers squares as the engine's ``progress``: Start 0, the lair last."""
    state = arrange(new_game(3), squares={(1, 1): 6, (2, 1): "lair:ruby"})
    sim = fast.sim_from(state, state["chests"])
    board = state["board"]
    assert sim.pos == [[0], [progress(board, 6)], [progress(board, "lair:ruby")]]
    assert sim.pos[2][0] == sim.t.lair
