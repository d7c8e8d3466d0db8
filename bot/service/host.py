"""The game host: lobby, seats, turns, secret prompts, for every game through one contract.

Frontends call these coroutines with plain ids and strings and deliver the notices they
return. Rules are the engines' business: the host only asks an engine who is prompted,
what is legal, and what happened, and stores every accepted action in one versioned
transaction before anybody is told about it.
"""

from __future__ import annotations

import asyncio
import logging
import os
import random
import socket
import time
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any

from bot.service import turn_posts, wire
from bot.service.away import Away
from bot.service.clock import Hold, TurnClock
from bot.service.computers import Computers, computer_seats
from bot.service.endings import Endings
from bot.service.errors import AlreadyDone, Unreadable, UserError
from bot.service.gathering import Gathering, rematch_controls
from bot.service.lobby import Lobby
from bot.service.notices import (
    Board,
    ChannelPost,
    Controls,
    Outcome,
    PrivateMessage,
    Reply,
    StatusUpdate,
)
from bot.service.pictures import RecentBoards
from bot.service.ratings import rate, results_of
from bot.service.server_data import ServerData
from bot.service.standings import Standings
from bot.service.story import StoryTeller
from bot.service.tables import (
    STATUS_WORDS,
    LoadedStates,
    Table,
    UnreadableGame,
    engine_for,
    replay,  # noqa: F401  (part of this module's interface)
    seat_labels,
    seating,
    status_line,
    table_from,
    written,
)
from bot.service.text import BoardLink, ChannelRef, Mention, Moment, Text
from bot.service.timing import NO_DEADLINES
from bot.service.watchers import Watchers
from bot.store import GameRecord, StaleVersion, Store
from engines import data as engine_data
from engines.base import Choice, Event, IllegalAction, Prompt, Result, UnreadableAction
from engines.replay import action_rng

Renderer = Callable[[str, dict[str, Any]], bytes]
Drawer = Callable[..., Awaitable[bytes]]
"""``(slug, view)``, or ``(slug, view, corrections)`` for a game with corrected data."""
Animator = Callable[[list[bytes]], Awaitable[bytes]]

log = logging.getLogger(__name__)

MAX_PROMPTS_SHOWN = 5
"""Secret prompts offered at once by ``/hand`` (Discord shows five rows of controls)."""


class GameHost(
    Lobby,
    TurnClock,
    Computers,
    Endings,
    StoryTeller,
    Standings,
    ServerData,
    Watchers,
    Away,
    Gathering,
):
    """Every use case of the game host, independent of any frontend."""

    def __init__(
        self,
        store: Store,
        *,
        renderer: Renderer | None = None,
        drawer: Drawer | None = None,
        animator: Animator | None = None,
        clock: Callable[[], float] = time.time,
        seeds: random.Random | None = None,
    ) -> None:
        """``renderer`` draws boards in a thread of this process; ``drawer`` (which wins)
        draws them elsewhere (:class:`bot.service.pictures.Pictures`). With neither, notices
        carry their boards but no picture is drawn. ``animator`` puts a replay's boards
        together elsewhere too; without it, a thread of this process does."""
        self.store = store
        self.clock = clock
        self._seeds = seeds or random.SystemRandom()
        self._renderer = renderer
        self._drawer = drawer
        self._animator = animator
        # Called whenever a deadline may have moved earlier; the scheduler hooks in here.
        self.wakeup: Callable[[], None] = lambda: None
        # Called whenever notices were stored; the delivery worker hooks in here.
        self.delivery_due: Callable[[], None] = lambda: None
        # The turn clock's games being fired now, and those held back after failures.
        self._firing: set[int] = set()
        self._held: dict[int, Hold] = {}
        self.states = LoadedStates()
        self.boards = RecentBoards()
        # Who holds this host's claims on due games and outbox lanes in a shared database.
        tag = random.SystemRandom().getrandbits(32)
        self.owner = f"{socket.gethostname()}:{os.getpid()}:{tag:08x}"

    # -- looking games up --------------------------------------------------------------

    async def table(self, game_id: int) -> Table:
        try:
            record = await self.store.get_game(game_id)
        except ValueError as error:  # its stored JSON is damaged
            raise UnreadableGame(game_id, error) from None
        if record is None:
            raise UserError(f"There is no game #{game_id}. `/game list` shows this server's games.")
        return table_from(record, self.states)

    async def find(
        self,
        *,
        game_id: int | None = None,
        guild_id: int | None = None,
        channel_id: int | None = None,
        user_id: int | None = None,
    ) -> Table:
        """The game a request means: the one numbered ``game_id`` (which must belong to
        ``guild_id`` when that is given), else the only active one in ``channel_id`` (the
        asker's own, when the channel has several). UserError says what to add."""
        if game_id is not None:
            table = await self.table(game_id)
            if guild_id is not None and table.record.guild_id != guild_id:
                raise UserError(f"Game #{game_id} belongs to another server.")
            return table
        if channel_id is None:
            raise UserError("Say which game with `game:<number>` (`/game mine` lists yours).")
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
            listing = ", ".join(f"#{g.id} {_title(g.slug)}" for g in here)
            raise UserError(f"This channel has several games ({listing}); add `game:<number>`.")
        return table_from(here[0], self.states)

    # -- information -------------------------------------------------------------------

    async def status(self, *, user_id: int | None = None, **where: Any) -> Reply:
        """Where the game stands, with the current board, for the asker only."""
        table = await self.find(user_id=user_id, **where)
        text = self._status_text(table) + self.onlookers_text(table)
        return Reply(text, board=_board(table))

    async def private_text(self, *, user_id: int, **where: Any) -> str:
        """What only ``user_id`` knows in this game (their hand, their Chest), in words."""
        table = await self.find(user_id=user_id, **where)
        return _private_of(table, user_id)

    async def hand(
        self, *, user_id: int, guild_id: int | None, game_id: int | None = None, **_: Any
    ) -> Reply:
        """Everything private waiting for ``user_id``: in the game named, else in every
        running game of the server; with the controls of their secret prompts."""
        if game_id is not None:
            records = [(await self.find(game_id=game_id, guild_id=guild_id)).record]
        else:
            records = await self.store.games(guild_id=guild_id, user_id=user_id)
        lines: list[str] = []
        controls: list[Controls] = []
        for record in records:
            if record.status != "running":
                continue
            try:
                table = table_from(record, self.states)
            except UserError:
                continue  # a game that cannot be read has nothing to show
            private = _private_of(table, user_id)
            pending = [c for c in self._controls_of(table, user_id) if c.prompt.secret]
            if private or pending:
                lines.append(f"**{table.title}**")
                lines += [private] if private else []
                lines += [f"Waiting for you: {c.prompt.text}" for c in pending]
                controls += pending
        if not lines:
            raise UserError("Nothing private is waiting for you in this server's games.")
        return Reply("\n".join(lines), controls=tuple(controls[:MAX_PROMPTS_SHOWN]))

    async def list_games(self, *, guild_id: int, show: str = "running", **_: Any) -> Reply:
        """The server's open games, or with ``show="finished"`` its recently finished ones."""
        if show == "finished":
            return await self.finished_list(guild_id=guild_id)
        games = await self.store.games(guild_id=guild_id)
        if not games:
            return Reply("No games are open on this server. Start one with `/game new`.")
        lines = [await self._line(g) for g in games]
        return Reply(Text.of("**Games on this server**\n", Text.of("\n").join(lines)))

    async def mine(self, *, guild_id: int, user_id: int, **_: Any) -> Reply:
        """The asker's open games here (where it is their turn), then their recently
        finished ones."""
        games = await self.store.games(guild_id=guild_id, user_id=user_id)
        finished = await self.finished_lines(guild_id=guild_id, user_id=user_id)
        if not games and not finished:
            return Reply("You are not in any open game here. `/game list` shows what is open.")
        lines = [await self._line(g, user_id) for g in games] or ["No open game."]
        text = Text.of("**Your games**\n", Text.of("\n").join(lines))
        if finished:
            text += Text.of("\n**Finished lately**\n", Text.of("\n").join(finished))
        return Reply(text)

    async def game_choices(
        self, *, guild_id: int | None, channel_id: int | None = None, **_: Any
    ) -> list[tuple[int, str]]:
        """``(number, name)`` of the server's open games, this channel's first (for
        autocomplete: no secret, nothing but what ``/game list`` shows)."""
        if guild_id is None:
            return []
        records = await self.store.games(guild_id=guild_id)
        records.sort(key=lambda g: (g.channel_id != channel_id, -g.id))
        return [(r.id, f"#{r.id} {_title(r.slug)} ({r.status})") for r in records]

    async def _line(self, record: GameRecord, user_id: int | None = None) -> Text:
        """The listing line of a game, from the record the listing read (no query)."""
        where = Text.of(f"#{record.id} {_title(record.slug)} in ", ChannelRef(record.channel_id))
        try:
            table = table_from(record, self.states)
        except UserError:
            return where + ": ⚠️ cannot be read (its stored state is damaged)"
        if record.status != "running":
            return where + f": {STATUS_WORDS[record.status]}"
        waiting = sorted({p.seat for p in table.prompts()})
        if user_id is not None and any(record.user_at(s) == user_id for s in waiting):
            turn = Text.of("**your turn**")
        else:
            turn = "waiting for " + seat_labels(table, waiting)
        if record.deadline:
            turn += Text.of(", turn ends ", Moment(record.deadline))
        return where + ": " + turn

    def _status_text(self, table: Table) -> Text:
        record = table.record
        lines: list[str | Text] = [f"**{table.title}**: {STATUS_WORDS[record.status]}"]
        lines.append(seating(table))
        summary = table.public_view()["summary"] if table.state is not None else ""
        if summary:
            lines.append(summary)
        if record.result and record.result not in summary:
            lines.append(f"Result: {record.result}")  # said once: the summary may hold it
        if record.status == "running" and record.deadline:
            lines.append(Text.of("⏳ The turn ends ", Moment(record.deadline), "."))
        return Text.of("\n").join(lines)

    # -- what frontends remember -------------------------------------------------------

    async def dms_closed(self, user_id: int) -> bool:
        """Whether direct messages to ``user_id`` are known to fail."""
        return await self.store.dm_closed(user_id)

    async def mark_dms_closed(self, user_id: int) -> None:
        """Direct messages to ``user_id`` failed: from now on their private choices are
        offered behind a button in the game's channel."""
        await self.store.set_dm_closed(user_id, True)

    async def tell(self, outcome: Outcome) -> None:
        """Store notices that go with no write of their game (a closed-DM button)."""
        now = self.clock()
        for notice in outcome.outgoing:
            await self.store.enqueue(notice.game_id, wire.outgoing(Outcome([notice])), now=now)
        self.delivery_due()

    async def close(self) -> None:
        """Close the store; the host is not used afterwards."""
        await self.store.close()

    # -- playing -----------------------------------------------------------------------

    async def controls_for(self, *, user_id: int, **where: Any) -> list[Controls]:
        """Every decision ``user_id`` can make now in this game (public or secret)."""
        return self._controls_of(await self.find(user_id=user_id, **where), user_id)

    async def action_choices(self, *, user_id: int, **where: Any) -> list[Choice]:
        """The asker's own legal actions now (for autocomplete); empty when the game is
        unclear or it is not their turn."""
        try:
            table = await self.find(user_id=user_id, **where)
        except UserError:
            return []
        return [c for control in self._controls_of(table, user_id) for c in control.choices]

    async def group_controls(
        self, *, game_id: int, user_id: int, group: str, version: int | None = None
    ) -> Reply:
        """The second step of a two-step pick: the asker's actions within ``group`` (a
        piece), for the board at ``version``."""
        table = await self.find(game_id=game_id)
        controls = self._controls_of(table, user_id)
        if version is not None and table.record.version != version:
            raise AlreadyDone("That board has moved on; use the newest message.")
        if not controls:
            raise self._not_your_turn(table, user_id)
        picked = [
            Controls(c.game_id, c.version, c.prompt,
                     tuple(ch for ch in c.choices if (ch.group or ch.action) == group))
            for c in controls
        ]  # fmt: skip
        picked = [c for c in picked if c.choices]
        if not picked:
            raise UserError(f"Nothing to do with `{group}` now.")
        return Reply(f"Where to, from {group}?", controls=tuple(picked))

    async def private_controls(
        self, *, game_id: int, user_id: int, owner: int | None = None
    ) -> Reply:
        """The asker's waiting secret choice with its controls, for their eyes only.
        ``owner``: whose choice the pressed button opens; anyone else is told whose it is."""
        if owner is not None and owner != user_id:
            raise UserError(
                Text.of("This button is for ", Mention(owner), "'s secret choice. ")
                + "Yours come by direct message, or with `/hand`."
            )
        table = await self.find(game_id=game_id)
        controls = [c for c in self._controls_of(table, user_id) if c.prompt.secret]
        if not controls:
            raise UserError(f"No private choice is waiting for you in game #{game_id}.")
        text = "\n".join(c.prompt.text for c in controls)
        private = await self.private_text(game_id=game_id, user_id=user_id)
        return Reply(f"{text}\n{private}".strip(), controls=tuple(controls))

    def _controls_of(self, table: Table, user_id: int) -> list[Controls]:
        if table.record.status != "running":
            return []
        mine = set(table.record.seat_of(user_id))
        return [
            self._controls(table, table.record.version, p)
            for p in table.prompts()
            if p.seat in mine
        ]

    @staticmethod
    def _not_your_turn(table: Table, user_id: int) -> UserError:
        if not table.record.seat_of(user_id):
            return UserError(f"You are not playing in {table.title}.")
        return UserError(f"It is not your turn in {table.title}.")

    async def act(
        self,
        *,
        user_id: int,
        action: str,
        version: int | None = None,
        issued: int | None = None,
        **where: Any,
    ) -> Outcome:
        """Apply ``action`` for ``user_id``.

        A clicked control says when it was offered. ``version``: a turn's control, stale
        once the game has moved on. ``issued``: a secret prompt's control, stale once the
        user's seat has acted since (a double click, or a button from an earlier round).
        Stale controls apply nothing and raise :class:`AlreadyDone`. Typed actions pass
        neither: one that meets a newer position than the one it was read at is refused as
        already played (AlreadyDone) if the user's seat has acted since (the same `/move`
        sent twice), and else checked against the new position.
        """
        table = await self.find(user_id=user_id, **where)
        game_id, seen = table.record.id, table.record.version
        for attempt in range(5):
            if attempt:
                table = await self.table(game_id)
            record = table.record
            typed = version is None and issued is None
            if (
                typed
                and record.version != seen
                and await self.store.acted_since(game_id, record.seat_of(user_id), seen)
            ):
                raise AlreadyDone(
                    "That was already played: your move is in. " + _current_board(record)
                )
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
            except UnreadableAction as error:
                raise Unreadable(str(error)) from None
            except IllegalAction as error:
                raise UserError(str(error)) from None
            try:
                return await self._commit(table, seat, action.strip(), state, events, asker=user_id)
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
        headline: str | Text = "",
        *,
        asker: int | None = None,
        forced: bool = False,
    ) -> Outcome:
        """Store one accepted action in one versioned transaction, then say what changed.

        ``forced``: the seat did not choose the action, its time ran out (a timeout's
        ``!skip``, ``!forfeit`` or computer move, or a departed player's forfeit). If the
        seat is still to act afterwards, that is a fresh turn for it, with a new deadline.

        Raises StaleVersion (nothing stored) if the game moved on since ``table`` was read.
        """
        record = table.record
        before = table.prompts()
        result = table.engine.result(state)
        moved = Table(record, table.engine, state)  # the record is rewritten below
        after = moved.prompts()
        forced = forced or action.startswith("!")
        fresh, new_turn = _turn_change(before, after, seat, result)
        if forced and result is None and any(p.seat == seat for p in after):
            new_turn = True  # the same seat again, but a new turn: its clock restarts
        now = self.clock()
        if result is not None:
            clock_fields = NO_DEADLINES
        elif new_turn or computer_seats(record, before) or computer_seats(record, after):
            clock_fields = self.turn_deadlines(record, after, now)
        else:
            clock_fields = {}
        clock_fields = self.away_deadlines(record, after, clock_fields, now)
        fields = {
            "snapshot": table.engine.dump(state),
            "status": "finished" if result else "running",
            "result": result.text if result else None,
            **clock_fields,
        }
        played = replace(moved, record=written(record, now, fields))  # what it worked out
        outcome = Outcome()
        await self._announce(
            outcome, played, played.record.version, actor=None if forced else seat,
            events=events, fresh=fresh,
            new_turn=new_turn, result=result, headline=headline, asker=asker,
        )  # fmt: skip
        new_version = await self.store.append_action(
            record.id,
            record.version,
            seat=seat,
            action=action,
            events=[_event_record(e) for e in events],
            now=now,
            notices=wire.outgoing(outcome),
            # The game's result per seat, rated in the same transaction that ends it.
            results=results_of(played.record, result, now) if result else (),
            rater=rate if result else None,
            **fields,
        )
        self.states.keep(record.id, new_version, played)
        secret = any(p.secret for p in before if p.seat == seat)
        log.info(
            "game %s v%s: seat %s played %s%s",
            record.id, new_version, seat, "a secret choice" if secret else repr(action),
            f"; {result.text}" if result else "",
        )  # fmt: skip
        self.delivery_due()
        if clock_fields:
            self.wakeup()
        if result is None and any(played.record.has_left(p.seat) for p in fresh):
            outcome.notices += (await self._forfeit_departed(record.id)).notices
        return outcome

    async def _store(
        self, outcome: Outcome, write: Callable[..., Awaitable[Any]], *args: Any, **kwargs: Any
    ) -> Any:
        """Run one store ``write`` with ``outcome``'s notices stored in its transaction, then
        wake the delivery worker."""
        result = await write(*args, notices=wire.outgoing(outcome), **kwargs)
        self.delivery_due()
        return result

    def _acting_seat(self, table: Table, user_id: int, action: str) -> int:
        record = table.record
        if record.status == "lobby":
            raise UserError(
                f"{table.title} has not started yet; the host starts it with `/game start`."
            )
        if record.status != "running":
            raise UserError(f"{table.title} is {STATUS_WORDS[record.status]}; no more moves.")
        seats = record.seat_of(user_id)
        if not seats:
            raise UserError(f"You are not playing in {table.title}.")
        prompted = [p.seat for p in table.prompts() if p.seat in seats]
        if not prompted:
            waiting = seat_labels(table, [p.seat for p in table.prompts()])
            if any(p.secret for p in table.prompts()):
                # A round of secret choices this seat has answered: the engine says so.
                _why_not_now(table, seats[0], action, waiting)
            raise UserError(f"It is not your turn in {table.title}: waiting for " + waiting + ".")
        if len(prompted) == 1:
            return prompted[0]
        wanted = action.strip().lower()
        for seat in prompted:
            if any(c.action.lower() == wanted for c in table.legal_actions(seat)):
                return seat
        return prompted[0]

    def _controls(self, table: Table, version: int, prompt: Prompt) -> Controls:
        choices = tuple(table.legal_actions(prompt.seat))
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
        headline: str | Text = "",
        asker: int | None = None,
    ) -> None:
        """Tell everyone what an accepted action (or the start) changed. What the event
        tells the ``asker`` alone (a card locked in) answers them directly."""
        record = table.record
        for seat, lines in _private_lines(events).items():
            user = record.user_at(seat)
            told = "\n".join(lines)
            if user is not None and user == asker:
                outcome.add(Reply(told))
            elif user is not None:
                outcome.add(PrivateMessage(record.id, user, told, channel_id=record.channel_id))

        after = table.prompts()
        public_prompts = [p for p in after if not p.secret and not record.computer_at(p.seat)]
        called = [u for p in fresh if (u := record.user_at(p.seat)) is not None and p.seat != actor]
        mentions = tuple([
            u for u in dict.fromkeys(called) if record.notify_of(u) == "turns"
        ])  # fmt: skip
        told = turn_posts.told(events, result)
        lines: list[str | Text] = [f"**{table.title}**" + (": " + headline if headline else "")]
        lines += told
        calls: list[str | Text] = []
        if result is not None:
            winners = seat_labels(table, result.winners, " and ")
            lines.append(turn_posts.ending_line(result, winners))
        elif new_turn:
            lines.append(turn_posts.summary(table.public_view()["summary"], told))
            calls = [_call(record, p) for p in fresh if p.seat != actor]
        turn, edit, story = version, False, Text.of("\n").join(lines)
        earlier = None if new_turn else await turn_posts.current(self.store, record)
        if earlier is not None:
            # A step within the turn: the turn's post grows by what it told, and asks anew.
            turn, edit = earlier.turn, True
            story = turn_posts.step_story(earlier, headline, told, after)
            calls = [_call(record, p) for p in after]
        shown = new_turn or any(e.public and e.data.get("picture") for e in events)
        board = _board(table) if shown else None
        controls = tuple(self._controls(table, version, p) for p in public_prompts)
        if result is not None and any(s.computer is None for s in record.seats):
            controls += (rematch_controls(record.id),)  # the same players may play again
        text = turn_posts.text(story, calls)
        final = result is not None
        post = ChannelPost(
            record.id, record.channel_id, text, board, mentions, controls, final,
            turn=turn, edit=edit, story=story,
        )  # fmt: skip
        outcome.add(post)
        if new_turn:
            last = next((e.text for e in reversed(events) if e.public), "")
            outcome.add(StatusUpdate(record.id, record.channel_id, status_line(table, last)))
        for prompt in fresh:
            user = record.user_at(prompt.seat)
            if prompt.secret and user is not None:
                view = table.engine.view(table.state, prompt.seat)
                text = f"**{table.title}**: {prompt.text}\n{view.get('private', '')}".strip()
                controls = (self._controls(table, version, prompt),)
                outcome.add(
                    PrivateMessage(record.id, user, text, controls, channel_id=record.channel_id)
                )
        self.tell_onlookers(outcome, table)

    async def draw(self, board: Board | None) -> bytes | None:
        """The PNG of ``board``; None without a board or when this host draws no pictures."""
        if board is None or (self._drawer is None and self._renderer is None):
            return None
        return await self.boards.get(
            board.slug, board.view, board.data, lambda: self._picture_of(board)
        )

    async def _picture_of(self, board: Board) -> bytes:
        if self._drawer is not None:
            if board.data:  # the game's corrected data travels to the drawing process
                return await self._drawer(board.slug, board.view, board.data)
            return await self._drawer(board.slug, board.view)
        assert self._renderer is not None
        # Drawing takes tens of milliseconds: keep it off the event loop. The thread gets a
        # copy of this context, so it draws with the game's corrected data.
        with engine_data.corrected(board.data):
            return await asyncio.to_thread(self._renderer, board.slug, board.view)

    # -- help --------------------------------------------------------------------------

    @staticmethod
    def rules(slug: str) -> str:
        return engine_for(slug).rules_help()


def _why_not_now(table: Table, seat: int, action: str, waiting: Text) -> None:
    """Raise what the engine says of ``seat`` playing ``action`` now, and who is still to
    answer (in a round of secret choices, a seat that answered already hears that its
    choice is locked in)."""
    try:
        table.engine.apply(table.state, seat, action.strip(), random.Random(0))
    except UnreadableAction as error:
        raise Unreadable(str(error)) from None
    except IllegalAction as error:
        raise UserError(Text.of(str(error), " Waiting for ", waiting, ".")) from None


def _board(table: Table) -> Board | None:
    """The game's board as everyone may see it (the public view only)."""
    if table.state is None:
        return None
    return Board(table.engine.slug, table.public_view(), table.record.data)


def _private_of(table: Table, user_id: int) -> str:
    """What only ``user_id`` knows at ``table`` (their hand, their Chest), in words."""
    if table.state is None:
        return ""
    parts = [
        table.engine.view(table.state, s).get("private", "") for s in table.record.seat_of(user_id)
    ]
    return "\n".join(p for p in parts if p)


def _title(slug: str) -> str:
    try:
        return engine_for(slug).title
    except UserError:
        return slug


def _current_board(record: GameRecord) -> Text:
    if record.board_message_id:
        link = BoardLink(record.guild_id, record.channel_id, record.board_message_id)
        return Text.of("The current board: ", link)
    return Text.of(f"`/game status game:{record.id}` shows where it stands.")


def _call(record: GameRecord, prompt: Prompt) -> Text:
    """The line asking a seat to decide: a mention, or the computer at work."""
    user = record.user_at(prompt.seat)
    if user is None:
        return Text.of(f"🤖 {prompt.text} (the computer is thinking)")
    return Text.of("➡️ ", Mention(user), f": {prompt.text}")


def _turn_change(
    before: list[Prompt], after: list[Prompt], actor: int | None, result: Result | None
) -> tuple[list[Prompt], bool]:
    """The prompts an action newly raised, and whether the turn passed to someone else
    (which posts a new board, pings the players now asked, and restarts the turn clock)."""
    fresh = [p for p in after if p.seat == actor or p not in before]
    new_turn = result is not None or actor is None or any(p.seat != actor for p in fresh)
    return fresh, new_turn


def _private_lines(events: list[Event]) -> dict[int, list[str]]:
    lines: dict[int, list[str]] = {}
    for event in events:
        if event.seat is not None:
            lines.setdefault(event.seat, []).append(event.text)
    return lines


def _event_record(event: Event) -> dict[str, Any]:
    return {"text": event.text, "seat": event.seat, "data": event.data}
