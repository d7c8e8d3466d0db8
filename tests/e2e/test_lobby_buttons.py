"""Gathering a table through the real bot on a simulated Discord: the lobby post's Join,
Leave and Start buttons (surviving a restart), the menu of open seats, ``/game invite``
with its DM Join button, and the final post's Rematch."""

from tests.e2e.conftest import bot_posts, controls_in, status_messages, text_of, texts
from tests.e2e.test_endings import ids_of

STGEORGE = "St. George and the Dragon #1"
LIONS = "Lions and Dragons Chess"


def said(result):
    return "\n".join(t or "" for t in texts([result]))


def menu_values(message):
    """``{label: value}`` of the one select menu on ``message`` (an ephemeral answer)."""
    [menu] = [c for c in controls_in(message) if "options" in c]
    return {o["label"]: o["value"] for o in menu["options"]}


def newest_with(channel, words):
    return next(m for m in reversed(bot_posts(channel)) if words in text_of(m))


async def test_a_table_gathered_by_buttons_that_survive_a_restart(simcord_env, world, restart):
    _, channel, users = world
    alice, bob, carol, dave = (users[n] for n in ("alice", "bob", "carol", "dave"))
    await alice.slash(channel, "game new", game="stgeorge", players=3, role="dragon")
    lobby = newest_with(channel, "is open for 3 players")
    assert set(ids_of(lobby)) == {"Join", "Leave", "Start"}
    [status] = status_messages(channel)
    assert "waiting for players (1 of 3 seated)" in text_of(status)

    # Two seats are open: Join asks bob which one, for his eyes only.
    asked = await bob.click(lobby, label="Join")
    assert asked.ephemeral
    menu = asked.response or asked.followups[0]
    assert "Which seat do you take at St. George and the Dragon #1?" in text_of(menu)
    seats = menu_values(menu)
    assert set(seats) == {"St. Andrew & St. George", "St. David & St. Patrick"}
    joined = await bob.select(menu, [seats["St. David & St. Patrick"]])
    assert f"You joined {STGEORGE} as St. David & St. Patrick." in said(joined)
    assert "bob joined" in text_of(bot_posts(channel)[-1])

    await restart()  # the lobby's buttons keep working in a new process
    refused = await carol.click(lobby, label="Start")
    assert refused.ephemeral and f"Only the host, <@{alice.id}>, can start" in said(refused)
    taken = await carol.click(lobby, label="Join")  # one seat left: taken at once
    assert f"You joined {STGEORGE} as St. Andrew & St. George." in said(taken)
    await carol.click(lobby, label="Leave")
    assert "carol left" in text_of(bot_posts(channel)[-1])
    await carol.click(lobby, label="Join")
    [status] = status_messages(channel)
    assert "(3 of 3 seated)" in text_of(status)
    assert "St. Andrew & St. George: carol" in text_of(status)

    started = await alice.click(lobby, label="Start")
    assert f"{STGEORGE} has started." in said(started)
    assert "The game begins!" in text_of(bot_posts(channel)[-1])
    late = await dave.click(lobby, label="Join")
    assert late.ephemeral and f"{STGEORGE} has already started" in said(late)
    gone = await bob.click(lobby, label="Leave")  # a lobby button never gives a seat in play up
    assert "has already started" in said(gone)
    assert "has left" not in text_of(bot_posts(channel)[-1])


async def test_an_invitation_by_dm_joins_from_the_dm(simcord_env, world, restart):
    guild, channel, users = world
    alice, bob, carol = users["alice"], users["bob"], users["carol"]
    await alice.slash(channel, "game new", game="lions-dragons")
    sent = await alice.slash(channel, "game invite", user=bob)
    assert sent.ephemeral and "bob is invited to Lions and Dragons Chess #1 by DM" in said(sent)
    [card] = bob.user.dm_channel.history()
    assert "alice invites you to play **Lions and Dragons Chess #1**" in text_of(card)
    assert f"<#{channel.id}>" in text_of(card) and "/game join game:1" in text_of(card)
    assert f"/channels/{guild.id}/{channel.id}/" in text_of(card)  # the table's link
    assert list(ids_of(card)) == ["Join Lions and Dragons Chess #1"]

    await restart()
    joined = await bob.user.click(card, label="Join Lions and Dragons Chess #1")
    assert "You joined Lions and Dragons Chess #1 as Black." in said(joined)
    assert "bob joined **Lions and Dragons Chess #1** as Black" in text_of(bot_posts(channel)[-1])
    again = await bob.user.click(card, label="Join Lions and Dragons Chess #1")
    assert "You are already in Lions and Dragons Chess #1" in said(again)

    for invitee, words in [
        (alice, "You cannot invite yourself"),
        (bob, "bob is already seated"),
        (carol, "Lions and Dragons Chess #1 is full"),
    ]:
        refused = await alice.slash(channel, "game invite", user=invitee)
        assert refused.ephemeral and words in said(refused)
    assert not carol.user.dm_channel.history()


async def test_inviting_a_bot_or_a_member_with_closed_dms_is_refused(simcord_env, world):
    guild, channel, users = world
    alice, carol = users["alice"], users["carol"]
    robot = guild.add_member(simcord_env.create_user("robot", bot=True))
    await alice.slash(channel, "game new", game="lions-dragons")
    refused = await alice.slash(channel, "game invite", user=robot)
    assert "Bots cannot be invited; `/game addbot` seats a computer player." in said(refused)

    dm_path = f"/channels/{carol.user.dm_channel.id}/messages"
    simcord_env.inject_error("POST", dm_path, status=403, code=50007, times=None)
    closed = await alice.slash(channel, "game invite", user=carol)
    assert closed.ephemeral
    assert "I can't send carol direct messages (they are closed)" in said(closed)
    assert "Mention them in the channel instead" in said(closed)
    assert not carol.user.dm_channel.history()


async def test_a_rematch_opens_one_new_game_for_the_same_players(simcord_env, world, restart):
    guild, channel, users = world
    alice, bob, carol = users["alice"], users["bob"], users["carol"]
    await alice.slash(channel, "game new", game="lions-dragons")
    await bob.slash(channel, "game join")
    await alice.slash(channel, "game start")
    await alice.slash(channel, "game leave")  # White gives up at once: Black wins
    final = bot_posts(channel)[-1]
    assert "🏆" in text_of(final) and list(ids_of(final)) == ["Rematch"]

    await restart()
    stranger = await carol.click(final, label="Rematch")
    assert stranger.ephemeral and "Only the players of Lions and Dragons Chess #1" in said(stranger)
    assert "`/game new`" in said(stranger)
    opened = await bob.click(final, label="Rematch")
    assert "You opened Lions and Dragons Chess #2, a rematch of Lions and Dragons Chess #1" in said(
        opened
    )
    rematch = bot_posts(channel)[-1]
    assert "**Lions and Dragons Chess #2** is open: a rematch of #1" in text_of(rematch)
    assert "hosted by bob" in text_of(rematch) and f"<@{alice.id}>" in text_of(rematch)
    assert "Black: bob" in text_of(rematch) and "White: *open*" in text_of(rematch)
    assert set(ids_of(rematch)) == {"Join", "Leave", "Start"}

    twice = await alice.click(final, label="Rematch")
    assert twice.ephemeral
    assert "A rematch is already open: Lions and Dragons Chess #2" in said(twice)
    assert f"/channels/{guild.id}/{channel.id}/" in said(twice)
    games = [m for m in bot_posts(channel) if "is open" in text_of(m)]
    assert len(games) == 2, "one rematch, however many press"

    await alice.click(rematch, label="Join")
    started = await bob.click(rematch, label="Start")
    assert "Lions and Dragons Chess #2 has started." in said(started)
    assert "The game begins!" in text_of(bot_posts(channel)[-1])


async def test_start_by_button_opens_the_games_thread_and_its_rematch_opens_outside(
    simcord_env, world
):
    _, channel, users = world
    alice, bob = users["alice"], users["bob"]
    await alice.slash(channel, "game new", game="lions-dragons", thread=True)
    lobby = newest_with(channel, "is open for 2 players")
    await bob.click(lobby, label="Join")
    await alice.click(lobby, label="Start")
    [thread] = channel.threads
    assert "The game begins!" in text_of(bot_posts(thread)[-1])
    await alice.slash(thread, "game leave")
    final = bot_posts(thread)[-1]
    assert "🏆" in text_of(final) and list(ids_of(final)) == ["Rematch"]
    await bob.click(final, label="Rematch")
    rematch = bot_posts(channel)[-1]
    assert "**Lions and Dragons Chess #2** is open: a rematch of #1" in text_of(rematch)
    assert len(channel.threads) == 1, "the rematch gets its own thread only once started"
