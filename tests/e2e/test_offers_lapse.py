"""A draw offer's or takeback request's post says where the offer stands: once it is
answered or lapses, its Accept and Decline buttons go and the post says how it ended."""

from tests.e2e.conftest import bot_posts, texts
from tests.e2e.test_answers import fresh
from tests.e2e.test_endings import ids_of, newest_with, open_game


async def test_a_declined_then_an_accepted_offer_loses_its_buttons_and_says_so(simcord_env, world):
    channel, alice, bob = await open_game(world, "lions-dragons")
    await alice.slash(channel, "game draw")
    declined = newest_with(channel, "asks a draw")
    await bob.click(declined, label="Decline")
    after = await fresh(channel, declined)
    assert not ids_of(after) and "Declined" in after.content

    await alice.slash(channel, "game draw")
    accepted = newest_with(channel, "asks a draw")
    await bob.click(accepted, label="Accept")
    after = await fresh(channel, accepted)
    assert not ids_of(after) and "Accepted: the game is drawn" in after.content


async def test_an_accepted_takeback_loses_its_buttons_and_says_so(simcord_env, world):
    channel, alice, bob = await open_game(world, "stgeorge", first_role="knights")
    await alice.slash(channel, "move", action="roll")
    moves = await alice.autocomplete(channel, "move", "action", "")
    await alice.slash(channel, "move", action=moves[0]["value"])
    await alice.slash(channel, "game undo")
    request = newest_with(channel, "asks to take back their last move")
    await bob.click(request, label="Accept")
    after = await fresh(channel, request)
    assert not ids_of(after) and "Accepted: the move is taken back" in after.content


async def test_an_offer_outlived_by_a_pause_says_it_lapsed_when_clicked(simcord_env, world):
    channel, alice, bob = await open_game(world, "lions-dragons")
    await alice.slash(channel, "game draw")
    offer = newest_with(channel, "asks a draw")
    await alice.slash(channel, "game pause")  # the game moved on without a move
    late = await bob.click(offer, label="Accept")
    assert "the game has moved on" in texts([late])[0]
    after = await fresh(channel, offer)
    assert not ids_of(after) and "Lapsed" in after.content


async def test_an_offer_the_game_moved_past_loses_its_buttons_and_says_it_lapsed_at_once(
    simcord_env, world
):
    channel, alice, _ = await open_game(world, "lions-dragons")
    await alice.slash(channel, "game draw")
    offer = newest_with(channel, "asks a draw")
    moves = await alice.autocomplete(channel, "move", "action", "")
    await alice.slash(channel, "move", action=moves[0]["value"])  # nobody answered
    after = await fresh(channel, offer)
    assert not ids_of(after)
    assert "⌛ Lapsed: the game moved on before everyone answered." in after.content


async def test_a_request_shows_who_accepted_until_the_last_answer_settles_it(simcord_env, world):
    _, channel, users = world
    alice, bob, carol = users["alice"], users["bob"], users["carol"]
    await alice.slash(channel, "game new", game="stgeorge", players=3, role="dragon")
    await bob.slash(channel, "game join")
    await carol.slash(channel, "game join")
    await alice.slash(channel, "game start")
    mover = next(u for u in (bob, carol) if f"<@{u.id}>" in bot_posts(channel)[-1].content)
    await mover.slash(channel, "move", action="roll")
    moves = await mover.autocomplete(channel, "move", "action", "")
    await mover.slash(channel, "move", action=moves[0]["value"])
    await mover.slash(channel, "game undo")
    request = newest_with(channel, "asks to take back their last move")
    first, last = [u for u in (alice, bob, carol) if u is not mover]
    await first.click(request, label="Accept")
    waiting = await fresh(channel, request)
    assert set(ids_of(waiting)) == {"Accept", "Decline"}
    assert f"Accepted by <@{first.id}>; still to answer: <@{last.id}>." in waiting.content
    await last.click(request, label="Accept")
    settled = await fresh(channel, request)
    assert not ids_of(settled) and "Accepted: the move is taken back" in settled.content
    assert "still to answer" not in settled.content
