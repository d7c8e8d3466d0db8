"""St. George and the Dragon: what happens when a turn runs out of time (skip and forfeit)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engines.base import IllegalAction
from engines.stgeorge import GAME
from engines.stgeorge.board import current_board
from engines.stgeorge.state import State
from tests.engines.test_stgeorge import Dice, new_game, play, position
from tests.engines.test_stgeorge_properties import (
    MAX_ACTIONS,
    check_invariants,
    check_move,
    check_views,
)


class NoDice(random.Random):
    """An rng that fails the test if anything is left to chance."""

    def __init__(self) -> None:
        super().__init__(0)

    def random(self) -> float:
        raise AssertionError("skip and forfeit leave nothing to chance")

    def randint(self, a: int, b: int) -> int:
        raise AssertionError("skip and forfeit leave nothing to chance")


def skip(state: State, seat: int | None = None):
    return GAME.skip(state, state.to_move if seat is None else seat, NoDice())


def forfeit(state: State, seat: int | None = None):
    return GAME.forfeit(state, state.to_move if seat is None else seat, NoDice())


BOARD_INDEX = current_board().index


def knights_of(state: State, castle: str) -> list[str]:
    return sorted(point for point, owner in state.pieces.items() if owner == castle)


# --- skip ------------------------------------------------------------------------------


def test_skip_before_rolling_passes_the_turn():
    state = new_game(5)
    after, events = skip(state)
    assert after.to_move == 1 and after.phase == "roll" and after.turn == 1
    assert after.pieces == state.pieces
    assert [(p.seat, p.kind) for p in GAME.prompts(after)] == [(1, "roll")]
    assert [c.action for c in GAME.legal_actions(after, 1)] == ["roll"]
    assert GAME.legal_actions(after, 0) == []
    assert len(events) == 1 and events[0].public
    assert events[0].text == "St. George ran out of time: the turn passes without a move."
    assert events[0].data == {"seat": 0, "skipped": True, "phase": "roll"}
    assert GAME.view(after, None)["summary"] == (
        "Turn 1: St. Patrick to roll. Last: St. George ran out of time and the turn passed."
    )
    assert GAME.result(after) is None


def test_skip_after_rolling_loses_the_roll():
    state, _events = play(new_game(5), "roll", rng=Dice(3))
    assert state.phase == "move"
    after, events = skip(state)
    assert after.to_move == 1 and after.phase == "roll"
    assert after.pieces == state.pieces and after.last is None
    assert events[0].data == {"seat": 0, "skipped": True, "phase": "move"}
    # The next seat goes on exactly as after an ordinary turn.
    rolled, _events = play(after, "roll", rng=Dice(2))
    assert rolled.to_move == 1 and rolled.phase == "move"
    moved, _events = play(rolled, GAME.legal_actions(rolled, 1)[0].action)
    assert moved.to_move == 2 and moved.timed_out is None
    assert "ran out of time" not in GAME.view(moved, None)["summary"]


def test_skipping_the_dragon_starts_the_next_round():
    state = position(5, {"9f": "dragon"}, to_move=4)
    after, _events = skip(state)
    assert after.to_move == 0 and after.turn == state.turn + 1 and after.phase == "roll"
    assert after.departed == []


def test_skip_only_for_the_seat_asked_forfeit_for_any_seat_still_playing():
    state = new_game(5)
    with pytest.raises(IllegalAction, match="not your turn"):
        GAME.skip(state, 3, NoDice())
    gone, events = GAME.forfeit(state, 3, NoDice(), "resigned")
    assert gone.to_move == state.to_move and gone.phase == state.phase, "the turn stays"
    assert gone.departed == [3] and "resigned and left the game" in events[0].text
    with pytest.raises(IllegalAction, match="already left"):
        GAME.forfeit(gone, 3, NoDice())
    over, _events = forfeit(position(5, {"9f": "dragon"}, to_move=4))
    assert GAME.result(over) is not None
    for hook in (GAME.skip, GAME.forfeit):
        with pytest.raises(IllegalAction, match="game is over"):
            hook(over, 0, NoDice())


# --- forfeit: the Dragon -----------------------------------------------------------------


def test_the_dragon_forfeiting_ends_the_game_for_every_knight():
    state = position(5, {"9f": "dragon", "4b": "george"}, to_move=4, taken={"andrew": 2})
    after, events = forfeit(state)
    result = GAME.result(after)
    assert result is not None and result.winners == (0, 1, 2, 3)
    assert result.text == (
        "The Dragon left the game: the Knights have driven it off. "
        "St. George, St. Patrick, St. Andrew and St. David win together."
    )
    assert GAME.prompts(after) == []
    assert all(GAME.legal_actions(after, seat) == [] for seat in range(5))
    assert all(event.public for event in events)
    assert events[0].text == "The Dragon ran out of time and leaves the game."
    assert events[-1].data == {"winners": [0, 1, 2, 3], "over": True}
    assert after.departed == [4]
    view = GAME.view(after, None)
    assert view["to_move"] is None and view["winners"] == [0, 1, 2, 3]
    assert view["seats"][4]["departed"] is True


def test_the_dragon_forfeiting_in_its_move_step():
    state = position(2, {"9f": "dragon"}, to_move=1, roll=2)
    after, _events = forfeit(state)
    assert GAME.result(after).winners == (0,)
    assert GAME.result(after).text.endswith("All four Knights win.")


def test_knights_who_left_earlier_do_not_share_the_dragons_forfeit():
    state = new_game(4)
    state, _events = forfeit(state)  # St. George leaves
    state, _events = skip(state)  # St. Andrew
    state, _events = skip(state)  # St. David
    assert state.to_move == 3
    after, _events = forfeit(state)
    assert GAME.result(after).winners == (1, 2)
    assert GAME.result(after).text.endswith("St. Andrew and St. David win together.")


# --- forfeit: a Knight seat --------------------------------------------------------------


def test_a_knight_forfeiting_takes_its_castle_out_of_play():
    state = position(5, {"4b": "george", "9f": "dragon"}, scored={"george": 1})
    gone = knights_of(state, "george")
    assert len(gone) == 2
    after, events = forfeit(state)
    assert knights_of(after, "george") == []
    assert {p: o for p, o in after.pieces.items() if o != "george"} == {
        p: o for p, o in state.pieces.items() if o != "george"
    }
    assert GAME.result(after) is None
    assert after.to_move == 1 and after.phase == "roll" and after.departed == [0]
    assert [(p.seat, p.kind) for p in GAME.prompts(after)] == [(1, "roll")]
    assert len(events) == 1 and events[0].public
    assert events[0].text == (
        "St. George ran out of time and leaves the game: the Knights of St. George leave the "
        "board and that castle is out of play."
    )
    assert events[0].data["removed"] == sorted(gone, key=BOARD_INDEX.__getitem__)
    assert events[0].data["castles"] == ["george"]
    view = GAME.view(after, None)
    assert view["castles_in_play"] == ["patrick", "andrew", "david"]
    assert [s["departed"] for s in view["seats"]] == [True, False, False, False, False]
    assert view["summary"] == (
        "Turn 1: St. Patrick to roll. Last: St. George ran out of time and left the game."
    )
    check_invariants(after)
    check_views(after)


def test_a_knight_forfeiting_in_its_move_step_loses_the_roll():
    state, _events = play(new_game(5), "roll", rng=Dice(3))
    state, _events = skip(state)  # St. Patrick's turn...
    state, _events = play(state, "roll", rng=Dice(2))
    after, _events = forfeit(state)  # ...and St. Patrick leaves after rolling.
    assert after.to_move == 2 and after.phase == "roll"
    assert knights_of(after, "patrick") == []
    assert GAME.view(after, None)["castles_in_play"] == ["george", "andrew", "david"]


def test_a_departed_seat_is_passed_over_from_then_on():
    state = new_game(5)
    state, _events = skip(state)  # St. George
    state, _events = forfeit(state)  # St. Patrick leaves
    seen = []
    for _ in range(8):
        assert [p.seat for p in GAME.prompts(state)] == [state.to_move]
        assert GAME.legal_actions(state, 1) == []
        seen.append(state.to_move)
        state, _events = skip(state)
    assert seen == [2, 3, 4, 0, 2, 3, 4, 0]
    assert state.turn == 3


def test_the_round_counter_still_counts_when_the_first_seat_left():
    state = new_game(4)
    state, _events = forfeit(state)  # St. George, seat 0, leaves
    turns = []
    for _ in range(6):
        turns.append((state.to_move, state.turn))
        state, _events = skip(state)
    assert turns == [(1, 1), (2, 1), (3, 1), (1, 2), (2, 2), (3, 2)]


def test_a_player_with_two_castles_takes_both_away():
    state = new_game(3)
    state, _events = skip(state)
    after, events = forfeit(state)  # St. David & St. Patrick
    assert knights_of(after, "david") == [] and knights_of(after, "patrick") == []
    assert events[0].data["castles"] == ["david", "patrick"]
    assert events[0].text.endswith(
        "the Knights of St. David and St. Patrick leave the board and those castles are out "
        "of play."
    )
    assert GAME.view(after, None)["castles_in_play"] == ["george", "andrew"]
    assert after.to_move == 2


def test_the_dragon_then_needs_two_only_from_the_castles_still_in_play():
    state = position(4, {"9f": "dragon", "9e": "andrew"}, taken={"andrew": 1, "david": 2})
    state, _events = forfeit(state)  # St. George leaves with no Knight taken
    assert GAME.result(state) is None
    state, _events = skip(state)  # St. Andrew
    state, _events = skip(state)  # St. David
    state, _events = play(state, "roll", rng=Dice(1))
    after, events = play(state, "9f-9e")
    result = GAME.result(after)
    assert result is not None and result.winners == (3,)
    assert result.text == "The Dragon wins: it took two Knights of every castle in play."
    assert events[-1].data == {"winners": [3], "over": True}


def test_the_dragon_wins_at_once_if_the_castles_left_have_lost_two():
    state = position(4, {"9f": "dragon"}, to_move=2, taken={"george": 2, "andrew": 2})
    after, events = forfeit(state)  # St. David leaves; the other two have each lost two
    assert GAME.result(after).winners == (3,)
    assert GAME.result(after).text == (
        "The Dragon wins: it took two Knights of every castle in play."
    )
    assert GAME.prompts(after) == []
    assert len(events) == 2 and events[-1].data["over"] is True


def test_a_castle_still_in_play_can_win_after_a_departure():
    state = position(5, {"4a": "andrew", "9f": "dragon"}, to_move=0, scored={"andrew": 1})
    state, _events = forfeit(state)  # St. George
    state, _events = skip(state)  # St. Patrick
    state, _events = play(state, "roll", rng=Dice(1))
    after, _events = play(state, "4a-lair")
    assert GAME.result(after).winners == (2,)


def test_the_dragon_wins_when_no_knight_is_left():
    state = new_game(2)
    after, events = forfeit(state)
    assert GAME.result(after).winners == (1,)
    assert GAME.result(after).text == "The Dragon wins: no Knight is left to face it."
    assert list(after.pieces.values()) == ["dragon"]
    assert GAME.view(after, None)["castles_in_play"] == []
    assert GAME.prompts(after) == []
    assert events[-1].data == {"winners": [1], "over": True}

    state = new_game(3)
    state, _events = forfeit(state)
    assert GAME.result(state) is None and state.to_move == 1
    state, _events = forfeit(state)
    assert GAME.result(state).winners == (2,)
    assert state.departed == [0, 1]


# --- the contract ------------------------------------------------------------------------


def test_snapshots_from_before_timeouts_still_load():
    state, _events = play(new_game(5), "roll", rng=Dice(4))
    data = GAME.dump(state)
    old = {k: v for k, v in data.items() if k not in ("departed", "timed_out")}
    loaded = GAME.load(old)
    assert loaded == state
    assert loaded.departed == [] and loaded.timed_out is None


def test_skip_and_forfeit_replay_exactly():
    state = position(4, {"9f": "dragon", "4b": "george"}, to_move=0)
    for hook in ("skip", "forfeit"):
        first, first_events = getattr(GAME, hook)(state, 0, random.Random(1))
        again, again_events = getattr(GAME, hook)(state, 0, random.Random(2))
        assert GAME.dump(first) == GAME.dump(again)
        assert first_events == again_events


def test_rules_help_says_what_a_timeout_does():
    text = GAME.rules_help()
    (section,) = [s for s in text.split("\n## ") if s.startswith("If time runs out")]
    for needle in ("**Skip:**", "**Forfeit, the Dragon:**", "**Forfeit, a Knight player:**"):
        assert needle in section
    assert "win" in section and "removed from the board" in section
    assert len(section) < 1900


# --- random games with timeouts ------------------------------------------------------------


def play_with_timeouts(players: int, seed: int, skips: float, forfeits: float, check: bool):
    """Random games where, now and then, the seat asked is skipped or forfeits instead of
    acting. Returns the final state and the log of (seat, action)."""
    rng = random.Random(seed)
    roles = [role.key for role in GAME.roles(players, {})]
    state = GAME.setup(roles, {}, rng)
    log: list[tuple[int, str]] = []
    for _count in range(MAX_ACTIONS):
        if GAME.result(state) is not None:
            return state, log
        prompts = GAME.prompts(state)
        assert len(prompts) == 1
        seat = prompts[0].seat
        assert seat == state.to_move and prompts[0].kind == state.phase
        assert seat not in state.departed
        assert GAME.legal_actions(state, seat)
        for gone in state.departed:
            assert GAME.legal_actions(state, gone) == []
        draw = rng.random()
        if draw < forfeits:
            action = "!forfeit"
            after, events = GAME.forfeit(state, seat, rng)
            assert seat in after.departed
            if GAME.result(after) is None:
                assert after.to_move != seat and after.phase == "roll"
        elif draw < forfeits + skips:
            action = "!skip"
            after, events = GAME.skip(state, seat, rng)
            assert after.pieces == state.pieces
            if GAME.result(after) is None:
                assert after.phase == "roll" and after.to_move not in after.departed
        else:
            action = rng.choice(GAME.legal_actions(state, seat)).action
            after, events = GAME.apply(state, seat, action, rng)
            if check and action != "roll":
                check_move(state, after, seat)
        assert events and all(event.public and event.text for event in events)
        if check:
            check_invariants(after)
            check_views(after)
            in_play = GAME.view(after, None)["castles_in_play"]
            for gone in after.departed:
                for castle in GAME.view(after, None)["seats"][gone]["castles"]:
                    assert castle not in in_play
        log.append((seat, action))
        state = after
    raise AssertionError(f"game did not end within {MAX_ACTIONS} actions")


def check_ending(state: State) -> None:
    result = GAME.result(state)
    assert result is not None and result.text
    assert GAME.prompts(state) == []
    players = len(state.roles)
    assert all(GAME.legal_actions(state, seat) == [] for seat in range(players))
    dragon = players - 1
    view = GAME.view(state, None)
    knights = [i for i in range(dragon) if i not in state.departed]
    if dragon in state.departed:
        assert result.winners == tuple(knights) and knights
    elif result.winners == (dragon,):
        assert all(state.taken[c] >= 2 for c in view["castles_in_play"])
    elif result.winners:
        (winner,) = result.winners
        assert winner in knights
        assert any(state.scored[c] == 2 for c in view["seats"][winner]["castles"])


@settings(max_examples=15, deadline=None)
@given(
    players=st.sampled_from([2, 3, 4, 5]),
    seed=st.integers(0, 2**32 - 1),
    skips=st.sampled_from([0.0, 0.05, 0.3]),
    forfeits=st.sampled_from([0.0, 0.005, 0.05]),
)
def test_random_games_with_timeouts_end_and_keep_the_rules(players, seed, skips, forfeits):
    state, _log = play_with_timeouts(players, seed, skips, forfeits, check=True)
    check_ending(state)


@settings(max_examples=10, deadline=None)
@given(players=st.sampled_from([2, 3, 4, 5]), seed=st.integers(0, 2**32 - 1))
def test_a_storm_of_forfeits_still_ends_the_game(players, seed):
    state, log = play_with_timeouts(players, seed, 0.2, 0.3, check=True)
    check_ending(state)
    # A seat that forfeited never acts again.
    for gone in state.departed:
        last = max(i for i, (seat, _action) in enumerate(log) if seat == gone)
        assert log[last] == (gone, "!forfeit")
