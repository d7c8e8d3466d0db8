"""Which language each reader reads: the one place that decides a locale.

What a person reads alone (a private answer, a DM, their seat's page) is written in *their*
language: the one they chose with ``/language``, else the language of their Discord client
as an interaction shows it now, else the one last seen from them (remembered, so a DM sent
later, with no interaction to show it, reads the same), else the language of the server
the game is on, else English. What everyone in a channel reads (posts, cards, the status)
is written once in the *server's* language: the one its admins chose (``/server defaults
language:``), else the server's Discord locale (``guild_locale``, remembered the same way),
else English. A Discord locale with no shipped language falls through to the next.

The store keeps a user's choice and the Discord locale last seen from them
(:meth:`~bot.store.PlayerStore.language`), and a server's in its settings (``language``,
``""`` once its admins go back to following Discord, and ``guild_locale``).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Generic, Protocol, TypeGuard, TypeVar

import i18n
from bot.service.errors import UserError
from bot.service.text import Text, said
from bot.store import GuildStore, PlayerStore
from i18n import Locale
from i18n.locales import NAMES

CACHE_SECONDS = 60.0
"""How long a user's or a server's language facts are kept in memory after they are read."""
CACHE_SIZE = 20_000
"""The most users (and, apart, servers) whose facts are kept; the longest kept go first."""

LANGUAGE = "language"
"""The server's setting holding the language its admins chose (``""``: none, follow Discord)."""
GUILD_LOCALE = "guild_locale"
"""The server's setting holding the Discord locale last seen for it."""

K = TypeVar("K")
V = TypeVar("V")

Facts = tuple[str | None, str | None]
"""A reader's language facts as stored: the locale chosen, the Discord locale last seen."""


class LanguageStore(PlayerStore, GuildStore, Protocol):
    """The store's ports deciding a language uses: a user's facts and a server's settings."""


class Languages:
    """The language each reader reads (see the module docstring).

    Every call reads the store at most once for a user's facts and once for a server's,
    and keeps what it read in memory for :data:`CACHE_SECONDS`; this process's own writes
    (a choice, a server's language, a newly seen Discord locale) replace what it keeps at
    once. Another process sharing the database may go on writing in a language changed
    here for up to :data:`CACHE_SECONDS`, as this one may after a change made there.
    """

    def __init__(self, store: LanguageStore, clock: Callable[[], float] = time.monotonic) -> None:
        """``clock``: the seconds that age what is kept in memory."""
        self._store = store
        self._users: _Recent[int, Facts] = _Recent(clock)
        self._servers: _Recent[int, Facts] = _Recent(clock)

    async def reader(
        self, user_id: int, *, seen: str | None = None, guild_id: int | None = None
    ) -> Locale:
        """The language ``user_id`` reads: their ``/language`` choice, else ``seen`` (the
        Discord locale an interaction of theirs shows now, remembered when it changed to
        one with a language here), else the Discord locale last seen from them, else the
        language of server ``guild_id`` (:meth:`server`), else English."""
        chosen, remembered = await self._user(user_id)
        if _shipped(seen) and seen != remembered:
            await self._store.set_language(user_id, seen=seen)
            self._users.put(user_id, (chosen, seen))
            remembered = seen
        return (
            i18n.normalise(chosen) or i18n.from_discord(remembered) or await self.server(guild_id)
        )

    async def server(self, guild_id: int | None, *, seen: str | None = None) -> Locale:
        """The language of server ``guild_id``'s channels: the one its admins chose, else
        ``seen`` (its Discord ``guild_locale`` now, remembered when it changed), else the
        one last seen for it, else English. English in DMs (``guild_id`` None)."""
        if not guild_id:
            return i18n.DEFAULT
        chosen, remembered = await self._server(guild_id)
        if _shipped(seen) and seen != remembered:
            await self._store.set_guild_setting(guild_id, GUILD_LOCALE, seen)
            self._servers.put(guild_id, (chosen, seen))
            remembered = seen
        return i18n.normalise(chosen) or i18n.from_discord(remembered) or i18n.DEFAULT

    async def choose(self, user_id: int, locale: Locale | None) -> Text:
        """``/language``: write to ``user_id`` in ``locale`` from now on, wherever they play
        (None: follow their Discord language again). The answer says so."""
        await self._store.set_language(user_id, chosen=_supported(locale))
        self._users.drop(user_id)
        if locale is None:
            return said("I'll write to you in the language of your Discord from now on.")
        return said("I'll write to you in {language} from now on.", language=NAMES[locale])

    async def set_server(
        self, guild_id: int | None, user_id: int, locale: Locale | None, *, is_admin: bool
    ) -> Text:
        """``/server defaults language:``: write the channels of server ``guild_id`` in
        ``locale`` from now on (None: follow the server's Discord locale again). Only
        members with Manage Server (``is_admin``) may; ``user_id`` is who asks."""
        if not guild_id:
            raise UserError(said("A server's language is set in one of its channels."))
        if not is_admin:
            raise UserError(
                said("Only members with Manage Server may choose the language of this server.")
            )
        await self._store.set_guild_setting(guild_id, LANGUAGE, _supported(locale) or "")
        self._servers.drop(guild_id)
        if locale is None:
            return said("This server's games follow its Discord language from now on.")
        return said(
            "This server's games are written in {language} from now on.",
            language=NAMES[locale],
        )

    async def _user(self, user_id: int) -> Facts:
        facts = self._users.get(user_id)
        if facts is None:
            facts = await self._store.language(user_id)
            self._users.put(user_id, facts)
        return facts

    async def _server(self, guild_id: int) -> Facts:
        facts = self._servers.get(guild_id)
        if facts is None:
            settings = await self._store.guild_settings(guild_id)
            facts = (settings.get(LANGUAGE) or None, settings.get(GUILD_LOCALE))
            self._servers.put(guild_id, facts)
        return facts


def _shipped(code: str | None) -> TypeGuard[str]:
    """Whether ``code`` is a Discord locale with a language here: only such a one is
    remembered (one without falls through to what was known before)."""
    return i18n.from_discord(code) is not None


def _supported(locale: Locale | None) -> Locale | None:
    """``locale`` checked to be one the host writes (a frontend offers no other)."""
    if locale is None or locale in i18n.SUPPORTED:
        return locale
    raise ValueError(f"not a supported locale: {locale!r}")


class _Recent(Generic[K, V]):
    """Values kept in memory for :data:`CACHE_SECONDS` after they were put, at most
    :data:`CACHE_SIZE` of them (the longest kept go first)."""

    def __init__(self, clock: Callable[[], float]) -> None:
        self._clock = clock
        self._kept: dict[K, tuple[float, V]] = {}

    def get(self, key: K) -> V | None:
        """The value put for ``key`` less than :data:`CACHE_SECONDS` ago, else None."""
        kept = self._kept.get(key)
        if kept is None:
            return None
        until, value = kept
        if until <= self._clock():
            del self._kept[key]
            return None
        return value

    def put(self, key: K, value: V) -> None:
        self._kept.pop(key, None)  # kept anew: the last to go
        self._kept[key] = (self._clock() + CACHE_SECONDS, value)
        while len(self._kept) > CACHE_SIZE:
            del self._kept[next(iter(self._kept))]

    def drop(self, key: K) -> None:
        self._kept.pop(key, None)
