"""The catalogs kept in step with the code.

The messages are read from the code the way gettext's tools read it, with Babel's
extractor: every ``said("...")`` and ``said_plural("...", "...", n)`` call whose texts are
string literals (which is why a message's text must be one). :func:`update` then rewrites
each shipped catalog to hold exactly those messages: a new one is added untranslated, one
the code no longer says is dropped, and every translation already made is kept.
"""

from __future__ import annotations

import contextlib
import datetime
import io
import sys
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.catalog import Message as Entry
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

from i18n import catalogs
from i18n.locales import SHIPPED, Locale
from i18n.messages import places_of

KEYWORDS: dict[str, tuple[int, ...] | None] = {"said": None, "said_plural": (1, 2)}
"""The calls that make messages, and which of their arguments are the texts (Babel's
keywords; ``None`` is the first argument alone)."""

COMMENT_TAG = "Translators:"
"""A comment starting so, just above a message in the code, is shown to its translators."""

PLURAL_FORMS: dict[Locale, str] = {
    "de": "nplurals=2; plural=(n != 1);",
    "es": "nplurals=2; plural=(n != 1);",
    "pt-BR": "nplurals=2; plural=(n != 1);",
    "fr": "nplurals=2; plural=(n > 1);",
}
"""Each shipped language's gettext plural rule: how many forms a message takes, and which
one a number reads (French reads 0 as singular)."""

PROJECT = "dragon-host"
HEADER = """\
# The dragon host's messages in {language}.
# English is the source: `python -m bot catalog` (`make catalog`) adds the
# code's new messages here untranslated and drops those it no longer says;
# the translations made are kept.
#"""


@dataclass(frozen=True)
class Message:
    """One message of the catalog: its English ``text`` (the msgid) and English ``plural``
    form if a number chooses its words, the ``context`` it is read in (``command`` for a
    command's or option's name; None for a sentence), its named ``places``, where the code
    says it (file and line), and what its translators are told."""

    text: str
    plural: str | None = None
    context: str | None = None
    places: frozenset[str] = frozenset()
    found_in: tuple[tuple[str, int], ...] = ()
    comments: tuple[str, ...] = ()

    @property
    def key(self) -> tuple[str | None, str]:
        """What tells two messages apart in a catalog: context and English text."""
        return (self.context, self.text)


def message(
    text: str,
    plural: str | None = None,
    context: str | None = None,
    found_in: Iterable[tuple[str, int]] = (),
    comments: Iterable[str] = (),
) -> Message:
    """A :class:`Message`, its places read from its texts."""
    places = places_of(text) | (places_of(plural) if plural is not None else set())
    return Message(text, plural, context, frozenset(places), tuple(found_in), tuple(comments))


def code_messages(roots: Sequence[Path]) -> list[Message]:
    """Every message said in the Python files under the folders ``roots``, once each
    (with every place it is said), in order of context and text. A file is named by its
    path from the folder holding its root (``bot/service/tables.py``)."""
    found: dict[tuple[str | None, str], Message] = {}
    # Babel warns of every f-string within a message's call, its places' values too
    # (``title=f"{title} #{number}"``), which are fine: those warnings are left out. A text
    # that is no string literal is found by the check of the code's messages instead.
    with contextlib.redirect_stderr(io.StringIO()) as warned:
        for root in roots:
            for name, line, texts, comments, context in extract_from_dir(
                root, keywords=KEYWORDS, comment_tags=(COMMENT_TAG,), strip_comment_tags=True
            ):
                where = ((Path(root).name + "/" + name.replace("\\", "/"), line),)
                text, plural = (texts[0], texts[1]) if isinstance(texts, tuple) else (texts, None)
                new = message(text, plural, context, where, comments)
                found[new.key] = merged(found[new.key], new) if new.key in found else new
    for warning in warned.getvalue().splitlines():
        if "Skipping f-string" not in warning:
            print(warning, file=sys.stderr)
    return sorted(found.values(), key=_order)


def merged(first: Message, second: Message) -> Message:
    """One message said in two places: both places kept, and its plural form where either
    gives one (a catalog holds a text once)."""
    plural = first.plural if first.plural is not None else second.plural
    comments = first.comments + tuple(c for c in second.comments if c not in first.comments)
    return message(first.text, plural, first.context, first.found_in + second.found_in, comments)


def _order(found: Message) -> tuple[str, str]:
    return (found.context or "", found.text)


def update(messages: Iterable[Message], within: Path | None = None) -> list[Path]:
    """Rewrite every shipped catalog (in ``within``, laid out as :data:`i18n.catalogs.FOLDER`
    is, else the shipped folder) to hold exactly ``messages``: new ones untranslated, gone
    ones dropped, existing translations, their translators' comments and fuzzy marks kept.
    Writing the same messages again changes no byte. Returns the files written."""
    wanted = sorted({m.key: m for m in messages}.values(), key=_order)
    written = []
    for locale in SHIPPED:
        path = catalogs.path_of(locale, catalogs.FOLDER if within is None else within)
        path.parent.mkdir(parents=True, exist_ok=True)
        old = _read(path, locale)
        new = _fresh(locale, old)
        for wanted_message in wanted:
            _add(new, wanted_message, old.get(wanted_message.text, wanted_message.context))
        with path.open("wb") as file:
            write_po(file, new, sort_output=True, include_lineno=False)
        written.append(path)
    return written


def _read(path: Path, locale: Locale) -> Catalog:
    if not path.exists():
        return Catalog(locale=locale.replace("-", "_"))
    with path.open("rb") as file:
        return read_po(file, locale=locale.replace("-", "_"))


def _fresh(locale: Locale, old: Catalog) -> Catalog:
    """An empty catalog for ``locale`` with its header: the plural rule of
    :data:`PLURAL_FORMS`, and the dates and translator the old one had (so an update that
    adds nothing changes nothing)."""
    now = datetime.datetime.now(datetime.UTC).replace(second=0, microsecond=0)
    created = old.creation_date if isinstance(old.creation_date, datetime.datetime) else now
    revised = old.revision_date if isinstance(old.revision_date, datetime.datetime) else now
    translator = "" if "EMAIL@" in old.last_translator else old.last_translator
    language = catalogs.babel_locale(locale).english_name or locale
    new = Catalog(
        locale=locale.replace("-", "_"),
        domain=catalogs.DOMAIN,
        header_comment=HEADER.format(language=language),
        creation_date=created,
        revision_date=revised,
        language_team=language,
        fuzzy=False,
    )
    new.mime_headers = [
        ("Project-Id-Version", f"{PROJECT} {_version(old)}"),
        ("Report-Msgid-Bugs-To", ""),
        ("Last-Translator", translator),
        ("Plural-Forms", PLURAL_FORMS[locale]),
    ]
    return new


def _version(old: Catalog) -> str:
    """The program's version, as installed; else the one the catalog names."""
    try:
        return metadata.version(PROJECT)
    except metadata.PackageNotFoundError:
        return old.version if old.version and old.version != "VERSION" else "0"


def _add(catalog: Catalog, wanted: Message, old: Entry | None) -> None:
    """``wanted`` added to ``catalog`` with ``old``'s translation if it had one: a plural
    message gets as many forms as the language has (a form the old entry lacks is left
    empty, to be filled)."""
    if wanted.plural is None:
        msgid: str | tuple[str, str] = wanted.text
        string: str | tuple[str, ...] = _singular(old)
    else:
        msgid = (wanted.text, wanted.plural)
        string = tuple(_forms(old, catalog.num_plurals))
    catalog.add(
        msgid,
        string,
        locations=wanted.found_in,
        auto_comments=wanted.comments,
        user_comments=old.user_comments if old is not None else (),
        flags=("fuzzy",) if old is not None and old.fuzzy else (),
        context=wanted.context,
    )


def _singular(old: Entry | None) -> str:
    if old is None:
        return ""
    string = old.string
    return str(string[0] if isinstance(string, list | tuple) else string or "")


def _forms(old: Entry | None, count: int) -> Iterator[str]:
    strings = [] if old is None else old.string
    given = list(strings) if isinstance(strings, list | tuple) else [strings]
    for index in range(count):
        yield str(given[index] or "") if index < len(given) else ""
