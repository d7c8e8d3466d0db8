"""The shipped catalogs: gettext ``.po`` files read once per process with Babel."""

from __future__ import annotations

import contextlib
import functools
import gettext
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from babel import Locale as BabelLocale
from babel.messages.pofile import read_po

from i18n.locales import SHIPPED, Locale

FOLDER = Path(__file__).parent / "locale"
DOMAIN = "messages"

_reading: list[Path] = [FOLDER]
"""The folders catalogs are read from, the last one in use (see :func:`reading`)."""


def folder() -> Path:
    """The folder the catalogs are read from: :data:`FOLDER`, unless :func:`reading` says
    otherwise."""
    return _reading[-1]


@contextlib.contextmanager
def reading(other: Path) -> Iterator[Path]:
    """Within the block, every catalog is read from ``other`` (laid out as :data:`FOLDER`
    is) instead of the shipped ones: a check or a test of made-up catalogs. Catalogs are
    read afresh on entering and on leaving."""
    _reading.append(Path(other))
    _read.cache_clear()
    try:
        yield Path(other)
    finally:
        _reading.pop()
        _read.cache_clear()


def path_of(locale: Locale, within: Path | None = None) -> Path:
    """Where ``locale``'s catalog lives (``i18n/locale/pt_BR/LC_MESSAGES/messages.po``),
    in ``within`` if given, else in the folder catalogs are read from."""
    base = folder() if within is None else within
    return base / locale.replace("-", "_") / "LC_MESSAGES" / f"{DOMAIN}.po"


def babel_locale(locale: Locale) -> BabelLocale:
    """Babel's locale for ``locale`` (its plural rules, dates and numbers); the
    pseudo-locale reads as English."""
    return BabelLocale.parse("en" if locale == "en-XA" else locale.replace("-", "_"))


@dataclass
class Catalog:
    """One language's translations: a message's forms by its English text, and which form
    a number takes (the catalog's own ``Plural-Forms`` rule). Entries with a context (a
    ``msgctxt``, such as ``command`` for command names) are kept apart, by context and
    English text, so that a command's name never stands in for a sentence's word."""

    locale: Locale
    forms: dict[str, tuple[str, ...]] = field(default_factory=dict)
    plural_index: Callable[[int], int] = field(default=lambda n: int(n != 1))
    in_context: dict[tuple[str, str], tuple[str, ...]] = field(default_factory=dict)


def catalog(locale: Locale) -> Catalog:
    """``locale``'s catalog, read once; an empty one where none is shipped."""
    return _read(locale, folder())


@functools.cache
def _read(locale: Locale, within: Path) -> Catalog:
    found = Catalog(locale)
    path = path_of(locale, within)
    if locale not in SHIPPED or not path.exists():
        return found
    with path.open("rb") as file:
        read = read_po(file, locale=locale.replace("-", "_"))
    found.plural_index = gettext.c2py(read.plural_expr)
    for message in read:
        if not message.id or message.fuzzy:
            continue
        key = message.id[0] if isinstance(message.id, list | tuple) else message.id
        given = message.string
        strings = tuple(given) if isinstance(given, list | tuple) else (given,)
        if not all(isinstance(s, str) and s for s in strings):
            continue
        forms = tuple(str(s) for s in strings)
        if message.context:
            found.in_context[(str(message.context), str(key))] = forms
        else:
            found.forms[str(key)] = forms
    return found


def translation(text: str, plural: str | None, count: int | None, locale: Locale) -> str:
    """The template ``locale`` writes for the message ``text`` (with English plural
    ``plural`` chosen by ``count``): its catalog's, or English where it has none."""
    forms = catalog(locale).forms.get(text) if locale in SHIPPED else None
    if plural is None or count is None:
        return forms[0] if forms else text
    if forms:
        index = catalog(locale).plural_index(count)
        return forms[min(index, len(forms) - 1)]
    return text if count == 1 else plural


def translation_in_context(context: str | None, text: str, locale: Locale) -> str:
    """The catalog entry of ``locale`` for ``text`` in ``context`` (a msgctxt, such as
    ``command`` for a command's name; None for a sentence without one), or ``text`` itself
    where it has none."""
    if context is None:
        return translation(text, None, None, locale)
    forms = catalog(locale).in_context.get((context, text)) if locale in SHIPPED else None
    return forms[0] if forms else text
