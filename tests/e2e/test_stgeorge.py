"""St. George and the Dragon through the real bot on a simulated Discord."""

from tests.e2e.conftest import answered, bot_posts, controls_in, text_of, texts


def controls_of(message):
    """("select", custom_id, values) for a menu, or ("button", None, {action: custom_id})."""
    buttons = {}
    for item in controls_in(message):
        if item.get("options"):
            return "select", item["custom_id"], [o["value"] for o in item["options"]]
        if item.get("custom_id"):
            buttons[item["custom_id"].split(":", 4)[4]] = item["custom_id"]
    return "button", None, buttons


def pick_move(values):
    """A simple greedy policy: reach the Lair, else take a Knight, else the first move."""
    for value in values:
        if value.endswith("-lair"):
            return value
    return values[-1]


async def open_two_player_game(world):
    _, channel, users = world
    alice, bob = users["alice"], users["bob"]
    await alice.slash(channel, "game new", game="stgeorge", players=2, role="knights")
    await bob.slash(channel, "game join", role="dragon")
    await alice.slash(channel, "game start")
    return channel, {"knights": alice, "dragon": bob}


async def play_turn(channel, players):
    """Whoever is asked in the newest post plays it; returns the post acted on."""
    post = [m for m in bot_posts(channel) if controls_in(m)][-1]
    mover = next(m for m in players.values() if f"<@{m.id}>" in _turn_text(channel))
    return post, await choose(mover, post)


async def choose(mover, message):
    """Use ``message``'s controls like a player would, following a two-step menu."""
    kind, custom_id, values = controls_of(message)
    if kind == "button":
        chosen = values[pick_move(list(values))]
        clicked = await mover.click(message, custom_id=chosen)
        if chosen.startswith("dh:p:"):  # a piece's places, labelled on a picture
            return await choose(mover, clicked.response.message)
        return clicked
    if custom_id.startswith("dh:g:"):
        picked = await mover.select(message, [values[0]], custom_id=custom_id)
        return await choose(mover, picked.response.message)
    return await mover.select(message, [pick_move(values)], custom_id=custom_id)


def _turn_text(channel):
    """The newest post that names who is to play next."""
    return next(text_of(m) for m in reversed(bot_posts(channel)) if "➡️" in text_of(m))


async def test_a_full_two_player_game_to_a_win(simcord_env, world, restart):
    channel, players = await open_two_player_game(world)
    start = bot_posts(channel)[-1]
    assert "The game begins!" in text_of(start)
    assert start.attachments and start.attachments[0].filename == "board.png"
    restarted = False
    for turn in range(600):
        if "🏆" in text_of(bot_posts(channel)[-1]):
            break
        await play_turn(channel, players)
        if turn == 40 and not restarted:
            await restart()
            restarted = True
    final = text_of(bot_posts(channel)[-1])
    assert "🏆" in final and restarted
    assert final.count("<@") >= 1  # the winner is named
    finished = await players["knights"].slash(channel, "game status")
    assert "finished" in text_of(finished.response)


async def test_every_turn_posts_a_board_naming_the_next_player(simcord_env, world):
    channel, players = await open_two_player_game(world)
    for _ in range(6):
        await play_turn(channel, players)
    turn_posts = [m for m in bot_posts(channel) if m.attachments]
    assert len(turn_posts) >= 3
    *passed, newest = turn_posts
    assert "➡️" in text_of(newest) and controls_in(newest)
    # A passed turn's post keeps what happened, and no longer calls anyone or offers moves.
    assert all("➡️" not in text_of(m) and not controls_in(m) for m in passed)
    # A roll updates its turn's post (with the board) and adds no post of its own.
    roll_posts = [m for m in bot_posts(channel) if "rolled" in text_of(m)]
    assert roll_posts and all(m.attachments for m in roll_posts)


async def test_a_wrong_players_click_is_refused_privately(simcord_env, world):
    channel, players = await open_two_player_game(world)
    roll = bot_posts(channel)[-1]
    result = await players["dragon"].click(roll, label="Roll the die")
    assert answered(result) and all(m.ephemeral for m in answered(result))
    assert "not your turn" in texts([result])[0]
    outsider = world[2]["carol"]
    result = await outsider.click(roll, label="Roll the die")
    assert "not playing" in texts([result])[0]
    assert [
        text_of(m)
        for m in channel.history(viewer=players["knights"])
        if "not your turn" in text_of(m)
    ] == []


async def test_the_game_and_its_buttons_survive_a_restart(simcord_env, world, restart):
    channel, players = await open_two_player_game(world)
    roll = bot_posts(channel)[-1]
    await restart()
    result = await players["knights"].click(roll, label="Roll the die")
    assert "rolled" in text_of(bot_posts(channel)[-1])
    assert not any("⚠️" in t for t in texts([result]))


async def test_two_clicks_of_the_same_roll_apply_once(simcord_env, world):
    channel, players = await open_two_player_game(world)
    roll = bot_posts(channel)[-1]
    knights = players["knights"]
    # The second click comes before Discord shows the updated post: it keeps its button.
    simcord_env.inject_error("PATCH", f"/channels/{channel.id}/messages/{roll.id}", status=403)
    await knights.click(roll, label="Roll the die")
    second = await knights.click(roll, label="Roll the die")
    assert "already played" in texts([second])[0]
    rolls = [m for m in bot_posts(channel) if "rolled" in text_of(m)]
    assert len(rolls) == 1


async def test_typed_move_with_autocomplete(simcord_env, world):
    channel, players = await open_two_player_game(world)
    knights = players["knights"]
    offered = await knights.autocomplete(channel, "move", "action", "ro")
    assert [c["value"] for c in offered] == ["roll"]
    await knights.slash(channel, "move", action="roll")
    offered = await knights.autocomplete(channel, "move", "action", "G2")
    assert offered and all(c["value"].lower().startswith("g2-") for c in offered)
    result = await knights.slash(channel, "move", action="G2-lair")
    assert result.ephemeral and "⚠️" in texts([result])[0]
    result = await knights.slash(channel, "move", action=offered[0]["value"])
    assert "➡️" in text_of(bot_posts(channel)[-1])
