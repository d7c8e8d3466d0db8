"""Every click ends in a visible answer: the post it updates, or a private line; never a
"thinking…" left hanging until Discord gives up on it."""

from tests.e2e.conftest import bot_posts, controls_in, part, text_of, texts
from tests.e2e.test_endings import ids_of, newest_with, open_game


def shown(message):
    """What a message shows: its text and its controls."""
    controls = [part(c, "custom_id") for c in controls_in(message)]
    return text_of(message), sorted(c for c in controls if c)


def answered_visibly(result, clicked=None, before=None):
    """The click was answered with something the clicker sees: a message or follow-up
    with text, or the clicked post itself changed; not a bare defer."""
    interaction = result._interaction
    assert not interaction.loading, "the clicker is left with “thinking…”"
    said = [t for t in texts([result]) if t]
    changed = clicked is not None and before is not None and shown(clicked) != before
    assert said or changed, "the click was acknowledged and nothing else"


async def fresh(channel, message):
    return next(m for m in bot_posts(channel) if m.id == message.id)


async def test_the_last_accept_of_a_draw_is_answered_with_the_updated_offer(simcord_env, world):
    channel, alice, bob = await open_game(world, "lions-dragons")
    await alice.slash(channel, "game draw")
    offer = newest_with(channel, "asks a draw")
    before = shown(offer)
    accepted = await bob.click(offer, label="Accept")
    answered_visibly(accepted, await fresh(channel, offer), before)
    assert "🤝 Draw agreed." in text_of(bot_posts(channel)[-1])


async def test_the_last_accept_of_a_takeback_is_answered_with_the_updated_request(
    simcord_env, world
):
    channel, alice, bob = await open_game(world, "stgeorge", first_role="knights")
    await alice.slash(channel, "move", action="roll")
    moves = await alice.autocomplete(channel, "move", "action", "")
    await alice.slash(channel, "move", action=moves[0]["value"])
    await alice.slash(channel, "game undo")
    request = newest_with(channel, "asks to take back their last move")
    before = shown(request)
    accepted = await bob.click(request, label="Accept")
    answered_visibly(accepted, await fresh(channel, request), before)
    assert "takes back their last move" in text_of(bot_posts(channel)[-1])


async def test_every_kind_of_control_answers_its_click_visibly(simcord_env, world):
    _, channel, users = world
    alice, bob, carol = users["alice"], users["bob"], users["carol"]
    await alice.slash(channel, "game new", game="lions-dragons")
    lobby = newest_with(channel, "is open for 2 players")
    for who, label in ((carol, "Start"), (bob, "Join"), (bob, "Leave"), (bob, "Join")):
        before = shown(await fresh(channel, lobby))
        clicked = await who.click(lobby, label=label)
        answered_visibly(clicked, await fresh(channel, lobby), before)
    before = shown(await fresh(channel, lobby))
    answered_visibly(await alice.click(lobby, label="Start"), await fresh(channel, lobby), before)

    await alice.slash(channel, "game draw")
    offer = newest_with(channel, "asks a draw")
    for who, label in ((alice, "Accept"), (bob, "Decline")):
        before = shown(await fresh(channel, offer))
        clicked = await who.click(offer, label=label)
        answered_visibly(clicked, await fresh(channel, offer), before)

    asked = await bob.slash(channel, "game resign")
    confirm = asked.response or asked.followups[0]
    answered_visibly(await bob.click(confirm, label="Yes, resign"))
    answered_visibly(await bob.click(confirm, label="Yes, resign"))  # a second click
    final = bot_posts(channel)[-1]
    assert "Rematch" in ids_of(final)
    before = shown(final)
    answered_visibly(await carol.click(final, label="Rematch"), await fresh(channel, final), before)
    answered_visibly(await alice.click(final, label="Rematch"), await fresh(channel, final), before)


async def test_the_rules_menu_answers_privately_when_reading_the_rules_fails(
    simcord_env, simcord_bot, world
):
    _, channel, users = world
    alice = users["alice"]
    shown = (await alice.slash(channel, "rules", game="dragonslayer")).response

    async def broken(*_, **__):
        raise RuntimeError("the data files cannot be read")

    simcord_bot.host.server_data.rules_sections = broken
    simcord_env.check_errors = False  # the failure is logged, as it should be
    chosen = await alice.select(shown, ["7"])
    answered_visibly(chosen)
    assert "Something went wrong on my side" in texts([chosen])[0]
    asked = await alice.slash(channel, "rules", game="dragonslayer")
    answered_visibly(asked)


async def test_a_turn_button_answers_with_the_updated_post_or_a_private_refusal(simcord_env, world):
    channel, alice, bob = await open_game(world, "stgeorge", first_role="knights")
    board = bot_posts(channel)[-1]
    before = shown(board)
    wrong = await bob.click(board, label="Roll the die")  # not bob's turn
    answered_visibly(wrong)
    rolled = await alice.click(board, label="Roll the die")
    answered_visibly(rolled, await fresh(channel, board), before)
