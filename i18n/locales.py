"""The languages the host speaks, and how Discord's locale codes map onto them."""

from __future__ import annotations

from typing import Literal, get_args

Locale = Literal["en", "de", "fr", "es", "pt-BR", "en-XA"]
"""A language the host writes: English (the source), the shipped translations, and the
pseudo-locale ``en-XA`` (English accented and lengthened, for tests and for checking a
layout)."""

DEFAULT: Locale = "en"
SUPPORTED: tuple[Locale, ...] = get_args(Locale)
SHIPPED: tuple[Locale, ...] = ("de", "fr", "es", "pt-BR")
"""The locales with a catalog of their own (English is the source; en-XA is made)."""

NAMES: dict[Locale, str] = {
    "en": "English",
    "de": "Deutsch",
    "fr": "Français",
    "es": "Español",
    "pt-BR": "Português do Brasil",
    "en-XA": "[Ṗšéûðö Éñĝļîšĥ]",
}
"""Each language by its own name, as a language picker shows it."""

_DISCORD: dict[str, Locale] = {
    "en-US": "en",
    "en-GB": "en",
    "de": "de",
    "fr": "fr",
    "es-ES": "es",
    "es-419": "es",
    "pt-BR": "pt-BR",
}
"""Discord's locale codes for the languages shipped here (every other one reads English)."""


def from_discord(code: str | None) -> Locale | None:
    """The locale shipped for one of Discord's locale codes (``es-419`` reads ``es``);
    None when none is shipped for it, so that the caller falls back (to the server's
    language, then English)."""
    if code is None:
        return None
    return _DISCORD.get(str(code))


def normalise(code: str | None) -> Locale | None:
    """``code`` as a supported locale, read loosely (``pt_br``, ``PT-BR``, ``de-AT``,
    ``es-419``); None when it names none of them."""
    if not code:
        return None
    wanted = code.strip().replace("_", "-").lower()
    for locale in SUPPORTED:
        if wanted == locale.lower():
            return locale
    if wanted.startswith("pt-br"):
        return "pt-BR"
    base = wanted.split("-")[0]
    if base in ("en", "de", "fr", "es"):
        return base  # type: ignore[return-value]
    return None
