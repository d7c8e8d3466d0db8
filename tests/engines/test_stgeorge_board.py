"""The St. George board data: what the rule text gives is pinned, the reconstruction matches
its description in the rules help."""

from __future__ import annotations

import math
from itertools import pairwise

import pytest

from engines.data import load, reconstructed_notes
from engines.stgeorge.board import LAIR, BadPoint, build_board, current_board

DATA = load("stgeorge", "board")
BOARD = current_board()
RINGS = "abcdef"


def ring_points(spoke: int) -> list[str]:
    return [f"{spoke}{ring}" for ring in RINGS]


def test_fourteen_spokes():
    """'a round board shaped like a wheel with 14 spokes, with a pattern of points on those
    lines starting from its center and radiating out to the edge of the board.'"""
    assert DATA["spokes"] == 14
    for spoke in range(1, 15):
        points = ring_points(spoke)
        assert all(point in BOARD.neighbours for point in points)
        # The points of a spoke form one line from the centre to the rim.
        assert LAIR in BOARD.neighbours[points[0]]
        for inner, outer in pairwise(points):
            assert outer in BOARD.neighbours[inner]
    assert "15a" not in BOARD.neighbours
    assert len(BOARD.neighbours[LAIR]) == 14


def test_longitudinal_lines_join_neighbouring_spokes():
    """'Longitudinal lines are also drawn connecting the points.'"""
    for ring in RINGS:
        for spoke in range(1, 15):
            following = spoke % 14 + 1
            assert f"{following}{ring}" in BOARD.neighbours[f"{spoke}{ring}"]
    # The rings are closed: spoke 14 joins spoke 1.
    assert "1c" in BOARD.neighbours["14c"]
    # A ring point has exactly its two ring neighbours and its spoke neighbours.
    assert set(BOARD.neighbours["4c"]) == {"3c", "5c", "4b", "4d"}
    assert set(BOARD.neighbours["4a"]) == {"3a", "5a", LAIR, "4b"}


def test_lair_is_the_green_centre():
    """'The central circle is green and is called the Dragon's Lair.'"""
    assert DATA["lair"] == LAIR
    assert DATA["lair_colour"] == "green"
    assert DATA["points"][LAIR][1] == 0


def test_four_castles_of_three_points():
    """'At four equidistant locations on the outer circle, an additional three points
    (connected by lines to each other and to three points on the board's outer edge) form
    Knight's Castles, one each named for St. George, St. Patrick, St. Andrew, and St. David.'"""
    names = [castle.name for castle in BOARD.castles.values()]
    assert names == ["St. George", "St. Patrick", "St. Andrew", "St. David"]
    rim = {f"{spoke}f" for spoke in range(1, 15)}
    for castle in BOARD.castles.values():
        assert len(castle.points) == 3
        for point in castle.points:
            others = set(castle.points) - {point}
            assert others <= set(BOARD.neighbours[point])
        edge = {n for point in castle.points for n in BOARD.neighbours[point]} - set(castle.points)
        assert len(edge) == 3
        assert edge <= rim
        # Each castle point is joined to the rim exactly once.
        for point in castle.points:
            assert len(set(BOARD.neighbours[point]) & rim) == 1


def test_castles_as_near_equidistant_as_fourteen_spokes_allow():
    spokes = sorted(castle.spoke for castle in BOARD.castles.values())
    gaps = [(b - a) % 14 for a, b in zip(spokes, spokes[1:] + spokes[:1], strict=False)]
    assert sorted(gaps) == [3, 3, 4, 4]


def test_three_knights_per_castle():
    """'the Knights' three pieces each begin on the points of the Knight's Castle.'"""
    assert DATA["knights_per_castle"] == 3
    assert all(
        len(castle.points) == DATA["knights_per_castle"] for castle in BOARD.castles.values()
    )


def test_reconstruction_matches_the_documented_layout():
    """The data file is exactly the board the rules help describes: spokes 1-14 with rings
    a-f, closed rings, the Lair joined to ring a, castles on spokes 1, 5, 8, 12 whose point 2
    joins its spoke's rim point and points 1 and 3 the rim points either side."""
    expected = set()
    for spoke in range(1, 15):
        expected.add(frozenset((LAIR, f"{spoke}a")))
        for inner, outer in pairwise(RINGS):
            expected.add(frozenset((f"{spoke}{inner}", f"{spoke}{outer}")))
        for ring in RINGS:
            expected.add(frozenset((f"{spoke}{ring}", f"{spoke % 14 + 1}{ring}")))
    spokes = {"G": 1, "P": 5, "A": 8, "D": 12}
    for letter, spoke in spokes.items():
        before, after = (spoke - 2) % 14 + 1, spoke % 14 + 1
        one, two, three = f"{letter}1", f"{letter}2", f"{letter}3"
        expected |= {
            frozenset((two, f"{spoke}f")),
            frozenset((one, f"{before}f")),
            frozenset((three, f"{after}f")),
            frozenset((one, two)),
            frozenset((two, three)),
            frozenset((one, three)),
        }
    actual = {frozenset(line) for line in DATA["lines"]}
    assert actual == expected
    assert len(DATA["lines"]) == len(actual)  # no line listed twice
    assert len(DATA["points"]) == 14 * 6 + 1 + 12
    assert {c.key: c.spoke for c in BOARD.castles.values()} == {
        "george": 1,
        "patrick": 5,
        "andrew": 8,
        "david": 12,
    }


def test_gate_is_seven_steps_from_the_lair():
    """The reason given for six rings: no first roll reaches the Lair from a castle."""
    distance = {LAIR: 0}
    frontier = [LAIR]
    while frontier:
        nxt = []
        for point in frontier:
            for step in BOARD.neighbours[point]:
                if step not in distance:
                    distance[step] = distance[point] + 1
                    nxt.append(step)
        frontier = nxt
    for castle in BOARD.castles.values():
        assert [distance[p] for p in castle.points] == [7, 7, 7]


def test_drawing_coordinates_place_castles_outside_the_rim():
    points = DATA["points"]
    for castle in BOARD.castles.values():
        one, two, three = (points[p] for p in castle.points)
        assert two == [castle.spoke, 7.0]
        assert one[1] == three[1] > two[1]
        # Points 1 and 3 lie half a spoke to either side (positions wrap round 14).
        assert math.isclose((one[0] - castle.spoke) % 14, 13.5)
        assert math.isclose((three[0] - castle.spoke) % 14, 0.5)
    for spoke in range(1, 15):
        assert [points[p] for p in ring_points(spoke)] == [[spoke, r] for r in range(1, 7)]


def test_reconstructed_values_are_marked():
    notes = reconstructed_notes(DATA)
    keys = set(DATA["reconstructed"])
    assert {"rings", "castles.spoke", "castles.points", "lines", "points"} <= keys
    assert all(": " in note and len(note) > 30 for note in notes)
    assert DATA["source"]


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("4c", "4c"),
        ("4C", "4c"),
        (" 14 f ", "14f"),
        ("04c", "4c"),
        ("g2", "G2"),
        ("D3", "D3"),
        ("lair", LAIR),
        ("LAIR", LAIR),
        ("L", LAIR),
        ("l", LAIR),
    ],
)
def test_point_names_are_case_insensitive(text, name):
    assert BOARD.parse_point(text) == name


@pytest.mark.parametrize("text", ["", "15a", "4g", "0a", "G4", "X1", "c4", "lairs"])
def test_unknown_points_are_explained(text):
    with pytest.raises(BadPoint, match="is not a point"):
        BOARD.parse_point(text)


def test_a_broken_board_file_fails_at_load():
    data = {**DATA, "lines": [*DATA["lines"], ["1a", "nowhere"]]}
    with pytest.raises(ValueError, match="unknown point"):
        build_board(data)
