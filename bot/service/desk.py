"""What every part of the host shares: the store, the clock, the doorbell, and the games
as loaded (found by number or by where a request was made)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, TypedDict, TypeVar

from bot.service import wire
from bot.service.doorbell import Doorbell
from bot.service.errors import UserError
from bot.service.notices import Outcome
from bot.service.tables import LoadedStates, Table, UnreadableGame, engine_for, table_from
from bot.service.text import Text, WebLink
from bot.store import GameRecord, Store

T = TypeVar("T")


class Where(TypedDict, total=False):
    """Where a request was made, as the host's calls take it besides its asker: the game it
    names, and the server and channel it came from (each may be absent or None; see
    :meth:`Desk.find`)."""

    game_id: int | None
    guild_id: int | None
    channel_id: int | None


class Desk:
    """The store, the clock and the doorbell, with the games' loaded states: each part of
    the host reads and writes games through one of these."""

    def __init__(
        self,
        store: Store,
        clock: Callable[[], float],
        doorbell: Doorbell,
        web_url: str | None = None,
    ) -> None:
        """``web_url``: where players reach the game pages (None: no pages are served)."""
        self.store = store
        self.clock = clock
        self.doorbell = doorbell
        self.web_url = web_url.rstrip("/") if web_url else None
        self.states = LoadedStates()

    def page_url(self, record: GameRecord) -> str | None:
        """The address of the game's web page; None when pages are not served or the
        game has none."""
        if self.web_url is None or record.page is None:
            return None
        return f"{self.web_url}/g/{record.page}"

    def page_link(self, record: GameRecord) -> Text:
        """The line giving the game's page (with a newline before it), or nothing when
        pages are not served or the game has none."""
        url = self.page_url(record)
        return Text.of("\n🌐 On the web, with a replay: ", WebLink(url)) if url else Text()

    def loaded(self, record: GameRecord) -> Table:
        """The table of a record just read (its state worked out once per version)."""
        return table_from(record, self.states)

    async def table(self, game_id: int) -> Table:
        """Game ``game_id`` as stored now; UserError when there is none or it is damaged."""
        try:
            record = await self.store.get_game(game_id)
        except ValueError as error:  # its stored JSON is damaged
            raise UnreadableGame(game_id, error) from None
        if record is None:
            raise UserError(f"There is no game #{game_id}. `/game list` shows this server's games.")
        return self.loaded(record)

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
        if len(here) > 1 and user_id is not None:
            mine = [g for g in here if g.seat_of(user_id)]
            here = mine if len(mine) == 1 else here
        if len(here) > 1:
            listing = ", ".join(f"#{g.id} {title_of(g.slug)}" for g in here)
            raise UserError(f"This channel has several games ({listing}); add `game:<number>`.")
        return self.loaded(here[0])

    async def stored(
        self, outcome: Outcome, write: Callable[..., Awaitable[T]], *args: Any, **kwargs: Any
    ) -> T:
        """Run one store ``write`` with ``outcome``'s notices stored in its transaction, then
        ring for the outbox."""
        result = await write(*args, notices=wire.outgoing(outcome), **kwargs)
        self.doorbell.notices_stored()
        return result

    async def tell(self, outcome: Outcome) -> None:
        """Store notices that go with no write of their game (a closed-DM button)."""
        now = self.clock()
        for notice in outcome.outgoing:
            await self.store.enqueue(notice.game_id, wire.outgoing(Outcome([notice])), now=now)
        self.doorbell.notices_stored()


def title_of(slug: str) -> str:
    """The game's title, or its slug when no such game is registered."""
    try:
        return engine_for(slug).title
    except UserError:
        return slug
