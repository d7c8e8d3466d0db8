"""A game that fails spoils only itself: its firing is retried with growing pauses and set
aside after repeated failures; a row that cannot be read is left out of listings and the
turn clock. Listings read once; computer turns of different games run side by side."""

import asyncio
import logging
import random
import threading

import pytest

from bot.service.errors import UserError
from bot.service.host import GameHost
from bot.service.notices import PrivateMessage
from bot.service.play import computers
from bot.service.timekeeping import clock as turn_clock
from bot.store.postgres import PostgresStore
from tests.bot.test_host import ALICE, BOB, CHANNEL, GUILD
from tests.toy_game import toy_renderer

HANG_GUARD = 60.0
"""Seconds a wait may last before the test fails: only a guard against a hang."""


@pytest.fixture
async def host(store, toy, clock):
    return GameHost(store, renderer=toy_renderer, clock=clock, seeds=random.Random(3))


async def toy_games(host, count):
    games = []
    for index in range(count):
        opened = await host.lobby.new_game(
            guild_id=GUILD, channel_id=CHANNEL + index, user_id=ALICE, user_name="a", slug="toy"
        )
        game = opened.notices[-1].game_id
        await host.lobby.join(game_id=game, user_id=BOB, user_name="b")
        await host.lobby.start(game_id=game, user_id=ALICE)
        games.append(game)
    return games


async def damage(store, game, snapshot="{broken"):
    """Write ``snapshot`` into the game's row behind the store's back (through its own
    connection, whichever database it is)."""
    if isinstance(store, PostgresStore):
        await store._pool.execute("UPDATE games SET snapshot = $1 WHERE id = $2", snapshot, game)
    else:
        await store._db.execute("UPDATE games SET snapshot = ? WHERE id = ?", (snapshot, game))


def break_engine_load(monkeypatch, toy, game_seed):
    """The toy engine fails to load the snapshot of the game with seed ``game_seed``."""
    load = toy.load

    def failing(data):
        if data.get("broken"):
            raise ValueError("bad snapshot format")
        return load(data)

    monkeypatch.setattr(toy, "load", failing)


async def test_a_failing_game_is_retried_with_backoff_then_set_aside(
    host, store, clock, toy, monkeypatch, caplog
):
    bad, good = await toy_games(host, 2)
    record = await store.get_game(bad)
    await store.update_game(bad, record.version, now=clock.now, snapshot={"broken": True})
    break_engine_load(monkeypatch, toy, record.seed)
    clock.now += 48 * 3600
    caplog.set_level(logging.DEBUG, logger="bot.service.timekeeping.clock")
    first = await host.turn_clock.fire_due()
    assert [a.action for a in await store.actions(good)][-1] == "!skip", "the others go on"
    assert all(n.game_id == good for n in first.notices)
    failures = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(failures) == 1 and f"game {bad}" in failures[0].getMessage()
    assert (await host.turn_clock.fire_due()).notices == [], "held back: not tried again at once"
    assert await host.turn_clock.next_wakeup() == clock.now + turn_clock.BACKOFF[0]
    told = []
    for pause in turn_clock.BACKOFF[: turn_clock.MAX_FAILURES - 1]:
        clock.now += pause
        told += (await host.turn_clock.fire_due()).notices
    assert len([r for r in caplog.records if r.levelno >= logging.ERROR]) == 1, "logged once"
    record = await store.get_game(bad)
    assert record.status == "paused" and record.deadline is None
    [message] = told
    assert isinstance(message, PrivateMessage) and message.user_id == ALICE
    assert "is paused" in message.text and f"/game resume game:{bad}" in message.text
    pending = await store.pending_notices(lanes=[f"u{ALICE}"])
    assert any("is paused" in str(e.body) for e in pending), "sent through the outbox"
    assert (await host.turn_clock.next_wakeup()) == (await store.get_game(good)).remind_at


async def test_an_unreadable_row_spoils_only_itself(host, store, clock, tmp_path):
    bad, good = await toy_games(host, 2)
    await damage(store, bad)
    listing = (await host.listings.list_games(guild_id=GUILD)).text
    assert f"#{good} Toy Game" in listing
    assert "your turn" in (await host.listings.mine(guild_id=GUILD, user_id=ALICE)).text
    assert [n for n, _ in await host.listings.game_choices(guild_id=GUILD)] == [good]
    with pytest.raises(UserError, match=f"Game #{bad} cannot be read"):
        await host.desk.find(game_id=bad)
    with pytest.raises(UserError, match=f"Game #{bad} cannot be read"):
        await host.turns.act(game_id=bad, user_id=ALICE, action="pick 1")
    assert await host.turn_clock.next_wakeup() == (await store.get_game(good)).remind_at
    clock.now += 48 * 3600
    await host.turn_clock.fire_due()
    assert [a.action for a in await store.actions(good)][-1] == "!skip"
    assert [r.id for r in await store.due(clock.now + 10**9)] == [good]


async def test_a_game_the_engine_cannot_load_is_listed_as_unreadable(
    host, store, clock, toy, monkeypatch
):
    bad, good = await toy_games(host, 2)
    record = await store.get_game(bad)
    await store.update_game(bad, record.version, now=clock.now, snapshot={"broken": True})
    break_engine_load(monkeypatch, toy, record.seed)
    listing = (await host.listings.list_games(guild_id=GUILD)).text
    assert f"#{bad} Toy Game" in listing and "cannot be read" in listing
    assert f"#{good} Toy Game" in listing
    with pytest.raises(UserError, match=f"Game #{bad} cannot be read"):
        await host.desk.table(bad)


async def test_listings_and_the_due_firing_read_the_games_once(host, store, clock, monkeypatch):
    await toy_games(host, 6)
    reads = []
    get_game = store.get_game

    async def counted(game_id):
        reads.append(game_id)
        return await get_game(game_id)

    monkeypatch.setattr(store, "get_game", counted)
    await host.listings.list_games(guild_id=GUILD)
    await host.listings.mine(guild_id=GUILD, user_id=ALICE)
    await host.turns.hand(guild_id=GUILD, user_id=ALICE)
    assert reads == [], "tables built from the records the listing returned"
    clock.now += 36 * 3600
    reminded = await host.turn_clock.fire_due()
    assert len(reminded.notices) == 12 and reads == [], "both players of six games"


async def test_computer_turns_of_different_games_think_side_by_side(store, monkeypatch):
    host = GameHost(store, clock=lambda: 2_000_000_000.0, seeds=random.Random(9))
    host.computer_delay = 0.0
    games = []
    for index in range(4):
        opened = await host.lobby.new_game(
            guild_id=GUILD, channel_id=CHANNEL + index, user_id=ALICE, user_name="a",
            slug="lions-dragons", role="black",
        )  # fmt: skip
        game = opened.notices[-1].game_id
        await host.lobby.add_computer(game_id=game, user_id=ALICE, level="easy", role="white")
        await host.lobby.start(game_id=game, user_id=ALICE)
        games.append(game)
    thinking, most, guard = set(), 0, threading.Lock()
    # Each computer waits until all four are thinking, however slowly the machine starts
    # them; computers thinking one after another never all arrive, and the wait fails.
    all_four, met = threading.Barrier(4), threading.Event()
    decide = computers.decide

    def slow(game, state, seat, level, rng):
        nonlocal most
        key = object()
        with guard:
            thinking.add(key)
            most = max(most, len(thinking))
        try:
            if not met.is_set():
                all_four.wait(timeout=HANG_GUARD)
                met.set()
            return decide(game, state, seat, level, rng)
        finally:
            with guard:
                thinking.discard(key)

    monkeypatch.setattr(computers, "decide", slow)
    delivered = []

    async def deliver(outcome):
        delivered.append([n.game_id for n in outcome.notices])

    scheduler = host.new_scheduler(deliver, clock=host.clock, concurrency=4)
    scheduler.start()
    await asyncio.wait_for(scheduler.ready.wait(), HANG_GUARD)
    await scheduler.stop()
    assert most == 4, "the four games' computers thought at once"
    assert sorted(d[0] for d in delivered) == games, "each game delivered on its own"
    for game in games:
        assert len(await store.actions(game)) == 1
