"""How a game ended is data (``Result.how``), the same for every registered game: a forfeit
says its reason, an agreed draw says so, a game played out says the rules ended it; and a
snapshot kept before the kind was recorded still loads and says a kind."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engines.base import FORFEIT_REASONS, Game, Termination
from engines.replay import action_rng, setup_rng
from games import ENGINES


def new_game(game: Game, players: int) -> Any:
    options = game.parse_options("")
    roles = [role.key for role in game.roles(players, options)]
    return game.setup(roles, options, setup_rng(0))


def without_kind(value: Any) -> Any:
    """A dump as kept before the ending's kind was recorded."""
    if isinstance(value, dict):
        return {k: without_kind(v) for k, v in value.items() if k not in ("how", "ended_by")}
    if isinstance(value, list):
        return [without_kind(v) for v in value]
    return value


@pytest.mark.parametrize("reason", FORFEIT_REASONS)
@pytest.mark.parametrize("slug", sorted(ENGINES))
def test_a_forfeit_that_ends_the_game_says_its_reason(slug, reason):
    game = ENGINES[slug]
    state = new_game(game, 2)
    state, _ = game.forfeit(state, 0, action_rng(0, 1), reason)
    result = game.result(state)
    assert result is not None and result.winners == (1,)
    assert result.how is Termination(reason) and result.how.forfeited
    again = game.result(game.load(game.dump(state)))
    assert again is not None and again.how is Termination(reason)
    old = game.result(game.load(without_kind(game.dump(state))))
    assert old is not None and old.how.forfeited, "an old forfeit no longer loads as one"


@pytest.mark.parametrize("slug", sorted(ENGINES))
def test_an_agreed_draw_says_it_was_agreed(slug):
    game = ENGINES[slug]
    state = new_game(game, 2)
    if not game.draw_by_agreement(state):
        return  # this game has no draw by agreement (its contract test checks the refusal)
    state, _ = game.agree_draw(state)
    result = game.result(state)
    assert result is not None and result.how is Termination.AGREED and not result.winners
    old = game.result(game.load(without_kind(game.dump(state))))
    assert old is not None and old.how is Termination.AGREED


@pytest.mark.parametrize("slug", sorted(ENGINES))
def test_a_game_played_out_ended_by_the_rules(slug):
    game = ENGINES[slug]
    state = new_game(game, game.min_players)
    pick = random.Random(f"ending:{slug}")
    for step in range(1, 6001):
        prompts = game.prompts(state)
        if not prompts:
            break
        prompt = pick.choice(prompts)
        action = pick.choice(game.legal_actions(state, prompt.seat)).action
        state, _ = game.apply(state, prompt.seat, action, action_rng(0, step))
    result = game.result(state)
    assert result is not None and result.how is Termination.RULES
    old = game.result(game.load(without_kind(game.dump(state))))
    assert old is not None and old.how is Termination.RULES
