"""Dragonslayer's Dragon fight: property tests over random full games (2 to 4 players, random
legal actions from a seeded rng, steered towards tiles and the Lair, now and then a timeout or
a player leaving).

Every game ends (the Dragon slain, every magician out, one player left) or reaches a cap of a
few thousand actions, without an exception. After every action: every tile is in exactly one
place, the Dragon's strength never rises and stays 0 to 5, a fight never stalls, the views
are JSON-ready and the channel never sees a tile nobody at the table has seen. (No mutation,
dump/load and replay are checked for every game by tests/engines/test_contract.py.)
"""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import dataclass, field
from functools import cache

from hypothesis import given, settings
from hypothesis import strategies as st

from engines.base import Choice, Event
from engines.dragonslayer.battle import ROWS
from engines.dragonslayer.model import EVENT, WEAPON, load_parties, load_tiles, load_urland
from engines.dragonslayer.state import SLOT_LETTERS
from tests.engines.dragonslayer_helpers import GAME, ROLES

CAP = 3000
"""Actions after which a game that has not ended is left (it has shown no fault so far)."""
URLAND = load_urland()
LAIR = URLAND.lair.key
FROM_LAIR = URLAND.distances(LAIR)
SHIELD = "dragon_shield"
ULRICH = "ulrich"


@cache
def every_tile() -> dict:
    tiles = load_tiles()
    return {t.key: t for t in (*tiles.tiles, *tiles.map_tiles, *load_parties().galen_tiles)}


@cache
def kinds() -> dict[str, str]:
    return {key: t.kind for key, t in every_tile().items()}


@cache
def expected() -> Counter:
    """Every tile of the game that can move: the pool, Galen's three, Ulrich and the Shield."""
    tiles = load_tiles()
    found = Counter(tiles.deck())
    found.update(t.key for t in load_parties().galen_tiles)
    found.update(t.key for t in tiles.map_tiles)
    return found


@cache
def unique_things() -> frozenset[str]:
    return frozenset(t.key for t in load_tiles().tiles if t.kind != EVENT and t.count == 1)


# -- where every tile is -----------------------------------------------------------------


def tile_places(state: dict) -> Counter:
    """Each tile counted once for every place it is found: a slot, set aside, a party, a box
    on the map, the Abandoned Weapons Display, a pending keep decision, out of the game, or
    (the Dragon Shield) taken from its box for the fight in progress."""
    found: Counter = Counter()
    for slots in state["slots"].values():
        found.update(k for k in slots if k)
    found.update(state["set_aside"])
    found.update(state["removed"])
    found.update(state["boxes"])
    for party in state["parties"]:
        for group in ("companions", "things", "kept"):
            found.update(party[group])
    for keys in state["abandoned"].values():
        found.update(keys)
    found.update(d["tile"] for d in state["pending"] if d["kind"] == "keep")
    if state["fight"] and state["fight"].get("shield"):
        found[SHIELD] += 1
    return found


def check_tiles(state: dict) -> None:
    assert tile_places(state) == expected()
    assert set(state["abandoned"]) == set(ROWS)
    for keys in state["abandoned"].values():
        assert all(kinds()[k] == WEAPON for k in keys), state["abandoned"]
    # Ulrich leaves his box only to join Galen's party (or, lost later, the game).
    if ULRICH not in state["boxes"]:
        holders = [
            state["roles"][seat]
            for seat, party in enumerate(state["parties"])
            if ULRICH in party["companions"]
        ]
        assert holders == ["galen"] or ULRICH in state["removed"]


def check_dragon(state: dict, before: int) -> int:
    """The Dragon's strength never rises and stays 0 to 5; returns it."""
    dragon = state["dragon"]
    assert 0 <= dragon <= before <= URLAND.dragon_start
    if dragon == 0:
        # Slain: the game is over, or ends once the fighter has chosen the losses.
        assert state["outcome"] is not None or state["fight"] is not None
    return dragon


def check_flow(state: dict) -> None:
    """A fight never stalls: with no decision waiting there is no fight in progress, and no
    magician stands in the Lair; an out magician is nowhere and decides nothing."""
    if not state["pending"] and state["outcome"] is None:
        assert state["fight"] is None
        for magician in state["magicians"]:
            assert magician["where"] != f"place:{LAIR}"
    for seat, magician in enumerate(state["magicians"]):
        if magician["out"]:
            assert magician["where"] is None
            assert not any(d["seat"] == seat for d in state["pending"])
            assert state["parties"][seat] == {"companions": [], "things": [], "kept": []}
    if state["fight"] and "boxes" in state["fight"]:
        assert state["fight"]["location"] in ROWS
    prompts = GAME.prompts(state)
    if state["outcome"] is None:
        assert len(prompts) == 1 and GAME.legal_actions(state, prompts[0].seat)
        assert not state["magicians"][prompts[0].seat]["out"]
    else:
        assert prompts == [] and GAME.result(state) is not None


def check_outcome(state: dict) -> None:
    """'You win ... by reducing the Dragon's strength to zero'; every magician out: nobody
    wins; one player left after the others gave up wins."""
    result = GAME.result(state)
    if result is None:
        return
    playing = [s for s, m in enumerate(state["magicians"]) if not m["out"]]
    assert result.text
    if state["dragon"] == 0:
        assert len(result.winners) <= 1
        assert set(result.winners) <= set(playing)
    elif not playing:
        assert result.winners == ()
    else:
        assert result.winners == tuple(playing) and len(playing) == 1


def json_ready(value) -> bool:
    if value is None or isinstance(value, (str, int, float, bool)):
        return True
    if isinstance(value, list):
        return all(json_ready(v) for v in value)
    if isinstance(value, dict):
        return all(isinstance(k, str) and json_ready(v) for k, v in value.items())
    return False


def names(key: str) -> tuple[str, str]:
    """How a view or an event would name tile ``key``: its quoted key, or its name."""
    return f'"{key}"', every_tile()[key].name


def check_views(state: dict, unseen: set[str], events: list[Event]) -> None:
    """Views are JSON-ready; the public view names no tile that lies face down, is set aside,
    is being decided about or was burnt unseen by a raid; no public event names one that is
    being decided about or was burnt unseen."""
    public = GAME.view(state, None)
    assert json_ready(public) and public["summary"] and "private" not in public
    assert public["dragon"]["strength"] == state["dragon"]
    assert public["abandoned"] == {
        row: [{"key": k, "name": every_tile()[k].name} for k in keys]
        for row, keys in state["abandoned"].items()
        if keys
    }
    battle = public["battle"]
    if battle is not None:
        assert json_ready(battle) and battle["location"] in ROWS
        assert battle["seat"] == state["fight"]["seat"]
    holding = {d["tile"] for d in state["pending"] if d["kind"] == "keep"}
    hidden = {k for slots in state["slots"].values() for k in slots if k in unique_things()}
    hidden |= {k for k in state["set_aside"] if k in unique_things()}
    text = json.dumps(public)
    for key in hidden | holding | unseen:
        quoted, name = names(key)
        assert quoted not in text and name not in text, key
    told = "\n".join(e.text + json.dumps(e.data) for e in events if e.public)
    for key in holding | unseen:
        quoted, name = names(key)
        assert quoted not in told and name not in told, key
    for seat in range(len(state["roles"])):
        view = GAME.view(state, seat)
        assert json_ready(view) and isinstance(view["private"], str)


def destroyed(before: dict, after: dict) -> set[str]:
    """Unique things that lay face down, known to nobody, before the action and are out of
    the game after it: a raid burnt them unseen."""
    known = {ref for memory in before["memory"] for ref in memory}
    lying = {
        key
        for place, slots in before["slots"].items()
        for index, key in enumerate(slots)
        if key in unique_things() and f"{place}/{SLOT_LETTERS[index]}" not in known
    }
    return lying & set(after["removed"])


# -- a player that seeks the Dragon ------------------------------------------------------


def distance(position: str) -> int:
    """Roads from ``position`` to the Lair (a sea zone counts through its nearest port)."""
    kind, _, rest = position.partition(":")
    if kind == "place":
        return FROM_LAIR[rest]
    if kind == "road":
        return min(FROM_LAIR[end] for end in rest.split(":"))
    if kind == "sea":
        return 1 + min(FROM_LAIR[p.key] for p in URLAND.ports_on(rest))
    return 99


def strength(state: dict, seat: int) -> int:
    party = state["parties"][seat]
    return len(party["companions"]) + len(party["things"])


def pick(state: dict, seat: int, choices: list[Choice], rng: random.Random) -> Choice:
    """Random, leaning towards gathering a party, then heading for the Lair and going in."""
    if state["pending"] or state["phase"] != "magician":
        done = [c for c in choices if c.action == "done"]
        if state["phase"] == "kings_men" and done and not state["pending"] and rng.random() < 0.6:
            return done[0]
        return rng.choice(choices)
    by_action = {c.action: c for c in choices}
    eager = 0.03 + 0.12 * max(0, strength(state, seat) - 4)
    if f"go {LAIR}" in by_action and rng.random() < eager:
        return by_action[f"go {LAIR}"]
    takes = [c for c in choices if c.action.startswith("take ")]
    if takes and rng.random() < 0.5:
        return rng.choice(takes)
    here = distance(state["magicians"][seat]["where"])
    moves = [c for c in choices if c.action.startswith("go ") and c.action != f"go {LAIR}"]
    closer = [c for c in moves if distance(_target(c.action)) < here]
    if closer and rng.random() < 0.6:
        return rng.choice(closer)
    if moves and rng.random() < 0.9:
        return rng.choice(moves)
    return rng.choice(choices)


def _target(action: str) -> str:
    key = action.split(maxsplit=1)[1]
    return f"place:{key}" if key in URLAND.places else f"sea:{key}"


@dataclass
class Tally:
    """What happened in a game, so a sweep can show the properties were exercised."""

    actions: int = 0
    fights: int = 0
    raids: int = 0
    abandoned: int = 0
    ending: str = "cap"
    seen: set[str] = field(default_factory=set)


def play(players: int, seed: int, dragon: int = 5, check: bool = True) -> Tally:
    """One random game to its end (or the cap), checking every invariant after each action.
    A Dragon already wounded (``dragon`` below 5) lets weak random parties slay it too."""
    rng = random.Random(seed)
    state = GAME.setup(ROLES[players], {}, random.Random(seed))
    state["dragon"] = dragon
    tally = Tally()
    dragon = state["dragon"]
    unseen: set[str] = set()
    for _ in range(CAP):
        prompts = GAME.prompts(state)
        if not prompts:
            break
        seat = prompts[0].seat
        before = state
        roll = rng.random()
        if roll < 0.02:
            state, events = GAME.skip(state, seat, rng)
        elif roll < 0.0225 and players > 2:
            state, events = GAME.forfeit(state, seat, rng)
        else:
            choices = GAME.legal_actions(state, seat)
            choice = pick(state, seat, choices, rng)
            state, events = GAME.apply(state, seat, choice.action, rng)
            tally.seen.add(choice.action.split()[0])
        tally.actions += 1
        unseen |= destroyed(before, state)
        for event in events:
            tally.fights += bool(event.data.get("picture"))
            tally.raids += "raid" in event.data
        tally.abandoned = max(tally.abandoned, sum(map(len, state["abandoned"].values())))
        if check:
            check_tiles(state)
            dragon = check_dragon(state, dragon)
            check_flow(state)
            check_outcome(state)
            check_views(state, unseen, events)
    if state["outcome"] is not None:
        if state["dragon"] == 0:
            tally.ending = "slain"
        elif not any(not m["out"] for m in state["magicians"]):
            tally.ending = "all out"
        else:
            tally.ending = "last one left"
    return tally


# -- properties --------------------------------------------------------------------------


@settings(max_examples=10)
@given(
    players=st.sampled_from([2, 3, 4]),
    seed=st.integers(min_value=0, max_value=2**32 - 1),
    dragon=st.integers(min_value=1, max_value=5),
)
def test_random_games_with_the_dragon_keep_every_invariant(players, seed, dragon):
    tally = play(players, seed, dragon)
    assert tally.actions <= CAP
    if tally.ending == "cap":
        assert tally.actions == CAP


def test_a_sweep_of_games_meets_the_dragon_in_every_way():
    """The steered player does reach the Dragon: over a fixed sweep of games there are
    fights, raids, abandoned weapons, and games that end each way but by the cap."""
    tallies = [
        play(players, seed, dragon=1 + seed % 5, check=False)
        for seed in range(10)
        for players in (2, 3, 4)
    ]
    assert sum(t.fights for t in tallies) >= 30
    assert sum(t.raids for t in tallies) >= 15
    assert sum(1 for t in tallies if t.abandoned) >= 5
    assert {"draw", "recover", "redraw", "lose"} <= set().union(*(t.seen for t in tallies))
    endings = Counter(t.ending for t in tallies)
    assert endings["all out"] >= 3 and endings["slain"] >= 3, endings
    assert endings["cap"] == 0, endings
