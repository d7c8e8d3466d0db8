"""``/game``: opening, joining, starting, cancelling and listing games."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.cogs import autocomplete as ac
from bot.service.notices import Reply

if TYPE_CHECKING:
    from bot.discord.client import DragonBot


TIMEOUT_CHOICES = [
    app_commands.Choice(name="skip the turn", value="skip"),
    app_commands.Choice(name="forfeit the seat", value="forfeit"),
    app_commands.Choice(name="let a strong computer play it", value="computer"),
]
LEVEL_CHOICES = [
    app_commands.Choice(name="strong: the best it can find", value="strong"),
    app_commands.Choice(name="easy: random legal moves", value="easy"),
]


def _name(interaction: discord.Interaction) -> str:
    return interaction.user.display_name


@app_commands.guild_only()
class Lobby(commands.GroupCog, group_name="game", group_description="Play dragon board games"):
    def __init__(self, bot: DragonBot) -> None:
        self.bot = bot
        super().__init__()

    async def _find(self, interaction: discord.Interaction, game: int | None):
        return await self.bot.host.find(
            guild_id=interaction.guild_id,
            channel_id=interaction.channel_id,
            user_id=interaction.user.id,
            game_id=game,
        )

    @app_commands.command(name="new", description="Open a new game in this channel")
    @app_commands.describe(
        game="Which game",
        players="How many players (default: the fewest the game allows)",
        role="Your own seat (default: the first open one)",
        options="Game options as key=value, e.g. lions=symmetric",
        thread="Play in a thread of its own once started (default: the server's choice)",
    )
    @app_commands.autocomplete(game=ac.game_slugs, role=ac.new_game_roles)
    async def new(
        self,
        interaction: discord.Interaction,
        game: str,
        players: app_commands.Range[int, 2, 5] | None = None,
        role: str | None = None,
        options: str | None = None,
        thread: bool | None = None,
    ) -> None:
        await self.bot.run_work(
            interaction,
            lambda: self.bot.host.new_game(
                guild_id=interaction.guild_id,
                channel_id=interaction.channel_id,
                user_id=interaction.user.id,
                user_name=_name(interaction),
                slug=game,
                players=players,
                options=options or "",
                role=role,
                own_thread=thread,
            ),
        )

    @app_commands.command(name="join", description="Take a seat at a game that has not started")
    @app_commands.describe(
        game="Game number (default: the one in this channel)", role="Seat to take"
    )
    @app_commands.autocomplete(game=ac.games_here, role=ac.open_roles)
    async def join(
        self, interaction: discord.Interaction, game: int | None = None, role: str | None = None
    ) -> None:
        async def work():
            table = await self._find(interaction, game)
            return await self.bot.host.join(
                game_id=table.record.id,
                user_id=interaction.user.id,
                user_name=_name(interaction),
                role=role,
            )

        await self.bot.run_work(interaction, work)

    @app_commands.command(name="addbot", description="Fill an open seat with a computer player")
    @app_commands.describe(
        level="How well it plays (default strong)",
        role="Seat to fill (default the next open one)",
        game="Game number (default: the one in this channel)",
    )
    @app_commands.choices(level=LEVEL_CHOICES)
    @app_commands.autocomplete(game=ac.games_here, role=ac.open_roles)
    async def addbot(
        self,
        interaction: discord.Interaction,
        level: str = "strong",
        role: str | None = None,
        game: int | None = None,
    ) -> None:
        async def work():
            table = await self._find(interaction, game)
            return await self.bot.host.add_computer(
                game_id=table.record.id, user_id=interaction.user.id, level=level, role=role
            )

        await self.bot.run_work(interaction, work)

    @app_commands.command(name="leave", description="Give up your seat before the game starts")
    @app_commands.autocomplete(game=ac.games_here)
    async def leave(self, interaction: discord.Interaction, game: int | None = None) -> None:
        async def work():
            table = await self._find(interaction, game)
            return await self.bot.host.leave(
                game_id=table.record.id, user_id=interaction.user.id, user_name=_name(interaction)
            )

        await self.bot.run_work(interaction, work)

    @app_commands.command(name="start", description="Start your game once every seat is taken")
    @app_commands.autocomplete(game=ac.games_here)
    async def start(self, interaction: discord.Interaction, game: int | None = None) -> None:
        async def work():
            table = await self._find(interaction, game)
            host = self.bot.host
            await host.startable(game_id=table.record.id, user_id=interaction.user.id)
            if table.record.own_thread:
                thread = await self.bot.courier.open_thread(table.record.channel_id, table.title)
                await host.move_to(game_id=table.record.id, channel_id=thread.id)
            return await host.start(game_id=table.record.id, user_id=interaction.user.id)

        await self.bot.run_work(interaction, work)

    @app_commands.command(name="cancel", description="Close a game (host or Manage Server)")
    @app_commands.autocomplete(game=ac.games_here)
    async def cancel(self, interaction: discord.Interaction, game: int | None = None) -> None:
        async def work():
            table = await self._find(interaction, game)
            admin = bool(interaction.permissions and interaction.permissions.manage_guild)
            return await self.bot.host.cancel(
                game_id=table.record.id, user_id=interaction.user.id, is_admin=admin
            )

        await self.bot.run_work(interaction, work)

    @app_commands.command(name="status", description="Where a game stands, with its board")
    @app_commands.autocomplete(game=ac.games_here)
    async def status(self, interaction: discord.Interaction, game: int | None = None) -> None:
        async def work():
            table = await self._find(interaction, game)
            return await self.bot.host.status(game_id=table.record.id)

        await self.bot.run_work(interaction, work)

    @app_commands.command(name="settings", description="Change a game's turn clock (host)")
    @app_commands.describe(
        hours="Hours per turn (0: no limit)",
        reminder="Hours before the end to remind the player (0: none)",
        on_timeout="What a timed-out turn does",
    )
    @app_commands.choices(on_timeout=TIMEOUT_CHOICES)
    @app_commands.autocomplete(game=ac.games_here)
    async def settings(
        self,
        interaction: discord.Interaction,
        game: int | None = None,
        hours: app_commands.Range[float, 0, 24 * 60] | None = None,
        reminder: app_commands.Range[float, 0, 24 * 60] | None = None,
        on_timeout: str | None = None,
    ) -> None:
        async def work():
            table = await self._find(interaction, game)
            return await self.bot.host.set_timing(
                game_id=table.record.id, user_id=interaction.user.id,
                limit_hours=hours, reminder_hours=reminder, on_timeout=on_timeout,
            )  # fmt: skip

        await self.bot.run_work(interaction, work)

    @app_commands.command(
        name="defaults", description="Turn clock for new games here (Manage Server)"
    )
    @app_commands.describe(
        hours="Hours per turn (0: no limit)",
        reminder="Hours before the end to remind the player (0: none)",
        on_timeout="What a timed-out turn does",
        threads="Play each new game in a thread of its own",
    )
    @app_commands.choices(on_timeout=TIMEOUT_CHOICES)
    @app_commands.checks.has_permissions(manage_guild=True)
    async def defaults(
        self,
        interaction: discord.Interaction,
        hours: app_commands.Range[float, 0, 24 * 60] | None = None,
        reminder: app_commands.Range[float, 0, 24 * 60] | None = None,
        on_timeout: str | None = None,
        threads: bool | None = None,
    ) -> None:
        async def work():
            host = self.bot.host
            reply = await host.set_server_timing(
                guild_id=interaction.guild_id, limit_hours=hours, reminder_hours=reminder,
                on_timeout=on_timeout,
            )  # fmt: skip
            if threads is not None:
                more = await host.set_server_threads(guild_id=interaction.guild_id, on=threads)
                reply = Reply(f"{reply.text}\n{more.text}", private=False)
            return reply

        await self.bot.run_work(interaction, work)

    @app_commands.command(name="pause", description="Stop a game's clock (host)")
    @app_commands.autocomplete(game=ac.games_here)
    async def pause(self, interaction: discord.Interaction, game: int | None = None) -> None:
        async def work():
            table = await self._find(interaction, game)
            return await self.bot.host.pause(game_id=table.record.id, user_id=interaction.user.id)

        await self.bot.run_work(interaction, work)

    @app_commands.command(name="resume", description="Go on with a paused game (host)")
    @app_commands.autocomplete(game=ac.games_here)
    async def resume(self, interaction: discord.Interaction, game: int | None = None) -> None:
        async def work():
            table = await self._find(interaction, game)
            return await self.bot.host.resume(
                game_id=table.record.id,
                user_id=interaction.user.id,
                channel_id=interaction.channel_id,
            )

        await self.bot.run_work(interaction, work)

    @app_commands.command(name="list", description="Open games on this server")
    async def list_(self, interaction: discord.Interaction) -> None:
        await self.bot.run_work(
            interaction, lambda: self.bot.host.list_games(guild_id=interaction.guild_id)
        )

    @app_commands.command(name="mine", description="Your games here, and where it is your turn")
    async def mine(self, interaction: discord.Interaction) -> None:
        await self.bot.run_work(
            interaction,
            lambda: self.bot.host.mine(guild_id=interaction.guild_id, user_id=interaction.user.id),
        )


async def setup(bot: DragonBot) -> None:
    await bot.add_cog(Lobby(bot))
