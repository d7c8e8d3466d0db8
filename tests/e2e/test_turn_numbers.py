"""One numbering of turns on Discord: the turn a St. George post names ("Turn 3: All four
Knights to roll") is the turn `/game history` files both sides' moves under, and the turn
`/game replay from_turn:` counts."""

from __future__ import annotations

import random
import re

from tests.e2e.conftest import bot_posts, text_of
from tests.e2e.test_story import history_text, open_game, play_randomly

POSTED = re.compile(r"\bTurn (\d+): ")
HEADER = re.compile(r"^\*\*Turn (\d+)\*\* · (.*)$", re.M)


async def test_a_st_george_post_history_and_replay_name_the_same_turn(simcord_env, world):
    _, channel, users = world
    players = await open_game(channel, users, "stgeorge", 2)
    await play_randomly(simcord_env, channel, players, 1, random.Random(5), 14)
    posted = [int(n) for m in bot_posts(channel) for n in POSTED.findall(text_of(m))]
    now = posted[-1]
    assert now >= 3, posted
    headers = HEADER.findall(await history_text(users["alice"], channel, page=1))
    numbers = [int(n) for n, _ in headers]
    assert numbers == list(range(1, len(numbers) + 1)), headers
    assert numbers[-1] in (now - 1, now), (numbers, now)
    for _, who in headers[: now - 1]:  # every turn played out: the Knights, then the Dragon
        assert "Knights" in who and "Dragon" in who, headers
    refused = await users["alice"].slash(channel, "game replay", from_turn=now + 1)
    assert [f.ephemeral for f in refused.followups] == [True]
    assert f"between 1 and {now}." in text_of(refused.followups[0])
