"""The Discord frontend: cogs by command group, delivery of notices, Discord markup."""
