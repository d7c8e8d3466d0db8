"""Dragonslayer's action notation: reading the words players type.

Actions are a verb and its arguments, lower-case, separated by spaces:
``go <place or sea>``, ``take <slot>``, ``gain``, ``done``, ``k1 <place>``, ``k2 <place>``,
``place <castle>``, ``return``, ``swap <tile>``, ``lose <tile>``, ``drop <tile>``,
``castle <castle>``, ``challenge <magician>``, ``pass``, ``accept``, ``road <place>``,
``escape``, ``wait``. Places, seas, tiles and magicians may be typed by key
(``ashby_fell``) or by name (``Ashby Fell``, ``ashby fell``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

_WORD = re.compile(r"[^a-z0-9]+")


def key_of(text: str) -> str:
    """A name or key as a key: ``"Eldrinn's Halberd"`` -> ``"eldrinns_halberd"``."""
    return _WORD.sub("_", text.lower().replace("'", "")).strip("_")


def write(verb: str, *words: str) -> str:
    """An action in canonical form, the inverse of :func:`split`: ``write("go", "swanscombe")``
    -> ``"go swanscombe"``; keys are written as keys."""
    return " ".join((verb, *words))


def split(action: str) -> tuple[str, str]:
    """``(verb, rest)`` of an action, case and spacing normalised."""
    words = action.strip().lower().split(maxsplit=1)
    if not words:
        return "", ""
    return words[0], words[1].strip() if len(words) > 1 else ""


def match(text: str, options: Iterable[tuple[str, str]]) -> str | None:
    """The key among ``(key, name)`` pairs that ``text`` names, by key or name; else None."""
    wanted = key_of(text)
    for key, name in options:
        if wanted in (key, key_of(name)):
            return key
    return None
