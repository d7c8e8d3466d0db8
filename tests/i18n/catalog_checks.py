"""What a shipped catalog must be, as checks that name each fault they find.

Each check takes a catalog's entries (read from its ``.po`` file, :func:`entries_of`) and,
where it needs them, the messages the code says (``bot.catalog.messages``), and returns
one line per fault, naming the message: an empty list is a catalog that passes.
"""

from __future__ import annotations

import re
import string
import unicodedata
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from babel.messages.pofile import read_po

from i18n.extract import Message

COMMAND = "command"
"""The context of a command's or option's name."""

NAME = re.compile(r"^[-_\w]{1,32}$")
"""Discord's rule for a command's or option's name (letters of any script, digits, - and _)."""

MARKUP = ("**", "__", "~~", "||", "`", "<", ">")
"""Discord's markup, each counted on its own: bold, underline, strike, spoiler, code, and the
angle brackets of links kept from unfurling."""

PLACE = re.compile(r"\{[^{}]*\}")


@dataclass(frozen=True)
class Entry:
    """One entry of a catalog: its context, English text (and English plural), its
    translated forms (one, or as many as the language's plural rule has), and whether a
    translator marked it as a guess (fuzzy)."""

    context: str | None
    text: str
    plural: str | None
    forms: tuple[str, ...]
    fuzzy: bool = False
    plurals: int = 2

    @property
    def key(self) -> tuple[str | None, str]:
        return (self.context, self.text)

    def english_for(self, index: int) -> str:
        """The English text a form stands for: the singular for the first, else the plural."""
        return self.text if self.plural is None or index == 0 else self.plural

    def named(self) -> str:
        return f"[{self.context}] {self.text!r}" if self.context else repr(self.text)


def entries_of(path: Path) -> list[Entry]:
    """The entries of the ``.po`` file at ``path`` (its header aside)."""
    with path.open("rb") as file:
        catalog = read_po(file)
    found = []
    for entry in catalog:
        if not entry.id:
            continue
        ids = entry.id if isinstance(entry.id, list | tuple) else (entry.id,)
        given = entry.string
        strings = given if isinstance(given, list | tuple) else (given,)
        found.append(
            Entry(
                context=str(entry.context) if entry.context else None,
                text=str(ids[0]),
                plural=str(ids[1]) if len(ids) > 1 else None,
                forms=tuple(str(s or "") for s in strings),
                fuzzy=entry.fuzzy,
                plurals=catalog.num_plurals,
            )
        )
    return found


def missing(messages: Iterable[Message], entries: Iterable[Entry]) -> list[str]:
    """The messages the code says that the catalog lacks."""
    held = {entry.key for entry in entries}
    return [f"missing: {_named(m.context, m.text)}" for m in messages if m.key not in held]


def untranslated(entries: Iterable[Entry]) -> list[str]:
    """Entries with a form left empty, too few forms for the language's plural rule, or
    marked as a guess."""
    faults = []
    for entry in entries:
        wanted = entry.plurals if entry.plural is not None else 1
        if entry.fuzzy:
            faults.append(f"fuzzy (a guess not yet checked): {entry.named()}")
        elif len(entry.forms) < wanted or not all(form.strip() for form in entry.forms):
            faults.append(f"untranslated: {entry.named()}")
    return faults


def unused(messages: Iterable[Message], entries: Iterable[Entry]) -> list[str]:
    """Entries for messages the code no longer says."""
    said = {m.key for m in messages}
    return [f"unused: {entry.named()}" for entry in entries if entry.key not in said]


def wrong_places(entries: Iterable[Entry]) -> list[str]:
    """Translations that lose one of the English text's places or add one it does not have
    (the text would then fail to be written), or whose braces cannot be read. A plural
    message's ``{count}`` may be left out of a form (``Une place est libre.``) but not of
    all of them."""
    faults = []
    for entry in entries:
        english = _places(entry.text) | (_places(entry.plural) if entry.plural else set())
        optional = {"count"} if entry.plural is not None else set()
        seen: set[str] = set()
        for form in (f for f in entry.forms if f):
            try:
                places = _places(form)
            except ValueError:
                faults.append(f"unreadable braces in {form!r}: {entry.named()}")
                continue
            seen |= places
            if english - optional - places:
                faults.append(f"lost {sorted(english - places)} in {form!r}: {entry.named()}")
            if places - english:
                faults.append(f"new {sorted(places - english)} in {form!r}: {entry.named()}")
        if any(entry.forms) and (english & optional) - seen:
            faults.append(f"no form shows {{count}}: {entry.named()}")
    return faults


def unbalanced_markup(entries: Iterable[Entry]) -> list[str]:
    """Translations whose Discord markup differs from the English text's: a ``**`` or a
    backtick dropped or added, an angle bracket lost (a bold run that never ends makes the
    rest of a message bold)."""
    faults = []
    for entry in entries:
        for index, form in enumerate(entry.forms):
            english = markup_of(entry.english_for(index))
            if form and markup_of(form) != english:
                shown = ", ".join(f"{m} {n}×" for m, n in sorted(english.items())) or "none"
                faults.append(f"markup of {form!r} is not the English's ({shown}): {entry.named()}")
    return faults


def lost_emoji(entries: Iterable[Entry]) -> list[str]:
    """Translations with more or fewer emoji (pictographs and symbols) than the English."""
    faults = []
    for entry in entries:
        for index, form in enumerate(entry.forms):
            english = emoji_in(entry.english_for(index))
            if form and emoji_in(form) != english:
                faults.append(f"emoji of {form!r} are not {english}: {entry.named()}")
    return faults


def bad_command_names(entries: Iterable[Entry], siblings: Iterable[Sequence[str]]) -> list[str]:
    """Translated command and option names Discord would refuse (upper-case, a space,
    longer than 32 characters, a character outside its rule), and names that two siblings
    (options of one command, commands of one group, the top-level commands) would share."""
    names = {
        entry.text: entry.forms[0]
        for entry in entries
        if entry.context == COMMAND and entry.forms and entry.forms[0]
    }
    faults = [
        f"not a name Discord takes: {name!r} for {english!r}"
        for english, name in names.items()
        if not NAME.match(name) or name != name.lower()
    ]
    for group in siblings:
        shown = Counter(names.get(english, english) for english in group)
        faults += [
            f"{name!r} names two of {sorted(group)}" for name, count in shown.items() if count > 1
        ]
    return faults


def markup_of(text: str) -> Counter[str]:
    """How many of each of Discord's markers ``text`` holds outside its places."""
    bare = PLACE.sub("", text)
    return Counter({marker: n for marker in MARKUP if (n := bare.count(marker))})


def emoji_in(text: str) -> int:
    """How many emoji ``text`` holds (symbols of Unicode's category So: ⚠, 🏆, ✓...)."""
    return sum(1 for char in PLACE.sub("", text) if unicodedata.category(char) == "So")


def _places(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def _named(context: str | None, text: str) -> str:
    return f"[{context}] {text!r}" if context else repr(text)
