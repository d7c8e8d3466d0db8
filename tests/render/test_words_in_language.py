"""A board picture's own words (legends, captions, headings, whose turn it is) come from the
catalog, written in the picture's language: drawn in the pseudo-locale, a board is another
picture than the English one, and every line it prints is accented but for the names,
numbers and notation the view and the game's data give it. The language reaches each game's
renderer through :func:`games.render`, the picture workers and :class:`Drawing`, whose
recent boards keep each language's picture apart."""

from __future__ import annotations

import re
from typing import Any

import pytest

import games
import render.dragons_cave
import render.dragonslayer
import render.lions_dragons
import render.stgeorge
from bot.service.boards.drawing import Drawing
from bot.service.boards.pictures import Pictures
from bot.service.notices import Board
from engines.data import load
from engines.dragonslayer.battle import load_battle
from engines.dragonslayer.model import load_parties, load_urland
from i18n import said, said_plural, write
from i18n.pseudo import CLOSE, OPEN
from render.dragonslayer.panel import TITLE
from tests.render.test_dragonslayer_battle_render import battle_view, unresolved_view
from tests.render.test_dragonslayer_render import busy_view
from tests.render.test_legible_on_a_phone import drawn_text
from tests.render.test_palettes import RENDERERS, played_views

PSEUDO = "en-XA"

TITLES = {
    "stgeorge": [],
    "lions-dragons": ["Lions and Dragons Chess"],
    "dragons-cave": ["Dragon's Cave"],
    "dragonslayer": ["Dragonslayer", "Morgenthorme"],
}
"""The games' own names, printed as they are in every language."""


def samples(slug: str) -> list[dict[str, Any]]:
    """A game's set-up, positions through a game and its end; for Dragonslayer also a
    crowded map and Battle Displays, a fight placed and one waiting for its things."""
    views = played_views(slug, 3, every=25, most=4)
    if slug == "dragonslayer":
        views += [busy_view(), battle_view(), battle_view("lake", raid=True), unresolved_view()]
    return views


def strings(value: Any) -> list[str]:
    """Every string inside ``value`` (a view: its names, notation and the engine's texts)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [text for item in value.values() for text in strings(item)]
    if isinstance(value, list | tuple):
        return [text for item in value for text in strings(item)]
    return []


def data_names(slug: str) -> list[str]:
    """The names the game's data files give (castles, places, seas, magicians...)."""
    if slug == "stgeorge":
        return strings(load("stgeorge", "board")["castles"])
    if slug == "dragonslayer":
        urland = load_urland()
        places = [*urland.places.values(), *urland.seas.values(), *urland.abodes.values()]
        found = [thing.name for thing in [*places, *urland.boxes.values()]]
        found += [location.name for location in load_battle().locations.values()]
        return found + [magician.name for magician in load_parties().magicians.values()]
    return []


WORD = re.compile(r"([A-Za-z]{3,})(\u2026?)")
"""An English word: a run of three or more plain letters (the pseudo-locale accents every
letter of the catalog's words, so none is left in a word written through it), and the
ellipsis of a name cut short."""


def english_left(slug: str, view: dict[str, Any], texts: list[str]) -> set[str]:
    """The plain English words among ``texts`` that no name, notation or engine text of the
    view or the game's data holds (a name cut short is the start of one): words that went
    around the catalog."""
    given = {found[0] for text in strings(view) + data_names(slug) + TITLES[slug]
             for found in WORD.findall(text)}  # fmt: skip
    left = set()
    for word, cut in (found for text in texts for found in WORD.findall(text)):
        if word not in given and not (cut and any(name.startswith(word) for name in given)):
            left.add(word)
    return left


@pytest.mark.parametrize("slug", list(RENDERERS))
def test_a_board_in_the_pseudo_locale_is_another_picture(slug):
    for view in samples(slug):
        english = games.render(slug, view)
        assert games.render(slug, view, locale=PSEUDO) != english
        assert games.render(slug, view, locale="en") == english


@pytest.mark.parametrize("slug", list(RENDERERS))
def test_every_word_of_a_board_in_the_pseudo_locale_came_through_the_catalog(slug):
    for view in samples(slug):
        found, _ = drawn_text(RENDERERS[slug], view, PSEUDO)
        texts = [d.text for d in found]
        assert not english_left(slug, view, texts)
        assert sum(OPEN in text or CLOSE in text for text in texts) >= 3


@pytest.mark.parametrize("slug", list(RENDERERS))
def test_the_same_board_in_english_shows_its_english_words(slug):
    # The check above finds words that are not written through the catalog.
    for view in samples(slug):
        found, _ = drawn_text(RENDERERS[slug], view)
        texts = [d.text for d in found]
        assert english_left(slug, view, texts)
        assert not any(OPEN in text or CLOSE in text for text in texts)


def printed(module: Any, view: dict[str, Any]) -> set[str]:
    found, _ = drawn_text(module, view, PSEUDO)
    return {d.text for d in found}


def test_st_george_says_whose_turn_it_is_and_names_the_lair_in_the_language():
    view = samples("stgeorge")[0]
    seats = view["seats"]
    texts = printed(render.stgeorge, view)
    turn = said(
        "Turn {turn} · {player} to roll", turn=str(view["turn"]),
        player=seats[view["to_move"]]["name"],
    )  # fmt: skip
    assert write(turn, PSEUDO) in texts
    assert write(said("Lair"), PSEUDO) in texts
    assert "Lair" not in texts


def test_lions_and_dragons_legend_names_its_pieces_in_the_language():
    texts = printed(render.lions_dragons, samples("lions-dragons")[0])
    for name in ("Wizard", "Roc", "Ball"):
        assert write(said(name), PSEUDO) in texts  # the catalog's word, not the English one
        assert name not in texts


def test_dragons_cave_names_its_treasure_and_the_dragon_in_the_language():
    view = samples("dragons-cave")[-1]
    texts = printed(render.dragons_cave, view)
    assert write(said("Treasure"), PSEUDO) in texts
    assert "Treasure" not in texts and "START" not in texts


def test_the_battle_display_captions_its_sections_in_the_language():
    texts = printed(render.dragonslayer, battle_view())
    for caption in ("Battle Display", "The party"):
        assert write(said(caption), PSEUDO) in texts
        assert caption not in texts


def test_a_dragonslayer_header_counts_the_days_left_in_the_language():
    view = dict(busy_view(), current=None)  # the header: the turn and the days left
    view["days_left"] = 1
    one = [text for text in printed(render.dragonslayer, view) if "\u2022" in text]
    view["days_left"] = 3
    three = [text for text in printed(render.dragonslayer, view) if "\u2022" in text]
    # Each through the catalog, the days' words chosen by their count.
    for count, header in ((1, one), (3, three)):
        days = said_plural("{count} day left", "{count} days left", count)
        turn = said("Turn {turn}", turn=str(view["turn"]))
        words = [TITLE, write(turn, PSEUDO), write(days, PSEUDO)]
        assert header == ["  \u2022  ".join(words)]


class Renderer:
    """A stand-in for :func:`games.render` that says which language it drew in."""

    def __init__(self) -> None:
        self.asked: list[str] = []

    def __call__(self, slug: str, view: dict[str, Any], locale: str = "en") -> bytes:
        self.asked.append(locale)
        return f"{slug} in {locale}".encode()


async def test_a_board_drawn_in_one_language_is_never_served_in_another():
    renderer = Renderer()
    drawing = Drawing(renderer=renderer)
    board = Board("stgeorge", {"turn": 1})
    assert await drawing.draw(board, "de") == b"stgeorge in de"
    assert await drawing.draw(board) == b"stgeorge in en"
    assert await drawing.draw(board, "de") == b"stgeorge in de"  # the one drawn before
    assert renderer.asked == ["de", "en"]


async def test_a_board_kept_for_its_send_is_kept_in_its_language():
    renderer = Renderer()
    drawing = Drawing(renderer=renderer)
    drawing.boards.size = 1
    board = Board("stgeorge", {"turn": 1})
    with drawing.kept(board, "fr"):
        await drawing.draw(board, "fr")
        for turn in range(2, 5):  # more boards than the recent ones hold
            await drawing.draw(Board("stgeorge", {"turn": turn}), "fr")
        assert await drawing.draw(board, "fr") == b"stgeorge in fr"
    assert renderer.asked.count("fr") == 4  # the kept board was not drawn again


async def test_an_english_board_is_asked_for_as_before():
    asked: list[tuple[Any, ...]] = []

    def renderer(slug: str, view: dict[str, Any]) -> bytes:  # draws English alone
        asked.append((slug, view))
        return b"png"

    assert await Drawing(renderer=renderer).draw(Board("stgeorge", {"turn": 1})) == b"png"
    assert asked == [("stgeorge", {"turn": 1})]


async def test_a_picture_worker_draws_a_board_in_the_language_asked_for():
    view = samples("stgeorge")[0]
    pictures = Pictures(1, warm=False)
    try:
        drawn = await Drawing(drawer=pictures.draw).draw(Board("stgeorge", view), PSEUDO)
        english = await pictures.draw("stgeorge", view)
    finally:
        await pictures.close()
    assert drawn == games.render("stgeorge", view, PSEUDO)
    assert english == games.render("stgeorge", view) != drawn
