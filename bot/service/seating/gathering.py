"""Gathering a table: the lobby's Join, Leave and Start controls, invitations, rematches.

Controls are offered as :class:`~bot.service.notices.Controls` of their own prompt kinds,
so a notice only says "this post offers lobby controls for game N"; each frontend decides
how to show them (Discord: persistent buttons; the local table: the typed commands).
Their version is 0: a lobby's controls never go stale by a join or a leave, each press
reads the game as it is and answers clearly once it has started or closed.

- **Join** takes the only open seat, or asks which one (a menu for the asker alone).
- **Leave** gives the seat up while the game waits for players (never a seat in play).
- **Start** is the host's (the others are told who can start it).
- **Invitations** (``/game invite``) are DMs from the outbox with a Join button that works
  from the DM. A user whose DMs are closed is not invited; the inviter is told to mention
  them instead.
- **Rematch**, on a finished game's final post: one of its players opens the same game
  (options, table size, clock, thread) in the same channel, hosting it in their old seat,
  computer seats at their old levels, the other players mentioned. The store opens at most
  one rematch of a game, so a double click or two players pressing at once open one game;
  the later press is pointed to it.
"""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable
from typing import Any, Unpack

from bot.service import wire
from bot.service.delivery import calls
from bot.service.desk import Desk, Where
from bot.service.errors import AlreadyDone, UserError
from bot.service.history.web_pages import token_for_new_game
from bot.service.notices import ChannelPost, Controls, Outcome, PrivateMessage, Reply, StatusUpdate
from bot.service.seating.lobby import Lobby, OpeningData
from bot.service.seating.table_controls import (
    SEAT,
    closed_lobby,
    invite_controls,
    lobby_controls,
    lobby_status_text,
    table_link,
)
from bot.service.tables import (
    STATUS_TEXTS,
    Table,
    engine_for,
    player_count,
    player_name,
    seating_of,
)
from bot.service.text import Mention, Text, said
from bot.service.timekeeping import bank
from bot.store import NewSeat, StaleVersion
from engines.base import Choice, Prompt

Deliver = Callable[[Outcome], Awaitable[Any]]
"""A frontend's way to send an outcome's stored notices now (its outbox's flush)."""


class Gathering:
    """The lobby's buttons, invitations and a finished game's rematch."""

    def __init__(
        self, desk: Desk, lobby: Lobby, server_data: OpeningData, seeds: random.Random
    ) -> None:
        self._desk = desk
        self._lobby = lobby
        self._server_data = server_data
        self._seeds = seeds

    # -- the lobby's controls ----------------------------------------------------------

    async def press_join(self, *, game_id: int, user_id: int, user_name: str) -> Outcome | Reply:
        """Join: the only open seat at once; with several open, a menu asking which."""
        table = await self._desk.table(game_id)
        if (refused := closed_lobby(table)) is not None:
            raise refused
        record = table.record
        if record.seat_of(user_id):
            held = table.role_name(record.seat_of(user_id)[0])
            raise UserError(
                said("You are already in {title}, as {role}.", title=table.title, role=held)
            )
        taken = {s.seat for s in record.seats}
        free = [r for i, r in enumerate(table.roles()) if i not in taken]
        if len(free) > 1:
            choices = tuple(Choice(r.key, r.name) for r in free)
            ask = Controls(game_id, record.version, Prompt(0, SEAT, "Choose your seat"), choices)
            which = said("Which seat do you take at {title}?", title=table.title)
            return Reply(which, controls=(ask,))
        return await self._lobby.join(game_id=game_id, user_id=user_id, user_name=user_name)

    async def press_seat(self, *, game_id: int, user_id: int, user_name: str, role: str) -> Outcome:
        """The seat picked in Join's menu."""
        table = await self._desk.table(game_id)
        if (refused := closed_lobby(table)) is not None:
            raise refused
        return await self._lobby.join(
            game_id=game_id, user_id=user_id, user_name=user_name, role=role
        )

    async def press_leave(self, *, game_id: int, user_id: int, user_name: str) -> Outcome:
        """Leave: give up a seat while the game waits for players (a game under way is
        left with `/game leave`, which gives the seat up by the rules)."""
        table = await self._desk.table(game_id)
        if (refused := closed_lobby(table)) is not None:
            raise refused
        return await self._lobby.leave(game_id=game_id, user_id=user_id, user_name=user_name)

    async def press_start(
        self,
        *,
        game_id: int,
        user_id: int,
        open_thread: Callable[[int, str], Awaitable[int]] | None = None,
    ) -> Outcome:
        """Start (the host only). ``open_thread(channel_id, title)`` makes the game's own
        thread where the game asks for one and returns its channel id."""
        table = await self._desk.table(game_id)
        if (refused := closed_lobby(table)) is not None:
            raise refused
        table = await self._lobby.startable(game_id=game_id, user_id=user_id)
        if table.record.own_thread and open_thread is not None:
            thread = await open_thread(table.record.channel_id, table.title)
            await self._lobby.move_to(game_id=game_id, channel_id=thread)
        return await self._lobby.start(game_id=game_id, user_id=user_id)

    # -- invitations -------------------------------------------------------------------

    async def invite(
        self,
        *,
        user_id: int,
        user_name: str,
        invitee_id: int,
        invitee_name: str,
        invitee_is_bot: bool = False,
        deliver: Deliver | None = None,
        **where: Unpack[Where],
    ) -> Outcome:
        """DM ``invitee_id`` an invitation to the lobby, with a Join control.

        ``deliver`` sends the invitation at once, so that DMs found closed can be told to
        the inviter (without it the invitation simply waits in the outbox)."""
        table = await self._desk.find(user_id=user_id, **where)
        record = table.record
        _check_invitation(table, user_id, invitee_id, invitee_name, invitee_is_bot)
        how = calls.how(await self._desk.store.calls(invitee_id), "turns", calls.INVITE)
        if how == calls.NONE:
            raise UserError(
                said(
                    "{player} takes no invitations (their `/notify`). They can join with "
                    "`/game join game:{game}`.",
                    player=invitee_name, game=record.id,
                )
            )  # fmt: skip
        dm = calls.dms(how) and not await self._desk.store.dm_closed(invitee_id)
        if not dm and not calls.mentions(how):
            raise UserError(_dms_closed(invitee_id, invitee_name, table))
        taken = {s.seat for s in record.seats}
        free = ", ".join(r.name for i, r in enumerate(table.roles()) if i not in taken)
        players = player_count(record.players)
        outcome = Outcome()
        if calls.mentions(how):
            text = "✉️ " + said(
                "{invitee}, {inviter} invites you to play **{title}** ({players}; open: "
                "{open}): join with `/game join game:{game}`.",
                invitee=Mention(invitee_id), inviter=user_name, title=table.title,
                players=players, open=free, game=record.id,
            )  # fmt: skip
            outcome.add(ChannelPost(record.id, record.channel_id, text, mentions=(invitee_id,)))
        if dm:
            text = Text.of(
                "✉️ ",
                said(
                    "{inviter} invites you to play {where} ({players}; open: {open}).",
                    inviter=user_name, where=calls.where(record, table.title), players=players,
                    open=free,
                ),
                "\n",
                said(
                    "Press Join to take a seat, or type `/game join game:{game}` there. "
                    "The table: {table}",
                    game=record.id, table=table_link(record),
                ),
            )  # fmt: skip
            join = (invite_controls(record.id, table.title),)
            outcome.add(PrivateMessage(record.id, invitee_id, text, join))
        await self._desk.stored(
            outcome, self._desk.store.enqueue, record.id, now=self._desk.clock()
        )
        if deliver is not None:
            await deliver(outcome)
            if dm and await self._desk.store.dm_closed(invitee_id):
                if not calls.mentions(how):
                    return Outcome([Reply(_dms_closed(invitee_id, invitee_name, table))])
                dm = False
        return outcome.add(
            Reply("✉️ " + _invited(invitee_name, table.title, dm, calls.mentions(how)))
        )

    # -- rematches ---------------------------------------------------------------------

    async def rematch(
        self,
        *,
        game_id: int,
        user_id: int,
        user_name: str,
        parent_channel_id: int | None = None,
    ) -> Outcome:
        """Open a rematch of the finished game ``game_id`` hosted by ``user_id`` (one of its
        players). ``parent_channel_id``: the channel holding the game's own thread, where a
        game played in a thread of its own opens its rematch."""
        old = await self._desk.table(game_id)
        record = old.record
        if record.status != "finished":
            raise UserError(
                said("{title} is not over, so there is no rematch yet.", title=old.title)
            )
        if not any(s.user_id == user_id and s.computer is None for s in record.seats):
            raise UserError(
                said(
                    "Only the players of {title} can ask for its rematch; "
                    "`/game new` opens a game of your own.",
                    title=old.title,
                )
            )
        if (already := await self._desk.store.rematch(game_id)) is not None:
            raise await self._rematch_open(already)
        channel_id = record.channel_id
        if record.own_thread and parent_channel_id:
            channel_id = parent_channel_id
        try:
            return await self._open_rematch(old, user_id, user_name, channel_id)
        except StaleVersion:
            raise await self._rematch_open(await self._desk.store.rematch(game_id)) from None

    async def _open_rematch(
        self, old: Table, user_id: int, user_name: str, channel_id: int
    ) -> Outcome:
        record = old.record
        roles = old.roles()
        mine = record.seat_of(user_id)[0]
        seats = [NewSeat(mine, roles[mine].key, user_id, user_name)]
        seats += [
            NewSeat(s.seat, s.role, -1 - s.seat, f"Computer ({s.computer})", s.computer)
            for s in record.seats
            if s.computer
        ]  # fmt: skip
        others = tuple(dict.fromkeys(
            s.user_id for s in record.seats if s.computer is None and s.user_id != user_id
        ))  # fmt: skip
        engine = engine_for(record.slug)
        posts: list[Any] = []

        def opened(new_id: int) -> list[Any]:
            title = f"{engine.title} #{new_id}"
            names = {s.seat: player_name(s.name, s.computer) for s in seats}
            called = Text.of(" ").join([Text.of(Mention(u)) for u in others])
            opening = said(
                "**{title}** is open: a rematch of #{old}, for {players}, hosted by {host}.",
                title=title, old=record.id, players=player_count(record.players), host=user_name,
            )  # fmt: skip
            if others:
                join = said(
                    "{players}: join with the button or `/game join game:{game}`; the host "
                    "starts it.",
                    players=called, game=new_id,
                )  # fmt: skip
            else:
                join = said(
                    "join with the button or `/game join game:{game}`; the host starts it.",
                    game=new_id,
                )
            text = Text.of("🔁 ", opening, "\n", seating_of(roles, names), "\n", join)
            post = ChannelPost(new_id, channel_id, text, mentions=others,
                               controls=(lobby_controls(new_id),))  # fmt: skip
            status = lobby_status_text(title, record.players, roles, names)
            posts[:] = [post, StatusUpdate(new_id, channel_id, status)]
            return wire.outgoing(Outcome(list(posts)))

        # A rematch is a new game: the server's corrected data as it is now, like any opening.
        corrections = await self._server_data.opening_data(record.guild_id, record.slug)
        new_id = await self._desk.store.create_game(
            guild_id=record.guild_id, channel_id=channel_id, slug=record.slug, host_id=user_id,
            players=record.players, options=record.options, seed=self._seeds.getrandbits(62),
            now=self._desk.clock(), timing=bank.for_rematch(record.timing),
            own_thread=record.own_thread, seats=seats,
            notices=opened, rematch_of=record.id, data=corrections.to_json(),
            page=await token_for_new_game(self._desk.store, record.guild_id),
        )  # fmt: skip
        title = f"{engine.title} #{new_id}"
        reply = Reply(said("You opened {title}, a rematch of {old}.", title=title, old=old.title))
        return Outcome([reply, *posts])

    async def _rematch_open(self, rematch_id: int | None) -> UserError:
        """The answer to a press after the rematch was opened: where it is."""
        if rematch_id is None:  # cannot be: the store refused a second rematch
            return UserError(said("The rematch could not be opened; please try again."))
        new = await self._desk.table(rematch_id)
        where = table_link(new.record)
        state = STATUS_TEXTS[new.record.status]
        if not new.record.active:  # its own final post offers the next one
            return AlreadyDone(
                said(
                    "This game's rematch, {title}, is {status}: {table}",
                    title=new.title, status=state, table=where,
                )
            )  # fmt: skip
        return AlreadyDone(
            said(
                "A rematch is already open: {title} ({status}), {table}",
                title=new.title, status=state, table=where,
            )
        )  # fmt: skip


def _check_invitation(
    table: Table, user_id: int, invitee_id: int, invitee_name: str, invitee_is_bot: bool
) -> None:
    """UserError when ``invitee_id`` cannot be invited to ``table`` by ``user_id``."""
    record = table.record
    title = table.title
    if invitee_is_bot:
        raise UserError(said("Bots cannot be invited; `/game addbot` seats a computer player."))
    if invitee_id == user_id:
        raise UserError(said("You cannot invite yourself; invite another member of the server."))
    if record.status != "lobby":
        raise UserError(
            said(
                "{title} is {status}: only a game waiting for players takes invitations. "
                "`/game new` opens one.",
                title=title, status=STATUS_TEXTS[record.status],
            )
        )  # fmt: skip
    if not record.seat_of(user_id):
        raise UserError(
            said("Only players of {title} can invite; `/game join` it first.", title=title)
        )
    if record.seat_of(invitee_id):
        raise UserError(
            said("{player} is already seated at {title}.", player=invitee_name, title=title)
        )
    if len(record.seats) >= record.players:
        raise UserError(
            said(
                "{title} is full: there is no seat to invite {player} to.",
                title=title, player=invitee_name,
            )
        )  # fmt: skip


def _dms_closed(invitee_id: int, invitee_name: str, table: Table) -> Text:
    return said(
        "I can't send {player} direct messages (they are closed), so they were not "
        'invited. Mention them in the channel instead, e.g. "@{player}, join with '
        '`/game join game:{game}`".',
        player=invitee_name, game=table.record.id,
    )  # fmt: skip


def _invited(invitee_name: str, title: str, dm: bool, mentioned: bool) -> Text:
    """The inviter's answer: how the invitation went."""
    if dm and mentioned:
        return said(
            "{player} is invited to {title} by DM and a mention.", player=invitee_name, title=title
        )
    if dm:
        return said("{player} is invited to {title} by DM.", player=invitee_name, title=title)
    return said(
        "{player} is invited to {title} with a mention in the channel.",
        player=invitee_name, title=title,
    )  # fmt: skip
