"""The host's message catalog: every text its code says, and its slash commands' names and
descriptions, kept in each shipped language's catalog (``python -m bot catalog``).

The code's messages are its ``said(...)`` and ``said_plural(...)`` calls (see
:mod:`i18n.extract`); the commands' texts come from the Discord frontend's command tree
(``bot.discord.translator.command_texts``): a command's or option's name is a message in
the context ``command`` (a name has rules of its own: lower-case, no spaces, at most 32
characters), a description or a choice's name a message with no context.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from pathlib import Path

from babel.messages.catalog import Message as Entry
from babel.messages.pofile import read_po

from i18n import extract
from i18n.extract import Message

ROOT = Path(__file__).resolve().parents[1]
CODE = ("bot", "engines", "render", "games", "players")
"""The folders whose code says messages (the catalog's own package, ``i18n``, says none)."""

COMMAND = "command"
"""The context of a command's or an option's name."""

NAME_NOTE = (
    "A command's or option's name: lower-case, no spaces (use - or _), at most 32 "
    "characters, different from the other names beside it."
)
TEXT_NOTE = "A slash command's description or a choice's name, at most 100 characters."


def code_messages() -> list[Message]:
    """The messages the code says."""
    return extract.code_messages([ROOT / folder for folder in CODE])


def command_messages(texts: Iterable[tuple[str | None, str]]) -> list[Message]:
    """The commands' ``(context, English text)`` pairs as messages, with what their
    translators must know."""
    return [
        extract.message(text, context=context, comments=[NAME_NOTE if context else TEXT_NOTE])
        for context, text in texts
    ]


def together(*groups: Iterable[Message]) -> list[Message]:
    """The messages of ``groups``, once each: a text said in two places is one message."""
    found: dict[tuple[str | None, str], Message] = {}
    for message in (m for group in groups for m in group):
        known = found.get(message.key)
        found[message.key] = message if known is None else extract.merged(known, message)
    return sorted(found.values(), key=lambda m: (m.context or "", m.text))


def messages() -> list[Message]:
    """Every message of the catalog: the code's and the commands'."""
    from bot.discord.translator import command_texts

    return together(code_messages(), command_messages(command_texts()))


def write_catalogs() -> int:
    """``python -m bot catalog``: every shipped catalog rewritten to hold the messages of
    :func:`messages`, and what is left to translate in each said."""
    try:
        from bot.discord.translator import command_texts
    except ModuleNotFoundError as missing:
        if missing.name != "bot.discord.translator":
            raise
        print("(no command texts: bot.discord.translator is not there)", file=sys.stderr)
        texts: list[tuple[str | None, str]] = []
    else:
        texts = command_texts()
    wanted = together(code_messages(), command_messages(texts))
    for path in extract.update(wanted):
        print(
            f"{path.relative_to(ROOT)}: {len(wanted)} messages, {untranslated(path)} to translate"
        )
    return 0


def untranslated(path: Path) -> int:
    """How many messages of the catalog at ``path`` still want a translation: a form left
    empty, or marked fuzzy (a guess not yet checked)."""
    with path.open("rb") as file:
        entries = [entry for entry in read_po(file) if entry.id]
    return sum(1 for entry in entries if entry.fuzzy or not all(_strings(entry)))


def _strings(entry: Entry) -> list[str]:
    given = entry.string
    return [str(s or "") for s in given] if isinstance(given, list | tuple) else [given or ""]
