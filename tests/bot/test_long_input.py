"""A refusal that repeats what a player typed clips the quote, so a 3,500-character option
or action is refused in far fewer than Discord's 2,000 characters, still saying what to do."""

import re

import pytest

from bot.console.commands import ParseError, parse
from bot.service.errors import UserError
from engines.options import clip
from games import ENGINES
from tests.bot import leak_checks
from tests.bot.leak_checks import CHANNEL, GUILD, USERS, Stores
from tests.games_tables import registered, tuned

LONG = "x" * 3500
DISCORD_LIMIT = 2000
PLAYERS = {"stgeorge": 2, "dragons-cave": 3, "lions-dragons": 2, "dragonslayer": 2}
"""The table size each registered game is tried at."""
GAMES = [(slug, PLAYERS.get(slug, 0)) for slug in registered()]
STORES = Stores()


@pytest.fixture(autouse=True)
async def close_stores():
    yield
    await STORES.close_all()


def check(refusal: UserError, asked: bool = True) -> str:
    text = str(refusal.text)
    assert len(text) < DISCORD_LIMIT, (len(text), text[:200])
    assert LONG[:100] not in text
    if asked:  # says what to type instead
        assert re.search(r"`|e\.g\.|one of|Write|[Ss]end|[Ss]ay|[Cc]hoose|[Pp]ick", text), text
    return text


def test_clip_keeps_short_text_and_cuts_long_text():
    assert clip("  lions=random ") == "lions=random"
    assert clip(LONG) == "x" * 59 + "…" and len(clip(LONG)) == 60


@pytest.mark.parametrize(("slug", "players"), GAMES)
async def test_a_long_option_is_refused_briefly(slug, players):
    host = leak_checks.new_host(await STORES.new(), slug)
    keys = [option.key for option in ENGINES[slug].options] or ["speed"]
    typed = [LONG, f"{LONG}=1", *(f"{key}={LONG}" for key in keys), f"{keys[0]}={'9' * 3500}"]
    for options in typed:
        with pytest.raises(UserError) as refused:
            await host.lobby.new_game(
                guild_id=GUILD, channel_id=CHANNEL, user_id=USERS[0], user_name="alice",
                slug=slug, players=players, options=options,
            )  # fmt: skip
        check(refused.value)
    with pytest.raises(UserError) as refused:
        await host.lobby.new_game(guild_id=GUILD, channel_id=CHANNEL, user_id=USERS[0],
                            user_name="alice", slug=slug, players=players, role=LONG)  # fmt: skip
    assert "Roles:" in check(refused.value)
    with pytest.raises(UserError) as refused:
        await host.lobby.new_game(guild_id=GUILD, channel_id=CHANNEL, user_id=USERS[0],
                            user_name="alice", slug=LONG)  # fmt: skip
    assert "Games:" in check(refused.value)


@pytest.mark.parametrize(("slug", "players"), GAMES)
async def test_a_long_action_is_refused_briefly(slug, players):
    host, game = await leak_checks.open_game(STORES, slug, players)
    verbs = {"roll", "card", "lair", "split", "hand", "move", "fire", "drop", "go", "take", "sail"}
    for user in USERS[:players]:
        for control in await host.turns.controls_for(game_id=game, user_id=user):
            verbs |= {choice.action.split()[0] for choice in control.choices}
    for user in USERS[:players]:
        asked = bool(await host.turns.controls_for(game_id=game, user_id=user))
        for action in [LONG, f"{LONG} {LONG}", *(f"{verb} {LONG}" for verb in sorted(verbs)),
                       f"G1-{LONG}", f"f2-{LONG}", f"hand {LONG} left"]:  # fmt: skip
            try:
                await host.turns.act(game_id=game, user_id=user, action=action)
            except UserError as refused:
                check(refused, asked)
            else:  # pragma: no cover - no such action is legal
                raise AssertionError(f"{action[:20]}… was accepted")


def test_the_local_table_clips_a_long_word_it_cannot_read():
    with pytest.raises(ParseError) as refused:
        parse(f"alice: /game new {LONG}")
    assert len(str(refused.value)) < 200 and "name:value" in str(refused.value)


def test_every_registered_game_has_a_table_size_here():
    for slug in registered():
        assert tuned(PLAYERS, slug, "PLAYERS") >= 1
