"""A paused game says so, by whom, and how to go on, wherever its state is shown; a move
in it is refused as paused, not as over."""

from tests.e2e.conftest import bot_posts, controls_in, status_messages, text_of, texts
from tests.e2e.test_stgeorge import open_two_player_game

RESUME = "`/game resume game:1`"


def tells_the_pause(text, host):
    return "paused by its host" in text.lower() and host.mention in text and RESUME in text


async def test_a_paused_game_says_who_paused_it_and_how_to_resume_wherever_it_is_shown(
    simcord_env, world
):
    channel, players = await open_two_player_game(world)
    alice, bob = players["knights"], players["dragon"]
    await alice.slash(channel, "game pause")

    post = text_of(bot_posts(channel)[-1])
    assert tells_the_pause(post, alice), post
    [status] = status_messages(channel)
    assert tells_the_pause(text_of(status), alice), text_of(status)
    assert "turn ends" not in text_of(status) and "waiting for" not in text_of(status)
    for command in ("game status", "game list", "game mine"):
        shown = text_of((await bob.slash(channel, command)).response)
        assert tells_the_pause(shown, alice), (command, shown)
        assert "turn ends" not in shown, (command, shown)


async def test_a_move_in_a_paused_game_is_refused_as_paused_with_how_to_resume(simcord_env, world):
    channel, players = await open_two_player_game(world)
    alice = players["knights"]
    turn_post = [m for m in bot_posts(channel) if controls_in(m)][-1]
    await alice.slash(channel, "game pause")

    typed = texts([await alice.slash(channel, "move", action="roll")])[0]
    clicked = texts([await alice.click(turn_post, label="Roll the die")])
    for refusal in (typed, *clicked):
        assert tells_the_pause(refusal, alice), refusal
        assert "no more moves" not in refusal and "moved on" not in refusal

    await alice.slash(channel, "game resume")
    [status] = status_messages(channel)
    assert "waiting for" in text_of(status) and "paused" not in text_of(status).lower()
