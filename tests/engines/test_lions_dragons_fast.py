"""Lions and Dragons Chess: the fast model (``engines.lions_dragons.fast``) plays by the
engine's rules, action for action and position for position."""

from __future__ import annotations

import random

from engines.lions_dragons import fast
from engines.lions_dragons.pieces import CAPTURES, KINDS, can_capture, piece
from games import ENGINES

GAME = ENGINES["lions-dragons"]


def new_game(seed: int, **options: str) -> dict:
    return GAME.setup(["white", "black"], GAME.normalize_options(options), random.Random(seed))


def seat_to_move(state: dict) -> int:
    return GAME.prompts(state)[0].seat


def legal(state: dict) -> list[str]:
    return [c.action for c in GAME.legal_actions(state, seat_to_move(state))]


def after(state: dict, action: str) -> dict:
    return GAME.apply(state, seat_to_move(state), action, random.Random(0))[0]


def random_games(seeds, max_ply: int = 250, **options: str):
    """``(state, actions, action, new)`` for every ply of random games."""
    for seed in seeds:
        rng = random.Random(seed)
        state = new_game(seed, **options)
        while GAME.result(state) is None and state["ply"] < max_ply:
            actions = legal(state)
            action = rng.choice(sorted(actions))
            new = after(state, action)
            yield state, actions, action, new
            state = new


def test_same_legal_actions_and_positions_as_the_engine():
    """Same legal actions (in the engine's order), same position after each (pieces,
    Fireballs with their age and direction, hands, ply), same wins on the spot."""
    plies = wins = 0
    for state, actions, action, new in random_games(range(100, 106)):
        pos, tables = fast.from_state(state)
        assert fast.generate(pos, tables) == [fast.parse_action(a) for a in actions]
        mine = fast.play(pos, fast.parse_action(action), tables)
        theirs, _ = fast.from_state(new)
        assert (mine.cells, mine.fires, mine.reserves, mine.ply) == (
            theirs.cells,
            theirs.fires,
            theirs.reserves,
            theirs.ply,
        )
        won = new["result"] is not None and new["result"]["reason"] in ("wizard", "goal")
        if won:
            wins += 1
            assert mine.winner == ("white", "black").index(new["result"]["winner"])
        else:
            assert mine.winner is None
            assert mine.side == theirs.side
        plies += 1
    assert plies > 600
    assert wins > 0


def test_same_with_small_hands_and_symmetric_lions():
    plies = 0
    for state, actions, action, new in random_games(range(7), max_ply=120, lions="symmetric",
                                                    reserve="1"):  # fmt: skip
        pos, tables = fast.from_state(state)
        assert fast.generate(pos, tables) == [fast.parse_action(a) for a in actions]
        mine = fast.play(pos, fast.parse_action(action), tables)
        theirs, _ = fast.from_state(new)
        assert (mine.cells, mine.fires, mine.reserves) == (
            theirs.cells,
            theirs.fires,
            theirs.reserves,
        )
        plies += 1
    assert plies > 300


def test_captures_are_the_captures_and_goal_steps_among_the_legal_actions():
    checked = 0
    for state, _actions, _action, _new in random_games(range(200, 203), max_ply=150):
        pos, tables = fast.from_state(state)
        goal = tables.goal[pos.side]
        expected = [
            m
            for m in fast.generate(pos, tables)
            if m[0] == fast.STEP
            and (pos.cells[m[2]] or (pos.cells[m[1]] & 7 == fast.DWB and m[2] == goal))
        ]
        assert fast.captures(pos, tables) == expected
        checked += 1
    assert checked > 200


def test_surely_movable_never_says_yes_without_a_legal_action():
    for state, actions, _action, _new in random_games(range(300, 303), max_ply=150):
        pos, tables = fast.from_state(state)
        if fast.surely_movable(pos, tables):
            assert actions


def test_capture_table_is_the_engines():
    """``TAKES``/``TAKES_BALL`` say what ``pieces.can_capture`` says, for every pair."""
    for mover_kind in CAPTURES:
        mover = piece(mover_kind, "white")
        for kind in KINDS:
            target = piece(kind, "black")
            code = fast.KIND_CODE[mover_kind]
            if kind == "ball":
                mine = code in fast.TAKES_BALL
            elif kind == "fireball":
                mine = False
            else:
                mine = fast.KIND_CODE[kind] in fast.TAKES.get(code, ())
            assert mine == can_capture(mover, target), (mover_kind, kind)
            assert not can_capture(mover, piece(kind, "white")) or kind == "ball"
