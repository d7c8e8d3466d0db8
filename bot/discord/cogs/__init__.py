"""The Discord cogs, one per command group; each owns its commands and controls."""
