"""The game host: lobby, seats, turns, secret prompts, for every game through one contract.

Frontends call these coroutines with plain ids and strings and deliver the notices they
return. Rules are the engines' business: the host only asks an engine who is prompted,
what is legal, and what happened, and stores every accepted action in one versioned
transaction before anybody is told about it.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bot.service.errors import AlreadyDone, UserError
from bot.service.notices import (
    ChannelPost,
    Controls,
    Outcome,
    PrivateMessage,
    Reply,
    StatusUpdate,
)
from bot.service.timing import NO_DEADLINES, Timing
from bot.store import GameRecord, StaleVersion
from bot.store.sqlite import SqliteStore
from engines import GAMES
from engines.base import BadOptions, Event, Game, IllegalAction, Prompt, Result, Role

Renderer = Callable[[str, dict[str, Any]], bytes]

log = logging.getLogger(__name__)

_STATUS_WORDS = {
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
    try:
        return GAMES[slug]
    except KeyError:
        known = ", ".join(sorted(GAMES))
        raise UserError(f"There is no game called `{slug}`. Games: {known}.") from None


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


class GameHost:
    """Every use case of the game host, independent of any frontend."""

    def __init__(
        self,
        store: SqliteStore,
        *,
        renderer: Renderer | None = None,
        clock: Callable[[], float] = time.time,
        seeds: random.Random | None = None,
    ) -> None:
        self.store = store
        self.clock = clock
        self._seeds = seeds or random.SystemRandom()
        self._renderer = renderer
        # Called whenever a deadline may have moved earlier; the scheduler hooks in here.
        self.wakeup: Callable[[], None] = lambda: None

    # -- looking games up --------------------------------------------------------------

    async def table(self, game_id: int) -> Table:
        record = await self.store.get_game(game_id)
        if record is None:
            raise UserError(f"There is no game #{game_id}. `/game list` shows this server's games.")
        engine = engine_for(record.slug)
        state = engine.load(record.snapshot) if record.snapshot is not None else None
        return Table(record, engine, state)

    async def find(
        self, *, guild_id: int, channel_id: int, user_id: int, game_id: int | None
    ) -> Table:
        """The game a command means: the one named, else the only active one here."""
        if game_id is not None:
            table = await self.table(game_id)
            if table.record.guild_id != guild_id:
                raise UserError(f"Game #{game_id} belongs to another server.")
            return table
        here = await self.store.games(channel_id=channel_id)
        if not here:
            # A game that just ended is still "the game here" for status and rules.
            here = await self.store.games(channel_id=channel_id, active_only=False, limit=1)
        if not here:
            raise UserError(
                "No game is open in this channel. Start one with `/game new`, "
                "or name one with `game:` (`/game list` shows them)."
            )
        if len(here) > 1:
            mine = [g for g in here if g.seat_of(user_id)]
            here = mine if len(mine) == 1 else here
        if len(here) > 1:
            listing = ", ".join(f"#{g.id} {engine_for(g.slug).title}" for g in here)
            raise UserError(f"This channel has several games ({listing}); add `game:<number>`.")
        return await self.table(here[0].id)

    # -- the lobby ---------------------------------------------------------------------

    async def new_game(
        self,
        *,
        guild_id: int,
        channel_id: int,
        user_id: int,
        user_name: str,
        slug: str,
        players: int | None = None,
        options: str = "",
        role: str | None = None,
        own_thread: bool | None = None,
    ) -> Outcome:
        """Open a lobby for ``slug`` and seat its host.

        ``own_thread``: play in a thread of its own once started (default: the server's).
        """
        engine = engine_for(slug)
        players = players or engine.min_players
        if not engine.min_players <= players <= engine.max_players:
            raise UserError(
                f"{engine.title} is for {engine.min_players} to {engine.max_players} players, "
                f"not {players}."
            )
        try:
            normalized = engine.normalize_options(parse_options(options))
            roles = engine.roles(players, normalized)
        except BadOptions as error:
            raise UserError(str(error)) from None
        if role is not None:
            _role_index(roles, role)
        timing = Timing.from_dict(
            json.loads(await self.store.guild_setting(guild_id, "timing") or "{}")
        )
        game_id = await self.store.create_game(
            guild_id=guild_id,
            channel_id=channel_id,
            slug=engine.slug,
            host_id=user_id,
            players=players,
            options=normalized,
            seed=self._seeds.getrandbits(62),
            now=self.clock(),
            timing=timing.to_dict(),
        )
        if own_thread is None:
            own_thread = await self.store.guild_setting(guild_id, "threads") == "on"
        if own_thread:
            version = (await self.store.get_game(game_id)).version
            await self.store.update_game(game_id, version, now=self.clock(), own_thread=1)
        joined = await self.join(
            game_id=game_id, user_id=user_id, user_name=user_name, role=role, announce=False
        )
        table = await self.table(game_id)
        text = (
            f"**{table.title}** is open for {players} players, hosted by {user_name}.\n"
            f"{_seating(table)}\n"
            f"Join with `/game join game:{game_id}`; the host starts with `/game start`."
        )
        post = ChannelPost(game_id, channel_id, text)
        return Outcome([Reply(joined.notices[0].text), post])

    async def join(
        self,
        *,
        game_id: int,
        user_id: int,
        user_name: str,
        role: str | None = None,
        announce: bool = True,
    ) -> Outcome:
        table = await self.table(game_id)
        record = table.record
        if record.status != "lobby":
            raise UserError(f"{table.title} has already {_started_word(record.status)}.")
        if record.seat_of(user_id):
            held = table.role_name(record.seat_of(user_id)[0])
            raise UserError(f"You are already in {table.title}, as {held}.")
        roles = table.roles()
        taken = {s.seat for s in record.seats}
        free = [i for i in range(len(roles)) if i not in taken]
        if not free:
            raise UserError(f"{table.title} is full. Ask the host about another game.")
        if role is None:
            seat = free[0]
        else:
            seat = _role_index(roles, role)
            if seat in taken:
                open_names = ", ".join(roles[i].name for i in free)
                raise UserError(f"{roles[seat].name} is taken. Still open: {open_names}.")
        try:
            await self.store.add_seat(
                game_id,
                record.version,
                seat=seat,
                role=roles[seat].key,
                user_id=user_id,
                name=user_name,
                now=self.clock(),
            )
        except StaleVersion:
            raise UserError("Someone joined at the same moment; please try again.") from None
        table = await self.table(game_id)
        reply = Reply(f"You joined {table.title} as {roles[seat].name}.")
        if not announce:
            return Outcome([reply])
        missing = record.players - len(table.record.seats)
        more = (
            f"{missing} seat(s) still open."
            if missing
            else "The table is full: the host can `/game start`."
        )
        text = (
            f"{user_name} joined **{table.title}** as {roles[seat].name}. {more}\n{_seating(table)}"
        )
        return Outcome([reply, ChannelPost(game_id, record.channel_id, text)])

    async def leave(self, *, game_id: int, user_id: int, user_name: str) -> Outcome:
        table = await self.table(game_id)
        record = table.record
        if not record.seat_of(user_id):
            raise UserError(f"You are not in {table.title}.")
        if record.status in ("running", "paused"):
            return await self._leave_running(table, user_id, user_name)
        if record.status != "lobby":
            raise UserError(f"{table.title} has already {_started_word(record.status)}.")
        if user_id == record.host_id:
            raise UserError("You are hosting this game: `/game cancel` closes it instead.")
        await self.store.remove_seats(game_id, record.version, user_id=user_id, now=self.clock())
        table = await self.table(game_id)
        text = f"{user_name} left **{table.title}**.\n{_seating(table)}"
        return Outcome(
            [Reply(f"You left {table.title}."), ChannelPost(game_id, record.channel_id, text)]
        )

    async def _leave_running(self, table: Table, user_id: int, user_name: str) -> Outcome:
        """A player leaves a game under way: each of their seats forfeits on its turn (at
        once if it is their turn now), by the game's own forfeit rule."""
        record = table.record
        await self.store.mark_left(record.id, record.version, user_id=user_id, now=self.clock())
        text = (
            f"{user_name} has left **{table.title}**. Their seat gives up as the rules of "
            "the game say, as soon as it is its turn."
        )
        outcome = Outcome(
            [Reply(f"You left {table.title}."), ChannelPost(record.id, record.channel_id, text)]
        )
        if record.status == "running":
            outcome.notices += (await self._forfeit_departed(record.id)).notices
        return outcome

    async def _forfeit_departed(self, game_id: int) -> Outcome:
        """Forfeit every seat that is prompted now but whose player has left."""
        outcome = Outcome()
        for _ in range(16):
            table = await self.table(game_id)
            gone = [p.seat for p in table.prompts() if table.record.has_left(p.seat)]
            if table.record.status != "running" or not gone:
                break
            seat = gone[0]
            rng = action_rng(table.record.seed, table.record.version + 1)
            state, events = table.engine.forfeit(table.state, seat, rng)
            headline = f"🚪 {table.role_name(seat)} has left the game."
            try:
                outcome.notices += (
                    await self._commit(table, seat, "!forfeit", state, events, headline)
                ).notices
            except StaleVersion:
                continue
        return outcome

    async def member_left(self, *, guild_id: int, user_id: int) -> Outcome:
        """A member left the server: they leave every game there; each host is told."""
        outcome = Outcome()
        for record in await self.store.games(guild_id=guild_id, user_id=user_id):
            title = (await self.table(record.id)).title
            name = next(s.name for s in record.seats if s.user_id == user_id)
            if record.status == "lobby" and user_id == record.host_id:
                await self.store.update_game(
                    record.id, record.version, now=self.clock(), status="cancelled"
                )
                closed = f"{title} was closed: its host left the server."
                outcome.add(ChannelPost(record.id, record.channel_id, closed))
                continue
            if record.status == "lobby":
                await self.store.remove_seats(
                    record.id, record.version, user_id=user_id, now=self.clock()
                )
                text = f"{name} left the server, and so their seat at {title} is open again."
                outcome.add(ChannelPost(record.id, record.channel_id, text))
            else:
                left = await self._leave_running(await self.table(record.id), user_id, name)
                outcome.notices += left.notices[1:]  # all but the reply to the leaver
            if record.host_id != user_id:
                told = f"{name} left the server and so left {title}."
                outcome.add(PrivateMessage(record.id, record.host_id, told))
        return outcome

    async def channel_gone(self, channel_id: int) -> Outcome:
        """The channel (or thread) of some games was deleted: lobbies close, games under way
        are paused and wait for their host to `/game resume` them in another channel."""
        outcome = Outcome()
        for record in await self.store.games(channel_id=channel_id):
            table = await self.table(record.id)
            if record.status == "lobby":
                await self.store.update_game(
                    record.id, record.version, now=self.clock(), status="cancelled"
                )
                text = f"{table.title} was closed: its channel was deleted before it started."
            else:
                await self.store.update_game(
                    record.id, record.version, now=self.clock(), status="paused", channel_id=0,
                    **NO_DEADLINES,
                )  # fmt: skip
                text = (
                    f"{table.title} is paused: its channel was deleted. Nothing is lost; "
                    f"`/game resume game:{record.id}` in any channel of the server goes on there."
                )
            outcome.add(PrivateMessage(record.id, record.host_id, text))
        return outcome

    async def move_to(self, *, game_id: int, channel_id: int) -> None:
        """Play a game in another channel from now on (its own thread, say)."""
        record = (await self.table(game_id)).record
        await self.store.update_game(
            game_id, record.version, now=self.clock(), channel_id=channel_id
        )

    async def startable(self, *, game_id: int, user_id: int) -> Table:
        """The lobby ``user_id`` may start now; UserError says why not."""
        table = await self.table(game_id)
        record = table.record
        if record.status != "lobby":
            raise UserError(f"{table.title} has already {_started_word(record.status)}.")
        if user_id != record.host_id:
            raise UserError(f"Only the host, <@{record.host_id}>, can start {table.title}.")
        missing = record.players - len(record.seats)
        if missing:
            taken = {s.seat for s in record.seats}
            open_roles = ", ".join(r.name for i, r in enumerate(table.roles()) if i not in taken)
            raise UserError(
                f"{table.title} needs {missing} more player(s) before it can start "
                f"(open: {open_roles}). Invite friends to `/game join game:{game_id}`."
            )
        return table

    async def start(self, *, game_id: int, user_id: int) -> Outcome:
        table = await self.startable(game_id=game_id, user_id=user_id)
        record = table.record
        keys = [r.key for r in table.roles()]
        state = table.engine.setup(keys, record.options, setup_rng(record.seed))
        now = self.clock()
        try:
            version = await self.store.update_game(
                game_id,
                record.version,
                now=now,
                status="running",
                snapshot=table.engine.dump(state),
                **Timing.from_dict(record.timing).deadlines(now),
            )
        except StaleVersion:
            raise UserError("The table changed at that moment; please try again.") from None
        started = await self.table(game_id)
        outcome = Outcome([Reply(f"{started.title} has started.")])
        self.wakeup()
        await self._announce(
            outcome, started, version, actor=None, events=[], fresh=started.prompts(),
            new_turn=True, headline="The game begins!",
        )  # fmt: skip
        return outcome

    async def cancel(self, *, game_id: int, user_id: int, is_admin: bool) -> Outcome:
        table = await self.table(game_id)
        record = table.record
        if not record.active:
            raise UserError(f"{table.title} has already {_started_word(record.status)}.")
        if user_id != record.host_id and not is_admin:
            raise UserError(
                f"Only the host, <@{record.host_id}>, or a member with Manage Server can cancel "
                f"{table.title}."
            )
        await self.store.update_game(
            game_id, record.version, now=self.clock(), status="cancelled", **NO_DEADLINES
        )
        text = f"**{table.title}** was cancelled by <@{user_id}>."
        return Outcome(
            [Reply(f"{table.title} is cancelled."), ChannelPost(game_id, record.channel_id, text)]
        )

    # -- information -------------------------------------------------------------------

    async def status(self, *, game_id: int) -> Reply:
        """Where the game stands, with the current board, for the asker only."""
        table = await self.table(game_id)
        return Reply(self._status_text(table), image=await self._render(table))

    async def private_text(self, *, game_id: int, user_id: int) -> str:
        """What only ``user_id`` knows in this game (their hand, their Chest), in words."""
        table = await self.table(game_id)
        if table.state is None:
            return ""
        parts = [
            table.engine.view(table.state, s).get("private", "")
            for s in table.record.seat_of(user_id)
        ]
        return "\n".join(p for p in parts if p)

    async def list_games(self, *, guild_id: int) -> Reply:
        games = await self.store.games(guild_id=guild_id)
        if not games:
            return Reply("No games are open on this server. Start one with `/game new`.")
        lines = [await self._line(g) for g in games]
        return Reply("**Games on this server**\n" + "\n".join(lines))

    async def mine(self, *, guild_id: int, user_id: int) -> Reply:
        games = await self.store.games(guild_id=guild_id, user_id=user_id)
        if not games:
            return Reply("You are not in any open game here. `/game list` shows what is open.")
        lines = [await self._line(g, user_id) for g in games]
        return Reply("**Your games**\n" + "\n".join(lines))

    async def _line(self, record: GameRecord, user_id: int | None = None) -> str:
        table = await self.table(record.id)
        where = f"<#{record.channel_id}>"
        if record.status != "running":
            return f"#{record.id} {table.engine.title} in {where}: {_STATUS_WORDS[record.status]}"
        waiting = sorted({p.seat for p in table.prompts()})
        if user_id is not None and any(record.user_at(s) == user_id for s in waiting):
            turn = "**your turn**"
        else:
            turn = "waiting for " + ", ".join(_seat_label(table, s) for s in waiting)
        if record.deadline:
            turn += f", turn ends <t:{int(record.deadline)}:R>"
        return f"#{record.id} {table.engine.title} in {where}: {turn}"

    def _status_text(self, table: Table) -> str:
        record = table.record
        lines = [f"**{table.title}**: {_STATUS_WORDS[record.status]}", _seating(table)]
        if table.state is not None:
            lines.append(table.engine.view(table.state, None)["summary"])
        if record.result:
            lines.append(f"Result: {record.result}")
        return "\n".join(lines)

    # -- playing -----------------------------------------------------------------------

    async def controls_for(self, *, game_id: int, user_id: int) -> list[Controls]:
        """Every decision ``user_id`` can make now in this game (public or secret)."""
        table = await self.table(game_id)
        if table.record.status != "running":
            return []
        mine = set(table.record.seat_of(user_id))
        return [
            self._controls(table, table.record.version, p)
            for p in table.prompts()
            if p.seat in mine
        ]

    async def pending_private(self, *, guild_id: int, user_id: int) -> list[Controls]:
        """The user's unanswered secret prompts in every running game of the server."""
        pending = []
        for record in await self.store.games(guild_id=guild_id, user_id=user_id):
            for controls in await self.controls_for(game_id=record.id, user_id=user_id):
                if controls.prompt.secret:
                    pending.append(controls)
        return pending

    async def act(
        self,
        *,
        game_id: int,
        user_id: int,
        action: str,
        version: int | None = None,
        issued: int | None = None,
    ) -> Outcome:
        """Apply ``action`` for ``user_id``.

        A clicked control says when it was offered. ``version``: a turn's control, stale
        once the game has moved on. ``issued``: a secret prompt's control, stale once the
        user's seat has acted since (a double click, or a button from an earlier round).
        Stale controls apply nothing and raise :class:`AlreadyDone`. Typed actions pass
        neither and are checked against the current position instead.
        """
        for _ in range(5):
            table = await self.table(game_id)
            record = table.record
            if version is not None and record.version != version:
                raise AlreadyDone(
                    "That was already played: the board has moved on. " + _current_board(record)
                )
            if issued is not None and await self.store.acted_since(
                game_id, record.seat_of(user_id), issued
            ):
                raise AlreadyDone(
                    "That choice was already made, or belongs to an earlier round. "
                    "`/hand` shows what is waiting for you now."
                )
            seat = self._acting_seat(table, user_id, action)
            rng = action_rng(record.seed, record.version + 1)
            try:
                state, events = table.engine.apply(table.state, seat, action.strip(), rng)
            except IllegalAction as error:
                raise UserError(str(error)) from None
            try:
                return await self._commit(table, seat, action.strip(), state, events)
            except StaleVersion:
                if version is not None:
                    raise AlreadyDone(
                        "That was already played: the board has moved on. " + _current_board(record)
                    ) from None
        raise UserError("The game is very busy right now; please try again in a moment.")

    async def _commit(
        self,
        table: Table,
        seat: int,
        action: str,
        state: Any,
        events: list[Event],
        headline: str = "",
    ) -> Outcome:
        """Store one accepted action in one versioned transaction, then say what changed.

        Raises StaleVersion (nothing stored) if the game moved on since ``table`` was read.
        """
        record = table.record
        before = table.prompts()
        result = table.engine.result(state)
        fresh, new_turn = _turn_change(before, table.engine.prompts(state), seat, result)
        now = self.clock()
        if result is not None:
            clock_fields = NO_DEADLINES
        elif new_turn:
            clock_fields = Timing.from_dict(record.timing).deadlines(now)
        else:
            clock_fields = {}
        new_version = await self.store.append_action(
            record.id,
            record.version,
            seat=seat,
            action=action,
            events=[_event_record(e) for e in events],
            now=now,
            snapshot=table.engine.dump(state),
            status="finished" if result else "running",
            result=result.text if result else None,
            **clock_fields,
        )
        secret = any(p.secret for p in before if p.seat == seat)
        log.info(
            "game %s v%s: seat %s played %s%s",
            record.id, new_version, seat, "a secret choice" if secret else repr(action),
            f"; {result.text}" if result else "",
        )  # fmt: skip
        if clock_fields:
            self.wakeup()
        played = Table(await self.store.get_game(record.id), table.engine, state)
        outcome = Outcome()
        await self._announce(
            outcome, played, new_version, actor=seat, events=events, fresh=fresh,
            new_turn=new_turn, result=result, headline=headline,
        )  # fmt: skip
        if result is None and any(played.record.has_left(p.seat) for p in fresh):
            outcome.notices += (await self._forfeit_departed(record.id)).notices
        return outcome

    def _acting_seat(self, table: Table, user_id: int, action: str) -> int:
        record = table.record
        if record.status == "lobby":
            raise UserError(
                f"{table.title} has not started yet; the host starts it with `/game start`."
            )
        if record.status != "running":
            raise UserError(f"{table.title} is {_STATUS_WORDS[record.status]}; no more moves.")
        seats = record.seat_of(user_id)
        if not seats:
            raise UserError(f"You are not playing in {table.title}.")
        prompted = [p.seat for p in table.prompts() if p.seat in seats]
        if not prompted:
            waiting = ", ".join(_seat_label(table, p.seat) for p in table.prompts())
            raise UserError(f"It is not your turn in {table.title}: waiting for {waiting}.")
        if len(prompted) == 1:
            return prompted[0]
        wanted = action.strip().lower()
        for seat in prompted:
            if any(
                c.action.lower() == wanted for c in table.engine.legal_actions(table.state, seat)
            ):
                return seat
        return prompted[0]

    def _controls(self, table: Table, version: int, prompt: Prompt) -> Controls:
        choices = tuple(table.engine.legal_actions(table.state, prompt.seat))
        return Controls(table.record.id, version, prompt, choices)

    async def _announce(
        self,
        outcome: Outcome,
        table: Table,
        version: int,
        *,
        actor: int | None,
        events: list[Event],
        fresh: list[Prompt],
        new_turn: bool,
        result: Result | None = None,
        headline: str = "",
    ) -> None:
        """Tell everyone what an accepted action (or the start) changed."""
        record = table.record
        for seat, lines in _private_lines(events).items():
            user = record.user_at(seat)
            if user is not None:
                outcome.add(PrivateMessage(record.id, user, "\n".join(lines)))

        after = table.prompts()
        public_prompts = [p for p in after if not p.secret]
        called = [u for p in fresh if (u := record.user_at(p.seat)) is not None and p.seat != actor]
        mentions = tuple([
            u for u in dict.fromkeys(called) if await self.store.notify_choice(u) == "turns"
        ])  # fmt: skip
        lines = [f"**{table.title}**" + (f": {headline}" if headline else "")]
        lines += [e.text for e in events if e.public and (result is None or e.text != result.text)]
        if result is not None:
            winners = " and ".join(_seat_label(table, s) for s in result.winners)
            lines.append(f"🏆 {result.text}" + (f" Congratulations, {winners}!" if winners else ""))
        elif new_turn:
            lines.append(table.engine.view(table.state, None)["summary"])
            lines += [f"➡️ <@{record.user_at(p.seat)}>: {p.text}" for p in fresh if p.seat != actor]
        image = await self._render(table) if new_turn else None
        controls = tuple(self._controls(table, version, p) for p in public_prompts)
        outcome.add(
            ChannelPost(
                record.id, record.channel_id, "\n".join(lines), image, mentions, controls,
                final=result is not None,
            )
        )  # fmt: skip
        if new_turn:
            last = next((e.text for e in reversed(events) if e.public), "")
            outcome.add(StatusUpdate(record.id, record.channel_id, _status_line(table, last)))
        for prompt in fresh:
            user = record.user_at(prompt.seat)
            if prompt.secret and user is not None:
                view = table.engine.view(table.state, prompt.seat)
                text = f"**{table.title}**: {prompt.text}\n{view.get('private', '')}".strip()
                outcome.add(
                    PrivateMessage(record.id, user, text, (self._controls(table, version, prompt),))
                )

    async def _render(self, table: Table) -> bytes | None:
        if self._renderer is None or table.state is None:
            return None
        view = table.engine.view(table.state, None)
        # Drawing takes tens of milliseconds: keep it off the event loop.
        return await asyncio.to_thread(self._renderer, table.engine.slug, view)

    # -- the turn clock ----------------------------------------------------------------

    async def set_timing(
        self,
        *,
        game_id: int,
        user_id: int,
        limit_hours: float | None = None,
        reminder_hours: float | None = None,
        on_timeout: str | None = None,
    ) -> Reply:
        """The host changes a game's turn limit, reminder or timeout rule."""
        table = await self.table(game_id)
        record = table.record
        if user_id != record.host_id:
            raise UserError(
                f"Only the host, <@{record.host_id}>, can change {table.title}'s clock."
            )
        if not record.active:
            raise UserError(f"{table.title} has already {_started_word(record.status)}.")
        timing = Timing.from_dict(record.timing).changed(limit_hours, reminder_hours, on_timeout)
        fields: dict[str, Any] = {"timing": timing.to_dict()}
        if record.status == "running":
            fields.update(timing.deadlines(self.clock()))
        await self.store.update_game(game_id, record.version, now=self.clock(), **fields)
        self.wakeup()
        return Reply(f"{table.title}: {timing.describe()}.", private=False)

    async def set_server_timing(
        self,
        *,
        guild_id: int,
        limit_hours: float | None = None,
        reminder_hours: float | None = None,
        on_timeout: str | None = None,
    ) -> Reply:
        """Defaults for games opened on this server from now on (Manage Server only)."""
        current = json.loads(await self.store.guild_setting(guild_id, "timing") or "{}")
        timing = Timing.from_dict(current).changed(limit_hours, reminder_hours, on_timeout)
        await self.store.set_guild_setting(guild_id, "timing", json.dumps(timing.to_dict()))
        return Reply(f"New games on this server: {timing.describe()}.", private=False)

    async def set_server_threads(self, *, guild_id: int, on: bool) -> Reply:
        await self.store.set_guild_setting(guild_id, "threads", "on" if on else "off")
        where = "in a thread of its own" if on else "in the channel where it was opened"
        return Reply(f"New games on this server are played {where}.", private=False)

    async def pause(self, *, game_id: int, user_id: int) -> Outcome:
        """The host stops the clock; nobody can move until the game is resumed."""
        table = await self._hosted(game_id, user_id, "running", "pause")
        await self.store.update_game(
            game_id, table.record.version, now=self.clock(), status="paused", **NO_DEADLINES
        )
        text = f"⏸️ **{table.title}** is paused by its host. `/game resume` goes on."
        return Outcome([Reply("Paused."), ChannelPost(game_id, table.record.channel_id, text)])

    async def resume(self, *, game_id: int, user_id: int, channel_id: int | None = None) -> Outcome:
        """The host restarts a paused game; the player to move gets a fresh turn clock.

        A game whose channel was deleted moves to ``channel_id`` (where it was resumed).
        """
        table = await self._hosted(game_id, user_id, "paused", "resume")
        now = self.clock()
        moved = {"channel_id": channel_id} if table.record.channel_id == 0 and channel_id else {}
        if table.record.channel_id == 0 and not moved:
            raise UserError(f"{table.title} lost its channel: resume it in the channel to play in.")
        version = await self.store.update_game(
            game_id, table.record.version, now=now, status="running", **moved,
            **Timing.from_dict(table.record.timing).deadlines(now),
        )  # fmt: skip
        self.wakeup()
        resumed = await self.table(game_id)
        outcome = Outcome([Reply("Resumed.")])
        await self._announce(
            outcome, resumed, version, actor=None, events=[], fresh=resumed.prompts(),
            new_turn=True, headline="▶️ The game goes on!",
        )  # fmt: skip
        return outcome

    async def _hosted(self, game_id: int, user_id: int, status: str, verb: str) -> Table:
        table = await self.table(game_id)
        if user_id != table.record.host_id:
            raise UserError(f"Only the host, <@{table.record.host_id}>, can {verb} {table.title}.")
        if table.record.status != status:
            raise UserError(
                f"{table.title} is {_STATUS_WORDS[table.record.status]}; it cannot {verb}."
            )
        return table

    async def next_wakeup(self) -> float | None:
        """When the earliest deadline or reminder of any running game falls."""
        return await self.store.next_wakeup()

    async def fire_due(self) -> Outcome:
        """Send every reminder and settle every timeout that is due, each exactly once."""
        now = self.clock()
        outcome = Outcome()
        for record in await self.store.due(now):
            if record.deadline is not None and record.deadline <= now:
                outcome.notices += (await self._time_out(record.id, record.deadline)).notices
            elif record.remind_at is not None and await self.store.take_reminder(
                record.id, record.remind_at
            ):
                outcome.notices += (await self._remind(record.id)).notices
        return outcome

    async def _time_out(self, game_id: int, deadline: float) -> Outcome:
        """Skip or forfeit every seat that was still to act when ``deadline`` passed."""
        outcome = Outcome()
        table = await self.table(game_id)
        late = list(dict.fromkeys(p.seat for p in table.prompts()))
        mode = Timing.from_dict(table.record.timing).on_timeout
        for seat in late:
            table = await self.table(game_id)
            if table.record.deadline != deadline or seat not in {p.seat for p in table.prompts()}:
                break  # someone acted meanwhile, or the turn already moved on
            rng = action_rng(table.record.seed, table.record.version + 1)
            hook = table.engine.skip if mode == "skip" else table.engine.forfeit
            state, events = hook(table.state, seat, rng)
            word = "turn is skipped" if mode == "skip" else "seat is forfeited"
            headline = f"⏰ {_seat_label(table, seat)} ran out of time: the {word}."
            try:
                committed = await self._commit(table, seat, f"!{mode}", state, events, headline)
            except StaleVersion:
                break
            outcome.notices += committed.notices
        return outcome

    async def _remind(self, game_id: int) -> Outcome:
        """Remind each player still to act, by DM, or in the channel if their DMs are closed."""
        table = await self.table(game_id)
        record = table.record
        outcome = Outcome()
        when = f"<t:{int(record.deadline)}:R>" if record.deadline else "soon"
        for seat in dict.fromkeys(p.seat for p in table.prompts()):
            user = record.user_at(seat)
            if user is None or await self.store.notify_choice(user) == "none":
                continue
            text = f"⏰ Reminder: {table.title} is waiting for you; your turn runs out {when}."
            if await self.store.dm_closed(user):
                outcome.add(
                    ChannelPost(record.id, record.channel_id, f"<@{user}> {text}", None, (user,))
                )
            else:
                outcome.add(PrivateMessage(record.id, user, text))
        return outcome

    async def set_notify(self, *, user_id: int, choice: str) -> Reply:
        """How a user wants to be called: every turn, reminders only, or not at all."""
        if choice not in NOTIFY_CHOICES:
            raise UserError("Choose `turns`, `reminders` or `none`.")
        await self.store.set_notify_choice(user_id, choice)
        return Reply(f"Notifications: {NOTIFY_CHOICES[choice]}.")

    # -- help --------------------------------------------------------------------------

    @staticmethod
    def rules(slug: str) -> str:
        return engine_for(slug).rules_help()

    async def role_choices(self, game_id: int) -> list[Role]:
        """Roles still open at a lobby table (for autocomplete)."""
        table = await self.table(game_id)
        taken = {s.seat for s in table.record.seats}
        return [r for i, r in enumerate(table.roles()) if i not in taken]


NOTIFY_CHOICES = {
    "turns": "a mention in the channel on each of your turns, and reminders by DM",
    "reminders": "no mention on each turn, only reminders by DM before your time runs out",
    "none": "no mentions and no reminders",
}


def _current_board(record: GameRecord) -> str:
    if record.board_message_id:
        link = (
            f"https://discord.com/channels/{record.guild_id}/{record.channel_id}/"
            f"{record.board_message_id}"
        )
        return f"The current board: {link}"
    return f"`/game status game:{record.id}` shows where it stands."


def _status_line(table: Table, last: str) -> str:
    """The text of a game's status message: whose turn, until when, and the last action."""
    record = table.record
    if record.status == "finished":
        return f"📜 **{table.title}**: finished. {record.result or ''}".strip()
    waiting = ", ".join(dict.fromkeys(_seat_label(table, p.seat) for p in table.prompts()))
    text = f"📜 **{table.title}**: waiting for {waiting}"
    if record.deadline:
        text += f", turn ends <t:{int(record.deadline)}:R>"
    return f"{text}.\nLast: {last}" if last else f"{text}."


def _turn_change(
    before: list[Prompt], after: list[Prompt], actor: int | None, result: Result | None
) -> tuple[list[Prompt], bool]:
    """The prompts an action newly raised, and whether the turn passed to someone else
    (which posts a new board, pings the players now asked, and restarts the turn clock)."""
    fresh = [p for p in after if p.seat == actor or p not in before]
    new_turn = result is not None or actor is None or any(p.seat != actor for p in fresh)
    return fresh, new_turn


def _role_index(roles: list[Role], wanted: str) -> int:
    wanted = wanted.strip().lower()
    for index, role in enumerate(roles):
        if wanted in (role.key.lower(), role.name.lower()):
            return index
    names = ", ".join(f"`{r.key}` ({r.name})" for r in roles)
    raise UserError(f"There is no role `{wanted}` at this table. Roles: {names}.")


def _seating(table: Table) -> str:
    taken = {s.seat: s for s in table.record.seats}
    parts = []
    for index, role in enumerate(table.roles()):
        holder = taken.get(index)
        parts.append(f"{role.name}: {holder.name if holder else '*open*'}")
    return "Seats: " + " · ".join(parts)


def _seat_label(table: Table, seat: int) -> str:
    user = table.record.user_at(seat)
    name = table.role_name(seat)
    return f"{name} (<@{user}>)" if user is not None else name


def _started_word(status: str) -> str:
    return {"running": "started", "paused": "started", "finished": "ended"}.get(status, status)


def _private_lines(events: list[Event]) -> dict[int, list[str]]:
    lines: dict[int, list[str]] = {}
    for event in events:
        if event.seat is not None:
            lines.setdefault(event.seat, []).append(event.text)
    return lines


def _event_record(event: Event) -> dict[str, Any]:
    return {"text": event.text, "seat": event.seat, "data": event.data}


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
