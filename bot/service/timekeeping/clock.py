"""The turn clock: limits, reminders, timeouts, pausing, and how players are called."""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, Unpack

from bot.service.community.watchers import status_update
from bot.service.delivery import calls, digest
from bot.service.desk import Desk, Where, title_of
from bot.service.errors import UserError
from bot.service.notices import (
    ChannelPost,
    Outcome,
    PrivateMessage,
    Reply,
)
from bot.service.play.computers import Computers, TurnDeadlines, computer_seats
from bot.service.play.offers import CLOCK_CHANGED, PAUSED, settling
from bot.service.play.turns import Turns
from bot.service.seating.table_controls import table_link
from bot.service.tables import (
    STATUS_TEXTS,
    Table,
    already,
    seat_label,
    written,
)
from bot.service.text import Mention, Moment, Text, said, said_plural
from bot.service.timekeeping import bank, quiet_hours
from bot.service.timekeeping.away import away_deadlines
from bot.service.timekeeping.timing import (
    NO_DEADLINES,
    Timing,
    pause_text,
    with_pause,
    without_pause,
)
from bot.store import GameRecord, StaleVersion
from engines.base import Event
from engines.replay import action_rng

FIRST_DUE = 100
"""Due games read at a time (beyond those being fired or held back)."""
BACKOFF = (1.0, 5.0, 30.0, 120.0)
"""Seconds before a game whose firing failed is tried again, by failures in a row."""
MAX_FAILURES = 4
"""Failures in a row after which a game is set aside (paused, its host told)."""
CLAIM_LEASE = 60.0
"""Seconds a claim on a due game lasts: processes sharing the database fire each due game
in the one that claimed it; if that process dies, another takes the game over this long
after the claim was made (or last renewed)."""

log = logging.getLogger(__name__)


class Stuck(Exception):
    """A due game's timeout changed nothing (nobody to act, say): it would stay due."""


@dataclass(frozen=True)
class Hold:
    """A game held back after ``failures`` failed firings in a row, until ``retry_at``."""

    failures: int
    retry_at: float


NOTIFY_CHOICES = {
    "turns": said("a mention in the channel on each of your turns, and reminders by DM"),
    "reminders": said("no mention on each turn, only reminders by DM before your time runs out"),
    "none": said("no mentions and no reminders"),
}
"""The older ``/notify when:`` choices, as a person reads them."""
PAUSE, RESUME = "pause", "resume"
"""What the host asks of a game's clock (:meth:`TurnClock._hosted`)."""
CLOCK_FAILED = said("its turn clock failed, and nothing was played for it")
"""Why a game whose turn clock keeps failing is paused."""


class TurnClock:
    """Turn limits, pausing and resuming, and firing what is due: reminders, timeouts and
    computer moves. It owns which games this host is firing now and which it holds back
    after failures; ``owner`` names this host in its claims on due games."""

    def __init__(
        self,
        desk: Desk,
        turns: Turns,
        computers: Computers,
        deadlines: TurnDeadlines,
        owner: str,
        claim_lease: float = CLAIM_LEASE,
    ) -> None:
        self._desk = desk
        self._turns = turns
        self._computers = computers
        self._deadlines = deadlines
        self.owner = owner
        self.claim_lease = claim_lease
        """Seconds this host's claims on due games last (see :data:`CLAIM_LEASE`)."""
        self._firing: set[int] = set()
        self._held: dict[int, Hold] = {}

    async def set_timing(
        self,
        *,
        user_id: int,
        limit_hours: float | None = None,
        reminder_hours: float | None = None,
        on_timeout: str | None = None,
        bank_hours: float | None = None,
        playing_hours: str | None = None,
        playing_days: str | None = None,
        timezone: str | None = None,
        **where: Unpack[Where],
    ) -> Reply:
        """The host changes a game's turn limit, reminder or timeout rule, or (in its lobby
        only) the time bank each seat starts with and its playing hours."""
        table = await self._desk.find(user_id=user_id, **where)
        game_id = table.record.id
        record = table.record
        if user_id != record.host_id:
            raise UserError(
                said(
                    "Only the host, {host}, can change {title}'s clock.",
                    host=Mention(record.host_id), title=table.title,
                )
            )  # fmt: skip
        if not record.active:
            raise UserError(already(table))
        if bank_hours is not None and record.status != "lobby":
            raise UserError(
                said(
                    "{title} has started: its time banks were set at the opening. "
                    "`/game givetime game:{game} player:<member> hours:<h>` gives a player "
                    "more.",
                    title=table.title, game=game_id,
                )
            )  # fmt: skip
        playing = (playing_hours, playing_days, timezone)
        if any(p is not None for p in playing) and record.status != "lobby":
            raise UserError(
                said(
                    "{title} has started: its playing hours were set at the opening.",
                    title=table.title,
                )
            )
        timing = Timing.from_dict(record.timing).changed(
            limit_hours, reminder_hours, on_timeout, playing_hours_text=playing_hours,
            playing_days=playing_days, timezone=timezone,
        )  # fmt: skip
        # The stored timing keeps its word of a pause (and the banks): only the settings
        # change; a bank being spent ends, since the turn starts afresh.
        now = self._desk.clock()
        stored = bank.all_settled(record, now)
        if bank_hours is not None:
            stored = {**stored, bank.BANK: bank.bank_hours_checked(bank_hours)}
        stored = {k: v for k, v in stored.items() if k != "playing"}
        fields: dict[str, Any] = {"timing": {**stored, **timing.to_dict()}}
        if record.status == "running":
            fields.update(
                self._deadlines.for_turn(record, table.prompts(), self._desk.clock(), timing)
            )
        told = Outcome(list(settling(record, CLOCK_CHANGED)))
        await self._desk.stored(
            told, self._desk.store.update_game, game_id, record.version, now=now, **fields,
        )  # fmt: skip
        seconds = float(fields["timing"].get(bank.BANK) or 0.0)
        if seconds:
            text = said(
                "{title}: {timing}; a time bank of {bank} for each seat.",
                title=table.title, timing=timing.describe(), bank=bank.duration(seconds),
            )  # fmt: skip
        else:
            text = said("{title}: {timing}.", title=table.title, timing=timing.describe())
        return Reply(text, private=False)

    async def set_server_timing(
        self,
        *,
        guild_id: int,
        limit_hours: float | None = None,
        reminder_hours: float | None = None,
        on_timeout: str | None = None,
        playing_hours: str | None = None,
        playing_days: str | None = None,
        timezone: str | None = None,
    ) -> Reply:
        """Defaults for games opened on this server from now on (Manage Server only),
        playing hours among them."""
        current = json.loads(await self._desk.store.guild_setting(guild_id, "timing") or "{}")
        timing = Timing.from_dict(current).changed(
            limit_hours, reminder_hours, on_timeout, playing_hours_text=playing_hours,
            playing_days=playing_days, timezone=timezone,
        )  # fmt: skip
        await self._desk.store.set_guild_setting(guild_id, "timing", json.dumps(timing.to_dict()))
        return Reply(
            said("New games on this server: {timing}.", timing=timing.describe()), private=False
        )

    async def set_server_threads(self, *, guild_id: int, on: bool) -> Reply:
        await self._desk.store.set_guild_setting(guild_id, "threads", "on" if on else "off")
        if on:
            text = said("New games on this server are played in a thread of its own.")
        else:
            text = said("New games on this server are played in the channel where it was opened.")
        return Reply(text, private=False)

    async def pause(self, *, user_id: int, **where: Unpack[Where]) -> Outcome:
        """The host stops the clock; nobody can move until the game is resumed."""
        table = await self._hosted(user_id, where, "running", PAUSE)
        record, now = table.record, self._desk.clock()
        fields = {
            "status": "paused",
            "timing": with_pause(bank.all_settled(record, now), by=user_id),
            **NO_DEADLINES,
        }
        stopped = Table(written(record, now, fields), table.engine, table.state)
        text = pause_text(stopped.record, said("**{title}** is paused", title=table.title))
        outcome = Outcome([Reply(said("Paused.")), *settling(record, PAUSED),
                           ChannelPost(record.id, record.channel_id, text)])  # fmt: skip
        outcome.add(await status_update(self._desk, stopped))
        await self._desk.stored(
            outcome, self._desk.store.update_game, record.id, record.version, now=now, **fields
        )
        return outcome

    async def resume(self, *, user_id: int, **where: Unpack[Where]) -> Outcome:
        """The host restarts a paused game; the player to move gets a fresh turn clock.

        A game whose channel was deleted moves to ``channel_id`` (where it was resumed).
        """
        table = await self._hosted(user_id, where, "paused", RESUME)
        channel_id = where.get("channel_id")
        game_id = table.record.id
        now = self._desk.clock()
        moved = {"channel_id": channel_id} if table.record.channel_id == 0 and channel_id else {}
        if table.record.channel_id == 0 and not moved:
            raise UserError(
                said(
                    "{title} lost its channel: resume it in the channel to play in.",
                    title=table.title,
                )
            )
        fields = {
            "status": "running",
            "timing": without_pause(table.record.timing),
            **moved,
            **self._deadlines.for_turn(table.record, table.prompts(), now),
        }
        fields = away_deadlines(table.record, table.prompts(), fields, now)
        resumed = Table(written(table.record, now, fields), table.engine, table.state)
        outcome = Outcome([Reply(said("Resumed.")), *settling(table.record)])
        await self._turns.announce(
            outcome, resumed, resumed.record.version, actor=None, events=[],
            fresh=resumed.prompts(), new_turn=True, headline="▶️ " + said("The game goes on!"),
        )  # fmt: skip
        await self._desk.stored(
            outcome, self._desk.store.update_game, game_id, table.record.version, now=now, **fields
        )
        # Seats whose players left while it was paused give up now (lobby.Lobby.leave).
        departed = [s.seat for s in table.record.seats if s.left]
        outcome.notices += (await self._turns.give_up(game_id, departed, "left", "🚪")).notices
        return outcome

    async def _hosted(self, user_id: int, where: Where, status: str, verb: str) -> Table:
        """The game asked about, if ``user_id`` hosts it and it is ``status``, to
        :data:`PAUSE` or :data:`RESUME` it (``verb``)."""
        table = await self._desk.find(user_id=user_id, **where)
        host, title = Mention(table.record.host_id), table.title
        if user_id != host.user_id:
            if verb == PAUSE:
                raise UserError(said("Only the host, {host}, can pause {title}.", host=host,
                                     title=title))  # fmt: skip
            raise UserError(said("Only the host, {host}, can resume {title}.", host=host,
                                 title=title))  # fmt: skip
        if table.record.status != status:
            state = STATUS_TEXTS[table.record.status]
            if verb == PAUSE:
                raise UserError(said("{title} is {status}; it cannot pause.", title=title,
                                     status=state))  # fmt: skip
            raise UserError(said("{title} is {status}; it cannot resume.", title=title,
                                 status=state))  # fmt: skip
        return table

    # -- firing what is due ------------------------------------------------------------

    def claim(self, game_id: int) -> bool:
        """Mark ``game_id`` as being fired (True), unless it already is (False): one
        firing at a time per game, so its moves stay in order."""
        if game_id in self._firing:
            return False
        self._firing.add(game_id)
        return True

    def release(self, game_id: int) -> None:
        """``game_id`` is no longer being fired (a claim that was never fired, say)."""
        self._firing.discard(game_id)

    async def unclaim(self, game_id: int) -> None:
        """Give up this host's claim on ``game_id`` in the store, so any process may fire
        it at once. A store that fails to release it only leaves the claim to lapse with
        its lease."""
        try:
            await self._desk.store.release_game(game_id, self.owner)
        except Exception:
            log.warning("game %s: releasing its claim failed; it lapses", game_id, exc_info=True)

    async def due_games(self, now: float) -> list[GameRecord]:
        """The running games due at ``now`` that no other process holds, claimed for this
        host (see :meth:`Store.claim_due`), leaving out those this host is firing already
        or holds back after a failure; earliest first. The caller fires each one it gets
        with :meth:`fire_claimed` (or gives it up with :meth:`unclaim`)."""
        busy = self._firing | {g for g, hold in self._held.items() if hold.retry_at > now}
        claimed = await self._desk.store.claim_due(
            now, self.owner, self.claim_lease, FIRST_DUE + len(busy)
        )
        due = []
        for record in claimed:
            if record.id in self._firing:
                continue  # its firing goes on (and its claim was renewed)
            if record.id in busy:
                await self.unclaim(record.id)  # held back here: another process may try
                continue
            due.append(record)
        return due

    async def next_wakeup(self) -> float | None:
        """When the earliest deadline or reminder of a game not being fired falls, or a
        game held back after a failure is tried again."""
        held = [hold.retry_at for hold in self._held.values()]
        busy = sorted(self._firing | set(self._held))
        when = (
            await self._desk.store.next_wakeup(busy)
            if busy
            else await self._desk.store.next_wakeup()
        )
        return min((t for t in (when, *held) if t is not None), default=None)

    async def fire_due(self) -> Outcome:
        """Send every reminder and settle every timeout that is due, each exactly once; a
        game whose firing fails is held back (see :meth:`fire_claimed`), the others go on."""
        now = self._desk.clock()
        outcome = Outcome()
        for record in await self.due_games(now):
            if self.claim(record.id):
                outcome.notices += (await self.fire_claimed(record, now)).notices
        return outcome

    async def fire_claimed(self, record: GameRecord, now: float) -> Outcome:
        """Fire one due game that :meth:`claim` marked, from the ``record`` the due query
        returned, and release it (here and in the store).

        Afterwards the game is settled: its next deadline is in the future, or it is over,
        or paused. A firing that fails (or changes nothing) is logged once, with the game's
        number, and tried again after a growing pause; after :data:`MAX_FAILURES` in a row
        the game is set aside: paused, and its host told by direct message.
        """
        try:
            outcome = await self._fire(record, now)
        except Exception as error:
            return await self._firing_failed(record, error)
        finally:
            await self.unclaim(record.id)
            self.release(record.id)
        self._held.pop(record.id, None)
        return outcome

    async def _fire(self, record: GameRecord, now: float) -> Outcome:
        if record.deadline is not None and record.deadline <= now:
            outcome = await self._time_out(record)
            if not outcome.notices:
                after = await self._desk.store.get_game(record.id)
                if after is not None and (after.version, after.deadline) == (
                    record.version,
                    record.deadline,
                ):
                    raise Stuck(f"game {record.id}: its timeout changed nothing")
            return outcome
        if record.remind_at is not None:
            reminders = await self._remind(record)
            taken = await self._desk.stored(
                reminders, self._desk.store.take_reminder, record.id, record.remind_at, now=now
            )
            return reminders if taken else Outcome()
        return Outcome()

    async def _firing_failed(self, record: GameRecord, error: Exception) -> Outcome:
        game_id = record.id
        failures = self._held[game_id].failures + 1 if game_id in self._held else 1
        if failures == 1:
            log.error(
                "game %s: firing its turn clock failed; trying again with growing pauses",
                game_id, exc_info=error,
            )  # fmt: skip
        if failures >= MAX_FAILURES:
            try:
                outcome = await self._set_aside(record, failures, error)
            except Exception:
                log.debug("game %s: setting it aside failed too", game_id, exc_info=True)
            else:
                log.warning("game %s set aside (paused) after %s failures", game_id, failures)
                self._held.pop(game_id, None)
                return outcome
        pause = BACKOFF[min(failures, len(BACKOFF)) - 1]
        self._held[game_id] = Hold(failures, self._desk.clock() + pause)
        return Outcome()

    async def _set_aside(self, record: GameRecord, failures: int, error: Exception) -> Outcome:
        """Pause a game whose clock keeps failing, and tell its host why (through the
        outbox, in the same transaction)."""
        current = await self._desk.store.get_game(record.id)
        if current is None or current.status != "running":
            return Outcome()
        text = "⚠️ " + said_plural(
            "{game} is paused: its turn clock failed {count} time in a row ({error}). Nothing "
            "was played for it. `/game resume game:{number}` tries again.",
            "{game} is paused: its turn clock failed {count} times in a row ({error}). Nothing "
            "was played for it. `/game resume game:{number}` tries again.",
            failures,
            game=f"{title_of(current.slug)} #{current.id}", error=type(error).__name__,
            number=current.id,
        )  # fmt: skip
        outcome = Outcome(
            [*settling(current, PAUSED),
             PrivateMessage(current.id, current.host_id, text, channel_id=current.channel_id)]
        )  # fmt: skip
        now = self._desk.clock()
        fields = {
            "status": "paused",
            "timing": with_pause(bank.all_settled(current, now), why=CLOCK_FAILED),
            **NO_DEADLINES,
        }
        try:
            table = self._desk.loaded(current)
        except UserError:
            pass  # a game that cannot be read has no status message to bring up to date
        else:
            stopped = Table(written(current, now, fields), table.engine, table.state)
            outcome.add(await status_update(self._desk, stopped))
        await self._desk.stored(
            outcome, self._desk.store.update_game, current.id, current.version, now=now, **fields
        )
        return outcome

    async def _time_out(self, record: GameRecord) -> Outcome:
        """Computer seats play when their deadline comes; otherwise every seat still to act
        when the deadline passed is skipped, forfeited or played by the computer."""
        outcome = Outcome()
        game_id, deadline = record.id, record.deadline
        first = self._desk.loaded(record)
        table: Table | None = first
        computers = computer_seats(record, first.prompts())
        for seat in computers:
            level = record.computer_at(seat) or "strong"
            played = await self._computers.play_computer(game_id, seat, level, "", table=table)
            outcome.notices += played.notices
            table = None  # read it again for the next seat
        if computers:
            return outcome
        late = list(dict.fromkeys(p.seat for p in first.prompts()))
        overrun = bank.at_deadline(record, first.prompts(), self._desk.clock())
        if overrun is not None:
            # Seats with bank time go on spending it; the others time out now.
            spent = await self._spend_banks(first, overrun)
            if spent is None:
                return outcome  # the game moved on meanwhile
            outcome.notices += spent.notices
            late, deadline, table = overrun.out, overrun.deadline, None
        mode = Timing.from_dict(record.timing).on_timeout
        for seat in late:
            table = table or await self._desk.table(game_id)
            if table.record.deadline != deadline or seat not in {p.seat for p in table.prompts()}:
                break  # someone acted meanwhile, or the turn already moved on
            if mode == "computer":
                headline: str | Text = "⏰ " + said(
                    "{seat} ran out of time: the computer plays.", seat=seat_label(table, seat)
                )
                played = await self._computers.play_computer(
                    game_id, seat, "strong", headline, forced=True, table=table
                )
                outcome.notices += played.notices
                table = None
                continue
            rng = action_rng(table.record.seed, table.record.version + 1)
            if mode == "skip":
                state, events = table.engine.skip(table.state, seat, rng)
            else:
                state, events = table.engine.forfeit(table.state, seat, rng, "timeout")
            headline = _timeout_headline(table, seat, mode, events)
            try:
                committed = await self._turns.commit(
                    table, seat, f"!{mode}", state, events, headline
                )
            except StaleVersion:
                break
            outcome.notices += committed.notices
            table = None
        return outcome

    async def _spend_banks(self, table: Table, overrun: bank.Overrun) -> Outcome | None:
        """Move a game's deadline on while late seats spend their time banks, and tell the
        channel once per seat whose bank begins to run; None if the game moved on."""
        record, now = table.record, self._desk.clock()
        timing = Timing.from_dict(record.timing)
        reminder = timing.reminder
        remind_at = timing.before(overrun.deadline, reminder) if reminder else None
        remind_at = remind_at if remind_at is not None and remind_at > now else None
        moved = replace(
            record, deadline=overrun.deadline, remind_at=remind_at, timing=overrun.timing
        )
        outcome = Outcome()
        for seat, have in overrun.started:
            text = "⏳ " + said(
                "{player}'s turn is over its limit: their time bank ({left} left) is running; "
                "the turn now ends {when}.",
                player=_seat_name(record, seat), left=bank.duration(have),
                when=Moment(overrun.deadline),
            )  # fmt: skip
            outcome.add(ChannelPost(record.id, record.channel_id, text))
        outcome.add(await status_update(self._desk, Table(moved, table.engine, table.state)))
        if not await self._desk.stored(
            outcome, self._desk.store.move_deadline, record.id, record.version,
            deadline=overrun.deadline, remind_at=remind_at, now=now, timing=overrun.timing,
            timing_was=record.timing,
        ):  # fmt: skip
            return None
        return outcome

    async def give_time(
        self, *, user_id: int, player_id: int, hours: float, **where: Unpack[Where]
    ) -> Outcome:
        """The host adds ``hours`` to a player's time bank (every seat they play) in a
        running or paused game; a seat spending its bank now gets its deadline moved on."""
        table = await self._desk.find(user_id=user_id, **where)
        record = table.record
        if user_id != record.host_id:
            raise UserError(
                said(
                    "Only the host, {host}, can give time in {title}.",
                    host=Mention(record.host_id), title=table.title,
                )
            )  # fmt: skip
        if record.status not in ("running", "paused"):
            raise UserError(
                said(
                    "{title} is {status}: time is given in a game under way (a lobby sets "
                    "every seat's bank with `/game settings bank:<hours>`).",
                    title=table.title, status=STATUS_TEXTS[record.status],
                )
            )  # fmt: skip
        seats = [s for s in record.seat_of(player_id) if not record.has_left(s)]
        if not seats:
            raise UserError(
                said(
                    "{player} does not play a seat in {title}.",
                    player=Mention(player_id), title=table.title,
                )
            )  # fmt: skip
        if isinstance(hours, bool) or not isinstance(hours, int | float) or not hours > 0:
            raise UserError(
                said(
                    "Give a number of hours above 0 (a bank holds at most {most}).",
                    most=bank.MAX_BANK_HOURS,
                )
            )
        seconds = bank.bank_hours_checked(hours)
        timing: dict[str, Any] = dict(record.timing or {})
        for seat in seats:
            timing = bank.given(replace(record, timing=timing), seat, seconds)
        deadline, remind_at = record.deadline, record.remind_at
        end = bank.overrun_deadline(record, timing)
        if record.status == "running" and end is not None:
            deadline = end
            clock = Timing.from_dict(record.timing)
            now = self._desk.clock()
            remind = clock.before(end, clock.reminder) if clock.reminder else None
            remind_at = remind if remind is not None and remind > now else None
        moved = replace(record, deadline=deadline, remind_at=remind_at, timing=timing)
        name = _seat_name(record, seats[0])
        have = bank.left(timing, seats[0])
        text = "➕ " + said(
            "The host gave {player} {given}: their time bank now holds {bank}.",
            player=name, given=bank.duration(seconds), bank=bank.duration(have),
        )  # fmt: skip
        if deadline != record.deadline and deadline is not None:
            text += " " + said("The turn now ends {when}.", when=Moment(deadline))
        outcome = Outcome(
            [Reply(said("Given."), private=True), ChannelPost(record.id, record.channel_id, text)]
        )
        outcome.add(await status_update(self._desk, Table(moved, table.engine, table.state)))
        if not await self._desk.stored(
            outcome, self._desk.store.move_deadline, record.id, record.version,
            deadline=deadline, remind_at=remind_at, now=self._desk.clock(), timing=timing,
            timing_was=record.timing,
        ):  # fmt: skip
            raise UserError(said("The game moved on just then; please try again."))
        return outcome

    async def _remind(self, record: GameRecord) -> Outcome:
        """Remind each player still to act, by DM, or in the channel if their DMs are closed."""
        table = self._desk.loaded(record)
        outcome = Outcome()
        when = Moment(record.deadline) if record.deadline else said("soon")
        for seat in dict.fromkeys(p.seat for p in table.prompts()):
            user = record.user_at(seat)
            how = calls.of(record, user, calls.REMINDER) if user is not None else calls.NONE
            if user is None or how == calls.NONE:
                continue
            text = "⏰ " + said(
                "Reminder: {game} is waiting for you; your turn runs out {when}.",
                game=table.title, when=when,
            )  # fmt: skip
            dm = calls.dms(how) and not await self._desk.store.dm_closed(user)
            if calls.mentions(how) or not dm:  # closed DMs: the channel instead
                outcome.add(
                    ChannelPost(
                        record.id,
                        record.channel_id,
                        Text.of(Mention(user), " ", text),
                        None,
                        (user,),
                    )
                )
            if dm:
                text = "⏰ " + said(
                    "Reminder: {game} is waiting for you; your turn runs out {when}.",
                    game=calls.where(record, table.title), when=when,
                )  # fmt: skip
                text += "\n" + said("The table: {table}", table=table_link(record))
                outcome.add(PrivateMessage(record.id, user, text, channel_id=record.channel_id))
        return outcome

    async def set_notify(self, *, user_id: int, choice: str) -> Reply:
        """How a user wants to be called: every turn, reminders only, or not at all."""
        if choice not in NOTIFY_CHOICES:
            raise UserError(said("Choose `turns`, `reminders` or `none`."))
        await self._desk.store.set_notify_choice(user_id, choice)
        return Reply(said("Notifications: {choice}.", choice=NOTIFY_CHOICES[choice]))

    async def set_call(self, *, user_id: int, event: str, how: str) -> Reply:
        """How one event calls a user: a mention, a DM, both or neither (``/notify``)."""
        if event not in calls.EVENTS:
            events = ", ".join(f"`{e}`" for e in calls.EVENTS)
            raise UserError(said("Choose an event: {events}.", events=events))
        if how not in calls.HOWS:
            raise UserError(said("Choose `mention`, `dm`, `both` or `none`."))
        chosen = dict(await self._desk.store.calls(user_id))
        chosen[event] = how
        await self._desk.store.set_calls(user_id, chosen)
        notify = await self._desk.store.notify_choice(user_id)
        told = said(
            "Calls for {event}: {how}.", event=calls.EVENT_NAMES[event], how=calls.HOWS[how]
        )
        return Reply(told + "\n\n" + settings_text(chosen, notify), private=True)

    async def set_quiet(self, *, user_id: int, hours: str | None, zone: str | None = None) -> Reply:
        """A user's quiet hours (``/notify quiet:22-8 timezone:Europe/Paris``; ``off``
        removes them): no DM and no ping reaches them then, and what was held back comes
        as one DM when they end (see :mod:`bot.service.timekeeping.quiet_hours`)."""
        chosen = dict(await self._desk.store.calls(user_id))
        before = quiet_hours.of_calls(chosen)
        if zone is None:
            zone = before.zone if before is not None else "UTC"
        if hours is None:  # a time zone alone: the hours set stay
            if before is None:
                raise UserError(quiet_hours.QUIET_HELP)
            hours = quiet_hours.kept(before).split()[0]
        quiet = quiet_hours.QuietHours.parse(hours, zone)
        if quiet is None:
            chosen.pop(quiet_hours.KEY, None)
        else:
            chosen[quiet_hours.KEY] = quiet_hours.kept(quiet)
        await self._desk.store.set_calls(user_id, chosen)
        if quiet is None:
            told = said("Quiet hours off.")
        else:
            told = said("Quiet hours: {hours}.", hours=quiet.describe())
        notify = await self._desk.store.notify_choice(user_id)
        return Reply(told + "\n\n" + settings_text(chosen, notify), private=True)

    async def set_digest(self, *, user_id: int, hours: int, kind: str = digest.TURNS) -> Reply:
        """A user's digest of ``kind`` (``/notify digest:<hours>``, or ``watching:<hours>``
        for the games they watch; 0 stops it): see :mod:`bot.service.delivery.digest`."""
        every = digest.checked(hours)
        chosen = dict(await self._desk.store.calls(user_id))
        if every:
            chosen[calls.DIGESTS[kind]] = str(every)
        else:
            chosen.pop(calls.DIGESTS[kind], None)
        await self._desk.store.set_calls(user_id, chosen)
        now = self._desk.clock()
        await self._desk.store.set_digest(
            user_id, every * digest.HOUR if every else None, now + every * digest.HOUR, kind
        )
        if kind == digest.WATCHING:
            told = (
                said("Watched games: a digest every {hours} h.", hours=every) if every
                else said("Watched games: each new board by DM.")
            )  # fmt: skip
        else:
            told = (
                said("Digest: every {hours} h.", hours=every) if every
                else said("Digest off: a DM for each turn.")
            )  # fmt: skip
        notify = await self._desk.store.notify_choice(user_id)
        return Reply(told + "\n\n" + settings_text(chosen, notify), private=True)

    async def show_calls(self, *, user_id: int) -> Reply:
        """A user's calls, event by event, for their eyes only."""
        chosen = await self._desk.store.calls(user_id)
        notify = await self._desk.store.notify_choice(user_id)
        return Reply(settings_text(chosen, notify), private=True)


def _seat_name(record: GameRecord, seat: int) -> str | Text:
    named = next((s.name for s in record.seats if s.seat == seat), None)
    return named if named is not None else said("seat {number}", number=seat + 1)


def _timeout_headline(table: Table, seat: int, mode: str, events: list[Event]) -> str | Text:
    """What a post says of a timeout, once: the engine's own words when it tells one
    (``X ran out of time: the turn passes without a move.``), else the host's."""
    if any(e.public and "ran out of time" in e.text for e in events):
        return "⏰"
    label = seat_label(table, seat)
    if mode == "skip":
        return "⏰ " + said("{seat} ran out of time: the turn is skipped.", seat=label)
    return "⏰ " + said("{seat} ran out of time: the seat is forfeited.", seat=label)


def settings_text(chosen: Mapping[str, str], notify: str) -> Text:
    """A player's settings, one event a line."""
    lines = ["🔔 " + said("How I call you:")]
    for event, name in calls.EVENT_NAMES.items():
        how = calls.HOWS[calls.how(chosen, notify, event)]
        lines.append(Text.of("• ", name, ": ", how, f" (`{event}`)"))
    quiet = quiet_hours.of_calls(chosen)
    if quiet is not None:
        lines.append("🌙 " + said(
            "Quiet hours: {hours}: no DM and no ping then; what was held back comes as one "
            "DM when they end.",
            hours=quiet.describe(),
        ))  # fmt: skip
    every = calls.digest_hours(chosen)
    if every:
        lines.append("📬 " + said(
            "Digest: one DM every {hours} h of the games waiting for you, when one is new; "
            "no DM for each turn.",
            hours=every,
        ))  # fmt: skip
    watching = calls.digest_hours(chosen, "watching")
    if watching:
        lines.append("👀 " + said(
            "Watched games: one DM every {hours} h with the newest boards of those that "
            "moved, instead of each board.",
            hours=watching,
        ))  # fmt: skip
    lines.append(said("Change one with `/notify event:<event> how:<mention|dm|both|none>`."))
    return Text.of("\n").join(lines)
