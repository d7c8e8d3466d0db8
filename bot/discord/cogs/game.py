"""``/game``: opening, joining, starting and listing games, computer seats, each game's
turn clock (limits, reminders, pausing), and a game's story (its history, its record, its
replay). The server's defaults for new games are ``/server defaults`` (``admin.py``)."""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

import i18n
from bot.discord import autocomplete as ac
from bot.discord import data_files
from bot.discord.markup import markup
from bot.discord.replies import answer, asked, asked_in_server, give_file, server_locale
from bot.service.community.notes import NOTE_CHARS
from bot.service.notices import Outcome
from bot.service.text import said
from bot.service.timekeeping.bank import MAX_BANK_HOURS

if TYPE_CHECKING:
    from bot.discord.hosting import HostingBot


TIMEOUT_CHOICES = [
    app_commands.Choice(name="skip the turn", value="skip"),
    app_commands.Choice(name="forfeit the seat", value="forfeit"),
    app_commands.Choice(name="let a strong computer play it", value="computer"),
]
LEVEL_CHOICES = [
    app_commands.Choice(name="strong: the best it can find", value="strong"),
    app_commands.Choice(name="easy: random legal moves", value="easy"),
]


SHOW_CHOICES = [
    app_commands.Choice(name="games being played or waiting for players", value="running"),
    app_commands.Choice(name="recently finished games, with their results", value="finished"),
]
PROGRESS_EVERY = 1.5
"""Seconds between edits of a replay's progress line (Discord limits edits)."""

log = logging.getLogger(__name__)


def _name(interaction: discord.Interaction) -> str:
    return interaction.user.display_name


@app_commands.guild_only()
class Game(commands.GroupCog, group_name="game", group_description="Play dragon board games"):
    """The ``/game`` commands."""

    def __init__(self, bot: HostingBot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name="new", description="Open a new game in this channel")
    @app_commands.describe(
        game="Which game",
        players="How many players; the list shows the game's table sizes (default: the fewest)",
        role="Your own seat (default: the first open one)",
        options="Game options as key=value, e.g. lions=symmetric",
        thread="Play in a thread of its own once started (default: the server's choice)",
    )
    @app_commands.autocomplete(game=ac.game_slugs, role=ac.new_game_roles)
    @app_commands.autocomplete(players=ac.table_sizes_of_game)
    async def new(
        self,
        interaction: discord.Interaction[HostingBot],
        game: str,
        players: app_commands.Range[int, 2, 5] | None = None,
        role: str | None = None,
        options: str | None = None,
        thread: bool | None = None,
    ) -> None:
        await answer(
            interaction,
            lambda: self.bot.host.lobby.new_game(
                **asked_in_server(interaction), user_name=_name(interaction), slug=game,
                players=players, options=options or "", role=role, own_thread=thread,
            ),
        )  # fmt: skip

    @app_commands.command(name="join", description="Take a seat at a game that has not started")
    @app_commands.describe(
        game="Game number (default: the one in this channel)", role="Seat to take"
    )
    @app_commands.autocomplete(game=ac.games_here)
    @app_commands.autocomplete(role=ac.open_roles)
    async def join(
        self,
        interaction: discord.Interaction[HostingBot],
        game: int | None = None,
        role: str | None = None,
    ) -> None:
        await answer(
            interaction,
            lambda: self.bot.host.lobby.join(
                **asked(interaction), user_name=_name(interaction), game_id=game, role=role
            ),
        )

    @app_commands.command(
        name="invite", description="Invite a member to a game waiting for players, by DM"
    )
    @app_commands.describe(
        user="The member to invite (they get a DM with a Join button)",
        game="Game number (default: the one in this channel)",
    )
    @app_commands.autocomplete(game=ac.games_here)
    async def invite(
        self,
        interaction: discord.Interaction[HostingBot],
        user: discord.Member,
        game: int | None = None,
    ) -> None:
        await answer(
            interaction,
            lambda: self.bot.host.gathering.invite(
                **asked(interaction), user_name=_name(interaction), game_id=game,
                invitee_id=user.id, invitee_name=user.display_name, invitee_is_bot=user.bot,
                deliver=self.bot.outbox.flush_outcome,
            ),
        )  # fmt: skip

    @app_commands.command(name="addbot", description="Fill an open seat with a computer player")
    @app_commands.describe(
        level="How well it plays (default strong)",
        role="Seat to fill (default the next open one)",
        game="Game number (default: the one in this channel)",
    )
    @app_commands.choices(level=LEVEL_CHOICES)
    @app_commands.autocomplete(game=ac.games_here)
    @app_commands.autocomplete(role=ac.open_roles)
    async def addbot(
        self,
        interaction: discord.Interaction[HostingBot],
        level: str = "strong",
        role: str | None = None,
        game: int | None = None,
    ) -> None:
        await answer(
            interaction,
            lambda: self.bot.host.lobby.add_computer(
                **asked(interaction), game_id=game, level=level, role=role
            ),
        )

    @app_commands.command(
        name="leave", description="Leave a game; once it is under way your seat gives up at once"
    )
    @app_commands.describe(game="Game number (default: the one in this channel)")
    @app_commands.autocomplete(game=ac.games_here)
    async def leave(
        self, interaction: discord.Interaction[HostingBot], game: int | None = None
    ) -> None:
        await answer(
            interaction,
            lambda: self.bot.host.lobby.leave(
                **asked(interaction), user_name=_name(interaction), game_id=game
            ),
        )

    @app_commands.command(name="start", description="Start your game once every seat is taken")
    @app_commands.describe(game="Game number (default: the one in this channel)")
    @app_commands.autocomplete(game=ac.games_here)
    async def start(
        self, interaction: discord.Interaction[HostingBot], game: int | None = None
    ) -> None:
        async def work() -> Outcome:
            host = self.bot.host
            table = await host.lobby.startable(**asked(interaction), game_id=game)
            if table.record.own_thread:
                thread = await self.bot.courier.open_thread(table.record.channel_id, table.title)
                await host.lobby.move_to(game_id=table.record.id, channel_id=thread.id)
            return await host.lobby.start(**asked(interaction), game_id=table.record.id)

        await answer(interaction, work)

    @app_commands.command(name="cancel", description="Close a game (host or Manage Server)")
    @app_commands.describe(game="Game number (default: the one in this channel)")
    @app_commands.autocomplete(game=ac.games_here)
    async def cancel(
        self, interaction: discord.Interaction[HostingBot], game: int | None = None
    ) -> None:
        admin = bool(interaction.permissions and interaction.permissions.manage_guild)
        await answer(
            interaction,
            lambda: self.bot.host.lobby.cancel(**asked(interaction), game_id=game, is_admin=admin),
        )

    @app_commands.command(name="status", description="Where a game stands, with its board")
    @app_commands.describe(game="Game number (default: the one in this channel)")
    @app_commands.autocomplete(game=ac.games_here)
    async def status(
        self, interaction: discord.Interaction[HostingBot], game: int | None = None
    ) -> None:
        await answer(
            interaction, lambda: self.bot.host.listings.status(**asked(interaction), game_id=game)
        )

    @app_commands.command(
        name="page", description="A game's page on the web: its board, its moves and a replay"
    )
    @app_commands.describe(
        game="Game number (default: the one in this channel)",
        new_address="Give the game a new address; the old one stops working (host)",
    )
    @app_commands.autocomplete(game=ac.games_here)
    async def page(
        self,
        interaction: discord.Interaction[HostingBot],
        game: int | None = None,
        new_address: bool = False,
    ) -> None:
        await answer(
            interaction,
            lambda: self.bot.host.pages.address(
                **asked(interaction), game_id=game, renew=new_address
            ),
        )

    @app_commands.command(
        name="note", description="Your private note on a game: only you ever see it"
    )
    @app_commands.describe(
        text="The note to keep (replaces yours); leave out to see it",
        clear="Remove your note",
        game="Game number (default: the one in this channel)",
    )
    @app_commands.autocomplete(game=ac.games_here)
    async def note(
        self,
        interaction: discord.Interaction[HostingBot],
        text: app_commands.Range[str, 1, NOTE_CHARS] | None = None,
        clear: bool = False,
        game: int | None = None,
    ) -> None:
        await answer(
            interaction,
            lambda: self.bot.host.notes.note(
                **asked(interaction), game_id=game, text=text, clear=clear
            ),
        )

    @app_commands.command(name="settings", description="Change a game's turn clock (host)")
    @app_commands.describe(
        game="Game number (default: the one in this channel)",
        hours="Hours per turn (0: no limit)",
        reminder="Hours before the end to remind the player (0: none)",
        on_timeout="What a timed-out turn does",
        bank="Hours of time bank for each seat, spent once a turn runs over (lobby only)",
        playing_hours="Daily hours the clock runs, e.g. 9-22 (off: around the clock; lobby only)",
        playing_days="Days the clock runs, e.g. mon-fri or sat,sun (all: every day; lobby only)",
        timezone="Time zone of the playing hours, e.g. Europe/Paris (lobby only)",
    )
    @app_commands.choices(on_timeout=TIMEOUT_CHOICES)
    @app_commands.autocomplete(game=ac.games_here)
    async def settings(
        self,
        interaction: discord.Interaction[HostingBot],
        game: int | None = None,
        hours: app_commands.Range[float, 0, 24 * 60] | None = None,
        reminder: app_commands.Range[float, 0, 24 * 60] | None = None,
        on_timeout: str | None = None,
        bank: app_commands.Range[float, 0, 24 * 60] | None = None,
        playing_hours: app_commands.Range[str, 0, 40] | None = None,
        playing_days: app_commands.Range[str, 0, 60] | None = None,
        timezone: app_commands.Range[str, 0, 60] | None = None,
    ) -> None:
        await answer(
            interaction,
            lambda: self.bot.host.turn_clock.set_timing(
                **asked(interaction), game_id=game, limit_hours=hours, reminder_hours=reminder,
                on_timeout=on_timeout, bank_hours=bank, playing_hours=playing_hours,
                playing_days=playing_days, timezone=timezone,
            ),
        )  # fmt: skip

    @app_commands.command(
        name="givetime", description="Give a player more time: their time bank grows (host)"
    )
    @app_commands.describe(
        player="The player to give time to",
        hours="Hours to add to their time bank (a bank holds at most 60 days)",
        game="Game number (default: the one in this channel)",
    )
    @app_commands.autocomplete(game=ac.games_here)
    async def givetime(
        self,
        interaction: discord.Interaction[HostingBot],
        player: discord.Member,
        hours: app_commands.Range[float, 0, MAX_BANK_HOURS],
        game: int | None = None,
    ) -> None:
        await answer(
            interaction,
            lambda: self.bot.host.turn_clock.give_time(
                **asked(interaction), game_id=game, player_id=player.id, hours=hours
            ),
        )

    @app_commands.command(name="pause", description="Stop a game's clock (host)")
    @app_commands.describe(game="Game number (default: the one in this channel)")
    @app_commands.autocomplete(game=ac.games_here)
    async def pause(
        self, interaction: discord.Interaction[HostingBot], game: int | None = None
    ) -> None:
        await answer(
            interaction, lambda: self.bot.host.turn_clock.pause(**asked(interaction), game_id=game)
        )

    @app_commands.command(name="resume", description="Go on with a paused game (host)")
    @app_commands.describe(game="Game number (default: the one in this channel)")
    @app_commands.autocomplete(game=ac.games_here)
    async def resume(
        self, interaction: discord.Interaction[HostingBot], game: int | None = None
    ) -> None:
        await answer(
            interaction, lambda: self.bot.host.turn_clock.resume(**asked(interaction), game_id=game)
        )

    @app_commands.command(name="list", description="Games on this server")
    @app_commands.describe(show="Which games to list (default: the ones being played)")
    @app_commands.choices(show=SHOW_CHOICES)
    async def list_(
        self, interaction: discord.Interaction[HostingBot], show: str = "running"
    ) -> None:
        await answer(
            interaction,
            lambda: self.bot.host.listings.list_games(**asked_in_server(interaction), show=show),
        )

    @app_commands.command(name="mine", description="Your games here, and where it is your turn")
    async def mine(self, interaction: discord.Interaction[HostingBot]) -> None:
        await answer(
            interaction, lambda: self.bot.host.listings.mine(**asked_in_server(interaction))
        )

    # -- watching a game --------------------------------------------------------------

    @app_commands.command(
        name="watch", description="Get each new board of a game you don't play by DM"
    )
    @app_commands.describe(game="Game number (default: the one in this channel)")
    @app_commands.autocomplete(game=ac.games_here)
    async def watch(
        self, interaction: discord.Interaction[HostingBot], game: int | None = None
    ) -> None:
        await answer(
            interaction, lambda: self.bot.host.watchers.watch(**asked(interaction), game_id=game)
        )

    @app_commands.command(name="unwatch", description="Stop getting a watched game's boards")
    @app_commands.describe(game="Game number (default: the only game you watch)")
    @app_commands.autocomplete(game=ac.watched_games)
    async def unwatch(
        self, interaction: discord.Interaction[HostingBot], game: int | None = None
    ) -> None:
        await answer(
            interaction, lambda: self.bot.host.watchers.unwatch(**asked(interaction), game_id=game)
        )

    # -- ending a game gracefully ----------------------------------------------------

    @app_commands.command(name="resign", description="Give up your seat in a game (asks first)")
    @app_commands.describe(game="Game number (default: the one in this channel)")
    @app_commands.autocomplete(game=ac.games_here)
    async def resign(
        self, interaction: discord.Interaction[HostingBot], game: int | None = None
    ) -> None:
        await answer(
            interaction, lambda: self.bot.host.endings.resign(**asked(interaction), game_id=game)
        )

    @app_commands.command(
        name="draw", description="Offer the other players a draw, where the game has one"
    )
    @app_commands.describe(game="Game number (default: the one in this channel)")
    @app_commands.autocomplete(game=ac.games_here)
    async def draw(
        self, interaction: discord.Interaction[HostingBot], game: int | None = None
    ) -> None:
        await answer(
            interaction,
            lambda: self.bot.host.endings.offer_draw(**asked(interaction), game_id=game),
        )

    @app_commands.command(
        name="undo", description="Ask the other players to take back your last move"
    )
    @app_commands.describe(game="Game number (default: the one in this channel)")
    @app_commands.autocomplete(game=ac.games_here)
    async def undo(
        self, interaction: discord.Interaction[HostingBot], game: int | None = None
    ) -> None:
        await answer(
            interaction,
            lambda: self.bot.host.endings.request_takeback(**asked(interaction), game_id=game),
        )

    @app_commands.command(
        name="history", description="A game's moves, turn by turn (the whole game once it ends)"
    )
    @app_commands.describe(
        game="Game number, finished games too (default: the one in this channel)",
        page="Page to show, from 1 for the oldest moves (default: the latest page)",
    )
    @app_commands.autocomplete(game=ac.story_games)
    async def history(
        self,
        interaction: discord.Interaction[HostingBot],
        game: int | None = None,
        page: app_commands.Range[int, 1, 10_000] | None = None,
    ) -> None:
        await answer(
            interaction,
            lambda: self.bot.host.stories.history(**asked(interaction), game_id=game, page=page),
        )

    @app_commands.command(name="export", description="A game's record as a text file")
    @app_commands.describe(game="Game number, finished games too (default: the one here)")
    @app_commands.autocomplete(game=ac.story_games)
    async def export(
        self, interaction: discord.Interaction[HostingBot], game: int | None = None
    ) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await give_file(
            interaction,
            lambda: self.bot.host.stories.export_record(**asked(interaction), game_id=game),
        )

    @app_commands.command(
        name="replay", description="An animation of a game's boards, turn by turn"
    )
    @app_commands.describe(
        game="Game number, finished games too (default: the one in this channel)",
        from_turn="The turn to start from, numbered as posts and history number it (default: 1)",
    )
    @app_commands.autocomplete(game=ac.story_games)
    async def replay(
        self,
        interaction: discord.Interaction[HostingBot],
        game: int | None = None,
        from_turn: app_commands.Range[int, 1, 10_000] = 1,
    ) -> None:
        await interaction.response.defer(thinking=True)
        progress = _progress(interaction)
        await give_file(
            interaction,
            lambda: self.bot.host.stories.replay_animation(
                **asked(interaction), game_id=game, from_turn=from_turn, progress=progress
            ),
        )

    # -- a server's corrected data files -------------------------------------------------

    @app_commands.command(
        name="data", description="This server's corrected game data (Manage Server to change)"
    )
    @app_commands.describe(
        action="Show, upload or clear this server's corrected data",
        game="Which game's data (needed to upload or clear)",
        file="The corrected data file (.json with the fields you change), to upload",
    )
    @app_commands.choices(action=data_files.ACTIONS)
    @app_commands.autocomplete(game=ac.game_slugs)
    async def data(
        self,
        interaction: discord.Interaction[HostingBot],
        action: str,
        game: str | None = None,
        file: discord.Attachment | None = None,
    ) -> None:
        await answer(interaction, lambda: data_files.data_request(interaction, action, game, file))


def _progress(
    interaction: discord.Interaction[HostingBot],
) -> Callable[[int, int], Awaitable[None]]:
    """Show how far a replay's drawing has got on the deferred reply, now and then, in
    the server's language (the reply is shown to the whole channel)."""
    last = [0.0]
    locales: list[i18n.Locale] = []

    async def tell(done: int, total: int) -> None:
        now = time.monotonic()
        if done < total and now - last[0] >= PROGRESS_EVERY:
            last[0] = now
            if not locales:
                locales.append(await _channel_locale(interaction))
            line = "🎞️ " + said("Drawing turn {turn} of {total}…", turn=done + 1, total=total)
            await interaction.edit_original_response(content=markup(line, None, locales[0]))

    return tell


async def _channel_locale(interaction: discord.Interaction[HostingBot]) -> i18n.Locale:
    """The server's language for a line shown in its channel; English when the store
    cannot tell it now (a progress line is no reason to fail the replay)."""
    try:
        return await server_locale(interaction)
    except Exception:
        log.info("the server's language is unknown now; the progress line is in English")
        return i18n.DEFAULT


async def setup(bot: HostingBot) -> None:
    await bot.add_cog(Game(bot))
