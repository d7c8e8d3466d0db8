"""Every game's sides and owners stay apart for colour-blind players: simulated
deuteranopia, protanopia and tritanopia (Machado et al. 2009, full severity), and normal
vision, never bring two of a game's side colours closer than a CIEDE2000 difference of
:data:`FLOOR`."""

from __future__ import annotations

import pytest

from bench.boards import renderer_module
from games import SPECS
from render.common import Colour
from tests.render.vision import VISIONS, closest_pair, delta_e2000, seen

FLOOR = 18.0
"""ΔE2000 of 18: two flat discs side by side read as two colours at a glance. A difference
of about 2 is only just noticeable; St. George's old red and green, which deuteranopes saw
as one olive, were 15 apart for them."""


def colour_sets(slug: str) -> dict[str, dict[str, Colour]]:
    """The colours of a game's sides (its renderer's ``SIDE_COLOURS``, which every game
    must have) and, where its renderer has them, of its marks (``MARK_COLOURS``)."""
    module = renderer_module(slug)
    sets = {slug: getattr(module, "SIDE_COLOURS", {})}
    if hasattr(module, "MARK_COLOURS"):
        sets[f"{slug} marks"] = module.MARK_COLOURS
    return sets


@pytest.mark.parametrize("vision", VISIONS)
@pytest.mark.parametrize("slug", list(SPECS))
def test_every_pair_of_sides_stays_apart(slug, vision):
    for game, colours in colour_sets(slug).items():
        assert len(colours) >= 2, f"{game}: its renderer names no SIDE_COLOURS"
        distance, one, other = closest_pair(colours, vision, delta_e2000)
        assert distance >= FLOOR, (
            f"{one} and {other} look alike with {vision}: ΔE2000 {distance:.1f}"
        )


def test_marks_are_checked_where_a_renderer_has_them():
    assert "lions-dragons marks" in colour_sets("lions-dragons")


def test_the_simulation_turns_red_and_green_alike_for_deuteranopes():
    # What players saw: St. George's old red and St. Patrick's old green both olive.
    red, green = (200, 32, 45), (0, 150, 105)
    assert delta_e2000(red, green) > 50
    assert delta_e2000(seen(red, "deuteranopia"), seen(green, "deuteranopia")) < FLOOR
    # Blue and yellow, the axis deuteranopes keep, stay far apart.
    blue, yellow = (0, 114, 178), (240, 228, 66)
    assert delta_e2000(seen(blue, "deuteranopia"), seen(yellow, "deuteranopia")) > 50


def test_tritanopia_turns_blue_and_green_alike():
    blue, green = (0, 114, 178), (0, 158, 115)
    assert delta_e2000(seen(blue, "tritanopia"), seen(green, "tritanopia")) < FLOOR
    assert delta_e2000(blue, green) > FLOOR


def test_ciede2000_matches_published_pairs():
    # Sharma, Wu and Dalal (2005), table 1: pairs 1, 7 and 17, given in CIELAB.
    from tests.render.vision import delta_e2000_lab

    first = delta_e2000_lab((50, 2.6772, -79.7751), (50, 0, -82.7485))
    assert first == pytest.approx(2.0425, abs=1e-4)
    assert delta_e2000_lab((50, 0, 0), (50, -1, 2)) == pytest.approx(2.3669, abs=1e-4)
    assert delta_e2000_lab((50, 2.5, 0), (73, 25, -18)) == pytest.approx(27.1492, abs=1e-4)
