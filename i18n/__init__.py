"""Every text a person reads, in their own language.

A text is written in English in the code, as a *message*: ``said("You rolled {roll}.",
roll=4)`` (or :func:`said_plural` where a number decides the words). A message is a value,
not yet a string: it is stored, sent and folded as it is, and only written out for its
reader, in their locale (:func:`write`), when it is shown. The English text is the
message's id in the catalog (gettext's convention), so the code reads as what English
readers see, and a message missing from a catalog falls back to it.

The catalogs are gettext ``.po`` files under ``i18n/locale/<code>/LC_MESSAGES/``, read
with Babel (its CLDR plural rules and date formats); ``python -m bot catalog`` adds the
code's new messages to every catalog and drops the ones it no longer has. ``en-XA`` is a
pseudo-locale made from English (:mod:`i18n.pseudo`): every letter accented, every text
bracketed and a third longer, so a test reading it sees at once a text that went around
the catalog.

Arguments are written in the same locale: a nested message is translated too; a plain
string (a player's name, a place's notation) is shown as it is; a number as it is.

Only this package knows the catalogs; nothing here imports the rest of the project.
"""

from __future__ import annotations

from i18n.locales import (
    DEFAULT,
    SHIPPED,
    SUPPORTED,
    Locale,
    from_discord,
    normalise,
)
from i18n.messages import Arg, Said, said, said_plural, write

__all__ = [
    "DEFAULT",
    "SHIPPED",
    "SUPPORTED",
    "Arg",
    "Locale",
    "Said",
    "from_discord",
    "normalise",
    "said",
    "said_plural",
    "write",
]
