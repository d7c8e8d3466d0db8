"""Commands that exist only on Discord get a clear answer at the local table, saying so and
what to type instead; the table's own commands and `help` work."""

import io

import pytest

from bot.console.commands import COMMANDS, ParseError, parse
from bot.console.table import LocalTable
from bot.discord.client import COGS, DragonBot
from bot.settings import Settings


@pytest.fixture
async def discord_commands() -> list[str]:
    """Every slash command of the Discord bot, as typed (``game settings``)."""
    bot = DragonBot(Settings(database=":memory:"))
    for cog in COGS:
        await bot.load_extension(cog)
    paths = [c.qualified_name for c in bot.tree.walk_commands() if not hasattr(c, "commands")]
    await bot.close()
    return paths


async def test_every_discord_command_is_either_here_or_answered_as_discord_only(
    discord_commands,
):
    for path in discord_commands:
        if path in COMMANDS:
            assert parse(f"alice: /{path}").command == path
            continue
        with pytest.raises(ParseError) as refused:
            parse(f"alice: /{path} game:1")
        assert str(refused.value) == (
            f"`/{path}` is a Discord command; at the local table type `help` for the commands here."
        )


async def test_game_settings_is_answered_as_a_discord_command_not_as_unknown_game():
    out = io.StringIO()
    table = await LocalTable.open(out=out)
    try:
        accepted = await table.run_line("alice: /game settings hours:2")
    finally:
        await table.close()
    assert not accepted
    assert "`/game settings` is a Discord command" in out.getvalue()
    assert "Unknown command `/game`" not in out.getvalue()


async def test_help_alone_lists_the_table_commands_and_what_is_discord_only():
    out = io.StringIO()
    table = await LocalTable.open(out=out)
    try:
        assert await table.run_line("help")
    finally:
        await table.close()
    assert "Local table commands" in out.getvalue()
    assert "Discord only" in out.getvalue() and "/game settings" in out.getvalue()


def test_a_misspelt_command_is_named_whole():
    with pytest.raises(ParseError, match=r"Unknown command `/game strat`. Type `help`"):
        parse("alice: /game strat")
    with pytest.raises(ParseError, match=r"`/game` needs one more word: .*`/game new`"):
        parse("alice: /game")
