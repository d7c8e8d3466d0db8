"""Dragonslayer (2-4 players): the engine object the host plays through."""

from __future__ import annotations

import copy
import random
from typing import Any

from engines import register
from engines.base import BadOptions, Choice, Event, Prompt, Result, Role
from engines.dragonslayer import actions, choices, observe, timeouts, views
from engines.dragonslayer.help import rules_help
from engines.dragonslayer.model import load_parties
from engines.dragonslayer.notation import key_of
from engines.dragonslayer.setup import new_state
from engines.dragonslayer.state import State

DEFAULT_MAGICIANS = {
    2: ("aurric", "galen"),
    3: ("aurric", "merridyds", "galen"),
    4: ("aurric", "merridyds", "old_kyvin", "galen"),
}
"""Who plays when the table does not choose: 'One player should always play Galen.'"""


class Dragonslayer:
    """Magicians gather parties in Urland, dodging each other's King's men."""

    slug = "dragonslayer"
    title = "Dragonslayer"
    min_players = 2
    max_players = 4

    def roles(self, players: int, options: dict[str, Any]) -> list[Role]:
        """The chosen magicians in turn order (Aurric, Merridyds, Old Kyvin, Galen)."""
        if not self.min_players <= players <= self.max_players:
            raise BadOptions("Dragonslayer is for 2 to 4 players.")
        chosen = self.normalize_options({k: v for k, v in options.items() if k == "magicians"}).get(
            "magicians"
        ) or list(DEFAULT_MAGICIANS[players])
        if len(chosen) != players:
            raise BadOptions(
                f"magicians= names {len(chosen)} magicians but {players} players are seated."
            )
        magicians = load_parties().magicians
        return [Role(key, magicians[key].name) for key in chosen]

    def normalize_options(self, options: dict[str, str]) -> dict[str, Any]:
        """Only ``magicians``: a comma-separated choice that includes Galen."""
        unknown = sorted(set(options) - {"magicians"})
        if unknown:
            raise BadOptions(
                f"Unknown option(s) {', '.join(unknown)}; Dragonslayer knows only "
                "magicians=<names> (for example magicians=merridyds,galen)."
            )
        raw = options.get("magicians")
        if raw in (None, ""):
            return {}
        if isinstance(raw, list):
            raw = ",".join(raw)
        parties = load_parties()
        names = [(key, m.name) for key, m in parties.magicians.items()]
        chosen = []
        for word in str(raw).split(","):
            key = next((k for k, n in names if key_of(word) in (k, key_of(n))), None)
            if key is None or key in chosen:
                raise BadOptions(
                    f"magicians={raw}: name each magician once, from "
                    f"{', '.join(k for k, _ in names)}."
                )
            chosen.append(key)
        if parties.always_played not in chosen:
            raise BadOptions("One player always plays Galen: include galen in magicians=.")
        if not self.min_players <= len(chosen) <= self.max_players:
            raise BadOptions("Choose 2 to 4 magicians.")
        return {"magicians": [k for k in parties.turn_order if k in chosen]}

    def setup(self, roles: list[str], options: dict[str, Any], rng: random.Random) -> State:
        """Magicians in their abodes, tiles dealt face down; King's men are placed first."""
        expected = [role.key for role in self.roles(len(roles), options)]
        if list(roles) != expected:
            raise BadOptions(f"Dragonslayer seats are {', '.join(expected)}, in that order.")
        return new_state(list(roles), rng)

    def prompts(self, state: State) -> list[Prompt]:
        return choices.prompts(state)

    def legal_actions(self, state: State, seat: int) -> list[Choice]:
        return choices.legal_actions(state, seat)

    def apply(
        self, state: State, seat: int, action: str, rng: random.Random
    ) -> tuple[State, list[Event]]:
        """Chance: the Dragon Location tile drawn on entering the Lair (told in an event)."""
        return actions.apply(state, seat, action, rng)

    def skip(self, state: State, seat: int, rng: random.Random) -> tuple[State, list[Event]]:
        return timeouts.skip(state, seat, rng)

    def forfeit(self, state: State, seat: int, rng: random.Random) -> tuple[State, list[Event]]:
        return timeouts.forfeit(state, seat, rng)

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        if seat is None:
            return views.public_view(state)
        return views.seat_view(state, seat)

    def observe(self, state: State, seat: int) -> State:
        """Face-down tiles, set-aside tiles and unrevealed King's men strengths hidden."""
        return observe.observe(state, seat)

    def result(self, state: State) -> Result | None:
        outcome = state["outcome"]
        if outcome is None:
            return None
        return Result(winners=tuple(outcome["winners"]), text=outcome["text"])

    def dump(self, state: State) -> dict[str, Any]:
        return copy.deepcopy(state)

    def load(self, data: dict[str, Any]) -> State:
        return copy.deepcopy(data)

    def rules_help(self) -> str:
        return rules_help()


GAME = register(Dragonslayer())
