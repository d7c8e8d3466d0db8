"""A calm channel, through the real bot on a simulated Discord: a turn's roll and move in
one post, updated in place; no ✅ after a button the post itself answers; a computer's
turn in one post; the closed-DM button telling anyone else whose choice it opens."""

from tests.e2e.conftest import bot_posts, controls_in, text_of, texts
from tests.e2e.test_dragons_cave import open_game
from tests.e2e.test_stgeorge import open_two_player_game


def private(result):
    """What an interaction answered the clicker alone."""
    answers = [result.response, *result.followups]
    return [text_of(m) for m in answers if m is not None and getattr(m, "ephemeral", False)]


def roll_post(channel, member):
    post = bot_posts(channel)[-1]
    assert member.mention in text_of(post), text_of(post)
    return post


async def test_a_roll_updates_the_turns_post_and_the_click_gets_no_acknowledgement(world):
    channel, players = await open_two_player_game(world)
    knights = players["knights"]
    post = roll_post(channel, knights)
    seen = len(bot_posts(channel))
    clicked = await knights.click(post, label="Roll the die")
    assert private(clicked) == [], "the post itself answers the click"
    assert len(bot_posts(channel)) == seen, "no new post for the roll"
    updated = bot_posts(channel)[-1]
    assert updated.id == post.id and "rolled" in text_of(updated)
    assert "The game begins!" in text_of(updated), "the turn's post keeps what it said"
    assert controls_in(updated), "it now offers the move"
    assert updated.attachments, "and keeps its board"


async def test_a_typed_move_is_acknowledged_privately(world):
    channel, players = await open_two_player_game(world)
    answer = await players["knights"].slash(channel, "move", action="roll")
    assert texts([answer])[-1] == "✅ Played `roll`."


async def test_a_computers_turn_is_one_post(simcord_env, world):
    _, channel, users = world
    alice = users["alice"]
    await alice.slash(channel, "game new", game="stgeorge", players=2, role="knights")
    await alice.slash(channel, "game addbot", level="easy")
    await alice.slash(channel, "game start")
    for _ in range(3):  # alice's roll and move, then the computer's turn
        post = bot_posts(channel)[-1]
        if alice.mention not in text_of(post):
            break
        answer = await alice.slash(channel, "move", action="roll")
        assert "✅" in texts([answer])[-1]
        record = await simcord_env.bot.host.store.get_game(1)
        table = await simcord_env.bot.host.desk.table(1)
        choices = await simcord_env.bot.host.turns.action_choices(user_id=alice.id, game_id=1)
        if choices and record.status == "running" and table.prompts():
            await alice.slash(channel, "move", action=choices[0].action)
    before = len(bot_posts(channel))
    await simcord_env.advance_time(10)  # the computer rolls, then moves
    computer_posts = bot_posts(channel)[before:]
    assert len(computer_posts) <= 1, [text_of(p) for p in computer_posts]


async def test_the_closed_dm_button_tells_anyone_else_whose_it_is(simcord_env, world):
    _, channel, users = world
    await simcord_env.bot.host.mark_dms_closed(users["bob"].id)
    channel, (alice, bob, _) = await open_game(world)
    button = next(m for m in bot_posts(channel) if "I can't send you direct messages" in text_of(m))
    answer = await alice.click(button, label="Make my choice privately")
    [text] = texts([answer])
    assert text.startswith("⚠️ This button is for ") and f"<@{bob.id}>" in text
    mine = await bob.click(button, label="Make my choice privately")
    assert "Round 1" in texts([mine])[-1]
