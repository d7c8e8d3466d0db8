"""`/games` alone is installable to a user as well as a server and offered everywhere (the
bot's DMs, servers, private channels); every other command stays as it was."""

from tests.discord.test_commands_meta import payloads, tree  # noqa: F401 (a fixture)

GUILD_INSTALL, USER_INSTALL = 0, 1
GUILD, BOT_DM, PRIVATE_CHANNEL = 0, 1, 2


def test_games_is_installable_to_users_and_offered_in_dms_and_private_channels(tree):  # noqa: F811
    synced = payloads(tree)
    games = synced["games"]
    assert sorted(games["integration_types"]) == [GUILD_INSTALL, USER_INSTALL]
    assert sorted(games["contexts"]) == [GUILD, BOT_DM, PRIVATE_CHANNEL]
    others = {
        name for name, p in synced.items() if USER_INSTALL in (p.get("integration_types") or [])
    }
    assert others == {"games"}
