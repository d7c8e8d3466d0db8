"""Dragon's Cave, the 2 Player Variation: one test per sentence, plus its readings."""

from __future__ import annotations

import pytest

from engines.base import IllegalAction
from tests.engines.test_dragons_cave_setup import (
    GAME,
    KINDS,
    act,
    arrange,
    new_game,
    play_round,
    printed,
    public,
    square,
    squares_of,
)


def test_each_player_takes_two_dwarves_purse_chest_and_cards():
    """'Each player takes 2 Dwarves, 1 Purse, 1 Chest and 1 set of 6 different cards.'"""
    assert [role.key for role in GAME.roles(2, {})] == ["red", "blue"]
    state = new_game(2)
    view = GAME.view(state, None)
    assert [(d["seat"], d["dwarf"], d["square"]) for d in view["dwarves"]] == [
        (0, 1, "start"),
        (0, 2, "start"),
        (1, 1, "start"),
        (1, 2, "start"),
    ]
    assert view["two_player"] is True
    assert state["purses"] == [0, 0] and state["chests"] == [0, 0]
    assert all(sorted(hand) == sorted([*KINDS, "chest"]) for hand in state["hands"])


def test_one_dragon_player_and_one_dwarf_player_each_round():
    """'...there is only one player playing the Dragon and one player playing the Dwarves in
    play each round, and players must swap roles throughout the game.'"""
    state = new_game(2, first_dragon=1)
    prompts = sorted((p.seat, p.kind, p.secret) for p in GAME.prompts(state))
    assert prompts == [(0, "card", True), (1, "lair", True)]
    assert GAME.view(state, None)["waiting"] == {"kind": "choices", "done": 0, "total": 2}


def test_dwarf_player_chooses_which_dwarf_moves():
    """'In each round, the Dwarf player plays with both Dwarves. In each round, they must
    choose which of the 2 Dwarves to move.'"""
    state = new_game(2)
    actions = [c.action for c in GAME.legal_actions(state, 1)]
    assert actions == [
        *(f"card {k} 1" for k in KINDS),
        *(f"card {k} 2" for k in KINDS),
        "card chest",
    ]
    assert {c.group for c in GAME.legal_actions(state, 1)} == {"dwarf 1", "dwarf 2", "chest"}
    with pytest.raises(IllegalAction, match="card ruby 1` or `card ruby 2"):
        act(state, 1, "card ruby")
    with pytest.raises(IllegalAction, match="not a Dwarf that can move"):
        act(state, 1, "card ruby 3")
    state, events = play_round(state, {1: "card emerald 2"}, "ruby")
    assert square(state, 1, 2) == squares_of(state, "emerald")[0]
    assert square(state, 1, 1) == "start"
    assert state["purses"][1] == printed(state, squares_of(state, "emerald")[0])
    assert "Blue's Dwarf 2 plays Emerald" in " ".join(e.text for e in public(events))


def test_only_the_moving_dwarf_can_be_caught():
    """'Only the Dwarf who is moving can be caught by the Dragon. The other is protected.'"""
    state = new_game(2)
    ruby = squares_of(state, "ruby")[1]
    state = arrange(state, squares={(1, 1): ruby + 1, (1, 2): ruby + 1})
    state, _ = play_round(state, {1: "card ruby 2"}, "ruby")
    assert square(state, 1, 2) == ruby
    assert square(state, 1, 1) == ruby + 1


def test_roles_switch_when_the_dwarf_player_is_caught():
    """'The players only switch their Dragon/Dwarf roles in one of the following cases:
    The Dwarf player is caught by the Dragon.'"""
    state = arrange(new_game(2), purses=[0, 3])
    state, _ = play_round(state, {1: "card sapphire 1"}, "sapphire")
    assert state["phase"] == "split" and state["dragon_seat"] == 0
    state, _ = act(state, 1, "split 1")
    state, events = act(state, 0, "hand left")
    assert state["dragon_seat"] == 1 and state["round"] == 2
    assert "swap roles: Blue now plays the Dragon" in public(events)[-1].text
    # Caught with an empty Purse switches too.
    state = new_game(2)
    state, _ = play_round(state, {1: "card sapphire 1"}, "sapphire")
    assert state["dragon_seat"] == 1


def test_roles_switch_when_the_dwarf_player_plays_the_chest():
    """'The players only switch their Dragon/Dwarf roles in one of the following cases:
    ... The Dwarf player plays a Treasure Chest card.'"""
    state = arrange(new_game(2), purses=[0, 5])
    state, _ = play_round(state, {1: "card chest"}, "ruby")
    assert state["dragon_seat"] == 1 and state["chests"][1] == 5
    assert [(p.seat, p.kind) for p in GAME.prompts(state)] == [(0, "card"), (1, "lair")]


def test_roles_stay_otherwise():
    """'The players only switch their Dragon/Dwarf roles in one of the following cases'."""
    state = new_game(2)
    for card in ("card ruby 1", "card emerald 2", "card amber 1"):
        state, events = play_round(state, {1: card}, "crystal")
        assert state["dragon_seat"] == 0
    assert "Red stays the Dragon" in public(events)[-1].text
    assert state["round"] == 4


def test_a_dwarf_in_the_lair_does_not_play():
    """Reading: once a Dwarf is in the lair only the other one moves; `card <kind>` then
    needs no Dwarf number."""
    state = new_game(2)
    state = arrange(state, squares={(1, 1): "lair:ruby", (1, 2): 4})
    actions = [c.action for c in GAME.legal_actions(state, 1)]
    assert all(a.endswith(" 2") or a == "card chest" for a in actions)
    with pytest.raises(IllegalAction, match="not a Dwarf that can move"):
        act(state, 1, "card amber 1")
    state, _ = play_round(state, {1: "card amber"}, "crystal")
    assert square(state, 1, 2) == next(i for i in squares_of(state, "amber") if i > 4)
    assert state["phase"] == "choose"


def test_game_ends_when_both_dwarves_of_a_player_reach_the_lair():
    """'The game ends when a player's 2 Dwarves reach the Dragon's lair. The richest player
    (counting gold coins in their Purse and Chest) wins.'"""
    state = new_game(2)
    last = len(state["board"]["path"]) - 1
    state = arrange(state, squares={(1, 1): last, (1, 2): last}, purses=[9, 2], chests=[0, 3])
    state, _ = play_round(state, {1: "card ruby 1"}, "amber")
    assert state["phase"] == "choose"  # one Dwarf in the lair is not the end
    state, _ = play_round(state, {1: "card sapphire"}, "amber")
    assert state["phase"] == "over"
    # Blue 2 + 3 + 4 (lair bonus once) = 9 ties Red's 9; Blue is closer to the lair.
    assert state["outcome"]["totals"] == [9, 9]
    assert state["outcome"]["bonus"] == [0, 4]
    assert GAME.result(state).winners == (1,)


def test_two_player_closeness_adds_both_dwarves():
    """Reading: with 2 players the tie-break adds up both Dwarves' progress."""
    state = new_game(2)
    last = len(state["board"]["path"]) - 1
    state = arrange(
        state,
        squares={(0, 1): "lair:crystal", (0, 2): 0, (1, 1): last, (1, 2): "lair:ruby"},
        purses=[3, 3],
    )
    state, _ = play_round(state, {1: "card emerald"}, "amber")
    # Both have 3 + 4 = 7; Blue has both Dwarves in the lair, Red one in and one at the front.
    assert state["outcome"]["totals"] == [7, 7]
    assert GAME.result(state).winners == (1,)


def test_two_player_treasure_shortage_pays_the_only_winner():
    state = new_game(2)
    crystal = squares_of(state, "crystal")[-1]
    state = arrange(state, squares={(1, 2): crystal - 1}, chests=[42, 0], treasure=2)
    state, _ = play_round(state, {1: "card crystal 2"}, "ruby")
    assert state["purses"][1] == 2 and state["undistributed"] == 0
    assert state["phase"] == "over"
    assert state["last_round"]["shortage"]["players"] == [1]


def test_private_view_names_the_dwarf_of_the_locked_card():
    state = new_game(2)
    state, events = act(state, 1, "card amber 2")
    assert events[0].text == "Your card is locked in: Amber for Dwarf 2."
    assert "Amber for Dwarf 2 (locked in)" in GAME.view(state, 1)["private"]
    assert GAME.view(state, 1)["my_choice"] == {"card": "amber", "dwarf": 2}
