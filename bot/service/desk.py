"""What every part of the host shares: the store, the clock, the doorbell, and the games
as loaded (found by number or by where a request was made).

The desk's store is the one write path of the host: every write made through it rings the
doorbell as it commits (see :class:`Announcing`), so no part rings it by hand and none can
forget to.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, TypedDict, TypeVar, cast

from bot.service import wire
from bot.service.doorbell import Doorbell
from bot.service.errors import UserError
from bot.service.notices import Outcome
from bot.service.tables import LoadedStates, Table, UnreadableGame, engine_for, table_from
from bot.service.text import Text, WebLink, said
from bot.store import GameRecord, Store

T = TypeVar("T")


class Where(TypedDict, total=False):
    """Where a request was made, as the host's calls take it besides its asker: the game it
    names, and the server and channel it came from (each may be absent or None; see
    :meth:`Desk.find`)."""

    game_id: int | None
    guild_id: int | None
    channel_id: int | None


CLOCK_WORDS = frozenset({"deadline", "remind_at", "due_at"})
"""What a write sets that says when something is next due: a game's deadline or reminder
(as a parameter, or among the fields of a game's write), a held call's or a digest's time."""


@dataclass(frozen=True)
class Rings:
    """What a write of the store rings once it has committed."""

    outbox: bool
    """It stores notices (it takes ``notices``, which the store may add to)."""
    clock: bool
    """It always sets when something is next due (one of its parameters is)."""
    by_fields: bool
    """It writes a game's fields by name, and rings the clock when they are ones that are."""


@functools.cache
def rings(kind: type, name: str) -> Rings | None:
    """What a call of ``kind``'s method ``name`` rings, read off its parameters (None: it
    rings nothing, being a read or a write nobody waits for)."""
    method = getattr(kind, name, None)
    if not inspect.iscoroutinefunction(method):
        return None
    parameters = inspect.signature(method).parameters
    found = Rings(
        outbox="notices" in parameters,
        clock=bool(CLOCK_WORDS & parameters.keys()),
        by_fields=any(p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters.values()),
    )
    return found if found.outbox or found.clock or found.by_fields else None


class Announcing:
    """The store as the host's parts see it: each write, once it has committed, rings the
    doorbell for those who wait on it. A write that stores notices wakes the outbox; one
    that sets when something is next due (a deadline, a reminder, a held call, a digest)
    wakes the scheduler, in that order.

    The store announces its commits itself, rather than each part ringing after its
    writes, so that "write, then wake the outbox" is no convention a new use case can
    forget: whichever part writes, and however (a versioned write with its notices, a
    deadline moved, a call held for quiet hours), the ring comes from the write. Which
    writes ring what is read off the store's own signatures (a ``notices`` parameter, a
    ``deadline``, ``remind_at`` or ``due_at`` one, or such a field among a game's fields),
    so a new write of the store rings without anything added here. It rings for this
    process; other processes sharing a PostgreSQL database hear the store's own wake-ups
    (:meth:`bot.store.Store.subscribe`), which never come back to the store that wrote.

    A write that raises rings nothing. Reads, and writes that tell nobody, pass through
    untouched, looked up on the store at each call (so the store's methods may be
    replaced while the host runs, as a test replaces one).
    """

    def __init__(self, store: Store, doorbell: Doorbell) -> None:
        self._store = store
        self._doorbell = doorbell

    def __getattr__(self, name: str) -> Any:
        found = getattr(self._store, name)
        rung = rings(type(self._store), name)
        if rung is None:
            return found
        doorbell = self._doorbell

        async def announced(*args: Any, **kwargs: Any) -> Any:
            result = await found(*args, **kwargs)
            if rung.outbox:
                doorbell.notices_stored()
            if rung.clock or (rung.by_fields and not CLOCK_WORDS.isdisjoint(kwargs)):
                doorbell.deadline_moved()
            return result

        return announced


class Desk:
    """The store, the clock and the doorbell, with the games' loaded states: each part of
    the host reads and writes games through one of these. Its :attr:`store` rings the
    doorbell as each write commits (:class:`Announcing`)."""

    def __init__(
        self,
        store: Store,
        clock: Callable[[], float],
        doorbell: Doorbell,
        web_url: str | None = None,
    ) -> None:
        """``web_url``: where players reach the game pages (None: no pages are served)."""
        self.store: Store = cast("Store", Announcing(store, doorbell))
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
        if not url:
            return Text()
        return "\n🌐 " + said("On the web, with a replay: {page}", page=WebLink(url))

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
            raise UserError(
                said(
                    "There is no game #{game}. `/game list` shows this server's games.",
                    game=game_id,
                )
            )
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
                raise UserError(said("Game #{game} belongs to another server.", game=game_id))
            return table
        if channel_id is None:
            raise UserError(said("Say which game with `game:<number>` (`/game mine` lists yours)."))
        here = await self.store.games(channel_id=channel_id)
        if not here:
            # A game that just ended is still "the game here" for status and rules.
            here = await self.store.games(channel_id=channel_id, active_only=False, limit=1)
        if not here:
            raise UserError(
                said(
                    "No game is open in this channel. Start one with `/game new`, "
                    "or name one with `game:` (`/game list` shows them)."
                )
            )
        if len(here) > 1 and user_id is not None:
            mine = [g for g in here if g.seat_of(user_id)]
            here = mine if len(mine) == 1 else here
        if len(here) > 1:
            listing = ", ".join(f"#{g.id} {title_of(g.slug)}" for g in here)
            raise UserError(
                said(
                    "This channel has several games ({games}); add `game:<number>`.", games=listing
                )
            )
        return self.loaded(here[0])

    async def stored(
        self, outcome: Outcome, write: Callable[..., Awaitable[T]], *args: Any, **kwargs: Any
    ) -> T:
        """Run one store ``write`` (a method of :attr:`store`, which rings the doorbell once it
        has committed) with ``outcome``'s notices stored in its transaction."""
        return await write(*args, notices=wire.outgoing(outcome), **kwargs)

    async def tell(self, outcome: Outcome) -> None:
        """Store notices that go with no write of their game (a closed-DM button)."""
        now = self.clock()
        for notice in outcome.outgoing:
            await self.store.enqueue(notice.game_id, wire.outgoing(Outcome([notice])), now=now)


def title_of(slug: str) -> str:
    """The game's title, or its slug when no such game is registered."""
    try:
        return engine_for(slug).title
    except UserError:
        return slug
