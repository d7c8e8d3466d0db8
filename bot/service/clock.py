"""The turn clock: limits, reminders, timeouts, pausing, and how players are called."""

from __future__ import annotations

import json
from typing import Any

from bot.service.computers import computer_seats
from bot.service.errors import UserError
from bot.service.notices import (
    ChannelPost,
    Outcome,
    PrivateMessage,
    Reply,
)
from bot.service.tables import (
    STATUS_WORDS,
    Table,
    seat_label,
    started_word,
    written,
)
from bot.service.text import Mention, Moment, Text
from bot.service.timing import NO_DEADLINES, Timing
from bot.store import StaleVersion
from engines.replay import action_rng

NOTIFY_CHOICES = {
    "turns": "a mention in the channel on each of your turns, and reminders by DM",
    "reminders": "no mention on each turn, only reminders by DM before your time runs out",
    "none": "no mentions and no reminders",
}


class TurnClock:
    """Turn-clock use cases of :class:`~bot.service.host.GameHost` (a mixin)."""

    async def set_timing(
        self,
        *,
        user_id: int,
        limit_hours: float | None = None,
        reminder_hours: float | None = None,
        on_timeout: str | None = None,
        **where: Any,
    ) -> Reply:
        """The host changes a game's turn limit, reminder or timeout rule."""
        table = await self.find(user_id=user_id, **where)
        game_id = table.record.id
        record = table.record
        if user_id != record.host_id:
            raise UserError(
                Text.of(
                    "Only the host, ",
                    Mention(record.host_id),
                    f", can change {table.title}'s clock.",
                )
            )
        if not record.active:
            raise UserError(f"{table.title} has already {started_word(record.status)}.")
        timing = Timing.from_dict(record.timing).changed(limit_hours, reminder_hours, on_timeout)
        fields: dict[str, Any] = {"timing": timing.to_dict()}
        if record.status == "running":
            fields.update(self.turn_deadlines(record, table.prompts(), self.clock(), timing))
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

    async def pause(self, *, user_id: int, **where: Any) -> Outcome:
        """The host stops the clock; nobody can move until the game is resumed."""
        table = await self._hosted(user_id, where, "running", "pause")
        text = f"⏸️ **{table.title}** is paused by its host. `/game resume` goes on."
        outcome = Outcome(
            [Reply("Paused."), ChannelPost(table.record.id, table.record.channel_id, text)]
        )
        await self._store(
            outcome, self.store.update_game, table.record.id, table.record.version,
            now=self.clock(), status="paused", **NO_DEADLINES,
        )  # fmt: skip
        return outcome

    async def resume(self, *, user_id: int, channel_id: int | None = None, **where: Any) -> Outcome:
        """The host restarts a paused game; the player to move gets a fresh turn clock.

        A game whose channel was deleted moves to ``channel_id`` (where it was resumed).
        """
        table = await self._hosted(user_id, {**where, "channel_id": channel_id}, "paused", "resume")
        game_id = table.record.id
        now = self.clock()
        moved = {"channel_id": channel_id} if table.record.channel_id == 0 and channel_id else {}
        if table.record.channel_id == 0 and not moved:
            raise UserError(f"{table.title} lost its channel: resume it in the channel to play in.")
        fields = {
            "status": "running",
            **moved,
            **self.turn_deadlines(table.record, table.prompts(), now),
        }
        resumed = Table(written(table.record, now, fields), table.engine, table.state)
        outcome = Outcome([Reply("Resumed.")])
        await self._announce(
            outcome, resumed, resumed.record.version, actor=None, events=[],
            fresh=resumed.prompts(), new_turn=True, headline="▶️ The game goes on!",
        )  # fmt: skip
        await self._store(
            outcome, self.store.update_game, game_id, table.record.version, now=now, **fields
        )
        self.wakeup()
        return outcome

    async def _hosted(self, user_id: int, where: dict[str, Any], status: str, verb: str) -> Table:
        """The game asked about, if ``user_id`` hosts it and it is ``status``."""
        table = await self.find(user_id=user_id, **where)
        if user_id != table.record.host_id:
            raise UserError(
                Text.of(
                    "Only the host, ", Mention(table.record.host_id), f", can {verb} {table.title}."
                )
            )
        if table.record.status != status:
            raise UserError(
                f"{table.title} is {STATUS_WORDS[table.record.status]}; it cannot {verb}."
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
            elif record.remind_at is not None:
                reminders = await self._remind(record.id)
                taken = await self._store(
                    reminders, self.store.take_reminder, record.id, record.remind_at, now=now
                )
                outcome.notices += reminders.notices if taken else []
        return outcome

    async def _time_out(self, game_id: int, deadline: float) -> Outcome:
        """Computer seats play when their deadline comes; otherwise every seat still to act
        when ``deadline`` passed is skipped, forfeited or played by the computer."""
        outcome = Outcome()
        table = await self.table(game_id)
        computers = computer_seats(table.record, table.prompts())
        for seat in computers:
            level = table.record.computer_at(seat) or "strong"
            outcome.notices += (await self._play_computer(game_id, seat, level, "")).notices
        if computers:
            return outcome
        late = list(dict.fromkeys(p.seat for p in table.prompts()))
        mode = Timing.from_dict(table.record.timing).on_timeout
        for seat in late:
            table = await self.table(game_id)
            if table.record.deadline != deadline or seat not in {p.seat for p in table.prompts()}:
                break  # someone acted meanwhile, or the turn already moved on
            if mode == "computer":
                headline = "⏰ " + seat_label(table, seat) + " ran out of time: the computer plays."
                played = await self._play_computer(game_id, seat, "strong", headline, forced=True)
                outcome.notices += played.notices
                continue
            rng = action_rng(table.record.seed, table.record.version + 1)
            hook = table.engine.skip if mode == "skip" else table.engine.forfeit
            state, events = hook(table.state, seat, rng)
            word = "turn is skipped" if mode == "skip" else "seat is forfeited"
            headline = "⏰ " + seat_label(table, seat) + f" ran out of time: the {word}."
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
        when = Moment(record.deadline) if record.deadline else "soon"
        for seat in dict.fromkeys(p.seat for p in table.prompts()):
            user = record.user_at(seat)
            if user is None or await self.store.notify_choice(user) == "none":
                continue
            text = Text.of(
                f"⏰ Reminder: {table.title} is waiting for you; your turn runs out ", when, "."
            )
            if await self.store.dm_closed(user):
                outcome.add(
                    ChannelPost(
                        record.id,
                        record.channel_id,
                        Text.of(Mention(user), " ", text),
                        None,
                        (user,),
                    )
                )
            else:
                outcome.add(PrivateMessage(record.id, user, text, channel_id=record.channel_id))
        return outcome

    async def set_notify(self, *, user_id: int, choice: str) -> Reply:
        """How a user wants to be called: every turn, reminders only, or not at all."""
        if choice not in NOTIFY_CHOICES:
            raise UserError("Choose `turns`, `reminders` or `none`.")
        await self.store.set_notify_choice(user_id, choice)
        return Reply(f"Notifications: {NOTIFY_CHOICES[choice]}.")
