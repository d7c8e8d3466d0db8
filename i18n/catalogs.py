"""The shipped catalogs: gettext ``.po`` files read once per process with Babel."""

from __future__ import annotations

import functools
import gettext
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from babel import Locale as BabelLocale
from babel.messages.pofile import read_po

from i18n.locales import SHIPPED, Locale

FOLDER = Path(__file__).parent / "locale"
DOMAIN = "messages"


def path_of(locale: Locale) -> Path:
    """Where ``locale``'s catalog lives (``i18n/locale/pt_BR/LC_MESSAGES/messages.po``)."""
    return FOLDER / locale.replace("-", "_") / "LC_MESSAGES" / f"{DOMAIN}.po"


def babel_locale(locale: Locale) -> BabelLocale:
    """Babel's locale for ``locale`` (its plural rules, dates and numbers); the
    pseudo-locale reads as English."""
    return BabelLocale.parse("en" if locale == "en-XA" else locale.replace("-", "_"))


@dataclass
class Catalog:
    """One language's translations: a message's forms by its English text, and which form
    a number takes (the catalog's own ``Plural-Forms`` rule)."""

    locale: Locale
    forms: dict[str, tuple[str, ...]] = field(default_factory=dict)
    plural_index: Callable[[int], int] = field(default=lambda n: int(n != 1))


@functools.cache
def catalog(locale: Locale) -> Catalog:
    """``locale``'s catalog, read once; an empty one where none is shipped."""
    found = Catalog(locale)
    if locale not in SHIPPED or not path_of(locale).exists():
        return found
    with path_of(locale).open("rb") as file:
        read = read_po(file, locale=locale.replace("-", "_"))
    found.plural_index = gettext.c2py(read.plural_expr)
    for message in read:
        if not message.id or message.fuzzy:
            continue
        key = message.id[0] if isinstance(message.id, list | tuple) else message.id
        given = message.string
        strings = tuple(given) if isinstance(given, list | tuple) else (given,)
        if all(isinstance(s, str) and s for s in strings):
            found.forms[str(key)] = tuple(str(s) for s in strings)
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
