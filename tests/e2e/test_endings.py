"""Ending a game gracefully through the real bot on a simulated Discord: ``/game resign``,
``/game draw`` with Accept and Decline, and ``/game undo``."""

from tests.e2e.conftest import bot_posts, controls_in, part, text_of, texts


async def open_game(world, slug, first_role=None):
    _, channel, users = world
    alice, bob = users["alice"], users["bob"]
    opened = {"game": slug, **({"role": first_role} if first_role else {})}
    await alice.slash(channel, "game new", **opened)
    await bob.slash(channel, "game join")
    await alice.slash(channel, "game start")
    return channel, alice, bob


def newest_with(channel, words, viewer=None):
    return next(m for m in reversed(bot_posts(channel, viewer)) if words in text_of(m))


def ids_of(message):
    """``{label: custom_id}`` of a message's buttons."""
    return {
        part(item, "label"): part(item, "custom_id")
        for item in controls_in(message)
        if part(item, "custom_id")
    }


async def test_resign_asks_first_then_the_other_side_wins(simcord_env, world):
    channel, alice, bob = await open_game(world, "lions-dragons")
    asked = await bob.slash(channel, "game resign")
    assert asked.ephemeral
    confirm = asked.response or asked.followups[0]
    assert "Resign from Lions and Dragons Chess #1?" in text_of(confirm)
    assert "🏆" not in text_of(bot_posts(channel)[-1])  # nothing happens before the click
    done = await bob.click(confirm, label="Yes, resign")
    assert any("You resigned" in t for t in texts([done]))
    final = text_of(bot_posts(channel)[-1])
    assert "resigns" in final and "🏆 White wins: Black resigned." in final
    again = await bob.click(confirm, label="Yes, resign")  # a second click changes nothing
    assert "⚠️" in texts([again])[0]
    status = await alice.slash(channel, "game status")
    assert "finished" in texts([status])[0]


async def test_a_draw_offered_declined_then_offered_and_accepted(simcord_env, world, restart):
    channel, alice, bob = await open_game(world, "lions-dragons")
    offered = await alice.slash(channel, "game draw")
    assert offered.ephemeral and "every other player must accept" in texts([offered])[0]
    first = newest_with(channel, "asks a draw")
    assert f"<@{bob.id}>" in text_of(first) and set(ids_of(first)) == {"Accept", "Decline"}
    refused = await alice.click(first, label="Accept")  # the one who offered cannot answer
    assert "You made this offer" in texts([refused])[0]
    await bob.click(first, label="Decline")
    assert "declines a draw; the game goes on" in text_of(bot_posts(channel)[-1])

    await alice.slash(channel, "game draw")
    second = newest_with(channel, "asks a draw")
    assert second.id != first.id
    await restart()  # the offer and its buttons survive a restart
    accepted = await bob.click(second, label="Accept")
    assert not any("⚠️" in t for t in texts([accepted]))
    final = text_of(bot_posts(channel)[-1])
    assert "🤝 Draw agreed." in final and "Drawn by agreement" in final
    declined = next(m for m in bot_posts(channel) if m.id == first.id)
    assert not ids_of(declined)  # the declined offer's buttons are gone
    status = await alice.slash(channel, "game status")
    assert "Drawn by agreement" in texts([status])[0]


async def test_a_game_without_a_draw_by_agreement_says_so(simcord_env, world):
    channel, alice, _ = await open_game(world, "stgeorge")
    refused = await alice.slash(channel, "game draw")
    assert refused.ephemeral and "no draw by agreement" in texts([refused])[0]
    assert not any("asks a draw" in text_of(m) for m in bot_posts(channel))


async def test_a_takeback_accepted_gives_the_move_back(simcord_env, world):
    channel, alice, bob = await open_game(world, "stgeorge", first_role="knights")
    await alice.slash(channel, "move", action="roll")
    moves = await alice.autocomplete(channel, "move", "action", "")
    await alice.slash(channel, "move", action=moves[0]["value"])
    assert f"<@{bob.id}>" in text_of(bot_posts(channel)[-1])  # the Dragon is to roll

    asked = await alice.slash(channel, "game undo")
    assert asked.ephemeral
    request = newest_with(channel, "asks to take back their last move")
    await bob.click(request, label="Accept")
    back = bot_posts(channel)[-1]
    assert "takes back their last move" in text_of(back) and back.attachments
    again = await alice.autocomplete(channel, "move", "action", "")
    assert [c["value"] for c in again] == [c["value"] for c in moves]  # the same roll stands
    answered = next(m for m in bot_posts(channel) if m.id == request.id)
    assert not ids_of(answered)  # the answered request's buttons are gone


async def test_a_takeback_is_refused_once_a_die_was_rolled(simcord_env, world):
    channel, alice, bob = await open_game(world, "stgeorge", first_role="knights")
    await alice.slash(channel, "move", action="roll")
    moves = await alice.autocomplete(channel, "move", "action", "")
    await alice.slash(channel, "move", action=moves[0]["value"])
    await bob.slash(channel, "move", action="roll")
    refused = await alice.slash(channel, "game undo")
    assert refused.ephemeral and "die rolled" in texts([refused])[0]
    assert not any("asks to take back" in text_of(m) for m in bot_posts(channel))
    nothing = await world[2]["carol"].slash(channel, "game undo")
    assert "not playing" in texts([nothing])[0]
