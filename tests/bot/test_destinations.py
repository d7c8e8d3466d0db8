"""Destinations labelled for the choice at hand: one label per place, notable places
first, the labels leading the menu entries, the marks only on a private picture."""

from __future__ import annotations

from bot.discord.controls.play import ActionButton, ActionSelect, GroupSelect, PlacesButton
from bot.discord.controls.views import controls_view
from bot.service.notices import Board, Controls
from bot.service.play import destinations
from engines.base import Choice, Prompt

MOVE = Prompt(0, "move", "Move a piece")


def choice(action: str, to: str, group: str = "G1", outcome: str = "", notable: bool = False):
    return Choice(action, action.replace("-", " → "), group, to, outcome, notable)


def test_each_place_has_one_label_and_notable_places_come_first():
    choices = [
        choice("G1-1b", "1b"), choice("G1-2c", "2c"),
        choice("G1-3d", "3d", outcome="takes the Dragon", notable=True),
        choice("G2-2c", "2c", group="G2"),
    ]  # fmt: skip
    labelled, marks = destinations.placed(choices)
    assert marks == [
        {"at": "3d", "label": "A", "notable": True},
        {"at": "1b", "label": "B", "notable": False},
        {"at": "2c", "label": "C", "notable": False},
    ]
    assert [c.label for c in labelled] == [
        "A · G1 → 3d — takes the Dragon", "B · G1 → 1b", "C · G1 → 2c", "C · G2 → 2c",
    ]  # fmt: skip
    assert [c.action for c in labelled] == ["G1-3d", "G1-1b", "G1-2c", "G2-2c"]


def test_no_labels_without_places_or_past_the_last_label():
    assert destinations.placed([Choice("roll", "Roll")]) is None
    many = [choice(f"G1-{n}", str(n)) for n in range(destinations.MAX_PLACES + 1)]
    assert destinations.placed(many) is None
    assert destinations.placed(many[:-1]) is not None


def test_labels_skip_letters_read_as_digits():
    assert "I" not in destinations.LABELS and "O" not in destinations.LABELS


def test_a_marked_board_is_the_view_plus_its_marks():
    board = Board("stgeorge", {"pieces": []})
    marks = [{"at": "1a", "label": "A", "notable": False}]
    assert destinations.marked(board, marks).view == {"pieces": [], "marks": marks}
    assert board.view == {"pieces": []}


def items(controls: Controls) -> list:
    view = controls_view([controls])
    return [] if view is None else list(view.children)


def test_one_piece_with_places_opens_them_with_one_button():
    moves = (choice("lair-1a", "1a", "lair"), choice("lair-1b", "1b", "lair"))
    control = Controls(5, 9, MOVE, moves)
    [button] = items(control)
    assert isinstance(button, PlacesButton) and button.group == "lair"
    assert button.item.label == "lair: 2 places on the board"


def test_several_pieces_are_picked_from_a_menu_and_a_roll_stays_a_button():
    choices = (choice("G1-1b", "1b"), choice("G2-2c", "2c", "G2"), Choice("pass", "Pass"))
    menu, passing = items(Controls(5, 9, MOVE, choices))
    assert isinstance(menu, GroupSelect) and isinstance(passing, ActionButton)
    assert [o.description for o in menu.item.options] == ["1 place", "1 place"]


def test_labelled_or_secret_choices_are_offered_as_they_are():
    labelled, _ = destinations.placed([choice("G1-1b", "1b"), choice("G1-2c", "2c")])
    [first, second] = items(Controls(5, 9, MOVE, labelled, placed=True))
    assert isinstance(first, ActionButton) and first.item.label == "A · G1 → 1b"
    assert second.item.label == "B · G1 → 2c"
    secret = Prompt(0, "card", "Pick a card", secret=True)
    many = tuple(choice(f"c-{n}", str(n)) for n in range(12))
    [menu] = items(Controls(5, 9, secret, many))
    assert isinstance(menu, ActionSelect)


def test_a_marked_boards_alt_text_names_each_label_and_its_place():
    from bot.service.boards.alt_text import board_alt

    board = Board("stgeorge", {"summary": "The Dragon is in its Lair."})
    marks = [{"at": "1a", "label": "A", "notable": False}, {"at": "2c", "label": "B"}]
    alt = board_alt(destinations.marked(board, marks))
    assert alt.plain().endswith("Places you can move to: A marks 1a; B marks 2c.")
    assert "Places" not in board_alt(board)
