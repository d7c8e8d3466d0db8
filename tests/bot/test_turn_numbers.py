"""One numbering of turns, the game's own (``Game.turn``): the turn a post's summary shows
is the turn `/game history` files the moves under, the turn `/game replay` counts and
starts ``from_turn`` at, the turns a record says and a played-back record shows; and a
finished game is spoken of as the whole game, never as "so far"."""

from __future__ import annotations

import random
import re

import pytest

from bot.service.errors import UserError
from bot.service.history import record as records
from bot.service.host import GameHost
from tests.bot.leak_checks import USERS
from tests.bot.test_story import play_randomly, real_game
from tests.games_tables import registered, tuned

NUMBER = re.compile(r"\b(?:turn|round) (\d+)\b|\bafter (\d+) (?:turns|rounds)\b", re.I)
HEADER = re.compile(r"^\*\*(Turn|Round) (\d+)\*\* · (.*)$", re.M)
PLAYERS = {"stgeorge": 2, "lions-dragons": 2, "dragons-cave": 3, "dragonslayer": 2}


async def no_drawing(slug, view, data=None) -> bytes:
    return b"board"


async def no_animation(pictures: list[bytes]) -> bytes:
    return b"gif:%d" % len(pictures)


async def shown_turn(host: GameHost, game_id: int) -> int:
    """The turn number the game's public summary (the one its posts show) names."""
    summary = (await host.desk.table(game_id)).public_view()["summary"]
    found = NUMBER.search(summary)
    assert found, summary
    return int(found[1] or found[2])


async def history(host: GameHost, game_id: int) -> str:
    """Every page of the game's history, in order."""
    latest = str((await host.stories.history(game_id=game_id, user_id=USERS[0])).text)
    count = int(re.search(r"page (\d+) of \1", latest)[1])
    older = [
        str((await host.stories.history(game_id=game_id, page=n)).text) for n in range(1, count)
    ]
    return "\n".join([*older, latest])


async def refusal(host: GameHost, game_id: int, from_turn: int) -> str:
    with pytest.raises(UserError) as refused:
        await host.stories.replay_animation(game_id=game_id, from_turn=from_turn)
    return str(refused.value)


@pytest.mark.parametrize("slug", registered())
async def test_posts_history_and_replay_number_a_turn_alike(store, slug):
    host, game_id = await real_game(
        store, slug, tuned(PLAYERS, slug, "PLAYERS"), drawer=no_drawing, animator=no_animation
    )
    await play_randomly(host, game_id, random.Random(3), 30)
    now = await shown_turn(host, game_id)
    assert now > 1, "the game should be a few turns in"
    headers = HEADER.findall(await history(host, game_id))
    numbers = [int(n) for _, n, _ in headers]
    word = "Round" if slug == "dragons-cave" else "Turn"
    assert all(w == word for w, _, _ in headers)
    assert numbers == list(range(1, len(numbers) + 1)), "each turn once, in order"
    assert numbers[-1] in (now - 1, now), (numbers, now)
    made = await host.stories.replay_animation(game_id=game_id)
    assert f"{now} {word.lower()}s" in made.text, made.text
    later = await host.stories.replay_animation(game_id=game_id, from_turn=now)
    assert f"{word.lower()}s {now} to {now}" in later.text or now == 1, later.text
    assert f"between 1 and {now}." in await refusal(host, game_id, now + 1)


async def test_a_st_george_turn_is_every_seat_once(store):
    """The Knights and the Dragon play under the same number, as the post says."""
    host, game_id = await real_game(store, "stgeorge", 2, drawer=no_drawing)
    await play_randomly(host, game_id, random.Random(3), 12)
    blocks = HEADER.findall(await history(host, game_id))
    assert len(blocks) >= 2
    assert "Knights" in blocks[0][2] and "Dragon" in blocks[0][2], blocks[0]


async def finished_game(store) -> tuple[GameHost, int]:
    host, game_id = await real_game(store, "stgeorge", 2, drawer=no_drawing, animator=no_animation)
    await play_randomly(host, game_id, random.Random(8), 3000)
    assert (await host.desk.table(game_id)).record.status == "finished"
    return host, game_id


async def test_a_finished_game_has_one_count_of_turns_everywhere_and_speaks_of_the_whole_game(
    store,
):
    host, game_id = await finished_game(store)
    lasted = await shown_turn(host, game_id)  # "Game over after N turns."
    headers = HEADER.findall(await history(host, game_id))
    assert int(headers[-1][1]) == lasted
    made = await host.stories.replay_animation(game_id=game_id)
    assert f"{lasted} turns" in made.text, made.text
    assert f"between 1 and {lasted}." in await refusal(host, game_id, lasted + 1)
    exported = await host.stories.export_record(game_id=game_id, user_id=USERS[0])
    record = records.read(exported.data.decode())
    assert record.headers["Turns"] == str(lasted)
    played = str((await host.stories.play_record(exported.data.decode())).text)
    assert f"{lasted} turns" in played and f"after {lasted} turns" in played, played
    # the same finished game (a whole one takes long to play) speaks of the whole game
    told = [
        made.text,
        await refusal(host, game_id, lasted + 1),
        str((await host.stories.history(game_id=game_id, user_id=USERS[0])).text).splitlines()[0],
    ]
    assert not any("so far" in text for text in told), told
    assert "the whole game" in made.text and "lasted" in told[1], told
    assert "the whole game" in told[2], told[2]
