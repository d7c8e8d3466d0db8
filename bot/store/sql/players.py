"""Facts about a person: the statements of :class:`~bot.store.protocol.PlayerStore` both
dialects share."""

from __future__ import annotations

import json
from collections.abc import Mapping
from types import EllipsisType

from bot.store.records import (
    parse_calls,
)
from bot.store.sql.base import (
    S,
    SqlBase,
)

USER_FACTS = frozenset({"notify", "calls", "dm_closed", "away_until", "language", "seen_locale"})
"""The columns of ``users`` a write sets, leaving the others as they are."""

Fact = str | bool | float | None
"""A value of one of a user's facts."""


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

    async def language(self, user_id: int) -> tuple[str | None, str | None]:
        row = await self._read_row(
            "SELECT language, seen_locale FROM users WHERE user_id = ?", user_id
        )
        if row is None:
            return None, None
        return row["language"], row["seen_locale"]

    async def set_language(
        self,
        user_id: int,
        *,
        chosen: str | EllipsisType | None = ...,
        seen: str | EllipsisType | None = ...,
    ) -> None:
        facts: dict[str, Fact] = {}
        if not isinstance(chosen, EllipsisType):
            facts["language"] = chosen
        if not isinstance(seen, EllipsisType):
            facts["seen_locale"] = seen
        if facts:
            await self._set_user_facts(user_id, facts)

    async def _set_user_fact(self, user_id: int, column: str, value: Fact) -> None:
        """Set one of a user's facts (a column of ``users``), leaving the others as they are."""
        await self._set_user_facts(user_id, {column: value})

    async def _set_user_facts(self, user_id: int, facts: Mapping[str, Fact]) -> None:
        """Set some of a user's facts (columns of ``users``) in one statement, leaving the
        others as they are."""
        columns = list(facts)
        if not columns or not USER_FACTS.issuperset(columns):
            raise ValueError(f"not a user's facts: {columns!r}")
        named = ", ".join(columns)
        marks = ", ".join("?" * len(columns))
        updates = ", ".join(f"{column} = excluded.{column}" for column in columns)
        await self._execute(
            f"INSERT INTO users (user_id, {named}) VALUES (?, {marks})"
            f" ON CONFLICT (user_id) DO UPDATE SET {updates}",
            user_id, *facts.values(),
        )  # fmt: skip
