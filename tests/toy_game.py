"""A tiny game that exercises every part of the engine contract, for host and bot tests.

Two seats. Each round both secretly ``pick 1..3`` (simultaneous, secret prompts); when both
are in, equal picks score a point for seat 0, different picks for seat 1. Then seat 0
``roll``s a die (chance, public prompt); a six scores a bonus point. First to 3 points wins.
"""

from __future__ import annotations

import copy
import random
from typing import Any

from engines.base import (
    BadOptions,
    Choice,
    Event,
    IllegalAction,
    Prompt,
    Result,
    Role,
    Termination,
)
from engines.options import normalize, parse
from engines.snapshot import check_format

TARGET = 3
FORMAT = 1
"""The snapshot format the toy's ``dump`` writes."""


class ToyGame:
    slug = "toy"
    title = "Toy Game"
    min_players = 2
    max_players = 2
    turn_name = "turn"

    def turn(self, state) -> int:
        """A turn is both secret picks, or the roll after them."""
        return state.get("round", 1)

    def roles(self, players: int, options: dict[str, Any]) -> list[Role]:
        if players != 2:
            raise BadOptions("The toy game is for 2 players.")
        return [Role("even", "Even"), Role("odd", "Odd")]

    options = ()

    def parse_options(self, text: str) -> dict[str, Any]:
        return parse(self.options, text, self.title)

    def normalize_options(self, options: dict[str, str]) -> dict[str, Any]:
        return normalize(self.options, options, self.title)

    def setup(self, roles, options, rng: random.Random) -> dict[str, Any]:
        return {"score": [0, 0], "picks": [None, None], "phase": "pick", "last": None}

    def prompts(self, state) -> list[Prompt]:
        if self.result(state):
            return []
        if state["phase"] == "roll":
            return [Prompt(0, "roll", "Roll the die")]
        return [
            Prompt(seat, "pick", "Pick a number from 1 to 3", secret=True)
            for seat in (0, 1)
            if state["picks"][seat] is None
        ]

    def legal_actions(self, state, seat) -> list[Choice]:
        kinds = {p.kind for p in self.prompts(state) if p.seat == seat}
        if "roll" in kinds:
            return [Choice("roll", "Roll 🎲")]
        if "pick" in kinds:
            return [Choice(f"pick {n}", f"Pick {n}") for n in (1, 2, 3)]
        return []

    def apply(self, state, seat, action, rng):
        action = " ".join(action.lower().split())
        if action not in {c.action for c in self.legal_actions(state, seat)}:
            raise IllegalAction(f"`{action}` is not possible now.")
        state = copy.deepcopy(state)
        if action == "roll":
            value = rng.randint(1, 6)
            state["phase"] = "pick"
            if value == 6:
                state["score"][0] += 1
            if self.result(state) is None:  # a finished game stays on its last round
                state["round"] = self.turn(state) + 1
            return state, [Event(f"Even rolled {value}.", data={"roll": value})]
        state["picks"][seat] = int(action.split()[1])
        events = [Event(f"You picked {state['picks'][seat]}.", seat=seat)]
        waiting = sum(p is None for p in state["picks"])
        if waiting:
            events.append(Event(f"{2 - waiting} of 2 picks are in."))
            return state, events
        a, b = state["picks"]
        state["score"][0 if a == b else 1] += 1
        state["last"] = [a, b]
        state["picks"] = [None, None]
        state["phase"] = "roll"
        if self.result(state) is None:
            state["round"] = self.turn(state) + 1
        events.append(Event(f"Picks revealed: Even {a}, Odd {b}.", data={"picks": [a, b]}))
        return state, events

    def skip(self, state, seat, rng):
        if state["phase"] == "roll":
            state = copy.deepcopy(state)
            state["phase"] = "pick"
            state["round"] = self.turn(state) + 1
            return state, [Event("Even's roll is skipped.")]
        return self.apply(state, seat, f"pick {rng.randint(1, 3)}", rng)

    def forfeit(self, state, seat, rng, reason="timeout"):
        if self.result(state):
            raise IllegalAction("The game is over.")
        state = copy.deepcopy(state)
        state["score"][1 - seat] = TARGET
        state["how"] = Termination.of_forfeit(reason).value
        told = {"timeout": "ran out of time and forfeits", "resigned": "resigns",
                "left": "has left the game"}[reason]  # fmt: skip
        return state, [Event(f"{('Even', 'Odd')[seat]} {told}.", data={"reason": reason})]

    def draw_by_agreement(self, state):
        return self.result(state) is None

    def agree_draw(self, state):
        if not self.draw_by_agreement(state):
            raise IllegalAction("The game is over.")
        state = copy.deepcopy(state)
        state["drawn"] = True
        return state, [Event("Even and Odd agree to a draw.")]

    def revealed(self, before, after):
        # Both picks are shown once the second is in.
        return before["picks"] != after["picks"] and all(p is None for p in after["picks"])

    def view(self, state, seat):
        view = {
            "game": self.slug,
            "score": list(state["score"]),
            "last": state["last"],
            "waiting": sum(p is None for p in state["picks"]),
            "summary": f"Score: Even {state['score'][0]}, Odd {state['score'][1]}.",
        }
        if seat is not None:
            pick = state["picks"][seat]
            view["private"] = f"Your pick: {pick}." if pick else ""
        return view

    def result(self, state):
        if state.get("drawn"):
            return Result((), "Drawn by agreement.", Termination.AGREED)
        for seat, points in enumerate(state["score"]):
            if points >= TARGET:
                how = Termination(state.get("how", "rules"))
                return Result((seat,), f"{('Even', 'Odd')[seat]} wins {points} points.", how)
        return None

    def observe(self, state, seat):
        return copy.deepcopy(state)

    def dump(self, state):
        return {**copy.deepcopy(state), "format": FORMAT}

    def load(self, data):
        check_format(data, FORMAT, self.title, missing=FORMAT)
        return copy.deepcopy(data)

    def rules_help(self) -> str:
        return (
            "Toy game: pick a number secretly; Even scores on a match, Odd otherwise. "
            "`/game resign` gives up; `/game draw` offers a draw by agreement; "
            "`/game undo` takes back your last pick until the picks are shown."
        )


GAME = ToyGame()


def toy_renderer(slug: str, view: dict[str, Any]) -> bytes:
    """A stand-in picture that records exactly what it was given (to check for leaks)."""
    return repr(sorted(view.items())).encode()
