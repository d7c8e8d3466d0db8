import random

import pytest

from bot.service.host import GameHost
from bot.store.sqlite import SqliteStore
from games import SPECS, GameSpec
from players.base import EASY
from tests.toy_game import GAME as TOY
from tests.toy_game import toy_renderer


@pytest.fixture
def toy(monkeypatch):
    monkeypatch.setitem(SPECS, "toy", GameSpec(TOY, lambda view: toy_renderer("toy", view), EASY))
    return TOY


@pytest.fixture
async def store(tmp_path):
    store = await SqliteStore.open(tmp_path / "games.sqlite3")
    yield store
    await store.close()


@pytest.fixture
async def host(store, toy):
    return GameHost(store, renderer=toy_renderer, clock=_Clock(), seeds=random.Random(7))


class _Clock:
    def __init__(self):
        self.now = 1_000_000.0

    def __call__(self):
        self.now += 1
        return self.now
