"""No log line, at any level and from any library, carries a secret.

Seeded Dragon's Cave and Dragonslayer games are played through the host with the root
logger and every library's logger at DEBUG, and every record is kept (its formatted message
and its arguments). After each action the secrets are read from the engine state: every
value some seat's ``observe`` hides (Dragon's Cave cards played face down, the Dragon's lair
square, coin splits; Dragonslayer King's men strengths and face-down tiles), with the secret
answer just given. None of them may appear in a record of that action.
"""

from __future__ import annotations

import json
import logging
import random
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from bot import logs
from games import ENGINES
from tests.bot import leak_checks
from tests.bot.leak_checks import USERS, Stores, everyone_asked, state_of
from tests.games_tables import unlisted

STORES = Stores()


@pytest.fixture(autouse=True)
async def close_stores():
    yield
    await STORES.close_all()


class Keep(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        text = logging.Formatter("%(name)s %(levelname)s %(message)s").format(record)
        self.lines.append(f"{text} {record.args!r}")


@contextmanager
def everything_at_debug() -> Iterator[Keep]:
    """Every record of every logger, at DEBUG."""
    root = logging.getLogger()
    keep = Keep()
    loggers = [logging.getLogger(name) for name in list(logging.root.manager.loggerDict)]
    levels = [(logger, logger.level) for logger in [root, *loggers]]
    for logger, _ in levels:
        logger.setLevel(logging.DEBUG)
    root.addHandler(keep)
    try:
        yield keep
    finally:
        root.removeHandler(keep)
        for logger, level in levels:
            logger.setLevel(level)


@contextmanager
def unprotected() -> Iterator[None]:
    """The log filters taken off, to show the check finds what they hide."""
    removed = []
    for name in logs.RULES:
        logger = logging.getLogger(name)
        for found in [f for f in logger.filters if isinstance(f, logs.SecretFilter)]:
            logger.removeFilter(found)
            removed.append((logger, found))
    try:
        yield
    finally:
        for logger, found in removed:
            logger.addFilter(found)


def _hidden(real: Any, seen: Any, parent: Any, key: Any, label: Any, out: set[str]) -> None:
    """Collect, for each value ``seen`` hides, text that would show it: its enclosing list
    or object as JSON with the key it sits under (``"cards": [null, "ruby", null]``)."""
    if real is None:  # nothing there to keep secret
        return
    if type(real) is not type(seen) or (not isinstance(real, dict | list) and real != seen):
        shown = json.dumps(parent)
        out.add(f"{json.dumps(label)}: {shown}" if isinstance(label, str) else shown)
        return
    if isinstance(real, dict):
        for name, value in real.items():
            _hidden(value, seen.get(name, object()), real, name, key, out)
    elif isinstance(real, list):
        if len(real) != len(seen):
            out.add(f"{json.dumps(key)}: {json.dumps(real)}" if isinstance(key, str) else
                    json.dumps(real))  # fmt: skip
            return
        for index, (value, other) in enumerate(zip(real, seen, strict=True)):
            _hidden(value, other, real, index, key, out)


def secrets(slug: str, state: Any) -> set[str]:
    """What some seat may not know now, as it would appear in stored or logged text."""
    game = ENGINES[slug]
    real = game.dump(state)
    found: set[str] = set()
    for seat in range(len(real["roles"])):
        seen = game.dump(game.observe(state, seat))
        for name, value in real.items():
            if isinstance(value, dict | list) and type(value) is type(seen.get(name)):
                _hidden(value, seen[name], real, name, None, found)
            elif value is not None and value != seen.get(name):
                found.add(json.dumps({name: value})[1:-1])
    return {token for token in found if len(token) >= 8}


async def play_and_check(slug: str, players: int, actions: int, seed: int) -> int:
    """Play ``actions`` random answers; returns how many secrets were checked. AssertionError
    names a secret found in a record of the action that made it."""
    rng = random.Random(seed)
    checked = 0
    with everything_at_debug() as keep:
        host, game = await leak_checks.open_game(STORES, slug, players)
        for _ in range(actions):
            asked = await everyone_asked(host, game, list(USERS[:players]))
            if not asked:
                break
            user, control = rng.choice(asked)
            action = rng.choice(control.choices).action
            start = len(keep.lines)
            await host.turns.act(game_id=game, user_id=user, action=action)
            hidden = secrets(slug, await state_of(host, game))
            if control.prompt.secret and hidden:
                hidden.add(action)
            checked += len(hidden)
            lines = keep.lines[start:]
            for line in lines:
                for token in hidden:
                    assert token not in line.replace("\\\\", "\\"), (token, line[:300])
        assert keep.lines, "the libraries logged at DEBUG"
    return checked


GAMES = [("dragons-cave", 3, 60), ("dragons-cave", 4, 40), ("dragonslayer", 2, 120)]
NO_SECRETS = {"stgeorge", "lions-dragons"}
"""The games with nothing hidden: no secret prompt, no face-down thing."""


def test_every_registered_game_with_secrets_is_played_here():
    assert unlisted((slug for slug, *_ in GAMES), NO_SECRETS) == [], (
        "add the game to GAMES (it has secrets) or NO_SECRETS"
    )
    for slug in NO_SECRETS:  # a game listed as having no secrets asks for none
        game = ENGINES[slug]
        options = game.parse_options("")
        state = game.setup([r.key for r in game.roles(2, options)], options, random.Random(0))
        chooser = random.Random(slug)
        for _ in range(200):
            prompts = game.prompts(state)
            if not prompts:
                break
            assert not any(p.secret for p in prompts), f"{slug} has a secret prompt"
            prompt = chooser.choice(prompts)
            action = chooser.choice(game.legal_actions(state, prompt.seat)).action
            state, _ = game.apply(state, prompt.seat, action, random.Random(chooser.random()))


@pytest.mark.parametrize(("slug", "players", "actions"), GAMES)
async def test_no_record_carries_a_secret(slug, players, actions):
    logs.protect()
    assert await play_and_check(slug, players, actions, seed=players) > 10


@pytest.mark.parametrize(("slug", "players", "actions"), GAMES[::2])
async def test_without_the_filters_the_check_finds_the_secrets(slug, players, actions):
    logs.protect()
    with unprotected(), pytest.raises(AssertionError):
        await play_and_check(slug, players, actions, seed=players)


def test_discord_bodies_payloads_and_component_ids_are_hidden():
    """SimCord does not go through discord.py's HTTP client or gateway, so their DEBUG lines
    (which carry request bodies, responses, events and component ids) are checked here."""
    logs.protect()
    secret = '{"content": "You played Ruby", "custom_id": "dh:b:1:s5:card ruby"}'
    url = "https://discord.com/api/v10/channels/1/messages"
    with everything_at_debug() as keep:
        logging.getLogger("discord.http").debug(
            "%s %s with %s has returned %s", "POST", url, secret, 200
        )
        logging.getLogger("discord.http").debug("%s %s has received %s", "POST", url, {"x": secret})
        logging.getLogger("discord.gateway").debug(
            "For Shard ID %s: WebSocket Event: %s", None,
            {"op": 0, "t": "INTERACTION_CREATE", "s": 3, "d": {"data": {"custom_id": secret}}},
        )  # fmt: skip
        logging.getLogger("discord.ui.view").debug(
            "View interaction referenced an unknown item custom_id %s. Discarding", secret
        )
        logging.getLogger("aiosqlite").debug("executing %s", print)
    assert len(keep.lines) == 5
    for line in keep.lines:
        assert "ruby" not in line.lower(), line
    assert f"POST {url} with <hidden> has returned 200" in keep.lines[0]
    assert "'t': 'INTERACTION_CREATE'" in keep.lines[2]
    assert "executing print()" in keep.lines[4]
