"""Dragon's Cave with 3-4 players: one test per sentence of "Playing a Round", "Remember"
and "End of the Game", plus the readings documented in the rules help."""

from __future__ import annotations

import json

import pytest

from engines.base import ActionError, IllegalAction, UnreadableAction
from tests.engines.test_dragons_cave_setup import (
    GAME,
    KINDS,
    act,
    arrange,
    coins_in_play,
    new_game,
    play_round,
    printed,
    public,
    square,
    squares_of,
)

FULL_HAND = [*KINDS, "chest"]


# --- a round -----------------------------------------------------------------------------


def test_one_dragon_and_the_others_play_dwarves():
    """'One player is the Dragon. The other players play as their Dwarves during this
    round.'"""
    state = new_game(4, first_dragon=2)
    prompts = GAME.prompts(state)
    assert sorted((p.seat, p.kind) for p in prompts) == [
        (0, "card"),
        (1, "card"),
        (2, "lair"),
        (3, "card"),
    ]


def test_cards_are_chosen_secretly_and_face_down():
    """'The Dwarves try to move forward along the path by secretly choosing one of their
    cards which they place in front of them, face-down.'"""
    state = new_game(3)
    assert all(p.secret for p in GAME.prompts(state))
    after, events = act(state, 1, "card emerald")
    mine = [e for e in events if e.seat == 1]
    assert mine and "Emerald" in mine[0].text
    for event in public(events):
        blob = (event.text + json.dumps(event.data)).lower()
        assert "emerald" not in blob
    assert [e.text for e in public(events)] == ["1 of 3 choices is in."]
    assert GAME.view(after, None)["played"] == [[], [], []]
    assert GAME.view(after, 1)["my_choice"] == {"card": "emerald", "dwarf": 1}
    assert GAME.view(after, 2)["my_choice"] is None


def test_public_view_does_not_change_with_the_secret_card():
    """Face-down: the public view is the same whatever card was chosen."""
    state = new_game(3)
    views = {json.dumps(GAME.view(act(state, 1, f"card {k}")[0], None)) for k in KINDS}
    views.add(json.dumps(GAME.view(act(state, 1, "card chest")[0], None)))
    assert len(views) == 1


def test_dragon_chooses_one_of_five_lair_squares_secretly():
    """'The player in control of the Dragon then places the Dragon on one of the 5 squares
    in its lair.' (Reading: chosen at the same time as the cards, in secret.)"""
    state = new_game(3)
    lair_prompt = next(p for p in GAME.prompts(state) if p.kind == "lair")
    assert lair_prompt.seat == 0 and lair_prompt.secret
    views = set()
    for kind in KINDS:
        after, events = act(state, 0, f"lair {kind}")
        assert [e.text for e in public(events)] == ["1 of 3 choices is in."]
        assert kind in events[0].text.lower() and events[0].seat == 0
        views.add(json.dumps(GAME.view(after, None)))
        assert GAME.view(after, 0)["my_choice"] == {"lair": kind}
    assert len(views) == 1
    with pytest.raises(UnreadableAction, match="not a card"):
        act(state, 0, "lair chest")


def test_dragon_choosing_first_or_last_gives_the_same_round():
    """Reading: the cards are face down, so the order of the answers changes nothing."""
    state = new_game(3)
    late, _ = play_round(state, {1: "card ruby", 2: "card amber"}, "amber")
    early, _ = act(state, 0, "lair amber")
    early, _ = act(early, 2, "card amber")
    early, _ = act(early, 1, "card ruby")
    for key in ("dwarves", "purses", "treasure", "played", "hands", "phase", "round"):
        assert early[key] == late[key]


def test_players_reveal_their_cards():
    """'Players reveal their cards!'"""
    state = new_game(3)
    state, events = play_round(state, {1: "card ruby", 2: "card chest"}, "sapphire")
    texts = " ".join(e.text for e in public(events))
    assert "Sapphire" in texts and "Ruby" in texts and "Chest card" in texts
    last = GAME.view(state, None)["last_round"]
    assert last["dragon_square"] == "sapphire"
    assert {(p["seat"], p["card"]) for p in last["plays"]} == {(1, "ruby"), (2, "chest")}


def test_uncaught_dwarf_moves_to_first_square_of_its_colour_ahead_and_takes_coins():
    """'Players who have chosen a different square from the one the Dragon is sitting on
    move their Dwarf to the first square of this colour situated in front of their Dwarf.
    Then, they take as many gold coins from the Dragon's Treasure as is shown on their
    square, placing this into their Purse (not in their Chest).'"""
    state = new_game(3)
    here = squares_of(state, "amber")[0]
    state = arrange(state, squares={(1, 1): here}, purses=[0, 3, 0], chests=[0, 2, 0])
    before = state["treasure"]
    state, _ = play_round(state, {1: "card amber", 2: "card crystal"}, "ruby")
    target = next(i for i in squares_of(state, "amber") if i > here)
    first_crystal = squares_of(state, "crystal")[0]
    assert square(state, 1) == target
    assert square(state, 2) == first_crystal
    assert state["purses"][1] == 3 + printed(state, target)
    assert state["chests"][1] == 2
    assert state["purses"][2] == printed(state, first_crystal)
    assert state["treasure"] == before - printed(state, target) - printed(state, first_crystal)


def test_several_dwarves_may_share_a_square():
    """'It's possible for several Dwarves to end up on the same square.'"""
    state = new_game(4)
    state, _ = play_round(state, {1: "card sapphire", 2: "card sapphire", 3: "card ruby"}, "amber")
    assert square(state, 1) == square(state, 2) == squares_of(state, "sapphire")[0]
    view = GAME.view(state, None)
    assert sum(1 for d in view["dwarves"] if d["square"] == square(state, 1)) == 2


def test_played_cards_stay_face_up():
    """'The cards which have just been played are left in front of the players, face-up.'"""
    state = new_game(3)
    state, _ = play_round(state, {1: "card ruby", 2: "card amber"}, "crystal")
    view = GAME.view(state, None)
    assert view["played"] == [[], ["ruby"], ["amber"]]
    assert "ruby" not in GAME.view(state, 1)["hand"]
    assert view["hand_sizes"] == [6, 5, 5]


def test_caught_dwarf_goes_back_to_nearest_square_of_that_colour():
    """'The unlucky players who have chosen the same square as the Dragon are scared.
    Because of this, they must move their Dwarf to the nearest square of the same colour
    situated behind them (...) and they don't get any gold coins.'"""
    state = new_game(3)
    rubies = squares_of(state, "ruby")
    here = rubies[2] + 1
    state = arrange(state, squares={(1, 1): here})
    before = state["treasure"]
    state, events = play_round(state, {1: "card ruby", 2: "card chest"}, "ruby")
    assert square(state, 1) == rubies[2]
    assert state["purses"][1] == 0 and state["treasure"] == before
    assert any("caught" in e.text for e in public(events))


def test_caught_dwarf_with_no_square_of_that_colour_behind_goes_to_start():
    """'(if there isn't one, the Dwarf goes back to the starting square)'"""
    state = new_game(3)
    first_crystal = squares_of(state, "crystal")[0]
    state = arrange(state, squares={(1, 1): first_crystal})
    state, _ = play_round(state, {1: "card crystal", 2: "card ruby"}, "crystal")
    assert square(state, 1) == "start"
    # A Dwarf still on Start stays there when caught.
    state = new_game(3)
    state, _ = play_round(state, {1: "card emerald", 2: "card ruby"}, "emerald")
    assert square(state, 1) == "start"


def test_caught_dwarf_standing_on_that_colour_goes_to_the_one_behind():
    """'...the nearest square of the same colour situated behind them': the square the
    Dwarf stands on is not behind it."""
    state = new_game(3)
    rubies = squares_of(state, "ruby")
    state = arrange(state, squares={(1, 1): rubies[2]})
    state, _ = play_round(state, {1: "card ruby", 2: "card chest"}, "ruby")
    assert square(state, 1) == rubies[1]


def test_caught_player_splits_purse_secretly_between_two_hands():
    """'Each unlucky player secretly distributes all of their gold from their Purse between
    their two hands (Note: They can put all of their coins in just one hand if they want).'"""
    state = arrange(new_game(3), purses=[0, 5, 0])
    state, _ = play_round(state, {1: "card ruby", 2: "card amber"}, "ruby")
    assert state["phase"] == "split"
    prompts = GAME.prompts(state)
    assert [(p.seat, p.kind, p.secret) for p in prompts] == [(1, "split", True)]
    assert [c.action for c in GAME.legal_actions(state, 1)] == [f"split {n}" for n in range(6)]
    for bad in ("split 6", "split -1", "split", "split lots"):
        with pytest.raises(ActionError, match="0 to 5"):
            act(state, 1, bad)
    views = set()
    for left in (0, 2, 5):
        after, events = act(state, 1, f"split {left}")
        assert after["phase"] == "hand"
        assert GAME.view(after, 1)["my_split"] == [left, 5 - left]
        assert str(left) in GAME.view(after, 1)["private"]
        views.add(json.dumps(GAME.view(after, None)))
        for event in public(events):
            assert "coin" not in event.text and "split" not in event.data
    assert len(views) == 1


def test_dragon_picks_a_hand_and_its_coins_return_to_the_treasure():
    """'Then they present their two hands, firmly closed, to the Dragon, who must choose
    one of them. All the gold coins hidden in whichever hand the Dragon chooses must be
    returned to the Dragon's pile of Treasure. The coins which were in the other hand go
    back into the players' Purses and these players return their cards to their hands,
    including those already laid out.'"""
    state = new_game(3)
    state = arrange(state, purses=[0, 5, 0], played=[[], ["emerald", "amber"], []])
    state["hands"][1] = ["ruby", "sapphire", "crystal", "chest"]
    state, _ = play_round(state, {1: "card ruby", 2: "card amber"}, "ruby")
    state, _ = act(state, 1, "split 2")
    prompt = GAME.prompts(state)
    assert [(p.seat, p.kind, p.secret) for p in prompt] == [(0, "hand", False)]
    choices = [c.action for c in GAME.legal_actions(state, 0)]
    assert choices == ["hand blue left", "hand blue right"]
    assert "2" not in " ".join(c.label for c in GAME.legal_actions(state, 0))
    treasure = state["treasure"]
    left, events = act(state, 0, "hand blue left")
    assert left["purses"][1] == 3 and left["treasure"] == treasure + 2
    right, _ = act(state, 0, "Hand  BLUE  right")
    assert right["purses"][1] == 2 and right["treasure"] == treasure + 3
    for after in (left, right):
        assert sorted(after["hands"][1]) == sorted(FULL_HAND)
        assert after["played"][1] == []
        assert after["phase"] == "choose" and after["round"] == 2
    assert "2 coins back to the Treasure" in public(events)[0].text


def test_hand_accepts_the_seat_number_and_a_lone_hand():
    state = arrange(new_game(3), purses=[0, 4, 0])
    state, _ = play_round(state, {1: "card ruby", 2: "card amber"}, "ruby")
    state, _ = act(state, 1, "split 4")
    by_number, _ = act(state, 0, "hand 1 left")
    alone, _ = act(state, 0, "hand left")
    assert by_number["purses"][1] == alone["purses"][1] == 0
    with pytest.raises(UnreadableAction, match=r"left\|right"):
        act(state, 0, "hand blue middle")
    with pytest.raises(IllegalAction, match="no hand"):
        act(state, 0, "hand green left")


def test_caught_player_with_empty_purse_has_nothing_to_split():
    """Reading: with an empty Purse there is nothing to hide, so the round goes on."""
    state = new_game(3)
    state, _ = play_round(state, {1: "card ruby", 2: "card amber"}, "ruby")
    assert state["phase"] == "choose" and state["round"] == 2
    assert sorted(state["hands"][1]) == sorted(FULL_HAND)


def test_several_caught_players_each_split_then_the_dragon_picks_for_each():
    """Reading: every caught player splits in secret; the Dragon picks once all are in."""
    state = arrange(new_game(4), purses=[0, 3, 4, 2])
    state, _ = play_round(state, {1: "card emerald", 2: "card emerald", 3: "card ruby"}, "emerald")
    assert state["phase"] == "split"
    assert sorted(p.seat for p in GAME.prompts(state)) == [1, 2]
    assert GAME.view(state, None)["waiting"] == {"kind": "splits", "done": 0, "total": 2}
    state, _ = act(state, 2, "split 4")
    assert [p.seat for p in GAME.prompts(state)] == [1]
    with pytest.raises(IllegalAction, match="split"):
        act(state, 0, "hand green left")
    state, _ = act(state, 1, "split 0")
    assert GAME.view(state, None)["waiting"] == {"kind": "hands", "done": 0, "total": 2}
    assert {c.group for c in GAME.legal_actions(state, 0)} == {"blue", "green"}
    state, _ = act(state, 0, "hand green right")
    assert state["phase"] == "hand" and state["purses"][2] == 4
    state, _ = act(state, 0, "hand blue right")
    assert state["purses"][1] == 0 and state["round"] == 2
    assert state["treasure"] == 44 - 0 - 4 - state["purses"][3]
    hands = GAME.view(state, None)["last_round"]["hands"]
    assert hands == [
        {"seat": 2, "hand": "right", "returned": 0, "kept": 4},
        {"seat": 1, "hand": "right", "returned": 3, "kept": 0},
    ]


def test_chest_card_stays_put_is_safe_and_locks_the_purse():
    """'Players who have chosen the Chest card don't move their Dwarf. They can't be caught
    by the Dragon during this round of the game. Moreover, they can protect the gold coins
    in their Purses by placing these in their Chests.' (Reading: the whole Purse.)"""
    state = new_game(3)
    here = squares_of(state, "ruby")[1]
    state = arrange(state, squares={(1, 1): here}, purses=[0, 6, 0], chests=[0, 1, 0])
    for lair in KINDS:
        after, events = play_round(state, {1: "card chest", 2: "card amber"}, lair)
        assert square(after, 1) == here
        assert after["purses"][1] == 0 and after["chests"][1] == 7
        assert after["phase"] == "choose"
        private = [e for e in events if e.seat == 1]
        assert private and "7 coins" in private[-1].text
        for event in public(events):
            assert "7" not in event.text


def test_chest_contents_cannot_be_checked():
    """'These coins are completely protected until the end of the game. The contents of the
    Treasure Chests can't be checked.'"""
    state = arrange(new_game(3), chests=[3, 9, 0])
    view = GAME.view(state, None)
    assert view["chests"] == ["hidden"] * 3
    assert "9" not in json.dumps(view["chests"])
    assert GAME.view(state, 1)["chest"] == 9
    assert "Your Chest: 9 coins." in GAME.view(state, 1)["private"]
    assert GAME.view(state, 2)["chest"] == 0


def test_chest_card_takes_back_all_cards():
    """'This also allows them to take back all their cards.'"""
    state = new_game(3)
    state, _ = play_round(state, {1: "card ruby", 2: "card amber"}, "crystal")
    state, _ = play_round(state, {0: "card ruby", 2: "card chest"}, "crystal")
    assert state["played"][2] == [] and sorted(state["hands"][2]) == sorted(FULL_HAND)


def test_played_cards_cannot_be_played_again_until_caught_or_chest():
    """'Cards that have been played remain in front of the players, face-up, until the
    Dragon catches you or that you have played a Treasure Chest card.'"""
    state = new_game(3)
    state, _ = play_round(state, {1: "card ruby", 2: "card amber"}, "crystal")
    # Round 2: Blue is the Dragon; Green still has Ruby but not Amber.
    with pytest.raises(IllegalAction, match="face up"):
        act(state, 2, "card amber")
    assert "card amber" not in [c.action for c in GAME.legal_actions(state, 2)]
    assert "card ruby" in [c.action for c in GAME.legal_actions(state, 2)]


def test_only_the_chest_card_is_left_after_five_moves():
    state = arrange(new_game(3), played=[[], KINDS, []])
    state["hands"][1] = ["chest"]
    assert [c.action for c in GAME.legal_actions(state, 1)] == ["card chest"]


def test_the_dragon_plays_no_card_and_its_dwarf_cannot_be_caught():
    """'The player in control of the Dragon doesn't play any cards and their Dwarf doesn't
    move during this round. Their Dwarf cannot, therefore, be caught by the Dragon.'"""
    state = new_game(3)
    here = squares_of(state, "ruby")[1]
    state = arrange(state, squares={(0, 1): here}, purses=[5, 0, 0])
    with pytest.raises(IllegalAction, match="Dragon this round"):
        act(state, 0, "card ruby")
    assert all(c.action.startswith("lair") for c in GAME.legal_actions(state, 0))
    state, _ = play_round(state, {1: "card emerald", 2: "card sapphire"}, "ruby")
    assert square(state, 0) == here and state["purses"][0] == 5


def test_the_dragon_cannot_take_chest_coins():
    """'The coins placed in the Treasure Chests can't be taken by the Dragon.'"""
    state = arrange(new_game(3), purses=[0, 4, 0], chests=[0, 10, 0])
    state, _ = play_round(state, {1: "card ruby", 2: "card amber"}, "ruby")
    assert [c["purse"] for c in state["catches"]] == [4]
    state, _ = act(state, 1, "split 4")
    state, _ = act(state, 0, "hand blue left")
    assert state["chests"][1] == 10 and state["purses"][1] == 0


def test_reaching_the_lair_needs_a_lair_card_the_dragon_did_not_choose():
    """'Note: To get to the Dragon's lair, players must choose a card corresponding to one
    of the squares in the Dragon's lair. What's more, the Dragon must not choose this same
    square during this round.'"""
    state = new_game(3)
    last_amber = squares_of(state, "amber")[-1]
    state = arrange(state, squares={(1, 1): last_amber, (2, 1): last_amber})
    caught, _ = play_round(state, {1: "card amber", 2: "card chest"}, "amber")
    assert square(caught, 1) == squares_of(state, "amber")[-2]
    assert caught["phase"] == "choose"
    reached, _ = play_round(state, {1: "card amber", 2: "card chest"}, "ruby")
    assert square(reached, 1) == "lair:amber"
    assert reached["phase"] == "over"


def test_a_kind_behind_in_the_last_section_leads_into_the_lair():
    """Reading: 'the first square of this colour in front' is the lair square when no such
    square is left on the path."""
    state = new_game(3)
    last = len(state["board"]["path"]) - 1
    first_of_last_section = last - 4
    kind = state["board"]["path"][first_of_last_section]["kind"]
    state = arrange(state, squares={(1, 1): last})
    other = next(k for k in KINDS if k != kind)
    state, _ = play_round(state, {1: f"card {kind}", 2: "card chest"}, other)
    assert square(state, 1) == f"lair:{kind}"


def test_lair_squares_print_no_coins():
    """Reading: the reward of the lair is the 4-coin bonus at the end, not printed coins."""
    state = new_game(3)
    last = len(state["board"]["path"]) - 1
    state = arrange(state, squares={(1, 1): last})
    treasure = state["treasure"]
    state, _ = play_round(state, {1: "card crystal", 2: "card chest"}, "ruby")
    assert square(state, 1) == "lair:crystal"
    assert state["treasure"] == treasure
    assert state["purses"][1] == 0


def test_dragon_passes_to_the_left_each_round():
    """'The player in control of the Dragon now passes the Dragon to the player on their
    left, and a new round begins.' (Reading: the next seat is on the left.)"""
    state = new_game(4, first_dragon=2)
    seen = []
    for _ in range(5):
        seen.append(state["dragon_seat"])
        dwarves = {s: "card chest" for s in range(4) if s != state["dragon_seat"]}
        state, events = play_round(state, dwarves, "ruby")
    assert seen == [2, 3, 0, 1, 2]
    assert "The Dragon passes to Yellow" in public(events)[-1].text
    assert state["round"] == 6


def test_dragon_passes_after_the_caught_hands_are_settled():
    state = arrange(new_game(3), purses=[0, 2, 0])
    state, _ = play_round(state, {1: "card ruby", 2: "card amber"}, "ruby")
    assert state["dragon_seat"] == 0 and state["round"] == 1
    state, _ = act(state, 1, "split 1")
    state, events = act(state, 0, "hand blue left")
    assert state["dragon_seat"] == 1 and state["round"] == 2
    assert "The Dragon passes to Blue" in public(events)[-1].text


# --- the end of the game -----------------------------------------------------------------


def near_the_end(players: int = 3):
    """Blue's Dwarf on the last path square; all cards in hand."""
    state = new_game(players)
    last = len(state["board"]["path"]) - 1
    return arrange(state, squares={(1, 1): last})


def test_game_ends_at_the_end_of_a_round_in_which_a_dwarf_reached_the_lair():
    """'The game ends at the end of a round where at least one player has managed to reach
    the Dragon's lair.'"""
    state = arrange(near_the_end(), purses=[0, 1, 3])
    state, _ = play_round(state, {1: "card ruby", 2: "card emerald"}, "emerald")
    # Green was caught in the same round: the round (and its hands) ends first.
    assert state["phase"] == "split" and GAME.result(state) is None
    state, _ = act(state, 2, "split 3")
    state, events = act(state, 0, "hand green left")
    assert state["phase"] == "over" and GAME.prompts(state) == []
    assert GAME.result(state) is not None
    assert "Game over" in public(events)[-1].text
    with pytest.raises(IllegalAction, match="over"):
        act(state, 1, "card chest")
    assert all(GAME.legal_actions(state, s) == [] for s in range(3))


def test_lair_bonus_of_four_coins():
    """'Any player who gets to the entrance of the Dragon's lair wins 4 coins.'
    (Reading: counted in the score, not taken from the Treasure.)"""
    state = arrange(near_the_end(), purses=[0, 2, 3], chests=[0, 1, 0])
    treasure = state["treasure"]
    state, _ = play_round(state, {1: "card sapphire", 2: "card ruby"}, "crystal")
    outcome = state["outcome"]
    assert outcome["bonus"] == [0, 4, 0]
    assert outcome["totals"][1] == 2 + 1 + 4
    assert state["treasure"] == treasure - printed(state, squares_of(state, "ruby")[0])
    assert coins_in_play(state) == 44


def test_richest_player_wins_counting_purse_and_chest():
    """'All players count the number of coins found in their Purse and in their Chest. The
    player with the most gold coins wins the game.' / 'The richest player at the end of the
    game wins!'"""
    state = arrange(near_the_end(), purses=[5, 0, 2], chests=[0, 0, 6])
    state, _ = play_round(state, {1: "card ruby", 2: "card chest"}, "crystal")
    # Blue 0 + 4 bonus = 4; Red 5; Green 2 + 6 = 8 (Chest played: 8 in the Chest).
    assert state["outcome"]["totals"] == [5, 4, 8]
    result = GAME.result(state)
    assert result.winners == (2,) and "Green wins with 8 coins" in result.text
    view = GAME.view(state, None)
    assert view["chests"] == [0, 0, 8]
    assert view["result"]["winners"] == [2]


def test_tie_goes_to_the_player_closest_to_the_lair():
    """'In the case of a draw, the player who is closest to the Dragon's lair wins.'"""
    state = near_the_end()
    behind = squares_of(state, "ruby")[1]
    state = arrange(state, squares={(2, 1): behind}, purses=[0, 1, 5])
    state, _ = play_round(state, {1: "card crystal", 2: "card chest"}, "ruby")
    # Blue: 1 + 4 bonus = 5, in the lair; Green: 5 in the Chest, further back.
    assert state["outcome"]["totals"] == [0, 5, 5]
    assert GAME.result(state).winners == (1,)
    assert state["outcome"]["tiebreak"] == "closest"
    # Between two path squares the deeper one wins the tie.
    state = new_game(4)
    last = len(state["board"]["path"]) - 1
    state = arrange(
        state,
        squares={(1, 1): last, (2, 1): 3, (3, 1): 8},
        purses=[0, 0, 9, 9],
    )
    state, _ = play_round(state, {1: "card ruby", 2: "card chest", 3: "card chest"}, "amber")
    assert state["outcome"]["totals"] == [0, 4, 9, 9]
    assert GAME.result(state).winners == (3,)


def test_persisting_tie_shares_the_victory():
    """'If a tie persists, the victory is shared.'"""
    state = new_game(4)
    last = len(state["board"]["path"]) - 1
    state = arrange(state, squares={(1, 1): last, (2, 1): last}, purses=[0, 3, 3, 9])
    state, _ = play_round(state, {1: "card ruby", 2: "card emerald", 3: "card chest"}, "amber")
    assert state["outcome"]["totals"] == [0, 7, 7, 9]
    assert GAME.result(state).winners == (3,)
    state = new_game(4)
    state = arrange(state, squares={(1, 1): last, (2, 1): last}, purses=[0, 3, 3, 0])
    state, _ = play_round(state, {1: "card ruby", 2: "card emerald", 3: "card chest"}, "amber")
    result = GAME.result(state)
    assert result.winners == (1, 2) and "share the victory" in result.text
    assert state["outcome"]["tiebreak"] == "shared"


def test_treasure_too_short_is_shared_equally_and_the_game_ends_at_once():
    """'Note: Very rarely, the game can end immediately when there are no more coins in the
    Dragon's pile of Treasure. If there aren't enough coins in the Dragon's Treasure when
    players go to collect their gold coins, then the remaining coins are distributed equally
    among all the players who have won some gold during this round. If the amount of coins
    is not divisible by the number of players involved then the extra coins are not given
    out.'"""
    state = new_game(4)
    crystal = squares_of(state, "crystal")[-1]
    amber = squares_of(state, "amber")[-1]
    state = arrange(
        state,
        squares={(1, 1): crystal - 1, (2, 1): amber - 1},
        purses=[0, 2, 4, 0],
        chests=[10, 10, 10, 5],
        treasure=3,
    )
    assert coins_in_play(state) == 44
    owed = printed(state, crystal) + printed(state, amber)
    assert owed > 3
    state, events = play_round(state, {1: "card crystal", 2: "card amber", 3: "card ruby"}, "ruby")
    assert state["purses"][1] == 2 + 1 and state["purses"][2] == 4 + 1
    assert state["treasure"] == 0 and state["undistributed"] == 1
    assert coins_in_play(state) == 44
    assert state["phase"] == "over"
    short = GAME.view(state, None)["last_round"]["shortage"]
    assert short == {
        "treasure": 3,
        "owed": owed,
        "players": [1, 2],
        "share": 1,
        "undistributed": 1,
        "text": short["text"],
    }
    assert short["text"].endswith("each of 2 players gets 1 coin and 1 coin is not given out.")
    assert any("ends at once" in e.text for e in public(events))


def test_short_treasure_ends_the_game_before_any_hand_is_picked():
    """Reading: 'ends immediately', so a caught player keeps the Purse."""
    state = new_game(3)
    crystal = squares_of(state, "crystal")[-1]
    state = arrange(state, squares={(1, 1): crystal - 1}, purses=[0, 0, 6], treasure=1)
    state["chests"] = [44 - 1 - 6, 0, 0]
    state, _ = play_round(state, {1: "card crystal", 2: "card ruby"}, "ruby")
    assert state["phase"] == "over" and state["catches"] == []
    assert state["purses"][2] == 6 and state["purses"][1] == 1
    assert coins_in_play(state) == 44


def test_treasure_emptied_exactly_ends_the_game():
    """Reading: 'ends immediately when there are no more coins' covers an exact payout."""
    state = new_game(3)
    state = arrange(state, treasure=1)
    state["chests"] = [43, 0, 0]
    state, _ = play_round(state, {1: "card ruby", 2: "card chest"}, "amber")
    assert state["treasure"] == 0 and state["undistributed"] == 0
    assert state["purses"][1] == 1 and state["phase"] == "over"
    assert state["outcome"]["reason"] == "treasure"


# --- notation and friendly refusals ---------------------------------------------------------


def test_notation_is_case_and_space_tolerant_and_takes_colours():
    state = new_game(3)
    a, _ = act(state, 1, "  CARD   Red ")
    b, _ = act(state, 1, "card ruby")
    assert a == b
    c, _ = act(state, 1, "card purple")
    assert c["cards"][1]["card"] == "crystal"
    d, _ = act(state, 0, "LAIR yellow")
    assert d["lair_choice"] == "amber"


def test_friendly_refusals():
    state = new_game(3)
    with pytest.raises(UnreadableAction, match="not a card I know"):
        act(state, 1, "card diamond")
    with pytest.raises(UnreadableAction, match="Name a card"):
        act(state, 1, "card")
    with pytest.raises(IllegalAction, match="Only the Dragon"):
        act(state, 1, "lair ruby")
    with pytest.raises(IllegalAction, match="no seat"):
        act(state, 7, "card ruby")
    with pytest.raises(IllegalAction, match="Not now"):
        act(state, 1, "split 0")
    locked, _ = act(state, 1, "card ruby")
    with pytest.raises(IllegalAction, match="locked in"):
        act(locked, 1, "card amber")
    dragon, _ = act(state, 0, "lair ruby")
    with pytest.raises(IllegalAction, match="locked in"):
        act(dragon, 0, "lair amber")


@pytest.mark.parametrize("number", ["\u00b2", "\u2460"])
def test_numbers_that_are_not_plain_digits_are_refused_politely(number):
    """Digit-like characters that are not decimal digits get a friendly refusal, not a
    crash."""
    state = new_game(3)
    with pytest.raises(UnreadableAction, match="not a Dwarf"):
        act(state, 1, f"card ruby {number}")
    state = arrange(state, purses=[0, 4, 0])
    state, _ = play_round(state, {1: "card ruby", 2: "card amber"}, "ruby")
    with pytest.raises(UnreadableAction, match="0 to 4"):
        act(state, 1, f"split {number}")
    state, _ = act(state, 1, "split 1")
    with pytest.raises(UnreadableAction, match="no hand"):
        act(state, 0, f"hand {number} left")


def test_illegal_action_leaves_the_state_untouched_and_apply_is_pure():
    state = new_game(3)
    snapshot = json.dumps(state, sort_keys=True)
    with pytest.raises(UnreadableAction):
        act(state, 1, "card nothing")
    act(state, 1, "card ruby")
    play_round(state, {1: "card ruby", 2: "card amber"}, "ruby")
    assert json.dumps(state, sort_keys=True) == snapshot


def test_every_listed_action_is_accepted():
    state = arrange(new_game(4), purses=[0, 3, 0, 0])
    for seat in range(4):
        for choice in GAME.legal_actions(state, seat):
            act(state, seat, choice.action)
    state, _ = play_round(state, {1: "card ruby", 2: "card ruby", 3: "card ruby"}, "ruby")
    for choice in GAME.legal_actions(state, 1):
        after, _ = act(state, 1, choice.action)
        for pick in GAME.legal_actions(after, 0):
            act(after, 0, pick.action)


def test_card_labels_say_where_the_dwarf_goes_and_what_it_earns():
    state = new_game(3)
    labels = {c.action: c.label for c in GAME.legal_actions(state, 1)}
    assert labels["card crystal"] == "Crystal: to square 5 (Crystal), 2 coins"
    assert labels["card chest"].startswith("Chest: stay")


def test_large_purse_splits_are_grouped_for_menus():
    state = arrange(new_game(3), purses=[0, 30, 0])
    state, _ = play_round(state, {1: "card ruby", 2: "card amber"}, "ruby")
    choices = GAME.legal_actions(state, 1)
    assert len(choices) == 31
    assert {c.group for c in choices} == {"left 0-9", "left 10-19", "left 20-29", "left 30-30"}


# --- views ------------------------------------------------------------------------------------


def test_public_view_counts_answers_without_naming_them():
    state = new_game(4)
    state, _ = act(state, 3, "card sapphire")
    state, _ = act(state, 0, "lair crystal")
    view = GAME.view(state, None)
    assert view["waiting"] == {"kind": "choices", "done": 2, "total": 4}
    assert "2 of 4 in" in view["summary"]
    assert view["dragon_square"] is None
    assert "crystal" not in json.dumps(view["last_action"]).lower()


def test_seat_view_has_hand_chest_and_private_words():
    state = arrange(new_game(3), chests=[0, 7, 0], played=[[], ["emerald"], []])
    state["hands"][1] = ["ruby", "sapphire", "amber", "crystal", "chest"]
    state, _ = act(state, 1, "card amber")
    view = GAME.view(state, 1)
    assert view["hand"] == ["ruby", "sapphire", "amber", "crystal", "chest"]
    assert view["chest"] == 7 and view["seat"] == 1 and view["role"] == "blue"
    assert view["private"] == (
        "Your Chest: 7 coins. Cards in hand: Ruby, Sapphire, Amber, Crystal, Chest. "
        "Your card this round: Amber (locked in)."
    )
    assert "private" not in GAME.view(state, None)


def test_dragon_square_shown_once_revealed():
    state = new_game(3)
    state, _ = play_round(state, {1: "card ruby", 2: "card amber"}, "sapphire")
    view = GAME.view(state, None)
    assert view["dragon_square"] == "sapphire"
    assert view["last_round"]["round"] == 1 and view["round"] == 2


def test_views_are_json_ready():
    state = arrange(new_game(3), purses=[0, 2, 0])
    state, _ = play_round(state, {1: "card ruby", 2: "card amber"}, "ruby")
    for seat in (None, 0, 1, 2):
        view = GAME.view(state, seat)
        assert json.loads(json.dumps(view)) == view
        assert isinstance(view["summary"], str) and view["summary"]
