"""A forfeit is told as what it was (its time ran out, its player resigned, its player
left), in every registered game, and the log keeps the reason."""

import random

import pytest

from engines.base import FORFEIT_REASONS
from engines.replay import FORFEIT, action_rng, replay, setup_rng
from games import ENGINES


@pytest.mark.parametrize("slug", sorted(ENGINES))
def test_a_forfeit_is_told_as_what_it_was_timeout_resignation_or_leaving(slug):
    """The same forfeit, for each reason, is told differently, and only a timeout speaks of
    time; a bare ``!forfeit`` (every forfeit logged before reasons were kept) replays as a
    timeout."""
    game = ENGINES[slug]
    options = game.parse_options("")
    roles = [role.key for role in game.roles(game.min_players, options)]
    state = game.setup(roles, options, setup_rng(5))
    seat = game.prompts(state)[0].seat
    told = {}
    for reason in FORFEIT_REASONS:
        _after, events = game.forfeit(state, seat, random.Random(0), reason)
        told[reason] = " ".join(e.text for e in events if e.public)
        assert ("ran out of time" in told[reason]) == (reason == "timeout"), told[reason]
    assert "resign" in told["resigned"] and "left the game" in told["left"], told
    assert len(set(told.values())) == len(FORFEIT_REASONS), told
    old = replay(game, roles, options, 5, [(1, seat, FORFEIT)])
    timed_out, _ = game.forfeit(state, seat, action_rng(5, 1), "timeout")
    assert game.dump(old) == game.dump(timed_out)
