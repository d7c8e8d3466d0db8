"""``/games``: one private inbox, in the bot's DMs or any server, of a player's games on every
server they share with the bot, those waiting on them first (the nearest deadline first);
Next offers the most urgent choice with its controls, and a move made there is played in
the game's channel like any click."""

from tests.e2e.conftest import answered, bot_posts, controls_in, text_of, texts

HOUR = 3600


async def open_game(guild_channel, knights, dragon):
    """A two-player St. George game in ``guild_channel``; the knights move first."""
    await knights.slash(guild_channel, "game new", game="stgeorge", players=2, role="knights")
    await dragon.slash(guild_channel, "game join", role="dragon")
    await knights.slash(guild_channel, "game start")


def seat(guild, member):
    """``member`` of the world's server joins ``guild`` too (the same user)."""
    return guild.add_member(member.user)


async def test_one_inbox_in_dms_orders_games_across_servers_and_plays_from_next(simcord_env, world):
    _, club, users = world
    alice, bob = users["alice"], users["bob"]
    servers = {}
    for name, channel_name in (("Lair", "den"), ("Knights Hall", "play"), ("Old Haunt", "ruin")):
        guild = simcord_env.create_guild(name=name)
        servers[name] = (guild, guild.create_text_channel(channel_name))
    lair, hall, haunt = (servers[n][1] for n in ("Lair", "Knights Hall", "Old Haunt"))
    haunt_guild = servers["Old Haunt"][0]

    # Old Haunt's game waits on alice with the nearest deadline, but the bot leaves it.
    await open_game(haunt, seat(haunt_guild, alice), seat(haunt_guild, bob))
    await simcord_env.advance_time(HOUR)
    # Lair's game waits on bob, with the nearest deadline of those that remain.
    lair_guild = servers["Lair"][0]
    await open_game(lair, seat(lair_guild, bob), seat(lair_guild, alice))
    await simcord_env.advance_time(HOUR)
    hall_guild = servers["Knights Hall"][0]
    await open_game(hall, seat(hall_guild, alice), seat(hall_guild, bob))
    await simcord_env.advance_time(HOUR)
    await open_game(club, alice, bob)
    simcord_env.backend.remove_guild(haunt_guild.id)
    await simcord_env.advance_time(1)

    result = await alice.user.slash("games")
    (inbox,) = answered(result)
    assert inbox.ephemeral and inbox.channel_id == alice.user.dm_channel.id
    lines = text_of(inbox).splitlines()
    assert "2 waiting for you" in lines[0]
    games = lines[1:]
    assert [g.split(" on **")[1].split("**")[0] for g in games] == [
        "Knights Hall", "Dragon Club", "Lair",
    ]  # fmt: skip
    assert "Old Haunt" not in text_of(inbox)
    assert "**your turn**" in games[0] and "**your turn**" in games[1]
    assert "your turn" not in games[2] and "waiting for" in games[2]
    assert f"<#{hall.id}>" in games[0] and f"<#{club.id}>" in games[1]
    hall_post = [m for m in bot_posts(hall) if controls_in(m)][-1]
    assert f"https://discord.com/channels/{hall_guild.id}/{hall.id}/{hall_post.id}" in games[0]
    assert "turn ends <t:" in games[0]

    # Next: the most urgent choice, privately, with the turn post's own controls.
    shown = await alice.user.click(inbox, label="Next")
    (choice,) = answered(shown)
    assert choice.ephemeral and "Knights Hall" in text_of(choice)
    assert "roll the die" in text_of(choice) and choice.attachments
    played = await alice.user.click(choice, label="Roll the die")
    assert not any("⚠️" in t for t in texts([played]))
    (done,) = answered(played)  # away from the game's channel: told privately, with where
    assert done.ephemeral and text_of(done).startswith("✅ Done in game #")
    assert text_of(done).endswith(f", in <#{hall.id}>.")
    assert "rolled" in text_of(bot_posts(hall)[-1])
    # The same control again is refused as a stale click in the channel is.
    again = await alice.user.click(choice, label="Roll the die")
    assert "already played" in texts([again])[0]


async def test_games_in_a_server_is_private_and_leaves_out_a_server_the_user_left(
    simcord_env, world
):
    _, club, users = world
    alice, bob = users["alice"], users["bob"]
    other = simcord_env.create_guild(name="Far Keep")
    keep = other.create_text_channel("hall")
    await open_game(club, alice, bob)
    # carol hosts a lobby in Far Keep that alice joins, then alice leaves the server.
    carol = seat(other, users["carol"])
    await carol.slash(keep, "game new", game="stgeorge", players=3)
    await seat(other, alice).slash(keep, "game join")
    before = await alice.slash(club, "games")
    assert "Far Keep" in texts([before])[0]
    other.remove_member(alice.user)
    await simcord_env.advance_time(1)
    result = await alice.slash(club, "games")
    (inbox,) = answered(result)
    assert inbox.ephemeral and "Dragon Club" in text_of(inbox) and "Far Keep" not in text_of(inbox)
    assert not [m for m in club.history() if "Your games" in text_of(m) and not m.ephemeral]
