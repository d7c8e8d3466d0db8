"""Dragonslayer's Dragon fight, sentence by sentence: 'Slaying the Dragon and Winning',
'Abandoned Weapons', 'How to Win the Game', the summary, the Special Tile Summary (Dragon
Shield; Enchant Weaponry Spell, Spell of Killing, Charm of Weaponry; Silver Ewer, Orb of
Vision, Far Mirror; Ulrich's Ashes), and the readings in the rules help's "the Dragon"
section. Each test quotes the sentence or reading it holds the engine to.

Positions are built from a real game (King's men parked in a far castle) and edited; the
Dragon Location tiles drawn come from :class:`Draws`, an rng that draws what the test says.
Strengths are worked out here from the Battle Display values the rule text shows; the
magicians' and companions' own strengths come from the data files.
"""

from __future__ import annotations

import copy
import json
import random
import re
from collections import Counter, deque

import pytest

from engines.base import ActionError, Event, IllegalAction, UnreadableAction
from engines.dragonslayer.model import LOCATION_KEYS, load_parties, load_tiles, load_urland
from engines.dragonslayer.state import GAIN_DAY
from tests.engines.dragonslayer_helpers import (
    GAME,
    expected_tiles,
    give,
    placed,
    put_magician,
    set_slots,
    turn,
    words,
)

AURRIC, GALEN = 0, 1
"""Seats of the two-player table (Aurric, Galen)."""
URLAND = load_urland()
LAIR = URLAND.lair.key
MORGENTHORME = URLAND.morgenthorme.key
GO_LAIR = f"go {LAIR}"
NEAR = "glenarrow"
"""A hamlet one road from the Lair, where fighters wait before going in."""
MAGICIANS = load_parties().magicians
A, G = MAGICIANS["aurric"], MAGICIANS["galen"]
SHIELD, ULRICH, ASHES, AMULET = "dragon_shield", "ulrich", "ulrichs_ashes", "amulet_of_power"
SIX = LOCATION_KEYS[:-1]
"""The six places a battle is fought; the seventh Location tile is 'away'."""


class Draws(random.Random):
    """An rng whose ``choice`` draws the Location tiles a test names, in order, and keeps
    every pile it was offered."""

    def __init__(self, *wanted: str) -> None:
        super().__init__(0)
        self.wanted = list(wanted)
        self.piles: list[list[str]] = []

    def choice(self, seq):
        self.piles.append(list(seq))
        assert self.wanted, f"an unexpected draw from {seq}"
        wanted = self.wanted.pop(0)
        assert wanted in seq, (wanted, seq)
        return wanted


# -- building positions ------------------------------------------------------------------


def scene(
    players: int = 2,
    seat: int = AURRIC,
    companions: tuple[str, ...] = (),
    things: tuple[str, ...] = (),
    dragon: int = 5,
    where: str = NEAR,
) -> dict:
    """``seat``'s turn with 3 days, its magician one road from the Lair with this party,
    and the Dragon at strength ``dragon``."""
    state = turn(placed(players), seat)
    put_magician(state, seat, where)
    give(state, seat, companions=companions, things=things)
    state["dragon"] = dragon
    return state


def act(state: dict, seat: int, action: str, *draws: str) -> tuple[dict, list[Event]]:
    return GAME.apply(state, seat, action, Draws(*draws))


def arrive(state: dict, seat: int) -> dict:
    """The magician goes into the Lair, where the draw comes first."""
    state, _ = act(state, seat, GO_LAIR)
    assert prompt(state) == (seat, "draw") and set(labels(state, seat)) == {"draw"}
    return state


def enter(state: dict, seat: int, *draws: str) -> tuple[dict, list[Event]]:
    """The magician goes into the Lair and draws ``draws``; the events of the draw."""
    return act(arrive(state, seat), seat, "draw", *draws)


def strength(*keys: str) -> int:
    """Combat strength of companions (their own, from the data files)."""
    tiles = load_tiles()
    found = {t.key: t for t in (*tiles.tiles, *tiles.map_tiles, *load_parties().galen_tiles)}
    return sum(found[k].strength or 0 for k in keys)


def labels(state: dict, seat: int) -> dict[str, str]:
    return {c.action: c.label for c in GAME.legal_actions(state, seat)}


def sums(label: str) -> tuple[int, int]:
    """(combat, magic) that a ``battle`` choice's label shows."""
    found = re.search(r"combat (-?\d+), magic (-?\d+)", label)
    assert found, label
    return int(found[1]), int(found[2])


def result_of(label: str) -> tuple[int, int] | None:
    """(lost, levels) a ``battle`` label promises, or None for 'wiped out'."""
    if label.endswith("wiped out"):
        return None
    found = re.search(r"lose (\d+), Dragon -(\d+)$", label)
    assert found, label
    return int(found[1]), int(found[2])


def matrix_read(events: list[Event]) -> tuple[int, int]:
    """(lost, levels) of the fight just fought, from its event's data."""
    [data] = [e.data for e in events if "levels" in e.data]
    return data["lost"], data["levels"]


def where(state: dict, seat: int) -> str | None:
    return state["magicians"][seat]["where"]


def prompt(state: dict) -> tuple[int, str]:
    [first] = GAME.prompts(state)
    return first.seat, first.kind


def battle(state: dict) -> dict:
    view = GAME.view(state, None)["battle"]
    assert view is not None
    return view


def pile() -> list[str]:
    return list(LOCATION_KEYS)


def greedy_companions(total: int) -> tuple[str, ...]:
    """Companions whose strengths add up to ``total`` (strongest first; never Valerian,
    who would bring the Dragon Shield)."""
    pool = sorted(
        (t for t in load_tiles().tiles if t.kind == "companion" and t.key != "valerian"),
        key=lambda t: -(t.strength or 0),
    )
    chosen = []
    for tile in pool:
        if 0 < (tile.strength or 0) <= total:
            chosen.append(tile.key)
            total -= tile.strength
    assert total == 0
    return tuple(chosen)


def survived_fight(extra: tuple[str, ...] = ()) -> dict:
    """Aurric, Wulfstan and Cedric against a Dragon of 2 at Low Altitude (combat 1+3+3 more
    than 5 over, magic 3: '1 more' reads 2/1); Wulfstan and Cedric are lost, and Aurric goes
    on with ``extra``. Returns the state once the fight and its raid are over."""
    state = scene(companions=("wulfstan", "cedric_the_bold", *extra), dragon=2)
    state, _ = enter(state, AURRIC, "low_altitude")
    state, events = act(state, AURRIC, "fight")
    assert matrix_read(events) == (2, 1)
    state, _ = act(state, AURRIC, "lose wulfstan")
    state, _ = act(state, AURRIC, "lose cedric_the_bold")
    return state


# ---------------------------------------------------------------------------------------
# Slaying the Dragon and Winning


def test_going_to_the_lair_draws_a_location_tile_at_random():
    """'When you think your party is strong enough to fight the Dragon, you can move to the
    Dragon's Lair and draw a Dragon Location tile at random.' Entering costs a day, like any
    place; then `draw` takes the tile from all seven and tells everyone with its data."""
    state = scene(companions=("wulfstan",))
    rng = Draws("open")
    inside, _ = GAME.apply(state, AURRIC, GO_LAIR, rng)
    assert rng.piles == [] and prompt(inside) == (AURRIC, "draw")
    after, events = GAME.apply(inside, AURRIC, "draw", rng)
    assert rng.piles == [pile()]
    assert where(after, AURRIC) == f"place:{LAIR}" and after["days"] == 2
    [drawn] = [e for e in events if "location" in e.data]
    assert drawn.public and drawn.data["location"] == "open"
    assert drawn.data["pile"] == pile()
    assert "The Dragon is in the Open" in drawn.text
    assert prompt(after) == (AURRIC, "battle")


def test_the_draw_is_uniform_over_the_seven_location_tiles():
    """'draw a Dragon Location tile at random': with the host's rng, each of the seven comes
    up about as often as any other."""
    state = arrive(scene(companions=("wulfstan",)), AURRIC)
    counts: Counter = Counter()
    for seed in range(700):
        _, events = GAME.apply(state, AURRIC, "draw", random.Random(seed))
        [location] = [e.data["location"] for e in events if "location" in e.data]
        counts[location] += 1
    assert set(counts) == set(LOCATION_KEYS)
    assert all(65 <= n <= 135 for n in counts.values()), counts


ROW_WORDS = {
    "high_altitude": "High Altitude",
    "low_altitude": "Low Altitude",
    "open": "Open",
    "mouth": "Mouth",
    "passage": "Passage",
    "lake": "Lake",
}


@pytest.mark.parametrize("row", SIX)
def test_the_location_tile_tells_where_the_dragon_is(row):
    """'This tile tells you where the Dragon is.' The battle is fought on that row."""
    state, _ = enter(scene(companions=("wulfstan",)), AURRIC, row)
    view = battle(state)
    assert view["location"] == row and not view["raid"]
    assert ROW_WORDS[row] in view["location_name"]
    assert [r["key"] for r in view["rows"]] == list(SIX)


def test_the_dragon_away_sends_the_magician_to_morgenthorme():
    """'(If you draw "The Dragon is Away," put your magician in Morgenthorme immediately;
    you cannot fight the Dragon if he is not there.)' No fight, no raid, and the days end."""
    state = scene(companions=("wulfstan",))
    give(state, AURRIC, kept=(GAIN_DAY,))
    put_magician(state, GALEN, NEAR)
    near = list(state["slots"][NEAR])
    after, events = enter(state, AURRIC, "away")
    assert where(after, AURRIC) == f"place:{MORGENTHORME}"
    assert after["fight"] is None and after["dragon"] == 5
    assert after["slots"][NEAR] == near and not any("raid" in e.data for e in events)
    assert after["phase"] == "kings_men" and after["seat"] == AURRIC
    assert "gain" not in labels(after, AURRIC) and prompt(after) == (AURRIC, "kings_men")
    assert GAME.view(after, None)["battle"] is None


def test_things_are_placed_on_the_battle_display():
    """'Place all of your weapons, spells, and magic items on the Battle Display on top of
    their pictures.' Things with no picture there (Ulrich's Ashes) add nothing."""
    state = scene(
        companions=("maud",),
        things=("hart_bow", "axe_of_ardanna", "spell_of_lightning", "spell_of_agility"),
    )
    state, _ = enter(state, AURRIC, "low_altitude")
    view = battle(state)
    combat = {i["key"]: i for i in view["combat_items"]}
    magic = {i["key"]: i for i in view["magic_items"]}
    assert set(combat) == {"hart_bow", "axe_of_ardanna", "spell_of_agility"}
    assert set(magic) == {"spell_of_lightning", "spell_of_agility"}
    assert combat["spell_of_agility"]["twice"] and not combat["hart_bow"]["twice"]
    assert combat["hart_bow"]["values"]["low_altitude"] == 2
    assert [p["name"] for p in view["people"]] == ["Aurric", "Maud"]

    galen = scene(seat=GALEN)
    galen, _ = enter(galen, GALEN, "low_altitude")
    assert prompt(galen)[1] == "lair"  # Galen's Ashes: see 'Ulrich's Ashes' below
    galen, _ = act(galen, GALEN, "fight")
    shown = battle(galen)
    keys = {i["key"] for i in shown["combat_items"] + shown["magic_items"]}
    assert keys == {AMULET}


def galen_in_force(dragon: int = 2) -> dict:
    """Galen with Hodge, Wulfstan, Cedric and Ewan, five weapons worth nothing at Low
    Altitude and the Amulet of Power, fighting at Low Altitude."""
    weapons = ("axe_of_ardanna", "hammer_of_morgan", "club_imperator")
    weapons += ("the_diamond_mace", "eldrinns_halberd")
    state = scene(
        seat=GALEN,
        companions=("wulfstan", "cedric_the_bold", "ewan_strongarm"),
        things=weapons,
        dragon=dragon,
    )
    state, _ = enter(state, GALEN, "low_altitude")
    state, _ = act(state, GALEN, "fight")
    return state


def test_a_thing_pictured_twice_goes_where_the_player_picks():
    """'(Some things — like the Amulet of Power — are pictured twice; you will have to pick
    one of these spaces.)' `fight amulet_of_power=magic`; each button shows its sums."""
    state = galen_in_force()
    people = G.combat + strength("hodge", "wulfstan", "cedric_the_bold", "ewan_strongarm")
    shown = labels(state, GALEN)
    assert set(shown) == {"fight amulet_of_power=combat", "fight amulet_of_power=magic"}
    # The Amulet adds 3 at Low Altitude in either box.
    assert sums(shown["fight amulet_of_power=combat"]) == (people + 3, G.magic)
    assert sums(shown["fight amulet_of_power=magic"]) == (people, G.magic + 3)
    assert shown["fight amulet_of_power=combat"].startswith("Amulet of Power combat: ")
    # Magic 1 is below the Dragon's 2; magic 4 is '2 more' and combat '5 more': 2/2.
    assert result_of(shown["fight amulet_of_power=combat"]) is None
    assert result_of(shown["fight amulet_of_power=magic"]) == (2, 2)
    after, events = act(state, GALEN, "  FIGHT   Amulet_of_Power=MAGIC ")
    assert matrix_read(events) == (2, 2)
    view = battle(after)
    assert AMULET in {i["key"] for i in view["magic_items"]}
    assert AMULET not in {i["key"] for i in view["combat_items"]}
    assert view["magic"]["things"] == 3 and view["combat"]["things"] == 0
    for wrong in ("fight amulet_of_power=sideways", "fight axe_of_ardanna=magic", "dance"):
        with pytest.raises(ActionError, match=r"amulet_of_power=combat|`fight"):
            act(state, GALEN, wrong)


def test_combat_and_magic_strengths_are_added_up():
    """'Add the combat strength of everyone in your party and, reading across the line that
    matches your Dragon Location tile, add the combat strength of everything you have on the
    top two rows of the Display and note the total; then add the magic strength of your
    magician and the magic strength of everything you have on the bottom row of the Display
    and note this total.'"""
    things = ("hart_bow", "sicarius_draconum", "spell_of_killing", "spell_of_lightning")
    state = scene(companions=("wulfstan", "maud"), things=things, dragon=3)
    state, _ = enter(state, AURRIC, "low_altitude")
    people = A.combat + strength("wulfstan", "maud")
    # Low Altitude: Hart Bow 2, Sicarius Draconum 2, Spell of Killing 3 (combat);
    # Spell of Lightning 1 (magic).
    assert sums(labels(state, AURRIC)["fight"]) == (people + 7, A.magic + 1)
    after, _ = act(state, AURRIC, "fight")
    view = battle(after)
    assert view["resolved"] and view["dragon"] == 3
    assert view["combat"] == {
        "people": people,
        "things": 7,
        "modifier": 0,
        "total": people + 7,
        "over": people + 7 - 3,
    }
    assert view["magic"] == {
        "magician": A.magic,
        "things": 1,
        "modifier": 0,
        "total": A.magic + 1,
        "over": A.magic + 1 - 3,
    }


def test_magic_strength_at_high_altitude():
    """'then add the magic strength of your magician and the magic strength of everything
    you have on the bottom row of the Display': Whirlwinds 2 and Storms 1 at High Altitude,
    and the +1 of the Strength Modifiers."""
    state = scene(things=("spell_of_whirlwinds", "spell_of_storms"))
    state, _ = enter(state, AURRIC, "high_altitude")
    assert sums(labels(state, AURRIC)["fight"]) == (A.combat + 1, A.magic + 3 + 1)


MODIFIERS = {
    "high_altitude": +1,  # 'Flying at High Altitude: Add 1 to both your strengths.'
    "low_altitude": 0,  # 'Flying at Low Altitude: There is no modification.'
    "open": -1,  # 'In the Open: Subtract 1 from both your strengths.'
    "mouth": 0,  # 'At the Mouth of its Lair: There is no modification.'
    "passage": -2,  # 'In the Passage of its Lair: Subtract 2 from both your strengths.'
    "lake": -2,  # 'In the Lake of Fire: Subtract 2 from both your strengths.'
}


@pytest.mark.parametrize("row", SIX)
def test_the_strength_modifiers_change_both_strengths(row):
    """'Now look at the Strength Modifiers Display and add or subtract as you are
    instructed.'"""
    state, _ = enter(scene(companions=("wulfstan",)), AURRIC, row)
    combat, magic = sums(labels(state, AURRIC)["fight"])
    assert combat == A.combat + strength("wulfstan") + MODIFIERS[row]
    assert magic == A.magic + MODIFIERS[row]
    assert {r["key"]: r["modifier"] for r in battle(state)["rows"]} == MODIFIERS


def matrix_fight(magic_over: int, combat_over: int) -> tuple[int, int]:
    """Fight at Low Altitude with strengths ``magic_over`` and ``combat_over`` more than the
    Dragon's; the Matrix's (lost, levels) as the fight read it."""
    for spells in ((), ("spell_of_storms",), ("spell_of_whirlwinds",)):
        extra = {"spell_of_storms": 1, "spell_of_whirlwinds": 2}
        spells_magic = sum(extra[s] for s in spells)
        dragon = A.magic + spells_magic - magic_over
        if 1 <= dragon <= 5 and dragon + combat_over >= A.combat:
            break
    else:
        spells = ("spell_of_whirlwinds", "spell_of_storms")
        dragon = A.magic + 3 - magic_over
    companions = greedy_companions(dragon + combat_over - A.combat)
    state = scene(companions=companions, things=spells, dragon=dragon)
    state, _ = enter(state, AURRIC, "low_altitude")
    combat, magic = sums(labels(state, AURRIC)["fight"])
    assert (magic - dragon, combat - dragon) == (magic_over, combat_over)
    _, events = act(state, AURRIC, "fight")
    return matrix_read(events)


def test_combat_is_read_across_the_top_and_magic_down_the_side():
    """'Subtract the Dragon's strength (recorded on the Dragon Strength Track on the map)
    from each of your strengths and look at the Dragon Battle Matrix, finding the
    description of your combat strength across the top and the description of your magic
    strength down the left side.' Magic 1 more, combat 2 more: 5/0; the other way: 6/0."""
    assert matrix_fight(magic_over=1, combat_over=2) == (5, 0)
    assert matrix_fight(magic_over=2, combat_over=1) == (6, 0)
    assert matrix_fight(magic_over=0, combat_over=5) == (2, 0)
    assert matrix_fight(magic_over=1, combat_over=5) == (2, 1)


@pytest.mark.parametrize("magic_over", range(6))
def test_every_matrix_cell_is_reachable_and_read(magic_over):
    """The Matrix cell for each difference; 'At least 5 more' for any more than that."""
    from engines.dragonslayer.battle import load_battle

    for combat_over in range(8):
        expected = load_battle().matrix[min(magic_over, 5)][min(combat_over, 5)]
        assert matrix_fight(magic_over, combat_over) == expected, (magic_over, combat_over)


@pytest.mark.parametrize("below", ["combat", "magic"])
def test_either_strength_below_the_dragons_loses_at_once(below):
    """'(If either of your strengths is less than the Dragon's strength, you immediately
    lose.)' The party is wiped out and the magician is out of the game."""
    if below == "combat":
        companions: tuple[str, ...] = ()
        dragon = A.combat + 1
    else:
        dragon = A.magic + 1
        companions = greedy_companions(dragon + 2 - A.combat)
    state = scene(companions=companions, dragon=dragon)
    state, _ = enter(state, AURRIC, "low_altitude")
    label = labels(state, AURRIC)["fight"]
    combat, magic = sums(label)
    assert (combat < dragon) == (below == "combat") and (magic < dragon) == (below == "magic")
    assert label.endswith("wiped out")
    after, _ = act(state, AURRIC, "fight")
    magician = after["magicians"][AURRIC]
    assert magician["out"] and magician["where"] is None
    assert after["parties"][AURRIC] == {"companions": [], "things": [], "kept": []}
    assert not [km for km in after["kings_men"] if km["seat"] == AURRIC]
    assert set(companions) <= set(after["removed"])
    assert after["dragon"] == dragon
    assert GAME.view(after, None)["magicians"][AURRIC]["out"]


def test_strengths_equal_to_the_dragons_read_the_same():
    """Equal is not less: strengths the same as the Dragon's read 'The same' (10/0)."""
    dragon = A.magic + 1  # the Spell of Storms adds 1 at Low Altitude
    companions = greedy_companions(dragon - A.combat)
    state = scene(companions=companions, things=("spell_of_storms",), dragon=dragon)
    state, _ = enter(state, AURRIC, "low_altitude")
    assert sums(labels(state, AURRIC)["fight"]) == (dragon, dragon)
    _, events = act(state, AURRIC, "fight")
    assert matrix_read(events) == (10, 0)


def test_the_player_chooses_what_the_dragon_takes():
    """'The number to the left of the slash indicates the number of weapons, spells, magic
    items, and/or companions (your choice) you immediately lose. Remove any spells, magic
    items, and companions you choose to lose from the game; place any weapons you choose to
    lose on the Abandoned Weapons Display.'"""
    things = ("hart_bow", "sicarius_draconum", "spell_of_killing", "spell_of_lightning")
    state = scene(companions=("wulfstan", "maud"), things=things, dragon=3)
    state, _ = enter(state, AURRIC, "low_altitude")
    state, events = act(state, AURRIC, "fight")
    assert matrix_read(events) == (2, 1)
    assert prompt(state) == (AURRIC, "lose")
    assert "2" in GAME.prompts(state)[0].text
    offered = set(labels(state, AURRIC))
    assert offered == {f"lose {k}" for k in ("wulfstan", "maud", *things)}
    with pytest.raises(IllegalAction, match="lose"):
        act(state, AURRIC, "lose the_diamond_mace")
    state, _ = act(state, AURRIC, "lose Hart Bow")
    assert GAME.prompts(state)[0].text.count("1") == 1
    state, _ = act(state, AURRIC, "lose spell_of_lightning")
    assert state["abandoned"]["low_altitude"] == ["hart_bow"]
    assert "spell_of_lightning" in state["removed"] and "hart_bow" not in state["removed"]
    assert state["parties"][AURRIC]["companions"] == ["wulfstan", "maud"]
    assert GAME.view(state, None)["abandoned"] == {
        "low_altitude": [{"key": "hart_bow", "name": "Hart Bow"}]
    }


def test_the_dragon_loses_strength_levels():
    """'The number to the right of the slash indicates the number of strength levels the
    Dragon permanently loses; adjust the marker on the Dragon Strength Track accordingly.'"""
    state = survived_fight()
    assert state["dragon"] == 1
    assert GAME.view(state, None)["dragon"] == {"strength": 1}


def test_a_party_that_must_lose_more_than_it_has_is_wiped_out():
    """Reading: a party that must lose more than it has loses all it has and is wiped out
    (its weapons lie abandoned, as lost in the Lair)."""
    state = scene(companions=("wulfstan",), things=("hart_bow", "spell_of_whirlwinds"), dragon=3)
    state, _ = enter(state, AURRIC, "low_altitude")
    # Combat 1+3+2 is 3 more, magic 3+2 is 2 more: 3/0, and the party has 3 to lose...
    assert result_of(labels(state, AURRIC)["fight"]) == (3, 0)
    state = scene(companions=("wulfstan",), things=("spell_of_whirlwinds",), dragon=3)
    state, _ = enter(state, AURRIC, "low_altitude")
    # ... without the bow, combat is 1 more: 6/0, and only 2 to lose.
    assert labels(state, AURRIC)["fight"].endswith("wiped out")
    after, events = act(state, AURRIC, "fight")
    assert matrix_read(events) == (6, 0)
    assert after["magicians"][AURRIC]["out"]
    assert {"wulfstan", "spell_of_whirlwinds"} <= set(after["removed"])


def test_a_party_wiped_out_in_the_lair_abandons_its_weapons_there():
    """'When you lose a weapon in the Dragon's Lair, put the weapon on the Abandoned Weapons
    Display in the box that describes where the battle took place.' So too when the whole
    party is lost."""
    state = scene(things=("hart_bow",), dragon=5)
    state, _ = enter(state, AURRIC, "passage")
    after, _ = act(state, AURRIC, "fight")
    assert after["magicians"][AURRIC]["out"]
    assert after["abandoned"]["passage"] == ["hart_bow"]


def test_killing_the_dragon_and_surviving_wins():
    """'(If the Dragon reaches a strength of zero, it is dead and the game is over.)' 'You
    win Dragonslayer by fighting the Dragon — either in the Lair or in a raid — and
    reducing the Dragon's strength to zero.'"""
    state = scene(companions=("wulfstan", "cedric_the_bold"), dragon=1)
    put_magician(state, GALEN, NEAR)
    near = list(state["slots"][NEAR])
    state, _ = enter(state, AURRIC, "low_altitude")
    # Combat 7 is at least 5 more, magic 3 is 2 more: 2/2, and the Dragon stops at 0.
    state, events = act(state, AURRIC, "fight")
    assert matrix_read(events) == (2, 2) and state["dragon"] == 0
    assert GAME.result(state) is None and prompt(state) == (AURRIC, "lose")
    state, _ = act(state, AURRIC, "lose wulfstan")
    state, events = act(state, AURRIC, "lose cedric_the_bold")
    result = GAME.result(state)
    assert result is not None and result.winners == (AURRIC,) and result.text
    assert state["phase"] == "over" and GAME.prompts(state) == []
    assert GAME.legal_actions(state, AURRIC) == [] == GAME.legal_actions(state, GALEN)
    assert state["slots"][NEAR] == near and not any("raid" in e.data for e in events)
    assert GAME.view(state, None)["summary"] == result.text
    with pytest.raises(IllegalAction, match="over"):
        act(state, AURRIC, "done")


def test_killing_the_dragon_and_dying_is_a_draw():
    """'It is also possible for your magician to kill the Dragon and be killed himself, in
    which case you earn a draw with the Dragon.' Merridyds and Wulfstan at High Altitude
    against a Dragon of 1: the Matrix takes 2 from a party with 1 to lose."""
    merridyds = 1
    state = scene(players=3, seat=merridyds, companions=("wulfstan",), dragon=1)
    state, _ = enter(state, merridyds, "high_altitude")
    combat, magic = sums(labels(state, merridyds)["fight"])
    assert (magic - 1, combat - 1) == (2, 4)  # '2 more' and '4 more': 2/1
    state, events = act(state, merridyds, "fight")
    assert matrix_read(events) == (2, 1)
    result = GAME.result(state)
    assert result is not None and result.winners == () and result.draw
    assert state["dragon"] == 0 and state["magicians"][merridyds]["out"]
    assert "draw" in result.text.lower()


def test_nobody_wins_when_every_magician_falls():
    """'It is possible that no one will kill the Dragon, in which case no one wins.'
    '(If your party is wiped out by the Dragon, you are out of the game.)' The game goes on
    without the fallen; when every magician has fallen, nobody wins."""
    state = scene()
    state, _ = enter(state, AURRIC, "low_altitude")
    state, _ = act(state, AURRIC, "fight")
    assert state["magicians"][AURRIC]["out"] and GAME.result(state) is None
    assert state["seat"] == GALEN and prompt(state) == (GALEN, "move")
    assert GAME.legal_actions(state, AURRIC) == []
    put_magician(state, GALEN, NEAR)
    state, _ = enter(state, GALEN, "low_altitude")
    state, _ = act(state, GALEN, "fight")
    state, _ = act(state, GALEN, "fight amulet_of_power=magic")
    result = GAME.result(state)
    assert result is not None and result.winners == () and state["dragon"] == 5
    assert all(m["out"] for m in state["magicians"])


def test_after_the_fight_the_magician_rests_in_morgenthorme():
    """'Finally, put your magician (if he survives) in Morgenthorme, where he stays for the
    rest of this turn (he can leave next turn).' No Gain One Day, no moves."""
    state = scene(companions=("wulfstan", "cedric_the_bold", "ewan_strongarm"), dragon=2)
    give(state, AURRIC, kept=(GAIN_DAY,))
    state, _ = enter(state, AURRIC, "low_altitude")
    state, _ = act(state, AURRIC, "fight")
    state, _ = act(state, AURRIC, "lose wulfstan")
    state, _ = act(state, AURRIC, "lose cedric_the_bold")
    assert where(state, AURRIC) == f"place:{MORGENTHORME}"
    assert state["days"] == 0 and state["phase"] == "kings_men"
    assert not any(a == "gain" or a.startswith("go ") for a in labels(state, AURRIC))
    with pytest.raises(IllegalAction):
        act(state, AURRIC, "gain")
    state, _ = act(state, AURRIC, "done")
    state, _ = act(state, GALEN, "done")
    state, _ = act(state, GALEN, "done")
    assert state["seat"] == AURRIC and state["days"] == 3
    moves = [a for a in labels(state, AURRIC) if a.startswith("go ")]
    assert moves and "gain" in labels(state, AURRIC)


def test_the_location_tile_returns_to_the_pile():
    """'Return the Dragon Location tile to the pile.' The next draw is from all seven."""
    state = survived_fight(extra=("ewan_strongarm",))
    state, _ = act(state, AURRIC, "done")
    state = turn(state, AURRIC)
    put_magician(state, AURRIC, NEAR)
    rng = Draws("low_altitude")
    GAME.apply(arrive(state, AURRIC), AURRIC, "draw", rng)
    assert rng.piles == [pile()]


def test_the_dragon_raids_the_nearest_place_with_face_down_tiles():
    """'The Dragon (if he survives) then raids the nearest place that still has face-down
    tiles in it, and those tiles are removed from the game.' Nobody learns what they were."""
    state = scene(companions=("wulfstan", "cedric_the_bold"), dragon=2)
    burnt = [k for k in state["slots"][NEAR] if k]
    state["memory"][GALEN][f"{NEAR}/a"] = state["slots"][NEAR][0]
    others = {p: list(s) for p, s in state["slots"].items() if p != NEAR}
    removed = list(state["removed"])
    state, _ = enter(state, AURRIC, "low_altitude")
    state, _ = act(state, AURRIC, "fight")
    state, _ = act(state, AURRIC, "lose wulfstan")
    state, events = act(state, AURRIC, "lose cedric_the_bold")
    [raid] = [e for e in events if "raid" in e.data]
    assert raid.public and raid.data == {"raid": NEAR}
    assert not any(state["slots"][NEAR])
    assert Counter(state["removed"]) == Counter(removed + burnt + ["wulfstan", "cedric_the_bold"])
    assert {p: s for p, s in state["slots"].items() if p != NEAR} == others
    assert f"{NEAR}/a" not in state["memory"][GALEN]
    assert NEAR not in GAME.view(state, None)["face_down"]
    told = json.dumps([(e.text, e.data) for e in events if e.public])
    names = {load_tiles().tile(k).name for k in burnt}
    assert not any(name in told for name in names)
    assert Counter(expected_tiles()) == tiles_everywhere(state)


def tiles_everywhere(state: dict) -> Counter:
    """Every pool and Galen tile wherever it is (Abandoned Weapons Display included)."""
    found: Counter = Counter()
    for slots in state["slots"].values():
        found.update(k for k in slots if k)
    found.update(state["set_aside"])
    found.update(k for k in state["removed"] if k not in (SHIELD, ULRICH))
    for party in state["parties"]:
        for group in ("companions", "things", "kept"):
            found.update(k for k in party[group] if k != ULRICH)
    for keys in state["abandoned"].values():
        found.update(keys)
    return found


def road_distances(start: str) -> dict[str, int]:
    """Roads from ``start`` to every place, counted here from the map's road list."""
    links: dict[str, set[str]] = {p: set() for p in URLAND.places}
    for road in URLAND.roads:
        links[road.a].add(road.b)
        links[road.b].add(road.a)
    found = {start: 0}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        for there in sorted(links[here]):
            if there not in found:
                found[there] = found[here] + 1
                queue.append(there)
    return found


def raided_after_a_fight(state: dict) -> str | None:
    state, _ = enter(state, AURRIC, "low_altitude")
    state, _ = act(state, AURRIC, "fight")
    state, _ = act(state, AURRIC, "lose wulfstan")
    state, events = act(state, AURRIC, "lose cedric_the_bold")
    raids = [e.data["raid"] for e in events if "raid" in e.data]
    assert len(raids) <= 1
    return raids[0] if raids else None


def test_a_tie_goes_to_the_place_listed_first_in_the_map_data():
    """Reading: nearest by road from the Lair; a tie goes to the place listed first in the
    map data. Glenarrow and Underhill are both one road from the Lair."""
    distances = road_distances(LAIR)
    order = list(URLAND.places)
    assert distances["glenarrow"] == distances["underhill"] == 1
    assert order.index("glenarrow") < order.index("underhill")
    state = scene(companions=("wulfstan", "cedric_the_bold"), dragon=2)
    assert raided_after_a_fight(copy.deepcopy(state)) == "glenarrow"
    set_slots(state, "glenarrow", [None, None])
    assert raided_after_a_fight(state) == "underhill"


@pytest.mark.parametrize("emptied", [0, 2, 3, 5, 8])
def test_the_raid_finds_the_nearest_place_by_road(emptied):
    """'the nearest place that still has face-down tiles in it': the nearest ``emptied``
    places are bare, so the Dragon flies on to the next one."""
    distances = road_distances(LAIR)
    order = list(URLAND.places)
    state = scene(companions=("wulfstan", "cedric_the_bold"), dragon=2)
    holding = sorted(state["slots"], key=lambda p: (distances[p], order.index(p)))
    for place in holding[:emptied]:
        set_slots(state, place, [None] * len(state["slots"][place]))
    assert raided_after_a_fight(state) == holding[emptied]


def test_with_no_face_down_tile_left_the_dragon_raids_nowhere():
    state = scene(companions=("wulfstan", "cedric_the_bold"), dragon=2)
    for place, slots in state["slots"].items():
        set_slots(state, place, [None] * len(slots))
    assert raided_after_a_fight(state) is None


def raid_on_galen() -> dict:
    """Aurric (with Wulfstan, Cedric and the Spell of Whirlwinds) fights a Dragon of 3 at
    Low Altitude: combat 4 more, magic 2 more, 2/1. Galen waits in Glenarrow with Hodge,
    Ewan, Osric, three bows and slings and the Amulet. Returns the state as the raid
    begins."""
    state = scene(companions=("wulfstan", "cedric_the_bold"), things=("spell_of_whirlwinds",))
    state["dragon"] = 3
    put_magician(state, GALEN, NEAR)
    give(
        state,
        GALEN,
        companions=("ewan_strongarm", "osric_the_archer"),
        things=("hart_bow", "crystal_bow", "sling_of_david"),
    )
    state, _ = enter(state, AURRIC, "low_altitude")
    state, events = act(state, AURRIC, "fight")
    assert matrix_read(events) == (2, 1)
    state, _ = act(state, AURRIC, "lose wulfstan")
    state, _ = act(state, AURRIC, "lose cedric_the_bold")
    return state


def test_a_magician_in_the_raided_place_fights_as_at_high_altitude():
    """'If there is a magician in the place raided, he is then attacked and must fight the
    Dragon exactly as though he had gone to the Dragon's Lair and drawn a "Dragon at High
    Altitude" tile, except that after this fight the magician is not put in Morgenthorme,
    and the Dragon does not raid again.'"""
    state = raid_on_galen()
    underhill = list(state["slots"]["underhill"])
    assert state["dragon"] == 2 and where(state, AURRIC) == f"place:{MORGENTHORME}"
    assert prompt(state) == (GALEN, "battle") and state["seat"] == AURRIC
    view = battle(state)
    assert view["raid"] and view["raid_place"] == "Glenarrow"
    assert view["location"] == "high_altitude" and view["seat"] == GALEN
    people = G.combat + strength("hodge", "ewan_strongarm", "osric_the_archer")
    # High Altitude: Amulet 3 (combat or magic), Hart Bow 3, Crystal Bow 2, Sling 2; +1.
    shown = labels(state, GALEN)
    assert sums(shown["fight amulet_of_power=combat"]) == (people + 3 + 7 + 1, G.magic + 1)
    assert sums(shown["fight amulet_of_power=magic"]) == (people + 7 + 1, G.magic + 3 + 1)
    state, events = act(state, GALEN, "fight amulet_of_power=combat")
    # Magic 2 is the same as the Dragon's, combat at least 5 more: 2/0.
    assert matrix_read(events) == (2, 0)
    state, _ = act(state, GALEN, "lose hart_bow")
    state, events = act(state, GALEN, "lose osric_the_archer")
    assert where(state, GALEN) == f"place:{NEAR}"
    assert state["slots"]["underhill"] == underhill
    assert not any("raid" in e.data for e in events)
    assert state["seat"] == AURRIC and prompt(state) == (AURRIC, "kings_men")
    assert state["dragon"] == 2 and GAME.result(state) is None


def test_weapons_lost_in_a_raid_leave_the_game():
    """'Note that any weapons you lose if you are raided are removed from the game — not put
    on the Abandoned Weapons Display.'"""
    state = raid_on_galen()
    state, _ = act(state, GALEN, "fight amulet_of_power=combat")
    state, _ = act(state, GALEN, "lose hart_bow")
    state, _ = act(state, GALEN, "lose crystal_bow")
    assert {"hart_bow", "crystal_bow"} <= set(state["removed"])
    assert not any(state["abandoned"].values())


def test_killing_the_dragon_in_a_raid_wins():
    """'You win Dragonslayer by fighting the Dragon — either in the Lair or in a raid — and
    reducing the Dragon's strength to zero.'"""
    state = raid_on_galen()
    state["dragon"] = 1  # as if Aurric had wounded it more
    state, events = act(state, GALEN, "fight amulet_of_power=combat")
    # Magic 2 is 1 more than the Dragon's 1, combat at least 5 more: 2/1.
    assert matrix_read(events) == (2, 1)
    state, _ = act(state, GALEN, "lose hart_bow")
    state, _ = act(state, GALEN, "lose osric_the_archer")
    result = GAME.result(state)
    assert result is not None and result.winners == (GALEN,)


def test_raided_magicians_fight_in_turn_order_and_a_wiped_out_fighter_is_raided_after():
    """'If there is a magician in the place raided, he is then attacked': each one in turn
    order. The Dragon raids even after wiping out the party that came to the Lair."""
    state = scene(players=3)
    put_magician(state, 1, NEAR)
    put_magician(state, 2, NEAR)
    state, _ = enter(state, AURRIC, "low_altitude")
    state, events = act(state, AURRIC, "fight")
    assert state["magicians"][AURRIC]["out"]
    assert [e.data["raid"] for e in events if "raid" in e.data] == [NEAR]
    assert prompt(state) == (1, "battle") and battle(state)["raid"]
    state, _ = act(state, 1, "fight")
    assert state["magicians"][1]["out"]
    assert prompt(state) == (2, "battle") and battle(state)["seat"] == 2
    state, _ = act(state, 2, "fight")
    result = GAME.result(state)
    assert result is not None and result.winners == ()


# ---------------------------------------------------------------------------------------
# Abandoned Weapons


def abandoned(state: dict, row: str, *weapons: str) -> dict:
    """``weapons`` lying on the Abandoned Weapons Display in box ``row``."""
    for key in weapons:
        give(state, GALEN, things=(key,))
        state["parties"][GALEN]["things"].remove(key)
        state["abandoned"][row].append(key)
    return state


def test_any_party_can_try_to_recover_abandoned_weapons():
    """'Any party can recover abandoned weapons by going to the Dragon's Lair and drawing a
    Dragon Location tile.' With weapons on the Display, a draw that matches none of them
    lets the player choose what the visit is for."""
    state = scene(companions=("wulfstan",))
    assert prompt(enter(state, AURRIC, "open")[0]) == (AURRIC, "battle")
    abandoned(state, "passage", "hart_bow")
    after, _ = enter(state, AURRIC, "open")
    assert prompt(after) == (AURRIC, "lair")
    assert set(labels(after, AURRIC)) == {"fight", "recover"}
    with pytest.raises(UnreadableAction, match="recover"):
        act(after, AURRIC, "dance")


def test_a_draw_matching_the_weapons_means_a_fight():
    """'If you draw the tile that matches the location of the weapons, you have to fight
    the Dragon and cannot recover weapons;' 'The Dragon does not raid (unless you have to
    fight him).'"""
    state = abandoned(scene(companions=("wulfstan",)), "passage", "hart_bow")
    state, events = enter(state, AURRIC, "passage")
    assert "Aurric finds the Dragon there and must fight." in [e.text for e in events]
    assert prompt(state) == (AURRIC, "battle") and battle(state)["location"] == "passage"
    with pytest.raises(IllegalAction, match="fight"):
        act(state, AURRIC, "recover")
    state, events = act(state, AURRIC, "fight")
    assert state["abandoned"]["passage"] == ["hart_bow"]
    assert [e.data["raid"] for e in events if "raid" in e.data] == [NEAR]


@pytest.mark.parametrize("drawn", ["high_altitude", "low_altitude", "open", "mouth", "away"])
def test_any_other_draw_lets_the_party_take_the_weapons(drawn):
    """'if you draw any other tile, you can take the weapons (as many as you can carry) and
    then go to Morgenthorme for the rest of this turn. The Dragon does not raid (unless you
    have to fight him).'"""
    state = abandoned(scene(companions=("wulfstan",)), "passage", "hart_bow")
    abandoned(state, "lake", "axe_of_ardanna")
    near = list(state["slots"][NEAR])
    state, _ = enter(state, AURRIC, drawn)
    state, _ = act(state, AURRIC, "recover")
    assert prompt(state) == (AURRIC, "recover")
    assert set(labels(state, AURRIC)) == {"recover hart_bow", "recover axe_of_ardanna", "done"}
    state, _ = act(state, AURRIC, "recover Hart Bow")
    assert prompt(state) == (AURRIC, "recover")
    state, events = act(state, AURRIC, "recover axe_of_ardanna")
    assert state["parties"][AURRIC]["things"] == ["hart_bow", "axe_of_ardanna"]
    assert not any(state["abandoned"].values())
    assert where(state, AURRIC) == f"place:{MORGENTHORME}"
    assert state["days"] == 0 and state["phase"] == "kings_men"
    assert state["slots"][NEAR] == near and not any("raid" in e.data for e in events)
    assert state["dragon"] == 5


def test_recovering_takes_only_as_many_as_the_party_can_carry():
    """'you can take the weapons (as many as you can carry)': Aurric alone carries one."""
    state = abandoned(scene(), "passage", "hart_bow")
    abandoned(state, "lake", "axe_of_ardanna")
    state, _ = enter(state, AURRIC, "open")
    state, _ = act(state, AURRIC, "recover")
    state, _ = act(state, AURRIC, "recover axe_of_ardanna")
    assert state["parties"][AURRIC]["things"] == ["axe_of_ardanna"]
    assert state["abandoned"]["passage"] == ["hart_bow"]
    assert where(state, AURRIC) == f"place:{MORGENTHORME}" and not state["pending"]


def test_recovering_may_take_nothing():
    """Reading: weapons are taken one by one (`recover <weapon>`), then `done`."""
    state = abandoned(scene(companions=("wulfstan",)), "passage", "hart_bow")
    state, _ = enter(state, AURRIC, "open")
    state, _ = act(state, AURRIC, "recover")
    with pytest.raises(IllegalAction, match="recover"):
        act(state, AURRIC, "recover axe_of_ardanna")
    state, _ = act(state, AURRIC, "done")
    assert state["abandoned"]["passage"] == ["hart_bow"]
    assert where(state, AURRIC) == f"place:{MORGENTHORME}"


def test_choosing_to_fight_with_weapons_about_is_a_fight():
    """Reading: after a draw that matches no box, `fight` is a fight; 'Away' offers no
    fight ('you cannot fight the Dragon if he is not there'), only recovering or leaving."""
    state = abandoned(scene(companions=("wulfstan",)), "passage", "hart_bow")
    drawn, _ = enter(state, AURRIC, "open")
    fought, _ = act(drawn, AURRIC, "fight")
    assert prompt(fought) == (AURRIC, "battle") and battle(fought)["location"] == "open"
    away, _ = enter(state, AURRIC, "away")
    assert set(labels(away, AURRIC)) == {"recover", "done"}
    with pytest.raises(IllegalAction, match="`recover`, `done`"):
        act(away, AURRIC, "fight")
    left, _ = act(away, AURRIC, "done")
    assert where(left, AURRIC) == f"place:{MORGENTHORME}" and left["fight"] is None
    assert left["abandoned"]["passage"] == ["hart_bow"]


def test_a_weapon_the_party_can_no_longer_carry_in_the_lair_lies_abandoned():
    """Reading: losing companions in the Lair can leave more weapons than people; the ones
    put down lie on the Abandoned Weapons Display in the battle's box."""
    weapons = ("hart_bow", "axe_of_ardanna", "hammer_of_morgan")
    state = scene(companions=("wulfstan", "cedric_the_bold"), things=weapons, dragon=2)
    state, _ = enter(state, AURRIC, "low_altitude")
    state, events = act(state, AURRIC, "fight")
    assert matrix_read(events) == (2, 1)
    state, _ = act(state, AURRIC, "lose wulfstan")
    state, _ = act(state, AURRIC, "lose cedric_the_bold")
    assert prompt(state) == (AURRIC, "drop")
    state, _ = act(state, AURRIC, "drop axe_of_ardanna")
    state, _ = act(state, AURRIC, "drop hammer_of_morgan")
    assert state["abandoned"]["low_altitude"] == ["axe_of_ardanna", "hammer_of_morgan"]
    assert state["parties"][AURRIC]["things"] == ["hart_bow"]
    assert where(state, AURRIC) == f"place:{MORGENTHORME}"


def test_spells_put_down_in_the_lair_leave_the_game():
    """The Abandoned Weapons Display holds weapons only: when Galen loses Ulrich in the Lair
    and must put down spells he can no longer carry, they leave the game."""
    state = scene(
        seat=GALEN,
        companions=(ULRICH, "wulfstan", "cedric_the_bold"),
        things=("spell_of_storms", "spell_of_whirlwinds"),
        dragon=2,
    )
    state, _ = enter(state, GALEN, "low_altitude")
    state, _ = act(state, GALEN, "fight")
    state, events = act(state, GALEN, "fight amulet_of_power=combat")
    assert matrix_read(events) == (2, 2)
    state, _ = act(state, GALEN, "lose ulrich")
    state, _ = act(state, GALEN, "lose hodge")
    assert prompt(state) == (GALEN, "drop")
    state, _ = act(state, GALEN, "drop spell_of_storms")
    state, _ = act(state, GALEN, "drop amulet_of_power")
    assert not any(state["abandoned"].values())
    assert {"spell_of_storms", AMULET, ULRICH} <= set(state["removed"])
    assert GAME.result(state).winners == (GALEN,)


# ---------------------------------------------------------------------------------------
# Special tiles


def test_valerian_takes_the_dragon_shield_into_the_first_fight():
    """'Dragon Shield. If you have Valerian as a companion, you can take this tile from its
    box on the map the first time you fight the Dragon. The Shield can be used only once
    (then it is removed from the game)'. It is pictured twice: combat or magic."""
    state = scene(companions=("valerian",))
    state, _ = enter(state, AURRIC, "low_altitude")
    assert SHIELD not in state["boxes"] and not GAME.view(state, None)["boxes"][SHIELD]
    shown = labels(state, AURRIC)
    people = A.combat + strength("valerian")
    # The Shield at Low Altitude: 1 combat, or 1 magic.
    assert sums(shown["fight dragon_shield=combat"]) == (people + 1, A.magic)
    assert sums(shown["fight dragon_shield=magic"]) == (people, A.magic + 1)
    after, _ = act(state, AURRIC, "fight dragon_shield=combat")
    assert SHIELD in after["removed"] and SHIELD not in after["boxes"]
    assert not any(after["abandoned"].values())


def test_without_valerian_the_shield_stays_in_its_box():
    state = scene(companions=("wulfstan",))
    state, _ = enter(state, AURRIC, "low_altitude")
    assert SHIELD in state["boxes"] and set(labels(state, AURRIC)) == {"fight"}
    assert GAME.view(state, None)["boxes"][SHIELD]


def test_the_shield_is_only_for_the_partys_first_fight():
    """Reading: the Shield joins the first fight of a party with Valerian; a party that
    fought before Valerian joined never gets it."""
    state = survived_fight(extra=("ewan_strongarm",))
    assert SHIELD in state["boxes"]
    state = turn(state, AURRIC)
    put_magician(state, AURRIC, NEAR)
    give(state, AURRIC, companions=("valerian",))
    state, _ = enter(state, AURRIC, "low_altitude")
    assert SHIELD in state["boxes"] and set(labels(state, AURRIC)) == {"fight"}


def test_the_shield_never_counts_as_a_weapon():
    """'and it never counts as a weapon carried by your party.' The Spell of Killing needs a
    weapon; the Shield is not one, is not carried, and cannot be lost."""
    state = scene(companions=("valerian",), things=("spell_of_killing",), dragon=1)
    state, _ = enter(state, AURRIC, "low_altitude")
    people = A.combat + strength("valerian")
    assert sums(labels(state, AURRIC)["fight dragon_shield=combat"]) == (people + 1, A.magic)
    assert GAME.view(state, None)["parties"][AURRIC]["carry"]["weapons"] == [0, 2]
    # Combat 4 and magic 3 against 1: 3 and 2 more, 3/0; the party has 2 to lose.
    state, events = act(state, AURRIC, "fight dragon_shield=combat")
    assert matrix_read(events) == (3, 0)
    assert not any(state["abandoned"].values()) and SHIELD in state["removed"]


WEAPON_BOUND = [
    # (weapons, weapon-bound tiles, what they add at Low Altitude)
    ((), ("spell_of_killing", "charm_of_weaponry"), 0),
    (("axe_of_ardanna",), ("spell_of_killing", "spell_to_enchant_weapon"), 3),
    (("axe_of_ardanna", "hammer_of_morgan"), ("spell_of_killing", "spell_to_enchant_weapon"), 5),
    (("axe_of_ardanna",), ("spell_to_enchant_weapon", "charm_of_weaponry"), 2),
    (("hart_bow",), ("charm_of_weaponry",), 2 + 1),
]


@pytest.mark.parametrize(("weapons", "bound", "adds"), WEAPON_BOUND)
def test_weapon_bound_tiles_count_one_per_weapon(weapons, bound, adds):
    """'Enchant Weaponry Spell, Spell of Killing, Charm of Weaponry. You can use the combat
    strength of these tiles while fighting the Dragon only if you have at least one weapon
    in your party, and you can use only one of these tiles per weapon.' Reading: the
    strongest count first."""
    state = scene(companions=("maud",), things=(*weapons, *bound))
    state, _ = enter(state, AURRIC, "low_altitude")
    people = A.combat + strength("maud")
    assert sums(labels(state, AURRIC)["fight"]) == (people + adds, A.magic)


def test_the_battle_picture_keeps_the_strengths_fought_while_losses_are_chosen():
    """The picture of a resolved battle shows the strengths it was fought with and the
    Dragon's strength before the Matrix cut it, however the losses are then chosen."""
    things = ("hart_bow", "sicarius_draconum", "spell_of_killing", "spell_of_lightning")
    state = scene(companions=("wulfstan", "maud"), things=things, dragon=3)
    state, _ = enter(state, AURRIC, "low_altitude")
    state, _ = act(state, AURRIC, "fight")
    fought = battle(state)
    assert fought["dragon"] == 3 and state["dragon"] == 2
    assert fought["magic"]["over"] == fought["cell"]["magic"] == 1
    state, _ = act(state, AURRIC, "lose wulfstan")
    later = battle(state)
    for key in ("combat", "magic", "cell", "dragon", "combat_items", "magic_items"):
        assert later[key] == fought[key], key


def test_weapon_bound_tiles_not_counted_are_shown_so():
    """The picture marks a weapon-bound tile that did not count."""
    things = ("axe_of_ardanna", "spell_of_killing", "spell_to_enchant_weapon")
    state = scene(companions=("wulfstan", "cedric_the_bold"), things=things, dragon=2)
    state, _ = enter(state, AURRIC, "low_altitude")
    state, _ = act(state, AURRIC, "fight")
    counted = {i["key"]: i["counted"] for i in battle(state)["combat_items"]}
    assert counted == {
        "axe_of_ardanna": True,
        "spell_of_killing": True,
        "spell_to_enchant_weapon": False,
    }


SEERS = ["silver_ewer", "orb_of_vision", "far_mirror"]


@pytest.mark.parametrize("item", SEERS)
def test_a_seer_item_lets_the_first_draw_be_discarded(item):
    """'Silver Ewer, Orb of Vision, Far Mirror. When you enter the Dragon's Lair with any one
    of these, you can discard the first Dragon Location tile you draw.' The tile discarded
    is not drawn again, and the second draw stands."""
    state = scene(companions=("wulfstan",), things=(item,))
    state, _ = enter(state, AURRIC, "open")
    assert prompt(state) == (AURRIC, "lair")
    assert set(labels(state, AURRIC)) == {"fight", "redraw"}
    rng = Draws("lake")
    after, events = GAME.apply(state, AURRIC, "redraw", rng)
    assert rng.piles == [[k for k in pile() if k != "open"]]
    assert [e.data["location"] for e in events if "location" in e.data] == ["lake"]
    assert prompt(after) == (AURRIC, "battle") and battle(after)["location"] == "lake"
    faced, _ = act(state, AURRIC, "fight")
    assert battle(faced)["location"] == "open"
    with pytest.raises(IllegalAction, match="redraw"):
        act(state, AURRIC, "recover")


def test_without_a_seer_item_the_first_draw_stands():
    state, _ = enter(scene(companions=("wulfstan",)), AURRIC, "open")
    assert prompt(state) == (AURRIC, "battle")


def test_two_seer_items_still_give_one_redraw():
    """Reading: the first draw only may be discarded, with however many of these."""
    state = scene(companions=("wulfstan",), things=("silver_ewer", "orb_of_vision"))
    state, _ = enter(state, AURRIC, "open")
    state, _ = act(state, AURRIC, "redraw", "mouth")
    assert prompt(state) == (AURRIC, "battle")


def test_a_redraw_never_draws_the_same_tile_again():
    state = scene(companions=("wulfstan",), things=("far_mirror",))
    for seed in range(60):
        rng = random.Random(seed)
        first, events = GAME.apply(arrive(state, AURRIC), AURRIC, "draw", rng)
        _, again = GAME.apply(first, AURRIC, "redraw", rng)
        drawn = [e.data["location"] for e in events + again if "location" in e.data]
        assert len(drawn) == 2 and drawn[0] != drawn[1]


def test_a_seer_item_may_discard_the_dragon_away():
    """'you can discard the first Dragon Location tile you draw': 'Away' too."""
    state = scene(companions=("wulfstan",), things=("silver_ewer",))
    state, _ = enter(state, AURRIC, "away")
    assert prompt(state) == (AURRIC, "lair")
    assert set(labels(state, AURRIC)) == {"done", "redraw"}
    faced, _ = act(state, AURRIC, "done")
    assert where(faced, AURRIC) == f"place:{MORGENTHORME}"
    again, _ = act(state, AURRIC, "redraw", "mouth")
    assert battle(again)["location"] == "mouth"


def test_a_seer_item_serves_once_a_turn():
    """'You can use each of these tiles only once per turn.' After its one use, the magician
    rests in Morgenthorme: no second visit to the Lair that turn."""
    state = scene(companions=("wulfstan",), things=("orb_of_vision",))
    state, _ = enter(state, AURRIC, "open")
    state, _ = act(state, AURRIC, "redraw", "away")
    assert where(state, AURRIC) == f"place:{MORGENTHORME}" and state["days"] == 0
    assert not any(a.startswith("go ") for a in labels(state, AURRIC))


def galen_at_the_lair(drawn: str, *extra: str) -> dict:
    """Galen, holding Ulrich's Ashes, in the Lair having drawn ``drawn``."""
    state = scene(seat=GALEN, companions=extra)
    state, _ = enter(state, GALEN, drawn)
    return state


def test_galen_may_try_for_ulrich():
    """'Ulrich's Ashes. Galen can turn Ulrich's Ashes into Ulrich by going to the Dragon's
    Lair as if he were trying to recover abandoned weapons.'"""
    state = galen_at_the_lair("open")
    assert prompt(state) == (GALEN, "lair")
    assert set(labels(state, GALEN)) == {"fight", "recover"}
    assert labels(state, GALEN)["recover"] == "Turn Ulrich's Ashes into Ulrich"


def test_the_lake_of_fire_denies_ulrich():
    """'If he draws "The Dragon is in the Lake of Fire," he has to fight the Dragon and
    cannot trade the Ashes for Ulrich;'"""
    state = galen_at_the_lair("lake")
    assert prompt(state) == (GALEN, "battle") and battle(state)["location"] == "lake"
    assert ASHES in state["parties"][GALEN]["things"] and ULRICH in state["boxes"]


@pytest.mark.parametrize("drawn", ["high_altitude", "low_altitude", "open", "mouth", "passage"])
def test_any_other_tile_turns_the_ashes_into_ulrich(drawn):
    """'if he draws any other tile, he gets Ulrich and the Ashes are removed from the game.'
    'Note that Ulrich can carry up to three magic items and/or spells for Galen.'"""
    start = scene(seat=GALEN)
    near = list(start["slots"][NEAR])
    state, events = enter(start, GALEN, drawn)
    state, more = act(state, GALEN, "recover")
    events += more
    party = state["parties"][GALEN]
    assert ULRICH in party["companions"] and ASHES not in party["things"]
    assert ASHES in state["removed"] and ULRICH not in state["boxes"]
    assert not GAME.view(state, None)["boxes"][ULRICH]
    assert where(state, GALEN) == f"place:{MORGENTHORME}" and state["days"] == 0
    assert state["slots"][NEAR] == near and not any("raid" in e.data for e in events)
    assert GAME.view(state, None)["parties"][GALEN]["carry"]["magic"] == [1, G.pentacles + 3]
    give(state, GALEN, things=("spell_of_storms", "spell_of_whirlwinds", "spell_of_lightning"))
    state, _ = act(state, GALEN, "done")
    assert not any(d["kind"] == "drop" for d in state["pending"])


def test_the_dragon_away_also_turns_the_ashes_into_ulrich():
    """'if he draws any other tile': 'The Dragon is Away' is another tile."""
    state, _ = act(galen_at_the_lair("away"), GALEN, "recover")
    assert ULRICH in state["parties"][GALEN]["companions"]


def test_galen_who_chooses_to_fight_keeps_the_ashes():
    state, _ = act(galen_at_the_lair("open"), GALEN, "fight")
    assert prompt(state) == (GALEN, "battle")
    assert ASHES in state["parties"][GALEN]["things"] and ULRICH in state["boxes"]


def test_galen_recovering_weapons_and_ulrich_at_once():
    """Reading: 'Recovering: when the tile drawn is not a box holding abandoned weapons (nor
    the Lake of Fire for Galen's Ashes), take weapons one by one ..., Ulrich joins in place
    of the Ashes ...; otherwise, a fight.' Ulrich, joining first, helps carry weapons."""
    start = abandoned(scene(seat=GALEN), "open", "hart_bow", "axe_of_ardanna")
    fought, _ = enter(start, GALEN, "open")
    assert prompt(fought) == (GALEN, "battle")
    assert ASHES in fought["parties"][GALEN]["things"] and ULRICH in fought["boxes"]
    state, _ = enter(start, GALEN, "mouth")
    assert labels(state, GALEN)["recover"] == "Recover abandoned weapons, and Ulrich for the Ashes"
    state, _ = act(state, GALEN, "recover")
    assert ULRICH in state["parties"][GALEN]["companions"]
    # Galen, Hodge and Ulrich carry three weapons: both lying there can be taken.
    state, _ = act(state, GALEN, "recover hart_bow")
    state, _ = act(state, GALEN, "recover axe_of_ardanna")
    assert {"hart_bow", "axe_of_ardanna"} <= set(state["parties"][GALEN]["things"])
    assert where(state, GALEN) == f"place:{MORGENTHORME}"


def test_galen_never_loses_ulrichs_ashes_to_the_dragon():
    """'Galen can never lose Ulrich's Ashes in any other way.' Galen, alone with the Hart
    Bow and the Amulet against a Dragon of 1, reads 2/0 and keeps only the Ashes."""
    state = scene(seat=GALEN, things=("hart_bow",), dragon=1)
    state["parties"][GALEN]["companions"].remove("hodge")
    state["removed"].append("hodge")
    state, _ = enter(state, GALEN, "low_altitude")
    state, _ = act(state, GALEN, "fight")
    # Combat 1 + Amulet 3 + Hart Bow 2 is 5 more; magic 1 is the same.
    state, events = act(state, GALEN, "fight amulet_of_power=combat")
    assert matrix_read(events) == (2, 0)
    assert set(labels(state, GALEN)) == {"lose hart_bow", f"lose {AMULET}"}
    with pytest.raises(IllegalAction):
        act(state, GALEN, f"lose {ASHES}")
    state, _ = act(state, GALEN, "lose hart_bow")
    state, _ = act(state, GALEN, f"lose {AMULET}")
    assert not state["magicians"][GALEN]["out"]
    assert state["parties"][GALEN]["things"] == [ASHES]


# ---------------------------------------------------------------------------------------
# Summary of the Rules: Slaying the Dragon


def test_the_summary_sequence():
    """'Move to the Dragon's Lair. Draw a Dragon Location tile at random. Place your weapons,
    spells, and magic items on the Battle Display. Add your combat strengths, including
    your companions. Add your magic strengths, including your magicians. Add or subtract
    the modifier for the Dragon's location. Subtract the Dragon's strength from each of your
    strengths. Look at the Dragon Battle Matrix and apply the results. Put your magician in
    Morgenthorme for the rest of his turn. The Dragon raids the nearest place with face-down
    tiles in it, and battles any magician there as though at High Altitude.'"""
    state = raid_on_galen()
    assert where(state, AURRIC) == f"place:{MORGENTHORME}"
    assert not any(state["slots"][NEAR])
    assert battle(state)["location"] == "high_altitude" and battle(state)["seat"] == GALEN


# ---------------------------------------------------------------------------------------
# Timeouts, purity, views, help


def test_skip_during_a_fight_gives_the_mildest_answers():
    """Skipping: the draw is made, a draw that allows recovering recovers, a tile that could
    be discarded is faced, the battle is fought with the best placement, a loss takes the
    first in the party's order, a recovery is done."""
    inside = arrive(scene(seat=GALEN), GALEN)
    drawn, events = GAME.skip(inside, GALEN, Draws("open"))
    assert prompt(drawn) == (GALEN, "lair") and "Galen draws: " in words(events)
    skipped, _ = GAME.skip(drawn, GALEN, Draws())
    assert ULRICH in skipped["parties"][GALEN]["companions"]

    seer = scene(companions=("wulfstan",), things=("far_mirror",))
    seer, _ = enter(seer, AURRIC, "open")
    skipped, _ = GAME.skip(seer, AURRIC, Draws())
    assert battle(skipped)["location"] == "open"

    fight = galen_in_force()
    outcomes = [result_of(label) for label in labels(fight, GALEN).values()]
    best = max((o for o in outcomes if o), key=lambda o: (o[1], -o[0]))
    skipped, events = GAME.skip(fight, GALEN, Draws())
    assert matrix_read(events) == best
    bare, events = act(fight, GALEN, "fight")
    assert matrix_read(events) == best and bare["fight"]["boxes"] == skipped["fight"]["boxes"]

    losing, _ = GAME.skip(skipped, GALEN, Draws())
    assert losing["parties"][GALEN]["companions"] == [
        "wulfstan",
        "cedric_the_bold",
        "ewan_strongarm",
    ]

    recovering = abandoned(scene(companions=("wulfstan",)), "passage", "hart_bow")
    recovering, _ = enter(recovering, AURRIC, "open")
    recovering, _ = act(recovering, AURRIC, "recover")
    skipped, _ = GAME.skip(recovering, AURRIC, Draws())
    assert skipped["abandoned"]["passage"] == ["hart_bow"]
    assert where(skipped, AURRIC) == f"place:{MORGENTHORME}"


def test_forfeit_during_a_fight_ends_it_without_a_raid():
    """Timeouts: the magician leaves the game with the party; the fight ends with it, the
    Shield taken for it is gone, and the Dragon does not raid. With one magician left,
    that player wins."""
    state = scene(companions=("valerian",))
    near = list(state["slots"][NEAR])
    state, _ = enter(state, AURRIC, "low_altitude")
    after, _ = GAME.forfeit(state, AURRIC, Draws())
    assert after["fight"] is None and SHIELD in after["removed"]
    assert after["slots"][NEAR] == near
    assert GAME.result(after).winners == (GALEN,)

    three = scene(players=3, companions=("wulfstan", "cedric_the_bold"), dragon=2)
    three, _ = enter(three, AURRIC, "low_altitude")
    three, _ = act(three, AURRIC, "fight")
    assert prompt(three) == (AURRIC, "lose")
    three, _ = GAME.forfeit(three, AURRIC, Draws())
    assert three["fight"] is None and not three["pending"]
    assert three["seat"] == 1 and prompt(three) == (1, "move")
    assert any(three["slots"][NEAR]) and GAME.result(three) is None
    assert tiles_everywhere(three) == Counter(expected_tiles())


def fight_states() -> list[tuple[dict, int]]:
    """One state at each decision of a fight, with the seat that decides."""
    states = []
    state = scene(companions=("wulfstan", "cedric_the_bold"), dragon=2)
    abandoned(state, "passage", "hart_bow")
    inside = arrive(state, AURRIC)
    states.append((inside, AURRIC))  # draw
    drawn, _ = act(inside, AURRIC, "draw", "open")
    states.append((drawn, AURRIC))  # lair
    recover, _ = act(drawn, AURRIC, "recover")
    states.append((recover, AURRIC))  # recover
    state, _ = enter(state, AURRIC, "low_altitude")
    state, _ = act(state, AURRIC, "fight")
    states.append((state, AURRIC))  # battle
    state, _ = act(state, AURRIC, "fight")
    states.append((state, AURRIC))  # lose
    seer = scene(things=("silver_ewer",))
    seer, _ = enter(seer, AURRIC, "open")
    states.append((seer, AURRIC))  # lair, with a redraw
    states.append((raid_on_galen(), GALEN))  # a raid's battle
    return states


def test_apply_never_changes_its_input_during_a_fight():
    for state, seat in fight_states():
        before = copy.deepcopy(state)
        for choice in GAME.legal_actions(state, seat):
            GAME.apply(state, seat, choice.action, Draws(*SIX))
            assert state == before, choice.action


def test_every_fight_state_round_trips_through_json():
    for state, _ in fight_states():
        loaded = GAME.load(json.loads(json.dumps(GAME.dump(state))))
        assert loaded == state
        assert GAME.view(loaded, None) == GAME.view(state, None)


BATTLE_KEYS = {
    "seat", "magician", "name", "location", "location_name", "raid", "raid_place", "rows",
    "combat_items", "magic_items", "people", "magician_magic", "resolved", "combat", "magic",
    "dragon", "cell", "matrix", "matrix_legible", "outcome",
}  # fmt: skip


def test_the_public_view_shows_the_battle_and_the_abandoned_weapons():
    """The picture of a fight comes from the public view's "battle" (None when no battle
    is on) and "abandoned" (box -> weapons lying there)."""
    for state, seat in fight_states():
        view = GAME.view(state, None)
        assert "private" not in view and view["summary"]
        assert json.loads(json.dumps(view)) == view
        lying = {"passage": [{"key": "hart_bow", "name": "Hart Bow"}]}
        assert view["abandoned"] == (lying if state["abandoned"]["passage"] else {})
        shown = view["battle"]
        if state["pending"][0]["kind"] in ("draw", "lair", "recover"):
            assert shown is None
            continue
        assert set(shown) >= BATTLE_KEYS
        assert shown["seat"] == seat and shown["location"] in SIX
        assert len(shown["matrix"]) == 6 and all(len(row) == 6 for row in shown["matrix"])
        if shown["resolved"]:
            assert shown["cell"] is not None and shown["outcome"]
            assert shown["combat"]["over"] == shown["combat"]["total"] - shown["dragon"]
        else:
            assert shown["combat"] is None and shown["cell"] is None
        assert isinstance(GAME.view(state, seat)["private"], str)


def test_rules_help_explains_the_fight():
    text = GAME.rules_help()
    for needed in (
        "`fight amulet_of_power=magic`",
        "`draw`",
        "`redraw`",
        "`recover <weapon>`",
        "`lose <tile>`",
        "Morgenthorme",
        "High Altitude",
        "nobody wins",
        "wiped out",
        "first fight",
    ):
        assert needed.lower() in text.lower(), needed
