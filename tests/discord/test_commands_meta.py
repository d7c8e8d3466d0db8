"""Every slash command, as Discord is told about it: a real description on every command and
option, admin commands hidden from members who may not use them, and commands that need a
server offered only in servers."""

import discord
import pytest
from discord import app_commands

from bot.discord.client import COGS, DragonBot
from bot.settings import Settings

PLACEHOLDER = "…"  # what discord.py says for an option nobody described

NEEDS_A_SERVER = {"game", "server", "move", "hand"}
"""Commands that find their game by the server and channel they are typed in."""

ADMIN_ONLY = {"server": discord.Permissions(manage_guild=True)}
"""Top-level commands only members with these permissions are offered."""

WORKS_IN_DMS = {"notify"}
"""Commands that are about the user alone (``/notify`` is their own setting)."""


@pytest.fixture
async def tree():
    bot = DragonBot(Settings(database=":memory:"))
    for cog in COGS:
        await bot.load_extension(cog)
    yield bot.tree
    await bot.close()


def payloads(tree: app_commands.CommandTree) -> dict[str, dict]:
    """Each top-level command as it is synced to Discord, by name."""
    return {command.name: command.to_dict(tree) for command in tree.get_commands()}


def leaves(payload: dict, path: str = ""):
    """(path, description, options) of every command and subcommand in ``payload``."""
    path = f"{path} {payload['name']}".strip()
    yield path, payload.get("description", ""), payload.get("options", [])
    for option in payload.get("options", []):
        if option["type"] in (1, 2):  # a subcommand or a group of them
            yield from leaves(option, path)


def test_every_command_and_option_has_a_real_description(tree):
    missing = []
    for payload in payloads(tree).values():
        for path, description, options in leaves(payload):
            if not description.strip() or description.strip() == PLACEHOLDER:
                missing.append(f"/{path}")
            for option in options:
                text = option.get("description", "").strip()
                if option["type"] not in (1, 2) and (not text or text == PLACEHOLDER):
                    missing.append(f"/{path} {option['name']}:")
    assert not missing, f"described as {PLACEHOLDER!r} or not at all: {missing}"


def test_admin_commands_are_offered_only_to_members_allowed_to_use_them(tree):
    synced = payloads(tree)
    for name, needed in ADMIN_ONLY.items():
        assert int(synced[name].get("default_member_permissions") or 0) == needed.value, name
    flat = {path for payload in synced.values() for path, _, _ in leaves(payload)}
    assert "server defaults" in flat and "game defaults" not in flat


def test_commands_that_need_a_server_are_not_offered_in_dms(tree):
    synced = payloads(tree)
    offered_in_dms = {name for name, p in synced.items() if 1 in (p.get("contexts") or [0, 1])}
    assert not offered_in_dms & NEEDS_A_SERVER, offered_in_dms & NEEDS_A_SERVER
    assert offered_in_dms >= WORKS_IN_DMS


def test_game_new_offers_each_games_own_table_sizes(tree):
    new = next(o for o in payloads(tree)["game"]["options"] if o["name"] == "new")
    players = next(o for o in new["options"] if o["name"] == "players")
    assert players.get("autocomplete") is True
