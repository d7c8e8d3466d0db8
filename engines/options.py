"""Table options: each game's schema, and reading what a player typed.

A game declares its options as a tuple of :class:`Option` (``GAME.options``). The same
schema reads the text typed when a table is opened (:func:`parse`), checks options that are
already split into a mapping (:func:`normalize`, for stored or programmatic options) and
prints them for help (:func:`describe`).

The typed form is ``key=value`` pairs separated by spaces::

    lions=symmetric reserve=4
    magicians=merridyds,galen
    magicians=Old Kyvin, galen       (a comma list may have spaces after its commas)

Keys are case-insensitive. A value is matched against the option's words ignoring case and
treating runs of spaces, hyphens and other punctuation like ``_`` (``Old Kyvin`` is
``old_kyvin``). An option with ``many=True`` takes a comma-separated list, each word once.
Unknown keys, bad values and keys given twice raise :class:`~engines.base.BadOptions`
whose message says what to type instead. Options not given take their default; an option
whose default is ``None`` is left out (the game decides, e.g. by table size).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from engines.errors import BadOptions

QUOTE_LIMIT = 60
"""The most characters of what a player typed that a refusal repeats."""

_KEY = re.compile(r"(?:^|(?<=\s))([A-Za-z_][A-Za-z0-9_]*)\s*=\s*")
_DIGITS = re.compile(r"[0-9]+")
_PUNCTUATION = re.compile(r"[^a-z0-9]+")


def clip(text: object, limit: int = QUOTE_LIMIT) -> str:
    """What a player typed, as a refusal quotes it: stripped, and cut to ``limit``
    characters with an ellipsis, so a refusal of a long input stays short."""
    shown = str(text).strip()
    return shown if len(shown) <= limit else shown[: limit - 1].rstrip() + "…"


def word_key(text: str) -> str:
    """A typed word as a key: ``" Old Kyvin "`` -> ``"old_kyvin"``, ``"Eldrinn's"`` ->
    ``"eldrinns"``."""
    return _PUNCTUATION.sub("_", text.lower().replace("'", "")).strip("_")


@dataclass(frozen=True)
class Option:
    """One option of a game.

    ``choices`` are the words the option accepts (keys, lower case); ``number`` a range
    ``(low, high)`` of whole numbers it accepts. An option may have both (a seat by colour
    or number). ``value`` turns a matched choice word into the stored value (default: the
    word itself); numbers are stored as ``int``. ``many`` options take a comma list and
    store a list. ``check`` receives the whole read value and returns it (possibly
    reordered) or raises :class:`BadOptions` for rules about the combination. ``default``
    is the value when the option is not given: ``None`` leaves it out, a callable is called
    each time (a default read from a data file). ``example`` is a typed example for help
    and error messages (``"magicians=merridyds,galen"``); ``default_words`` says the
    default in words when it is not one value (``"Aurric and Galen for 2, ..."``).
    """

    key: str
    help: str
    default: Any = None
    choices: tuple[str, ...] = ()
    number: tuple[int, int] | None = None
    many: bool = False
    value: Callable[[str], Any] | None = None
    check: Callable[[Any], Any] | None = None
    example: str = ""
    default_words: str = ""

    @property
    def usage(self) -> str:
        """How to type it: ``lions=random|symmetric``, ``reserve=0-12``,
        ``magicians=<aurric,merridyds,old_kyvin,galen: comma list>``."""
        accepted = list(self.choices)
        if self.number is not None:
            accepted.append(f"{self.number[0]}-{self.number[1]}")
        if self.many:
            return f"{self.key}=<comma list of {', '.join(accepted)}>"
        return f"{self.key}={'|'.join(accepted)}"

    def default_value(self) -> Any:
        return self.default() if callable(self.default) else self.default

    def expects(self) -> str:
        """What a value must be, in words."""
        parts = []
        if self.number is not None:
            parts.append(f"a whole number from {self.number[0]} to {self.number[1]}")
        if self.choices:
            parts.append(f"one of {', '.join(self.choices)}")
        what = " or ".join(parts) or "a value"
        if self.many:
            what = f"a comma-separated list, each {what}, each named once"
        return what

    def refuse(self, raw: str, why: str = "") -> BadOptions:
        """The error for a bad value ``raw``: what was wrong, what to type instead."""
        example = f" For example `{self.example}`." if self.example else ""
        why = f" {why}" if why else ""
        return BadOptions(
            f"`{self.key}={clip(raw)}` cannot be used:{why} {self.key} takes {self.expects()} "
            f"({self.help}).{example}"
        )

    def read_word(self, word: str, raw: str) -> Any:
        """One word of a value: a choice (as its stored value) or a number."""
        cleaned = word.strip()
        if self.number is not None and _DIGITS.fullmatch(cleaned):
            low, high = self.number
            # A very long number is out of range without reading it (int() refuses huge ones).
            number = int(cleaned) if len(cleaned) <= 18 else None
            if number is not None and low <= number <= high:
                return number
            raise self.refuse(
                raw, f"{clip(number if number is not None else cleaned)} is out of range."
            )
        key = word_key(cleaned)
        if key in self.choices:
            return self.value(key) if self.value is not None else key
        raise self.refuse(raw, f"`{clip(cleaned)}` is not known." if cleaned else "")

    def read(self, raw: Any) -> Any:
        """The stored value of ``raw``: typed text, or an already read value (a number, a
        list for a ``many`` option), so stored options read again unchanged."""
        if isinstance(raw, bool):
            raise self.refuse(str(raw).lower())
        if self.many:
            items = [str(item) for item in raw] if isinstance(raw, list | tuple) else None
            text = ",".join(items) if items is not None else str(raw)
            words = items if items is not None else text.split(",")
            if not text.strip() or any(not word.strip() for word in words):
                raise self.refuse(text, "An item of the list is empty.")
            values = [self.read_word(word, text) for word in words]
            if len(set(map(repr, values))) != len(values):
                raise self.refuse(text, "Name each one once.")
        else:
            text = str(raw)
            if not text.strip():
                raise self.refuse(text, "The value is missing.")
            values = self.read_word(text, text.strip())
        return self.check(values) if self.check is not None else values


Schema = tuple[Option, ...]


def describe(schema: Schema, game: str = "This game") -> str:
    """The options as Markdown lines for help: usage, default and meaning of each."""
    if not schema:
        return f"{game} has no options."
    lines = []
    for option in schema:
        default = option.default_value()
        if isinstance(default, list):
            default = ",".join(map(str, default))
        shown = "" if default is None else f" (default {default})"
        if option.default_words:
            shown = f" (default: {option.default_words})"
        example = f"; e.g. `{option.example}`" if option.example else ""
        lines.append(f"- `{option.usage}`{shown}: {option.help}{example}.")
    return "\n".join(lines)


def _known(schema: Schema, game: str) -> str:
    return f"{game} knows: " + "; ".join(f"`{option.usage}` ({option.help})" for option in schema)


def _unknown(schema: Schema, keys: Iterable[str], game: str) -> BadOptions:
    names = ", ".join(f"`{clip(key)}`" for key in keys)
    if not schema:
        return BadOptions(f"{game} has no options; remove {names}.")
    return BadOptions(f"Unknown option {names}. {_known(schema, game)}.")


def _finish(schema: Schema, given: Mapping[str, Any]) -> dict[str, Any]:
    """Every option of the schema, read from ``given`` or defaulted, in schema order."""
    result: dict[str, Any] = {}
    for option in schema:
        if option.key in given:
            result[option.key] = option.read(given[option.key])
        else:
            default = option.default_value()
            if default is not None:
                result[option.key] = default
    return result


def split(text: str, schema: Schema = (), game: str = "This game") -> list[tuple[str, str]]:
    """``"lions=symmetric  reserve=4"`` -> ``[("lions", "symmetric"), ("reserve", "4")]``:
    keys lower-cased, each value the text up to the next ``key=``, stripped. Raises
    :class:`BadOptions` for text that is not ``key=value`` pairs."""
    text = text.strip()
    if not text:
        return []
    found = list(_KEY.finditer(text))
    if not found or found[0].start() != 0:
        stray = text[: found[0].start()].strip() if found else text
        known = f" {_known(schema, game)}." if schema else f" {game} has no options."
        raise BadOptions(
            f"Options are written `key=value`, separated by spaces; not `{clip(stray)}`.{known}"
        )
    pairs = []
    for index, match in enumerate(found):
        end = found[index + 1].start() if index + 1 < len(found) else len(text)
        pairs.append((match.group(1).lower(), text[match.end() : end].strip()))
    return pairs


def parse(schema: Schema, text: str, game: str = "This game") -> dict[str, Any]:
    """The options a player typed (``"lions=symmetric reserve=4"``), checked against
    ``schema`` and with defaults filled. ``game`` names the game in messages."""
    given: dict[str, str] = {}
    for key, value in split(text, schema, game):
        if key in given:
            raise BadOptions(f"`{clip(key)}` is given twice; give each option once.")
        given[key] = value
    return normalize(schema, given, game)


def normalize(
    schema: Schema, options: Mapping[str, Any], game: str = "This game"
) -> dict[str, Any]:
    """Options already split into ``{key: value}`` (typed text, or values already read:
    numbers, lists), checked against ``schema`` and with defaults filled."""
    given: dict[str, Any] = {}
    for raw_key, value in options.items():
        key = str(raw_key).strip().lower()
        if key in given:
            raise BadOptions(f"`{clip(key)}` is given twice; give each option once.")
        given[key] = value
    known = {option.key for option in schema}
    unknown = sorted(set(given) - known)
    if unknown:
        raise _unknown(schema, unknown, game)
    return _finish(schema, given)
