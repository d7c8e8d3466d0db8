"""Replaying a game from its seed and log (engines.replay), as the host stores it."""

from __future__ import annotations

import random

import pytest

from engines.base import IllegalAction
from engines.replay import (
    DRAW,
    FORFEIT,
    SKIP,
    TAKEBACK,
    NoTakeback,
    WatchedRandom,
    action_rng,
    in_effect,
    replay,
    setup_rng,
    start,
    step,
    takeback,
)
from games import ENGINES


def test_chance_is_drawn_from_the_seed_and_the_sequence_number():
    """The set-up draws from ``f"{seed}:setup"``, the action logged as ``seq`` from
    ``f"{seed}:{seq}"``: the derivation stored games were played with."""
    assert setup_rng(42).random() == random.Random("42:setup").random()
    assert action_rng(42, 7).random() == random.Random("42:7").random()
    assert action_rng(42, 7).random() != action_rng(42, 8).random()
    assert (SKIP, FORFEIT) == ("!skip", "!forfeit")


def test_a_logged_game_with_timeouts_replays_to_the_same_state():
    game = ENGINES["stgeorge"]
    roles = [role.key for role in game.roles(3, {})]
    state = start(game, roles, {}, seed=9)
    log = []
    for seq in range(1, 40):
        seat = game.prompts(state)[0].seat
        action = SKIP if seq % 7 == 0 else game.legal_actions(state, seat)[0].action
        state, _events = step(game, state, seat, action, action_rng(9, seq))
        log.append((seq, seat, action))
    seat = game.prompts(state)[0].seat
    state, _events = step(game, state, seat, FORFEIT, action_rng(9, 40))
    log.append((40, seat, FORFEIT))
    assert seat in state.departed
    assert game.dump(replay(game, roles, {}, 9, log)) == game.dump(state)
    assert game.dump(replay(game, roles, {}, 9, [])) == game.dump(start(game, roles, {}, 9))


def _stgeorge(players: int = 2):
    game = ENGINES["stgeorge"]
    return game, [role.key for role in game.roles(players, {})]


def _play(game, state, log, seed, seat, action):
    seq = len(log) + 1
    state, _events = step(game, state, seat, action, action_rng(seed, seq))
    log.append((seq, seat, action))
    return state


def test_a_takeback_goes_back_before_the_seats_last_action_and_replays_exactly():
    game, roles = _stgeorge()
    state = start(game, roles, {}, seed=5)
    log: list[tuple[int, int, str]] = []
    state = _play(game, state, log, 5, 0, "roll")
    rolled = state
    move = game.legal_actions(state, 0)[0].action
    state = _play(game, state, log, 5, 0, move)
    assert game.prompts(state)[0].seat == 1

    back = takeback(game, roles, {}, 5, log, seat=0)
    assert game.dump(back) == game.dump(rolled)  # the die stays as it was rolled
    log.append((3, 0, TAKEBACK))
    assert game.dump(replay(game, roles, {}, 5, log)) == game.dump(rolled)

    other = game.legal_actions(back, 0)[-1].action
    state = _play(game, back, log, 5, 0, other)
    assert in_effect(log) == [(1, 0, "roll"), (4, 0, other)]
    assert game.dump(replay(game, roles, {}, 5, log)) == game.dump(state)


def test_no_takeback_once_a_die_was_rolled_or_with_nothing_to_take_back():
    game, roles = _stgeorge()
    state = start(game, roles, {}, seed=5)
    log: list[tuple[int, int, str]] = []
    with pytest.raises(NoTakeback, match="no move"):
        takeback(game, roles, {}, 5, log, seat=0)
    state = _play(game, state, log, 5, 0, "roll")
    with pytest.raises(NoTakeback, match="die rolled"):
        takeback(game, roles, {}, 5, log, seat=0)  # the roll itself drew on chance
    state = _play(game, state, log, 5, 0, game.legal_actions(state, 0)[0].action)
    state = _play(game, state, log, 5, 1, "roll")
    with pytest.raises(NoTakeback, match="die rolled"):
        takeback(game, roles, {}, 5, log, seat=0)


def test_a_takeback_of_a_secret_choice_stops_once_the_secrets_are_shown():
    game = ENGINES["dragons-cave"]
    options = game.parse_options("")
    roles = [role.key for role in game.roles(2, options)]
    state = start(game, roles, options, seed=3)
    log: list[tuple[int, int, str]] = []
    first = game.prompts(state)[0].seat
    state = _play(game, state, log, 3, first, game.legal_actions(state, first)[0].action)
    assert game.dump(takeback(game, roles, options, 3, log, first)) == game.dump(
        start(game, roles, options, 3)
    )
    for prompt in game.prompts(state):  # the last answer reveals them all
        if prompt.seat != first:
            action = game.legal_actions(state, prompt.seat)[0].action
            state = _play(game, state, log, 3, prompt.seat, action)
    with pytest.raises(NoTakeback):
        takeback(game, roles, options, 3, log, first)


def test_a_draw_by_agreement_is_logged_and_replays():
    game = ENGINES["lions-dragons"]
    options = game.parse_options("")
    roles = [role.key for role in game.roles(2, options)]
    state = start(game, roles, options, seed=8)
    log: list[tuple[int, int, str]] = []
    state = _play(game, state, log, 8, 0, game.legal_actions(state, 0)[0].action)
    state = _play(game, state, log, 8, 0, DRAW)
    result = game.result(state)
    assert result is not None and result.draw and "agreed" in result.text
    assert game.dump(replay(game, roles, options, 8, log)) == game.dump(state)
    with pytest.raises(IllegalAction, match="no draw by agreement"):
        step(ENGINES["stgeorge"], start(*_stgeorge(), {}, 1), 0, DRAW, action_rng(1, 1))


def test_a_watched_rng_draws_what_a_plain_one_draws():
    watched, plain = WatchedRandom("7:3"), random.Random("7:3")
    assert not watched.used
    assert [watched.randint(1, 6) for _ in range(5)] == [plain.randint(1, 6) for _ in range(5)]
    assert watched.choice("abcdef") == plain.choice("abcdef")
    assert watched.random() == plain.random()
    assert watched.used
