"""Dragonslayer, sentence by sentence: each test quotes the rule it holds the engine to, and
the readings the rules help documents have tests of their own.

The Dragon fight ('Slaying the Dragon and Winning', 'Abandoned Weapons', 'How to Win', the
Battle Display and the Matrix) has tests of its own; those sentences are not tested here.
"""

from __future__ import annotations

import copy
import json
import random
from collections import Counter

import pytest

from engines import data
from engines.base import BadOptions, IllegalAction, UnreadableAction
from engines.dragonslayer.model import load_parties, load_tiles, load_urland
from engines.dragonslayer.state import GAIN_DAY
from tests.engines.dragonslayer_helpers import (
    GAME,
    ROLES,
    act,
    actions,
    castles,
    expected_tiles,
    fresh,
    give,
    kings_man,
    kings_men_turn,
    placed,
    play,
    put_kings_men,
    put_magician,
    rng,
    set_slots,
    set_strength,
    turn,
    where_tiles_are,
    words,
)

AURRIC, GALEN = 0, 1
"""Seats of the two-player table (Aurric and Galen)."""


def start(players: int = 2, seed: int = 0) -> dict:
    """King's men all parked in Castle Morn; the first magician's turn, 3 days."""
    return placed(players, seed)


def days_to(state: dict, seat: int, target: str) -> int | None:
    """What the menu says going to ``target`` costs (None: not offered)."""
    for choice in GAME.legal_actions(state, seat):
        if choice.action == f"go {target}":
            return int(choice.label.rsplit("(", 1)[1].split()[0])
    return None


def magician_at(state: dict, seat: int) -> str:
    return state["magicians"][seat]["where"]


def public_json(state: dict) -> str:
    return json.dumps(GAME.view(state, None), sort_keys=True)


# ---------------------------------------------------------------------------------------
# How to Start the Game


@pytest.mark.parametrize("players", [2, 3, 4])
def test_each_magician_starts_in_its_abode(players):
    """'Each of you selects one magician tile and places it on the map in the space marked as
    your magician's abode.'"""
    state = fresh(players)
    urland = load_urland()
    for seat, role in enumerate(ROLES[players]):
        assert magician_at(state, seat) == f"abode:{role}"
        assert urland.abodes[role].magician == role
        shown = GAME.view(state, None)["magicians"][seat]
        assert shown["where"] == {"kind": "abode", "key": role, "road": None}


def test_unchosen_magicians_are_removed():
    """'If there are fewer than four players in the game, remove the magicians no one
    chooses.'"""
    state = GAME.setup(["merridyds", "galen"], {"magicians": ["merridyds", "galen"]}, rng())
    view = GAME.view(state, None)
    assert [m["key"] for m in view["magicians"]] == ["merridyds", "galen"]
    assert [p["magician"] for p in view["parties"]] == ["merridyds", "galen"]
    assert {km["magician"] for km in view["kings_men"]} == {"merridyds", "galen"}


def test_galen_is_always_played():
    """'One player should always play Galen, whether there are four players or not.'"""
    with pytest.raises(BadOptions, match="Galen"):
        GAME.parse_options("magicians=aurric,merridyds")
    with pytest.raises(BadOptions):
        GAME.roles(2, {"magicians": "aurric,old kyvin"})
    for players in (2, 3, 4):
        assert "galen" in [role.key for role in GAME.roles(players, {})]
    chosen = GAME.parse_options("magicians=Old Kyvin, galen")
    assert chosen == {"magicians": ["old_kyvin", "galen"]}


def test_ulrich_and_the_dragon_shield_start_in_their_boxes():
    """'After placing your magician on the map, put the tiles marked "Ulrich" and "Dragon
    Shield" on their pictures on the map.'"""
    state = fresh(4)
    assert sorted(state["boxes"]) == ["dragon_shield", "ulrich"]
    assert GAME.view(state, None)["boxes"] == {"ulrich": True, "dragon_shield": True}
    dealt = where_tiles_are(state)
    assert dealt["ulrich"] == 0 and dealt["dragon_shield"] == 0


@pytest.mark.parametrize("players", [2, 4])
def test_galen_is_given_three_tiles(players):
    """'Give the "Ulrich's Ashes," "Amulet of Power," and "Hodge" tiles to the Galen
    player.'"""
    state = fresh(players)
    galen = state["roles"].index("galen")
    party = state["parties"][galen]
    assert party["companions"] == ["hodge"]
    assert sorted(party["things"]) == ["amulet_of_power", "ulrichs_ashes"]
    for seat in range(players):
        if seat != galen:
            assert state["parties"][seat] == {"companions": [], "things": [], "kept": []}
    shown = GAME.view(state, None)["parties"][galen]
    assert [c["name"] for c in shown["companions"]] == ["Hodge"]
    assert {t["name"] for t in shown["magic_items"]} == {"Ulrich's Ashes", "Amulet of Power"}


def test_the_dragon_starts_at_strength_five():
    """'Put Vermithrax Pejorative in the "5" box on the map, and place the Dragon Location
    tiles aside.'"""
    state = fresh()
    assert state["dragon"] == 5
    assert GAME.view(state, None)["dragon"] == {"strength": 5}
    dragon_tiles = {t.key for t in load_tiles().dragon_tiles}
    assert not dragon_tiles & set(where_tiles_are(state))


def test_each_player_places_two_kings_men_in_castles():
    """'Next, give each player a set of two King's men tiles. ... Place each of your King's
    men tiles face-down in a castle on the map.'"""
    state = fresh(3)
    all_castles = castles()
    assert Counter(km["seat"] for km in state["kings_men"]) == {0: 2, 1: 2, 2: 2}
    order = []
    while state["phase"] == "place":
        [prompt] = GAME.prompts(state)
        assert prompt.kind == "place" and prompt.seat == state["seat"]
        assert actions(state, prompt.seat) == [f"place {c}" for c in all_castles]
        with pytest.raises(IllegalAction, match="castle"):
            act(state, prompt.seat, "place holloway")
        other = (prompt.seat + 1) % 3
        with pytest.raises(IllegalAction):
            act(state, other, f"place {all_castles[0]}")
        castle = all_castles[len(order) % len(all_castles)]
        state, _ = act(state, prompt.seat, f"place {castle}")
        order.append(prompt.seat)
    assert order == [0, 0, 1, 1, 2, 2]
    assert all(km["at"] in all_castles for km in state["kings_men"])
    assert state["phase"] == "magician" and state["seat"] == 0 and state["days"] == 3


def test_kings_men_strengths_are_dealt_at_random():
    """'Place each of your King's men tiles face-down in a castle on the map.' Face down:
    the tile number says nothing of the strength (the strengths are shuffled)."""
    firsts = set()
    for seed in range(20):
        state = fresh(2, seed)
        strengths = {km["key"]: km["strength"] for km in state["kings_men"]}
        for men in load_parties().kings_men[:1] + load_parties().kings_men[3:]:
            dealt = sorted(strengths[f"{men.key}_{n}"] for n in (1, 2))
            assert dealt == sorted(m.strength for m in men.men)
        firsts.add(strengths["tyrian_1"])
    assert len(firsts) == 2


def test_kings_men_strengths_are_secret_but_known_to_the_owner():
    """'Place each of your King's men tiles face-down in a castle on the map.'"""
    state = placed(3, seed=5)
    public = GAME.view(state, None)
    assert all(km["strength"] is None for km in public["kings_men"])
    for seat in range(3):
        view = GAME.view(state, seat)
        mine = {km["key"]: km["strength"] for km in state["kings_men"] if km["seat"] == seat}
        assert view["my_kings_men"] == mine
        assert all(km["strength"] is None for km in view["kings_men"])
        for key, strength in mine.items():
            name = f"{kings_man(state, key)['number']} strength {strength}"
            assert name in view["private"]


def test_seventy_five_tiles_are_dealt():
    """'The remaining 75 tiles — representing events, companions, magic items, weapons, and
    spells — should all be turned face-down and mixed. Without looking at them, place four of
    these tiles in each of the four towns (Swanscombe, Broadford, Roskill, and Culnakask) and
    two in each of the 21 hamlets. Put the 17 leftover tiles aside without looking at them;
    you will not need these in this game.'"""
    urland = load_urland()
    state = fresh(4, seed=3)
    towns = {p.name for p in urland.of_kind("town")}
    assert towns == {"Swanscombe", "Broadford", "Roskill", "Culnakask"}
    hamlets = urland.of_kind("hamlet")
    assert len(hamlets) == 21
    for town in urland.of_kind("town"):
        assert len(state["slots"][town.key]) == 4 and all(state["slots"][town.key])
    for hamlet in hamlets:
        assert len(state["slots"][hamlet.key]) == 2 and all(state["slots"][hamlet.key])
    assert set(state["slots"]) == {p.key for p in (*urland.of_kind("town"), *hamlets)}
    assert len(state["set_aside"]) == 17
    pool = Counter(load_tiles().deck())
    assert sum(pool.values()) == 75
    dealt = Counter(k for slots in state["slots"].values() for k in slots)
    assert dealt + Counter(state["set_aside"]) == pool
    view = GAME.view(state, None)
    assert sum(view["face_down"].values()) == 58 and view["set_aside"] == 17
    other = fresh(4, seed=4)
    assert other["slots"] != state["slots"]


# ---------------------------------------------------------------------------------------
# How to Play Your Turn


def test_turn_order_is_aurric_merridyds_old_kyvin_galen():
    """'Players always take their turns in this order: Aurric, Merridyds, Old Kyvin, and
    Galen.'"""
    assert [r.key for r in GAME.roles(4, {})] == ["aurric", "merridyds", "old_kyvin", "galen"]
    chosen = GAME.parse_options("magicians=galen,old_kyvin,aurric")["magicians"]
    assert chosen == ["aurric", "old_kyvin", "galen"]
    with pytest.raises(BadOptions):
        GAME.setup(["galen", "aurric"], {}, rng())
    state = placed(4)
    seen = []
    for _ in range(6):
        seat = state["seat"]
        seen.append((state["turn"], state["roles"][seat]))
        assert GAME.prompts(state)[0].seat == seat
        state, _ = play(state, [(seat, "done"), (seat, "done")])
    assert seen == [
        (1, "aurric"),
        (1, "merridyds"),
        (1, "old_kyvin"),
        (1, "galen"),
        (2, "aurric"),
        (2, "merridyds"),
    ]


def test_magician_spends_three_days_then_each_kings_man_three():
    """'Each of your turns represents 3 days, and everything you do during your turn is
    measured by the number of days it takes. In each of your turns, your magician can spend up
    to 3 days, and then each of your King's men can spend up to 3 days.'"""
    state = start()
    assert state["days"] == 3 and GAME.view(state, None)["days_left"] == 3
    with pytest.raises(IllegalAction):
        act(state, AURRIC, "k1 kelderby")
    state, _ = play(state, [(AURRIC, "go north_sea"), (AURRIC, "go caerlow")])
    assert state["phase"] == "magician" and state["days"] == 1
    state, _ = act(state, AURRIC, "go glenarrow")
    assert state["phase"] == "kings_men"
    for place in ("kelderby", "nethercombe", "stonyford"):
        assert state["seat"] == AURRIC
        state, _ = act(state, AURRIC, f"k1 {place}")
    assert kings_man(state, "tyrian_1")["at"] == "stonyford"
    assert state["active"] is None and "tyrian_1" in state["finished"]
    for place in ("pennick", "ivybridge", "greyhold"):
        state, _ = act(state, AURRIC, f"k2 {place}")
    assert kings_man(state, "tyrian_2")["at"] == "greyhold"
    assert state["seat"] == GALEN and state["phase"] == "magician" and state["days"] == 3


def test_one_kings_man_finishes_before_the_other_begins():
    """'One of your King's men tiles must finish moving and challenging before your other
    King's men tile can begin.'"""
    state = kings_men_turn(start(), AURRIC)
    state, _ = act(state, AURRIC, "k1 kelderby")
    assert state["active"] == "tyrian_1" and state["days"] == 2
    with pytest.raises(IllegalAction, match="must finish moving first"):
        act(state, AURRIC, "k2 pennick")
    assert all(c.group == "k1" for c in GAME.legal_actions(state, AURRIC) if c.group)
    state, _ = act(state, AURRIC, "done")
    with pytest.raises(IllegalAction, match="cannot move again"):
        act(state, AURRIC, "k1 broadford")
    state, _ = act(state, AURRIC, "k2 pennick")
    with pytest.raises(IllegalAction, match="must finish moving first"):
        act(state, AURRIC, "k1 broadford")
    state, _ = play(state, [(AURRIC, "done")])
    assert state["seat"] == GALEN


# ---------------------------------------------------------------------------------------
# Spending days


def test_a_road_into_a_place_costs_a_day():
    """'It costs you one day when your magician: Moves along a road into any place in
    Urland.'"""
    state = put_magician(start(), AURRIC, "holloway")
    assert days_to(state, AURRIC, "broadford") == 1
    state, _ = act(state, AURRIC, "go broadford")
    assert magician_at(state, AURRIC) == "place:broadford" and state["days"] == 2
    with pytest.raises(IllegalAction, match="go"):
        act(state, AURRIC, "go roskill")  # no road from Broadford to Roskill


def test_port_to_sea_and_back_cost_a_day():
    """'Moves from a port to a sea zone or from a sea zone to a port.'"""
    state = put_magician(start(), AURRIC, "swanscombe")
    state, _ = act(state, AURRIC, "go west_sea")
    assert magician_at(state, AURRIC) == "sea:west_sea" and state["days"] == 2
    state, _ = act(state, AURRIC, "go swanscombe")
    assert magician_at(state, AURRIC) == "place:swanscombe" and state["days"] == 1
    inland = put_magician(start(), AURRIC, "holloway")
    assert not [a for a in actions(inland, AURRIC) if a.endswith("_sea")]


def test_sea_zone_to_neighbouring_sea_zone_costs_a_day():
    """'Moves from one sea zone into a neighboring sea zone.'"""
    state = put_magician(start(), AURRIC, "sea:west_sea")
    seas = {a for a in actions(state, AURRIC) if a.endswith("_sea")}
    assert seas == {"go sunset_sea", "go north_sea"}
    with pytest.raises(IllegalAction):
        act(state, AURRIC, "go east_sea")
    state, _ = act(state, AURRIC, "go north_sea")
    state, _ = act(state, AURRIC, "go grey_sea")
    assert magician_at(state, AURRIC) == "sea:grey_sea" and state["days"] == 1


def test_taking_a_tile_costs_a_day():
    """'Takes a tile in a hamlet or town.'"""
    state = put_magician(start(), AURRIC, "holloway")
    set_slots(state, "holloway", ["elspeth", "hart_bow"])
    state, _ = act(state, AURRIC, "take a")
    assert state["days"] == 2 and state["parties"][AURRIC]["companions"] == ["elspeth"]
    state, _ = act(state, AURRIC, "take b")
    assert state["days"] == 1
    state, _ = act(state, AURRIC, "go broadford")
    assert state["phase"] == "kings_men"


def test_the_last_tile_of_a_place_needs_no_letter():
    """Notation: `take <slot>`; with one face-down tile left, `take` alone takes it."""
    state = put_magician(start(), AURRIC, "holloway")
    set_slots(state, "holloway", ["elspeth", "maud"])
    with pytest.raises(IllegalAction, match="take <slot>"):
        act(state, AURRIC, "take")
    state, _ = act(state, AURRIC, "take B")
    state, _ = act(state, AURRIC, "take")
    assert state["parties"][AURRIC]["companions"] == ["maud", "elspeth"]


def test_no_tile_can_be_taken_where_none_lie():
    """'Takes a tile in a hamlet or town.' At sea, on the road or in an emptied place there
    is nothing to take."""
    state = put_magician(start(), AURRIC, "sea:west_sea")
    with pytest.raises(IllegalAction, match="towns and hamlets only"):
        act(state, AURRIC, "take a")
    state = put_magician(start(), AURRIC, "holloway")
    set_slots(state, "holloway", [None, None])
    with pytest.raises(IllegalAction, match="no face-down tile"):
        act(state, AURRIC, "take a")
    assert not [a for a in actions(state, AURRIC) if a.startswith("take")]


def test_a_thing_put_down_in_a_castle_is_not_taken_there():
    """'Takes a tile in a hamlet or town.' A thing a party put down in a castle lies there
    face down; no tile is taken in a castle."""
    state = put_magician(start(), AURRIC, "greyhold")
    set_slots(state, "greyhold", ["hart_bow"])
    with pytest.raises(IllegalAction, match="towns and hamlets only"):
        act(state, AURRIC, "take a")
    assert not [a for a in actions(state, AURRIC) if a.startswith("take")]


@pytest.mark.parametrize("players", [2, 4])
def test_first_move_is_to_the_sea_zone_by_the_abode(players):
    """'Since you start the game in your abode, you will have to go to sea to reach Urland.
    Spend your first day to move your magician to the sea zone that borders your abode.'"""
    state = placed(players)
    urland = load_urland()
    for seat, role in enumerate(ROLES[players]):
        turn(state, seat)
        sea = urland.abodes[role].sea
        assert [a for a in actions(state, seat) if a.startswith("go")] == [f"go {sea}"]
        port = urland.ports_on(sea)[0].key
        with pytest.raises(IllegalAction):
            act(state, seat, f"go {port}")
        after, _ = act(state, seat, f"go {sea}")
        assert magician_at(after, seat) == f"sea:{sea}" and after["days"] == 2


def test_second_day_crosses_to_a_sea_zone_or_lands_at_the_port():
    """'You can spend your second day moving from the sea zone you are in, across a sea zone
    boundary, into a neighboring sea zone; or you can land in Urland in the port that borders
    the sea zone you are already in.'"""
    state, _ = act(start(), AURRIC, "go north_sea")
    goes = {a for a in actions(state, AURRIC) if a.startswith("go")}
    assert goes == {"go west_sea", "go grey_sea", "go caerlow"}


def test_third_day_after_sea_goes_to_sea_or_lands():
    """'If you spent your second day moving into a sea zone, you can spend your third day
    moving into another sea zone, or you can land in Urland.'"""
    state, _ = play(start(), [(AURRIC, "go north_sea"), (AURRIC, "go west_sea")])
    goes = {a for a in actions(state, AURRIC) if a.startswith("go")}
    assert goes == {"go sunset_sea", "go north_sea", "go swanscombe"}
    state, _ = act(state, AURRIC, "go swanscombe")
    assert magician_at(state, AURRIC) == "place:swanscombe"


def test_third_day_after_landing_takes_a_road_or_a_tile():
    """'If you spent your second day landing in Urland, you can spend your third day moving
    along a road from the port you landed in to another place in Urland; or you can take one
    of the tiles from the port in which you landed.'"""
    state, _ = play(start(), [(AURRIC, "go north_sea"), (AURRIC, "go caerlow")])
    menu = set(actions(state, AURRIC))
    roads = {f"go {p}" for p in load_urland().neighbours("caerlow")}
    assert roads | {"go north_sea", "take a", "take b", "done"} == menu
    state, _ = act(state, AURRIC, "take b")
    assert state["days"] == 0 and state["slots"]["caerlow"][1] is None


def test_after_three_days_the_magician_does_nothing_more():
    """'Once your magician has spent 3 days, he can do nothing until your next turn.'"""
    state, _ = play(
        start(), [(AURRIC, "go north_sea"), (AURRIC, "go caerlow"), (AURRIC, "go dunmere")]
    )
    assert state["phase"] == "kings_men"
    assert not [a for a in actions(state, AURRIC) if a.startswith(("go", "take"))]
    with pytest.raises(IllegalAction):
        act(state, AURRIC, "go glenarrow")
    assert magician_at(state, AURRIC) == "place:dunmere"


def test_other_turns_never_return_to_the_abode():
    """'Each of your turns is similar to the first, except that you will not be coming to
    Urland from your abode.'"""
    state, _ = act(start(), AURRIC, "go north_sea")
    assert not [a for a in actions(state, AURRIC) if "abode" in a or a == "go aurric"]
    with pytest.raises(UnreadableAction):
        act(state, AURRIC, "go aurric")


def test_an_extra_day_to_enter_a_place_with_kings_men():
    """'A magician must always spend an extra day to enter any place that has a King's men
    tile in it.'"""
    state = put_magician(start(), AURRIC, "holloway")
    put_kings_men(state, "cuthred_1", "broadford")
    assert days_to(state, AURRIC, "broadford") == 2
    assert days_to(state, AURRIC, "swanscombe") == 1
    state, _ = act(state, AURRIC, "go broadford")
    assert state["days"] == 1
    sea = put_magician(start(), AURRIC, "sea:west_sea")
    put_kings_men(sea, "cuthred_1", "swanscombe")
    assert days_to(sea, AURRIC, "swanscombe") == 2


def test_a_day_to_leave_a_place_with_kings_men():
    """'A magician must also spend a day to leave any place that has a King's men tile in
    it.'"""
    state = put_magician(start(), AURRIC, "swanscombe")
    put_kings_men(state, "cuthred_1", "swanscombe")
    assert days_to(state, AURRIC, "ashby_fell") == 2
    assert days_to(state, AURRIC, "west_sea") == 2
    put_kings_men(state, "cuthred_2", "holloway")
    assert days_to(state, AURRIC, "holloway") == 3
    state, _ = act(state, AURRIC, "go holloway")
    assert state["days"] == 0 and state["phase"] == "kings_men"


def test_own_kings_men_cost_days_too():
    """'This is true even if your own magician enters or leaves a place with your own King's
    men in it.'"""
    state = put_magician(start(), AURRIC, "holloway")
    put_kings_men(state, "tyrian_1", "holloway")
    put_kings_men(state, "tyrian_2", "broadford")
    assert days_to(state, AURRIC, "broadford") == 3
    assert days_to(state, AURRIC, "swanscombe") == 2


def test_a_move_costing_more_days_than_are_left_is_refused():
    """'A magician must always spend an extra day to enter any place that has a King's men
    tile in it.' With one day left, such a place cannot be entered."""
    state = turn(put_magician(start(), AURRIC, "holloway"), AURRIC, days=1)
    put_kings_men(state, "cuthred_1", "broadford")
    before = copy.deepcopy(state)
    with pytest.raises(IllegalAction, match="costs 2 days"):
        act(state, AURRIC, "go broadford")
    assert state == before
    assert days_to(state, AURRIC, "broadford") is None
    assert days_to(state, AURRIC, "swanscombe") == 1


# ---------------------------------------------------------------------------------------
# Taking Tiles and Forming Your Party


def taker(
    things: tuple[str, ...] = (),
    companions: tuple[str, ...] = (),
    seat: int = AURRIC,
    slots: tuple[str | None, ...] = ("hart_bow", "elspeth"),
    days: int = 3,
) -> dict:
    """``seat``'s magician in Holloway with ``days`` days, the party given, Holloway's slots
    set (King's men parked far away)."""
    state = turn(start(), seat, days)
    put_magician(state, seat, "holloway")
    give(state, seat, companions=companions, things=things)
    return set_slots(state, "holloway", list(slots))


def test_an_instruction_tile_is_followed_and_removed():
    """'When you take a tile, you will find that it gives you instructions, or it represents
    a companion or thing. If the tile instructs you to do something, you must follow those
    instructions immediately and then remove the tile from the game.'"""
    state = taker(slots=("companion_killed", "hart_bow"), companions=("elspeth",))
    state, events = act(state, AURRIC, "take a")
    assert state["removed"] == ["companion_killed", "elspeth"]
    assert state["slots"]["holloway"] == [None, "hart_bow"]
    assert GAME.view(state, None)["face_down"]["holloway"] == 1
    assert "Companion Killed" in words(events)


def test_a_companion_joins_the_party():
    """'If the tile is a companion, it becomes part of your party of people who will help
    your magician try to slay the Dragon.'"""
    state, events = act(taker(slots=("elspeth", "maud")), AURRIC, "take b")
    assert state["parties"][AURRIC]["companions"] == ["maud"]
    party = GAME.view(state, None)["parties"][AURRIC]
    assert party["people"] == 2 and [c["key"] for c in party["companions"]] == ["maud"]
    assert "Maud joins the party" in words(events)


def test_a_thing_joins_the_party_when_it_can_be_carried():
    """'If the tile is a thing (weapon, spell, or magic item), you may be able to add it to
    your party, provided you have enough companions to carry it.'"""
    state, _ = act(taker(slots=("hart_bow", "spell_of_storms")), AURRIC, "take a")
    state, _ = act(state, AURRIC, "take b")
    assert state["parties"][AURRIC]["things"] == ["hart_bow", "spell_of_storms"]
    assert not state["pending"]


def test_weapons_never_outnumber_people():
    """'You can never have more weapons than you have people (including your magician) in
    your party.'"""
    alone = taker(things=("axe_of_ardanna",))
    state, _ = act(alone, AURRIC, "take a")
    assert state["parties"][AURRIC]["things"] == ["axe_of_ardanna"]
    assert state["pending"][0]["kind"] == "keep" and state["pending"][0]["tile"] == "hart_bow"
    escorted = taker(things=("axe_of_ardanna",), companions=("maud",))
    state, _ = act(escorted, AURRIC, "take a")
    assert state["parties"][AURRIC]["things"] == ["axe_of_ardanna", "hart_bow"]
    assert GAME.view(state, None)["parties"][AURRIC]["carry"]["weapons"] == [2, 2]


def test_losing_a_companion_may_force_a_weapon_down():
    """'This means that, if you lose a companion, you may have to drop one of your weapons
    (place it face down in your present location).'"""
    state = taker(
        things=("axe_of_ardanna", "black_bow"),
        companions=("maud",),
        slots=("companion_killed", None),
    )
    state, _ = act(state, AURRIC, "take a")
    assert state["parties"][AURRIC]["companions"] == []
    [decision] = state["pending"]
    assert decision["kind"] == "drop" and decision["seat"] == AURRIC
    assert sorted(actions(state, AURRIC)) == ["drop axe_of_ardanna", "drop black_bow"]
    state, events = act(state, AURRIC, "drop Black Bow")
    assert state["parties"][AURRIC]["things"] == ["axe_of_ardanna"]
    assert "black_bow" in state["slots"]["holloway"]
    assert GAME.view(state, None)["face_down"]["holloway"] == 1
    assert "face down at Holloway" in words(events)
    # Everyone saw it leave the party, so everyone knows what lies there.
    for seat in (AURRIC, GALEN):
        assert GAME.view(state, seat)["memory"] == {"holloway/a": "black_bow"}
    assert state["phase"] == "magician" and state["days"] == 2


def test_spells_and_magic_items_are_limited_by_pentacles():
    """'You can never have more spells and magic items (together) than your magician can
    carry. Your magician can carry as many spells and magic items as he has pentacles (star
    symbols) on the bottom of his tile.'"""
    pentacles = load_parties().magicians["aurric"].pentacles
    carried = ("spell_of_storms", "silver_ewer", "spell_of_agility", "far_mirror")[:pentacles]
    state = taker(things=carried[:-1], slots=(carried[-1], "anti_fire_spell", "hart_bow"))
    state, _ = act(state, AURRIC, "take a")
    assert not state["pending"] and len(state["parties"][AURRIC]["things"]) == pentacles
    full = copy.deepcopy(state)
    state, _ = act(state, AURRIC, "take b")
    assert state["pending"][0]["kind"] == "keep"
    assert state["parties"][AURRIC]["things"] == full["parties"][AURRIC]["things"]
    # A weapon is carried by people, not pentacles.
    state, _ = act(full, AURRIC, "take c")
    assert "hart_bow" in state["parties"][AURRIC]["things"]


def test_a_tile_that_cannot_be_carried_is_shown_to_its_taker_only():
    """'If you take a tile and find that you cannot carry it, you must either put it back,
    face-down, where you found it, or keep that tile and replace it with one of your other
    tiles.' The decision is a secret prompt to the taker."""
    state, events = act(taker(things=("axe_of_ardanna",)), AURRIC, "take a")
    [prompt] = GAME.prompts(state)
    assert prompt.seat == AURRIC and prompt.kind == "keep" and prompt.secret
    public = [e for e in events if e.public]
    private = [e for e in events if not e.public]
    assert all("Hart Bow" not in e.text and "hart_bow" not in str(e.data) for e in public)
    assert private and all(e.seat == AURRIC for e in private)
    assert private[0].data == {"tile": "hart_bow"}
    assert GAME.view(state, AURRIC)["looking_at"] == "hart_bow"
    assert "looking_at" not in GAME.view(state, GALEN)
    assert "hart_bow" not in public_json(state)
    assert "Hart Bow" not in public_json(state) and "hart_bow" not in json.dumps(
        GAME.view(state, GALEN)
    )
    assert set(actions(state, AURRIC)) == {"return", "swap axe_of_ardanna"}
    assert actions(state, GALEN) == []
    with pytest.raises(IllegalAction):
        act(state, GALEN, "return")


def test_a_tile_put_back_lies_in_its_slot_and_its_taker_remembers_it():
    """'... you must either put it back, face-down, where you found it ...'"""
    state, _ = act(taker(things=("axe_of_ardanna",)), AURRIC, "take a")
    state, events = act(state, AURRIC, "return")
    assert state["slots"]["holloway"] == ["hart_bow", "elspeth"]
    assert state["parties"][AURRIC]["things"] == ["axe_of_ardanna"]
    assert GAME.view(state, AURRIC)["memory"] == {"holloway/a": "hart_bow"}
    assert "Hart Bow" in GAME.view(state, AURRIC)["private"]
    assert GAME.view(state, GALEN)["memory"] == {}
    assert "Hart Bow" not in GAME.view(state, GALEN)["private"]
    assert "hart_bow" not in public_json(state) + json.dumps(GAME.view(state, GALEN))
    assert all("Hart Bow" not in e.text for e in events if e.public)
    assert state["days"] == 2 and state["phase"] == "magician"
    # Whoever takes the slot later makes everyone forget it.
    turn(state, GALEN)
    put_magician(state, GALEN, "holloway")
    state, _ = act(state, GALEN, "take a")
    assert state["memory"][AURRIC] == {}


def test_swapping_keeps_the_tile_and_leaves_another_where_everyone_knows():
    """'... or keep that tile and replace it with one of your other tiles.'"""
    state, _ = act(taker(things=("axe_of_ardanna",)), AURRIC, "take a")
    state, events = act(state, AURRIC, "  SWAP   Axe of Ardanna ")
    assert state["parties"][AURRIC]["things"] == ["hart_bow"]
    assert state["slots"]["holloway"] == ["axe_of_ardanna", "elspeth"]
    for seat in (AURRIC, GALEN):
        assert GAME.view(state, seat)["memory"] == {"holloway/a": "axe_of_ardanna"}
    assert "Axe of Ardanna" in words(events) and not state["pending"]


def test_only_a_thing_of_the_same_load_can_be_swapped():
    """'... or keep that tile and replace it with one of your other tiles.' (A weapon for a
    weapon, a spell or magic item for a spell or magic item.)"""
    state = taker(
        things=("axe_of_ardanna", "spell_of_storms", "silver_ewer"), slots=("anti_fire_spell", None)
    )
    state, _ = act(state, AURRIC, "take a")
    assert set(actions(state, AURRIC)) == {"return", "swap spell_of_storms", "swap silver_ewer"}
    with pytest.raises(IllegalAction, match="swap it for"):
        act(state, AURRIC, "swap axe_of_ardanna")


def test_galen_carries_the_ashes_and_one_more():
    """'Note to the Galen Player: Galen can always carry Ulrich's Ashes (a magic item) plus
    one other spell or magic item, even though he has only one pentacle on his tile.'"""
    assert load_parties().magicians["galen"].pentacles == 1
    state = taker(seat=GALEN, slots=("spell_of_storms", None))
    assert GAME.view(state, None)["parties"][GALEN]["carry"]["magic"] == [1, 1]
    state, _ = act(state, GALEN, "take a")
    assert state["pending"][0]["kind"] == "keep"
    assert set(actions(state, GALEN)) == {"return", "swap amulet_of_power"}
    with pytest.raises(IllegalAction):
        act(state, GALEN, "swap ulrichs_ashes")
    state, _ = act(state, GALEN, "swap amulet_of_power")
    assert sorted(state["parties"][GALEN]["things"]) == ["spell_of_storms", "ulrichs_ashes"]


def test_ulrich_carries_three_more_for_galen():
    """'Note that Ulrich can carry up to three magic items and/or spells for Galen.'"""
    state = taker(
        seat=GALEN, slots=("spell_of_storms", "silver_ewer", "far_mirror", "spell_of_agility")
    )
    give(state, GALEN, companions=("ulrich",))
    state["days"] = 4
    for letter in "abc":
        state, _ = act(state, GALEN, f"take {letter}")
        assert not state["pending"]
    assert GAME.view(state, None)["parties"][GALEN]["carry"]["magic"] == [4, 4]
    state, _ = act(state, GALEN, "take d")
    assert state["pending"][0]["kind"] == "keep"


def test_losing_ulrich_makes_galen_drop_a_spell_or_magic_item():
    """'Note that Ulrich can carry up to three magic items and/or spells for Galen.' Without
    him, what he carried is put down where the party stands."""
    state = taker(seat=GALEN, things=("spell_of_storms",), slots=("companion_killed", None))
    give(state, GALEN, companions=("ulrich",))
    state["parties"][GALEN]["companions"] = ["ulrich"]
    state["removed"].append("hodge")
    state, _ = act(state, GALEN, "take a")
    assert "ulrich" in state["removed"]
    assert state["pending"] == [{"kind": "drop", "seat": GALEN, "what": "magic"}]
    assert set(actions(state, GALEN)) == {"drop amulet_of_power", "drop spell_of_storms"}
    state, _ = act(state, GALEN, "drop spell_of_storms")
    assert sorted(state["parties"][GALEN]["things"]) == ["amulet_of_power", "ulrichs_ashes"]
    assert "spell_of_storms" in state["slots"]["holloway"]


def test_the_party_is_on_the_table_and_the_magician_on_the_map():
    """'All the companions and things in your party should be kept off the map in front of
    you; only your magician (and your King's men) should be on the map.'"""
    state, _ = act(taker(slots=("hart_bow", "elspeth")), AURRIC, "take a")
    state, _ = act(state, AURRIC, "take b")
    view = GAME.view(state, None)
    party = view["parties"][AURRIC]
    assert [t["key"] for t in party["weapons"]] == ["hart_bow"]
    assert [c["key"] for c in party["companions"]] == ["elspeth"]
    assert view["magicians"][AURRIC]["where"]["key"] == "holloway"
    assert "holloway" not in view["face_down"]


# ---------------------------------------------------------------------------------------
# Special Tile Summary: the event tiles


def test_delayed_loses_the_rest_of_this_turn_and_the_next():
    """'Delayed. When you take one of these, your magician loses whatever days he has
    remaining this turn and he loses the next turn completely.'"""
    state = taker(slots=("delayed", "hart_bow"))
    give(state, AURRIC, kept=(GAIN_DAY,))
    state, _ = act(state, AURRIC, "take a")
    assert "delayed" in state["removed"]
    # No more days, not even with a Gain One Day tile in hand.
    assert state["phase"] == "kings_men" and "gain" not in actions(state, AURRIC)
    assert GAME.view(state, None)["magicians"][AURRIC]["status"].startswith("delayed")
    state, _ = play(state, [(AURRIC, "done"), (GALEN, "done"), (GALEN, "done")])
    assert state["seat"] == AURRIC and state["phase"] == "kings_men"
    assert state["magicians"][AURRIC] == {
        "where": "place:holloway",
        "lost": 0,
        "delayed": False,
        "out": False,
    }
    state, _ = play(state, [(AURRIC, "done"), (GALEN, "done"), (GALEN, "done")])
    assert state["seat"] == AURRIC and state["phase"] == "magician" and state["days"] == 3


def test_a_delayed_magician_may_not_take_the_road():
    """'If you are challenged while delayed, you may not take the road.'"""
    state, _ = act(taker(slots=("delayed", None)), AURRIC, "take a")
    state, _ = act(state, AURRIC, "done")
    put_kings_men(state, "cuthred_1", "swanscombe")
    state, _ = play(state, [(GALEN, "done"), (GALEN, "k1 holloway")])
    state, _ = act(state, GALEN, "challenge aurric")
    assert actions(state, AURRIC) == ["accept"]
    with pytest.raises(IllegalAction, match="delayed"):
        act(state, AURRIC, "road broadford")


def test_item_stolen_takes_a_thing_of_the_players_choice():
    """'Item Stolen. When you take one of these, remove one of your weapons, spells, or magic
    items from the game; if you have none, ignore this tile.'"""
    state = taker(things=("hart_bow", "silver_ewer"), slots=("item_stolen", None))
    state, _ = act(state, AURRIC, "take a")
    assert set(actions(state, AURRIC)) == {"lose hart_bow", "lose silver_ewer"}
    with pytest.raises(IllegalAction):
        act(state, AURRIC, "lose elspeth")
    state, _ = act(state, AURRIC, "lose silver ewer")
    assert state["parties"][AURRIC]["things"] == ["hart_bow"]
    assert sorted(state["removed"]) == ["item_stolen", "silver_ewer"]
    empty, events = act(taker(slots=("item_stolen", None)), AURRIC, "take a")
    assert not empty["pending"] and empty["removed"] == ["item_stolen"]
    assert "nothing to steal" in words(events)


def test_item_stolen_never_takes_ulrichs_ashes():
    """'Galen can never lose Ulrich's Ashes in any other way.' With the Amulet the only
    other thing, the Amulet is stolen at once."""
    state, _ = act(taker(seat=GALEN, slots=("item_stolen", None)), GALEN, "take a")
    assert not state["pending"]
    assert state["parties"][GALEN]["things"] == ["ulrichs_ashes"]
    again = set_slots(turn(state, GALEN), "holloway", ["item_stolen", None])
    again, events = act(again, GALEN, "take a")
    assert again["parties"][GALEN]["things"] == ["ulrichs_ashes"]
    assert "nothing to steal" in words(events)


def test_companion_killed_removes_a_companion_of_the_players_choice():
    """'Companion Killed. When you take one of these, remove one of your companions from the
    game; if you have none, ignore this tile.'"""
    state = taker(companions=("maud", "wulfstan"), slots=("companion_killed", None))
    state, _ = act(state, AURRIC, "take a")
    assert set(actions(state, AURRIC)) == {"lose maud", "lose wulfstan"}
    state, _ = act(state, AURRIC, "lose wulfstan")
    assert state["parties"][AURRIC]["companions"] == ["maud"]
    assert "wulfstan" in state["removed"]
    alone, events = act(taker(slots=("companion_killed", None)), AURRIC, "take a")
    assert not alone["pending"] and "has no companion" in words(events)
    assert alone["removed"] == ["companion_killed"]


def test_companion_deserts_takes_a_companion_and_a_weapon():
    """'Companion Deserts. When you take one of these, remove one companion and one weapon
    from the game'"""
    state = taker(
        companions=("maud", "wulfstan"),
        things=("hart_bow", "black_bow"),
        slots=("companion_deserts", None),
    )
    state, _ = act(state, AURRIC, "take a")
    assert [d["what"] for d in state["pending"]] == ["companion", "weapon"]
    state, _ = act(state, AURRIC, "lose maud")
    assert set(actions(state, AURRIC)) == {"lose hart_bow", "lose black_bow"}
    state, _ = act(state, AURRIC, "lose black_bow")
    party = state["parties"][AURRIC]
    assert party["companions"] == ["wulfstan"] and party["things"] == ["hart_bow"]
    assert sorted(state["removed"]) == ["black_bow", "companion_deserts", "maud"]


def test_companion_deserts_with_no_companion_is_ignored():
    """'... if you have no companions, ignore this tile;'"""
    state = taker(things=("hart_bow",), slots=("companion_deserts", None))
    state, events = act(state, AURRIC, "take a")
    assert state["parties"][AURRIC]["things"] == ["hart_bow"] and not state["pending"]
    assert "no companion to desert" in words(events)


def test_companion_deserts_without_weapons_is_companion_killed():
    """'... if you have a companion but no weapons, treat it as a Companion Killed tile.'"""
    state = taker(
        companions=("maud", "wulfstan"), things=("silver_ewer",), slots=("companion_deserts", None)
    )
    state, _ = act(state, AURRIC, "take a")
    assert state["pending"] == [
        {"kind": "lose", "seat": AURRIC, "what": "companion", "reason": "killed"}
    ]
    state, _ = act(state, AURRIC, "lose maud")
    assert state["parties"][AURRIC] == {
        "companions": ["wulfstan"],
        "things": ["silver_ewer"],
        "kept": [],
    }


def test_companion_deserts_with_one_of_each_is_settled_at_once():
    """'... remove one companion and one weapon from the game' (no choice to make)."""
    state = taker(companions=("maud",), things=("hart_bow",), slots=("companion_deserts", None))
    state, _ = act(state, AURRIC, "take a")
    assert not state["pending"] and state["parties"][AURRIC]["companions"] == []
    assert state["parties"][AURRIC]["things"] == []


def test_captured_without_kings_men_does_nothing():
    """'Captured. When you take one of these and you are in a town or hamlet with a King's
    men tile (even your own) you are captured.' With none here, nothing happens."""
    state, events = act(taker(slots=("captured", None)), AURRIC, "take a")
    assert "no King's men are here" in words(events)
    assert state["removed"] == ["captured"]
    assert state["phase"] == "magician" and state["days"] == 2
    assert state["magicians"][AURRIC]["lost"] == 0


def test_captured_by_own_kings_men():
    """'Captured. When you take one of these and you are in a town or hamlet with a King's
    men tile (even your own) you are captured. The player who owns the King's men tile puts
    you and his King's men in a castle'"""
    state = taker(slots=("captured", None))
    put_kings_men(state, "tyrian_1", "holloway")
    give(state, AURRIC, kept=(GAIN_DAY,))
    state, _ = act(state, AURRIC, "take a")
    assert state["pending"] == [
        {"kind": "castle", "seat": AURRIC, "km": "tyrian_1", "magician": AURRIC}
    ]
    assert set(actions(state, AURRIC)) == {f"castle {c}" for c in castles()}
    state, _ = act(state, AURRIC, "castle highwatch")
    assert magician_at(state, AURRIC) == "place:highwatch"
    assert kings_man(state, "tyrian_1")["at"] == "highwatch"
    # This turn is over for the magician, even holding a Gain One Day tile.
    assert state["phase"] == "kings_men" and state["magicians"][AURRIC]["lost"] == 1


def test_captured_by_the_kings_men_on_top():
    """'The player who owns the King's men tile puts you and his King's men in a castle (use
    the King's men on top if there is more than one in the town or hamlet).'"""
    state = taker(slots=("captured", None), days=3)
    put_kings_men(state, "tyrian_1", "holloway")
    put_kings_men(state, "cuthred_2", "holloway")
    put_kings_men(state, "cuthred_1", "broadford")
    state, events = act(state, AURRIC, "take a")
    assert state["pending"] == [
        {"kind": "castle", "seat": GALEN, "km": "cuthred_2", "magician": AURRIC}
    ]
    assert "Cuthred's King's men 2" in words(events)
    with pytest.raises(IllegalAction):
        act(state, AURRIC, "castle redkeep")
    with pytest.raises(IllegalAction, match="castle"):
        act(state, GALEN, "castle holloway")
    state, _ = act(state, GALEN, "castle redkeep")
    assert magician_at(state, AURRIC) == "place:redkeep"
    assert kings_man(state, "cuthred_2")["at"] == "redkeep"
    assert kings_man(state, "tyrian_1")["at"] == "holloway"
    assert state["phase"] == "kings_men" and state["seat"] == AURRIC
    # The next turn is lost too.
    state, _ = play(state, [(AURRIC, "done"), (GALEN, "done"), (GALEN, "done")])
    assert state["seat"] == AURRIC and state["phase"] == "kings_men"
    assert magician_at(state, AURRIC) == "place:redkeep"


def test_betrayed_loses_a_companion_and_is_captured():
    """'Betrayed. Treat as a Captured tile, except also remove one companion from the
    game.'"""
    state = taker(companions=("maud", "wulfstan"), slots=("betrayed", None))
    put_kings_men(state, "cuthred_1", "holloway")
    state, _ = act(state, AURRIC, "take a")
    assert [d["kind"] for d in state["pending"]] == ["lose", "castle"]
    state, _ = act(state, AURRIC, "lose wulfstan")
    state, _ = act(state, GALEN, "castle greyhold")
    assert state["parties"][AURRIC]["companions"] == ["maud"]
    assert magician_at(state, AURRIC) == "place:greyhold"
    assert state["magicians"][AURRIC]["lost"] == 1
    assert sorted(state["removed"]) == ["betrayed", "wulfstan"]


def test_betrayed_without_companions_is_ignored_completely():
    """'If you have no companions, ignore this tile completely.'"""
    state = taker(slots=("betrayed", None))
    put_kings_men(state, "cuthred_1", "holloway")
    state, events = act(state, AURRIC, "take a")
    assert not state["pending"] and magician_at(state, AURRIC) == "place:holloway"
    assert state["magicians"][AURRIC]["lost"] == 0 and state["days"] == 2
    assert "no companion" in words(events)


def test_betrayed_without_kings_men_is_ignored():
    """Reading: 'Treat as a Captured tile' — like Captured, it acts only where King's men
    are; then the companion stays too."""
    state = taker(companions=("maud",), slots=("betrayed", None))
    state, events = act(state, AURRIC, "take a")
    assert state["parties"][AURRIC]["companions"] == ["maud"]
    assert magician_at(state, AURRIC) == "place:holloway" and not state["pending"]
    assert "no King's men" in words(events)


def test_gain_one_day_is_kept_and_adds_a_day():
    """'Gain One Day or Escape from Castle. With this tile, you can add one day to any one
    of your magician's turns ... You can save this tile to use later'"""
    state = taker(slots=(GAIN_DAY, None), days=1)
    state, _ = act(state, AURRIC, "take a")
    assert state["parties"][AURRIC]["kept"] == [GAIN_DAY]
    assert GAIN_DAY not in state["removed"]
    # Out of days but holding the tile: the magician may still use it.
    assert state["phase"] == "magician" and state["days"] == 0
    assert set(actions(state, AURRIC)) == {"gain", "done"}
    state, _ = act(state, AURRIC, "done")
    assert state["parties"][AURRIC]["kept"] == [GAIN_DAY]
    state, _ = play(state, [(AURRIC, "done"), (GALEN, "done"), (GALEN, "done")])
    assert state["seat"] == AURRIC and state["days"] == 3
    state, _ = act(state, AURRIC, "gain")
    assert state["days"] == 4 and state["parties"][AURRIC]["kept"] == []
    assert state["removed"] == [GAIN_DAY]
    with pytest.raises(IllegalAction, match="no Gain One Day"):
        act(state, AURRIC, "gain")


def test_several_gain_one_day_tiles_in_one_turn():
    """'... and you can use as many of these as you have in one turn.'"""
    state = taker(days=3)
    give(state, AURRIC, kept=(GAIN_DAY, GAIN_DAY))
    state, _ = play(state, [(AURRIC, "gain"), (AURRIC, "gain")])
    assert state["days"] == 5 and state["removed"] == [GAIN_DAY, GAIN_DAY]
    state, _ = play(
        state, [(AURRIC, f"go {p}") for p in ("broadford", "kelderby", "nethercombe", "stonyford")]
    )
    assert state["days"] == 1 and state["phase"] == "magician"


def test_several_event_tiles_in_one_turn_are_each_followed():
    """'If the tile instructs you to do something, you must follow those instructions
    immediately and then remove the tile from the game.'"""
    state = taker(
        companions=("maud",),
        things=("hart_bow", "silver_ewer"),
        slots=("companion_killed", "item_stolen", GAIN_DAY, None),
    )
    state, _ = act(state, AURRIC, "take a")
    assert state["parties"][AURRIC]["companions"] == []
    state, _ = act(state, AURRIC, "take b")
    state, _ = act(state, AURRIC, "lose hart_bow")
    state, _ = act(state, AURRIC, "take c")
    assert state["parties"][AURRIC] == {
        "companions": [],
        "things": ["silver_ewer"],
        "kept": [GAIN_DAY],
    }
    assert sorted(state["removed"]) == ["companion_killed", "hart_bow", "item_stolen", "maud"]


def test_escape_from_castle_instead_of_losing_the_turn():
    """'... or you can use it to leave a castle rather than lose a turn when captured.'"""
    state = taker(slots=("captured", None))
    give(state, AURRIC, kept=(GAIN_DAY,))
    put_kings_men(state, "cuthred_1", "holloway")
    state, _ = act(state, AURRIC, "take a")
    state, _ = act(state, GALEN, "castle greyhold")
    captured = copy.deepcopy(state)
    state, _ = play(state, [(AURRIC, "done"), (GALEN, "done"), (GALEN, "done")])
    assert state["seat"] == AURRIC
    [prompt] = GAME.prompts(state)
    assert prompt.kind == "escape" and set(actions(state, AURRIC)) == {"escape", "wait"}
    escaped, _ = act(state, AURRIC, "escape")
    assert escaped["phase"] == "magician" and escaped["days"] == 3
    assert escaped["parties"][AURRIC]["kept"] == [] and GAIN_DAY in escaped["removed"]
    # The castle holds the King's men: leaving costs a day more.
    escaped, _ = act(escaped, AURRIC, "go holloway")
    assert escaped["days"] == 1
    waited, _ = act(state, AURRIC, "wait")
    assert waited["phase"] == "kings_men" and waited["parties"][AURRIC]["kept"] == [GAIN_DAY]
    assert magician_at(waited, AURRIC) == "place:greyhold"
    assert captured["magicians"][AURRIC]["lost"] == 1


# ---------------------------------------------------------------------------------------
# Moving Your King's Men and Challenging Magicians


def test_kings_men_never_go_to_sea_or_the_lair_or_take_tiles():
    """'Each of your King's men tiles can spend up to 3 days moving, just like your
    magicians, except King's men can never go to sea, go to the Dragon's Lair, or take
    tiles.'"""
    state = kings_men_turn(start(), AURRIC)
    put_kings_men(state, "tyrian_1", "glenarrow")
    put_kings_men(state, "tyrian_2", "swanscombe")
    menu = actions(state, AURRIC)
    assert "k1 dragons_lair" not in menu and "k1 caerlow" in menu
    assert not [a for a in menu if a.endswith("_sea")]
    with pytest.raises(IllegalAction, match="never to sea or the Lair"):
        act(state, AURRIC, "k1 dragons_lair")
    with pytest.raises(UnreadableAction):
        act(state, AURRIC, "k2 west_sea")
    with pytest.raises(IllegalAction):
        act(state, AURRIC, "take a")
    state, _ = play(state, [(AURRIC, "k1 caerlow"), (AURRIC, "k1 dunmere"), (AURRIC, "k1 redkeep")])
    assert kings_man(state, "tyrian_1")["at"] == "redkeep" and state["active"] is None


def test_kings_men_pay_one_day_a_road():
    """Reading: the extra days for King's men in a place are the magicians'; a King's man
    pays one day a road."""
    state = kings_men_turn(start(), AURRIC)
    put_kings_men(state, "tyrian_1", "holloway")
    put_kings_men(state, "cuthred_1", "holloway")
    put_kings_men(state, "cuthred_2", "broadford")
    state, _ = act(state, AURRIC, "k1 broadford")
    assert state["days"] == 2


def challenge_scene(
    players: int = 2, owner: int = GALEN, target: str = "holloway", start_at: str = "swanscombe"
) -> dict:
    """``owner``'s King's men 1 stand in ``start_at``, ready to move, no magician on the
    board yet (tests put them)."""
    state = kings_men_turn(placed(players), owner)
    key = next(km["key"] for km in state["kings_men"] if km["seat"] == owner and km["number"] == 1)
    return put_kings_men(state, key, start_at)


def test_entering_a_place_with_a_magician_may_challenge():
    """'Each time you move a King's men tile into a hamlet or town that has a magician in it,
    you may challenge that magician if you want to.'"""
    state = put_magician(challenge_scene(), AURRIC, "holloway")
    state, _ = act(state, GALEN, "k1 holloway")
    [prompt] = GAME.prompts(state)
    assert prompt.seat == GALEN and prompt.kind == "challenge"
    assert set(actions(state, GALEN)) == {"challenge aurric", "pass"}
    passed, events = act(state, GALEN, "pass")
    assert "No challenge" in words(events) and not passed["pending"]
    assert passed["active"] == "cuthred_1" and passed["days"] == 2
    state, _ = act(state, GALEN, "challenge aurric")
    [prompt] = GAME.prompts(state)
    assert prompt.seat == AURRIC and prompt.kind == "answer"


def test_no_challenge_in_a_castle_or_an_empty_place():
    """'Each time you move a King's men tile into a hamlet or town that has a magician in
    it, you may challenge that magician' — a castle is neither."""
    state = put_magician(challenge_scene(), AURRIC, "greyhold")
    state, _ = act(state, GALEN, "k1 greyhold")
    assert not state["pending"]
    state, _ = act(state, GALEN, "k1 holloway")
    assert not state["pending"]


def test_magicians_are_challenged_only_when_kings_men_move_in():
    """Reading: King's men challenge only when they move in, not when a magician comes to
    them."""
    state = put_magician(start(), AURRIC, "swanscombe")
    put_kings_men(state, "cuthred_1", "holloway")
    state, _ = act(state, AURRIC, "go holloway")
    assert not state["pending"] and state["days"] == 1


def test_several_magicians_are_challenged_one_at_a_time_until_one_accepts():
    """'(If there is more than one magician in a place and you want to challenge, you have
    to challenge each magician in the place, one at a time — even your own, if he is there —
    until a magician accepts your challenge. You can choose which magician you will challenge
    first.)'"""
    state = challenge_scene(players=3, owner=1)  # Merridyds' King's men
    for seat in (0, 1, 2):
        put_magician(state, seat, "holloway")
    give(state, 1, companions=("cedric_the_bold", "wulfstan"))
    state, _ = act(state, 1, "k1 holloway")
    assert set(actions(state, 1)) == {
        "challenge aurric",
        "challenge merridyds",
        "challenge galen",
        "pass",
    }
    state, _ = act(state, 1, "challenge galen")
    state, _ = act(state, 2, "road greyhold")
    assert magician_at(state, 2) == "road:holloway:greyhold"
    # Once challenging has begun it goes on: no pass.
    assert set(actions(state, 1)) == {"challenge aurric", "challenge merridyds"}
    with pytest.raises(IllegalAction):
        act(state, 1, "pass")
    state, _ = act(state, 1, "challenge merridyds")
    state, _ = act(state, 1, "accept")
    # The own magician's party was stronger: Merridyds sends the King's men away; Aurric
    # is never challenged.
    assert state["pending"][0]["kind"] == "castle" and state["pending"][0]["seat"] == 1
    state, _ = act(state, 1, "castle kingsgate")
    assert not state["pending"]
    assert magician_at(state, 0) == "place:holloway"
    assert state["magicians"][0]["lost"] == 0


def test_every_magician_may_take_the_road_and_the_challenge_ends():
    """'... you have to challenge each magician in the place, one at a time ... until a
    magician accepts your challenge.' When all take the road, the King's men move on."""
    state = challenge_scene(players=3, owner=1)
    put_magician(state, 0, "holloway")
    put_magician(state, 2, "holloway")
    state, _ = act(state, 1, "k1 holloway")
    state, _ = act(state, 1, "challenge aurric")
    state, _ = act(state, 0, "road swanscombe")
    assert actions(state, 1) == ["challenge galen"]
    state, _ = act(state, 1, "challenge galen")
    state, _ = act(state, 2, "road broadford")
    assert not state["pending"] and state["active"] == "osgar_1" and state["days"] == 2


def test_taking_the_road_costs_no_day_and_the_kings_men_go_on():
    """'When you tell a player you are challenging his magician, he can either accept the
    challenge, or avoid it by taking the road. If he takes the road, he moves his magician
    out of the place onto a neighboring road of his choice (spending no days for the move)
    and your King's men can continue to move.'"""
    state = put_magician(challenge_scene(), AURRIC, "holloway")
    give(state, AURRIC, kept=(GAIN_DAY,))
    state, _ = play(state, [(GALEN, "k1 holloway"), (GALEN, "challenge aurric")])
    roads = {f"road {p}" for p in load_urland().neighbours("holloway")}
    assert set(actions(state, AURRIC)) == roads | {"accept"}
    with pytest.raises(IllegalAction, match="take the road: `road swanscombe`"):
        act(state, AURRIC, "road kelderby")
    state, events = act(state, AURRIC, "road Brackenmoor")
    assert magician_at(state, AURRIC) == "road:holloway:brackenmoor"
    assert state["parties"][AURRIC]["kept"] == [GAIN_DAY]
    assert GAME.view(state, None)["magicians"][AURRIC]["where"] == {
        "kind": "road",
        "key": "holloway",
        "road": ["holloway", "brackenmoor"],
    }
    assert "takes the road towards Brackenmoor" in words(events)
    assert state["active"] == "cuthred_1" and state["days"] == 2
    state, _ = act(state, GALEN, "k1 broadford")
    assert kings_man(state, "cuthred_1")["at"] == "broadford"


def test_from_the_road_the_next_move_enters_either_end():
    """Reading: taking the road puts the magician between the two places; the next move
    enters either end."""
    state = turn(put_magician(start(), AURRIC, "road:holloway:brackenmoor"), AURRIC)
    assert {a for a in actions(state, AURRIC) if a.startswith("go")} == {
        "go holloway",
        "go brackenmoor",
    }
    state, _ = act(state, AURRIC, "go brackenmoor")
    assert magician_at(state, AURRIC) == "place:brackenmoor" and state["days"] == 2


def accepted(kings_men: int, companions: tuple[str, ...] = (), things: tuple[str, ...] = ()):
    """Galen's King's men 1 (strength ``kings_men``) challenge Aurric in Holloway, who
    accepts."""
    state = put_magician(challenge_scene(), AURRIC, "holloway")
    give(state, AURRIC, companions=companions, things=things)
    set_strength(state, "cuthred_1", kings_men)
    before = GAME.view(state, None)
    state, _ = play(state, [(GALEN, "k1 holloway"), (GALEN, "challenge aurric")])
    assert kings_man_view(GAME.view(state, None), "cuthred_1")["strength"] is None
    state, events = act(state, AURRIC, "accept")
    return before, state, events


def kings_man_view(view: dict, key: str) -> dict:
    return next(km for km in view["kings_men"] if km["key"] == key)


def test_stronger_kings_men_take_the_magician_to_a_castle_of_their_choice():
    """'If he accepts the challenge, compare the strength of your King's men tile to the
    total combat strength of all the people in the magician's party. If your King's men tile
    is as strong as your party or stronger, put your King's men tile and the magician in any
    castle you choose; both your King's men tile and the magician lose their entire next
    turn, and the rest of this one.'"""
    before, state, events = accepted(4, companions=("maud",))
    assert before["parties"][AURRIC]["party_combat"] == 2
    assert events[-1].data == {"kings_men": "cuthred_1", "strength": 4, "party": 2}
    assert state["pending"] == [
        {"kind": "castle", "seat": GALEN, "km": "cuthred_1", "magician": AURRIC}
    ]
    state, _ = act(state, GALEN, "castle highwatch")
    assert magician_at(state, AURRIC) == "place:highwatch"
    assert kings_man(state, "cuthred_1")["at"] == "highwatch"
    # The rest of this turn: Cuthred's first King's men stop, the second may move.
    assert state["active"] is None and "cuthred_1" in state["finished"]
    assert {c.group for c in GAME.legal_actions(state, GALEN) if c.group} == {"k2"}
    state, _ = act(state, GALEN, "done")
    # Aurric's next turn is lost...
    assert state["seat"] == AURRIC and state["phase"] == "kings_men"
    state, _ = play(state, [(AURRIC, "done"), (GALEN, "done")])
    # ... and so is the King's men's.
    assert state["seat"] == GALEN and "cuthred_1" in state["finished"]
    with pytest.raises(IllegalAction, match="cannot move again"):
        act(state, GALEN, "k1 highwatch")
    state, _ = play(state, [(GALEN, "done"), (AURRIC, "done"), (AURRIC, "done")])
    assert state["seat"] == GALEN and "cuthred_1" not in state["finished"]


def test_kings_men_as_strong_as_the_party_win():
    """'If your King's men tile is as strong as your party or stronger ...' (a tie is
    theirs)."""
    before, state, _ = accepted(2, companions=("maud",))
    assert before["parties"][AURRIC]["party_combat"] == 2
    assert state["pending"][0]["seat"] == GALEN and state["pending"][0]["magician"] == AURRIC


def test_weapons_do_not_count_against_kings_men():
    """Reading: 'the total combat strength of all the people in the magician's party' —
    weapons do not count."""
    _, state, _ = accepted(2, things=("hart_bow",))
    assert state["pending"][0]["magician"] == AURRIC


def test_a_stronger_party_sends_the_kings_men_to_a_castle():
    """'If the magician's party is stronger, your opponent puts your King's men tile in any
    castle he chooses, and your King's men tile loses the rest of this turn (but not the
    next turn).'"""
    before, state, _ = accepted(2, companions=("cedric_the_bold",))
    assert before["parties"][AURRIC]["party_combat"] == 4
    assert state["pending"] == [
        {"kind": "castle", "seat": AURRIC, "km": "cuthred_1", "magician": None}
    ]
    with pytest.raises(IllegalAction):
        act(state, GALEN, "castle kingsgate")
    state, _ = act(state, AURRIC, "castle kingsgate")
    assert kings_man(state, "cuthred_1")["at"] == "kingsgate"
    assert magician_at(state, AURRIC) == "place:holloway"
    assert state["magicians"][AURRIC]["lost"] == 0
    assert "cuthred_1" in state["finished"] and state["active"] is None
    state, _ = play(state, [(GALEN, "done"), (AURRIC, "done"), (AURRIC, "done")])
    assert state["seat"] == GALEN and state["phase"] == "magician"
    state, _ = act(state, GALEN, "done")
    state, _ = act(state, GALEN, "k1 broadford")
    assert kings_man(state, "cuthred_1")["at"] == "broadford"


def test_a_challenge_reveals_the_kings_men_strength():
    """Reading: once a challenge is accepted, the King's men's strength is known to all."""
    before, state, _ = accepted(4)
    assert kings_man_view(before, "cuthred_1")["strength"] is None
    assert kings_man_view(GAME.view(state, None), "cuthred_1")["strength"] == 4
    assert kings_man_view(GAME.view(state, None), "cuthred_2")["strength"] is None


def test_no_challenge_in_a_companions_home_town():
    """'Your King's men can never challenge a magician who is in a town if there is a
    companion in that magician's party who lives in that town (as marked on the companion's
    tile).'"""
    rowena = load_tiles().tile("rowena")
    assert rowena.home == "broadford"
    state = put_magician(challenge_scene(start_at="holloway"), AURRIC, "broadford")
    give(state, AURRIC, companions=("rowena",))
    state, _ = act(state, GALEN, "k1 broadford")
    assert not state["pending"]
    # In a hamlet, or with no one from the town, the challenge stands.
    elsewhere = put_magician(challenge_scene(start_at="broadford"), AURRIC, "holloway")
    give(elsewhere, AURRIC, companions=("rowena",))
    elsewhere, _ = act(elsewhere, GALEN, "k1 holloway")
    assert elsewhere["pending"][0]["candidates"] == [AURRIC]
    stranger = put_magician(challenge_scene(start_at="holloway"), AURRIC, "broadford")
    give(stranger, AURRIC, companions=("elspeth",))
    stranger, _ = act(stranger, GALEN, "k1 broadford")
    assert stranger["pending"][0]["candidates"] == [AURRIC]


def test_own_magician_alone_may_be_challenged():
    """'... even your own, if he is there ...'"""
    state = put_magician(challenge_scene(), GALEN, "holloway")
    state, _ = act(state, GALEN, "k1 holloway")
    assert set(actions(state, GALEN)) == {"challenge galen", "pass"}
    set_strength(state, "cuthred_1", 4)
    state, _ = play(state, [(GALEN, "challenge galen"), (GALEN, "accept")])
    state, _ = act(state, GALEN, "castle redkeep")
    assert magician_at(state, GALEN) == "place:redkeep"
    assert state["magicians"][GALEN]["lost"] == 1


# ---------------------------------------------------------------------------------------
# Notation, purity, help


def test_actions_are_case_and_space_tolerant():
    """Notation: names by key or by name, any case, extra spaces."""
    state = put_magician(start(), AURRIC, "swanscombe")
    for typed in ("go ashby_fell", "  GO   Ashby Fell  ", "go ASHBY-FELL"):
        after, _ = act(state, AURRIC, typed)
        assert magician_at(after, AURRIC) == "place:ashby_fell"
    with pytest.raises(UnreadableAction, match="go"):
        act(state, AURRIC, "fly ashby_fell")


def test_apply_leaves_its_input_untouched():
    """Contract: ``apply`` is pure."""
    state = taker(
        companions=("maud",), things=("hart_bow", "black_bow"), slots=("companion_killed", None)
    )
    before = copy.deepcopy(state)
    act(state, AURRIC, "take a")
    assert state == before


def test_rules_help_lists_notation_readings_and_reconstructed_data():
    """Contract: the help explains the notation, the readings and the reconstructed data."""
    text = GAME.rules_help()
    for name in ("urland", "tiles", "parties"):
        for note in data.reconstructed_notes(data.load("dragonslayer", name)):
            assert note in text
    for needed in (
        "`go <place or sea>`",
        "`take <slot>`",
        "`k1 <place>`",
        "`escape`",
        "Betrayed",
        "Delayed",
        "taking the road",
        "reconstructed",
        "Tyrian",
    ):
        assert needed.lower() in text.lower()


# ---------------------------------------------------------------------------------------
# Timeouts


def test_skip_places_unplaced_kings_men_at_random():
    """Timeouts: unplaced King's men go to castles drawn at random."""
    state = fresh(2)
    state, _ = GAME.skip(state, AURRIC, random.Random(3))
    mine = [km for km in state["kings_men"] if km["seat"] == AURRIC]
    assert all(km["at"] in castles() for km in mine)
    assert state["phase"] == "place" and state["seat"] == GALEN
    spots = set()
    for seed in range(8):
        skipped, _ = GAME.skip(fresh(2), AURRIC, random.Random(seed))
        spots.add(kings_man(skipped, "tyrian_1")["at"])
    assert len(spots) > 1


@pytest.mark.parametrize("phase", ["magician", "kings_men"])
def test_skip_ends_the_turn_where_it_stands(phase):
    """Timeouts: a turn ends where it stands (the King's men do not move)."""
    state = start()
    if phase == "kings_men":
        state, _ = act(state, AURRIC, "done")
        state, _ = act(state, AURRIC, "k1 kelderby")
    state, _ = GAME.skip(state, AURRIC, rng())
    assert state["seat"] == GALEN and state["phase"] == "magician" and state["days"] == 3
    assert magician_at(state, AURRIC) == "abode:aurric"


def test_skip_puts_back_a_tile_that_cannot_be_carried():
    """Timeouts: a tile you could not carry is put back."""
    state, _ = act(taker(things=("axe_of_ardanna",)), AURRIC, "take a")
    state, _ = GAME.skip(state, AURRIC, rng())
    assert state["slots"]["holloway"][0] == "hart_bow" and not state["pending"]
    assert state["memory"][AURRIC] == {"holloway/a": "hart_bow"}


def test_skip_loses_and_drops_the_first_in_the_party_order():
    """Timeouts: a loss or drop takes the first in the party's order."""
    state = taker(
        companions=("maud", "wulfstan"),
        things=("hart_bow", "black_bow", "axe_of_ardanna"),
        slots=("companion_killed", None),
    )
    state, _ = act(state, AURRIC, "take a")
    state, _ = GAME.skip(state, AURRIC, rng())
    assert state["parties"][AURRIC]["companions"] == ["wulfstan"]
    assert state["pending"][0]["kind"] == "drop"
    state, _ = GAME.skip(state, AURRIC, rng())
    assert state["parties"][AURRIC]["things"] == ["black_bow", "axe_of_ardanna"]
    assert "hart_bow" in state["slots"]["holloway"]


def test_skip_in_a_challenge():
    """Timeouts: a challenge is accepted; the owner does not challenge (or, once
    challenging, challenges the next magician); a castle is drawn at random."""
    state = put_magician(challenge_scene(), AURRIC, "holloway")
    state, _ = act(state, GALEN, "k1 holloway")
    passed, _ = GAME.skip(state, GALEN, rng())
    assert not passed["pending"] and passed["active"] == "cuthred_1"
    state, _ = act(state, GALEN, "challenge aurric")
    state, _ = GAME.skip(state, AURRIC, rng())
    assert state["pending"][0]["kind"] == "castle"
    seat = state["pending"][0]["seat"]
    state, _ = GAME.skip(state, seat, rng())
    assert kings_man(state, "cuthred_1")["at"] in castles() and not state["pending"]

    three = challenge_scene(players=3, owner=1)
    put_magician(three, 0, "holloway")
    put_magician(three, 2, "holloway")
    three, _ = play(three, [(1, "k1 holloway"), (1, "challenge galen"), (2, "road greyhold")])
    three, _ = GAME.skip(three, 1, rng())
    assert three["pending"][0] == {
        "kind": "answer",
        "seat": 0,
        "km": "osgar_1",
        "place": "holloway",
    }


def test_skip_an_escape_waits():
    """Timeouts: an escape waits."""
    state = turn(put_magician(start(), AURRIC, "greyhold"), GALEN)
    give(state, AURRIC, kept=(GAIN_DAY,))
    state["magicians"][AURRIC]["lost"] = 1
    state, _ = play(state, [(GALEN, "done"), (GALEN, "done")])
    assert GAME.prompts(state)[0].kind == "escape"
    state, _ = GAME.skip(state, AURRIC, rng())
    assert state["parties"][AURRIC]["kept"] == [GAIN_DAY]
    assert state["phase"] == "kings_men" and state["magicians"][AURRIC]["lost"] == 0


def test_forfeit_removes_the_party_and_kings_men_and_passes_the_turn():
    """Timeouts: the magician leaves the game: the party's tiles leave the game and the King's
    men leave the map. When one magician is left, that player wins."""
    state = placed(3)
    give(state, 0, companions=("maud",), things=("hart_bow",), kept=(GAIN_DAY,))
    state, _ = GAME.forfeit(state, 0, rng())
    assert state["magicians"][0]["out"] and state["magicians"][0]["where"] is None
    assert {"maud", "hart_bow", GAIN_DAY} <= set(state["removed"])
    assert state["parties"][0] == {"companions": [], "things": [], "kept": []}
    assert not [km for km in state["kings_men"] if km["seat"] == 0]
    assert state["seat"] == 1 and state["phase"] == "magician"
    assert GAME.result(state) is None
    assert where_tiles_are(state) == expected_tiles()
    view = GAME.view(state, None)
    assert view["magicians"][0]["out"] and view["magicians"][0]["where"] is None
    # Turns skip the seat that left.
    state, _ = play(state, [(1, "done"), (1, "done"), (2, "done"), (2, "done")])
    assert state["seat"] == 1 and state["turn"] == 2
    state, _ = GAME.forfeit(state, 2, rng())
    result = GAME.result(state)
    assert result is not None and result.winners == (1,)
    assert GAME.prompts(state) == [] and "Merridyds" in result.text
    with pytest.raises(IllegalAction, match="over"):
        act(state, 1, "done")


def test_forfeit_with_a_tile_in_hand_puts_it_back():
    """Timeouts: a player leaving while deciding about a tile puts it back first."""
    state, _ = act(taker(things=("axe_of_ardanna",)), AURRIC, "take a")
    state, _ = GAME.forfeit(state, AURRIC, rng())
    assert state["slots"]["holloway"][0] == "hart_bow"
    assert GAME.result(state).winners == (GALEN,)
    assert where_tiles_are(state) == expected_tiles()
