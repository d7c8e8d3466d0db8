"""Turns and actions: what a seat may do now, playing it, and what each accepted action
tells, stored with it in one versioned transaction.

A click or a typed move comes to :meth:`Turns.act`, which asks the engine, builds every
notice from the game as the write will leave it (:meth:`Turns.announce`) and stores the
action with them (:meth:`Turns.commit`); as that write commits, the desk's store wakes the
outbox, which sends them, and the scheduler, when a deadline moved.
"""

from __future__ import annotations

import logging
import random
from dataclasses import replace
from typing import Any, Unpack

from bot.service import wire
from bot.service.community.ratings import rate, results_of
from bot.service.community.watchers import tell_onlookers
from bot.service.delivery import calls as ring
from bot.service.desk import Desk, Where
from bot.service.errors import AlreadyDone, Unreadable, UserError
from bot.service.notices import (
    Board,
    ChannelPost,
    Controls,
    Outcome,
    PrivateMessage,
    Reply,
    StatusUpdate,
)
from bot.service.play import destinations, turn_posts
from bot.service.play.computers import TurnDeadlines, computer_seats
from bot.service.play.offers import outcome_line, settling
from bot.service.seating.table_controls import rematch_controls, table_link
from bot.service.tables import STATUS_TEXTS, Table, seat_labels, status_line, written
from bot.service.text import BoardLink, Mention, Text, said
from bot.service.timekeeping import bank
from bot.service.timekeeping.away import away_deadlines
from bot.service.timekeeping.timing import NO_DEADLINES, pause_text
from bot.store import GameRecord, StaleVersion
from engines.base import (
    Choice,
    Event,
    ForfeitReason,
    IllegalAction,
    Prompt,
    Result,
    UnreadableAction,
)
from engines.replay import action_rng, forfeit_marker

log = logging.getLogger(__name__)

MAX_PROMPTS_SHOWN = 5
"""Secret prompts offered at once by ``/hand`` (Discord shows five rows of controls)."""


class Turns:
    """Every seat's decisions now, and each action played: checked, committed with its
    notices (the desk's store rings the doorbell as the write commits)."""

    def __init__(self, desk: Desk, deadlines: TurnDeadlines) -> None:
        self._desk = desk
        self._deadlines = deadlines
        self._posts = turn_posts.RecentPosts()

    async def private_text(self, *, user_id: int, **where: Unpack[Where]) -> str:
        """What only ``user_id`` knows in this game (their hand, their Chest), in words."""
        table = await self._desk.find(user_id=user_id, **where)
        return private_of(table, user_id)

    async def hand(
        self, *, user_id: int, guild_id: int | None, game_id: int | None = None, **_: Any
    ) -> Reply:
        """Everything private waiting for ``user_id``: in the game named, else in every
        running game of the server; with the controls of their secret prompts."""
        if game_id is not None:
            named = await self._desk.find(game_id=game_id, guild_id=guild_id)
            if named.record.status == "paused":
                raise paused_refusal(named)
            records = [named.record]
        else:
            records = await self._desk.store.games(guild_id=guild_id, user_id=user_id)
        lines: list[str | Text] = []
        controls: list[Controls] = []
        boards: list[Board] = []
        notes = await self._desk.store.notes(user_id, [r.id for r in records])
        for record in records:
            if record.status != "running":
                continue
            try:
                table = self._desk.loaded(record)
            except UserError:
                continue  # a game that cannot be read has nothing to show
            private = private_of(table, user_id)
            pending = [c for c in self.controls_of(table, user_id) if c.prompt.secret]
            note = notes.get(record.id)
            if private or pending or note:
                lines.append(f"**{table.title}**")
                lines += [private] if private else []
                lines += [said("Waiting for you: {prompt}", prompt=c.prompt.text) for c in pending]
                lines += ["📝 " + said("Your note: {note}", note=note)] if note else []
                shown, board = labelled(table, pending) if pending else ((), None)
                controls += shown
                boards += [board] if board else []
        if not lines:
            raise UserError(said("Nothing private is waiting for you in this server's games."))
        board = boards[0] if len(boards) == 1 else None  # one choice of places: its picture
        text = Text.of("\n").join(lines)
        return Reply(text, controls=tuple(controls[:MAX_PROMPTS_SHOWN]), board=board)

    async def controls_for(self, *, user_id: int, **where: Unpack[Where]) -> list[Controls]:
        """Every decision ``user_id`` can make now in this game (public or secret)."""
        return self.controls_of(await self._desk.find(user_id=user_id, **where), user_id)

    async def action_choices(self, *, user_id: int, **where: Unpack[Where]) -> list[Choice]:
        """The asker's own legal actions now (for autocomplete); empty when the game is
        unclear or it is not their turn."""
        try:
            table = await self._desk.find(user_id=user_id, **where)
        except UserError:
            return []
        return [c for control in self.controls_of(table, user_id) for c in control.choices]

    async def group_controls(
        self, *, game_id: int, user_id: int, group: str, version: int | None = None
    ) -> Reply:
        """The second step of a two-step pick: the asker's actions within ``group`` (a
        piece), for the board at ``version``."""
        table = await self._desk.find(game_id=game_id)
        controls = self.controls_of(table, user_id)
        if version is not None and table.record.version != version:
            raise AlreadyDone(said("That board has moved on; use the newest message."))
        if not controls:
            raise self._not_your_turn(table, user_id)
        picked = [
            Controls(c.game_id, c.version, c.prompt,
                     tuple(ch for ch in c.choices if group_of(ch) == group))
            for c in controls
        ]  # fmt: skip
        picked = [c for c in picked if c.choices]
        if not picked:
            raise UserError(said("Nothing to do with `{group}` now.", group=group))
        shown, board = labelled(table, picked)
        if board is None:
            where_to = said("Where to, from {group}?", group=group)
            return Reply(where_to, controls=shown, private=True)
        pick = said(
            "**{group}**: pick a label from the picture.", group=group or picked[0].prompt.text
        )
        lines: list[str | Text] = [pick]
        lines += [f"⭐ {c.label}" for c in shown[0].choices if c.notable][:3]
        return Reply(Text.of("\n").join(lines), controls=shown, board=board, private=True)

    async def private_controls(
        self, *, game_id: int, user_id: int, owner: int | None = None
    ) -> Reply:
        """The asker's waiting secret choice with its controls, for their eyes only.
        ``owner``: whose choice the pressed button opens; anyone else is told whose it is."""
        if owner is not None and owner != user_id:
            raise UserError(
                said(
                    "This button is for {player}'s secret choice. Yours come by direct "
                    "message, or with `/hand`.",
                    player=Mention(owner),
                )
            )
        table = await self._desk.find(game_id=game_id)
        controls = [c for c in self.controls_of(table, user_id) if c.prompt.secret]
        if not controls and table.record.status == "paused":
            raise paused_refusal(table)
        if not controls:
            raise UserError(
                said("No private choice is waiting for you in game #{game}.", game=game_id)
            )
        text = "\n".join(c.prompt.text for c in controls)
        private = await self.private_text(game_id=game_id, user_id=user_id)
        shown, board = labelled(table, controls)
        return Reply(f"{text}\n{private}".strip(), controls=shown, board=board)

    def controls_of(self, table: Table, user_id: int) -> list[Controls]:
        if table.record.status != "running":
            return []
        mine = set(table.record.seat_of(user_id))
        return [
            self.controls(table, table.record.version, p) for p in table.prompts() if p.seat in mine
        ]

    @staticmethod
    def _not_your_turn(table: Table, user_id: int) -> UserError:
        if table.record.status == "paused":
            return paused_refusal(table)
        if not table.record.seat_of(user_id):
            return UserError(said("You are not playing in {title}.", title=table.title))
        if table.record.status != "running" or not table.prompts():
            return UserError(said("It is not your turn in {title}.", title=table.title))
        waiting = seat_labels(table, [p.seat for p in table.prompts()])
        return UserError(_not_your_turn(table, waiting))

    async def act(
        self,
        *,
        user_id: int,
        action: str,
        version: int | None = None,
        issued: int | None = None,
        **where: Unpack[Where],
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
        table = await self._desk.find(user_id=user_id, **where)
        game_id, seen = table.record.id, table.record.version
        for attempt in range(5):
            if attempt:
                table = await self._desk.table(game_id)
            record = table.record
            if record.status == "paused":  # before staleness: pausing moved the version
                raise paused_refusal(table)
            typed = version is None and issued is None
            if (
                typed
                and record.version != seen
                and await self._desk.store.acted_since(game_id, record.seat_of(user_id), seen)
            ):
                raise AlreadyDone(
                    said("That was already played: your move is in.") + " " + _current_board(record)
                )
            if version is not None and record.version != version:
                raise AlreadyDone(_moved_on(record))
            if issued is not None and await self._desk.store.acted_since(
                game_id, record.seat_of(user_id), issued
            ):
                raise AlreadyDone(
                    said(
                        "That choice was already made, or belongs to an earlier round. "
                        "`/hand` shows what is waiting for you now."
                    )
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
                return await self.commit(table, seat, action.strip(), state, events, asker=user_id)
            except StaleVersion:
                if version is not None:
                    raise AlreadyDone(_moved_on(record)) from None
        raise UserError(said("The game is very busy right now; please try again in a moment."))

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
        now = self._desk.clock()
        if result is not None:
            clock_fields = NO_DEADLINES
        elif new_turn or computer_seats(record, before) or computer_seats(record, after):
            clock_fields = self._deadlines.for_turn(record, after, now)
        else:
            clock_fields = {}
        clock_fields = away_deadlines(record, after, clock_fields, now)
        fields = {
            "snapshot": table.engine.dump(state),
            "status": "finished" if result else "running",
            "result": result.text if result else None,
            **clock_fields,
        }
        # A time bank being spent: the seats whose turn this ends pay what they used.
        spent = bank.settled(
            record, seat, [p.seat for p in after], new_turn or result is not None, now
        )
        if spent is not None:
            fields["timing"] = spent
        played = replace(moved, record=written(record, now, fields))  # what it worked out
        outcome = Outcome()
        await self.announce(
            outcome, played, played.record.version, actor=None if forced else seat,
            events=events, fresh=fresh,
            new_turn=new_turn, result=result, headline=headline, asker=asker,
        )  # fmt: skip
        # The offer waiting when the game was read: this action answers it (an agreed draw
        # or takeback) or makes it lapse.
        outcome.notices[:0] = settling(record, outcome_line(action))
        new_version = await self._desk.store.append_action(
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
        self._desk.states.keep(record.id, new_version, played)
        self._posts.keep(record.id, new_version, _turn_post(outcome))
        secret = any(p.secret for p in before if p.seat == seat)
        log.info(
            "game %s v%s: seat %s played %s%s",
            record.id, new_version, seat, "a secret choice" if secret else repr(action),
            f"; {result.text}" if result else "",
        )  # fmt: skip
        if result is None and any(played.record.has_left(p.seat) for p in fresh):
            outcome.notices += (await self.forfeit_departed(record.id)).notices
        return outcome

    def _acting_seat(self, table: Table, user_id: int, action: str) -> int:
        record = table.record
        if record.status == "lobby":
            raise UserError(
                said(
                    "{title} has not started yet; the host starts it with `/game start`.",
                    title=table.title,
                )
            )
        if record.status == "paused":
            raise paused_refusal(table)
        if record.status != "running":
            raise UserError(
                said(
                    "{title} is {status}; no more moves.",
                    title=table.title, status=STATUS_TEXTS[record.status],
                )
            )  # fmt: skip
        seats = record.seat_of(user_id)
        if not seats:
            raise UserError(said("You are not playing in {title}.", title=table.title))
        prompted = [p.seat for p in table.prompts() if p.seat in seats]
        if not prompted:
            waiting = seat_labels(table, [p.seat for p in table.prompts()])
            if any(p.secret for p in table.prompts()):
                # A round of secret choices this seat has answered: the engine says so.
                _why_not_now(table, seats[0], action, waiting)
            raise UserError(_not_your_turn(table, waiting))
        if len(prompted) == 1:
            return prompted[0]
        wanted = action.strip().lower()
        for seat in prompted:
            if any(c.action.lower() == wanted for c in table.legal_actions(seat)):
                return seat
        return prompted[0]

    def controls(self, table: Table, version: int, prompt: Prompt) -> Controls:
        choices = tuple(table.legal_actions(prompt.seat))
        return Controls(table.record.id, version, prompt, choices)

    async def announce(
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
        for seat, seen in _private_lines(events).items():
            user = record.user_at(seat)
            alone = "\n".join(seen)
            if user is not None and user == asker:
                outcome.add(Reply(alone))
            elif user is not None:
                outcome.add(PrivateMessage(record.id, user, alone, channel_id=record.channel_id))

        after = table.prompts()
        public_prompts = [p for p in after if not p.secret and not record.computer_at(p.seat)]
        called = [u for p in fresh if (u := record.user_at(p.seat)) is not None and p.seat != actor]
        store = self._desk.store
        turn_calls = {
            u: await ring.reachable(store, u, ring.of(record, u, ring.TURN))
            for u in dict.fromkeys(called)
        }
        mentions = tuple(u for u, how in turn_calls.items() if ring.mentions(how))
        over: dict[int, str] = {}
        if result is not None:  # every player but the one whose action ended it
            ender = record.user_at(actor) if actor is not None else None
            seated = [s.user_id for s in record.seats if s.computer is None and not s.left]
            over = {
                u: await ring.reachable(store, u, ring.of(record, u, ring.END))
                for u in dict.fromkeys(seated)
                if u != ender
            }
        told = turn_posts.told(events, result)
        lines: list[str | Text] = [f"**{table.title}**" + (": " + headline if headline else "")]
        lines += told
        calls: list[Text] = []
        if result is not None:
            winners = seat_labels(table, result.winners, " and ")
            lines.append(turn_posts.ending_line(result, winners))
            told_over = [u for u, how in over.items() if ring.mentions(how)]
            if told_over:
                lines.append(
                    Text.of("🏁 ", Text.of(", ").join(Text.of(Mention(u)) for u in told_over))
                )
                mentions += tuple(told_over)
        elif new_turn:
            lines.append(turn_posts.summary(table.public_view()["summary"], told))
            # Every seat asked now, the actor too: a round it closed may ask it again.
            calls = [_call(record, p) for p in after]
        turn: int | None = version
        edit, story = False, Text.of("\n").join(lines)
        earlier = await self._posts.current(self._desk.store, record)
        if earlier is not None and new_turn:
            # The turn has passed: its post keeps what happened, without its controls.
            outcome.add(turn_posts.retired(earlier))
            earlier = None
        if earlier is not None:
            # A step within the turn: the turn's post grows by what it told, and asks anew.
            turn, edit = earlier.turn, True
            story = turn_posts.step_story(earlier, headline, told, after)
            calls = [_call(record, p) for p in after]
        shown = new_turn or any(e.public and e.data.get("picture") for e in events)
        board = board_of(table) if shown else None
        controls = tuple(self.controls(table, version, p) for p in public_prompts)
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
            outcome.add(
                StatusUpdate(
                    record.id,
                    record.channel_id,
                    status_line(table, last, self._desk.page_link(record), self._desk.clock()),
                )
            )
        for prompt in fresh:
            user = record.user_at(prompt.seat)
            if prompt.secret and user is not None:
                view = table.engine.view(table.state, prompt.seat)
                asked = f"**{table.title}**: {prompt.text}\n{view.get('private', '')}".strip()
                controls, board = labelled(table, [self.controls(table, version, prompt)])
                outcome.add(
                    PrivateMessage(
                        record.id, user, asked, controls, channel_id=record.channel_id,
                        boards=(board,) if board else (),
                    )
                )  # fmt: skip
        secret = {u for p in fresh if p.secret and (u := record.user_at(p.seat)) is not None}
        for user, how in turn_calls.items():
            if ring.dms(how) and user not in secret:  # a secret prompt is its own DM
                asks = "; ".join(p.text for p in fresh if record.user_at(p.seat) == user)
                your_turn = said("Your turn in {where}: {asks}",
                                 where=ring.where(record, table.title), asks=asks)  # fmt: skip
                text = "➡️ " + your_turn + "\n" + _the_table(record)
                outcome.add(PrivateMessage(record.id, user, text, channel_id=record.channel_id))
        if result is not None:
            winners = seat_labels(table, result.winners, " and ")
            for user, how in over.items():
                if ring.dms(how):
                    over_text = said("{where} is over: {result}",
                                     where=ring.where(record, table.title),
                                     result=turn_posts.ending_line(result, winners))  # fmt: skip
                    text = "🏁 " + over_text + "\n" + _the_table(record)
                    outcome.add(PrivateMessage(record.id, user, text, channel_id=record.channel_id))
        tell_onlookers(outcome, table, self._desk.clock())

    async def give_up(
        self, game_id: int, seats: list[int], reason: ForfeitReason, headline: str
    ) -> Outcome:
        """The ``seats`` of a player who has just resigned or left (marked ``left``) give
        up at once by the game's forfeit rule, whoever is to move (the engine contract
        lets any seat still playing give up): each is one versioned action logged
        ``!forfeit resigned`` or ``!forfeit left`` and told so, never as a timeout. Where
        one side remains the game ends; where several remain it goes on without them.
        Then any other departed seat prompted now forfeits too."""
        outcome = Outcome()
        for seat in seats:
            outcome.notices += (await self._give_up_now(game_id, seat, reason, headline)).notices
        outcome.notices += (await self.forfeit_departed(game_id)).notices
        return outcome

    async def _give_up_now(
        self, game_id: int, seat: int, reason: ForfeitReason, headline: str
    ) -> Outcome:
        for _ in range(5):
            table = await self._desk.table(game_id)
            if table.record.status != "running":
                return Outcome()
            rng = action_rng(table.record.seed, table.record.version + 1)
            try:
                state, events = table.engine.forfeit(table.state, seat, rng, reason)
            except IllegalAction:
                return Outcome()  # no longer playing: it has given up already
            marker = forfeit_marker(reason)
            try:
                return await self.commit(table, seat, marker, state, events, headline)
            except StaleVersion:
                continue
        return Outcome()

    async def forfeit_departed(self, game_id: int) -> Outcome:
        """Forfeit every seat that is prompted now but whose player has left, logged and
        told as leaving (``!forfeit left``), not as a timeout."""
        outcome = Outcome()
        for _ in range(16):
            table = await self._desk.table(game_id)
            gone = [p.seat for p in table.prompts() if table.record.has_left(p.seat)]
            if table.record.status != "running" or not gone:
                break
            seat = gone[0]
            rng = action_rng(table.record.seed, table.record.version + 1)
            state, events = table.engine.forfeit(table.state, seat, rng, "left")
            try:
                outcome.notices += (
                    await self.commit(table, seat, forfeit_marker("left"), state, events, "🚪")
                ).notices
            except StaleVersion:
                continue
        return outcome


def _why_not_now(table: Table, seat: int, action: str, waiting: Text) -> None:
    """Raise what the engine says of ``seat`` playing ``action`` now, and who is still to
    answer (in a round of secret choices, a seat that answered already hears that its
    choice is locked in)."""
    try:
        table.engine.apply(table.state, seat, action.strip(), random.Random(0))
    except UnreadableAction as error:
        raise Unreadable(str(error)) from None
    except IllegalAction as error:
        raise UserError(str(error) + " " + said("Waiting for {seats}.", seats=waiting)) from None


def paused_refusal(table: Table) -> UserError:
    """Why nobody can move in a paused game now: who paused it and how it goes on."""
    return UserError(pause_text(table.record, said("{title} is paused", title=table.title)))


def labelled(table: Table, controls: list[Controls]) -> tuple[tuple[Controls, ...], Board | None]:
    """``controls`` for one seat's eyes, with the places its moves go to labelled on a
    picture of the board made for them (:mod:`bot.service.play.destinations`); as they are,
    with no picture, when they are not one choice of places."""
    board = board_of(table)
    found = None
    if len(controls) == 1 and len(controls[0].choices) <= destinations.MAX_STEP:
        found = destinations.placed(controls[0].choices, destinations.MANY_LABELS)
    if found is None or board is None:
        return tuple(controls), None
    choices, marks = found
    return (replace(controls[0], choices=choices, placed=True),), destinations.marked(board, marks)


def group_of(choice: Choice) -> str:
    """The group a choice is picked under in a two-step pick: its piece; for one the engine
    puts in no group, itself, or ``""`` (all such moves together) when it goes to a place."""
    return choice.group or ("" if choice.to else choice.action)


def board_of(table: Table) -> Board | None:
    """The game's board as everyone may see it (the public view only)."""
    if table.state is None:
        return None
    return Board(table.engine.slug, table.public_view(), table.record.data)


def private_of(table: Table, user_id: int) -> str:
    """What only ``user_id`` knows at ``table`` (their hand, their Chest), in words."""
    if table.state is None:
        return ""
    parts = [
        table.engine.view(table.state, s).get("private", "") for s in table.record.seat_of(user_id)
    ]
    return "\n".join(p for p in parts if p)


def _current_board(record: GameRecord) -> Text:
    if record.board_message_id:
        link = BoardLink(record.guild_id, record.channel_id, record.board_message_id)
        return said("The current board: {board}", board=link)
    return said("`/game status game:{game}` shows where it stands.", game=record.id)


def _moved_on(record: GameRecord) -> Text:
    """A click on a board that has moved on, and where the game stands now."""
    return said("That was already played: the board has moved on.") + " " + _current_board(record)


def _not_your_turn(table: Table, waiting: Text) -> Text:
    return said(
        "It is not your turn in {title}: waiting for {seats}.", title=table.title, seats=waiting
    )


def _the_table(record: GameRecord) -> Text:
    """``The table: `` and where the game's table is (a DM's last line)."""
    return said("The table: {table}", table=table_link(record))


def _call(record: GameRecord, prompt: Prompt) -> Text:
    """The line asking a seat to decide: a mention, or the computer at work."""
    user = record.user_at(prompt.seat)
    if user is None:
        return "🤖 " + said("{prompt} (the computer is thinking)", prompt=prompt.text)
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


def _turn_post(outcome: Outcome) -> ChannelPost | None:
    """The turn's post among what an action tells, the newest (None if it tells none): a
    new turn's, not the passed turn's it retires."""
    posts = [n for n in outcome.notices if isinstance(n, ChannelPost) and n.of_turn]
    return posts[-1] if posts else None
