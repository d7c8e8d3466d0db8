"""The lobby: opening, joining, leaving, starting and closing games, and tables that
lose a player or their channel."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from typing import Any, Protocol, Unpack

from bot.service import wire
from bot.service.desk import Desk, Where, title_of
from bot.service.errors import UserError
from bot.service.history.web_pages import token_for_new_game
from bot.service.notices import (
    ChannelPost,
    Notice,
    Outcome,
    PrivateMessage,
    Reply,
    StatusUpdate,
)
from bot.service.play.computers import TurnDeadlines
from bot.service.play.offers import CANCELLED, left_line, settling
from bot.service.play.turns import Turns
from bot.service.seating import sizes
from bot.service.seating.table_controls import lobby_controls, lobby_status, lobby_status_text
from bot.service.tables import (
    Table,
    already,
    engine_for,
    free_seat,
    player_count,
    role_index,
    seating,
    seating_of,
    written,
)
from bot.service.text import Mention, Text, said, said_plural
from bot.service.timekeeping.away import away_deadlines
from bot.service.timekeeping.timing import NO_DEADLINES, Timing
from bot.store import NewSeat, Outgoing, SeatRecord, StaleVersion
from engines import data as engine_data
from engines.base import BadOptions, Role
from engines.options import clip
from engines.replay import setup_rng
from players import LEVELS


def _without(table: Table, user_id: int) -> Table:
    """``table`` as it is once ``user_id`` gives up their seats."""
    seats = tuple(s for s in table.record.seats if s.user_id != user_id)
    return replace(table, record=replace(table.record, seats=seats))


class OpeningData(Protocol):
    """Where a new game's corrected data files come from (the server's corrections)."""

    async def opening_data(self, guild_id: int | None, slug: str) -> engine_data.Corrections: ...


class Lobby:
    """Opening, joining, leaving, starting and closing games; players and channels that
    go away."""

    def __init__(
        self,
        desk: Desk,
        turns: Turns,
        deadlines: TurnDeadlines,
        server_data: OpeningData,
        seeds: random.Random,
    ) -> None:
        self._desk = desk
        self._turns = turns
        self._deadlines = deadlines
        self._server_data = server_data
        self._seeds = seeds

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
        if (refused := sizes.refusal(engine, players)) is not None:
            raise UserError(refused)
        # The server's corrected data is fixed for the game now (its defaults too).
        corrections = await self._server_data.opening_data(guild_id, engine.slug)
        try:
            with engine_data.corrected(corrections):
                normalized = engine.parse_options(options)
                roles = engine.roles(players, normalized)
        except BadOptions as error:
            raise UserError(str(error)) from None
        if role is not None:
            role_index(roles, role)
        timing = Timing.from_dict(
            json.loads(await self._desk.store.guild_setting(guild_id, "timing") or "{}")
        )
        if own_thread is None:
            own_thread = await self._desk.store.guild_setting(guild_id, "threads") == "on"
        seat = free_seat(roles, set(), role, title=engine.title)
        host_seat = NewSeat(seat, roles[seat].key, user_id, user_name)
        fields: dict[str, Any] = {
            "guild_id": guild_id, "channel_id": channel_id, "slug": engine.slug,
            "host_id": user_id, "players": players, "options": normalized,
            "seed": self._seeds.getrandbits(62), "timing": timing.to_dict(),
            "own_thread": own_thread, "data": corrections.to_json(),
            "page": await token_for_new_game(self._desk.store, guild_id),
        }  # fmt: skip

        def opened(game_id: int) -> list[Outgoing]:
            # The post names the game's number, which the store gives in the same
            # transaction that seats the host and stores the post.
            title = f"{engine.title} #{game_id}"
            text = Text.of("\n").join([
                said("**{title}** is open for {players}, hosted by {host}.", title=title,
                     players=player_count(players), host=user_name),
                seating_of(roles, {seat: user_name}),
                said("Join with `/game join game:{game}`; the host starts with `/game start`.",
                     game=game_id),
            ])  # fmt: skip
            # The post offers Join, Leave and Start; the status message shows who sits where.
            controls = (lobby_controls(game_id),)
            status = lobby_status_text(title, players, roles, {seat: user_name})
            posts.append(ChannelPost(game_id, channel_id, text, controls=controls))
            posts.append(StatusUpdate(game_id, channel_id, status))
            return wire.outgoing(Outcome(posts[-2:]))

        posts: list[Notice] = []
        game_id = await self._desk.store.create_game(
            **fields, now=self._desk.clock(), seats=[host_seat], notices=opened
        )
        joined = said(
            "You joined {title} as {role}.",
            title=f"{engine.title} #{game_id}",
            role=roles[seat].name,
        )
        reply = Reply(joined)
        return Outcome([reply, *posts[-2:]])

    async def join(
        self,
        *,
        user_id: int,
        user_name: str,
        role: str | None = None,
        **where: Unpack[Where],
    ) -> Outcome:
        """Seat ``user_id`` at the game named, else at the one open table in the channel
        (a game already under way there is never the one meant); with several open tables
        UserError names them and asks for ``game:``."""
        table = await self._table_to_join(user_id=user_id, **where)
        game_id = table.record.id
        record = table.record
        if record.status != "lobby":
            raise UserError(already(table))
        if record.seat_of(user_id):
            held = table.role_name(record.seat_of(user_id)[0])
            raise UserError(
                said("You are already in {title}, as {role}.", title=table.title, role=held)
            )
        roles = table.roles()
        seat = free_seat(roles, {s.seat for s in record.seats}, role, title=table.title)
        taken = SeatRecord(game_id, seat, roles[seat].key, user_id, user_name)
        joined = replace(table, record=replace(record, seats=(*record.seats, taken)))
        missing = record.players - len(joined.record.seats)
        more = (
            said_plural("{count} seat still open.", "{count} seats still open.", missing)
            if missing
            else said("The table is full: the host can `/game start`.")
        )
        took = said(
            "{player} joined **{title}** as {role}.",
            player=user_name, title=table.title, role=roles[seat].name,
        )  # fmt: skip
        text = took + " " + more + "\n" + seating(joined)
        post = ChannelPost(game_id, record.channel_id, text, controls=(lobby_controls(game_id),))
        told = Outcome([post, lobby_status(joined)])
        try:
            await self._desk.store.add_seat(
                game_id, record.version, seat=seat, role=roles[seat].key, user_id=user_id,
                name=user_name, now=self._desk.clock(), notices=wire.outgoing(told),
            )  # fmt: skip
        except StaleVersion:
            raise UserError(said("Someone joined at the same moment; please try again.")) from None
        reply = said("You joined {title} as {role}.", title=table.title, role=roles[seat].name)
        return Outcome([Reply(reply), *told.notices])

    async def _table_to_join(
        self,
        *,
        user_id: int | None = None,
        **where: Unpack[Where],
    ) -> Table:
        """The game a join means: the one named, else the channel's open table (the one
        the asker does not sit at yet, when they already sit at another)."""
        game_id, channel_id = where.get("game_id"), where.get("channel_id")
        if game_id is None and channel_id is not None:
            open_here = [
                g for g in await self._desk.store.games(channel_id=channel_id)
                if g.status == "lobby"
            ]  # fmt: skip
            if len(open_here) > 1 and user_id is not None:
                free = [g for g in open_here if not g.seat_of(user_id)]
                open_here = free if len(free) == 1 else open_here
            if len(open_here) == 1:
                return self._desk.loaded(open_here[0])
            if open_here:
                listing = ", ".join(f"#{g.id} {title_of(g.slug)}" for g in reversed(open_here))
                raise UserError(
                    said(
                        "This channel has several open tables ({tables}); say which one to "
                        "join with `game:<number>`.",
                        tables=listing,
                    )
                )
        return await self._desk.find(user_id=user_id, **where)

    async def add_computer(
        self,
        *,
        user_id: int,
        level: str = "strong",
        role: str | None = None,
        **where: Unpack[Where],
    ) -> Outcome:
        """The host fills an open seat (the next one, or ``role``) with a computer player.

        Naming the host's own seat hands it to the computer (the host still hosts): that is
        how a game of computers only is set up.
        """
        table = await self._desk.find(user_id=user_id, **where)
        game_id = table.record.id
        record = table.record
        if record.status != "lobby":
            raise UserError(already(table))
        if user_id != record.host_id:
            raise UserError(
                said(
                    "Only the host, {host}, can seat computer players.",
                    host=Mention(record.host_id),
                )
            )
        level = (level or "strong").strip().lower()
        if level not in LEVELS:
            raise UserError(
                said(
                    "A computer plays `easy` (random legal moves) or `strong`, not `{level}`.",
                    level=clip(level),
                )
            )
        roles = table.roles()
        if role is not None and role_index(roles, role) in record.seat_of(user_id):
            await self._desk.store.remove_seats(
                game_id, record.version, user_id=user_id, now=self._desk.clock()
            )
            table = await self._desk.table(game_id)
            record = table.record
        seat = free_seat(roles, {s.seat for s in record.seats}, role, title=table.title)
        name = f"Computer ({level})"
        computer = SeatRecord(game_id, seat, roles[seat].key, -1 - seat, name, computer=level)
        seated = replace(table, record=replace(record, seats=(*record.seats, computer)))
        missing = record.players - len(seated.record.seats)
        full = said("The table is full: `/game start`.")
        more = (
            said_plural("{count} seat still open.", "{count} seats still open.", missing)
            if missing
            else full
        )
        role_name = roles[seat].name
        text = "🤖 " + _computer_takes(level, role_name) + " " + more + "\n" + seating(seated)
        outcome = Outcome(
            [Reply(_computer_plays(level, role_name)),
             ChannelPost(game_id, record.channel_id, text, controls=(lobby_controls(game_id),)),
             lobby_status(seated)]
        )  # fmt: skip
        try:
            await self._desk.stored(
                outcome, self._desk.store.add_seat, game_id, record.version, seat=seat,
                role=roles[seat].key, user_id=computer.user_id, name=name, now=self._desk.clock(),
                computer=level,
            )  # fmt: skip
        except StaleVersion:
            raise UserError(said("The table changed at that moment; please try again.")) from None
        return outcome

    async def leave(self, *, user_id: int, user_name: str, **where: Unpack[Where]) -> Outcome:
        table = await self._desk.find(user_id=user_id, **where)
        game_id = table.record.id
        record = table.record
        if not record.seat_of(user_id):
            raise UserError(said("You are not in {title}.", title=table.title))
        if record.status in ("running", "paused"):
            if all(record.has_left(seat) for seat in record.seat_of(user_id)):
                raise UserError(said("You have already left {title}.", title=table.title))
            return await self._leave_running(table, user_id, user_name)
        if record.status != "lobby":
            raise UserError(already(table))
        if user_id == record.host_id:
            raise UserError(said("You are hosting this game: `/game cancel` closes it instead."))
        rest = _without(table, user_id)
        text = (
            said("{player} left **{title}**.", player=user_name, title=table.title)
            + "\n"
            + seating(rest)
        )
        post = ChannelPost(game_id, record.channel_id, text, controls=(lobby_controls(game_id),))
        left = Reply(said("You left {title}.", title=table.title))
        outcome = Outcome([left, post, lobby_status(rest)])
        await self._desk.stored(
            outcome, self._desk.store.remove_seats, game_id, record.version, user_id=user_id,
            now=self._desk.clock(),
        )  # fmt: skip
        return outcome

    async def _leave_running(self, table: Table, user_id: int, user_name: str) -> Outcome:
        """A player leaves a game under way, as a resignation does but told as leaving
        (``!forfeit left``): each of their seats gives up at once by the game's own forfeit
        rule, whoever is to move; where one side remains the game ends, where several
        remain it goes on without them. A paused game's seats give up when it goes on."""
        record = table.record
        seats = [seat for seat in record.seat_of(user_id) if not record.has_left(seat)]
        if record.status == "running":
            text = said(
                "{player} has left **{title}**. Their seat gives up at once, as the rules of "
                "the game say.",
                player=user_name, title=table.title,
            )  # fmt: skip
        else:
            text = said(
                "{player} has left **{title}**. Their seat gives up as soon as the game goes "
                "on, as the rules of the game say.",
                player=user_name, title=table.title,
            )  # fmt: skip
        outcome = Outcome(
            [Reply(said("You left {title}.", title=table.title)),
             *settling(record, left_line(user_id)),
             ChannelPost(record.id, record.channel_id, text)]
        )  # fmt: skip
        await self._desk.stored(
            outcome, self._desk.store.mark_left, record.id, record.version, user_id=user_id,
            now=self._desk.clock(),
        )  # fmt: skip
        if record.status == "running":
            outcome.notices += (await self._turns.give_up(record.id, seats, "left", "🚪")).notices
        return outcome

    async def member_left(self, *, guild_id: int, user_id: int) -> Outcome:
        """A member left the server: they leave every game there; each host is told."""
        outcome = Outcome()
        for record in await self._desk.store.games(guild_id=guild_id, user_id=user_id):
            if all(record.has_left(seat) for seat in record.seat_of(user_id)):
                continue  # they had left it already
            table = await self._desk.table(record.id)
            name = next(s.name for s in record.seats if s.user_id == user_id)
            told = Outcome()
            if record.host_id != user_id:
                text = said(
                    "{player} left the server and so left {title}.", player=name, title=table.title
                )
                host = PrivateMessage(record.id, record.host_id, text, channel_id=record.channel_id)
                told.add(host)
            if record.status == "lobby" and user_id == record.host_id:
                closed = said("{title} was closed: its host left the server.", title=table.title)
                told.add(ChannelPost(record.id, record.channel_id, closed))
                await self._desk.stored(
                    told, self._desk.store.update_game, record.id, record.version,
                    now=self._desk.clock(), status="cancelled",
                )  # fmt: skip
            elif record.status == "lobby":
                text = said(
                    "{player} left the server, and so their seat at {title} is open again.",
                    player=name, title=table.title,
                )  # fmt: skip
                told.add(ChannelPost(record.id, record.channel_id, text))
                await self._desk.stored(
                    told, self._desk.store.remove_seats, record.id, record.version, user_id=user_id,
                    now=self._desk.clock(),
                )  # fmt: skip
            else:
                await self._desk.stored(
                    told, self._desk.store.enqueue, record.id, now=self._desk.clock()
                )
                left = await self._leave_running(table, user_id, name)
                told.notices += left.outgoing  # all but the reply to the leaver
            outcome.notices += told.notices
        return outcome

    async def channel_gone(self, channel_id: int) -> Outcome:
        """The channel (or thread) of some games was deleted: lobbies close, games under way
        are paused and wait for their host to `/game resume` them in another channel."""
        outcome = Outcome()
        for record in await self._desk.store.games(channel_id=channel_id):
            table = await self._desk.table(record.id)
            if record.status == "lobby":
                fields: dict[str, Any] = {"status": "cancelled"}
                text = said(
                    "{title} was closed: its channel was deleted before it started.",
                    title=table.title,
                )
            else:
                fields = {"status": "paused", "channel_id": 0, **NO_DEADLINES}
                text = said(
                    "{title} is paused: its channel was deleted. Nothing is lost; "
                    "`/game resume game:{game}` in any channel of the server goes on there.",
                    title=table.title, game=record.id,
                )  # fmt: skip
            # (An offer waiting there lapses: its post went with the channel.)
            told = Outcome([PrivateMessage(record.id, record.host_id, text)])
            await self._desk.stored(
                told, self._desk.store.update_game, record.id, record.version,
                now=self._desk.clock(), **fields,
            )  # fmt: skip
            outcome.notices += told.notices
        return outcome

    async def move_to(self, *, game_id: int, channel_id: int) -> None:
        """Play a game in another channel from now on (its own thread, say)."""
        record = (await self._desk.table(game_id)).record
        await self._desk.stored(
            Outcome(list(settling(record))), self._desk.store.update_game, game_id,
            record.version, now=self._desk.clock(), channel_id=channel_id,
        )  # fmt: skip

    async def startable(self, *, user_id: int, **where: Unpack[Where]) -> Table:
        """The lobby ``user_id`` may start now; UserError says why not."""
        table = await self._desk.find(user_id=user_id, **where)
        game_id = table.record.id
        record = table.record
        if record.status != "lobby":
            raise UserError(already(table))
        if user_id != record.host_id:
            raise UserError(
                said(
                    "Only the host, {host}, can start {title}.",
                    host=Mention(record.host_id), title=table.title,
                )
            )  # fmt: skip
        missing = record.players - len(record.seats)
        if missing:
            taken = {s.seat for s in record.seats}
            open_roles = ", ".join(r.name for i, r in enumerate(table.roles()) if i not in taken)
            raise UserError(
                said_plural(
                    "{title} needs {count} more player before it can start (open: {open}). "
                    "Invite friends to `/game join game:{game}`.",
                    "{title} needs {count} more players before it can start (open: {open}). "
                    "Invite friends to `/game join game:{game}`.",
                    missing, title=table.title, open=open_roles, game=game_id,
                )
            )  # fmt: skip
        return table

    async def start(self, *, user_id: int, **where: Unpack[Where]) -> Outcome:
        table = await self.startable(user_id=user_id, **where)
        game_id = table.record.id
        record = table.record
        state = table.engine.setup(table.role_keys(), record.options, setup_rng(record.seed))
        now = self._desk.clock()
        fields = {
            "status": "running",
            "snapshot": table.engine.dump(state),
            **self._deadlines.for_turn(record, table.engine.prompts(state), now),
        }
        fields = away_deadlines(record, table.engine.prompts(state), fields, now)
        started = Table(written(record, now, fields), table.engine, state)
        outcome = Outcome([Reply(said("{title} has started.", title=started.title))])
        await self._turns.announce(
            outcome, started, started.record.version, actor=None, events=[],
            fresh=started.prompts(), new_turn=True, headline=said("The game begins!"),
        )  # fmt: skip
        try:
            await self._desk.stored(
                outcome, self._desk.store.update_game, game_id, record.version, now=now, **fields
            )
        except StaleVersion:
            raise UserError(said("The table changed at that moment; please try again.")) from None
        return outcome

    async def cancel(self, *, user_id: int, is_admin: bool, **where: Unpack[Where]) -> Outcome:
        table = await self._desk.find(user_id=user_id, **where)
        game_id = table.record.id
        record = table.record
        if not record.active:
            raise UserError(already(table))
        if user_id != record.host_id and not is_admin:
            raise UserError(
                said(
                    "Only the host, {host}, or a member with Manage Server can cancel {title}.",
                    host=Mention(record.host_id), title=table.title,
                )
            )  # fmt: skip
        title = table.title
        text = said("**{title}** was cancelled by {player}.", title=title, player=Mention(user_id))
        status = "📜 " + said("**{title}**: cancelled.", title=title)
        outcome = Outcome(
            [Reply(said("{title} is cancelled.", title=title)), *settling(record, CANCELLED),
             ChannelPost(game_id, record.channel_id, text),
             StatusUpdate(game_id, record.channel_id, status)]
        )  # fmt: skip
        await self._desk.stored(
            outcome, self._desk.store.update_game, game_id, record.version, now=self._desk.clock(),
            status="cancelled", **NO_DEADLINES,
        )  # fmt: skip
        return outcome

    def new_game_roles(self, slug: str, players: int | None) -> list[Role]:
        """The roles of a table of ``players`` of ``slug`` (for autocomplete while a game
        is being opened); none when the game or table size does not exist."""
        try:
            engine = engine_for(slug)
            return engine.roles(players or engine.min_players, engine.parse_options(""))
        except (UserError, BadOptions):
            return []

    async def role_choices(self, **where: Unpack[Where]) -> list[Role]:
        """Roles still open at the lobby asked about, found as a join finds it (for
        autocomplete); none when the game is unclear or is no longer open."""
        try:
            table = await self._table_to_join(**where)
        except UserError:
            return []
        if table.record.status != "lobby":
            return []
        taken = {s.seat for s in table.record.seats}
        return [r for i, r in enumerate(table.roles()) if i not in taken]


def _computer_takes(level: str, role: str) -> Text:
    """``An easy computer player takes the Dragon.``"""
    if level == "easy":
        return said("An easy computer player takes {role}.", role=role)
    return said("A strong computer player takes {role}.", role=role)


def _computer_plays(level: str, role: str) -> Text:
    """``An easy computer plays the Dragon.``"""
    if level == "easy":
        return said("An easy computer plays {role}.", role=role)
    return said("A strong computer plays {role}.", role=role)
