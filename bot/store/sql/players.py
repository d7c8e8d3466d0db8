"""Facts about a person: the statements of :class:`~bot.store.protocol.PlayerStore` both
dialects share."""

from __future__ import annotations

import json
from collections.abc import Mapping

from bot.store.records import (
    parse_calls,
)
from bot.store.sql.base import (
    S,
    SqlBase,
)

USER_FACTS = frozenset({"notify", "calls", "dm_closed", "away_until"})
"""The columns of ``users`` set one at a time."""


class PlayerSql(SqlBase[S]):
    """Facts about a person: the statements of :class:`~bot.store.protocol.PlayerStore`."""

    async def notify_choice(self, user_id: int) -> str:
        choice = await self._read_value("SELECT notify FROM users WHERE user_id = ?", user_id)
        return choice if choice is not None else "turns"

    async def set_notify_choice(self, user_id: int, choice: str) -> None:
        await self._set_user_fact(user_id, "notify", choice)

    async def calls(self, user_id: int) -> dict[str, str]:
        text = await self._read_value("SELECT calls FROM users WHERE user_id = ?", user_id)
        return parse_calls(text)

    async def set_calls(self, user_id: int, calls: Mapping[str, str]) -> None:
        await self._set_user_fact(user_id, "calls", json.dumps(dict(sorted(calls.items()))))

    async def dm_closed(self, user_id: int) -> bool:
        closed = await self._read_value("SELECT dm_closed FROM users WHERE user_id = ?", user_id)
        return bool(closed)

    async def set_dm_closed(self, user_id: int, closed: bool) -> None:
        await self._set_user_fact(user_id, "dm_closed", bool(closed))

    async def away_until(self, user_id: int) -> float | None:
        until: float | None = await self._read_value(
            "SELECT away_until FROM users WHERE user_id = ?", user_id
        )
        return until

    async def set_away(self, user_id: int, until: float | None) -> None:
        await self._set_user_fact(user_id, "away_until", until)

    async def _set_user_fact(
        self, user_id: int, column: str, value: str | bool | float | None
    ) -> None:
        """Set one of a user's facts (a column of ``users``), leaving the others as they are."""
        if column not in USER_FACTS:
            raise ValueError(f"not a user's fact: {column!r}")
        await self._execute(
            f"INSERT INTO users (user_id, {column}) VALUES (?, ?)"
            f" ON CONFLICT (user_id) DO UPDATE SET {column} = excluded.{column}",
            user_id, value,
        )  # fmt: skip
