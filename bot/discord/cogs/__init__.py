"""The Discord cogs, one per command group; each owns its commands and controls."""

COGS = (
    "bot.discord.cogs.game",
    "bot.discord.cogs.play",
    "bot.discord.cogs.notify",
    "bot.discord.cogs.rules",
    "bot.discord.cogs.help",
    "bot.discord.cogs.server",
    "bot.discord.cogs.admin",
    "bot.discord.cogs.ratings",
    "bot.discord.cogs.presence",
    "bot.discord.cogs.inbox",
    "bot.discord.cogs.language",
)
"""Every cog, as the bot loads them (extensions by module name): together, its commands."""
