"""Each game's page on the web: what it shows, its boards, who follows it live, and the
commands that give, renew or switch off its address.

A page is found by its token alone (a random string kept with the game, never its
number), and built from the public view and the public events only, like a channel post:
the seats, who is to act and until when, the moves by turn, the result, and every position
of the game as a board to step through. A server that switched pages off has no tokens, so
none of its games has a page.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Unpack

from bot.service.boards.alt_text import board_alt
from bot.service.boards.drawing import Drawing
from bot.service.community.watchers import status_update
from bot.service.desk import Desk, Where
from bot.service.errors import UserError
from bot.service.history.story import Story, Walker, seat_name, told, turn_called, turn_word
from bot.service.notices import Board, Outcome, Reply
from bot.service.tables import STATUS_TEXTS, Table, UnreadableGame, level_word
from bot.service.text import Text, WebLink, said, said_plural
from bot.store import ActionRecord, GameRecord, GuildStore, PageStore
from engines.base import Game

TOKEN_BYTES = 18
"""Random bytes in a page token (24 characters): never guessed, never met twice."""
STORIES_KEPT = 64
"""Stories (a game's every position's public view, as of one version) kept, and as many
pages; successive versions of a game share their entries."""
WALKERS_KEPT = 64
"""Games whose walk is kept where it stopped, to walk on when the game moves on."""
WALKS = 2
"""Games whose story is walked at once (each walk replays a whole game in a thread)."""
POLL = 15.0
"""Seconds between looks at the followed games' versions when nothing rang, in the bot's
own process: its writes ring the doorbell, and a cluster's other processes wake it
(``Follows.poke``); this only catches a write that rang nothing."""
POLL_ALONE = 1.0
"""The same for pages served by a process of their own (``python -m bot web``), which no
write rings: another process's moves are seen this late at most."""
SETTING = "pages"
"""The server setting that switches its pages off (``"off"``) or on (anything else)."""


def new_token() -> str:
    """A fresh page token."""
    return secrets.token_urlsafe(TOKEN_BYTES)


async def token_for_new_game(store: GuildStore, guild_id: int) -> str | None:
    """The page token a new game of the server is opened with (None: its pages are off)."""
    return None if await store.guild_setting(guild_id, SETTING) == "off" else new_token()


@dataclass(frozen=True)
class Seat:
    """A seat as a page shows it."""

    role: str
    player: str | Text  # the player's name, "a computer (strong)", or "" for an open seat
    to_act: bool
    left: bool


@dataclass(frozen=True)
class Position:
    """One board of the replay: the start (index 0), or the board after a logged action."""

    index: int
    turn: int
    caption: Text  # what led to it, in Markdown (bold, code)
    alt: Text  # the board in words, from the public view


@dataclass(frozen=True)
class Move:
    """One logged action, as the history tells it, and the position it led to."""

    turn: int
    seat: str  # "Role (player)"
    said: Text  # Markdown (bold, code)
    position: int


@dataclass(frozen=True)
class GamePage:
    """Everything a game's page shows, as of one version of the game."""

    token: str
    number: int
    guild_id: int  # the game's server, whose language the page is written in
    title: str  # "St. George and the Dragon #12"
    slug: str
    version: int
    status: str  # lobby, running, paused, finished, cancelled
    status_words: Text  # "in play", "finished", ...
    seats: tuple[Seat, ...]
    deadline: float | None  # when the turn ends (None: no limit, or not running)
    result: str | None
    turn_word: Text  # "turn", or "round"
    turn: int  # the turn it is on or ended in (0 before it starts)
    positions: tuple[Position, ...]
    moves: tuple[Move, ...]

    @property
    def latest(self) -> int:
        """The index of the newest position (-1 when the game has not started)."""
        return len(self.positions) - 1

    @property
    def to_act(self) -> tuple[Seat, ...]:
        return tuple(s for s in self.seats if s.to_act)


class Pages:
    """Game pages: built from the stored game and its log, pictures drawn by the host's
    drawing (its cache, or its picture workers), never on the event loop."""

    def __init__(self, desk: Desk, drawing: Drawing) -> None:
        self._desk = desk
        self._drawing = drawing
        self._stories: OrderedDict[tuple[int, int], Story] = OrderedDict()
        self._pages: OrderedDict[tuple[int, int], GamePage] = OrderedDict()
        self._walking: dict[int, asyncio.Future[None]] = {}
        self._walkers: OrderedDict[int, Walker] = OrderedDict()
        self._walks = asyncio.Semaphore(WALKS)
        self.follows = Follows(desk.store)
        desk.doorbell.on_notices_stored(self.follows.poke)

    # -- what a page shows --------------------------------------------------------------

    async def page(self, token: str) -> GamePage | None:
        """The page of the game with ``token``; None when no game has that token (never
        one, replaced, or its server switched pages off) or the game cannot be read."""
        table = await self._table(token)
        if table is None:
            return None
        key = (table.record.id, table.record.version)
        page = self._pages.get(key)
        if page is None or page.token != token:
            page = _page_of(table, await self._story(table))
            self._pages[key] = page
            while len(self._pages) > STORIES_KEPT:
                self._pages.popitem(last=False)
        self._pages.move_to_end(key)
        return page

    async def picture(self, token: str, index: int) -> bytes | None:
        """The PNG of position ``index`` of the game's replay (0: the start); None when
        there is no such page or position, or this host draws no pictures."""
        table = await self._table(token)
        if table is None or table.state is None:
            return None
        story = await self._story(table)
        assert story is not None  # the game has started
        views = [story.start, *(e.view for e in story.entries)]
        view = views[index] if 0 <= index < len(views) else None
        if view is None:
            return None
        return await self._drawing.draw(Board(table.engine.slug, view, table.record.data))

    async def _table(self, token: str) -> Table | None:
        try:
            record = await self._desk.store.game_by_page(token)
        except ValueError:  # its stored JSON is damaged
            return None
        if record is None:
            return None
        try:
            return self._desk.loaded(record)
        except UnreadableGame:
            return None

    async def _story(self, table: Table) -> Story | None:
        """The game walked with every position's public view, as of the table's version:
        walked on from where its last walk stopped (a game followed move by move is
        replayed once), one walk of a game at a time however many ask, at most ``WALKS``
        games at a time, the last ``STORIES_KEPT`` stories kept."""
        if table.state is None:
            return None
        game_id = table.record.id
        key = (game_id, table.record.version)
        while (story := self._stories.get(key)) is None:
            walking = self._walking.get(game_id)
            if walking is None:
                walking = asyncio.ensure_future(self._walk(table))
                self._walking[game_id] = walking
                walking.add_done_callback(lambda _: self._walking.pop(game_id, None))
            # (a walk of an older version is waited for, then this version is walked on)
            await asyncio.shield(walking)
        self._stories.move_to_end(key)
        return story

    async def _walk(self, table: Table) -> None:
        record = table.record
        async with self._walks:
            actions = await self._desk.store.actions(record.id)
            kept = self._walkers.pop(record.id, None)
            walker, story = await asyncio.to_thread(_walked_on, kept, table.engine, record, actions)
        self._walkers[record.id] = walker
        while len(self._walkers) > WALKERS_KEPT:
            self._walkers.popitem(last=False)
        self._stories[(record.id, record.version)] = story
        while len(self._stories) > STORIES_KEPT:
            self._stories.popitem(last=False)

    # -- addresses ----------------------------------------------------------------------

    async def address(
        self, *, user_id: int, renew: bool = False, **where: Unpack[Where]
    ) -> Outcome:
        """The game's page address, for the asker; with ``renew``, its host gives the game
        a new address and the old one stops working."""
        table = await self._desk.find(user_id=user_id, **where)
        record = table.record
        if self._desk.web_url is None:
            raise UserError(
                said(
                    "This bot serves no web pages: its admin sets `WEB_PORT` (and `WEB_URL` "
                    'behind a proxy) to serve them; README, "Game pages on the web", says how.'
                )
            )
        if record.page is None:
            raise UserError(
                said(
                    "{game} has no web page: pages are switched off on this server "
                    "(`/server defaults pages:True` switches them on).",
                    game=table.title,
                )
            )
        if not renew:
            url = self._url(record)
            return Outcome(
                [Reply("🌐 " + said("{game} on the web: {url}", game=table.title, url=url))]
            )
        if user_id != record.host_id:
            raise UserError(
                said("Only the host of {game} can give it a new address.", game=table.title)
            )
        await self._desk.store.set_page(record.id, new_token())
        await self._retell([record])
        table = await self._desk.table(record.id)
        renewed = said(
            "{game} has a new address; the old one no longer works: {url}",
            game=table.title,
            url=self._url(table.record),
        )
        return Outcome([Reply("🌐 " + renewed)])

    async def switch(self, *, guild_id: int, on: bool, **_: object) -> Reply:
        """Switch the server's game pages on (every game gets a new address) or off (every
        address stops working at once, and new games get none)."""
        store = self._desk.store
        await store.set_guild_setting(guild_id, SETTING, "on" if on else "off")
        games = await store.games(guild_id=guild_id, active_only=False, limit=100_000)
        if not on:
            gone = await store.clear_pages(guild_id)
            await self._retell(games)
            off = said_plural(
                "Game pages are off on this server: {count} game is no longer shown on the "
                "web, and new games get no page.",
                "Game pages are off on this server: {count} games are no longer shown on the "
                "web, and new games get no page.",
                gone,
            )
            return Reply("🌐 " + off, private=False)
        given = [g for g in games if g.page is None]
        for record in given:
            await store.set_page(record.id, new_token())
        await self._retell(given)
        return Reply("🌐 " + self._pages_on(len(given)), private=False)

    def _pages_on(self, given: int) -> Text:
        """What switching pages on says: how many games got an address, and whether this
        bot serves them yet."""
        if self._desk.web_url:
            return said_plural(
                "Game pages are on on this server: {count} game got a new address, shown "
                "with `/game page` and in each status message.",
                "Game pages are on on this server: {count} games got a new address, shown "
                "with `/game page` and in each status message.",
                given,
            )
        return said_plural(
            "Game pages are on on this server (this bot serves pages once `WEB_URL` is set): "
            "{count} game got a new address, shown with `/game page` and in each status "
            "message.",
            "Game pages are on on this server (this bot serves pages once `WEB_URL` is set): "
            "{count} games got a new address, shown with `/game page` and in each status "
            "message.",
            given,
        )

    async def _retell(self, records: list[GameRecord]) -> None:
        """Update the status messages of those games still being played, so each shows
        its page's address as it is now (or none)."""
        for record in records:
            if record.status not in ("running", "paused"):
                continue
            table = await self._desk.table(record.id)
            outcome = Outcome([await status_update(self._desk, table)])
            await self._desk.stored(
                outcome, self._desk.store.enqueue, record.id, now=self._desk.clock()
            )

    def _url(self, record: GameRecord) -> WebLink:
        url = self._desk.page_url(record)
        assert url is not None  # checked by the caller
        return WebLink(url)


class Follows:
    """Which followed games moved on, from one read of all their versions at a time: a
    poke (a write of this process, or a cluster's wake-up) looks at once, else every
    ``poll`` seconds."""

    def __init__(self, store: PageStore, poll: float = POLL) -> None:
        self._store = store
        self.poll = poll
        self._waiting: dict[int, dict[asyncio.Future[int], int]] = {}
        self._rung = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    @property
    def followed(self) -> int:
        """How many games are followed now."""
        return len(self._waiting)

    def poke(self) -> None:
        if self._waiting:
            self._rung.set()

    async def moved(self, game_id: int, seen: int) -> int:
        """Wait until game ``game_id`` is at a version other than ``seen`` (or gone: -1)."""
        future: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        self._waiting.setdefault(game_id, {})[future] = seen
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._watch(), name="web page follows")
        try:
            return await future
        finally:
            waiting = self._waiting.get(game_id, {})
            waiting.pop(future, None)
            if not waiting:
                self._waiting.pop(game_id, None)

    async def _watch(self) -> None:
        while self._waiting:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._rung.wait(), self.poll)
            self._rung.clear()
            ids = list(self._waiting)
            if not ids:
                break
            versions = await self._store.versions(ids)
            for game_id in ids:
                now = versions.get(game_id, -1)
                for future, seen in list(self._waiting.get(game_id, {}).items()):
                    if now != seen and not future.done():
                        future.set_result(now)


def _walked_on(
    walker: Walker | None, engine: Game[Any], record: GameRecord, actions: list[ActionRecord]
) -> tuple[Walker, Story]:
    """``walker`` (a new one when None) walked on through ``actions``, and its story."""
    if walker is None:
        walker = Walker(engine, record, every_view=True)
    walker.walk_on(actions)
    return walker, walker.story()


def _page_of(table: Table, story: Story | None) -> GamePage:
    record = table.record
    asked = {p.seat for p in table.prompts()} if record.status == "running" else set()
    seats = tuple(
        Seat(role.name, _player(record, index), index in asked, record.has_left(index))
        for index, role in enumerate(table.roles())
    )
    positions: list[Position] = []
    moves: list[Move] = []
    if story is not None:
        slug, data = table.engine.slug, record.data
        start = board_alt(Board(slug, story.start, data))
        positions.append(Position(0, 1, said("The start"), start))
        for index, entry in enumerate(story.entries, 1):
            who = seat_name(table, entry.seat)
            text = told(entry)
            assert entry.view is not None  # walked with every view
            alt = board_alt(Board(slug, entry.view, data))
            caption = Text.of(turn_called(story.word, entry.turn), f" · {who}: ", text)
            positions.append(Position(index, entry.turn, caption, alt))
            moves.append(Move(entry.turn, who, text, index))
    return GamePage(
        token=record.page or "",
        number=record.id,
        guild_id=record.guild_id,
        title=table.title,
        slug=table.engine.slug,
        version=record.version,
        status=record.status,
        status_words=STATUS_TEXTS[record.status],
        seats=seats,
        deadline=record.deadline if record.status == "running" else None,
        result=record.result,
        turn_word=turn_word(table.engine.turn_name),
        turn=story.turns if story is not None else 0,
        positions=tuple(positions),
        moves=tuple(moves),
    )


def _player(record: GameRecord, seat: int) -> str | Text:
    level = record.computer_at(seat)
    if level is not None:
        return said("a computer ({level})", level=level_word(level))
    return next((s.name for s in record.seats if s.seat == seat), "")
