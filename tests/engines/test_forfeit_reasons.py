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


TABLES = [
    pytest.param(slug, players, id=f"{slug}-{players}p")
    for slug, game in sorted(ENGINES.items())
    for players in range(game.min_players, game.max_players + 1)
]


@pytest.mark.parametrize(("slug", "players"), TABLES)
def test_a_seat_not_to_move_can_resign_at_once_and_the_game_goes_on_or_ends(slug, players):
    """Along a random line of play, every seat still playing that is not asked anything may
    give up: with two seats the other wins at once; with more the game goes on without it,
    and the seats that were to move still are."""
    game = ENGINES[slug]
    options = game.parse_options("")
    roles = [role.key for role in game.roles(players, options)]
    state = game.setup(roles, options, setup_rng(3))
    pick = random.Random(f"resign:{slug}:{players}")
    tried = 0
    for step in range(1, 80):
        prompts = game.prompts(state)
        if not prompts:
            break
        asked = {p.seat for p in prompts}
        for seat in sorted(set(range(players)) - asked):
            after, events = game.forfeit(state, seat, random.Random(0), "resigned")
            tried += 1
            assert any(e.public and "resign" in e.text for e in events)
            assert seat not in {p.seat for p in game.prompts(after)}
            if players == 2:
                assert game.result(after) is not None, "one side remains: the game ends"
            elif game.result(after) is None:
                still = {p.seat for p in game.prompts(after)}
                assert asked <= still, f"{asked} were to move, now {still}"
        prompt = pick.choice(prompts)
        action = pick.choice(game.legal_actions(state, prompt.seat)).action
        state, _ = game.apply(state, prompt.seat, action, action_rng(3, step))
    assert tried or slug == "dragons-cave"  # every Dragon's Cave seat answers each phase
