"""Replaying a game from its seed and log (engines.replay), as the host stores it."""

from __future__ import annotations

import random

from engines.replay import FORFEIT, SKIP, action_rng, replay, setup_rng, start, step
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
