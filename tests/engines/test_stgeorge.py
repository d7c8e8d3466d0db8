"""St. George and the Dragon: one test per rule sentence, plus the host's documented readings."""

from __future__ import annotations

import random
from itertools import pairwise

import pytest

from engines.base import ActionError, BadOptions, IllegalAction
from engines.stgeorge import GAME
from engines.stgeorge import rules as endings
from engines.stgeorge.board import LAIR, build_board, current_board
from engines.stgeorge.moves import destinations
from engines.stgeorge.state import State
from games import ENGINES

BOARD = current_board()


class Dice(random.Random):
    """An rng whose die rolls are given in advance."""

    def __init__(self, *rolls: int) -> None:
        super().__init__(0)
        self.rolls = list(rolls)
        self.asked: list[tuple[int, int]] = []

    def randint(self, a: int, b: int) -> int:
        self.asked.append((a, b))
        return self.rolls.pop(0)


def seats(players: int) -> list[str]:
    return [role.key for role in GAME.roles(players, {})]


def new_game(players: int = 5) -> State:
    return GAME.setup(seats(players), {}, random.Random(0))


def position(
    players: int,
    pieces: dict[str, str],
    to_move: int = 0,
    roll: int | None = None,
    taken: dict[str, int] | None = None,
    scored: dict[str, int] | None = None,
) -> State:
    """A game with these pieces; with ``roll`` the seat ``to_move`` must now move by it.

    Every castle keeps three Knights in all: those not placed, taken or scored wait on the
    castle's own free points, so the position is one a real game can reach.
    """
    state = new_game(players)
    state.pieces = dict(pieces)
    state.to_move = to_move
    if roll is not None:
        state.phase, state.roll, state.roll_seat = "move", roll, to_move
    state.taken.update(taken or {})
    state.scored.update(scored or {})
    for castle in state.taken:
        placed = list(state.pieces.values()).count(castle)
        missing = 3 - placed - state.taken[castle] - state.scored[castle]
        free = [p for p in BOARD.castles[castle].points if p not in state.pieces]
        assert 0 <= missing <= len(free), f"cannot complete {castle} in this position"
        for point in free[:missing]:
            state.pieces[point] = castle
    return state


def placed(state: State) -> dict[str, str]:
    """The pieces that are not on castle points."""
    return {p: o for p, o in state.pieces.items() if BOARD.castle_of_point(p) is None}


def moves(state: State) -> set[str]:
    return {choice.action for choice in GAME.legal_actions(state, state.to_move)}


def play(state: State, action: str, seat: int | None = None, rng: random.Random | None = None):
    seat = state.to_move if seat is None else seat
    return GAME.apply(state, seat, action, rng or random.Random(0))


def ends(state: State, start: str) -> set[str]:
    return set(destinations(BOARD, state.pieces, start, state.roll))


# --- paragraph 1: the board and the start ----------------------------------------------


def test_board_has_fourteen_spokes_of_points():
    """'St. George and the Dragon is played on a round board shaped like a wheel with 14
    spokes, with a pattern of points on those lines starting from its center and radiating
    out to the edge of the board.'"""
    spokes = {point[:-1] for point in BOARD.points if point[:1].isdigit()}
    assert spokes == {str(n) for n in range(1, 15)}
    # A Knight on the rim can walk straight in along its spoke.
    state = position(5, {"3f": "george", "9f": "dragon"}, roll=5)
    assert "3f-3a" in moves(state)


def test_longitudinal_lines_are_followed():
    """'Longitudinal lines are also drawn connecting the points.'"""
    state = position(5, {"3c": "george", "9f": "dragon"}, roll=1)
    assert {m for m in moves(state) if m.startswith("3c")} == {"3c-2c", "3c-4c", "3c-3b", "3c-3d"}


def test_the_lair_is_the_centre():
    """'The central circle is green and is called the Dragon's Lair.'"""
    state = position(5, {"6a": "george", "9f": "dragon"}, roll=1)
    assert "6a-lair" in moves(state)
    labels = {c.action: c.label for c in GAME.legal_actions(state, 0)}
    assert labels["6a-lair"] == "6a → lair (reaches the Lair)"


def test_castles_are_on_the_outer_circle():
    """'At four equidistant locations on the outer circle, an additional three points
    (connected by lines to each other and to three points on the board's outer edge) form
    Knight's Castles, one each named for St. George, St. Patrick, St. Andrew, and St. David.'"""
    state = position(5, {"G1": "george", "lair": "dragon"}, roll=1, taken={"george": 2})
    assert moves(state) == {"G1-G2", "G1-G3", "G1-14f"}
    state = position(5, {"G2": "george", "lair": "dragon"}, roll=1, taken={"george": 2})
    assert moves(state) == {"G2-G1", "G2-G3", "G2-1f"}
    names = [seat["name"] for seat in GAME.view(new_game(5), None)["seats"]]
    assert names[:4] == ["St. George", "St. Patrick", "St. Andrew", "St. David"]


def test_starting_position():
    """'The Dragon's lone piece begins the game on the Dragon's Lair; the Knights' three
    pieces each begin on the points of the Knight's Castle.'"""
    state = new_game(5)
    assert state.pieces == {
        LAIR: "dragon",
        "G1": "george",
        "G2": "george",
        "G3": "george",
        "P1": "patrick",
        "P2": "patrick",
        "P3": "patrick",
        "A1": "andrew",
        "A2": "andrew",
        "A3": "andrew",
        "D1": "david",
        "D2": "david",
        "D3": "david",
    }
    assert list(state.pieces.values()).count("dragon") == 1


# --- paragraph 2: turns and moves ------------------------------------------------------


def test_knights_begin_and_the_dragon_ends_each_round():
    """'Beginning with the Knights and ending with the Dragon, players take turns rolling a
    die and moving according to the results.'"""
    for players in (2, 3, 4, 5):
        assert seats(players)[-1] == "dragon"
        assert "dragon" not in seats(players)[:-1]
    state = new_game(4)
    order = []
    rng = random.Random(7)
    while len(order) < 8:
        prompt = GAME.prompts(state)[0]
        if prompt.kind == "roll":
            order.append(prompt.seat)
        action = GAME.legal_actions(state, prompt.seat)[0].action
        state, _events = GAME.apply(state, prompt.seat, action, rng)
    assert order == [0, 1, 2, 3, 0, 1, 2, 3]
    assert state.turn == 2


def test_a_turn_is_a_roll_then_a_move_by_the_same_seat():
    """'players take turns rolling a die and moving according to the results.'"""
    state = new_game(5)
    assert [(p.seat, p.kind) for p in GAME.prompts(state)] == [(0, "roll")]
    assert [c.action for c in GAME.legal_actions(state, 0)] == ["roll"]
    rng = Dice(4)
    state, events = play(state, "roll", rng=rng)
    assert rng.asked == [(1, 6)]
    assert events[0].data == {"seat": 0, "roll": 4, "passed": False}
    assert events[0].public and "rolled 4" in events[0].text
    assert [(p.seat, p.kind) for p in GAME.prompts(state)] == [(0, "move")]
    assert "4" in GAME.prompts(state)[0].text
    assert {"G1-14c", "G2-1c", "G3-2c"} <= moves(state)
    state, _events = play(state, "G2-1c")
    assert state.pieces["1c"] == "george" and "G2" not in state.pieces
    assert [(p.seat, p.kind) for p in GAME.prompts(state)] == [(1, "roll")]


def test_die_comes_from_the_rng():
    values = set()
    for seed in range(40):
        state, events = play(new_game(5), "roll", rng=random.Random(seed))
        expected = random.Random(seed).randint(1, 6)
        assert state.roll == events[0].data["roll"] == expected
        values.add(expected)
    assert values == {1, 2, 3, 4, 5, 6}


def test_moves_are_exactly_the_roll_in_any_combination_of_directions():
    """'The player will move any one of their pieces the exact number of points rolled on
    the die, in any combination of directions, so long as the lines between points are
    followed and points are not crossed or landed on a second time.'"""
    state = position(5, {"3c": "george", "9f": "dragon"}, roll=2)
    # Two steps: straight on, or turning at the first point; never back to the start.
    assert ends(state, "3c") == {"1c", "5c", "3a", "3e", "2b", "2d", "4b", "4d"}
    state = position(5, {"3c": "george", "9f": "dragon"}, roll=3)
    # A point one step away is reached in exactly three by going round a corner.
    assert {"3d", "2c", "4c", "3b"} <= ends(state, "3c")
    # Four steps round a square would land on the start again: not allowed.
    state = position(5, {"3c": "george", "9f": "dragon"}, roll=4)
    assert "3c" not in ends(state, "3c")
    for roll in range(1, 7):
        state = position(5, {"3c": "george", "9f": "dragon"}, roll=roll)
        for end, path in destinations(BOARD, state.pieces, "3c", roll).items():
            assert len(path) == roll + 1 and path[-1] == end
            assert len(set(path)) == len(path)
            for first, second in pairwise(path):
                assert second in BOARD.neighbours[first]


def test_only_one_piece_moves():
    """'The player will move any one of their pieces'"""
    state = position(5, {"3c": "george", "5c": "george", "9f": "dragon"}, roll=1)
    assert {m.split("-")[0] for m in moves(state)} == {"3c", "5c", "G1"}
    after, _events = play(state, "3c-3d")
    assert placed(after) == {"3d": "george", "5c": "george", "9f": "dragon"}
    assert (
        after.pieces.items() - placed(after).items() == state.pieces.items() - placed(state).items()
    )


def test_pieces_cannot_move_to_or_over_occupied_points():
    """'Pieces cannot move to or jump over occupied points, except when the Dragon captures a
    Knight.'"""
    state = position(5, {"3c": "george", "3d": "andrew", "9f": "dragon"}, roll=1)
    assert "3c-3d" not in moves(state)
    # Over: 3e is two steps out along the spoke, but 3d blocks that line.
    state.roll = 2
    assert "3e" not in ends(state, "3c")
    # A Knight's own companion blocks too.
    state = position(5, {"3c": "george", "3d": "george", "9f": "dragon"}, roll=2)
    assert "3e" not in ends(state, "3c")
    # The Dragon cannot pass over a Knight either.
    state = position(5, {"3c": "george", "3d": "dragon"}, to_move=4, roll=2)
    assert "3b" not in ends(state, "3d")
    assert "3c" not in ends(state, "3d")


def test_the_dragon_captures_by_ending_on_a_knight():
    """'Dragons move in the same fashion as Knights, but when their move ends on an occupied
    point, that Knight is removed from play.'"""
    state = position(5, {"3c": "andrew", "3e": "dragon"}, to_move=4, roll=2)
    assert "3e-3c" in moves(state)
    label = {c.action: c.label for c in GAME.legal_actions(state, 4)}["3e-3c"]
    assert "takes a Knight of St. Andrew" in label
    after, events = play(state, "3e-3c")
    assert placed(after) == {"3c": "dragon"}
    assert list(after.pieces.values()).count("andrew") == 2
    assert after.taken["andrew"] == 1
    assert after.last["captured"] == "andrew"
    assert events[0].data["captured"] == "andrew"
    assert "took a Knight of St. Andrew" in events[0].text
    # Same fashion as Knights: exact roll along the lines, no revisits.
    knight = position(5, {"3e": "george", "9f": "dragon"}, roll=2)
    assert ends(state, "3e") == ends(knight, "3e") | {"3c"}


def test_the_dragon_wins_with_two_of_each_castle():
    """'The Dragon may win the game by taking two of each Knight's pieces.'"""
    taken = {"george": 2, "patrick": 2, "andrew": 2, "david": 1}
    state = position(5, {"3c": "david", "3d": "dragon"}, 4, 1, taken=taken)
    after, events = play(state, "3d-3c")
    assert GAME.result(after).winners == (4,)
    assert "The Dragon wins" in GAME.result(after).text
    assert GAME.prompts(after) == []
    assert events[-1].data == {"winners": [4], "over": True}


def test_two_of_some_castles_is_not_enough_for_the_dragon():
    taken = {"george": 2, "patrick": 2, "andrew": 1, "david": 0}
    state = position(5, {"3c": "david", "3d": "dragon"}, 4, 1, taken=taken)
    after, _events = play(state, "3d-3c")
    assert GAME.result(after) is None
    assert after.taken == {"george": 2, "patrick": 2, "andrew": 1, "david": 1}
    assert GAME.prompts(after)[0].seat == 0


def test_knights_cannot_capture_the_dragon():
    """'Knights may not capture or slay the Dragon, but may win by reaching the Dragon's Lair
    central point with two of their pieces.'"""
    state = position(5, {"3c": "george", "3d": "dragon"}, roll=1)
    assert "3c-3d" not in moves(state)
    with pytest.raises(IllegalAction):
        play(state, "3c-3d")


def test_two_knights_in_the_lair_win():
    """'Knights may not capture or slay the Dragon, but may win by reaching the Dragon's Lair
    central point with two of their pieces.'"""
    state = position(5, {"4a": "andrew", "9f": "dragon"}, to_move=2, roll=1, scored={"andrew": 1})
    after, events = play(state, "4a-lair")
    result = GAME.result(after)
    assert result.winners == (2,)
    assert result.text.startswith("St. Andrew wins")
    assert after.phase == "over" and GAME.prompts(after) == []
    assert events[-1].data["winners"] == [2]


def test_the_first_knight_to_do_so_wins():
    """'The first Knight to do so wins the game.'"""
    state = position(
        5,
        {"4a": "patrick", "5a": "george", "9f": "dragon"},
        to_move=1,
        roll=1,
        scored={"patrick": 1, "george": 1},
    )
    after, _events = play(state, "4a-lair")
    assert GAME.result(after).winners == (1,)
    # Nobody moves after the winner.
    with pytest.raises(IllegalAction, match="over"):
        play(after, "roll", seat=2)
    assert GAME.legal_actions(after, 2) == []


def test_a_knight_may_not_pass_over_the_lair():
    """'A Knight may not pass over the Dragon's Lair as part of a move; they must land there
    only on the end of their move.'"""
    state = position(5, {"3a": "george", "9f": "dragon"}, roll=2)
    assert "10a" not in ends(state, "3a")
    assert "3a-10a" not in moves(state)
    with pytest.raises(IllegalAction, match="cannot end on 10a"):
        play(state, "3a-10a")
    assert all(
        LAIR not in path[1:-1] for path in destinations(BOARD, state.pieces, "3a", 2).values()
    )
    state.roll = 1
    assert LAIR in ends(state, "3a")
    # From two steps out it lands on the Lair with a 2.
    state = position(5, {"3b": "george", "9f": "dragon"}, roll=2)
    assert LAIR in ends(state, "3b")


def test_a_knight_in_the_lair_leaves_play_and_scores_for_its_castle():
    """'Having landed on the board's central point, the Knight is then removed from play and
    set behind his Castle to keep score.'"""
    state = position(3, {"4b": "george", "9f": "dragon"}, roll=2)
    after, events = play(state, "4b-lair")
    assert LAIR not in after.pieces
    assert after.scored == {"george": 1, "patrick": 0, "andrew": 0, "david": 0}
    assert after.last["scored"] is True and after.last["path"] == ["4b", "4a", "lair"]
    assert "reached the Lair" in events[0].text
    view = GAME.view(after, None)
    assert view["scored"]["george"] == 1
    assert all(piece["point"] != LAIR for piece in view["pieces"])


# --- paragraph 3: players ---------------------------------------------------------------


def test_two_to_five_players():
    """'The game can be played by two, three, four, or five players.'"""
    assert (GAME.min_players, GAME.max_players) == (2, 5)
    for players in (2, 3, 4, 5):
        assert len(GAME.roles(players, {})) == players
    for players in (0, 1, 6):
        with pytest.raises(BadOptions, match="2 to 5"):
            GAME.roles(players, {})


def test_five_players():
    """'For five players, one each plays a Knight and one the Dragon.'"""
    roles = GAME.roles(5, {})
    assert [r.key for r in roles] == ["george", "patrick", "andrew", "david", "dragon"]
    assert [r.name for r in roles] == [
        "St. George",
        "St. Patrick",
        "St. Andrew",
        "St. David",
        "The Dragon",
    ]
    view = GAME.view(new_game(5), None)
    assert [s["castles"] for s in view["seats"]] == [
        ["george"],
        ["patrick"],
        ["andrew"],
        ["david"],
        [],
    ]


def test_four_players_leave_out_st_patrick():
    """'For four players the game is the same but St. Patrick's Knights are not used.'"""
    assert seats(4) == ["george", "andrew", "david", "dragon"]
    state = new_game(4)
    assert "patrick" not in state.pieces.values()
    assert not {"P1", "P2", "P3"} & set(state.pieces)
    view = GAME.view(state, None)
    assert view["castles_in_play"] == ["george", "andrew", "david"]
    assert set(view["taken"]) == {"george", "andrew", "david"}
    # Three castles are then enough for the Dragon.
    taken = {"george": 2, "andrew": 2, "david": 1}
    state = position(4, {"3c": "david", "3d": "dragon", "9a": "george"}, 3, 1, taken=taken)
    after, _events = play(state, "3d-3c")
    assert GAME.result(after).winners == (3,)


def test_castle_points_are_open_to_every_piece_even_unused_ones():
    """Reading: castle points are ordinary points; with four players St. Patrick's empty
    castle stays on the board and any piece may move through it (said in the rules help)."""
    state = position(4, {"4f": "george", "9f": "dragon"}, roll=2)
    assert {"4f-P2", "4f-P3"} <= moves(state)
    # Another castle's gate, once its Knights have left it.
    state = position(5, {"1f": "andrew", "lair": "dragon"}, to_move=2, roll=1, taken={"george": 2})
    assert state.pieces["G1"] == "george" and "G2" not in state.pieces
    assert "1f-G2" in moves(state)
    assert "any castle's points" in GAME.rules_help()


def test_three_players_hold_two_castles_each():
    """'For three players, one player takes the Knights of St. Andrew and St. George, one
    player takes St. David and St. Patrick, and one the Dragon.'"""
    roles = GAME.roles(3, {})
    assert [r.key for r in roles] == ["andrew-george", "david-patrick", "dragon"]
    assert [r.name for r in roles] == [
        "St. Andrew & St. George",
        "St. David & St. Patrick",
        "The Dragon",
    ]
    state = position(3, {"3c": "george", "9c": "andrew", "5c": "patrick", "9f": "dragon"}, roll=1)
    starts = {m.split("-")[0] for m in moves(state)}
    assert starts == {"3c", "9c", "G1", "G2", "A1", "A2"}
    with pytest.raises(IllegalAction, match="not one of your pieces"):
        play(state, "5c-5d")


def test_a_player_with_two_castles_does_not_add_them_up():
    """Reading: 'The first Knight to do so' is a castle; two castles of one player do not add."""
    state = position(
        3,
        {"4a": "george", "9f": "dragon"},
        roll=1,
        scored={"andrew": 1},
    )
    after, _events = play(state, "4a-lair")
    assert GAME.result(after) is None
    assert after.scored["andrew"] == after.scored["george"] == 1
    state = position(3, {"4a": "george", "9f": "dragon"}, roll=1, scored={"george": 1})
    after, _events = play(state, "4a-lair")
    assert GAME.result(after).winners == (0,)
    assert GAME.result(after).text.startswith("St. Andrew & St. George win")


def test_two_players():
    """'For two players, one will play all four Knights and the other the Dragon.'"""
    roles = GAME.roles(2, {})
    assert [(r.key, r.name) for r in roles] == [
        ("knights", "All four Knights"),
        ("dragon", "The Dragon"),
    ]
    state = new_game(2)
    state, _events = play(state, "roll", rng=Dice(1))
    starts = {m.split("-")[0] for m in moves(state)}
    assert starts == {"G1", "G2", "G3", "P1", "P2", "P3", "A1", "A2", "A3", "D1", "D2", "D3"}


def test_title():
    """'St. George and the Dragon takes its inspiration from the old tale of the same name.'"""
    assert ENGINES["stgeorge"] is GAME
    assert GAME.title == "St. George and the Dragon"
    assert GAME.slug == "stgeorge"


# --- readings and host rules ------------------------------------------------------------


def test_no_legal_move_passes_the_turn():
    """Reading: a roll with no legal move passes the turn automatically, said in public."""
    # St. David's only Knight is boxed in on the rim: 12f's neighbours are all occupied.
    pieces = {"12f": "david", "11f": "george", "13f": "george", "12e": "andrew", "D2": "andrew"}
    state = position(5, {**pieces, "lair": "dragon"}, to_move=3)
    after, events = play(state, "roll", rng=Dice(5))
    assert after.to_move == 4 and after.phase == "roll"
    assert after.passed and after.roll == 5 and after.roll_seat == 3
    assert len(events) == 1 and events[0].public
    assert events[0].text == "St. David rolled 5 and has no legal move: turn passes."
    assert events[0].data == {"seat": 3, "roll": 5, "passed": True}
    assert "no legal move" in GAME.view(after, None)["summary"]
    assert after.pieces == state.pieces


def test_a_seat_without_pieces_passes():
    state = position(5, {"lair": "dragon"}, to_move=1, taken={"patrick": 2}, scored={"patrick": 1})
    after, events = play(state, "roll", rng=Dice(3))
    assert after.to_move == 2 and "no legal move" in events[0].text


def test_a_knight_cannot_land_on_the_lair_while_the_dragon_is_there():
    state = position(5, {"4a": "george", LAIR: "dragon"}, roll=1)
    assert "4a-lair" not in moves(state)


def test_the_dragon_may_pass_through_the_empty_lair():
    state = position(5, {"3a": "dragon"}, to_move=4, roll=2)
    assert {f"{spoke}a" for spoke in range(1, 15)} - {"3a", "2a", "4a"} <= ends(state, "3a")
    assert destinations(BOARD, state.pieces, "3a", 2)["10a"] == ("3a", LAIR, "10a")


def test_two_paths_to_one_point_are_one_move_with_a_fixed_path():
    state = position(5, {"3c": "george", "9f": "dragon"}, roll=2)
    actions = [c.action for c in GAME.legal_actions(state, 0)]
    assert len(actions) == len(set(actions))
    # 3c to 2b: via 2c or via 3b; one move, and the same path every time.
    assert actions.count("3c-2b") == 1
    first = destinations(BOARD, state.pieces, "3c", 2)["2b"]
    assert destinations(BOARD, dict(reversed(state.pieces.items())), "3c", 2)["2b"] == first
    after, events = play(state, "3c-2b")
    assert tuple(after.last["path"]) == first
    assert events[0].data["path"] == list(first)


def test_the_turn_counter_counts_rounds():
    state = position(2, {"3c": "george", "9f": "dragon"})
    assert state.turn == 1
    state, _events = play(state, "roll", rng=Dice(1))
    state, _events = play(state, "3c-3d")
    assert state.turn == 1 and state.to_move == 1
    state, _events = play(state, "roll", rng=Dice(1))
    state, _events = play(state, "9f-9e")
    assert state.turn == 2 and state.to_move == 0


def test_nobody_can_win_is_a_draw():
    """Reading: when neither the Dragon nor any castle can still win, the game is drawn."""
    castles = ["george", "andrew"]
    # George: one taken, one scored, one on the board. Andrew: two taken, one scored.
    pieces = {"3c": "george", "9f": "dragon"}
    taken = {"george": 1, "andrew": 2}
    scored = {"george": 1, "andrew": 1}
    assert endings.dragon_can_still_win(pieces, taken, castles)  # George's last may fall
    assert endings.castle_can_still_win(pieces, scored, "george")  # or reach the Lair
    assert not endings.castle_can_still_win(pieces, scored, "andrew")
    assert not endings.nobody_can_win(pieces, taken, scored, castles)
    # Without George's last Knight (counts as if it vanished) neither side can make two.
    assert not endings.dragon_can_still_win({"9f": "dragon"}, taken, castles)
    assert not endings.castle_can_still_win({"9f": "dragon"}, scored, "george")
    assert endings.nobody_can_win({"9f": "dragon"}, taken, scored, castles)
    # The Dragon alone out of reach is not yet a draw while a castle can still win.
    assert not endings.nobody_can_win({"3c": "george", "4c": "george"}, taken, scored, castles)


def test_a_blocked_board_is_a_draw():
    """Reading: a draw when no seat has a legal move for any roll."""
    tiny = {
        "points": {"x": [1, 1], "y": [2, 1], "z": [3, 1]},
        "lines": [["x", "y"], ["y", "z"]],
        "castles": {},
        "castle_order": [],
        "spokes": 3,
        "rings": ["a"],
        "knights_per_castle": 3,
    }
    board = build_board(tiny)
    assert endings.board_blocked(board, {"x": "george", "y": "andrew", "z": "george"})
    assert not endings.board_blocked(board, {"x": "george", "y": "andrew"})
    # The Dragon can always take a neighbouring Knight, so it is never blocked.
    assert not endings.board_blocked(board, {"x": "dragon", "y": "andrew", "z": "george"})
    # On the real board the Dragon always has a move, so this draw needs a corrected board.
    assert not endings.board_blocked(BOARD, {LAIR: "dragon"})


def test_rule_constants():
    """'taking two of each Knight's pieces' / 'with two of their pieces' / a die."""
    assert endings.PIECES_TO_WIN == 2
    assert endings.DIE_SIDES == 6


# --- the contract -----------------------------------------------------------------------


def test_options_are_rejected():
    assert GAME.parse_options("") == {}
    assert GAME.normalize_options({}) == {}
    with pytest.raises(BadOptions, match="no options"):
        GAME.parse_options("variant=x")
    with pytest.raises(BadOptions, match="no options"):
        GAME.normalize_options({"variant": "x"})
    with pytest.raises(BadOptions, match="no options"):
        GAME.roles(5, {"variant": "x"})
    with pytest.raises(BadOptions):
        GAME.setup(["dragon", "knights"], {}, random.Random(0))
    with pytest.raises(BadOptions):
        GAME.setup(seats(5), {"x": 1}, random.Random(0))


def test_out_of_turn_and_wrong_phase_are_refused_politely():
    state = new_game(5)
    with pytest.raises(IllegalAction, match=r"not your turn: St\. George is to roll"):
        play(state, "roll", seat=4)
    with pytest.raises(IllegalAction, match="Roll the die first"):
        play(state, "G2-1f")
    state, _events = play(state, "roll", rng=Dice(3))
    with pytest.raises(IllegalAction, match="already rolled 3"):
        play(state, "roll")
    assert GAME.legal_actions(state, 1) == []


@pytest.mark.parametrize("action", ["g2-1d", " G2 - 1D ", "G2–1d", "g2 -1 d", "G2 → 1d"])
def test_move_notation_is_tolerant(action):
    state, _events = play(new_game(5), "roll", rng=Dice(3))
    after, _events = play(state, action)
    assert after.pieces["1d"] == "george"


def test_lair_may_be_written_l():
    state = position(5, {"4a": "george", "9f": "dragon"}, roll=1)
    after, _events = play(state, "4A-L")
    assert after.scored["george"] == 1


@pytest.mark.parametrize(
    ("action", "message"),
    [
        ("G2", "Write a move as `from-to`"),
        ("G2-1f-1e", "Write a move as `from-to`"),
        ("Z9-1f", "is not a point"),
        ("3c-1f", "There is no piece on 3c; your Knights are on G1, G2, G3"),
        ("A2-8f", "A2 is not one of your pieces; your Knights are on G1, G2, G3"),
        ("G2-1e", "cannot end on 1e with a roll of 3"),
        ("G2-G1", "cannot end on G1"),
    ],
)
def test_illegal_moves_say_what_to_do(action, message):
    state, _events = play(new_game(5), "roll", rng=Dice(3))
    before = GAME.dump(state)
    with pytest.raises(ActionError, match=message):
        play(state, action)
    assert GAME.dump(state) == before


def test_the_dragon_is_told_where_it_is():
    state = position(5, {"3c": "george", "lair": "dragon"}, to_move=4, roll=2)
    with pytest.raises(IllegalAction, match="3c is not one of your pieces; the Dragon is on lair"):
        play(state, "3c-3e")


def test_a_piece_that_cannot_move_the_roll_names_those_that_can():
    state = position(5, {"1f": "andrew", "lair": "dragon"}, roll=1)
    with pytest.raises(
        IllegalAction, match=r"G2 cannot move exactly 1 point\. Pieces that can: G1, G3\."
    ):
        play(state, "G2-1f")


@pytest.mark.parametrize(
    ("pieces", "action", "mover", "message"),
    [
        # Onto a Knight: the refusal names the occupied point, not only "over".
        ({"3c": "george", "3d": "andrew", "9f": "dragon"}, "3c-3d", 0, "3d is occupied"),
        # Onto the Dragon in its Lair.
        ({"4a": "george", LAIR: "dragon"}, "4a-lair", 0, "The Dragon is on lair"),
        # Over the empty Lair: the Knight is told that the Lair cannot be passed.
        ({"3a": "george", "9f": "dragon"}, "3a-10a", 0, "never over the Lair"),
        # The Dragon is told it may end on a Knight, and never that it may not.
        ({"3c": "george", "3d": "dragon"}, "3d-3b", 4, "may end on a Knight"),
    ],
)
def test_a_refused_destination_says_why(pieces, action, mover, message):
    roll = {"3c-3d": 1, "4a-lair": 1, "3a-10a": 2, "3d-3b": 2}[action]
    state = position(5, pieces, to_move=mover, roll=roll)
    with pytest.raises(IllegalAction, match=message) as refused:
        play(state, action)
    assert "It can reach:" in str(refused.value)
    if mover == 4:
        assert "onto or over" not in str(refused.value)


def test_legal_actions_are_grouped_by_piece():
    state, _events = play(new_game(2), "roll", rng=Dice(6))
    choices = GAME.legal_actions(state, 0)
    assert len(choices) > 25
    assert all(choice.group == choice.action.split("-")[0] for choice in choices)
    assert all("→" in choice.label for choice in choices)


def test_apply_does_not_touch_its_input():
    state = new_game(5)
    before = GAME.dump(state)
    rolled, _events = play(state, "roll", rng=Dice(3))
    assert GAME.dump(state) == before
    mid = GAME.dump(rolled)
    play(rolled, "G2-1d")
    assert GAME.dump(rolled) == mid


def test_events_share_nothing_with_the_new_state():
    state = position(5, {"4b": "george", "9f": "dragon"}, roll=2)
    after, events = play(state, "4b-lair")
    events[0].data["path"].append("9f")
    assert after.last["path"] == ["4b", "4a", "lair"]


def test_dump_and_load_round_trip():
    import json

    state, _events = play(new_game(3), "roll", rng=Dice(2))
    state, _events = play(state, GAME.legal_actions(state, 0)[0].action)
    data = GAME.dump(state)
    again = GAME.load(json.loads(json.dumps(data)))
    assert again == state
    assert GAME.dump(again) == data
    with pytest.raises(ValueError, match="format"):
        GAME.load({**data, "format": 99})


def test_views_hold_no_secrets_and_say_whose_turn():
    import json

    state = new_game(5)
    public = GAME.view(state, None)
    assert json.loads(json.dumps(public)) == public
    assert set(public) == {
        "pieces",
        "taken",
        "scored",
        "castles_in_play",
        "seats",
        "to_move",
        "phase",
        "roll",
        "roll_seat",
        "passed",
        "last",
        "turn",
        "result",
        "winners",
        "summary",
    }
    assert "private" not in public
    for seat in range(5):
        assert GAME.view(state, seat) == {**public, "private": ""}
    assert public["summary"] == "Turn 1: St. George to roll."
    assert public["to_move"] == 0 and public["phase"] == "roll" and public["roll"] is None
    assert {"point": LAIR, "owner": "dragon"} in public["pieces"]
    state, _events = play(state, "roll", rng=Dice(3))
    state, _events = play(state, "G2-1d")
    view = GAME.view(state, None)
    assert view["last"] == {
        "seat": 0,
        "owner": "george",
        "from": "G2",
        "to": "1d",
        "path": ["G2", "1f", "1e", "1d"],
        "captured": None,
        "scored": False,
        "roll": 3,
    }
    assert view["summary"] == (
        "Turn 1: St. Patrick to roll. Last: St. George rolled 3 and moved G2-1d."
    )


def test_finished_view():
    state = position(5, {"4a": "andrew", "9f": "dragon"}, to_move=2, roll=1, scored={"andrew": 1})
    after, _events = play(state, "4a-lair")
    view = GAME.view(after, None)
    assert view["to_move"] is None and view["phase"] == "over"
    assert view["winners"] == [2]
    assert view["result"] == GAME.result(after).text
    assert view["summary"].startswith("Game over")


def test_rules_help():
    text = GAME.rules_help()
    for needle in ("`roll`", "`G2-1d`", "`lair`", "ring letter", "Reconstructed board"):
        assert needle in text
    for note in ("rings:", "castles.spoke:", "lines:"):
        assert note in text
    sections = text.split("\n## ")
    assert len(sections) >= 5
    assert all(len(section) < 1900 for section in sections)
