"""Messages: English texts with named places, written out in a reader's locale."""

from __future__ import annotations

import string
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeAlias

from i18n import catalogs, pseudo
from i18n.locales import DEFAULT, Locale

Arg: TypeAlias = "str | int | float | Said | object"
"""What fills a message's place: a plain string (a name, a place's notation) or a number,
shown as it is; a nested message, written in the same locale; or any other value its
writer knows (see :func:`write`)."""


@dataclass(frozen=True)
class Said:
    """A message and what fills its places; a value until it is written for a reader.

    ``text`` is the English message, with places in braces (``{roll}``); ``plural`` its
    English plural form and ``count`` the number choosing between the forms (in the
    reader's language, by its own plural rules); ``args`` fills the places by name."""

    text: str
    args: tuple[tuple[str, Arg], ...] = ()
    plural: str | None = None
    count: int | None = None

    @property
    def places(self) -> dict[str, Arg]:
        return dict(self.args)

    def english(self) -> str:
        """The message as English readers read it (nested parts written plainly)."""
        return write(self, DEFAULT)


def said(text: str, /, **args: Arg) -> Said:
    """The message ``text`` (English, places in braces) with its places filled by
    ``args``. ``text`` must be a string literal: the catalogs are read from the code."""
    _check_places(text, args)
    return Said(text, tuple(sorted(args.items())))


def said_plural(one: str, many: str, count: int, /, **args: Arg) -> Said:
    """The message whose words depend on ``count`` (``{count}`` is one of its places):
    ``one`` and ``many`` are its English forms; a catalog has as many forms as its
    language needs. Both must be string literals."""
    args = {"count": count, **args}
    _check_places(one, args, optional={"count"})
    _check_places(many, args)
    return Said(one, tuple(sorted(args.items())), plural=many, count=count)


Other = Callable[[object, Locale], str]
"""How a writer shows an argument this module does not know (a typed part of a frontend's
text, say), in the reader's locale."""


def write(said: Said, locale: Locale, other: Other | None = None) -> str:
    """``said`` in ``locale``: the catalog's translation (English where it has none), its
    places filled with the arguments written in the same locale."""
    template = catalogs.translation(said.text, said.plural, said.count, locale)
    if locale == "en-XA":
        template = pseudo.accented(template)
    filled = {name: _written(value, locale, other) for name, value in said.args}
    return template.format_map(filled)


def _written(value: Arg, locale: Locale, other: Other | None) -> str:
    if isinstance(value, Said):
        return write(value, locale, other)
    if isinstance(value, str | int | float):
        return str(value)
    if other is None:
        raise TypeError(f"no way to write {value!r} in a message")
    return other(value, locale)


def places_of(text: str) -> set[str]:
    """The named places of a message (``{roll}`` → ``roll``)."""
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def _check_places(
    text: str, args: dict[str, Arg], optional: frozenset[str] | set[str] = frozenset()
) -> None:
    """A message whose places and arguments differ is a mistake in the code: say so where
    it is made, not where it is shown."""
    places = places_of(text)
    if places - args.keys() or args.keys() - places - (optional or set()):
        raise ValueError(f"message {text!r} has places {sorted(places)}, given {sorted(args)}")
