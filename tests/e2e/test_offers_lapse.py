"""A draw offer's or takeback request's post says where the offer stands: once it is
answered or lapses, its Accept and Decline buttons go and the post says how it ended."""

import pytest

from tests.e2e.conftest import bot_posts, text_of
from tests.e2e.test_answers import fresh
from tests.e2e.test_endings import ids_of, newest_with, open_game


async def test_a_declined_then_an_accepted_offer_loses_its_buttons_and_says_so(simcord_env, world):
    channel, alice, bob = await open_game(world, "lions-dragons")
    await alice.slash(channel, "game draw")
    declined = newest_with(channel, "asks a draw")
    await bob.click(declined, label="Decline")
    after = await fresh(channel, declined)
    assert not ids_of(after) and "Declined" in text_of(after)

    await alice.slash(channel, "game draw")
    accepted = newest_with(channel, "asks a draw")
    await bob.click(accepted, label="Accept")
    after = await fresh(channel, accepted)
    assert not ids_of(after) and "Accepted: the game is drawn" in text_of(after)


async def test_an_accepted_takeback_loses_its_buttons_and_says_so(simcord_env, world):
    channel, alice, bob = await open_game(world, "stgeorge", first_role="knights")
    await alice.slash(channel, "move", action="roll")
    moves = await alice.autocomplete(channel, "move", "action", "")
    await alice.slash(channel, "move", action=moves[0]["value"])
    await alice.slash(channel, "game undo")
    request = newest_with(channel, "asks to take back their last move")
    await bob.click(request, label="Accept")
    after = await fresh(channel, request)
    assert not ids_of(after) and "Accepted: the move is taken back" in text_of(after)


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
    assert "⌛ Lapsed: the game moved on before everyone answered." in text_of(after)


async def test_a_request_shows_who_accepted_until_the_last_answer_settles_it(simcord_env, world):
    _, channel, users = world
    alice, bob, carol = users["alice"], users["bob"], users["carol"]
    await alice.slash(channel, "game new", game="stgeorge", players=3, role="dragon")
    await bob.slash(channel, "game join")
    await carol.slash(channel, "game join")
    await alice.slash(channel, "game start")
    mover = next(u for u in (bob, carol) if f"<@{u.id}>" in text_of(bot_posts(channel)[-1]))
    await mover.slash(channel, "move", action="roll")
    moves = await mover.autocomplete(channel, "move", "action", "")
    await mover.slash(channel, "move", action=moves[0]["value"])
    await mover.slash(channel, "game undo")
    request = newest_with(channel, "asks to take back their last move")
    first, last = [u for u in (alice, bob, carol) if u is not mover]
    await first.click(request, label="Accept")
    waiting = await fresh(channel, request)
    assert set(ids_of(waiting)) == {"Accept", "Decline"}
    assert f"Accepted by <@{first.id}>; still to answer: <@{last.id}>." in text_of(waiting)
    await last.click(request, label="Accept")
    settled = await fresh(channel, request)
    assert not ids_of(settled) and "Accepted: the move is taken back" in text_of(settled)
    assert "still to answer" not in text_of(settled)


async def pause(channel, alice, bob):
    await alice.slash(channel, "game pause")


async def leave(channel, alice, bob):
    await bob.slash(channel, "game leave")


async def change_clock(channel, alice, bob):
    await alice.slash(channel, "game settings", hours=2.0)


async def resign(channel, alice, bob):
    asked = await bob.slash(channel, "game resign")
    await bob.click(asked.response or asked.followups[0], label="Yes, resign")


async def cancel(channel, alice, bob):
    await alice.slash(channel, "game cancel")


@pytest.mark.parametrize(
    ("bump", "line"),
    [
        (pause, "⌛ Lapsed: the game was paused before everyone answered."),
        (leave, "⌛ Lapsed: <@{bob}> left the game before everyone answered."),
        (change_clock, "⌛ Lapsed: the host changed the game's clock before everyone answered."),
        (resign, "⌛ Lapsed: <@{bob}> resigned before everyone answered."),
        (cancel, "⌛ Lapsed: the game was cancelled before everyone answered."),
    ],
    ids=["pause", "leave", "clock", "resign", "cancel"],
)
async def test_an_offer_outlived_by_a_write_that_is_no_move_says_so_at_once(
    simcord_env, world, bump, line
):
    channel, alice, bob = await open_game(world, "lions-dragons")
    await alice.slash(channel, "game draw")
    offer = newest_with(channel, "asks a draw")
    assert set(ids_of(offer)) == {"Accept", "Decline"}
    await bump(channel, alice, bob)  # nobody clicks the offer
    after = await fresh(channel, offer)
    assert not ids_of(after)
    assert line.format(bob=bob.id) in text_of(after)


async def test_an_offer_made_while_a_move_was_being_stored_lapses_and_says_so(
    simcord_env, world, monkeypatch
):
    """The move read the game before the offer was made and is stored after it: the
    offer's post still says at once that it lapsed, and its Accept and Decline go."""
    channel, alice, bob = await open_game(world, "lions-dragons")
    host = simcord_env.bot.host
    storing = host.store.append_action

    async def offered_meanwhile(*args, **kwargs):
        monkeypatch.setattr(host.store, "append_action", storing)  # the first move only
        await host.endings.offer_draw(user_id=bob.id, channel_id=channel.id)
        return await storing(*args, **kwargs)

    monkeypatch.setattr(host.store, "append_action", offered_meanwhile)
    moves = await alice.autocomplete(channel, "move", "action", "")
    await alice.slash(channel, "move", action=moves[0]["value"])
    offer = newest_with(channel, "asks a draw")
    after = await fresh(channel, offer)
    assert not ids_of(after)
    assert "⌛ Lapsed: the game moved on before everyone answered." in text_of(after)
