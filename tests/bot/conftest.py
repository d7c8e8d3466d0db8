import random

import pytest

from bot.service.host import GameHost
from games import SPECS, GameSpec
from players.base import EASY
from tests.bot.clocks import Clock, TickingClock
from tests.store.conftest import STORES
from tests.toy_game import GAME as TOY
from tests.toy_game import toy_renderer


@pytest.fixture
def toy(monkeypatch):
    monkeypatch.setitem(SPECS, "toy", GameSpec(TOY, lambda view: toy_renderer("toy", view), EASY))
    return TOY


@pytest.fixture(params=sorted(STORES))
async def open_store(request, tmp_path):
    """Opens a store on this test's own database, once for each store in ``STORES`` (so
    every host test runs against SQLite and PostgreSQL); every store opened is closed."""
    opened = []
    async with STORES[request.param](tmp_path) as opener:

        async def open_tracked():
            store = await opener()
            opened.append(store)
            return store

        yield open_tracked
        for store in opened:
            await store.close()


@pytest.fixture
async def store(open_store):
    return await open_store()


@pytest.fixture
def clock():
    """The time as a host test sets it: it stands still until ``clock.now`` is moved."""
    return Clock()


@pytest.fixture
async def host(store, toy):
    return GameHost(store, renderer=toy_renderer, clock=TickingClock(), seeds=random.Random(7))
