"""A game's posts are cards (Discord's Components V2 layout): the turn's post holds its
text, its board with the picture's alt text, and its controls in one container; the status
message and the lobby are cards too. Discord (simulated) accepts every message the bot sends.
"""

import discord
import pytest
from simcord.backend.errors import BackendError
from simcord.http import router

from tests.e2e.conftest import (
    TEXT_DISPLAY,
    bot_posts,
    components_of,
    controls_in,
    is_card,
    part,
    status_messages,
    text_of,
)
from tests.e2e.test_stgeorge import open_two_player_game, play_turn

CONTAINER, GALLERY, ROW = 17, 12, 1


@pytest.fixture
def refused(monkeypatch) -> list[str]:
    """Every request simulated Discord refused as malformed (a 400), with its reason."""
    found: list[str] = []
    dispatch = router.dispatch

    def checked(backend, method, path, **kwargs):
        try:
            return dispatch(backend, method, path, **kwargs)
        except BackendError as error:
            if error.status == 400:
                found.append(f"{method} {path}: {error}")
            raise

    monkeypatch.setattr(router, "dispatch", checked)
    return found


def gallery_of(message) -> list[dict]:
    """The pictures a card shows: its media galleries' items."""
    return [i for c in components_of(message) if c.get("type") == GALLERY for i in c["items"]]


def assert_card_shows_its_board(message) -> None:
    """One container, no content; its one picture is the message's own attachment, with
    the attachment's alt text."""
    assert is_card(message) and message.content == ""
    assert [c.type.value for c in message.components] == [CONTAINER]
    [picture] = gallery_of(message)
    [attachment] = message.attachments
    assert picture["media"]["url"] == attachment.url
    assert picture["description"] == attachment.description
    assert "board" in attachment.description.lower() or len(attachment.description) > 40


async def test_a_turn_is_one_card_with_its_story_board_call_and_controls(
    simcord_env, world, refused
):
    channel, players = await open_two_player_game(world)
    turn = [m for m in bot_posts(channel) if controls_in(m)][-1]
    assert_card_shows_its_board(turn)
    [container] = components_of(turn)[:1]
    kinds = [c["type"] for c in container["components"]]
    # what happened above the board, the call to act below it, by the controls
    assert kinds[:3] == [TEXT_DISPLAY, GALLERY, TEXT_DISPLAY] and set(kinds[3:]) == {ROW}
    above, below = [c["content"] for c in container["components"] if c["type"] == TEXT_DISPLAY]
    assert "St. George and the Dragon #1" in above
    assert "➡️" in below and players["knights"].mention in below
    assert controls_in(turn), "the controls are in the card"
    assert not refused


async def test_the_turn_passed_keeps_its_words_and_board_without_controls(
    simcord_env, world, restart, refused
):
    channel, players = await open_two_player_game(world)
    passed = 0
    for step in range(6):
        if step == 3:
            await restart()  # a new process knows none of the posts it made
        post, _ = await play_turn(channel, players)
        old = next(m for m in bot_posts(channel) if m.id == post.id)
        newest = [m for m in bot_posts(channel) if controls_in(m)][-1]
        if newest.id == post.id:
            continue  # a step within the turn: the same card, updated in place
        assert not controls_in(old), "the card the turn passed from keeps no controls"
        assert_card_shows_its_board(old)
        assert "St. George and the Dragon #1" in text_of(old)
        passed += 1
    assert passed >= 2
    for message in bot_posts(channel):
        if gallery_of(message):
            assert_card_shows_its_board(message)
    assert not refused


async def test_a_step_within_the_turn_keeps_the_board_it_was_posted_with(
    simcord_env, world, refused
):
    channel, players = await open_two_player_game(world)
    post = [m for m in bot_posts(channel) if controls_in(m)][-1]
    before = text_of(post)
    roll = next(c for c in controls_in(post) if "roll" in (part(c, "custom_id") or ""))
    await players["knights"].click(post, custom_id=part(roll, "custom_id"))
    updated = next(m for m in bot_posts(channel) if m.id == post.id)
    assert text_of(updated) != before, "the roll is told in the same card"
    assert_card_shows_its_board(updated)
    assert not refused


async def test_the_status_message_and_the_lobby_are_cards(simcord_env, world, refused):
    _, channel, users = world
    await users["alice"].slash(channel, "game new", game="lions-dragons")
    [lobby] = bot_posts(channel)
    assert is_card(lobby) and lobby.content == ""
    assert {part(c, "label") for c in controls_in(lobby)} == {"Join", "Leave", "Start"}
    assert "is open for 2 players" in text_of(lobby)
    [status] = status_messages(channel)
    assert is_card(status) and status.content == "" and not controls_in(status)
    await users["bob"].slash(channel, "game join")
    await users["alice"].slash(channel, "game start")
    [status] = status_messages(channel)
    assert is_card(status) and "White" in text_of(status)
    assert not refused


async def test_a_passed_turns_post_a_moderator_deleted_is_not_posted_again(
    simcord_env, world, refused
):
    guild, _, _ = world
    channel, players = await open_two_player_game(world)
    role = guild.create_role("mods", permissions=discord.Permissions(manage_messages=True))
    moderator = guild.add_member(simcord_env.create_user("mod"), roles=[role])
    knights = players["knights"]
    post = [m for m in bot_posts(channel) if controls_in(m)][-1]
    roll = next(c for c in controls_in(post) if "roll" in (part(c, "custom_id") or ""))
    await knights.click(post, custom_id=part(roll, "custom_id"))
    await moderator.delete(post)
    host = simcord_env.bot.host
    [control] = await host.turns.controls_for(game_id=1, user_id=knights.id)
    await knights.slash(channel, "move", action=control.choices[0].action)
    posts = bot_posts(channel)
    assert not any("The game begins!" in text_of(m) for m in posts), "no ghost of it"
    [board] = [m for m in posts if m.attachments]  # the next turn's, the other one deleted
    assert controls_in(board) and players["dragon"].mention in text_of(board)
    assert not refused
