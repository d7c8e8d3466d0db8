"""Every picture the bot sends carries alt text (the attachment's description) telling what
the board shows, from the public view only."""

from bot.service.boards.alt_text import board_alt, clip
from bot.service.notices import Board
from tests.e2e.conftest import bot_posts
from tests.e2e.test_stgeorge import open_two_player_game, play_turn
from tests.e2e.test_story import open_game


async def test_every_board_post_describes_the_board_in_words(simcord_env, world):
    channel, players = await open_two_player_game(world)
    for _ in range(4):
        await play_turn(channel, players)
    boards = [m for m in bot_posts(channel) if m.attachments]
    assert len(boards) >= 2
    for post in boards:
        alt = post.attachments[0].description
        assert alt and alt.startswith("St. George and the Dragon board: "), alt
        assert len(alt) <= 1024
    table = await simcord_env.bot.host.desk.table(1)
    summary = " ".join(table.engine.view(table.state, None)["summary"].split())
    status = await players["dragon"].slash(channel, "game status")
    (board,) = [a for m in [status.response, *status.followups] if m for a in m.attachments]
    assert board.description == f"St. George and the Dragon board: {summary}"


async def test_a_status_board_tells_nothing_a_seat_keeps_secret(simcord_env, world):
    _, channel, users = world
    players = await open_game(channel, users, "dragons-cave", 2)
    table = await simcord_env.bot.host.desk.table(1)
    private = table.engine.view(table.state, 0).get("private") or ""
    status = await players["alice"].slash(channel, "game status")
    (board,) = [a for m in [status.response, *status.followups] if m for a in m.attachments]
    alt = board.description
    assert alt.startswith("Dragon's Cave board: ")
    assert private and private not in alt


async def test_a_replay_animation_has_alt_text(simcord_env, world):
    channel, _ = await open_two_player_game(world)
    alice = world[2]["alice"]
    await alice.slash(channel, "move", action="roll")
    replay = await alice.slash(channel, "game replay")
    (gif,) = replay.response.attachments
    assert gif.filename.endswith(".gif")
    assert gif.description.startswith("Replay of St. George and the Dragon #1")


def test_alt_text_of_a_long_summary_is_cut_to_discords_limit():
    alt = clip(board_alt(Board("dragonslayer", {"summary": "The Dragon sleeps. " * 200})).plain())
    assert len(alt) == 1024 and alt.startswith("Dragonslayer board: The Dragon sleeps.")
    assert alt.endswith("…")
