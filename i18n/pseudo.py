"""The pseudo-locale ``en-XA``: English made visibly foreign and a third longer.

A test that reads a text in ``en-XA`` knows it came through the catalog when it is
bracketed and accented; one that fits Discord's limits in ``en-XA`` fits a long language.
What a reader must be able to copy stays as it is: the message's places (``{name}``),
Discord's markup (``<@42>``, ``<t:…:R>``, ``**``), inline code and addresses.
"""

from __future__ import annotations

import functools
import re

OPEN, CLOSE = "⟦", "⟧"
"""The brackets around every pseudo-localised text (a text without them went around the
catalog)."""

_ACCENTS = str.maketrans(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
    "áƀçðéƒĝĥîĵķļɱñöþǫŕšţûṽŵẋýžÁƁÇÐÉƑĜĤÎĴĶĻṀÑÖÞǪŔŠŢÛṼŴẊÝŽ",
)

_KEPT = re.compile(
    r"\{[^{}]*\}"  # a message's place
    r"|<[^<>\s]+>"  # Discord's markup: mentions, channels, timestamps, bare links
    r"|`[^`]*`"  # inline code (commands, notation)
    r"|https?://\S+"  # addresses
    r"|/[a-z][a-z_-]*(?: [a-z][a-z_-]*)?"  # a slash command's name
)
_LONGER = 0.3


@functools.lru_cache(maxsize=8192)  # the catalog's templates are few: each is made once
def accented(text: str) -> str:
    """``text`` accented outside what must stay as it is, bracketed and a third longer."""
    if not text:
        return text
    out: list[str] = []
    last = 0
    for kept in _KEPT.finditer(text):
        out.append(text[last : kept.start()].translate(_ACCENTS))
        out.append(kept.group())
        last = kept.end()
    out.append(text[last:].translate(_ACCENTS))
    body = "".join(out)
    padding = "~" * max(1, round(len(text) * _LONGER))
    return f"{OPEN}{body} {padding}{CLOSE}"


def is_accented(text: str) -> bool:
    """Whether ``text`` came through :func:`accented` (its brackets are there)."""
    return OPEN in text and CLOSE in text
