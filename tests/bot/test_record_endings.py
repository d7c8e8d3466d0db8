"""A game record says how the game ended (its ``Termination`` header, from the engine's
``Result.how``), and playing it back marks the ending by that kind, not by its words."""

from __future__ import annotations

from bot.service.history import record as records
from tests.bot.test_story import USERS, real_game


async def test_a_resigned_game_records_and_plays_back_as_resigned(store):
    host, game_id = await real_game(store, "lions-dragons", 2)
    await host.endings.resign(game_id=game_id, user_id=USERS[0], confirmed=True)
    assert (await host.store.get_game(game_id)).status == "finished"
    exported = await host.stories.export_record(game_id=game_id)
    text = exported.data.decode()
    assert records.read(text).headers["Termination"] == "resigned"
    played = await host.stories.play_record(text)
    assert "🏳️ Black wins: White resigned" in str(played.text), played.text


async def test_an_old_record_without_the_kind_still_plays_back(store):
    host, game_id = await real_game(store, "lions-dragons", 2)
    await host.endings.resign(game_id=game_id, user_id=USERS[0], confirmed=True)
    text = (await host.stories.export_record(game_id=game_id)).data.decode()
    old = "\n".join(line for line in text.splitlines() if "[Termination " not in line)
    played = await host.stories.play_record(old + "\n")
    assert "Black wins: White resigned" in str(played.text)
