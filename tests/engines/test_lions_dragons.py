"""Lions and Dragons Chess: one test per sentence of the rule text (quoted in each docstring)."""

from __future__ import annotations

import random

import pytest

from engines.base import IllegalAction
from engines.lions_dragons import board, layout
from games import ENGINES

GAME = ENGINES["lions-dragons"]


def typed(options: dict) -> str:
    """Options as a player types them: ``reserve=2 cap=50``."""
    return " ".join(f"{key}={value}" for key, value in options.items())


WHITE, BLACK = 0, 1


def new_game(seed: int = 1, **options: str) -> dict:
    return GAME.setup(["white", "black"], GAME.parse_options(typed(options)), random.Random(seed))


def play(state: dict, action: str) -> tuple[dict, list]:
    seat = state["seats"].index(state["to_move"])
    return GAME.apply(state, seat, action, random.Random(0))


def actions(state: dict) -> set[str]:
    seat = state["seats"].index(state["to_move"])
    return {c.action for c in GAME.legal_actions(state, seat)}


def targets(state: dict, origin: str) -> set[str]:
    """Destinations of the piece on ``origin`` among the legal actions."""
    return {a[3:] for a in actions(state) if a[:2] == origin and a[2] in "-x"} | {
        a[4:] for a in actions(state) if a[:3] == origin and a[3] in "-x"
    }


def at(state: dict, cell: str) -> tuple | None:
    p = state["pieces"].get(cell)
    return None if p is None else (p["kind"], p["side"])


# The two Wizards are placed far from the action unless a test needs them.
FAR = {"a1": "white wizard", "l6": "black wizard"}


# -- Introduction -------------------------------------------------------------------------


@pytest.mark.parametrize("lions", ["random", "symmetric"])
def test_board_has_84_hexes(lions):
    """ "Lions and Dragons Chess is a kind of "game within a game" played on an 84-hex board."
    and "This game is played on an 84-hex board." """
    state = new_game(lions=lions)
    playable = [c for c in board.CELLS if c not in state["lions"]]
    assert len(board.CELLS) == 91
    assert len(playable) == 84


def test_goals_are_in_the_opponents_end():
    """ "It represents a "ball game" where two Wizards are trying to get a Ball into a goal in
    their opponent's end of the field." """
    state = new_game()
    white_goal, black_goal = state["goals"]["white"], state["goals"]["black"]
    # White's own end is the bottom (low ranks): its goal is there, Black's at the top.
    assert int(white_goal[1:]) == 1 and black_goal == board.mirror(white_goal)
    s = GAME.position({**FAR, "f10": "white dragon_ball"})
    after, _ = play(s, f"f10-{black_goal}")
    assert GAME.result(after).winners == (WHITE,)


def test_wizards_conjure_dragons_to_carry_the_ball():
    """ "Instead of carrying the Ball themselves, however, the conjure Dragons to do so." """
    s = GAME.position({**FAR, "f6": "white wizard", "f7": "ball", "e6": "white dragon"})
    s["pieces"].pop("a1")
    assert "f7" not in targets(s, "f6")
    assert "f7" in targets(s, "e6")


def test_lions_are_randomly_selected():
    """ "The Lions actually represent randomly selected non-spaces in the hex board." """
    picks = {tuple(new_game(seed)["lions"]) for seed in range(12)}
    assert len(picks) > 6
    assert new_game(5)["lions"] == new_game(5)["lions"]  # the same seed replays


# -- Setup ----------------------------------------------------------------------------------


def test_goals_are_shown_highlighted():
    """ "The highlighted hexes are the goals." """
    view = GAME.view(new_game(), None)
    assert view["goals"] == {"white": "f1", "black": "f11"}


@pytest.mark.parametrize("seed", range(10))
def test_seven_random_non_hexes(seed):
    """ "The 7 red lion images are randomly selected "non-hexes" to reduce the board to 84
    hexes, to comply with contest requirements." """
    state = new_game(seed)
    lions = state["lions"]
    assert len(set(lions)) == 7
    assert not set(lions) & set(state["pieces"])
    assert not set(lions) & set(state["goals"].values())
    assert board.connected(c for c in board.CELLS if c not in lions)
    assert state["setup"]["chosen"] == lions  # the chance outcome is recorded


def test_regular_arrangement_is_allowed():
    """ "Any randomly selected arrangement can be used, or, if preferred, some agreeable regular
    arrangement is also acceptable." """
    state = new_game(lions="symmetric")
    lions = set(state["lions"])
    assert lions == set(layout.setup_data()["symmetric_lions"])
    assert {board.point_reflection(c) for c in lions} == lions
    assert {board.mirror(c) for c in lions} == lions
    assert layout.lions_valid(sorted(lions), layout.setup_data())
    assert new_game(3, lions="symmetric")["lions"] == new_game(4, lions="symmetric")["lions"]


def test_non_hex_may_not_be_entered():
    """ "A non-hex is not part of the board and may not be entered by either player." """
    # f7 (a Wizard step, a Dragon step, a drop cell) and e8 (a Dragon leap) are non-hexes.
    s = GAME.position(
        {"f6": "white wizard", "e5": "white dragon", "l6": "black wizard"},
        lions=["f7", "f8", "e8"],
        reserves=(1, 0),
    )
    acts = actions(s)
    assert "f6-f7" not in acts and "drop f7" not in acts
    assert "f6-g6" in acts and "drop g6" in acts
    assert "e5-e8" not in targets(s, "e5") and "e5-f7" not in acts
    with pytest.raises(IllegalAction, match="non-hex"):
        play(s, "f6-f7")
    roc = GAME.position({**FAR, "d1": "white roc"}, lions=["e7"])
    assert "e7" not in targets(roc, "d1")
    assert "e7" in targets(GAME.position({**FAR, "d1": "white roc"}), "d1")


# -- Wizard ---------------------------------------------------------------------------------


def test_wizard_steps_to_twelve_cells():
    """ "The Wizard may move one hex towards any of the six adjacent along the sides or any of
    the six hexes adjacent along the edges." """
    s = GAME.position({"f6": "white wizard", "l6": "black wizard"})
    steps = targets(s, "f6")
    assert steps == {
        "f7",
        "g6",
        "g5",
        "f5",
        "e5",
        "e6",  # sharing a side
        "g7",
        "h5",
        "g4",
        "e4",
        "d5",
        "e7",
    }  # across a corner
    after, _ = play(s, "f6-h5")
    assert at(after, "h5") == ("wizard", "white") and at(after, "f6") is None


def test_wizard_never_captures():
    """ "The Wizard may not capture any piece." """
    s = GAME.position(
        {
            "f6": "white wizard",
            "f7": "black dragon",
            "g6": "black roc",
            "g5": "black proto",
            "f5": "black dragon_ball",
            "e5": "ball",
            "e6": "black wizard",
        }
    )
    assert targets(s, "f6") == {"g7", "h5", "g4", "e4", "d5", "e7"}
    with pytest.raises(IllegalAction):
        play(s, "f6xf7")


def test_wizard_shoots_without_moving():
    """ "A Wizard may also shoot a Fireball. If it does so, the Wizard does not move, but a
    Fireball is created and moved two hexes in any straight direction." """
    s = GAME.position({"f6": "white wizard", "l6": "black wizard"})
    shots = {a for a in actions(s) if a.startswith("fire")}
    assert shots == {f"fire f6-{c}" for c in ("f8", "h6", "h4", "f4", "d4", "d6")}
    after, _ = play(s, "fire f6-h6")
    assert at(after, "f6") == ("wizard", "white")
    assert after["pieces"]["h6"] == {"kind": "fireball", "side": None, "dir": "ne", "born": 0}


def test_fireball_not_shot_at_adjacent_hex():
    """ "A Fireball cannot be shot at an adjacent hex." """
    s = GAME.position({"f6": "white wizard", "l6": "black wizard"})
    for neighbour in board.SIDE_NEIGHBOURS["f6"] + board.CORNER_NEIGHBOURS["f6"]:
        with pytest.raises(IllegalAction, match="two cells"):
            play(s, f"fire f6-{neighbour}")
    assert all(
        board.distance("f6", a.split("-")[1]) == 2 for a in actions(s) if a.startswith("fire")
    )


def test_capturing_the_wizard_wins():
    """ "The player that captures the opponent's Wizard wins the game." """
    s = GAME.position(
        {"a1": "white wizard", "f6": "black dragon_ball", "f7": "white wizard"}, to_move="black"
    )
    s["pieces"].pop("a1")
    after, events = play(s, "f6xf7")
    assert GAME.result(after).winners == (BLACK,)
    assert after["result"]["reason"] == "wizard"
    assert GAME.prompts(after) == [] and GAME.legal_actions(after, WHITE) == []
    assert "Wizard" in events[-1].text


# -- Ball -----------------------------------------------------------------------------------


def test_ball_is_neutral():
    """ "The Ball is neutral. It does not belong to either player." """
    s = new_game()
    balls = [p for p in s["pieces"].values() if p["kind"] == "ball"]
    assert balls and all(p["side"] is None for p in balls)
    view = GAME.view(s, None)
    assert all(p["side"] is None for p in view["pieces"] if p["kind"] == "ball")


def test_ball_never_moves():
    """ "It does not move and may not be moved by either player on its own." """
    s = GAME.position({**FAR, "f6": "ball"})
    assert not any(a.startswith("f6") for a in actions(s))
    with pytest.raises(IllegalAction, match="not one of your pieces"):
        play(s, "f6-f7")


def test_dragon_capturing_ball_becomes_dragon_with_ball():
    """ "However, it may be captured by a Dragon. When it is captured, the Dragon becomes a
    Dragon-with-Ball." """
    s = GAME.position({**FAR, "f5": "white dragon", "f6": "ball"})
    assert "f5xf6" in actions(s)
    after, _ = play(s, "f5xf6")
    assert at(after, "f6") == ("dragon_ball", "white")
    assert after["last"]["captured"] == [{"cell": "f6", "kind": "ball", "side": None}]


def test_ball_carrier_in_opposing_goal_wins():
    """ "If the Dragon-with-Ball enters the opposing player's goal hex, that player wins the
    game." """
    s = GAME.position({**FAR, "f2": "black dragon_ball"}, to_move="black")
    after, _ = play(s, "f2-f1")
    assert GAME.result(after).winners == (BLACK,)
    assert after["result"]["reason"] == "goal"


# -- Proto-Dragon ---------------------------------------------------------------------------


def test_proto_dragon_never_moves():
    """ "The Proto-Dragon may not move." """
    s = GAME.position({**FAR, "f6": "white proto"})
    assert not any(a.startswith("f6") for a in actions(s))
    with pytest.raises(IllegalAction, match="never moves"):
        play(s, "f6-f7")


def test_proto_dragon_hit_by_fireball_becomes_dragon():
    """ "If it is hit by a Fireball, it becomes a Dragon." """
    s = GAME.position({"f6": "white wizard", "f7": "black proto", "l6": "black wizard"})
    after, events = play(s, "fire f6-f8")
    assert at(after, "f7") == ("dragon", "black")  # a Dragon of the Proto-Dragon's owner
    assert "f8" not in after["pieces"]  # the Fireball is gone
    assert after["last"]["shot"]["outcome"] == "converted"
    assert "now a Dragon" in events[0].text


@pytest.mark.parametrize("attacker", ["dragon", "roc"])
def test_proto_dragon_captured_by_dragon_or_roc(attacker):
    """ "It may be captured by a Dragon or a Roc." """
    origin = "f5" if attacker == "dragon" else "d1"  # d1 -> e7 is a Roc leap
    target = "f6" if attacker == "dragon" else "e7"
    s = GAME.position({**FAR, origin: f"white {attacker}", target: "black proto"})
    after, _ = play(s, f"{origin}x{target}")
    assert at(after, target) == (attacker, "white")


# -- Dragon ---------------------------------------------------------------------------------


def test_dragon_reaches_18_cells():
    """ "The Dragon may move one hex to any of the 6 adjacent hexes, or may move 2 hexes
    outward and then one hex to the left or right to reach another 12 hexes. In total, the
    Dragon can reach 18 hexes." """
    s = GAME.position({**FAR, "f6": "white dragon"})
    reach = targets(s, "f6")
    assert len(reach) == 18
    steps = set(board.SIDE_NEIGHBOURS["f6"])
    leaps = reach - steps
    assert steps <= reach and len(leaps) == 12
    # "2 out then 1 left or right": three cells away, never on a straight or diagonal line.
    assert all(board.distance("f6", c) == 3 for c in leaps)
    assert {"e8", "g8", "h7", "i5", "i4", "h3", "g3", "e3", "d3", "c4", "c5", "d7"} == leaps


@pytest.mark.parametrize("prey", ["ball", "black dragon_ball"])
def test_dragon_captures_ball_or_carrier_and_takes_the_ball(prey):
    """ "The Dragon can capture Balls or Dragons-with-Ball; when it does so it becomes a
    Dragon-with-Ball." """
    s = GAME.position({**FAR, "f6": "white dragon", "g8": prey})
    after, _ = play(s, "f6xg8")
    assert at(after, "g8") == ("dragon_ball", "white")
    assert at(after, "f6") is None


@pytest.mark.parametrize("prey", ["proto", "dragon", "roc"])
def test_dragon_captures_opposing_pieces(prey):
    """ "The Dragon can also capture an opponent's Proto-Dragons, Dragons, or Rocs." """
    s = GAME.position({**FAR, "f6": "white dragon", "h7": f"black {prey}", "f7": f"white {prey}"})
    assert "f6xh7" in actions(s)
    assert "f7" not in targets(s, "f6")  # never its own
    after, _ = play(s, "f6xh7")
    assert at(after, "h7") == ("dragon", "white")
    # Nor can it take a Wizard: only a Dragon-with-Ball can.
    w = GAME.position({"a1": "white wizard", "f6": "white dragon", "h7": "black wizard"})
    assert "h7" not in targets(w, "f6")


# -- Dragon-with-Ball -----------------------------------------------------------------------


def test_dragon_with_ball_steps_to_six_cells():
    """ "The Dragon-with-Ball may move to any of the 6 adjacent hexes." """
    s = GAME.position({**FAR, "f6": "white dragon_ball"})
    assert targets(s, "f6") == set(board.SIDE_NEIGHBOURS["f6"])


@pytest.mark.parametrize("prey", ["roc", "proto", "dragon", "dragon_ball", "wizard"])
def test_dragon_with_ball_captures(prey):
    """ "It may capture any opposing Roc, Proto-Dragon, Dragon, Dragon-with-Ball, or Wizard." """
    pieces = {
        "a1": "white wizard",
        "f6": "white dragon_ball",
        "f7": f"black {prey}",
        "f5": f"white {'roc' if prey == 'wizard' else prey}",
    }
    if prey != "wizard":
        pieces["l6"] = "black wizard"
    s = GAME.position(pieces)
    assert "f6xf7" in actions(s) and "f5" not in targets(s, "f6")
    after, _ = play(s, "f6xf7")
    assert at(after, "f7") == ("dragon_ball", "white")
    assert (GAME.result(after) is not None) == (prey == "wizard")


def test_dragon_with_ball_eliminates_a_ball():
    """ "It may also capture a Ball, which is then eliminated from play." """
    s = GAME.position({**FAR, "f6": "white dragon_ball", "f7": "ball", "d5": "ball"})
    after, events = play(s, "f6xf7")
    assert at(after, "f7") == ("dragon_ball", "white")
    balls = [c for c, p in after["pieces"].items() if p["kind"] in ("ball", "dragon_ball")]
    assert sorted(balls) == ["d5", "f7"]  # one Ball fewer in play
    assert "out of play" in events[0].text


def test_dragon_with_ball_wins_in_the_opposing_goal_only():
    """ "If a Dragon-with-Ball enters the opposing goal hex, that player wins the game." """
    own = GAME.position({**FAR, "f2": "white dragon_ball"})
    after, _ = play(own, "f2-f1")  # White's own goal: no win
    assert GAME.result(after) is None
    theirs = GAME.position({**FAR, "f10": "white dragon_ball"})
    after, events = play(theirs, "f10-f11")
    assert GAME.result(after).winners == (WHITE,)
    assert "goal" in events[-1].text
    plain = GAME.position({**FAR, "f10": "white dragon"})
    after, _ = play(plain, "f10-f11")  # a plain Dragon scores nothing
    assert GAME.result(after) is None


def test_dragon_with_ball_capturing_wizard_wins():
    """ "If it captures the opposing Wizard, that player also wins the game." """
    s = GAME.position({"a1": "white wizard", "f6": "white dragon_ball", "e6": "black wizard"})
    after, _ = play(s, "f6xe6")
    assert GAME.result(after).winners == (WHITE,)
    assert not any(p["kind"] == "wizard" and p["side"] == "black" for p in after["pieces"].values())


# -- Roc ------------------------------------------------------------------------------------


def test_roc_leaps_five_out_and_one_aside():
    """ "The Roc moves 5 hexes outward and one hex outward to the left or right." """
    s = GAME.position({"l1": "white wizard", "a1": "white roc", "f11": "black wizard"})
    # From a1: 5 north to a6 then 1 north-east... worked in test_lions_dragons_readings.
    assert targets(s, "a1") == {"b7", "f7", "g5", "g1"}
    assert all(board.distance("a1", c) == 6 for c in targets(s, "a1"))


def test_roc_reaches_four_cells_from_any_position():
    """ "Due to the size of the board, only 4 hexes may be reached from any position." """
    counts = {cell: len(board.ROC_MOVES[cell]) for cell in board.CELLS}
    assert {c for c, n in counts.items() if n != 4} == {"f6"}  # the centre reaches none
    assert counts["f6"] == 0


@pytest.mark.parametrize("prey", ["roc", "dragon"])
def test_roc_captures_rocs_and_dragons(prey):
    """ "The Roc may capture opposing Rocs or Dragons." """
    s = GAME.position({**FAR, "d1": "white roc", "e7": f"black {prey}", "c6": f"white {prey}"})
    assert "d1xe7" in actions(s) and "c6" not in targets(s, "d1")
    after, _ = play(s, "d1xe7")
    assert at(after, "e7") == ("roc", "white")


# -- Fireball -------------------------------------------------------------------------------


def test_fireball_is_neutral():
    """ "A Fireball is shot off by the Wizard. It is a neutral piece." """
    s = GAME.position({"f6": "white wizard", "l6": "black wizard", "f8": "white dragon"})
    after, _ = play(s, "fire f6-f8")
    # It hits the shooter's own Dragon just the same.
    assert "f8" not in after["pieces"] and after["last"]["shot"]["outcome"] == "destroyed"
    s2, _ = play(s, "fire f6-h6")
    assert s2["pieces"]["h6"]["side"] is None
    assert not any(a.startswith("h6") for a in actions(s2))  # Black cannot move it either


def test_fireball_moves_two_hexes_when_shot():
    """ "Upon being shot off it moves two hexes." """
    s = GAME.position({"f6": "white wizard", "l6": "black wizard"})
    after, _ = play(s, "fire f6-f4")
    assert after["last"]["shot"]["path"] == ["f5", "f4"]
    assert after["pieces"]["f4"]["kind"] == "fireball"


def test_fireball_hitting_carrier_leaves_ball():
    """ "If it hits a Dragon-with-Ball, the Dragon-with-Ball and the Fireball are removed and a
    Ball is left behind." """
    s = GAME.position({"f6": "white wizard", "l6": "black wizard", "f8": "black dragon_ball"})
    after, _ = play(s, "fire f6-f8")
    assert at(after, "f8") == ("ball", None)
    assert not any(p["kind"] == "fireball" for p in after["pieces"].values())


def test_fireball_hitting_proto_leaves_dragon():
    """ "If it hits a Proto-Dragon, the Proto-Dragon and the Fireball are removed and a Dragon
    is left behind." """
    s = GAME.position({"f6": "white wizard", "l6": "black wizard", "f8": "white proto"})
    after, _ = play(s, "fire f6-f8")
    assert at(after, "f8") == ("dragon", "white")
    assert not any(p["kind"] == "fireball" for p in after["pieces"].values())


@pytest.mark.parametrize("thing", ["black wizard", "fireball", "ball", "lion"])
def test_fireball_removed_on_wizard_fireball_ball_or_lion(thing):
    """ "If it hits a Wizard, a Fireball, a Ball or the edge of the board, the Fireball is
    removed." (a non-hex counts as the edge)"""
    pieces = {"f9": "white wizard", "a1": "black wizard"}
    lions = ["f10"] if thing == "lion" else []
    if thing == "black wizard":
        pieces = {"f9": "white wizard", "f10": "black wizard"}
    elif thing == "fireball":
        pieces["f10"] = "fireball sw"  # flies e9, d8: away from f9
    elif thing == "ball":
        pieces["f10"] = "ball"
    s = GAME.position(pieces, lions=lions)
    # From f9 a shot north aims at f11; first it meets f10 (or f10 is a non-hex).
    after, _ = play(s, "fire f9-f11")
    shot = after["last"]["shot"]
    assert shot["hit"] == "f10" and shot["path"] == [] and shot["end"] is None
    assert shot["outcome"] == ("lion" if thing == "lion" else "stopped")
    assert "f11" not in after["pieces"]  # the shot Fireball is gone
    if thing != "lion":
        assert shot["target"]["kind"] == thing.split()[-1]
    if thing in ("black wizard", "ball"):
        assert after["pieces"]["f10"]["kind"] == thing.split()[-1]  # the target stays
    if thing == "fireball":  # the Fireball that was hit stays and flies on in its phase
        assert after["last"]["fireballs"][0]["start"] == "f10"
        assert after["pieces"]["d8"]["kind"] == "fireball"


def test_fireball_removed_at_the_edge():
    """ "If it hits a Wizard, a Fireball, a Ball or the edge of the board, the Fireball is
    removed." (the edge)"""
    s = GAME.position({"f10": "fireball n", **FAR})
    after, _ = play(s, "a1-a2")  # in the Fireball phase it flies f11, then off the board
    flight = after["last"]["fireballs"][0]
    assert flight["outcome"] == "edge" and flight["path"] == ["f11"]
    assert not any(p["kind"] == "fireball" for p in after["pieces"].values())


@pytest.mark.parametrize("prey", ["white dragon", "black dragon", "white roc", "black roc"])
def test_fireball_destroys_dragon_or_roc(prey):
    """ "If it hits a Dragon or a Roc, the Dragon or Roc and the Fireball are removed." """
    s = GAME.position({"f6": "white wizard", "l6": "black wizard", "f7": prey})
    after, _ = play(s, "fire f6-f8")
    assert "f7" not in after["pieces"] and "f8" not in after["pieces"]
    assert after["last"]["captured"][0]["kind"] == prey.split()[1]


def test_fireball_flies_two_hexes_between_turns():
    """ "If the Fireball is not removed for one of the above reasons, it is moved in the
    direction it started two hexes between the White and Black turns." """
    s = GAME.position({"f2": "white wizard", "l6": "black wizard", "a6": "black roc"})
    s, _ = play(s, "fire f2-f4")  # White shoots: f3, f4
    assert s["pieces"]["f4"]["dir"] == "n"
    s, events = play(s, "l6-l5")  # after Black's turn the Fireball flies on: f5, f6
    assert s["pieces"]["f6"]["kind"] == "fireball" and "f4" not in s["pieces"]
    assert s["last"]["fireballs"][0]["path"] == ["f5", "f6"]
    assert any("f6" in e.text for e in events)
    s, _ = play(s, "f2-f3")  # and after White's next turn: f7, f8
    assert s["pieces"]["f8"]["kind"] == "fireball"


# -- Rules ----------------------------------------------------------------------------------


def test_initial_array_from_setup_data():
    """ "The initial array is as shown in Setup, above." (reconstructed: the diagram is missing)"""
    data = layout.setup_data()
    state = new_game(lions="symmetric")
    kinds = {(p["kind"], p["side"]) for p in state["pieces"].values()}
    for side in ("white", "black"):
        for kind in ("wizard", "proto", "roc"):
            assert (kind, side) in kinds
    assert ("ball", None) in kinds
    white = {(board.mirror(e["cell"]), e["kind"]) for e in data["pieces"]["white"]}
    black = {(e["cell"], e["kind"]) for e in data["pieces"]["black"]}
    assert white == black  # mirror-symmetric between the sides
    assert {board.mirror(c) for c in data["balls"]} == set(data["balls"])
    assert state["reserves"] == {"white": data["reserve"], "black": data["reserve"]}


def test_seven_hexes_removed_at_random():
    """ "Randomly select 7 hexes that will be removed from play, as non-hexes." """
    data = layout.setup_data()
    assert data["lions_count"] == 7 and data["board_cells"] == 91
    rng = random.Random(42)
    state = GAME.setup(["white", "black"], {}, rng)
    expected, _ = layout.random_lions(data, random.Random(42))
    assert state["lions"] == expected  # drawn from the rng passed in, nothing else


def test_turn_order_white_fireballs_black_fireballs():
    """ "The pieces move as described above in alternating turns: White, Fireballs, Black,
    Fireballs, etc.." """
    s = new_game(lions="symmetric")
    assert GAME.prompts(s)[0].seat == WHITE
    with pytest.raises(IllegalAction, match="White's turn"):
        GAME.apply(s, BLACK, "f10-f9", random.Random(0))
    s, _ = play(s, "fire f2-f4")
    assert GAME.prompts(s)[0].seat == BLACK and s["to_move"] == "black"
    s, _ = play(s, "f10-f9")
    assert s["last"]["fireballs"]  # the Fireball phase ran after Black's turn
    assert GAME.prompts(s)[0].seat == WHITE


def test_two_ways_to_win():
    """ "To win, move a Dragon-with-Ball into the opponent's goal hex or capture his Wizard." """
    goal = GAME.position({**FAR, "e10": "white dragon_ball"})
    assert GAME.result(play(goal, "e10-f11")[0]).winners == (WHITE,)
    wizard = GAME.position({"a1": "white wizard", "k6": "white dragon_ball", "l6": "black wizard"})
    assert GAME.result(play(wizard, "k6xl6")[0]).winners == (WHITE,)


# -- Playing tips (they still constrain the reading) ---------------------------------------


def test_drop_proto_dragons_near_wizard_and_shoot_them():
    """ "To start drop Proto-Dragons near your Wizard and shoot them with Fireballs to convert
    the to Dragons." """
    s = new_game(lions="symmetric")
    assert s["reserves"]["white"] > 0
    s, _ = play(s, "drop f3")
    assert at(s, "f3") == ("proto", "white") and s["reserves"]["white"] == 3
    s, _ = play(s, "f10-f9")
    s, _ = play(s, "fire f2-f4")  # the dropped Proto-Dragon is in the way and wakes
    assert at(s, "f3") == ("dragon", "white")


def test_capture_a_ball_and_carry_it():
    """ "Once you have enough, try to capture a Ball and move it towards the opposing goal." """
    s = GAME.position({**FAR, "f4": "white dragon", "d5": "ball"})
    s, _ = play(s, "f4xd5")
    s, _ = play(s, "l6-l5")
    assert targets(s, "d5") == set(board.SIDE_NEIGHBOURS["d5"])  # now a one-step carrier


def test_avoid_the_rocs():
    """ "Be careful to avoid the Rocs!" """
    s = GAME.position({**FAR, "d1": "black roc", "e7": "white dragon"}, to_move="black")
    assert "d1xe7" in actions(s)


def test_wizard_may_start_crowded_in():
    """ "If the Wizard starts crowded in by non-hexes, move it to a better spot." """
    crowded = 0
    for seed in range(60):
        state = new_game(seed)
        if set(board.WIZARD_STEPS["f2"]) & set(state["lions"]):
            crowded += 1
            assert any(a.startswith("f2-") for a in actions(state))
    assert crowded > 0  # random Lions may land next to a Wizard


def test_only_a_dragon_with_ball_captures_a_wizard():
    """ "Remember that the Wizard can only be captured by a Dragon-with-Ball!" """
    # Each attacker stands where it could reach the Black Wizard if it were a capture.
    cases = {
        "dragon": {"f5": "white dragon", "f6": "black wizard", "a1": "white wizard"},
        "roc": {"d1": "white roc", "e7": "black wizard", "a1": "white wizard"},
        "wizard": {"f5": "white wizard", "f6": "black wizard"},
        "dragon_ball": {"f5": "white dragon_ball", "f6": "black wizard", "a1": "white wizard"},
    }
    for kind, pieces in cases.items():
        captures = {a for a in actions(GAME.position(pieces)) if "x" in a}
        assert captures == ({"f5xf6"} if kind == "dragon_ball" else set()), kind
