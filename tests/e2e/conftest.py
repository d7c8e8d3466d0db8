"""End-to-end tests: the real bot against SimCord's simulated Discord.

Every test runs twice, with the games kept in SQLite and in PostgreSQL.
``world`` gives a server with a #games channel and members alice, bob, carol and dave.
``restart`` replaces the bot with a brand-new one on the same database, as a new process
would after a crash or a deploy.
"""

import pytest

from bot import create_bot
from bot.settings import Settings
from tests.store.conftest import postgres_database


@pytest.fixture(params=["sqlite", "postgres"])
async def database(request, tmp_path):
    """Where the bot keeps its games, once for each store: an SQLite file, or a fresh
    PostgreSQL database (dropped afterwards)."""
    if request.param == "sqlite":
        yield str(tmp_path / "games.sqlite3")
        return
    async with postgres_database() as url:
        yield url


@pytest.fixture
def settings(database):
    return Settings(database=database, seed=1234, members_intent=True)


@pytest.fixture
async def bots(settings):
    """Every bot a test builds; their databases are closed when the test ends."""
    built = []
    yield built
    for bot in built:
        host = getattr(bot, "host", None)
        if host is not None:
            await host.store.close()


@pytest.fixture
def simcord_bot(settings, bots):
    bots.append(create_bot(settings))
    return bots[-1]


@pytest.fixture
async def world(simcord_env):
    """(guild, channel, {name: member}) for a fresh server."""
    guild = simcord_env.create_guild(name="Dragon Club")
    channel = guild.create_text_channel("games")
    users = {
        name: guild.add_member(simcord_env.create_user(name))
        for name in ("alice", "bob", "carol", "dave")
    }
    return guild, channel, users


@pytest.fixture
def restart(simcord_env, settings, bots):
    async def restart_bot():
        bots.append(create_bot(settings))
        await simcord_env.restart_bot(bots[-1])

    return restart_bot


STATUS = "📜"


def bot_posts(channel, viewer=None):
    """The bot's posts in ``channel`` that ``viewer`` can see, oldest first, leaving out
    the game's status message (edited in place, see ``status_messages``)."""
    return [
        m for m in channel.history(viewer=viewer)
        if m.author.bot and not m.content.startswith(STATUS)
    ]  # fmt: skip


def status_messages(channel):
    return [m for m in channel.history() if m.author.bot and m.content.startswith(STATUS)]


def texts(results):
    """Every message text of some InteractionResults (response and follow-ups)."""
    return [m.content for result in results for m in answered(result)]


def answered(result):
    """The messages an interaction answered with: its response and follow-ups. A click
    acknowledged silently (a deferred update) answers with follow-ups only; its
    "response" is the clicked message itself, which the click updates."""
    kind = getattr(result._interaction, "response_kind", None)
    quiet = getattr(kind, "value", kind) == "deferred_update"
    first = [] if quiet or result.response is None else [result.response]
    return [*first, *result.followups]
