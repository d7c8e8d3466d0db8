"""The examples in each game's rules help work through a real host.

Every help module keeps the examples it writes in ``EXAMPLES`` (actions) and
``OPTION_EXAMPLES`` (``key=value`` options) and builds its text from them. The text is
checked against the lists (each example is in it, in backticks; no backticked action or
option in it is left out of them), then:

* a game opened with each option example is not refused;
* each action example, sent in a fresh seeded game by a player who is asked to act, is
  accepted or refused as a rule (:class:`UserError`), never as text the host cannot read
  (:class:`Unreadable`).
"""

from __future__ import annotations

import importlib
import random
import re
from types import ModuleType

import pytest

from bot.service.errors import Unreadable, UserError
from bot.service.host import GameHost
from bot.service.notices import ChannelPost
from bot.store.sqlite import SqliteStore
from engines.base import Game, UnreadableAction
from games import ENGINES
from tests.bot.clocks import TickingClock

SLUGS = sorted(ENGINES)
GUILD, CHANNEL = 1, 10
USERS = (101, 102, 103, 104, 105)
_CODE = re.compile(r"`([^`\n]+)`")
_OPTION = re.compile(r"^([a-z_]+)=[^\s<>]+$")


def package_of(game: Game, module: str) -> ModuleType:
    package = type(game).__module__.rsplit(".", 1)[0]
    return importlib.import_module(f"{package}.{module}")


def help_of(slug: str) -> ModuleType:
    return package_of(ENGINES[slug], "help")


def examples(slug: str) -> list[str]:
    return list(dict.fromkeys(help_of(slug).EXAMPLES))


def option_examples(slug: str) -> list[str]:
    return list(dict.fromkeys(help_of(slug).OPTION_EXAMPLES))


def cases(kind) -> list[tuple[str, str]]:
    return [(slug, example) for slug in SLUGS for example in kind(slug)]


@pytest.fixture
async def host(tmp_path):
    store = await SqliteStore.open(tmp_path / "games.sqlite3")
    yield GameHost(store, clock=TickingClock(), seeds=random.Random(11))
    await store.close()


async def open_game(host: GameHost, slug: str, options: str = "", players: int | None = None):
    """A lobby of ``slug`` opened by ``USERS[0]``; its id."""
    opened = await host.lobby.new_game(
        guild_id=GUILD,
        channel_id=CHANNEL,
        user_id=USERS[0],
        user_name="user0",
        slug=slug,
        players=players,
        options=options,
    )
    return next(n.game_id for n in opened.notices if isinstance(n, ChannelPost))


async def start_game(host: GameHost, slug: str, players: int, options: str = "") -> int:
    game_id = await open_game(host, slug, options, players)
    for number, user in enumerate(USERS[1:players], 1):
        await host.lobby.join(game_id=game_id, user_id=user, user_name=f"user{number}")
    await host.lobby.start(game_id=game_id, user_id=USERS[0])
    return game_id


@pytest.mark.parametrize("slug", SLUGS)
def test_the_help_text_is_built_from_its_examples(slug):
    """Each listed example is written in the help; every backticked action or option the
    help writes is listed (so none can be added to the text and missed here)."""
    game = ENGINES[slug]
    notation = package_of(game, "notation")
    text = game.rules_help()
    written = set(_CODE.findall(text))
    assert set(examples(slug)) <= written
    assert set(option_examples(slug)) <= written
    keys = {option.key for option in game.options}
    for code in written:
        option = _OPTION.match(code)
        if option and option.group(1) in keys and not code.endswith("=N"):
            assert code in option_examples(slug), f"{code} is not in OPTION_EXAMPLES"
            continue
        try:
            notation.read(code)
        except UnreadableAction:
            continue
        assert code in examples(slug), f"`{code}` reads as an action but is not in EXAMPLES"
    assert examples(slug), "the help shows how actions are written"


@pytest.mark.parametrize(("slug", "spelling"), cases(option_examples))
async def test_every_option_example_opens_a_game(host, slug, spelling):
    game_id = await open_game(host, slug, spelling)
    record = await host.store.get_game(game_id)
    assert record.options == ENGINES[slug].parse_options(spelling)


async def test_the_documented_magicians_spelling_seats_merridyds_and_galen(host):
    """`/game new game:dragonslayer options:magicians=merridyds,galen`."""
    assert "magicians=merridyds,galen" in option_examples("dragonslayer")
    game_id = await open_game(host, "dragonslayer", "magicians=merridyds,galen")
    await host.lobby.join(game_id=game_id, user_id=USERS[1], user_name="user1")
    await host.lobby.start(game_id=game_id, user_id=USERS[0])
    record = await host.store.get_game(game_id)
    assert record.status == "running"
    assert [seat.role for seat in sorted(record.seats, key=lambda s: s.seat)] == [
        "merridyds",
        "galen",
    ]


@pytest.mark.parametrize(("slug", "action"), cases(examples))
async def test_every_action_example_is_read_by_the_host(host, slug, action):
    """Sent by a player asked to act, at the smallest and the largest table, the example is
    played or refused by the rules, never as unreadable."""
    game = ENGINES[slug]
    for players in sorted({game.min_players, game.max_players}):
        game_id = await start_game(host, slug, players)
        table = await host.desk.table(game_id)
        users = {seat.seat: seat.user_id for seat in table.record.seats}
        asked = [users[prompt.seat] for prompt in table.prompts()]
        assert asked
        try:
            await host.turns.act(game_id=game_id, user_id=asked[0], action=action)
        except Unreadable as error:
            pytest.fail(f"{action!r} ({players} players) was refused as unreadable: {error}")
        except UserError:
            pass  # a well-formed action the rules refuse in this position


async def test_the_host_tells_unreadable_text_from_an_illegal_action(host):
    game_id = await start_game(host, "stgeorge", 2)
    with pytest.raises(Unreadable, match="Roll the die first"):
        await host.turns.act(game_id=game_id, user_id=USERS[0], action="hello")
    with pytest.raises(UserError, match="Roll the die first") as refused:
        await host.turns.act(game_id=game_id, user_id=USERS[0], action="G2-1d")
    assert not isinstance(refused.value, Unreadable)
