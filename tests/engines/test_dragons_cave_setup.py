"""Dragon's Cave: game contents, set-up, options, the board data and the rules help.

Also holds the small helpers the other Dragon's Cave test files import.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from engines.base import BadOptions, Event, UnreadableAction
from engines.data import load, reconstructed_notes
from games import ENGINES

GAME = ENGINES["dragons-cave"]
KINDS = ["ruby", "emerald", "sapphire", "amber", "crystal"]
TEXT_CARDS = 6


# --- helpers shared by the Dragon's Cave tests -------------------------------------------


def new_game(players: int = 4, first_dragon: int = 0) -> Any:
    """A fresh game; seat ``first_dragon`` plays the Dragon in round 1."""
    options = GAME.parse_options(f"first_dragon={first_dragon}")
    roles = [role.key for role in GAME.roles(players, options)]
    return GAME.setup(roles, options, random.Random(0))


def act(state: Any, seat: int, action: str) -> tuple[Any, list[Event]]:
    return GAME.apply(state, seat, action, random.Random(0))


def play_round(state: Any, cards: dict[int, str], lair: str) -> tuple[Any, list[Event]]:
    """Every Dwarf player's card (in seat order), then the Dragon's square."""
    events: list[Event] = []
    for seat in sorted(cards):
        state, new = act(state, seat, cards[seat])
        events += new
    state, new = act(state, state["dragon_seat"], f"lair {lair}")
    return state, events + new


def arrange(state: Any, **changes: Any) -> Any:
    """A copy of ``state`` with some keys replaced; the Treasure is adjusted so the 44 coins
    stay conserved unless ``treasure`` is given. ``squares`` maps (seat, dwarf) to a square."""
    data = GAME.dump(state)
    for (seat, number), square in changes.pop("squares", {}).items():
        for dwarf in data["dwarves"]:
            if dwarf["seat"] == seat and dwarf["dwarf"] == number:
                dwarf["square"] = square
    data.update(changes)
    if "treasure" not in changes:
        data["treasure"] = 44 - sum(data["purses"]) - sum(data["chests"]) - data["undistributed"]
    return GAME.load(data)


def square(state: Any, seat: int, number: int = 1) -> Any:
    return next(d["square"] for d in state["dwarves"] if d["seat"] == seat and d["dwarf"] == number)


def squares_of(state: Any, kind: str) -> list[int]:
    """Path indexes of the squares of ``kind``, front to back."""
    return [i for i, sq in enumerate(state["board"]["path"]) if sq["kind"] == kind]


def printed(state: Any, index: int) -> int:
    return state["board"]["path"][index]["coins"]


def public(events: list[Event]) -> list[Event]:
    return [event for event in events if event.public]


def coins_in_play(state: Any) -> int:
    return state["treasure"] + sum(state["purses"]) + sum(state["chests"]) + state["undistributed"]


# --- game contents and set-up ----------------------------------------------------------


def test_identity():
    """'Players: 2-4.' The game is registered under its slug and title."""
    assert GAME.slug == "dragons-cave"
    assert GAME.title == "Dragon's Cave"
    assert (GAME.min_players, GAME.max_players) == (2, 4)


@pytest.mark.parametrize("players", [0, 1, 5, 6])
def test_player_count_outside_two_to_four_is_refused(players):
    """'Players: 2-4.'"""
    with pytest.raises(BadOptions, match="2 to 4"):
        GAME.roles(players, {})


def test_treasure_holds_44_coins():
    """'44 Gold Coins' ... 'Place the board in the centre of the table with the coins
    arranged next to the Dragon's lair. This is the Dragon's Treasure.'"""
    for players in (2, 3, 4):
        state = new_game(players)
        assert state["treasure"] == 44
        assert GAME.view(state, None)["treasure"] == 44
        assert coins_in_play(state) == 44


def test_each_colour_gets_dwarf_cards_chest_and_purse():
    """'Players choose a colour and take all the items corresponding to their chosen colour:
    1 Dwarf, 1 set of 6 different cards (...), 1 Treasure Chest, 1 Purse.'"""
    roles = GAME.roles(4, {})
    assert [role.key for role in roles] == ["red", "blue", "green", "yellow"]
    assert [role.key for role in GAME.roles(3, {})] == ["red", "blue", "green"]
    state = new_game(4)
    for seat in range(4):
        hand = state["hands"][seat]
        assert len(hand) == TEXT_CARDS == len(set(hand))
        assert sorted(hand) == sorted([*KINDS, "chest"])
        assert [d["dwarf"] for d in state["dwarves"] if d["seat"] == seat] == [1]
        assert state["purses"][seat] == 0
        assert state["chests"][seat] == 0


def test_24_cards_in_four_sets_of_six():
    """'24 Cards (4 sets of 6 cards)' and '4 Dwarves'."""
    state = new_game(4)
    assert sum(len(hand) for hand in state["hands"]) == 24
    assert len(state["dwarves"]) == 4


def test_dwarves_start_outside_the_cave():
    """'Players place their Dwarves on the 'Start' square (outside the cave).'"""
    for players in (2, 3, 4):
        view = GAME.view(new_game(players), None)
        assert {d["square"] for d in view["dwarves"]} == {"start"}


@pytest.mark.parametrize("first", [0, 1, 2])
def test_chosen_player_is_the_dragon_first(first):
    """'The youngest player places the dragon in front of him. For this round, he is
    playing the Dragon.' (Reading: the host names that player with first_dragon.)"""
    state = new_game(3, first_dragon=first)
    assert state["dragon_seat"] == first
    kinds = {prompt.seat: prompt.kind for prompt in GAME.prompts(state)}
    assert kinds[first] == "lair"
    assert [kinds[s] for s in range(3) if s != first] == ["card", "card"]


def test_first_dragon_option_accepts_seat_or_colour():
    assert GAME.parse_options("") == {"first_dragon": 0}
    assert GAME.parse_options(" First_Dragon= Green ") == {"first_dragon": 2}
    assert GAME.parse_options("first_dragon=3") == {"first_dragon": 3}
    # Hosts that split the typed text themselves go through the same schema.
    assert GAME.normalize_options({"first_dragon": " Green "}) == {"first_dragon": 2}


@pytest.mark.parametrize(
    "raw",
    ["first_dragon=purple", "first_dragon=-1", "first_dragon=\u00b2", "first_dragon=4"],
)
def test_bad_first_dragon_is_refused(raw):
    with pytest.raises(BadOptions, match="first_dragon"):
        GAME.parse_options(raw)


def test_unknown_option_is_refused():
    with pytest.raises(BadOptions, match="first_dragon"):
        GAME.parse_options("speed=fast")


def test_first_dragon_beyond_the_table_is_refused():
    options = GAME.parse_options("first_dragon=yellow")
    with pytest.raises(BadOptions, match="0 to 2"):
        GAME.roles(3, options)


def test_setup_checks_the_role_keys():
    with pytest.raises(BadOptions, match="red, blue"):
        GAME.setup(["blue", "red"], {}, random.Random(0))


def test_no_prompts_for_unknown_verbs():
    state = new_game(3)
    with pytest.raises(UnreadableAction, match="card <kind>"):
        act(state, 1, "dance")
    with pytest.raises(UnreadableAction):
        act(state, 1, "")


# --- the board data --------------------------------------------------------------------

DATA = load("dragons_cave", "path")


def test_board_data_is_marked_reconstructed_with_reasons():
    """The rule text gives no board: every board value is listed with a reason."""
    assert DATA["source"]
    assert set(DATA["reconstructed"]) == {"kinds", "sections", "coins", "lair"}
    assert all(len(reason) > 20 for reason in DATA["reconstructed"].values())


def test_five_kinds_each_with_colour_symbol_and_name():
    kinds = DATA["kinds"]
    assert [k["key"] for k in kinds] == KINDS
    for field in ("name", "colour", "symbol"):
        assert len({k[field] for k in kinds}) == 5


def test_four_sections_each_holding_every_kind_once_in_different_orders():
    sections = DATA["sections"]
    assert len(sections) == 4
    assert all(sorted(section) == sorted(KINDS) for section in sections)
    assert len({tuple(section) for section in sections}) == 4
    # No kind sits in the same place in two sections.
    for place in range(5):
        assert len({section[place] for section in sections}) == 4


def test_lair_has_five_squares_one_per_kind():
    """'...places the Dragon on one of the 5 squares in its lair.'"""
    assert sorted(DATA["lair"]) == sorted(KINDS)
    state = new_game(3)
    assert [c.action for c in GAME.legal_actions(state, 0)] == [f"lair {k}" for k in KINDS]


def test_coins_rise_deeper_and_crystal_pays_more():
    coins = DATA["coins"]
    for number, (section, values) in enumerate(zip(DATA["sections"], coins, strict=True)):
        plain = {v for kind, v in zip(section, values, strict=True) if kind != "crystal"}
        crystal = values[section.index("crystal")]
        assert len(plain) == 1 and crystal > max(plain)
        if number:
            assert min(values) >= min(coins[number - 1])
    assert min(coins[-1]) > min(coins[0])


def test_path_in_state_follows_the_data():
    state = new_game(4)
    path = state["board"]["path"]
    assert [sq["kind"] for sq in path] == [k for section in DATA["sections"] for k in section]
    assert [sq["coins"] for sq in path] == [c for section in DATA["coins"] for c in section]


def test_rules_help_lists_reconstructed_values_and_notation():
    text = GAME.rules_help()
    for note in reconstructed_notes(DATA):
        assert note in text
    for word in ("card <kind>", "card chest", "lair <kind>", "split <n>", "hand <player>"):
        assert word in text
    for section in text.split("\n## "):
        assert len(section) < 1900
