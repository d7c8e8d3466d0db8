"""Computer seats: when one is to decide, the host asks its player and plays the answer.

A computer's turn is a deadline like any other (a couple of seconds away, so people can
follow), so the scheduler plays it, and a restart or a crash loses nothing: a deadline that
passed while the bot was down fires once when it is back. A person whose time runs out
under the ``computer`` timeout rule is played for the same way, by a strong player.
"""

from __future__ import annotations

import asyncio
import logging
import random
from typing import Any, Protocol

from bot.service.desk import Desk
from bot.service.notices import Outcome
from bot.service.tables import Table, corrections_of, seat_label
from bot.service.text import Text
from bot.service.timekeeping.timing import Timing
from bot.store import GameRecord, StaleVersion
from engines.base import Event, Game, Prompt
from engines.replay import action_rng
from games import spec_for
from players import Decision
from players.base import EASY


class Commits(Protocol):
    """What plays a computer's answer: :meth:`bot.service.play.turns.Turns.commit`."""

    async def commit(
        self,
        table: Table,
        seat: int,
        action: str,
        state: Any,
        events: list[Event],
        headline: str | Text = "",
        *,
        asker: int | None = None,
        forced: bool = False,
    ) -> Outcome: ...


COMPUTER_DELAY = 2.0
"""Seconds a computer 'thinks' before its move is played (so people can follow)."""

log = logging.getLogger(__name__)


def computer_seats(record: GameRecord, prompts: list[Prompt]) -> list[int]:
    """The prompted seats that a computer plays, each once."""
    return list(dict.fromkeys(p.seat for p in prompts if record.computer_at(p.seat)))


def decide(game: Game[Any], state: Any, seat: int, level: str, rng: random.Random) -> Decision:
    """What the computer plays for ``seat``, from what that seat may know.

    A player that fails, or answers something illegal, is replaced by a random legal move:
    a computer seat must never stall a game. The player reads the game's corrected data.
    """
    with corrections_of(game):
        return _decide(game, state, seat, level, rng)


def _decide(game: Game[Any], state: Any, seat: int, level: str, rng: random.Random) -> Decision:
    seen = game.observe(state, seat)
    legal = {choice.action for choice in game.legal_actions(seen, seat)}
    try:
        decision = spec_for(game.slug).player(level).choose(game, seen, seat, rng)
        if decision.action in legal:
            return decision
        # Not the action itself: for a secret prompt it would be the secret.
        log.warning("%s %s player chose an illegal action", game.slug, level)
    except Exception:
        log.exception("%s %s player failed; playing a random legal move", game.slug, level)
    return EASY.choose(game, seen, seat, rng)


class TurnDeadlines:
    """The deadline and reminder a new turn gets: the game's timing, or
    ``computer_delay`` seconds when a computer is to play."""

    def __init__(self, computer_delay: float = COMPUTER_DELAY) -> None:
        self.computer_delay = computer_delay

    def for_turn(
        self, record: GameRecord, prompts: list[Prompt], now: float, timing: Timing | None = None
    ) -> dict[str, Any]:
        """Deadline and reminder for a turn starting ``now`` under ``timing`` (default: the
        game's): soon if a computer is to play."""
        if computer_seats(record, prompts):
            return {"deadline": now + self.computer_delay, "remind_at": None}
        return (timing or Timing.from_dict(record.timing)).deadlines(now)


class Computers:
    """Computer seats: playing their moves, one at a time or all that are due."""

    def __init__(self, desk: Desk, turns: Commits) -> None:
        self._desk = desk
        self._turns = turns

    async def play_computers(self, game_id: int, limit: int = 20000) -> Outcome:
        """Play every computer move due in this game now, until a person is to decide or
        the game ends (a local table, or a test, has no scheduler to wait for)."""
        outcome = Outcome()
        for _ in range(limit):
            table: Table = await self._desk.table(game_id)
            seats = computer_seats(table.record, table.prompts())
            if table.record.status != "running" or not seats:
                break
            for seat in seats:
                level = table.record.computer_at(seat) or "strong"
                outcome.notices += (await self.play_computer(game_id, seat, level, "")).notices
        return outcome

    async def play_all_computers(self, *, guild_id: int) -> Outcome:
        """:meth:`play_computers` in every running game of the server."""
        outcome = Outcome()
        for record in await self._desk.store.games(guild_id=guild_id):
            if record.status == "running":
                outcome.notices += (await self.play_computers(record.id)).notices
        return outcome

    async def play_computer(
        self,
        game_id: int,
        seat: int,
        level: str,
        headline: str | Text,
        *,
        forced: bool = False,
        table: Table | None = None,
    ) -> Outcome:
        """Ask the computer for ``seat``'s move and play it; empty if the game moved on.

        ``forced``: a person's time ran out and the computer plays for them. ``table``: the
        game as just read (else it is read now)."""
        table = table or await self._desk.table(game_id)
        record = table.record
        if seat not in {p.seat for p in table.prompts()}:
            return Outcome()
        secret = any(p.secret for p in table.prompts() if p.seat == seat)
        rng = random.Random(f"{record.seed}:{record.version}:computer")
        # Thinking takes up to a second: keep it off the event loop.
        decision = await asyncio.to_thread(decide, table.engine, table.state, seat, level, rng)
        state, events = table.engine.apply(
            table.state, seat, decision.action, action_rng(record.seed, record.version + 1)
        )
        if not headline:
            headline = seat_label(table, seat)
            headline += f": {decision.why}" if decision.why and not secret else ""
        try:
            return await self._turns.commit(
                table, seat, decision.action, state, events, headline, forced=forced
            )
        except StaleVersion:
            return Outcome()
