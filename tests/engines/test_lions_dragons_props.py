"""Lions and Dragons Chess: property tests over random full games.

What every engine must keep (no mutation, dump/load, replay, JSON-ready views) is checked
for all games by tests/engines/test_contract.py.
"""

from __future__ import annotations

import random
import re

from hypothesis import given, settings
from hypothesis import strategies as st

from engines.lions_dragons import board
from games import ENGINES

GAME = ENGINES["lions-dragons"]


def typed(options: dict) -> str:
    """Options as a player types them: ``reserve=2 cap=50``."""
    return " ".join(f"{key}={value}" for key, value in options.items())


def weight(state: dict) -> int:
    """A measure that every capture, drop or Fireball hit lowers (see the quiet-ply rule)."""
    value = 4 * sum(state["reserves"].values())
    points = {"proto": 3, "dragon": 2, "dragon_ball": 2, "ball": 1, "roc": 1}
    for p in state["pieces"].values():
        value += points.get(p["kind"], 0)
    return value


def count(state: dict, kinds: tuple[str, ...], side: str | None = None) -> int:
    return sum(
        1
        for p in state["pieces"].values()
        if p["kind"] in kinds and (side is None or p["side"] == side)
    )


def side_material(state: dict, side: str) -> int:
    """Proto-Dragons in hand and on the board plus the Dragons they became."""
    return state["reserves"][side] + count(state, ("proto", "dragon", "dragon_ball"), side)


def check_invariants(state: dict, before: dict) -> None:
    lions = set(state["lions"])
    for cell, p in state["pieces"].items():
        assert cell in board.COORD and cell not in lions
        assert (p["side"] is None) == (p["kind"] in ("ball", "fireball"))
        if p["kind"] == "fireball":
            assert p["dir"] in board.EDGE_DIRECTIONS
    for side in ("white", "black"):
        wizards = count(state, ("wizard",), side)
        lost = (
            state["result"]
            and state["result"]["reason"] == "wizard"
            and state["result"]["winner"] != side
        )
        assert wizards == (0 if lost else 1)
        # Pieces are never created: a side only loses material, Rocs never come back.
        assert side_material(state, side) <= side_material(before, side)
        assert count(state, ("roc",), side) <= count(before, ("roc",), side)
        assert 0 <= state["reserves"][side] <= before["reserves"][side]
    balls = count(state, ("ball", "dragon_ball"))
    assert balls <= count(before, ("ball", "dragon_ball"))
    assert weight(state) <= weight(before)


def check_views(state: dict) -> None:
    public = GAME.view(state, None)
    for seat in (0, 1):
        seat_view = GAME.view(state, seat)
        assert seat_view.pop("private") == ""
        assert seat_view == public  # nothing is secret in this game
    assert public["summary"]
    on_board = {p["cell"] for p in public["pieces"]}
    assert not on_board & set(public["lions"])


def pick(state: dict, choices: list, rng: random.Random):
    """A crude player: carry a Ball home when it can, else prefer captures and shots."""
    goal = state["goals"]["black" if state["to_move"] == "white" else "white"]
    carrier = [
        c
        for c in choices
        if c.group in state["pieces"] and state["pieces"][c.group]["kind"] == "dragon_ball"
    ]
    if carrier and rng.random() < 0.8:
        return min(carrier, key=lambda c: board.distance(re.split("[-x]", c.action)[1], goal))
    strong = [c for c in choices if "x" in c.action or c.action.startswith("fire")]
    return rng.choice(strong if strong and rng.random() < 0.7 else choices)


def play_out(seed: int, options: dict, greedy: bool) -> tuple[dict, list[str]]:
    """A whole game of random legal actions (optionally preferring captures and goals)."""
    rng = random.Random(seed)
    state = GAME.setup(["white", "black"], GAME.parse_options(typed(options)), rng)
    cap = state["options"]["cap"]
    limit = (weight(state) + 1) * cap  # every `cap` quiet plies must end in progress or a draw
    log: list[str] = []
    while GAME.result(state) is None:
        assert state["ply"] <= limit, "game did not end"
        prompt = GAME.prompts(state)[0]
        choices = GAME.legal_actions(state, prompt.seat)
        assert choices
        action = pick(state, choices, rng) if greedy else rng.choice(choices)
        new, events = GAME.apply(state, prompt.seat, action.action, rng)
        assert events and all(e.public for e in events)
        check_invariants(new, state)
        log.append(action.action)
        state = new
    check_views(state)
    assert GAME.prompts(state) == []
    return state, log


OPTIONS = st.fixed_dictionaries(
    {
        "lions": st.sampled_from(["random", "symmetric"]),
        "reserve": st.integers(0, 4).map(str),
        "cap": st.integers(4, 40).map(str),
    }
)


@settings(max_examples=30)
@given(seed=st.integers(0, 10**6), options=OPTIONS, greedy=st.booleans())
def test_random_games_keep_invariants_and_end(seed, options, greedy):
    state, _ = play_out(seed, options, greedy)
    result = GAME.result(state)
    assert result.text
    assert result.winners in ((), (0,), (1,))
    assert (result.winners == ()) == (state["result"]["reason"] in ("repetition", "quiet"))


@settings(max_examples=20)
@given(seed=st.integers(0, 10**6), plies=st.integers(0, 40))
def test_views_mid_game(seed, plies):
    rng = random.Random(seed)
    state = GAME.setup(["white", "black"], {}, rng)
    for _ in range(plies):
        if GAME.result(state) is not None:
            break
        seat = state["seats"].index(state["to_move"])
        state, _ = GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)).action, rng)
        check_views(state)


def test_greedy_games_reach_every_ending():
    """Across a fixed batch of games each way of ending a game actually happens."""
    reasons = set()
    for seed in range(40):
        state, _ = play_out(seed, {"cap": "12", "reserve": "4"}, greedy=True)
        reasons.add(state["result"]["reason"])
    assert {"goal", "wizard", "quiet", "repetition"} <= reasons
