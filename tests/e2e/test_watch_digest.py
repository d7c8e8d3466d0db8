"""A watcher's digest on a simulated Discord over simulated days: no DM for each board, one
DM every N hours with the newest board of each watched game that moved, across restarts."""

from tests.e2e.conftest import text_of, texts
from tests.e2e.test_stgeorge import open_two_player_game, play_turn
from tests.e2e.test_watch import dms

HOUR = 3600


async def test_a_watcher_gets_a_digest_of_the_newest_boards(simcord_env, world, restart):
    _, _, users = world
    channel, players = await open_two_player_game(world)
    carol = users["carol"]
    said = await carol.slash(channel, "notify", watching=6)
    assert "Watched games: a digest every 6 h" in texts([said])[-1]
    watching = await carol.slash(channel, "game watch")
    assert "digest of watched games every 6 h" in texts([watching])[-1]
    for _ in range(4):
        await play_turn(channel, players)
    assert dms(carol) == []  # no DM for each board
    await restart()
    await simcord_env.advance_time(6 * HOUR + 60)
    [sent] = dms(carol)
    assert "Your watched games: 1 moved" in text_of(sent)
    assert "St. George and the Dragon #1" in text_of(sent) and "waiting for" in text_of(sent)
    [picture] = sent.attachments  # the newest board, described for screen readers
    assert picture.filename == "board.png" and picture.description
    assert not sent.components

    await restart()
    await simcord_env.advance_time(6 * HOUR)  # nothing moved: nothing sent
    assert len(dms(carol)) == 1
    await play_turn(channel, players)
    await simcord_env.advance_time(6 * HOUR)
    assert len(dms(carol)) == 2 and dms(carol)[-1].attachments

    back = await carol.slash(channel, "notify", watching=0)
    assert "each new board by DM" in texts([back])[-1]
    await play_turn(channel, players)
    assert len(dms(carol)) == 3 and text_of(dms(carol)[-1]).startswith("👀 ")


async def test_a_digest_of_two_games_carries_both_boards(simcord_env, world):
    guild, _, users = world
    first, players = await open_two_player_game(world)
    second = guild.create_text_channel("more-games")
    alice, bob, carol = users["alice"], users["bob"], users["carol"]
    await alice.slash(second, "game new", game="lions-dragons")
    await bob.slash(second, "game join")
    await alice.slash(second, "game start")
    await carol.slash(first, "notify", watching=1)
    await carol.slash(first, "game watch")
    await carol.slash(second, "game watch")
    await play_turn(first, players)
    await simcord_env.advance_time(HOUR + 60)
    [sent] = dms(carol)
    assert "Your watched games: 2 moved" in text_of(sent)
    assert "#1" in text_of(sent) and "#2" in text_of(sent) and "Lions" in text_of(sent)
    assert [a.filename for a in sent.attachments] == ["board.png", "board-2.png"]
    assert all(a.description for a in sent.attachments)
