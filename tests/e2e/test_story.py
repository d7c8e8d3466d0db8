"""A game's story through the real bot on a simulated Discord: `/game history` under way
never shows an unrevealed secret, `/game export` gives a record the local table plays back
to the same final board, `/game replay` posts an animated picture of each example game,
and finished games stay findable in `/game list`, `/game mine` and autocomplete."""

from __future__ import annotations

import io
import random
import re
from dataclasses import replace
from pathlib import Path

import pytest
from PIL import Image

from bot import create_bot
from bot.console.commands import parse
from bot.console.table import LocalTable
from bot.service.history import record as records
from games import render
from tests.e2e.conftest import bot_posts, text_of, texts

EXAMPLES = sorted((Path(__file__).parents[2] / "examples").glob("*.txt"))
LIMIT = 10 * 1024 * 1024


async def seeded_bot(simcord_env, settings, bots, seed):
    """The bot restarted with games seeded by ``seed``, as the local table seeds them."""
    bots.append(create_bot(replace(settings, seed=seed)))
    await simcord_env.restart_bot(bots[-1])
    return bots[-1]


async def play_script(channel, users, script: str) -> None:
    """Each line of a local-table script as the same player's slash command."""
    for text in script.splitlines():
        line = parse(text)
        if line is None:
            continue
        options = dict(line.options)
        if "players" in options:
            options["players"] = int(options["players"])
        result = await users[line.player].slash(channel, line.command, **options)
        assert not any("⚠️" in t for t in texts([result])), (text, texts([result]))


async def play_randomly(env, channel, users, game_id, chooser, actions):
    """``actions`` random legal actions (or until the game ends), each typed with /move by
    the user whose seat is asked."""
    by_id = {member.id: member for member in users.values()}
    for _ in range(actions):
        table = await env.bot.host.desk.table(game_id)
        if table.record.status != "running":
            return
        prompt = chooser.choice(table.prompts())
        choice = chooser.choice(table.engine.legal_actions(table.state, prompt.seat))
        member = by_id[table.record.user_at(prompt.seat)]
        await member.slash(channel, "move", action=choice.action, game=game_id)


async def open_game(channel, users, slug, players):
    names = ["alice", "bob", "carol", "dave"][:players]
    await users["alice"].slash(channel, "game new", game=slug, players=players)
    for name in names[1:]:
        await users[name].slash(channel, "game join")
    await users["alice"].slash(channel, "game start")
    return {name: users[name] for name in names}


async def history_text(member, channel, **options) -> str:
    result = await member.slash(channel, "game history", **options)
    assert result.ephemeral
    return "\n".join(texts([result]))


async def file_of(result) -> tuple[str, bytes]:
    attachments = result.response.attachments
    assert len(attachments) == 1, texts([result])
    return attachments[0].filename, await attachments[0].read()


async def test_history_of_dragons_cave_hides_each_card_until_the_reveal(simcord_env, world):
    _, channel, users = world
    players = await open_game(channel, users, "dragons-cave", 3)
    table = await simcord_env.bot.host.desk.table(1)
    picks = []
    for seat, member in enumerate(players.values()):
        choices = table.engine.legal_actions(table.state, seat)
        picks.append((member, choices[-1].action))
    for member, action in picks[:2]:
        await member.slash(channel, "move", action=action)
    under_way = await history_text(users["carol"], channel)
    assert under_way.count("🔒 chose in secret") == 2
    for _, action in picks[:2]:
        word = action.split()[-1]
        assert word not in under_way.lower(), (word, under_way)
    member, action = picks[2]
    await member.slash(channel, "move", action=action)
    revealed = await history_text(users["carol"], channel)
    assert "the cards are revealed" in revealed
    assert revealed.count("🔒 chose in secret") == 3  # the answers stay hidden; the reveal tells
    assert "**Round 1** · " in revealed and "**Round 2**" not in revealed.split("revealed")[0]


async def test_history_of_dragonslayer_shows_no_private_sentence(simcord_env, world):
    _, channel, users = world
    players = await open_game(channel, users, "dragonslayer", 2)
    host = simcord_env.bot.host
    await play_randomly(simcord_env, channel, players, 1, random.Random(4), 80)
    told = await history_text(users["bob"], channel, page=1)
    latest = await history_text(users["bob"], channel)
    private = []
    for member in players.values():
        text = await host.turns.private_text(game_id=1, user_id=member.id)
        private += [s.strip() for s in re.split(r"[.;\n]", text) if len(s.strip()) > 12]
    assert private, "the players know something the others do not"
    for sentence in private:
        assert sentence not in told and sentence not in latest, sentence
    assert "page 1 of" in told and "**Turn 1** · " in told
    assert all(len(t) <= 2000 for t in (told, latest))


async def test_a_record_exported_under_way_has_no_seed_and_hides_secrets(simcord_env, world):
    _, channel, users = world
    players = await open_game(channel, users, "dragons-cave", 3)
    await players["alice"].slash(channel, "move", action="lair ruby")
    name, data = await file_of(await users["bob"].slash(channel, "game export"))
    record = records.read(data.decode())
    assert name == "dragons-cave-1.txt"
    assert record.seed is None and not record.complete
    assert [m.action for m in record.moves] == [None]
    assert "ruby" not in data.decode().lower()
    assert record.names == ["alice", "bob", "carol"]


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
async def test_each_example_replays_exports_and_plays_back(
    simcord_env, world, settings, bots, path, tmp_path
):
    script = path.read_text(encoding="utf-8")
    seed = int(re.search(r"^# seed: (\d+)$", script, re.MULTILINE)[1])
    await seeded_bot(simcord_env, settings, bots, seed)
    _, channel, users = world
    await play_script(channel, users, script)
    host = simcord_env.bot.host
    table = await host.desk.table(1)
    assert table.record.status == "finished"

    replayed = await users["alice"].slash(channel, "game replay")
    assert not replayed.ephemeral
    name, gif = await file_of(replayed)
    assert name.endswith("-replay.gif") and len(gif) <= LIMIT
    with Image.open(io.BytesIO(gif)) as image:
        assert image.format == "GIF" and image.n_frames >= 2 and image.width <= 800
    assert "🎞️ Replay of" in text_of(replayed.response)

    name, data = await file_of(await users["alice"].slash(channel, "game export"))
    (tmp_path / name).write_bytes(data)
    out = io.StringIO()
    local = await LocalTable.open(out=out, images=tmp_path / "back")
    try:
        await local.play_record(tmp_path / name)
    finally:
        await local.close()
    assert "⚠️" not in out.getvalue() and "played back" in out.getvalue()
    final = render(table.engine.slug, table.engine.view(table.state, None))
    assert (tmp_path / "back" / "board-0001.png").read_bytes() == final


async def test_a_replay_from_a_later_turn_has_fewer_boards(simcord_env, world):
    _, channel, users = world
    players = await open_game(channel, users, "lions-dragons", 2)
    await play_randomly(simcord_env, channel, players, 1, random.Random(2), 12)
    whole = await users["alice"].slash(channel, "game replay")
    later = await users["alice"].slash(channel, "game replay", from_turn=10)
    frames = []
    for result in (whole, later):
        _, gif = await file_of(result)
        with Image.open(io.BytesIO(gif)) as image:
            frames.append(image.n_frames)
    assert frames == [13, 4]
    too_late = await users["alice"].slash(channel, "game replay", from_turn=40)
    assert too_late.response is None  # the public reply gave way to a private answer
    assert [f.ephemeral for f in too_late.followups] == [True]
    assert "`from_turn` must be between 1 and 13" in text_of(too_late.followups[0])  # 13th begun


async def test_finished_games_stay_findable(simcord_env, world):
    _, channel, users = world
    await open_game(channel, users, "dragons-cave", 2)
    # how the game ends is not the point: a resignation ends it in two clicks, where playing
    # it out took hundreds of moves
    asked = await users["bob"].slash(channel, "game resign")
    await users["bob"].click(asked.response or asked.followups[0], label="Yes, resign")
    assert (await simcord_env.bot.host.desk.table(1)).record.status == "finished"
    running = await users["alice"].slash(channel, "game list")
    assert "#1" not in texts([running])[0]
    finished = await users["alice"].slash(channel, "game list", show="finished")
    assert "#1 Dragon's Cave" in texts([finished])[0] and "wins" in texts([finished])[0]
    mine = await users["bob"].slash(channel, "game mine")
    assert "Finished lately" in texts([mine])[0] and "#1 Dragon's Cave" in texts([mine])[0]
    offered = await users["carol"].autocomplete(channel, "game history", "game", "")
    assert [c["value"] for c in offered] == [1] and "finished" in offered[0]["name"]
    assert "history of the whole game, " in await history_text(users["carol"], channel, game=1)
    assert text_of(bot_posts(channel)[-1]).count("🏆") == 1
