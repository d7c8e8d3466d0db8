"""A server's settings and corrected data files: the statements of
:class:`~bot.store.protocol.GuildStore` both dialects share."""

from __future__ import annotations

import json

from bot.store.records import (
    GuildDataRecord,
    JsonObject,
)
from bot.store.sql.base import (
    S,
    SqlBase,
)


class GuildSql(SqlBase[S]):
    """A server's settings and corrected data files: the statements of
    :class:`~bot.store.protocol.GuildStore`."""

    async def guild_setting(self, guild_id: int, key: str) -> str | None:
        value: str | None = await self._read_value(
            "SELECT value FROM guild_settings WHERE guild_id = ? AND key = ?", guild_id, key
        )
        return value

    async def set_guild_setting(self, guild_id: int, key: str, value: str) -> None:
        await self._execute(
            "INSERT INTO guild_settings (guild_id, key, value) VALUES (?, ?, ?)"
            " ON CONFLICT (guild_id, key) DO UPDATE SET value = excluded.value",
            guild_id, key, value,
        )  # fmt: skip

    async def guild_settings(self, guild_id: int) -> dict[str, str]:
        rows = await self._read(
            "SELECT key, value FROM guild_settings WHERE guild_id = ?", guild_id
        )
        return {row["key"]: row["value"] for row in rows}

    async def guild_data(self, guild_id: int) -> list[GuildDataRecord]:
        rows = await self._read(
            "SELECT * FROM guild_data WHERE guild_id = ? ORDER BY package, name", guild_id
        )
        return [GuildDataRecord.from_row(row) for row in rows]

    async def set_guild_data(
        self,
        guild_id: int,
        package: str,
        name: str,
        content: JsonObject,
        *,
        user_id: int,
        now: float,
    ) -> None:
        await self._execute(
            "INSERT INTO guild_data (guild_id, package, name, content, user_id, uploaded_at)"
            " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id, package, name) DO UPDATE"
            " SET content = excluded.content, user_id = excluded.user_id,"
            " uploaded_at = excluded.uploaded_at",
            guild_id, package, name, json.dumps(content), user_id, now,
        )  # fmt: skip

    async def clear_guild_data(self, guild_id: int, package: str | None = None) -> int:
        if package is None:
            return await self._execute("DELETE FROM guild_data WHERE guild_id = ?", guild_id)
        return await self._execute(
            "DELETE FROM guild_data WHERE guild_id = ? AND package = ?", guild_id, package
        )
