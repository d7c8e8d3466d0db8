"""Where games stand: ``/game status``, the server's and the asker's listings, and the
games autocomplete offers."""

from __future__ import annotations

from typing import Unpack

from bot.service.community.watchers import onlookers_text
from bot.service.desk import Desk, Where, title_of
from bot.service.errors import UserError
from bot.service.history.story import StoryTeller
from bot.service.notices import Reply
from bot.service.play.turns import board_of
from bot.service.tables import STATUS_TEXTS, Table, seat_labels, seating
from bot.service.text import ChannelRef, Moment, Text, said
from bot.service.timekeeping.bank import banks_line
from bot.service.timekeeping.timing import pause_text, rest_line
from bot.store import GameRecord

STATES = {
    "lobby": said("lobby"),
    "running": said("running"),
    "paused": said("paused"),
    "finished": said("finished"),
    "cancelled": said("cancelled"),
}
"""A game's status in one word, as the games autocomplete offers names it."""


class Listings:
    """A game's status, and lists of games: open, the asker's, finished, for autocomplete."""

    def __init__(self, desk: Desk, stories: StoryTeller) -> None:
        self._desk = desk
        self._stories = stories

    async def status(self, *, user_id: int | None = None, **where: Unpack[Where]) -> Reply:
        """Where the game stands, with the current board, for the asker only."""
        table = await self._desk.find(user_id=user_id, **where)
        text = self._status_text(table) + self._desk.page_link(table.record)
        text += onlookers_text(table, self._desk.clock())
        return Reply(text, board=board_of(table))

    async def list_games(self, *, guild_id: int, show: str = "running", **_: object) -> Reply:
        """The server's open games, or with ``show="finished"`` its recently finished ones."""
        if show == "finished":
            return await self._stories.finished_list(guild_id=guild_id)
        games = await self._desk.store.games(guild_id=guild_id)
        if not games:
            return Reply(said("No games are open on this server. Start one with `/game new`."))
        lines = [await self._line(g) for g in games]
        return Reply(Text.of(said("**Games on this server**"), "\n", Text.of("\n").join(lines)))

    async def mine(self, *, guild_id: int, user_id: int, **_: object) -> Reply:
        """The asker's open games here (where it is their turn), then their recently
        finished ones."""
        games = await self._desk.store.games(guild_id=guild_id, user_id=user_id)
        finished = await self._stories.finished_lines(guild_id=guild_id, user_id=user_id)
        if not games and not finished:
            return Reply(
                said("You are not in any open game here. `/game list` shows what is open.")
            )
        lines = [await self._line(g, user_id) for g in games] or [said("No open game.")]
        text = Text.of(said("**Your games**"), "\n", Text.of("\n").join(lines))
        if finished:
            text += Text.of("\n", said("**Finished lately**"), "\n", Text.of("\n").join(finished))
        return Reply(text)

    async def game_choices(
        self, *, guild_id: int | None, channel_id: int | None = None, **_: object
    ) -> list[tuple[int, Text]]:
        """``(number, name)`` of the server's open games, this channel's first (for
        autocomplete: no secret, nothing but what ``/game list`` shows)."""
        if guild_id is None:
            return []
        records = await self._desk.store.games(guild_id=guild_id)
        records.sort(key=lambda g: (g.channel_id != channel_id, -g.id))
        return [(r.id, _choice(r, STATES.get(r.status, r.status))) for r in records]

    async def _line(self, record: GameRecord, user_id: int | None = None) -> Text:
        """The listing line of a game, from the record the listing read (no query)."""
        where = said(
            "{game} in {channel}",
            game=f"#{record.id} {title_of(record.slug)}",
            channel=ChannelRef(record.channel_id),
        )
        try:
            table = self._desk.loaded(record)
        except UserError:
            return where + ": ⚠️ " + said("cannot be read (its stored state is damaged)")
        if record.status == "paused":
            return where + ": " + pause_text(record, STATUS_TEXTS["paused"])
        if record.status != "running":
            return where + ": " + STATUS_TEXTS[record.status]
        waiting = sorted({p.seat for p in table.prompts()})
        if user_id is not None and any(record.user_at(s) == user_id for s in waiting):
            turn = said("**your turn**")
        else:
            turn = said("waiting for {seats}", seats=seat_labels(table, waiting))
        if record.deadline:
            turn += ", " + said("turn ends {when}", when=Moment(record.deadline))
        return where + ": " + turn

    def _status_text(self, table: Table) -> Text:
        record = table.record
        if record.status == "paused":
            state = pause_text(record, STATUS_TEXTS["paused"])
        else:
            state = STATUS_TEXTS[record.status]
        lines: list[str | Text] = [Text.of(f"**{table.title}**: ", state), seating(table)]
        summary = table.public_view()["summary"] if table.state is not None else ""
        if summary:
            lines.append(summary)
        if record.result and record.result not in summary:
            # said once: the summary may hold it
            lines.append(said("Result: {result}", result=record.result))
        if record.status == "running" and record.deadline:
            lines.append("⏳ " + said("The turn ends {when}.", when=Moment(record.deadline)))
        text = Text.of("\n").join(lines)
        return text + banks_line(record) + rest_line(record, self._desk.clock())

    async def story_choices(
        self, *, guild_id: int | None, channel_id: int | None = None, **_: object
    ) -> list[tuple[int, Text]]:
        """``(number, name)`` of the games whose story can be told: the server's open
        games (this channel's first), then its recently finished ones."""
        if guild_id is None:
            return []
        games = await self.game_choices(guild_id=guild_id, channel_id=channel_id)
        finished = await self._desk.store.finished_games(guild_id=guild_id, limit=25)
        return games + [(g.id, _choice(g, STATES["finished"])) for g in finished]


def _choice(record: GameRecord, state: str | Text) -> Text:
    """A game as autocomplete offers it: ``#12 St. George and the Dragon (running)``."""
    return said("{game} ({state})", game=f"#{record.id} {title_of(record.slug)}", state=state)
