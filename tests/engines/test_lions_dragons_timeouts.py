"""Lions and Dragons Chess: what happens when a turn runs out of time (skip and forfeit)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engines.base import IllegalAction
from games import ENGINES
from tests.engines.test_lions_dragons_props import OPTIONS, check_invariants, check_views, pick
from tests.engines.test_lions_dragons_props import weight as progress_weight

GAME = ENGINES["lions-dragons"]


def typed(options: dict) -> str:
    """Options as a player types them: ``reserve=2 cap=50``."""
    return " ".join(f"{key}={value}" for key, value in options.items())


WHITE, BLACK = 0, 1
FAR = {"a1": "white wizard", "l6": "black wizard"}


def new_game(seed: int = 1, **options: str) -> dict:
    return GAME.setup(["white", "black"], GAME.parse_options(typed(options)), random.Random(seed))


def to_move(state: dict) -> int:
    return state["seats"].index(state["to_move"])


def skip(state: dict) -> tuple[dict, list]:
    return GAME.skip(state, to_move(state), random.Random(0))


# -- skip ---------------------------------------------------------------------------------


def test_skip_passes_the_turn_without_moving_anything():
    state = new_game()
    after, events = GAME.skip(state, WHITE, random.Random(0))
    assert after["pieces"] == state["pieces"]
    assert after["reserves"] == state["reserves"]
    assert after["to_move"] == "black" and after["ply"] == 1
    assert GAME.result(after) is None
    assert [p.seat for p in GAME.prompts(after)] == [BLACK]
    assert GAME.legal_actions(after, WHITE) == []
    assert GAME.legal_actions(after, BLACK)
    assert events and all(e.public for e in events)
    assert "White ran out of time" in events[0].text and "passes" in events[0].text
    assert after["last"]["kind"] == "skip" and after["last"]["captured"] == []
    assert "passes" in GAME.view(after, None)["summary"]


def test_black_can_be_skipped_too_and_play_goes_on():
    state, _ = skip(new_game())
    after, _ = GAME.skip(state, BLACK, random.Random(0))
    assert after["to_move"] == "white" and after["ply"] == 2
    move = GAME.legal_actions(after, WHITE)[0].action
    played, _ = GAME.apply(after, WHITE, move, random.Random(0))
    assert played["to_move"] == "black"


def test_fireballs_still_fly_after_a_skip():
    """ "White, Fireballs, Black, Fireballs": the phase after a skipped turn runs as usual."""
    state = GAME.position({**FAR, "f4": "fireball n"})
    after, events = skip(state)
    assert "f4" not in after["pieces"]
    assert after["pieces"]["f6"]["kind"] == "fireball"
    assert after["pieces"]["f6"]["dir"] == "n"
    flights = after["last"]["fireballs"]
    assert [(f["start"], f["end"], f["outcome"]) for f in flights] == [("f4", "f6", "flew")]
    assert any(e.data.get("fireball") == flights[0] for e in events)
    assert after["quiet"] == 1  # a Fireball that only flies is not progress


def test_fireball_hit_after_a_skip_is_progress():
    state = GAME.position({**FAR, "f4": "fireball n", "f6": "black proto"})
    state["quiet"] = 7
    after, events = skip(state)
    assert after["pieces"]["f6"] == {"kind": "dragon", "side": "black"}
    assert after["last"]["fireballs"][0]["outcome"] == "converted"
    assert after["quiet"] == 0
    assert list(after["seen"].values()) == [1]
    assert any("now a Dragon" in e.text for e in events)


def test_fireball_after_a_skip_can_decide_the_game():
    """The Fireball phase after a skip may leave the next side without an action (it loses)."""
    # Black's Wizard on l6 can neither step nor shoot (non-hexes all round); its only mover
    # is the Dragon on f6, which the Fireball from f4 destroys.
    boxed = ["l5", "k6", "k7", "k5", "i7", "l4", "i6", "i8"]
    state = GAME.position({**FAR, "f6": "black dragon", "f4": "fireball n"}, lions=boxed)
    assert GAME.legal_actions({**state, "to_move": "black"}, BLACK)
    after, events = skip(state)
    assert "f6" not in after["pieces"]
    assert after["result"]["reason"] == "stuck"
    assert GAME.result(after).winners == (WHITE,)
    assert events[-1].data["result"]["reason"] == "stuck"
    assert GAME.prompts(after) == []


def test_a_skip_is_not_progress_for_the_quiet_ply_cap():
    state = GAME.position(FAR, options={"cap": "4"})
    for step, action in enumerate(["a1-a2", None, "a2-a3", None]):
        assert GAME.result(state) is None
        if action is None:
            state, _ = skip(state)
        else:
            state, _ = GAME.apply(state, WHITE, action, random.Random(0))
        assert state["quiet"] == step + 1
    assert state["result"]["reason"] == "quiet"
    assert GAME.result(state).draw


def test_skips_count_for_repetition():
    """Four passes in a row with no Fireball in flight bring the same position a third time."""
    state = new_game()
    for _ in range(3):
        state, _ = skip(state)
        assert GAME.result(state) is None
    state, events = skip(state)
    assert state["result"]["reason"] == "repetition"
    assert GAME.result(state).draw
    assert events[-1].text == state["result"]["text"]
    assert GAME.prompts(state) == []


def test_a_move_and_a_skip_repeat_like_two_moves():
    state = GAME.position(FAR)
    plies = ["a1-a2", None, "a2-a1", None, "a1-a2", None, "a2-a1", None]
    for action in plies:
        assert GAME.result(state) is None
        if action is None:
            state, _ = skip(state)
        else:
            state, _ = GAME.apply(state, WHITE, action, random.Random(0))
    assert state["result"]["reason"] == "repetition"


# -- forfeit ------------------------------------------------------------------------------


@pytest.mark.parametrize("seat", [WHITE, BLACK])
def test_forfeit_gives_the_other_side_the_game(seat):
    state = new_game()
    if seat == BLACK:
        state, _ = skip(state)
    after, events = GAME.forfeit(state, seat, random.Random(0))
    result = GAME.result(after)
    assert result.winners == (1 - seat,)
    assert after["result"]["reason"] == "forfeit"
    assert "forfeited" in result.text
    assert GAME.prompts(after) == []
    assert GAME.legal_actions(after, WHITE) == GAME.legal_actions(after, BLACK) == []
    assert after["pieces"] == state["pieces"]
    assert events and all(e.public for e in events)
    assert "ran out of time" in events[0].text and "forfeits" in events[0].text
    assert events[-1].data["result"]["reason"] == "forfeit"
    view = GAME.view(after, None)
    assert view["result"]["winners"] == [1 - seat]
    assert view["result"]["reason"] == "forfeit"
    assert view["to_move"] is None and view["summary"].startswith(result.text)


def test_no_fireball_flies_on_a_forfeit():
    state = GAME.position({**FAR, "f4": "fireball n"})
    after, _ = GAME.forfeit(state, WHITE, random.Random(0))
    assert after["pieces"] == state["pieces"]
    assert after["last"]["fireballs"] == []


# -- contract -----------------------------------------------------------------------------


@pytest.mark.parametrize("hook", ["skip", "forfeit"])
def test_only_while_the_game_runs(hook):
    over, _ = GAME.forfeit(new_game(), WHITE, random.Random(0))
    for seat in (WHITE, BLACK):
        with pytest.raises(IllegalAction):
            getattr(GAME, hook)(over, seat, random.Random(0))


def test_only_the_side_to_move_is_skipped_but_either_side_may_give_up():
    """A resignation comes at any moment: the side not to move forfeits too."""
    state = new_game()
    with pytest.raises(IllegalAction):
        GAME.skip(state, BLACK, random.Random(0))
    after, _ = GAME.forfeit(state, BLACK, random.Random(0))
    assert after["result"]["winner"] == "white" and after["result"]["reason"] == "forfeit"


@pytest.mark.parametrize("hook", ["skip", "forfeit"])
def test_hooks_leave_nothing_to_chance(hook):
    state = GAME.position({**FAR, "f4": "fireball n", "f6": "black proto"})
    first, events_a = getattr(GAME, hook)(state, WHITE, random.Random(1))
    second, events_b = getattr(GAME, hook)(state, WHITE, random.Random(2))
    assert first == second and events_a == events_b


def test_rules_help_says_what_a_timeout_does():
    text = GAME.rules_help()
    section = text[text.index("## If time runs out") :]
    section = section[: section.index("\n\n")] if "\n\n" in section else section
    assert "**Skip:**" in section and "Fireball phase" in section
    assert "**Forfeit:**" in section and "opponent wins" in section
    assert "quiet-ply" in section and "three-times" in section


# -- random games with lapses -------------------------------------------------------------


def play_with_lapses(seed: int, options: dict, lapse: float, forfeits: bool) -> dict:
    """A random game where a prompted side sometimes runs out of time instead of acting."""
    rng = random.Random(seed)
    state = GAME.setup(["white", "black"], GAME.parse_options(typed(options)), rng)
    limit = (progress_weight(state) + 1) * state["options"]["cap"]
    while GAME.result(state) is None:
        assert state["ply"] <= limit, "game did not end"
        prompts = GAME.prompts(state)
        assert len(prompts) == 1
        seat = prompts[0].seat
        assert GAME.legal_actions(state, seat)
        assert GAME.legal_actions(state, 1 - seat) == []
        roll = rng.random()
        if roll < lapse:
            hook = GAME.forfeit if forfeits and roll < lapse / 8 else GAME.skip
            new, events = hook(state, seat, rng)
        else:
            action = pick(state, GAME.legal_actions(state, seat), rng)
            new, events = GAME.apply(state, seat, action.action, rng)
        assert events and all(e.public for e in events)
        check_invariants(new, state)
        if new["result"] is None:
            assert new["to_move"] != state["to_move"]
            assert new["ply"] == state["ply"] + 1
        elif new["result"]["reason"] == "forfeit":
            assert GAME.result(new).winners == (1 - seat,)
        state = new
    check_views(state)
    assert GAME.prompts(state) == []
    return state


@settings(max_examples=30, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    options=OPTIONS,
    lapse=st.sampled_from([0.1, 0.5, 1.0]),
    forfeits=st.booleans(),
)
def test_random_games_with_skips_and_forfeits_end_and_keep_invariants(
    seed, options, lapse, forfeits
):
    state = play_with_lapses(seed, options, lapse, forfeits)
    result = GAME.result(state)
    assert result.text
    reason = state["result"]["reason"]
    assert (result.winners == ()) == (reason in ("repetition", "quiet"))
    if not forfeits:
        assert reason != "forfeit"
