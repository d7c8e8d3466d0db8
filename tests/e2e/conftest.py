"""End-to-end tests: the real bot against SimCord's simulated Discord.

Every test runs twice, with the games kept in SQLite and in PostgreSQL.
``world`` gives a server with a #games channel and members alice, bob, carol and dave.
``restart`` replaces the bot with a brand-new one on the same database, as a new process
would after a crash or a deploy.
"""

import asyncio
import re

import pytest
from simcord.components import walk_components
from simcord.env import Env

from bot import create_bot
from bot.settings import Settings
from tests.store.conftest import postgres_database


def pytest_configure(config):
    config.addinivalue_line("markers", "no_pages: the bot serves no web pages (test_web_pages)")
    config.addinivalue_line(
        "markers",
        "hang(seconds): what one action sets off may keep the bot busy this long before the"
        " test fails as hung (instead of HANG)",
    )


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
    return Settings(database=database, seed=1234, members_intent=True, paced=False)


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


HANG = 120.0
"""Seconds the bot may stay busy with what one action (or one ``advance_time``) set off
before the test fails as hung (a test marked ``hang(seconds)`` sets its own)."""

HORIZON = 1.0
"""SimCord's ``settle_timeout``, kept only as a horizon (see ``PatientEnv``): a task of the
bot sleeping longer than this in real time is idle, not work still to wait for. SimCord's 5 s
had each settle wait through the bot's one-second retry sleeps: the end-to-end tests took
three times as long."""


class PatientEnv(Env):
    """SimCord's environment, waiting for the bot's work however long the machine takes.

    SimCord's ``settle_timeout`` is two things: how far ahead a sleeping task of the bot
    still counts as work to wait for (a sleep ending later is parked), and how long that
    work may take before the settle fails. The first is ``HORIZON``; the second is
    stretched: a settle or an advance of the clock whose work is still running at its
    deadline (a replay drawn on two busy cores) goes on with a fresh deadline, until the
    work ends or ``HANG`` has passed. Both resume where they stopped: a settle only waits,
    and an advance moves the clock on from where it reached.
    """

    hang = HANG

    async def _settle_internal(self, **options):
        started = asyncio.get_running_loop().time()
        while True:
            try:
                return await super()._settle_internal(**options)
            except TimeoutError:
                if asyncio.get_running_loop().time() - started > self.hang:
                    raise
                # a deadline of an advance, already passed: the advance itself goes on
                options["_deadline"] = None

    async def _advance_to(self, target, deadline):
        loop = asyncio.get_running_loop()
        started = loop.time()
        while True:
            try:
                return await super()._advance_to(target, deadline)
            except TimeoutError:
                if loop.time() - started > self.hang:
                    raise
                deadline = loop.time() + self.settle_timeout


@pytest.fixture
async def simcord_env(simcord_bot, request):
    """As SimCord's pytest plugin builds it (a test's ``simcord`` marker gives options), but
    a ``PatientEnv``."""
    marker = request.node.get_closest_marker("simcord")
    options = {"settle_timeout": HORIZON, **(marker.kwargs if marker else {})}
    env = PatientEnv(simcord_bot, **options)
    if (hang := request.node.get_closest_marker("hang")) is not None:
        env.hang = hang.args[0]
    await env.start()
    try:
        yield env
    finally:
        await env.shutdown()
        if env.check_errors:
            env._raise_errors_since(env._errors_acknowledged)


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


TEXT_DISPLAY, CONTROLS = 10, {2, 3, 5, 6, 7, 8}
"""Discord's component types: a card's text, and the buttons and menus a player uses."""


def components_of(message) -> list[dict]:
    """Every component of a message, nested ones too (a card's container holds its
    text, picture and rows), as Discord sends them: a message's objects or a response's
    dicts."""
    roots = [c if isinstance(c, dict) else c.to_dict() for c in message.components]
    return list(walk_components(roots))


def text_of(message) -> str:
    """What a message says: its text, or a card's text displays, a line apart."""
    if message.content:
        return message.content
    found = [c["content"] for c in components_of(message) if c.get("type") == TEXT_DISPLAY]
    return "\n".join(found)


def is_card(message) -> bool:
    """Whether a message is a card (Components V2): no content, a container of parts."""
    return bool(message.flags.components_v2)


def bot_posts(channel, viewer=None):
    """The bot's posts in ``channel`` that ``viewer`` can see, oldest first, leaving out
    the game's status message (edited in place, see ``status_messages``)."""
    return [
        m for m in channel.history(viewer=viewer)
        if m.author.bot and not text_of(m).startswith(STATUS)
    ]  # fmt: skip


def status_messages(channel):
    return [m for m in channel.history() if m.author.bot and text_of(m).startswith(STATUS)]


def texts(results):
    """Every message text of some InteractionResults (response and follow-ups)."""
    return [text_of(m) for result in results for m in answered(result)]


def answered(result):
    """The messages an interaction answered with: its response and follow-ups. A click
    acknowledged silently (a deferred update) answers with follow-ups only; its
    "response" is the clicked message itself, which the click updates."""
    kind = getattr(result._interaction, "response_kind", None)
    quiet = getattr(kind, "value", kind) == "deferred_update"
    first = [] if quiet or result.response is None else [result.response]
    return [*first, *result.followups]


PLACE_LABEL = re.compile(r"^[A-Z]{1,2} · ")
"""The label of a place on a picture, leading a control's label in a second step."""


def without_place(label: str) -> str:
    """A control's label without the label of its place (``A · G1 → 3c`` → ``G1 → 3c``)."""
    return PLACE_LABEL.sub("", label)


async def play_move(member, message, label):
    """Play the move labelled ``label`` (the engine's words) from ``message`` as a player
    does: its own button, else through the piece's places (a button, or the menu of
    pieces) and the labelled step that opens privately. Returns the last click's result."""
    for item in controls_in(message):
        if part(item, "label") and without_place(part(item, "label")) == label:
            return await member.click(message, custom_id=part(item, "custom_id"))
        for option in part(item, "options") or []:
            if without_place(part(option, "label")) == label:
                value, custom_id = part(option, "value"), part(item, "custom_id")
                return await member.select(message, [value], custom_id=custom_id)
    for item in controls_in(message):
        custom_id = part(item, "custom_id") or ""
        if custom_id.startswith("dh:p:"):
            step = (await member.click(message, custom_id=custom_id)).response.message
            return await play_move(member, step, label)
        if custom_id.startswith("dh:g:"):
            for option in part(item, "options"):
                value = part(option, "value")
                step = (await member.select(message, [value], custom_id=custom_id)).response.message
                if any(without_place(found) == label for found in control_labels(step)):
                    return await play_move(member, step, label)
    raise AssertionError(f"no control plays {label!r}: {control_labels(message)}")


def controls_in(message) -> list[dict]:
    """A message's buttons and menus, wherever they sit (in a card's container too)."""
    return [c for c in components_of(message) if c.get("type") in CONTROLS]


def part(item, name):
    """A control's (or a menu option's) field, whether it is an object or a dict."""
    return item.get(name) if isinstance(item, dict) else getattr(item, name, None)


def control_labels(message) -> list[str]:
    found = []
    for item in controls_in(message):
        found += [part(item, "label")] if part(item, "label") else []
        found += [part(o, "label") for o in part(item, "options") or []]
    return found
