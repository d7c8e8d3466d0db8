"""Where each legal action goes (``Choice.to``), what happens there (``outcome``,
``notable``), and menus of at most 25: checked for every game over seeded random playouts,
and in positions built for a capture, a win or another notable outcome.

Every non-empty ``to`` must be a place the game's renderer can locate from the public view
and the game's board data: St. George through ``render.stgeorge.point_xy``; Dragonslayer
through ``render.dragonslayer.locate`` (and ``layout.place_xy`` / ``sea_xy``); Lions and
Dragons against the view's ``cells`` (the renderer's ``centre_of`` of the named cell's
``q``, ``r``, as its private geometry does); Dragon's Cave against the view's ``path`` and
``lair`` (what the renderer's square boxes read) and through ``render.dragons_cave.locate``.
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

import pytest

import render.dragons_cave
import render.dragonslayer
import render.lions_dragons
import render.stgeorge
from engines.base import MENU_LIMIT, Choice
from engines.dragons_cave.board import in_lair
from engines.dragonslayer.model import load_urland
from engines.lions_dragons import board as ld_board
from engines.stgeorge.board import LAIR, current_board
from engines.stgeorge.prompts import spoke_of
from games import ENGINES
from render.dragonslayer import layout as ds_layout

SEEDS = (0, 1, 2)
STEPS = {"stgeorge": 400, "lions-dragons": 300, "dragons-cave": 300, "dragonslayer": 1500}

Step = tuple[Any, int, list[Choice]]
"""A state, a prompted seat, and that seat's legal actions."""


def playout(slug: str, players: int, seed: int) -> Iterator[Step]:
    """Every prompted seat's legal actions along a seeded random game."""
    game = ENGINES[slug]
    rng = random.Random(seed)
    roles = [role.key for role in game.roles(players, game.parse_options(""))]
    state = game.setup(roles, game.parse_options(""), rng)
    for _ in range(STEPS[slug]):
        prompts = game.prompts(state)
        if not prompts:
            return
        for prompt in prompts:
            yield state, prompt.seat, game.legal_actions(state, prompt.seat)
        prompt = rng.choice(prompts)
        choice = rng.choice(game.legal_actions(state, prompt.seat))
        state, _ = game.apply(state, prompt.seat, choice.action, rng)


TABLES = [
    pytest.param(slug, players, seed, id=f"{slug}-{players}p-seed{seed}")
    for slug, game in sorted(ENGINES.items())
    for players in range(game.min_players, game.max_players + 1)
    for seed in SEEDS
]


# --- where the renderers find a place ----------------------------------------------------


def locate_stgeorge(view: dict[str, Any], to: str) -> object:
    return render.stgeorge.point_xy(to)


def locate_lions_dragons(view: dict[str, Any], to: str) -> object:
    cell = next(c for c in view["cells"] if c["name"] == to)
    return render.lions_dragons.centre_of(cell["q"], cell["r"])


def locate_dragonslayer(view: dict[str, Any], to: str) -> object:
    if to.startswith("sea:"):
        ds_layout.sea_xy(to.removeprefix("sea:"))
    elif not to.startswith("road:"):
        ds_layout.place_xy(to)
    return render.dragonslayer.locate(view, to)


def locate_dragons_cave(view: dict[str, Any], to: str) -> object:
    if in_lair(to):
        assert to.removeprefix("lair:") in view["lair"]
    else:
        assert to.isdigit() and int(to) < len(view["path"])
    return render.dragons_cave.locate(view, to)


LOCATE: dict[str, Callable[[dict[str, Any], str], object]] = {
    "stgeorge": locate_stgeorge,
    "lions-dragons": locate_lions_dragons,
    "dragonslayer": locate_dragonslayer,
    "dragons-cave": locate_dragons_cave,
}


def check_groups(choices: list[Choice]) -> None:
    """Over MENU_LIMIT actions: every one grouped, no group over MENU_LIMIT, at most
    MENU_LIMIT groups."""
    if len(choices) <= MENU_LIMIT:
        return
    groups = Counter(choice.group for choice in choices)
    assert "" not in groups, groups
    assert max(groups.values()) <= MENU_LIMIT, groups
    assert len(groups) <= MENU_LIMIT, groups


@pytest.mark.parametrize(("slug", "players", "seed"), TABLES)
def test_every_destination_is_located_and_every_menu_fits(slug, players, seed):
    game = ENGINES[slug]
    located: set[str] = set()
    for state, _seat, choices in playout(slug, players, seed):
        check_groups(choices)
        view = game.view(state, None)
        for choice in choices:
            # Every game tells an outcome exactly when it is one to see first.
            assert choice.notable == bool(choice.outcome), choice
            if choice.to and choice.to not in located:
                LOCATE[slug](view, choice.to)
                located.add(choice.to)
    assert located, "a playout with no destination at all"


# --- St. George and the Dragon -----------------------------------------------------------

STG = ENGINES["stgeorge"]


def stgeorge(
    moved: dict[str, str], roll: int, mover: str = "dragon", players: int = 2, **tally: Any
) -> Any:
    """A two-player game set up, then each piece on a key of ``moved`` put on its value
    (all Knights on the board, so both sides can still win), and the seat moving ``mover``
    (``"dragon"`` or a Knight) to move ``roll``."""
    roles = [role.key for role in STG.roles(players, {})]
    state = STG.setup(roles, STG.parse_options(""), random.Random(0))
    owners = {start: state.pieces.pop(start) for start in moved}
    state.pieces.update({end: owners[start] for start, end in moved.items()})
    state.taken.update(tally.get("taken", {}))
    state.scored.update(tally.get("scored", {}))
    state.to_move = next(
        i for i, key in enumerate(roles) if (key == "dragon") == (mover == "dragon")
    )
    state.phase, state.roll, state.roll_seat = "move", roll, state.to_move
    return state


def choice_of(choices: list[Choice], action: str) -> Choice:
    return next(c for c in choices if c.action == action)


def neighbour_ring_point(point: str) -> str:
    board = current_board()
    return next(n for n in board.neighbours[point] if n != LAIR and n[0].isdigit())


def test_stgeorge_capture_and_ordinary_moves():
    target = neighbour_ring_point("1c")
    state = stgeorge({LAIR: "1c", "D1": target}, 1)
    choices = STG.legal_actions(state, state.to_move)
    capture = choice_of(choices, f"1c-{target}")
    assert capture.to == target
    assert capture.outcome == "takes a Knight of St. David"
    assert capture.notable
    ordinary = [c for c in choices if c is not capture]
    assert ordinary
    assert all(not c.notable and not c.outcome and c.to for c in ordinary)


def test_stgeorge_capture_that_wins():
    target = neighbour_ring_point("1c")
    taken = dict.fromkeys(("george", "patrick", "andrew", "david"), 2)
    taken["david"] = 1
    state = stgeorge({LAIR: "1c", "D1": target}, 1, taken=taken)
    capture = choice_of(STG.legal_actions(state, state.to_move), f"1c-{target}")
    assert capture.outcome == "takes a Knight of St. David and wins the game"
    assert capture.notable
    after, _ = STG.apply(state, state.to_move, capture.action, random.Random(0))
    assert STG.result(after).winners == (state.to_move,)


def test_stgeorge_knight_reaches_the_lair_and_wins():
    state = stgeorge({LAIR: "9f", "G1": "1a"}, 1, mover="george")
    into = choice_of(STG.legal_actions(state, state.to_move), "1a-lair")
    assert (into.to, into.outcome, into.notable) == ("lair", "reaches the Lair", True)
    state = stgeorge({LAIR: "9f", "G1": "1a"}, 1, mover="george", scored={"george": 1})
    into = choice_of(STG.legal_actions(state, state.to_move), "1a-lair")
    assert into.outcome == "reaches the Lair and wins the game"
    after, _ = STG.apply(state, state.to_move, into.action, random.Random(0))
    assert STG.result(after).winners == (state.to_move,)


@pytest.mark.parametrize("roll", [5, 6])
def test_stgeorge_dragon_from_the_lair_is_split_by_spokes(roll):
    state = stgeorge({}, roll)
    choices = STG.legal_actions(state, state.to_move)
    assert len(choices) > MENU_LIMIT
    check_groups(choices)
    board = current_board()
    groups: dict[str, list[Choice]] = {}
    for choice in choices:
        groups.setdefault(choice.group, []).append(choice)
    assert len(groups) > 1
    seen: set[int] = set()
    for name, members in groups.items():
        assert name.startswith("Dragon → spoke"), name
        spokes = {spoke_of(board, c.to) for c in members}
        words = name.removeprefix("Dragon → spokes ").removeprefix("Dragon → spoke ")
        low, _, high = words.partition("–")
        assert spokes <= set(range(int(low), int(high or low) + 1)), (name, spokes)
        assert not spokes & seen
        seen |= spokes


@pytest.mark.parametrize("seed", SEEDS)
def test_stgeorge_outcomes_are_what_the_move_does(seed):
    """Over a random 3-player game: a move tells a capture exactly when it ends on a
    Knight, the Lair exactly when a Knight ends there, and a win or draw exactly when
    making it ends the game so (every told move and a sample of the others applied)."""
    rng = random.Random(seed)
    for state, seat, choices in playout("stgeorge", 3, seed):
        if state.phase != "move":
            continue
        sample = [c for c in choices if c.outcome] + rng.sample(choices, min(3, len(choices)))
        for choice in sample:
            start, end = choice.action.split("-")
            captured = state.pieces.get(end)
            assert choice.outcome.startswith("takes a Knight") == (captured is not None)
            scores = end == LAIR and state.pieces[start] != "dragon"
            assert choice.outcome.startswith("reaches the Lair") == scores
            after, _ = STG.apply(state, seat, choice.action, random.Random(0))
            result = STG.result(after)
            if choice.outcome.endswith("wins the game"):
                assert result is not None and seat in result.winners
            elif choice.outcome.endswith("drawn"):
                assert result is not None and result.draw
            else:
                assert result is None, (choice, result)


def test_stgeorge_small_lists_keep_the_piece_as_group():
    state = stgeorge({LAIR: "1c"}, 1)
    assert {c.group for c in STG.legal_actions(state, state.to_move)} == {"1c"}


# --- Lions and Dragons ---------------------------------------------------------------------

LD = ENGINES["lions-dragons"]


def lions_dragons(pieces: dict[str, tuple[str, str | None]]) -> dict[str, Any]:
    """White to move with only ``pieces`` (cell: (kind, side)) on the board."""
    state = LD.setup(["white", "black"], LD.parse_options(""), random.Random(0))
    state["pieces"] = {cell: {"kind": kind, "side": side} for cell, (kind, side) in pieces.items()}
    state["to_move"] = "white"
    return state


def free_cells(state: dict[str, Any], count: int, avoid: set[str]) -> list[str]:
    cells = [
        c for c in ld_board.CELLS
        if c not in state["lions"] and c not in avoid and c not in state["goals"].values()
    ]  # fmt: skip
    return cells[:count]


def test_lions_dragons_dragon_with_ball_takes_the_wizard_and_wins():
    state = lions_dragons({})
    start = free_cells(state, 40, set())[20]
    target = next(t for t in ld_board.SIDE_NEIGHBOURS[start] if t not in state["lions"])
    far = free_cells(state, 2, {start, target, *ld_board.SIDE_NEIGHBOURS[start]})
    state["pieces"] = {
        start: {"kind": "dragon_ball", "side": "white"},
        target: {"kind": "wizard", "side": "black"},
        far[0]: {"kind": "wizard", "side": "white"},
    }
    choices = LD.legal_actions(state, state["seats"].index("white"))
    win = next(c for c in choices if c.to == target and c.group == start)
    assert win.outcome == "takes the Black Wizard and wins the game"
    assert win.notable
    plain = [c for c in choices if c.group == start and c is not win]
    assert plain and all(not c.notable and not c.outcome for c in plain)
    after, _ = LD.apply(state, state["seats"].index("white"), win.action, random.Random(0))
    assert LD.result(after).winners == (state["seats"].index("white"),)


def test_lions_dragons_dragon_takes_the_ball():
    state = lions_dragons({})
    start = free_cells(state, 40, set())[20]
    target = next(t for t in ld_board.DRAGON_MOVES[start] if t not in state["lions"])
    far = free_cells(state, 2, {start, target, *ld_board.DRAGON_MOVES[start]})
    state["pieces"] = {
        start: {"kind": "dragon", "side": "white"},
        target: {"kind": "ball", "side": None},
        far[0]: {"kind": "wizard", "side": "white"},
        far[1]: {"kind": "wizard", "side": "black"},
    }
    choices = LD.legal_actions(state, state["seats"].index("white"))
    ball = next(c for c in choices if c.to == target and c.group == start)
    assert ball.outcome == "takes a Ball and becomes a Dragon-with-Ball" and ball.notable


def test_lions_dragons_fireball_destroys_a_dragon():
    state = lions_dragons({})
    for wizard in free_cells(state, 84, set()):
        shots = [
            (name, ld_board.offset(wizard, delta), ld_board.offset(wizard, delta, 2))
            for name, delta in ld_board.EDGE_DIRECTIONS.items()
        ]
        usable = [
            s for s in shots
            if s[1] and s[2] and not {s[1], s[2]} & set(state["lions"])
        ]  # fmt: skip
        if usable:
            break
    _direction, first, landing = usable[0]
    home = free_cells(state, 84, {wizard, first, landing, *ld_board.WIZARD_STEPS[wizard]})
    state["pieces"] = {
        wizard: {"kind": "wizard", "side": "white"},
        first: {"kind": "dragon", "side": "black"},
        home[-1]: {"kind": "wizard", "side": "black"},
    }
    choices = LD.legal_actions(state, state["seats"].index("white"))
    shot = next(c for c in choices if c.action.startswith("fire") and c.to == landing)
    assert shot.outcome == f"destroys the Black Dragon on {first}"
    assert shot.notable
    after, _ = LD.apply(state, state["seats"].index("white"), shot.action, random.Random(0))
    assert first not in after["pieces"] or after["pieces"][first]["kind"] != "dragon"


# --- Dragonslayer --------------------------------------------------------------------------

DS = ENGINES["dragonslayer"]


def dragonslayer_at(place: str) -> tuple[dict[str, Any], int]:
    """Aurric's turn with 3 days, standing in ``place``."""
    state = DS.setup(["aurric", "galen"], {}, random.Random(0))
    while state["phase"] == "place":
        state, _ = DS.apply(state, state["seat"], "place castle_morn", random.Random(0))
    seat = state["roles"].index("aurric")
    state.update(seat=seat, phase="magician", days=3, active=None, finished=[])
    state["magicians"][seat]["where"] = f"place:{place}"
    return state, seat


def test_dragonslayer_entering_the_lair_is_notable():
    state, seat = dragonslayer_at("glenarrow")
    choices = DS.legal_actions(state, seat)
    lair = choice_of(choices, "go dragons_lair")
    assert (lair.to, lair.outcome, lair.notable) == (
        "dragons_lair",
        "enters the Dragon's Lair",
        True,
    )
    others = [c for c in choices if c.action.startswith("go ") and c is not lair]
    assert others and all(not c.notable and c.to for c in others)
    assert all(c.to == "" for c in choices if c.action in ("done", "gain"))


def test_dragonslayer_kings_man_may_challenge():
    state, seat = dragonslayer_at("glenarrow")
    galen = state["roles"].index("galen")
    place = "swanscombe"
    state["magicians"][galen]["where"] = f"place:{place}"
    state["parties"][galen]["companions"] = []
    km = next(k for k in state["kings_men"] if k["seat"] == seat)
    km["at"] = load_urland().neighbours(place)[0]
    state.update(phase="kings_men", days=0, active=None, finished=[])
    choices = DS.legal_actions(state, seat)
    into = choice_of(choices, f"k{km['number']} {place}")
    assert into.to == place
    assert into.outcome == "may challenge Galen" and into.notable
    after, _ = DS.apply(state, seat, into.action, random.Random(0))
    assert after["pending"] and after["pending"][0]["kind"] == "challenge"
    after, _ = DS.apply(after, seat, "challenge galen", random.Random(0))
    roads = [c for c in DS.legal_actions(after, galen) if c.action.startswith("road ")]
    assert roads
    for road in roads:
        towards = road.action.removeprefix("road ")
        assert road.to == f"road:{place}:{towards}" and not road.notable
        render.dragonslayer.locate(DS.view(after, None), road.to)


# --- Dragon's Cave -------------------------------------------------------------------------

DC = ENGINES["dragons-cave"]


def test_dragons_cave_last_square_leads_to_the_lair():
    state = DC.setup(["red", "blue", "green"], DC.parse_options(""), random.Random(0))
    seat = next(p.seat for p in DC.prompts(state) if p.kind == "card")
    walker = next(d for d in state["dwarves"] if d["seat"] == seat)
    walker["square"] = len(state["board"]["path"]) - 1
    choices = DC.legal_actions(state, seat)
    cards = [c for c in choices if c.action != "card chest"]
    assert cards
    for choice in cards:
        assert choice.to.startswith("lair:")
        assert choice.notable
        assert choice.outcome.startswith("ends the journey at the Dragon's lair, unless")
    chest = choice_of(choices, "card chest")
    assert (chest.to, chest.notable) == ("", False)


def test_dragons_cave_ordinary_cards_go_to_path_squares():
    state = DC.setup(["red", "blue", "green"], DC.parse_options(""), random.Random(0))
    seat = next(p.seat for p in DC.prompts(state) if p.kind == "card")
    cards = [c for c in DC.legal_actions(state, seat) if c.action != "card chest"]
    assert cards and all(c.to.isdigit() and not c.notable for c in cards)


def weakened_battles() -> Iterator[tuple[Any, int]]:
    """Battles of random 2-player games, each with the Dragon's strength set to 1."""
    for seed in range(10):
        for state, seat, _choices in playout("dragonslayer", 2, seed):
            if state["pending"] and state["pending"][0]["kind"] == "battle":
                weak = copy.deepcopy(state)
                weak["dragon"] = 1
                yield weak, seat


def test_dragonslayer_a_placement_that_slays_the_dragon_wins():
    """At a battle of a random game where the Dragon, weakened to 1, can be slain: every
    placement told as slaying it wins the game for the fighter once its losses are chosen,
    and one told as killing it with the party wiped out ends in a draw."""
    slays = "slays the Dragon and wins the game"
    state, seat = next(
        (state, seat)
        for state, seat in weakened_battles()
        if any(c.outcome == slays for c in DS.legal_actions(state, seat))
    )
    told = [c for c in DS.legal_actions(state, seat) if c.outcome]
    for choice in told:
        assert choice.notable
        after, _ = DS.apply(state, seat, choice.action, random.Random(0))
        for _ in range(60):
            prompts = DS.prompts(after)
            if not prompts:
                break
            first = DS.legal_actions(after, prompts[0].seat)[0]
            after, _ = DS.apply(after, prompts[0].seat, first.action, random.Random(0))
        result = DS.result(after)
        if choice.outcome.startswith("slays"):
            assert result is not None and result.winners == (seat,)
        elif choice.outcome.startswith("kills"):
            assert result is not None and result.draw


def test_dragons_cave_two_players_end_with_both_dwarves_in_the_lair():
    """With two players the journey ends only once both of a player's Dwarves are in the
    lair: the first Dwarf to get there only reaches it."""
    state = DC.setup(["red", "blue"], DC.parse_options(""), random.Random(0))
    seat = next(p.seat for p in DC.prompts(state) if p.kind == "card")
    last = len(state["board"]["path"]) - 1
    first, second = [d for d in state["dwarves"] if d["seat"] == seat]
    first["square"] = last
    told = {c.outcome for c in DC.legal_actions(state, seat) if c.group == "dwarf 1"}
    reaches = "reaches the Dragon's lair, unless the Dragon sits on"
    assert told and all(t.startswith(reaches) for t in told)
    second["square"] = f"lair:{state['board']['lair'][0]}"
    choices = DC.legal_actions(state, seat)
    told = {c.outcome for c in choices if c.group == "dwarf 1"}
    assert told and all(t.startswith("ends the journey at the Dragon's lair") for t in told)
