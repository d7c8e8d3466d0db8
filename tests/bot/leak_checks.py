"""Shared machinery of the differential leak tests: games hosted with a stand-in renderer,
copies of a whole database at the same version, and what one user can observe.

A leak test plays a seeded game, and whenever a secret could have been different, keeps a
copy of the game in which it is. Until the rules reveal that secret, everything the other
users can observe must be the same in both.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable
from typing import Any

from bot.service.host import GameHost
from bot.service.notices import ChannelPost, Outcome, PrivateMessage
from bot.service.text import Moment, as_text
from bot.store.sqlite import SqliteStore
from engines.base import Game
from tests.bot.clocks import TickingClock

GUILD, CHANNEL = 1, 10
USERS = (101, 102, 103, 104)
NAMES = ("alice", "bob", "carol", "dave")


class ViewPicture:
    """A stand-in renderer whose "picture" is the view it was given, as JSON bytes."""

    def __init__(self, slug: str) -> None:
        self.slug = slug

    def __call__(self, slug: str, view: dict) -> bytes:
        assert slug == self.slug
        return json.dumps(view, sort_keys=True).encode()


class Stores:
    """In-memory stores opened by a test, all closed at its end even if it fails."""

    def __init__(self) -> None:
        self.open: list[SqliteStore] = []

    async def new(self) -> SqliteStore:
        store = await SqliteStore.open(":memory:")
        self.open.append(store)
        return store

    async def close(self, host: GameHost) -> None:
        self.open.remove(host.store)
        await host.store.close()

    async def close_all(self) -> None:
        while self.open:
            await self.open.pop().close()


def new_host(store: SqliteStore, slug: str) -> GameHost:
    return GameHost(store, renderer=ViewPicture(slug), clock=TickingClock(), seeds=random.Random(3))


async def open_game(
    stores: Stores, slug: str, players: int, options: str = ""
) -> tuple[GameHost, int]:
    """A started game of ``slug`` with ``players`` of USERS seated in order."""
    host = new_host(await stores.new(), slug)
    opened = await host.lobby.new_game(
        guild_id=GUILD,
        channel_id=CHANNEL,
        user_id=USERS[0],
        user_name=NAMES[0],
        slug=slug,
        players=players,
        options=options,
    )
    game_id = next(n.game_id for n in opened.notices if isinstance(n, ChannelPost))
    for user, name in zip(USERS[1:players], NAMES[1:players], strict=True):
        await host.lobby.join(game_id=game_id, user_id=user, user_name=name)
    await host.lobby.start(game_id=game_id, user_id=USERS[0])
    return host, game_id


async def fork(stores: Stores, host: GameHost, slug: str) -> GameHost:
    """An independent copy of the host's whole database, at the same game versions."""
    store = await stores.new()
    await host.store._db.backup(store._db)
    return new_host(store, slug)


async def edit_snapshot(host: GameHost, game_id: int, change: Callable[[Any], None]) -> None:
    """Apply ``change`` to the stored game state in place, keeping its version (the host
    forgets the state it had loaded for that version)."""
    host.desk.states.forget(game_id)
    record = await host.store.get_game(game_id)
    snapshot = copy.deepcopy(record.snapshot)
    change(snapshot)
    text = json.dumps(snapshot)
    if hasattr(host.store, "_pool"):  # PostgreSQL
        async with host.store._pool.acquire() as connection:
            await connection.execute("UPDATE games SET snapshot = $1 WHERE id = $2", text, game_id)
        return
    async with host.store._db.execute(
        "UPDATE games SET snapshot = ? WHERE id = ?", (text, game_id)
    ):
        pass


async def observed(
    host: GameHost, game_id: int, outcome: Outcome, users: list[int], holder: int | None
) -> dict:
    """What everyone but ``holder`` can observe after an action: its channel posts, their
    private messages and controls, and ``/game status`` (text and picture) at any time."""
    # The posts of the action first, then any passed turn's post it takes controls off.
    made = [n for n in outcome.notices if isinstance(n, ChannelPost)]
    posts = [
        (n.text, n.board, n.mentions, n.controls) for n in sorted(made, key=lambda n: n.passed)
    ]
    private = [
        (n.user_id, n.text, n.controls, n.boards)
        for n in outcome.notices
        if isinstance(n, PrivateMessage) and n.user_id != holder
    ]
    controls = {
        user: await host.turns.controls_for(game_id=game_id, user_id=user)
        for user in users
        if user != holder
    }
    status = await host.listings.status(game_id=game_id)
    # The turn's deadline is read off each host's own ticking clock (a twin's differs),
    # wherever it stands in the text (a message's place too).
    timeless = as_text(status.text).render(
        lambda part: "" if isinstance(part, Moment) else repr(part)
    )
    return {
        "posts": posts,
        "private": private,
        "controls": controls,
        "status": (timeless, status.board),
    }


async def state_of(host: GameHost, game_id: int):
    return (await host.desk.table(game_id)).state


async def everyone_asked(host: GameHost, game_id: int, users: list[int]) -> list:
    """``(user, controls)`` for every decision offered now, checked to be the user's own."""
    asked = []
    for user in users:
        for control in await host.turns.controls_for(game_id=game_id, user_id=user):
            seats = (await host.desk.table(game_id)).record.seat_of(user)
            assert control.prompt.seat in seats, "controls for another user's seat"
            asked.append((user, control))
    return asked


def check_public_parts(
    game: Game,
    state: Any,
    outcome: Outcome,
    seat_only: set[str],
    said_privately: set[str],
    sentences: Callable[[str], list[str]],
    still_secret: Callable[[str], bool] = lambda sentence: True,
) -> dict:
    """The direct checks on one action's notices; returns the public view.

    Each channel picture is the public view as the game now stands; each seat's view adds
    only ``seat_only`` keys to it; no sentence ever said privately (``sentences`` splits a
    seat's private text) appears in a channel post while ``still_secret`` says it is.
    """
    public = game.view(state, None)
    assert not seat_only & set(public)
    for seat in range(len(state["roles"])):
        mine = game.view(state, seat)
        assert {k: v for k, v in mine.items() if k not in seat_only} == public
        said_privately.update(sentences(mine["private"]))
    for notice in outcome.notices:
        if isinstance(notice, PrivateMessage) and not notice.controls:
            said_privately.update(notice.text.splitlines())
    for notice in outcome.notices:
        if not isinstance(notice, ChannelPost):
            continue
        if notice.board is not None:
            assert json.loads(json.dumps(notice.board.view)) == json.loads(json.dumps(public))
        for sentence in said_privately:
            if still_secret(sentence):
                assert sentence not in notice.text, (sentence, notice.text)
    return public
