"""What every part of the host shares: a game with its engine and state, seat labels,
the per-action chance source, and replaying a game from its log."""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from bot.service.errors import UserError
from bot.service.text import Mention, Text
from bot.store import GameRecord
from engines.base import Game, Prompt, Role
from games import UnknownGame, spec_for

STATUS_WORDS = {
    "lobby": "waiting for players",
    "running": "in play",
    "paused": "paused",
    "finished": "finished",
    "cancelled": "cancelled",
}


def action_rng(seed: int, seq: int) -> random.Random:
    """The chance source of the action logged as ``seq``: replays give the same dice."""
    return random.Random(f"{seed}:{seq}")


def setup_rng(seed: int) -> random.Random:
    return random.Random(f"{seed}:setup")


def engine_for(slug: str) -> Game:
    """The engine of the game registered as ``slug``; UserError names the games there are."""
    try:
        return spec_for(slug).engine
    except UnknownGame as error:
        raise UserError(str(error)) from None


def parse_options(text: str) -> dict[str, str]:
    """``"lions=symmetric reserve=4"`` -> ``{"lions": "symmetric", "reserve": "4"}``."""
    options: dict[str, str] = {}
    for word in text.replace(",", " ").split():
        key, sep, value = word.partition("=")
        if not sep or not key or not value:
            raise UserError(f"Options are written `key=value`, separated by spaces; not `{word}`.")
        options[key.strip().lower()] = value.strip()
    return options


@dataclass(frozen=True)
class Table:
    """A game record together with its engine and (once started) its live state."""

    record: GameRecord
    engine: Game
    state: Any

    @property
    def title(self) -> str:
        return f"{self.engine.title} #{self.record.id}"

    def roles(self) -> list[Role]:
        return self.engine.roles(self.record.players, self.record.options)

    def role_name(self, seat: int) -> str:
        return self.roles()[seat].name

    def prompts(self) -> list[Prompt]:
        return self.engine.prompts(self.state) if self.state is not None else []


def role_index(roles: list[Role], wanted: str) -> int:
    wanted = wanted.strip().lower()
    for index, role in enumerate(roles):
        if wanted in (role.key.lower(), role.name.lower()):
            return index
    names = ", ".join(f"`{r.key}` ({r.name})" for r in roles)
    raise UserError(f"There is no role `{wanted}` at this table. Roles: {names}.")


def seating(table: Table) -> str:
    taken = {s.seat: s for s in table.record.seats}
    parts = []
    for index, role in enumerate(table.roles()):
        holder = taken.get(index)
        parts.append(f"{role.name}: {holder.name if holder else '*open*'}")
    return "Seats: " + " · ".join(parts)


def seat_label(table: Table, seat: int) -> Text:
    """The seat's role and who plays it: a mention, or the computer and its level."""
    user = table.record.user_at(seat)
    name = table.role_name(seat)
    if user is not None:
        return Text.of(f"{name} (", Mention(user), ")")
    level = table.record.computer_at(seat)
    return Text.of(f"{name} (🤖 {level})" if level else name)


def seat_labels(table: Table, seats: Iterable[int], sep: str = ", ") -> Text:
    """Several seats' labels, each once, in order."""
    return Text.of(sep).join(seat_label(table, s) for s in dict.fromkeys(seats))


def started_word(status: str) -> str:
    return {"running": "started", "paused": "started", "finished": "ended"}.get(status, status)


def replay(record: GameRecord, actions: list[tuple[int, int, str]]) -> Any:
    """Rebuild a game's state from its seed and logged ``(seq, seat, action)`` triples."""
    engine = engine_for(record.slug)
    roles = [r.key for r in engine.roles(record.players, record.options)]
    state = engine.setup(roles, record.options, setup_rng(record.seed))
    for seq, seat, action in actions:
        rng = action_rng(record.seed, seq)
        if action == "!skip":
            state, _ = engine.skip(state, seat, rng)
        elif action == "!forfeit":
            state, _ = engine.forfeit(state, seat, rng)
        else:
            state, _ = engine.apply(state, seat, action, rng)
    return state
