"""The Dragonslayer computer player: legal, sensible, repeatable, blind to secrets. (That its
fast model of the fight counts as the engine does is tested in
``tests/engines/test_dragonslayer_fast.py``.)"""

from __future__ import annotations

import copy
import random

from engines.dragonslayer.model import load_urland
from games import ENGINES, spec_for
from players import dragonslayer as strong
from players.base import EASY

GAME = ENGINES["dragonslayer"]
PLAYER = strong.PLAYER
ROLES = {2: ["aurric", "galen"], 4: ["aurric", "merridyds", "old_kyvin", "galen"]}
PARK = "castle_morn"
"""A castle in the far south-west where King's men that should not matter wait."""


# -- building positions ----------------------------------------------------------------------


def table(players: int = 2, seed: int = 0) -> dict:
    """A game whose King's men were all placed (through the engine) in :data:`PARK`."""
    state = GAME.setup(ROLES[players], {}, random.Random(seed))
    while state["phase"] == "place":
        state, _ = GAME.apply(state, state["seat"], f"place {PARK}", random.Random(0))
    return state


def _take_out(state: dict, key: str) -> None:
    """Remove ``key`` from wherever the deal put it, so every tile stays in one place."""
    if key in state["boxes"]:
        state["boxes"].remove(key)
        return
    for pile in ("set_aside", "removed"):
        if key in state[pile]:
            state[pile].remove(key)
            return
    for slots in state["slots"].values():
        if key in slots:
            slots[slots.index(key)] = state["set_aside"].pop() if state["set_aside"] else None
            return
    for party in state["parties"]:
        for group in ("companions", "things", "kept"):
            if key in party[group]:
                party[group].remove(key)
                return
    raise AssertionError(f"{key} is nowhere")


def party(state: dict, seat: int, companions=(), things=(), keep_own: bool = False) -> dict:
    """Give ``seat`` exactly these companions and things (Galen's own tiles kept only when
    ``keep_own``)."""
    own = state["parties"][seat]
    if not keep_own:
        state["removed"] += own["companions"] + own["things"]
        own["companions"], own["things"] = [], []
    for group, keys in (("companions", companions), ("things", things)):
        for key in keys:
            _take_out(state, key)
            own[group].append(key)
    return state


def clear(state: dict, place: str) -> dict:
    """No face-down tiles in ``place`` (they join the set-aside pile)."""
    slots = state["slots"][place]
    state["set_aside"] += [key for key in slots if key]
    state["slots"][place] = [None] * len(slots)
    return state


def lay(state: dict, place: str, keys: list[str | None]) -> dict:
    """Lay exactly ``keys`` face down in ``place`` (tiles conserved)."""
    state = clear(state, place)
    for key in keys:
        if key:
            _take_out(state, key)
    state["slots"][place] = list(keys)
    return state


def stand(state: dict, seat: int, where: str, days: int = 3) -> dict:
    """It is ``seat``'s turn, its magician at ``where`` (a place key or full position)."""
    state["magicians"][seat]["where"] = where if ":" in where else f"place:{where}"
    state.update(seat=seat, phase="magician", days=days, active=None, finished=[])
    return state


def decide(state: dict, seat: int, seed: int = 0):
    """The strong player's decision from what ``seat`` observes."""
    return PLAYER.choose(GAME, GAME.observe(state, seat), seat, random.Random(seed))


def into_lair(state: dict, seat: int, location: str) -> dict:
    """Walk ``seat`` (standing next to the Lair) into it, with a draw of ``location``."""
    state, _ = GAME.apply(state, seat, "go dragons_lair", random.Random(0))
    assert GAME.prompts(state)[0].kind == "draw"
    for seed in range(500):
        after, events = GAME.apply(state, seat, "draw", random.Random(seed))
        drawn = [e.data["location"] for e in events if "location" in e.data]
        if drawn and drawn[0] == location:
            return after
    raise AssertionError(f"no seed draws {location}")


def legal(state: dict, seat: int) -> list[str]:
    return [c.action for c in GAME.legal_actions(state, seat)]


# -- legal, total, repeatable ----------------------------------------------------------------


def _play(players: int, seed: int, levels: list[str], steps: int = 1500):
    """Yield ``(state, seat)`` at each prompt of a seeded game played by ``levels``."""
    state = GAME.setup(ROLES[players], {}, random.Random(seed))
    for step in range(steps):
        if GAME.result(state) is not None:
            return
        seat = GAME.prompts(state)[0].seat
        if not GAME.legal_actions(state, seat):
            return  # a prompt the engine offers nothing for: nothing anyone could answer
        yield state, seat
        seen = GAME.observe(state, seat)
        player = spec_for("dragonslayer").player(levels[seat])
        action = player.choose(GAME, seen, seat, random.Random(f"{seed}:{step}:c")).action
        state, _ = GAME.apply(state, seat, action, random.Random(f"{seed}:{step}"))


GAMES_PLAYED = [
    (2, 1, ["strong", "easy"]),
    (2, 2, ["easy", "strong"]),
    (2, 3, ["easy", "easy"]),
    (4, 4, ["easy", "easy", "strong", "easy"]),
    (4, 5, ["easy", "easy", "easy", "easy"]),
]
KINDS = {"place", "move", "kings_men", "keep", "lose", "drop", "castle", "challenge", "answer",
         "escape", "draw", "lair", "battle", "recover"}  # fmt: skip


def test_always_a_legal_action():
    """At every prompt of random games (its own or another seat's), the player answers with
    one of the legal actions, which the engine accepts; the games reach every kind of
    prompt."""
    asked = set()
    for players, seed, levels in GAMES_PLAYED:
        for n, (state, seat) in enumerate(_play(players, seed, levels)):
            seen = GAME.observe(state, seat)
            decision = PLAYER.choose(GAME, seen, seat, random.Random(n))
            assert decision.action in legal(state, seat)
            assert isinstance(decision.why, str) and "\n" not in decision.why
            GAME.apply(state, seat, decision.action, random.Random(n))
            asked.add(GAME.prompts(state)[0].kind)
    assert asked == KINDS


def test_player_is_registered():
    assert spec_for("dragonslayer").player("strong") is PLAYER
    assert spec_for("dragonslayer").player("easy") is EASY


def test_same_inputs_same_decision():
    """The decision depends on the state alone: the same state and seed, asked again with
    the player's memos emptied, gives the same answer."""
    games = [g for g in _play(2, 7, ["strong", "easy"], steps=400) if g[1] == 0]
    for state, seat in games[::7]:
        first = decide(state, seat, seed=3)
        for memo in (strong._win, strong._score, strong.lose_one, strong.placements,
                     strong.row_values, strong.gain_from):  # fmt: skip
            memo.cache_clear()
        assert decide(state, seat, seed=3) == first
        assert decide(state, seat, seed=99) == first


def _hide_differently(state: dict, seat: int) -> dict:
    """The same game but for what ``seat`` cannot see: face-down tiles it never looked at
    are exchanged with each other and with the set-aside pile, and other players' unrevealed
    King's men swap strengths within each set."""
    other = copy.deepcopy(state)
    memory = other["memory"][seat]
    hidden = [
        (place, i)
        for place, slots in sorted(other["slots"].items())
        for i, key in enumerate(slots)
        if key and f"{place}/{'abcdefghijklmnopqrstuvwxyz'[i]}" not in memory
    ]
    pool = [other["slots"][p][i] for p, i in hidden] + other["set_aside"]
    random.Random(1).shuffle(pool)
    for p, i in hidden:
        other["slots"][p][i] = pool.pop()
    other["set_aside"] = sorted(pool)
    sets: dict[int, list[dict]] = {}
    for km in other["kings_men"]:
        if km["seat"] != seat and not km["revealed"]:
            sets.setdefault(km["seat"], []).append(km)
    for men in sets.values():
        if len(men) == 2:
            men[0]["strength"], men[1]["strength"] = men[1]["strength"], men[0]["strength"]
    return other


def test_decision_depends_only_on_what_the_seat_sees():
    """Changing what the seat cannot see (face-down tiles, other players' King's men
    strengths) leaves its observed state and its decision unchanged."""
    checked = 0
    for n, (state, seat) in enumerate(_play(2, 11, ["strong", "easy"], steps=500)):
        if seat != 0 or n % 3:
            continue
        other = _hide_differently(state, seat)
        assert GAME.observe(other, seat) == GAME.observe(state, seat)
        assert decide(other, seat, seed=n) == decide(state, seat, seed=n)
        checked += other != state
    assert checked > 20


def test_hidden_changes_really_change_the_game():
    """The differential test above changes something: the two games differ."""
    state = table(2)
    state = stand(state, 0, "swanscombe")
    assert _hide_differently(state, 0) != state


# -- good moves in hand-built positions ------------------------------------------------------


def test_takes_the_face_down_tile_where_it_stands():
    state = stand(table(2), 0, "swanscombe")
    assert decide(state, 0).action == "take a"


def test_lands_from_the_sea_towards_the_tiles():
    """On the first turn the magician sails from its abode towards Urland."""
    state = table(2)
    assert decide(state, 0).action == "go north_sea"


def test_a_weak_party_does_not_walk_into_the_lair():
    """Aurric alone next to the Lair, with Urland full of tiles: he gathers first."""
    state = stand(table(2), 0, "glenarrow")
    state = clear(state, "glenarrow")
    state = party(state, 0)
    decision = decide(state, 0)
    assert decision.action != "go dragons_lair"
    assert decision.action in legal(state, 0)


def test_a_strong_party_heads_for_the_lair():
    """A party that beats the wounded Dragon anywhere goes for the kill."""
    state = stand(table(2), 0, "glenarrow")
    state = clear(state, "glenarrow")
    state["dragon"] = 1
    state = party(
        state, 0,
        companions=("wulfstan", "cedric_the_bold", "ewan_strongarm"),
        things=("anti_fire_spell", "spell_of_animation", "sicarius_draconum"),
    )  # fmt: skip
    assert strong.win_chance(strong.party_of(state, 0), 1) > 0.9
    decision = decide(state, 0)
    assert decision.action == "go dragons_lair"
    assert "Lair" in decision.why


def test_places_the_amulet_where_it_saves_the_party():
    """Old Kyvin with the Amulet of Power at Low Altitude: on the magic row it lifts magic
    to 7 (Dragon -2); on the combat row magic stays 4 and the party is wiped out."""
    state = stand(table(4), 2, "glenarrow")
    state = party(
        state, 2,
        companions=("wulfstan", "cedric_the_bold", "ewan_strongarm"),
        things=("amulet_of_power",),
    )  # fmt: skip
    state = into_lair(state, 2, "low_altitude")
    assert GAME.prompts(state)[0].kind == "battle"
    decision = decide(state, 2)
    assert decision.action == "fight amulet_of_power=magic"
    assert "magic 7" in decision.why


def test_draws_again_rather_than_face_a_deadly_location():
    """With a Silver Ewer, a Lake of Fire draw that would wipe the party out is discarded."""
    state = stand(table(4), 2, "glenarrow")
    state = party(
        state, 2,
        companions=("wulfstan", "cedric_the_bold", "ewan_strongarm"),
        things=("silver_ewer", "spell_of_lightning"),
    )  # fmt: skip
    state = into_lair(state, 2, "lake")
    assert GAME.prompts(state)[0].kind == "lair"
    assert legal(state, 2) == ["fight", "redraw"]
    assert decide(state, 2).action == "redraw"


def test_faces_a_good_location():
    state = stand(table(4), 2, "glenarrow")
    state = party(
        state, 2,
        companions=("wulfstan", "cedric_the_bold", "ewan_strongarm"),
        things=("silver_ewer", "spell_of_lightning"),
    )  # fmt: skip
    state = into_lair(state, 2, "high_altitude")
    assert decide(state, 2).action == "fight"


def test_swaps_a_weak_weapon_for_a_better_one():
    """Aurric alone carries one weapon: the Black Bow goes, the Sicarius Draconum stays."""
    state = stand(table(2), 0, "swanscombe")
    state = party(state, 0, things=("black_bow",))
    state = lay(state, "swanscombe", ["sicarius_draconum", None, None, None])
    state, _ = GAME.apply(state, 0, "take a", random.Random(0))
    assert GAME.prompts(state)[0].kind == "keep"
    assert decide(state, 0).action == "swap black_bow"


def test_puts_back_a_weaker_weapon():
    state = stand(table(2), 0, "swanscombe")
    state = party(state, 0, things=("sicarius_draconum",))
    state = lay(state, "swanscombe", ["black_bow", None, None, None])
    state, _ = GAME.apply(state, 0, "take a", random.Random(0))
    assert decide(state, 0).action == "return"


def test_does_not_go_back_for_a_tile_it_put_back():
    """The Black Bow it just put back is remembered and left alone."""
    state = stand(table(2), 0, "swanscombe")
    state = party(state, 0, things=("sicarius_draconum",))
    state = lay(state, "swanscombe", ["black_bow", None, None, None])
    state, _ = GAME.apply(state, 0, "take a", random.Random(0))
    state, _ = GAME.apply(state, 0, "return", random.Random(0))
    assert decide(state, 0).action != "take a"


def test_gives_up_the_least_useful_thing():
    """Galen's Amulet of Power is his magic; an Item Stolen takes the Black Bow instead."""
    state = stand(table(2), 1, "holloway")
    state = party(state, 1, companions=("hodge",), things=("amulet_of_power", "black_bow"))
    state = lay(state, "holloway", ["item_stolen", None])
    state, _ = GAME.apply(state, 1, "take a", random.Random(0))
    assert GAME.prompts(state)[0].kind == "lose"
    assert decide(state, 1).action == "lose black_bow"


def test_galen_keeps_ulrich_over_a_stronger_companion():
    """Ulrich carries Galen's spells: a Companion Killed takes Wulfstan, not Ulrich."""
    state = stand(table(2), 1, "holloway")
    state = party(state, 1, companions=("ulrich", "wulfstan"), things=("amulet_of_power",))
    state = lay(state, "holloway", ["companion_killed", None])
    state, _ = GAME.apply(state, 1, "take a", random.Random(0))
    assert decide(state, 1).action == "lose wulfstan"


def test_galen_gathers_companions_before_ulrich():
    """With only Hodge, a Companion Killed could take Ulrich as soon as he comes: Galen
    gathers first."""
    state = stand(table(2), 1, "glenarrow", days=3)
    state = clear(state, "glenarrow")
    assert decide(state, 1).action != "go dragons_lair"


def test_galen_goes_for_ulrich():
    state = stand(table(2), 1, "glenarrow", days=3)
    state = clear(state, "glenarrow")
    state = party(state, 1, companions=("maud", "elspeth"), keep_own=True)
    decision = decide(state, 1)
    assert decision.action == "go dragons_lair"
    assert "Ulrich" in decision.why
    inside, _ = GAME.apply(state, 1, "go dragons_lair", random.Random(0))
    assert GAME.prompts(inside)[0].kind == "draw"
    assert decide(inside, 1).action == "draw"
    drawn = into_lair(state, 1, "open")
    assert legal(drawn, 1) == ["fight", "recover"]
    assert decide(drawn, 1).action == "recover"


def _kings_men_next_to(state: dict, owner: int, place: str, strength: int) -> dict:
    """``owner``'s King's man 1 of this strength waits in a castle next to ``place``; it is
    that seat's King's men phase."""
    castle = next(p for p in load_urland().neighbours(place) if p in {
        c.key for c in load_urland().of_kind("castle")})  # fmt: skip
    mine = [km for km in state["kings_men"] if km["seat"] == owner]
    if mine[0]["strength"] != strength:
        mine[0]["strength"], mine[1]["strength"] = mine[1]["strength"], mine[0]["strength"]
    mine[0]["at"] = castle
    state.update(seat=owner, phase="kings_men", days=0, active=None, finished=[])
    return state


def test_marches_on_a_weak_magician_and_challenges():
    """Tyrian's King's men (strength 4) march from Greyhold on Galen (party 2) at Holloway
    and challenge him."""
    state = table(2)
    state["magicians"][1]["where"] = "place:holloway"
    state = _kings_men_next_to(state, 0, "holloway", 4)
    decision = decide(state, 0)
    assert decision.action == "k1 holloway"
    state, _ = GAME.apply(state, 0, decision.action, random.Random(0))
    assert GAME.prompts(state)[0].kind == "challenge"
    decision = decide(state, 0)
    assert decision.action == "challenge galen"
    assert "4" not in decision.why  # the tile's strength stays the owner's secret


def test_leaves_a_strong_magician_alone():
    """Strength 2 against Galen's party of 1 + Hodge 1 + Wulfstan 3: no march."""
    state = table(2)
    state = party(state, 1, companions=("hodge", "wulfstan"), keep_own=False)
    state["magicians"][1]["where"] = "place:holloway"
    state = _kings_men_next_to(state, 0, "holloway", 2)
    assert decide(state, 0).action == "done"


def _challenged(state: dict, seat: int, place: str) -> dict:
    """The other seat's King's man 1 marches into ``place`` and challenges ``seat``."""
    owner = 1 - seat
    state["magicians"][seat]["where"] = f"place:{place}"
    state = _kings_men_next_to(state, owner, place, 2)
    km = next(k for k in state["kings_men"] if k["seat"] == owner and k["number"] == 1)
    state, _ = GAME.apply(state, owner, f"k1 {place}", random.Random(0))
    state, _ = GAME.apply(state, owner, f"challenge {state['roles'][seat]}", random.Random(0))
    assert GAME.prompts(state)[0].kind == "answer"
    assert km["key"] == state["pending"][0]["km"]
    return state


def test_takes_the_road_when_the_kings_men_might_win():
    """Galen's party (2) could lose to a tile of strength 2 or 4: he takes the road."""
    state = _challenged(table(2), 1, "holloway")
    decision = decide(state, 1)
    assert decision.action.startswith("road ")


def test_accepts_when_no_tile_can_match_the_party():
    """A party of combat 7 beats any King's men tile (2 or 4): accept."""
    state = table(2)
    state = party(state, 1, companions=("wulfstan", "cedric_the_bold"), keep_own=True)
    state = _challenged(state, 1, "holloway")
    assert decide(state, 1).action == "accept"


def test_answer_does_not_depend_on_the_hidden_strength():
    """Whether the challenging tile is the 2 or the 4, Galen answers the same."""
    state = _challenged(table(2), 1, "holloway")
    other = copy.deepcopy(state)
    for km in other["kings_men"]:
        if km["seat"] == 0:
            km["strength"] = 6 - km["strength"]
    assert GAME.observe(other, 1) == GAME.observe(state, 1)
    assert decide(other, 1) == decide(state, 1)


# -- the calculation -------------------------------------------------------------------------


def test_win_chance_is_a_probability_that_grows_with_the_party():
    small = strong.Party("old_kyvin", ("wulfstan",), ("anti_fire_spell",))
    big = small.plus("cedric_the_bold").plus("spell_of_animation").plus("sicarius_draconum")
    for dragon in (1, 3, 5):
        low, high = strong.win_chance(small, dragon), strong.win_chance(big, dragon)
        assert 0.0 <= low <= high <= 1.0
    assert strong.win_chance(big, 1) > strong.win_chance(big, 5)


def test_win_chance_zero_when_every_location_wipes_the_party_out():
    """Galen alone (magic 1) is weaker than a Dragon of 5 everywhere."""
    assert strong.win_chance(strong.Party("galen", (), ()), 5) == 0.0
