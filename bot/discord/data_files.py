"""``/game data``: what the command asks of the host, with the uploaded file read.

Only members with Manage Server may upload or clear (checked here from the interaction's
permissions and again by the host); anyone may look at what the server corrected.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot.discord.replies import asked
from bot.service.community.server_data import UPLOAD_LIMIT
from bot.service.errors import UserError
from bot.service.notices import Outcome
from bot.service.text import said

if TYPE_CHECKING:
    from bot.discord.hosting import HostingBot

ACTIONS = [
    app_commands.Choice(name="show this server's corrected data", value="show"),
    app_commands.Choice(name="upload a corrected data file for a game", value="upload"),
    app_commands.Choice(name="clear this server's corrections of a game", value="clear"),
]


async def data_request(
    interaction: discord.Interaction[HostingBot],
    action: str,
    game: str | None,
    file: discord.Attachment | None,
) -> Outcome:
    """Run ``/game data action:<action>`` for the asker; UserError says what to give."""
    host = interaction.client.host
    where = asked(interaction)
    admin = bool(interaction.permissions and interaction.permissions.manage_guild)
    if action == "show":
        return await host.server_data.show_data(**where, game=game)
    if not game:
        raise UserError(
            said("Name the game: `/game data action:{action} game:<game>`.", action=action)
        )
    if action == "clear":
        return await host.server_data.clear_data(**where, game=game, is_admin=admin)
    if action != "upload":
        raise UserError(said("Choose an action: show, upload or clear."))
    if file is None:
        raise UserError(
            said(
                "Attach the corrected data file: `/game data action:upload game:<game> "
                "file:<file>` (a `.json` file holding the fields you change)."
            )
        )
    if not admin:  # before downloading anything
        raise UserError(
            said("Only members with Manage Server may upload corrected data on this server.")
        )
    if file.size > UPLOAD_LIMIT:
        raise UserError(
            said(
                "`{file}` is {size} KB; a corrected file may be at most {limit} KB. Upload "
                "only the fields you change.",
                file=file.filename[:80], size=file.size // 1024, limit=UPLOAD_LIMIT // 1024,
            )
        )  # fmt: skip
    content = await file.read()
    return await host.server_data.upload_data(
        **where, game=game, file_name=file.filename, content=content, is_admin=admin
    )
