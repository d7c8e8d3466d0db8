"""Dragonslayer: property tests over random games (2, 3 and 4 players, random legal actions
from a seeded rng, now and then a timeout).

After every action: every legal action applied without complaint, tiles are conserved,
parties carry no more than they may once their decisions are made, the views are JSON-ready
and no view shows what its seat may not know (dump/load and replay: test_contract.py).
Two games that differ only in hidden things (King's men strengths, face-down tiles) look
the same to the channel until something reveals the difference.
"""

from __future__ import annotations

import copy
import json
import random
from functools import cache

from hypothesis import given, settings
from hypothesis import strategies as st

from engines.base import Choice, Event, IllegalAction
from engines.dragonslayer.model import (
    COMPANION,
    EVENT,
    LAIR,
    MAGIC_ITEM,
    SPELL,
    WEAPON,
    load_parties,
    load_tiles,
    load_urland,
)
from engines.dragonslayer.state import SLOT_LETTERS
from tests.engines.dragonslayer_helpers import (
    GAME,
    ROLES,
    expected_tiles,
    give,
    unique_things,
    where_tiles_are,
)

STEPS = 200
LAIR_KEY = load_urland().lair.key

players = st.sampled_from([2, 3, 4])
seeds = st.integers(min_value=0, max_value=2**32 - 1)


@cache
def _all_tiles() -> dict:
    tiles = load_tiles()
    return {t.key: t for t in (*tiles.tiles, *tiles.map_tiles, *load_parties().galen_tiles)}


def tile_of(key: str):
    """The data of a pool tile, a map tile (Ulrich) or one of Galen's."""
    return _all_tiles()[key]


# -- a crude player ----------------------------------------------------------------------


def pick(state: dict, seat: int, choices: list[Choice], rng: random.Random) -> Choice:
    """Random, but leaning towards what makes things happen: taking tiles, King's men going
    where magicians are, magicians travelling rather than resting."""
    # The Dragon fight has tests of its own; these games stay out of the Lair.
    choices = [c for c in choices if c.action != f"go {LAIR_KEY}"] or choices
    actions = [c.action for c in choices]
    takes = [c for c in choices if c.action.startswith("take")]
    if takes and rng.random() < 0.6:
        return rng.choice(takes)
    if state["phase"] == "kings_men" and not state["pending"]:
        occupied = {
            m["where"][6:]
            for m in state["magicians"]
            if m["where"] and m["where"].startswith("place:")
        }
        hunting = [c for c in choices if c.group and c.action.split()[1] in occupied]
        if hunting and rng.random() < 0.7:
            return rng.choice(hunting)
        if "done" in actions and rng.random() < 0.15:
            return choices[actions.index("done")]
    if state["phase"] == "magician" and not state["pending"] and "done" in actions:
        moves = [c for c in choices if c.action != "done"]
        if moves and rng.random() < 0.9:
            return rng.choice(moves)
    return rng.choice(choices)


# -- invariants --------------------------------------------------------------------------


def check_tiles(state: dict) -> None:
    """Every tile is in exactly one place: a slot, set aside, a party, a pending decision
    about keeping it, or out of the game; together they are the deck and Galen's tiles."""
    assert where_tiles_are(state) == expected_tiles()
    assert sorted(state["boxes"]) == ["dragon_shield", "ulrich"]
    view = GAME.view(state, None)
    counts = {p: sum(1 for k in slots if k) for p, slots in state["slots"].items()}
    assert view["face_down"] == {p: n for p, n in counts.items() if n}
    assert view["set_aside"] == len(state["set_aside"])


def check_limits(state: dict) -> None:
    """A party with no decision to make carries no more than the rules allow."""
    parties = load_parties()
    deciding = {d["seat"] for d in state["pending"]}
    for seat, party in enumerate(state["parties"]):
        if seat in deciding or state["magicians"][seat]["out"]:
            continue
        kinds = [tile_of(k).kind for k in party["things"]]
        assert all(tile_of(k).kind == COMPANION for k in party["companions"])
        assert all(tile_of(k).kind == EVENT for k in party["kept"])
        people = 1 + len(party["companions"])
        assert kinds.count(WEAPON) <= people
        magician = parties.magicians[state["roles"][seat]]
        room = magician.pentacles + sum(tile_of(k).carries for k in party["companions"])
        carried = [k for k in party["things"] if tile_of(k).kind in (SPELL, MAGIC_ITEM)]
        assert len([k for k in carried if k != "ulrichs_ashes"]) <= room


def check_board(state: dict) -> None:
    """King's men stand in places (never at sea or in the Lair); magicians are somewhere
    they can be; the turn belongs to a magician still playing."""
    urland = load_urland()
    for km in state["kings_men"]:
        if state["phase"] != "place":
            assert km["at"] in urland.places
        if km["at"] is not None:
            assert urland.places[km["at"]].kind != LAIR
        assert not state["magicians"][km["seat"]]["out"]
    for seat, magician in enumerate(state["magicians"]):
        where = magician["where"]
        if magician["out"]:
            assert where is None
            continue
        kind, _, rest = where.partition(":")
        if kind == "place":
            assert urland.places[rest].kind != LAIR
        elif kind == "sea":
            assert rest in urland.seas
        elif kind == "road":
            start, end = rest.split(":")
            assert end in urland.neighbours(start)
        else:
            assert where == f"abode:{state['roles'][seat]}"
        assert magician["lost"] >= 0
    assert state["days"] >= 0
    if state["outcome"] is None:
        assert not state["magicians"][state["seat"]]["out"]


def json_ready(value) -> bool:
    if value is None or isinstance(value, (str, int, float, bool)):
        return True
    if isinstance(value, list):
        return all(json_ready(v) for v in value)
    if isinstance(value, dict):
        return all(isinstance(k, str) and json_ready(v) for k, v in value.items())
    return False


def hidden_things(state: dict) -> set[str]:
    """Unique tiles nobody at the table sees: face down, set aside, or in a taker's hand."""
    unique = unique_things()
    hidden = {k for slots in state["slots"].values() for k in slots if k in unique}
    hidden |= {k for k in state["set_aside"] if k in unique}
    hidden |= {d["tile"] for d in state["pending"] if d["kind"] == "keep"}
    return hidden


def shows(text: str, key: str) -> bool:
    """Whether a view's JSON text names tile ``key`` (by key or by name)."""
    return f'"{key}"' in text or tile_of(key).name in text


def check_views(state: dict) -> None:
    """Views are JSON-ready; the public one shows no secret; a seat's shows only its own."""
    public = GAME.view(state, None)
    assert json_ready(public) and public["summary"] and "private" not in public
    text = json.dumps(public)
    hidden = hidden_things(state)
    for key in hidden:
        assert not shows(text, key), key
    for shown, km in zip(public["kings_men"], state["kings_men"], strict=True):
        assert shown["key"] == km["key"]
        assert shown["strength"] == (km["strength"] if km["revealed"] else None)
    for seat in range(len(state["roles"])):
        view = GAME.view(state, seat)
        assert json_ready(view) and isinstance(view["private"], str) and view["summary"]
        # A seat sees the public view plus its own: nothing else differs.
        own = {"seat", "private", "my_kings_men", "memory", "looking_at"}
        assert {k: v for k, v in view.items() if k not in own} == public
        assert view["memory"] == state["memory"][seat]
        mine = {km["key"] for km in state["kings_men"] if km["seat"] == seat}
        assert set(view["my_kings_men"]) == mine
        known = set(state["memory"][seat].values())
        holding = {d["tile"] for d in state["pending"] if d["kind"] == "keep" and d["seat"] == seat}
        seat_text = json.dumps(view)
        for key in hidden - known - holding:
            assert not shows(seat_text, key), (seat, key)


def check_events(events: list[Event], state: dict) -> None:
    """Public events never name a tile being decided about; private events go to a seat."""
    holding = {d["tile"] for d in state["pending"] if d["kind"] == "keep"}
    for event in events:
        assert json_ready(event.data)
        if event.public:
            for key in holding:
                assert tile_of(key).name not in event.text
                assert key not in json.dumps(event.data)
        else:
            assert 0 <= event.seat < len(state["roles"])


def check_prompts(state: dict) -> int | None:
    """The one seat asked to decide (None once over); nobody else has actions."""
    prompts = GAME.prompts(state)
    if state["outcome"] is not None:
        assert prompts == [] and GAME.result(state) is not None
        return None
    assert len(prompts) == 1 and GAME.result(state) is None
    seat = prompts[0].seat
    for other in range(len(state["roles"])):
        if other != seat:
            assert GAME.legal_actions(state, other) == []
    assert prompts[0].secret == (prompts[0].kind == "keep")
    return seat


def successors(state: dict, seat: int, rng: random.Random) -> dict[str, tuple]:
    """Every legal action of ``seat`` applied (none may be refused; the input is kept)."""
    before = copy.deepcopy(state)
    results = {}
    choices = GAME.legal_actions(state, seat)
    assert choices, GAME.prompts(state)
    for choice in choices:
        try:
            results[choice.action] = GAME.apply(state, seat, choice.action, rng)
        except IllegalAction as error:  # pragma: no cover - a failure message
            raise AssertionError(f"legal {choice.action!r} refused: {error}") from error
    assert state == before
    return results


def check_all(state: dict, events: list[Event]) -> None:
    check_tiles(state)
    check_limits(state)
    check_board(state)
    check_views(state)
    check_events(events, state)


# -- properties --------------------------------------------------------------------------


def arm(state: dict, rng: random.Random) -> dict:
    """Each party given two companions and three weapons (all it can carry) from the tiles
    dealt, so that losses soon force weapons down."""
    unique = unique_things()
    pool = sorted(k for k in load_tiles().deck() if k in unique)
    rng.shuffle(pool)
    for seat in range(len(state["roles"])):
        people = [k for k in pool if tile_of(k).kind == COMPANION][:2]
        arms = [k for k in pool if tile_of(k).kind == WEAPON][:3]
        pool = [k for k in pool if k not in people + arms]
        give(state, seat, companions=tuple(people), things=tuple(arms))
    return state


@settings(max_examples=12)
@given(players=players, seed=seeds, armed=st.booleans())
def test_random_games_keep_every_invariant(players, seed, armed):
    rng = random.Random(seed)
    state = GAME.setup(ROLES[players], {}, random.Random(seed))
    if armed:
        state = arm(state, rng)
    check_all(state, [])
    # 'Put the 17 leftover tiles aside ...; you will not need these in this game.'
    aside = list(state["set_aside"])
    for _ in range(STEPS):
        seat = check_prompts(state)
        if rng.random() < 0.03:
            before = copy.deepcopy(state)
            state, events = GAME.skip(state, seat, rng)
            assert before != state
        else:
            results = successors(state, seat, rng)
            choice = pick(state, seat, GAME.legal_actions(state, seat), rng)
            state, events = results[choice.action]
        check_all(state, events)
        assert state["set_aside"] == aside
    assert state["outcome"] is None


@settings(max_examples=8)
@given(players=players, seed=seeds)
def test_games_end_when_every_magician_but_one_leaves(players, seed):
    """Timeouts set to forfeit: each player leaving hands the game to the last one."""
    rng = random.Random(seed)
    state = GAME.setup(ROLES[players], {}, random.Random(seed))
    leaving = rng.sample(range(players), players - 1)
    for step in range(STEPS):
        seat = check_prompts(state)
        if seat is None:
            break
        if step % 40 == 39 and leaving:
            state, events = GAME.forfeit(state, leaving.pop(), rng)
        else:
            choices = GAME.legal_actions(state, seat)
            state, events = GAME.apply(state, seat, pick(state, seat, choices, rng).action, rng)
        check_all(state, events)
    result = GAME.result(state)
    assert result is not None
    [winner] = [s for s in range(players) if not state["magicians"][s]["out"]]
    assert result.winners == (winner,)


def swap_strengths(state: dict) -> dict:
    """The same game as far as anyone sees, each player's King's men strengths swapped
    between the two tiles."""
    other = copy.deepcopy(state)
    for seat in range(len(state["roles"])):
        first, second = [km for km in other["kings_men"] if km["seat"] == seat]
        first["strength"], second["strength"] = second["strength"], first["strength"]
    return other


def deal_differently(state: dict, rng: random.Random) -> dict:
    """The same game as far as anyone sees, the face-down and set-aside tiles mixed anew."""
    other = copy.deepcopy(state)
    hidden = [k for slots in other["slots"].values() for k in slots if k] + other["set_aside"]
    rng.shuffle(hidden)
    for slots in other["slots"].values():
        for i, key in enumerate(slots):
            if key:
                slots[i] = hidden.pop()
    other["set_aside"] = sorted(hidden)
    return other


def public_events(events: list[Event]) -> list[tuple]:
    return [(e.text, e.data) for e in events if e.public]


def reveals(one: dict, two: dict, action: str) -> bool:
    """Whether ``action`` may rightly show the channel how the games differ: a challenge
    accepted compares a King's men strength with the party's."""
    return action == "accept" and one["kings_men"] != two["kings_men"]


def same_tile_taken(one: dict, twin: dict, seat: int, action: str) -> dict:
    """``twin``, changed if need be so that the tile ``action`` takes is the one ``one``
    holds there: swapped with a copy of it lying where nobody knows (set aside, or a slot
    that no seat remembers). The two games stay alike to everyone."""
    if not action.startswith("take "):
        return twin
    place = one["magicians"][seat]["where"].removeprefix("place:")
    index = SLOT_LETTERS.index(action.split()[1])
    wanted, there = one["slots"][place][index], twin["slots"][place][index]
    if wanted == there:
        return twin
    twin = copy.deepcopy(twin)
    twin["slots"][place][index] = wanted
    if wanted in twin["set_aside"]:
        twin["set_aside"].remove(wanted)
        twin["set_aside"] = sorted([*twin["set_aside"], there])
        return twin
    known = {ref for memory in twin["memory"] for ref in memory}
    for other, slots in twin["slots"].items():
        for i, key in enumerate(slots):
            unknown = f"{other}/{SLOT_LETTERS[i]}" not in known
            if key == wanted and (other, i) != (place, index) and unknown:
                slots[i] = there
                return twin
    raise AssertionError(f"no unknown {wanted} to swap with")


@settings(max_examples=10)
@given(players=players, seed=seeds)
def test_hidden_information_never_changes_the_public_view(players, seed):
    """Games alike in all the table sees (King's men strengths swapped between a player's
    two tiles; face-down and set-aside tiles dealt differently) stay alike to the channel,
    action for action, until a challenge is accepted."""
    rng = random.Random(seed)
    one = GAME.setup(ROLES[players], {}, random.Random(seed))
    twins = {
        "strengths": swap_strengths(one),
        "tiles": deal_differently(one, random.Random(seed + 1)),
    }
    assert all(twin != one for twin in twins.values())
    compared = dict.fromkeys(twins, 0)
    for step in range(STEPS):
        seat = GAME.prompts(one)[0].seat
        choices = GAME.legal_actions(one, seat)
        action = pick(one, seat, choices, rng).action
        after, events = GAME.apply(one, seat, action, random.Random(step))
        for name, twin in list(twins.items()):
            assert GAME.view(twin, None) == GAME.view(one, None), name
            assert GAME.prompts(twin) == GAME.prompts(one), name
            assert GAME.legal_actions(twin, seat) == choices, name
            if reveals(one, twin, action):
                del twins[name]
                continue
            twin = same_tile_taken(one, twin, seat, action)
            twin, twin_events = GAME.apply(twin, seat, action, random.Random(step))
            assert public_events(twin_events) == public_events(events), name
            twins[name] = twin
            compared[name] += 1
        if not twins:
            break
        one = after
    # Only a challenge accepted ends a comparison, and no challenge comes before every
    # King's man is placed.
    assert compared["tiles"] == STEPS
    assert compared["strengths"] >= 2 * players
