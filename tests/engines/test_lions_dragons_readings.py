"""Lions and Dragons Chess: hand-counted positions, documented readings, notation, contract."""

from __future__ import annotations

import json
import random

import pytest

from engines.base import BadOptions, IllegalAction, UnreadableAction
from engines.data import reconstructed_notes
from engines.lions_dragons import board, layout
from games import ENGINES

GAME = ENGINES["lions-dragons"]
WHITE, BLACK = 0, 1
FAR = {"a1": "white wizard", "l6": "black wizard"}


def play(state: dict, action: str) -> tuple[dict, list]:
    seat = state["seats"].index(state["to_move"])
    return GAME.apply(state, seat, action, random.Random(0))


def actions(state: dict) -> list[str]:
    seat = state["seats"].index(state["to_move"])
    return [c.action for c in GAME.legal_actions(state, seat)]


# -- Legal-action counts worked out by hand ---------------------------------------------------


def test_count_dragon_in_the_centre():
    """White: Wizard a1, Dragon f6; Black Wizard l6; no Lions, nothing in hand.

    Dragon on f6: 6 side steps + 12 leaps (all within 3 of the centre, so on the board) = 18.
    Wizard on a1 (a corner): side cells a2 b2 b1 (3), corner cells b3 c2 (2) = 5 steps.
    Shots land two cells away along a side direction: a3 (N), c3 (NE), c1 (SE) = 3; the
    other three directions leave the board.  Total 18 + 5 + 3 = 26.
    """
    s = GAME.position({"a1": "white wizard", "f6": "white dragon", "l6": "black wizard"})
    assert len(actions(s)) == 26
    assert len([a for a in actions(s) if a.startswith("f6")]) == 18


def test_count_rocs_corner_and_centre():
    """White: Wizard l1, Rocs a1 and f6; Black Wizard f11.

    Roc on f6: every "5 out, 1 aside" leap ends 6 cells from the centre, off a board of
    radius 5: 0 moves.  Roc on a1 = (q -5, r 5): 5 N then 1 NE -> b7; 5 NE (to the centre)
    then 1 N -> f7 or 1 SE -> g5; 5 SE (to f1) then 1 NE -> g1; all other leaps leave the
    board: 4 moves.  Wizard on l1 mirrors a1: 5 steps + 3 shots = 8.  Total 0 + 4 + 8 = 12.
    """
    s = GAME.position(
        {"l1": "white wizard", "a1": "white roc", "f6": "white roc", "f11": "black wizard"}
    )
    acts = actions(s)
    assert len(acts) == 12
    assert sorted(a for a in acts if a.startswith("a1")) == ["a1-b7", "a1-f7", "a1-g1", "a1-g5"]
    assert not any(a.startswith("f6") for a in acts)


def test_count_opening_position_symmetric_lions():
    """The opening (lions=symmetric, Lions f6 b4 k4 c3 c6 i3 i6), White to move.

    Roc d1 leaps to c6 e7 i4 k2, but c6 is a Lion: 3.  Roc h1 (mirror image) to g7 b2 c4 (i6
    is a Lion): 3.  Wizard f2: of its 12 neighbours e2 g2 hold Proto-Dragons, d1 h1 Rocs and
    two are off the board, leaving f1 f3 e1 e3 g1 g3: 6 steps.  Shots: f4 (N), h2 (NE), d2
    (NW); S, SE, SW leave the board: 3.  Proto-Dragons never move: 0.  Drops: the same 6
    empty neighbours of the Wizard: 6.  Total 3 + 3 + 6 + 3 + 6 = 21.
    """
    s = GAME.setup(["white", "black"], {"lions": "symmetric"}, random.Random(0))
    assert len(actions(s)) == 21
    assert len([a for a in actions(s) if a.startswith("drop")]) == 6


def test_count_dragon_with_ball_captures():
    """White: Wizard a1, Dragon-with-Ball f6, Proto-Dragon g5; Black: Wizard g6, Roc e5;
    a Ball on f7, a Fireball on f5.

    Dragon-with-Ball on f6, side cells only: f7 Ball (capture), g6 Wizard (capture), g5 own
    piece (no), f5 Fireball (nothing enters one), e5 Roc (capture), e6 empty: 4.  Proto-Dragon:
    0.  Wizard a1: 5 steps + 3 shots = 8.  Total 4 + 8 = 12.
    """
    s = GAME.position(
        {
            "a1": "white wizard",
            "f6": "white dragon_ball",
            "f7": "ball",
            "g6": "black wizard",
            "g5": "white proto",
            "f5": "fireball n",
            "e5": "black roc",
        }
    )
    acts = actions(s)
    assert len(acts) == 12
    assert sorted(a for a in acts if a.startswith("f6")) == ["f6-e6", "f6xe5", "f6xf7", "f6xg6"]


def test_count_drops_around_the_wizard():
    """White: Wizard f6, two Proto-Dragons in hand; Black Proto-Dragon f7, a Ball on e5,
    Black Wizard a6.

    Wizard f6 has 12 neighbours (6 side, 6 corner); f7 and e5 are taken and the Wizard never
    captures: 10 steps.  Drops go to the same 10 empty cells: 10.  Shots: all 6 side
    directions land two cells away on the board (the N shot will hit f7 first): 6.
    Total 10 + 10 + 6 = 26.
    """
    s = GAME.position(
        {"f6": "white wizard", "f7": "black proto", "e5": "ball", "a6": "black wizard"},
        reserves=(2, 0),
    )
    acts = actions(s)
    assert len(acts) == 26
    assert len([a for a in acts if a.startswith("drop")]) == 10


def test_count_roc_captures():
    """White: Wizard l1, Roc a1; Black: Proto-Dragon b7, Dragon-with-Ball f7, Dragon g5,
    Roc g1, Wizard f11.

    The Roc on a1 reaches b7 f7 g5 g1 and captures Proto-Dragons, Dragons and Rocs but not a
    Dragon-with-Ball: 3.  Wizard l1: 5 steps + 3 shots = 8.  Total 3 + 8 = 11.
    """
    s = GAME.position(
        {
            "l1": "white wizard",
            "a1": "white roc",
            "b7": "black proto",
            "f7": "black dragon_ball",
            "g5": "black dragon",
            "g1": "black roc",
            "f11": "black wizard",
        }
    )
    acts = actions(s)
    assert len(acts) == 11
    assert sorted(a for a in acts if a.startswith("a1")) == ["a1xb7", "a1xg1", "a1xg5"]


def test_count_boxed_in_wizard_has_nothing():
    """White: Wizard a1 boxed in by its own Proto-Dragons a2 b1 b2 b3 c2; Lions on a3 c3 c1
    (the three landing cells of its shots); nothing in hand.  Steps 0, shots 0, drops 0,
    Proto-Dragons never move: 0 actions.  After Black's move White cannot act and loses.
    """
    s = GAME.position(
        {
            "a1": "white wizard",
            "a2": "white proto",
            "b1": "white proto",
            "b2": "white proto",
            "b3": "white proto",
            "c2": "white proto",
            "l6": "black wizard",
        },
        lions=["a3", "c3", "c1"],
        to_move="black",
    )
    after, events = play(s, "l6-l5")
    assert GAME.legal_actions(after, WHITE) == []
    assert GAME.result(after).winners == (BLACK,)
    assert after["result"]["reason"] == "stuck"
    assert "no legal action" in events[-1].text


# -- Readings of ambiguous sentences -----------------------------------------------------------


def test_straight_direction_means_through_the_sides():
    """Shots go along the 6 side directions only, never along a corner diagonal."""
    s = GAME.position({"f6": "white wizard", "l6": "black wizard"})
    shots = {a.split("-")[1] for a in actions(s) if a.startswith("fire")}
    expected = {board.offset("f6", d, 2) for d in board.EDGE_DIRECTIONS.values()}
    assert shots == expected
    diagonal = board.offset("f6", board.VERTEX_DIRECTIONS["e"], 2)  # k4, two diagonal steps
    with pytest.raises(IllegalAction, match="straight line"):
        play(s, f"fire f6-{diagonal}")


def test_fireball_stops_at_first_thing_on_its_way():
    """Cell by cell: a piece on the adjacent cell is hit; the landing cell is untouched."""
    s = GAME.position(
        {"f6": "white wizard", "l6": "black wizard", "f7": "black roc", "f8": "black dragon"}
    )
    after, _ = play(s, "fire f6-f8")
    assert "f7" not in after["pieces"]
    assert after["pieces"]["f8"] == {"kind": "dragon", "side": "black"}
    assert after["last"]["shot"]["hit"] == "f7"


def test_new_fireball_waits_one_phase():
    """The phase right after a shot leaves the new Fireball where it landed."""
    s = GAME.position({"f2": "white wizard", "l6": "black wizard", "f8": "fireball s"})
    s["pieces"]["f8"]["born"] = -1
    after, _ = play(s, "fire f2-f4")
    assert after["pieces"]["f4"]["kind"] == "fireball"  # not moved on to f6
    flights = after["last"]["fireballs"]
    assert [f["start"] for f in flights] == ["f8"]  # only the older one flew
    assert after["pieces"]["f6"]["kind"] == "fireball"


def test_fireballs_fly_oldest_first():
    """Two Fireballs heading for the same cell: the older one moves first and gets there."""
    base = {"f4": "fireball n", "f8": "fireball s", **FAR}
    for older, survivor in (("f4", "f6"), ("f8", "f6")):
        s = GAME.position(base)
        s["pieces"][older]["born"] = -9
        after, _ = play(s, "a1-a2")
        balls = {c: p["dir"] for c, p in after["pieces"].items() if p["kind"] == "fireball"}
        assert balls == {survivor: s["pieces"][older]["dir"]}
        first, second = after["last"]["fireballs"]
        assert first["start"] == older and second["outcome"] == "stopped"


def test_leapers_jump_over_pieces():
    """The Dragon's leap and the Roc jump like chess knights."""
    walled = {c: "white proto" for c in board.SIDE_NEIGHBOURS["f6"]}
    s = GAME.position({**FAR, "f6": "white dragon", **walled})
    assert len([a for a in actions(s) if a.startswith("f6")]) == 12
    roc = GAME.position({**FAR, "d1": "white roc", "e2": "black roc", "e5": "black dragon"})
    assert "d1-e7" in actions(roc)


def test_nothing_moves_onto_a_fireball():
    """No piece may capture a Fireball, so its cell cannot be entered or dropped on."""
    s = GAME.position(
        {
            "f6": "white wizard",
            "l6": "black wizard",
            "f7": "fireball n",
            "e5": "white dragon",
            "d5": "white dragon_ball",
            "e6": "fireball s",
        },
        reserves=(1, 0),
    )
    acts = actions(s)
    for bad in ("f6-f7", "drop f7", "e5-e6", "d5-e6", "f6-e6"):
        assert bad not in acts


def test_roc_does_not_take_a_dragon_with_ball():
    s = GAME.position({**FAR, "d1": "white roc", "e7": "black dragon_ball"})
    assert "d1xe7" not in actions(s)
    with pytest.raises(IllegalAction, match="can go to"):
        play(s, "d1xe7")


def test_carrier_taking_a_carrier_keeps_one_ball():
    s = GAME.position({**FAR, "f6": "white dragon_ball", "f7": "black dragon_ball"})
    after, _ = play(s, "f6xf7")
    carriers = [p for p in after["pieces"].values() if p["kind"] in ("dragon_ball", "ball")]
    assert carriers == [{"kind": "dragon_ball", "side": "white"}]


def test_taking_a_ball_on_the_opposing_goal_wins():
    s = GAME.position({**FAR, "e8": "white dragon", "f11": "ball"})
    after, _ = play(s, "e8xf11")
    assert GAME.result(after).winners == (WHITE,)


def test_drop_is_a_whole_turn_next_to_the_wizard():
    s = GAME.position({"f6": "white wizard", "l6": "black wizard"}, reserves=(1, 1))
    drops = {a.split()[1] for a in actions(s) if a.startswith("drop")}
    assert drops == set(board.WIZARD_STEPS["f6"])
    after, _ = play(s, "drop h5")  # a corner neighbour
    assert after["pieces"]["h5"] == {"kind": "proto", "side": "white"}
    assert after["reserves"] == {"white": 0, "black": 1} and after["to_move"] == "black"
    back, _ = play(after, "l6-l5")
    assert not any(a.startswith("drop") for a in actions(back))
    with pytest.raises(IllegalAction, match="no Proto-Dragons left"):
        play(back, "drop f7")
    with pytest.raises(IllegalAction, match="next to your Wizard on f6"):
        play(s, "drop a3")


# -- Stalled games ------------------------------------------------------------------------------


def test_threefold_repetition_is_a_draw():
    s = GAME.position(FAR)
    shuffle = ["a1-a2", "l6-l5", "a2-a1", "l5-l6"]
    for ply, action in enumerate(shuffle * 2, start=1):
        assert GAME.result(s) is None, ply
        s, events = play(s, action)
    # The opening position was seen at plies 0, 4 and 8.
    assert s["ply"] == 8
    assert GAME.result(s).winners == () and s["result"]["reason"] == "repetition"
    assert "three times" in events[-1].text


def test_quiet_plies_cap_is_a_draw_and_progress_resets_it():
    s = GAME.position(FAR, options={"cap": "4"}, reserves=(1, 0))
    s, _ = play(s, "a1-a2")
    s, _ = play(s, "l6-l5")
    s, _ = play(s, "drop a3")  # a drop is progress
    assert s["quiet"] == 0
    for action in ["l5-l4", "a2-b2", "l4-l3"]:
        s, _ = play(s, action)
        assert GAME.result(s) is None
    s, _ = play(s, "b2-c2")
    assert s["quiet"] == 4 and GAME.result(s).winners == ()
    assert s["result"]["reason"] == "quiet"


def test_fireball_conversion_is_progress_but_a_miss_is_not():
    s = GAME.position({"f6": "white wizard", "l6": "black wizard", "f7": "white proto"})
    s["quiet"] = 7
    hit, _ = play(s, "fire f6-f8")
    assert hit["quiet"] == 0
    miss, _ = play(s, "fire f6-f4")
    assert miss["quiet"] == 8


# -- Notation and messages -------------------------------------------------------------------


@pytest.mark.parametrize("written", ["f5xf6", "f5-f6", "F5 X F6", "  f5 - f6 ", "f5 f6", "f5:f6"])
def test_capture_notation_variants(written):
    s = GAME.position({**FAR, "f5": "white dragon", "f6": "black roc"})
    after, events = play(s, written)
    assert after["last"]["action"] == "f5xf6"
    assert events[0].data["captured"][0]["kind"] == "roc"


@pytest.mark.parametrize("written", ["drop e3", "DROP  E3", "drop e 3", " drope3 "])
def test_drop_notation_variants(written):
    s = GAME.position({"f2": "white wizard", "l6": "black wizard"}, reserves=(1, 0))
    after, _ = play(s, written)
    assert after["last"]["action"] == "drop e3" and after["last"]["from"] is None


@pytest.mark.parametrize("written", ["fire f2-f4", "FIRE F2 F4", "fire f4", "fire  f2 - f4"])
def test_fire_notation_variants(written):
    s = GAME.position({"f2": "white wizard", "l6": "black wizard"})
    after, _ = play(s, written)
    assert after["last"]["action"] == "fire f2-f4"
    assert after["last"]["from"] == "f2" and after["last"]["to"] == "f4"


def test_friendly_errors():
    s = GAME.position({**FAR, "f5": "white dragon", "f6": "black roc"})
    with pytest.raises(UnreadableAction, match="Write a move as f2-f4"):
        play(s, "move the dragon")
    with pytest.raises(UnreadableAction, match="not a cell"):
        play(s, "f5-j5")
    with pytest.raises(IllegalAction, match="yours are: Wizard a1; Dragon f5"):
        play(s, "c4-c5")
    with pytest.raises(IllegalAction, match="Dragon on f5 can go to"):
        play(s, "f5-f9")
    with pytest.raises(IllegalAction, match="Only your Wizard"):
        play(s, "fire f5-f7")
    with pytest.raises(IllegalAction, match="White's turn"):
        GAME.apply(s, BLACK, "l6-l5", random.Random(0))
    done, _ = play(GAME.position({**FAR, "f10": "white dragon_ball"}), "f10-f11")
    with pytest.raises(IllegalAction, match="game is over"):
        play(done, "a1-a2")


def test_wizard_errors_point_to_its_shots():
    """A refused Wizard move names the shots too: a boxed-in Wizard can still shoot."""
    ring = {c: "white proto" for c in board.WIZARD_STEPS["f6"]}
    boxed = GAME.position({"f6": "white wizard", "l6": "black wizard", **ring})
    with pytest.raises(IllegalAction, match="fire f6-f8") as refused:
        play(boxed, "f6-f8")
    assert "choose another piece" not in str(refused.value)
    free = GAME.position({"f2": "white wizard", "l6": "black wizard"})
    with pytest.raises(IllegalAction, match=r"can go to: .* It can also shoot: fire f2-f4"):
        play(free, "f2-f4")


def test_errors_for_a_lion_say_what_to_do_instead():
    s = GAME.position(
        {"f2": "white wizard", "e2": "white proto", "d5": "white dragon", "l6": "black wizard"},
        lions=["e3", "d6"],
    )
    with pytest.raises(IllegalAction, match="never moves"):
        play(s, "e2-e3")  # the Proto-Dragon is the problem, not the Lion
    with pytest.raises(IllegalAction, match=r"d6 is a non-hex.*Dragon on d5 can go to: e6 "):
        play(s, "d5-d6")


def test_choices_group_by_piece_and_label_captures():
    s = GAME.position({**FAR, "f5": "white dragon", "f6": "black roc"}, reserves=(1, 0))
    choices = GAME.legal_actions(s, WHITE)
    assert GAME.legal_actions(s, BLACK) == []
    for c in choices:
        if c.action.startswith("drop"):
            assert c.group == "drop"
        elif c.action.startswith("fire"):
            assert c.group == "a1"
        else:
            assert c.group == c.action[:2]
    capture = next(c for c in choices if c.action == "f5xf6")
    assert "takes Black Roc" in capture.label


# -- Contract --------------------------------------------------------------------------------


def test_roles_and_options():
    assert [r.key for r in GAME.roles(2, {})] == ["white", "black"]
    for players in (1, 3):
        with pytest.raises(BadOptions):
            GAME.roles(players, {})
    assert GAME.parse_options("") == {"lions": "random", "reserve": 4, "cap": 200}
    assert GAME.normalize_options({}) == {"lions": "random", "reserve": 4, "cap": 200}
    assert GAME.parse_options("Lions=Symmetric reserve=2 cap=50") == {
        "lions": "symmetric",
        "reserve": 2,
        "cap": 50,
    }
    for bad in (
        "lions=none",
        "reserve=-1",
        "reserve=x",
        "cap=1",
        "colour=red",
        "reserve=2 reserve=3",
    ):
        with pytest.raises(BadOptions):
            GAME.parse_options(bad)
    s = GAME.setup(["white", "black"], {"reserve": "2"}, random.Random(0))
    assert s["reserves"] == {"white": 2, "black": 2}


def test_seats_may_be_given_in_either_order():
    s = GAME.setup(["black", "white"], {"lions": "symmetric"}, random.Random(0))
    assert GAME.prompts(s)[0].seat == 1  # White moves first, whichever seat it is
    assert GAME.legal_actions(s, 0) == []
    after, _ = GAME.apply(s, 1, "f2-f3", random.Random(0))
    assert GAME.view(after, None)["seats"] == {"white": 1, "black": 0}


def test_apply_does_not_change_its_input():
    s = GAME.position(
        {"f6": "white wizard", "l6": "black wizard", "f7": "white proto", "d8": "fireball se"}
    )
    before = json.dumps(s, sort_keys=True)
    play(s, "fire f6-f8")
    assert json.dumps(s, sort_keys=True) == before


def test_view_keys_and_last_action():
    s = GAME.setup(["white", "black"], {"lions": "symmetric"}, random.Random(0))
    view = GAME.view(s, None)
    assert set(view) == {
        "game",
        "cells",
        "lions",
        "lions_mode",
        "goals",
        "pieces",
        "reserves",
        "seats",
        "to_move",
        "last",
        "ply",
        "turn",
        "quiet",
        "cap",
        "result",
        "summary",
    }
    assert len(view["cells"]) == 91 and view["cells"][0] == {"name": "a1", "q": -5, "r": 5}
    assert view["last"] is None and view["to_move"] == "white" and view["result"] is None
    assert {"cell": "f2", "kind": "wizard", "side": "white", "dir": None} in view["pieces"]
    s, _ = play(s, "fire f2-d2")
    last = GAME.view(s, None)["last"]
    assert last["seat"] == WHITE and last["action"] == "fire f2-d2"
    assert last["from"] == "f2" and last["to"] == "d2"
    assert last["shot"]["outcome"] == "converted"
    assert last["captured"] == [{"cell": "e2", "kind": "proto", "side": "white"}]
    assert last["fireballs"] == []
    seat_view = GAME.view(s, BLACK)
    assert seat_view.pop("private") == "" and seat_view == GAME.view(s, None)
    json.dumps(seat_view)
    assert "Black to move" in seat_view["summary"]


def test_result_in_view():
    done, _ = play(GAME.position({**FAR, "f10": "white dragon_ball"}), "f10-f11")
    view = GAME.view(done, None)
    assert view["to_move"] is None
    assert view["result"]["winners"] == [WHITE] and view["result"]["winner"] == "white"
    assert view["summary"].startswith("White's Dragon-with-Ball entered the goal")


def test_dump_load_round_trip_mid_game():
    rng = random.Random(3)
    s = GAME.setup(["white", "black"], {}, rng)
    for _ in range(30):
        seat = s["seats"].index(s["to_move"])
        s, _ = GAME.apply(s, seat, rng.choice(GAME.legal_actions(s, seat)).action, rng)
    copy = GAME.load(json.loads(json.dumps(GAME.dump(s))))
    assert copy == s
    assert GAME.view(copy, None) == GAME.view(s, None)
    with pytest.raises(ValueError):
        GAME.load({"pieces": {}})


# -- Data and help ------------------------------------------------------------------------------


def test_setup_data_is_marked_and_consistent():
    data = layout.setup_data()
    assert data["source"]
    for key in ("goals", "pieces", "balls", "reserve", "symmetric_lions", "quiet_ply_cap"):
        assert data["reconstructed"][key], key
    assert layout.lions_valid(data["symmetric_lions"], data)
    assert not layout.lions_valid(["f6"] * 7, data)
    cells = [e["cell"] for side in ("white", "black") for e in data["pieces"][side]]
    assert set(cells) <= set(board.CELLS) and len(set(cells)) == len(cells)


def test_rules_help_lists_readings_and_reconstructions():
    text = GAME.rules_help()
    for line in reconstructed_notes(layout.setup_data()):
        assert line in text
    for phrase in (
        "`f2-f4`",
        "`drop e3`",
        "`fire f2-f4`",
        "Straight direction",
        "no legal action",
        "three times",
        "Roc reach",
    ):
        assert phrase in text
    assert all(len(section) <= 1900 for section in text.split("\n\n"))
