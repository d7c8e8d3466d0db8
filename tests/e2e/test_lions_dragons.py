"""Lions and Dragons Chess through the real bot on simulated Discord.

Games here use ``lions=symmetric``, the agreed Lion arrangement, so nothing in them is left
to chance and a fixed line of moves always plays out the same way.
"""

import io

from PIL import Image

from tests.e2e.conftest import answered, bot_posts, controls_in, part, text_of, texts, without_place

SLUG = "lions-dragons"
TITLE = "Lions and Dragons Chess #1"

# White wakes its Proto-Dragon on e2 with a Fireball, the Dragon takes the Ball on d5, and the
# Dragon-with-Ball captures the Black Wizard, which walked out to meet it.
WINNING_LINE = ["fire f2-d2", "f10-f9", "e2-e3", "f9-f8", "e3xd5", "f8-e6", "d5xe6"]

# White's legal actions in the starting position that mention f2: the Wizard's steps and shots.
WIZARD_F2 = {
    "f2-f3", "f2-g1", "f2-f1", "f2-e1", "f2-g3", "f2-e3",
    "fire f2-f4", "fire f2-h2", "fire f2-d2",
}  # fmt: skip


async def open_game(channel, host, guest):
    """``host`` opens a game (White), ``guest`` joins (Black), ``host`` starts it."""
    results = [
        await host.slash(channel, "game new", game=SLUG, options="lions=symmetric"),
        await guest.slash(channel, "game join"),
        await host.slash(channel, "game start"),
    ]
    assert texts(results) == [
        f"You joined {TITLE} as White.",
        f"You joined {TITLE} as Black.",
        f"{TITLE} has started.",
    ]


def posts(channel, spectator):
    """The bot's channel messages as a member who is not playing sees them."""
    return bot_posts(channel, viewer=spectator)


def menu(message):
    """``(custom_id, [option values])`` of the one select menu on a channel message."""
    selects = [c for c in controls_in(message) if part(c, "options")]
    assert len(selects) == 1, message.components
    return part(selects[0], "custom_id"), [part(o, "value") for o in part(selects[0], "options")]


def silent(result):
    """A click the channel post answers: nothing comes back to the clicker."""
    assert answered(result) == [], [text_of(m) for m in answered(result)]


def private_answer(result):
    """The one message an interaction answered with; it must be visible to the asker only."""
    answers = answered(result)
    assert answers, result
    assert all(m.ephemeral for m in answers), [text_of(m) for m in answers]
    return answers[-1]


def raw_controls(message):
    """Buttons and select menus of an ephemeral answer, as Discord payload dicts."""
    return controls_in(message)


async def board_png(post):
    """The board picture attached to a turn's post, checked to be a real PNG image."""
    assert [a.filename for a in post.attachments] == ["board.png"], text_of(post)
    data = await post.attachments[0].read()
    with Image.open(io.BytesIO(data)) as image:
        assert image.format == "PNG"
        assert image.width >= 300 and image.height >= 300
    return data


async def record(env):
    """Game #1 as the bot stored it."""
    return await env.bot.host.store.get_game(1)


async def legal_now(env, member):
    """Every action ``member`` may take in game #1 right now, as the engine lists them."""
    controls = await env.bot.host.turns.controls_for(game_id=1, user_id=member.id)
    return {choice.action for control in controls for choice in control.choices}


async def test_a_whole_game_to_a_win_by_slash_commands_and_menus(simcord_env, world, restart):
    _, channel, users = world
    alice, bob, carol = users["alice"], users["bob"], users["carol"]
    await open_game(channel, alice, bob)

    start = posts(channel, carol)[-1]
    assert "The game begins!" in text_of(start)
    assert f"➡️ <@{alice.id}>: White:" in text_of(start)
    boards = [await board_png(start)]

    async def check_turn(action, mover_text, next_player):
        """The move's public post: what happened, who is next, a new board picture."""
        post = posts(channel, carol)[-1]
        assert mover_text in text_of(post), text_of(post)
        assert f"➡️ <@{next_player.id}>:" in text_of(post)
        boards.append(await board_png(post))
        assert boards[-1] != boards[-2], f"the board picture did not change after {action}"
        return post

    # 1. White, in two steps: the post offers the pieces; picking one shows alice alone its
    # places, labelled on a picture, the notable ones (a Fireball that makes a Dragon) first.
    custom_id, groups = menu(start)
    assert custom_id.startswith("dh:g:1:") and groups == ["d1", "f2", "h1", "drop"]
    step = private_answer(await alice.select(start, ["f2"]))
    assert text_of(step).startswith("**f2**: pick a label from the picture.")
    assert [a.filename for a in step.attachments] == ["board.png"]
    buttons = raw_controls(step)
    assert buttons[0]["label"].startswith("A · Wizard f2 shoots a Fireball NE to h2 — turns")
    assert [without_place(b["label"]) for b in buttons][2] == "Wizard f2-f3"
    fire = next(b["custom_id"] for b in buttons if b["custom_id"].endswith(":fire f2-d2"))
    silent(await alice.click(step, custom_id=fire))
    await check_turn("fire f2-d2", "White Proto-Dragon on e2: it is now a Dragon", bob)

    # 2. Black, typed.
    answer = private_answer(await bob.slash(channel, "move", action="f10-f9"))
    assert text_of(answer) == "✅ Played `f10-f9`."
    post = await check_turn("f10-f9", "Black Wizard f10-f9.", alice)

    # 3. White, in two steps: 30 actions are too many for one menu, so the post offers the
    # pieces; picking one answers privately with its moves (9 of them: buttons).
    custom_id, groups = menu(post)
    assert custom_id.startswith("dh:g:1:")
    assert groups == ["d1", "e2", "f2", "h1", "drop"]
    step = private_answer(await alice.select(post, ["e2"]))
    assert text_of(step).startswith("**e2**: pick a label from the picture.")
    buttons = raw_controls(step)
    assert {b["type"] for b in buttons} == {2}
    assert "Dragon e2-e3" in [without_place(b["label"]) for b in buttons]
    assert not any(b["custom_id"].endswith(":fire f2-d2") for b in buttons)
    assert len(posts(channel, carol)) == len(boards) + 2, "picking a piece posts nothing"
    e3 = next(b["custom_id"] for b in buttons if b["custom_id"].endswith(":e2-e3"))
    silent(await alice.click(step, custom_id=e3))
    post = await check_turn("e2-e3", "White Dragon e2-e3.", bob)

    # The bot restarts between turns; the menu posted by the old process still works.
    await restart()

    # 4. Black, in two steps; the Wizard on f9 has 16 actions: a private select menu.
    custom_id, groups = menu(post)
    assert custom_id.startswith("dh:g:1:") and "f9" in groups
    step = private_answer(await bob.select(post, ["f9"]))
    assert text_of(step).startswith("**f9**: pick a label from the picture.")
    assert "⭐ A · Wizard f9 shoots a Fireball NE to h9 — turns" in text_of(step)
    (select,) = raw_controls(step)
    assert select["type"] == 3 and select["custom_id"].startswith("dh:s:1:")
    options = [o["value"] for o in select["options"]]
    assert len(options) == 16 and all("f9" in o for o in options) and "f9-f8" in options
    silent(await bob.select(step, ["f9-f8"]))
    await check_turn("f9-f8", "Black Wizard f9-f8.", alice)

    # 5.-7. Typed to the end.
    answer = private_answer(await alice.slash(channel, "move", action="e3xd5"))
    assert text_of(answer) == "✅ Played `e3xd5`."
    await check_turn("e3xd5", "took a Ball and is now a Dragon-with-Ball", bob)
    private_answer(await bob.slash(channel, "move", action="f8-e6"))
    await check_turn("f8-e6", "Black Wizard f8-e6.", alice)
    private_answer(await alice.slash(channel, "move", action="d5xe6"))

    final = posts(channel, carol)[-1]
    assert "White Dragon-with-Ball d5xe6 took Black Wizard." in text_of(final)
    assert f"🏆 White captured the Black Wizard. White (<@{alice.id}>) wins." in text_of(final)
    assert "➡️" not in text_of(final), "the game is over"
    assert [part(c, "label") for c in controls_in(final)] == ["Rematch"]
    boards.append(await board_png(final))
    assert len(boards) == len(WINNING_LINE) + 1

    status = private_answer(await bob.slash(channel, "game status", game=1))
    assert f"**{TITLE}**: finished" in text_of(status)
    assert text_of(status).count("White captured the Black Wizard.") == 1, text_of(status)
    assert [a.filename for a in status.attachments] == ["board.png"]
    game = await record(simcord_env)
    assert game.status == "finished"
    assert [a.action for a in await simcord_env.bot.host.store.actions(1)] == WINNING_LINE

    late = private_answer(await bob.slash(channel, "move", action="e9-e8", game=1))
    assert text_of(late) == f"⚠️ {TITLE} is finished; no more moves."


async def test_move_autocomplete_offers_only_legal_matching_actions(simcord_env, world):
    _, channel, users = world
    alice, bob, carol = users["alice"], users["bob"], users["carol"]
    await open_game(channel, alice, bob)

    legal = await legal_now(simcord_env, alice)
    assert len(legal) == 21
    offered = await alice.autocomplete(channel, "move", "action", "f2")
    values = [c["value"] for c in offered]
    assert len(values) == len(set(values)) <= 25
    assert set(values) == {a for a in legal if "f2" in a} == WIZARD_F2
    assert "Wizard f2 shoots a Fireball NW to d2" in [c["name"] for c in offered]
    assert await alice.autocomplete(channel, "move", "action", "F2-E") == [
        {"name": "Wizard f2-e1", "value": "f2-e1"},
        {"name": "Wizard f2-e3", "value": "f2-e3"},
    ]
    assert await alice.autocomplete(channel, "move", "action", "k9") == []
    # Only the player to move is offered anything.
    assert await bob.autocomplete(channel, "move", "action", "f10") == []
    assert await carol.autocomplete(channel, "move", "action", "") == []

    answer = private_answer(await alice.slash(channel, "move", action="fire f2-d2"))
    assert text_of(answer) == "✅ Played `fire f2-d2`."
    assert "it is now a Dragon" in text_of(posts(channel, carol)[-1])

    # Black's turn: 21 actions, all offered to an empty query.
    everything = await bob.autocomplete(channel, "move", "action", "")
    assert len(everything) == 21 and {c["value"] for c in everything} >= {"f10-f9", "drop e8"}
    private_answer(await bob.slash(channel, "move", action="f10-f9"))

    # White now has 30 actions: an empty query offers Discord's maximum of 25.
    legal = await legal_now(simcord_env, alice)
    assert len(legal) == 30
    first = await alice.autocomplete(channel, "move", "action", "")
    assert len(first) == 25 and {c["value"] for c in first} <= legal
    dragon = await alice.autocomplete(channel, "move", "action", "e2")
    assert {c["value"] for c in dragon} == {a for a in legal if "e2" in a}
    chosen = next(c["value"] for c in dragon if c["name"] == "Dragon e2-e3")
    answer = private_answer(await alice.slash(channel, "move", action=chosen))
    assert text_of(answer) == "✅ Played `e2-e3`."
    assert "White Dragon e2-e3." in text_of(posts(channel, carol)[-1])


async def test_illegal_and_out_of_turn_moves_are_refused_and_change_nothing(simcord_env, world):
    _, channel, users = world
    alice, bob, carol, dave = (users[n] for n in ("alice", "bob", "carol", "dave"))
    await open_game(channel, alice, bob)
    before = await record(simcord_env)

    async def unchanged(since):
        now = await record(simcord_env)
        assert now.version == since.version, "a refused move changed the game"
        assert now.snapshot == since.snapshot and now.status == since.status

    async def refused(player, action, *expected):
        """``/move action`` by ``player`` gets a private warning naming ``expected``."""
        seen = len(posts(channel, dave))
        answer = private_answer(await player.slash(channel, "move", action=action))
        assert text_of(answer).startswith("⚠️ "), text_of(answer)
        for text in expected:
            assert text in text_of(answer), text_of(answer)
        assert len(posts(channel, dave)) == seen, "a refused move posts nothing"
        await unchanged(before)

    # White's own mistakes: a move the piece cannot make, an empty cell, a Proto-Dragon, a
    # drop too far from the Wizard, a shot at an adjacent cell, nonsense, a cell that does not
    # exist. Each answer says what would work instead.
    await refused(alice, "f2-f5", "Your Wizard on f2 can go to: f3 g1 f1 e1 g3 e3.")
    await refused(alice, "f5-f6", "f5 is not one of your pieces; yours are: ", "Wizard f2")
    await refused(alice, "e2-e3", "A Proto-Dragon never moves; shoot it with a Fireball")
    await refused(alice, "drop f6", "next to your Wizard on f2: f3 g1 f1 e1 g3 e3.")
    await refused(alice, "fire f2-e2", "from f2 it can land on: f4 h2 d2.")
    await refused(alice, "castle kingside", "I can't read 'castle kingside'", "f2-f4")
    await refused(alice, "f2-f12", "f12 is not a cell")

    # Black and a member who is not playing cannot move for White, typed or by the menu.
    waiting = f"It is not your turn in {TITLE}: waiting for White (<@{alice.id}>)."
    await refused(bob, "f10-f9", waiting)
    await refused(bob, "f2-f3", waiting)
    await refused(carol, "f2-f3", f"You are not playing in {TITLE}.")
    start = posts(channel, dave)[-1]
    for intruder, text in ((bob, waiting), (carol, f"You are not playing in {TITLE}.")):
        answer = private_answer(await intruder.select(start, ["f2"]))
        assert text_of(answer) == f"⚠️ {text}"
    await unchanged(before)

    # After all that, the menu under the last post still belongs to the current position.
    step = private_answer(await alice.select(start, ["f2"]))
    fire = next(
        b["custom_id"] for b in raw_controls(step) if b["custom_id"].endswith(":fire f2-d2")
    )
    silent(await alice.click(step, custom_id=fire))
    played = await record(simcord_env)
    assert played.version == before.version + 1
    assert "it is now a Dragon" in text_of(posts(channel, dave)[-1])

    # Now White is the one out of turn, and the old board's menu is gone.
    seen = len(posts(channel, dave))
    answer = private_answer(await alice.slash(channel, "move", action="e2-e3"))
    assert text_of(answer) == f"⚠️ It is not your turn in {TITLE}: waiting for Black (<@{bob.id}>)."
    old = next(m for m in posts(channel, dave) if m.id == start.id)
    assert not controls_in(old), "the board the turn passed from keeps no controls"
    assert len(posts(channel, dave)) == seen
    await unchanged(played)
