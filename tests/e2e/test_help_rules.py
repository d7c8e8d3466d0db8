"""`/help` and `/rules` through the real bot on a simulated Discord: one private message
each; `/rules` shows a section and a menu of every section, choosing one edits the message
in place (after a restart too), and it works in DMs."""

from __future__ import annotations

from tests.e2e.conftest import text_of, texts


def menu_of(message):
    """The one select menu under a message: its id and its options (label, value, default)."""
    [row] = message.components
    [select] = row["components"]
    options = [(o["label"], o["value"], bool(o.get("default"))) for o in select["options"]]
    return select["custom_id"], options


async def test_rules_is_one_message_with_a_menu_of_its_sections(simcord_env, world, restart):
    _, channel, users = world
    alice = users["alice"]
    result = await alice.slash(channel, "rules", game="dragonslayer")
    assert result.ephemeral and not result.followups
    shown = result.response
    assert text_of(shown).startswith("**Dragonslayer: Playing** (1/14)")
    assert len(text_of(shown)) <= 2000
    custom_id, options = menu_of(shown)
    assert custom_id == "dh:rules:dragonslayer"
    labels = [label for label, _, _ in options]
    assert labels[:3] == ["Playing", "How the rule text is read", "The Dragon (1/2)"]
    assert "Battle Display, modifiers, Matrix (2/2)" in labels
    assert options[0][2] and not any(default for _, _, default in options[1:])

    chosen = await alice.select(shown, ["7"])
    edited = chosen.response
    assert edited.id == shown.id, "the section replaces the message, no new message"
    assert text_of(edited).startswith(f"**Dragonslayer: {labels[7]}** (8/14)")
    assert [d for _, _, d in menu_of(edited)[1]].index(True) == 7

    await restart()
    again = await alice.select(edited, ["0"])
    assert text_of(again.response).startswith("**Dragonslayer: Playing** (1/14)")


async def test_rules_of_every_game_and_in_dms(simcord_env, world):
    _, channel, users = world
    alice = users["alice"]
    for game, first in [
        ("stgeorge", "**St. George and the Dragon: St. George and the Dragon** (1/8)"),
        ("lions-dragons", "**Lions and Dragons Chess: Lions and Dragons Chess** (1/9)"),
        ("dragons-cave", "**Dragon's Cave: Playing** (1/6)"),
    ]:
        result = await alice.slash(channel, "rules", game=game)
        assert result.ephemeral and text_of(result.response).startswith(first), game
    in_dm = await alice.user.slash("rules", game="dragons-cave")
    assert text_of(in_dm.response).startswith("**Dragon's Cave: Playing** (1/6)")
    last = await alice.user.select(in_dm.response, ["5"])
    assert text_of(last.response).startswith("**Dragon's Cave: Reconstructed board** (6/6)")
    unknown = await alice.slash(channel, "rules", game="chess")
    assert unknown.ephemeral and "no game called `chess`" in texts([unknown])[0]


async def test_help_names_the_games_how_to_start_and_every_command(simcord_env, world):
    _, channel, users = world
    result = await users["bob"].slash(channel, "help")
    assert result.ephemeral and not result.followups
    text = text_of(result.response)
    assert len(text) <= 2000
    for line in [
        "**St. George and the Dragon** (`stgeorge`), 2-5 players",
        "**Lions and Dragons Chess** (`lions-dragons`), 2 players",
        "**Dragon's Cave** (`dragons-cave`), 2-4 players",
        "**Dragonslayer** (`dragonslayer`), 2-4 players",
        "`/game new game:<game>` opens it",
        "`/rules game:<game>`",
    ]:
        assert line in text
    commands = users["bob"].available_commands(channel)
    assert "game data" in commands and "help" in commands and len(commands) >= 20
    for command in commands:
        assert f"`/{command}`" in text, command
    for group in ("**Gathering**", "**Playing**", "**Clock**", "**Story**", "**Server admin"):
        assert group in text


def test_a_command_not_yet_given_a_group_is_still_listed_under_more():
    from discord import app_commands

    from bot.discord.cogs.help import help_message

    @app_commands.command(name="watch", description="Follow a game without playing")
    async def watch(interaction) -> None: ...

    text = help_message([watch], [("toy", "Toy Game", 2, 2)])
    assert "**More**: `/watch` Follow a game without playing" in text
    assert "- **Toy Game** (`toy`), 2 players" in text
