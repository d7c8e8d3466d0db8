"""Notice text without any frontend's markup.

The host says *who*, *where* and *when* with typed parts; each frontend writes them its own
way (Discord: its mention, channel and timestamp markup and a message link; the local
table: names, ``#table``, local times and bare links). Plain strings are Markdown (bold,
code), which both frontends show as it is.

Words a person reads are messages of the catalog (:mod:`i18n`), written out in the
reader's locale only when a frontend shows them; :func:`said` makes one a text::

    said("{player}: roll the die", player=Mention(42))
    said("Only the host, {host}, can start.", host=Mention(host)) + " " + said("Ask them.")

Plain strings are for what no language changes (a name, notation, an emoji); build with
them by adding, or with :meth:`Text.join`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TypeAlias

import i18n
from i18n import Locale, Said


@dataclass(frozen=True)
class Mention:
    """A user, named so that they are notified where the frontend can."""

    user_id: int


@dataclass(frozen=True)
class ChannelRef:
    """A channel (or thread) of the server."""

    channel_id: int


@dataclass(frozen=True)
class Moment:
    """A point in time (seconds since the epoch), shown relative to now where possible."""

    at: float


@dataclass(frozen=True)
class BoardLink:
    """A link to a posted message (the newest board)."""

    guild_id: int
    channel_id: int
    message_id: int


@dataclass(frozen=True)
class WebLink:
    """A link to a web page (a game's page), shown as a link without a preview."""

    url: str


@dataclass(frozen=True)
class ServerRef:
    """A server (guild), named as the frontend knows it (a DM says which server a game is on)."""

    guild_id: int


Part = Mention | ChannelRef | Moment | BoardLink | WebLink | ServerRef | Said
"""A typed piece of text. A :class:`~i18n.Said` message is one too: its words are chosen
only when it is written, in the reader's locale."""
Piece = str | Part
Arg: TypeAlias = "str | int | float | Part | Text"
"""What fills a message's place (see :func:`said`)."""


class Text:
    """An immutable sequence of strings and typed parts."""

    __slots__ = ("pieces",)

    def __init__(self, pieces: Iterable[Piece] = ()) -> None:
        merged: list[Piece] = []
        for piece in (p for given in pieces for p in _flat(given)):
            if isinstance(piece, str) and merged and isinstance(merged[-1], str):
                merged[-1] += piece
            elif piece != "":
                merged.append(piece)
        self.pieces: tuple[Piece, ...] = tuple(merged)

    @classmethod
    def of(cls, *pieces: Piece | Text) -> Text:
        return cls(pieces)  # type: ignore[arg-type]

    def join(self, items: Iterable[str | Text]) -> Text:
        """``items`` with this text between each two, like :meth:`str.join`."""
        out: list[Piece | Text] = []
        for index, item in enumerate(items):
            if index:
                out.append(self)
            out.append(item)
        return Text(out)  # type: ignore[arg-type]

    def render(self, part: Callable[[Part], str], locale: Locale = i18n.DEFAULT) -> str:
        """The text as one string in ``locale``: each message in the reader's words (its
        places filled the same way), each other typed part written by ``part``."""
        return "".join(self._written(p, part, locale) for p in self.pieces)

    @staticmethod
    def _written(piece: Piece | Text, part: Callable[[Part], str], locale: Locale) -> str:
        if isinstance(piece, str):
            return piece
        if isinstance(piece, Text):
            return piece.render(part, locale)
        if isinstance(piece, Said):
            return i18n.write(
                piece,
                locale,
                lambda arg, at: Text._written(arg, part, at),  # type: ignore[arg-type]
            )
        return part(piece)

    @property
    def parts(self) -> tuple[Part, ...]:
        """The typed parts alone (who is mentioned, which channels...), those filling a
        message's places included; the messages themselves are words, not parts."""
        found: list[Part] = []
        for piece in self.pieces:
            if isinstance(piece, Said):
                found += Text(_args_as_pieces(piece)).parts
            elif not isinstance(piece, str):
                found.append(piece)
        return tuple(found)

    def plain(self) -> str:
        """The text in English with parts as neutral placeholders (for logs and tests)."""
        return self.render(_plain_part)

    def __add__(self, other: str | Text) -> Text:
        return Text((self, other))  # type: ignore[arg-type]

    def __radd__(self, other: str | Text) -> Text:
        return Text((other, self))  # type: ignore[arg-type]

    def __contains__(self, item: object) -> bool:
        if isinstance(item, str):
            return item in self.plain()
        return item in self.pieces or item in self.parts

    def __eq__(self, other: object) -> bool:
        if isinstance(other, str):
            return self.plain() == other
        return isinstance(other, Text) and self.pieces == other.pieces

    def __hash__(self) -> int:
        return hash(self.pieces)

    def __bool__(self) -> bool:
        return bool(self.pieces)

    def __str__(self) -> str:
        return self.plain()

    def __format__(self, spec: str) -> str:
        # An f-string would flatten the parts into placeholders: build with + instead.
        raise TypeError("Text is built with + and Text.join, not put into an f-string")

    def __repr__(self) -> str:
        return f"Text({self.pieces!r})"

    def splitlines(self) -> list[str]:
        return self.plain().splitlines()


def _args_as_pieces(message: Said) -> list[Piece]:
    """The pieces filling ``message``'s places (numbers aside), in order."""
    pieces: list[Piece] = []
    for _, value in message.args:
        if isinstance(value, Text):
            pieces += value.pieces
        elif isinstance(value, str | Part):
            pieces.append(value)
    return pieces


def _flat(piece: Piece | Text) -> tuple[Piece, ...]:
    """A piece as pieces: a text's own, or itself (so that strings meet and merge)."""
    return piece.pieces if isinstance(piece, Text) else (piece,)


def _plain_part(part: Part) -> str:
    match part:
        case Said():
            return i18n.write(part, i18n.DEFAULT, lambda arg, _: Text((arg,)).plain())  # type: ignore[arg-type]
        case Mention(user_id):
            return f"@{user_id}"
        case ChannelRef(channel_id):
            return f"#{channel_id}"
        case Moment(at):
            return f"at {int(at)}"
        case BoardLink():
            return "the newest board"
        case ServerRef(guild_id):
            return f"server {guild_id}"
    raise TypeError(part)


def as_text(value: str | Text) -> Text:
    return value if isinstance(value, Text) else Text((value,))


def said(text: str, /, **args: Arg) -> Text:
    """The catalog's message ``text`` (English, places in braces, a string literal) as a
    text, its places filled by ``args``: plain strings and numbers as they are (names,
    notation), typed parts and texts written as the frontend writes them, nested messages
    in the same locale. ``said("{player}: roll the die", player=Mention(42))``."""
    return Text((i18n.said(text, **{k: _arg(v) for k, v in args.items()}),))


def said_plural(one: str, many: str, count: int, /, **args: Arg) -> Text:
    """:func:`said` for a message whose words depend on ``count`` (its place ``{count}``):
    ``said_plural("{count} seat", "{count} seats", 3)``."""
    return Text((i18n.said_plural(one, many, count, **{k: _arg(v) for k, v in args.items()}),))


def _arg(value: Arg) -> i18n.Arg:
    """A message's argument as it is kept: a text of one string or one message is kept as
    that string or message, so equal texts make equal messages."""
    if isinstance(value, Text) and len(value.pieces) == 1:
        return value.pieces[0]
    if isinstance(value, Text) and not value.pieces:
        return ""
    return value


def plural(count: int, word: str, many: str | None = None) -> str:
    """``count`` with ``word`` in the right number: ``1 seat``, ``2 seats``, ``0 seats``
    (``many`` where adding an s is wrong: ``plural(2, "ply", "plies")``)."""
    return f"{count} {word if count == 1 else (many or word + 's')}"


def lines_of(text: str | Text) -> list[Text]:
    """``text`` cut at its line breaks, each line keeping its typed parts."""
    lines: list[list[Piece]] = [[]]
    for piece in as_text(text).pieces:
        if not isinstance(piece, str):
            lines[-1].append(piece)
            continue
        first, *rest = piece.split("\n")
        lines[-1].append(first)
        lines += [[line] for line in rest]
    return [Text(line) for line in lines]


def fitted(lines: list[Text], limit: int, keep: int = 1) -> list[Text]:
    """``lines`` within ``limit`` characters (as plain text): the first ``keep`` lines and
    as many of the last ones as fit, with ``…`` where lines were left out."""

    sizes = [len(line.plain()) + 1 for line in lines]
    if sum(sizes) <= limit:
        return lines
    room = limit - sum(sizes[:keep]) - 2  # the "…" line
    start = len(lines)
    while start > keep and sizes[start - 1] <= room:
        start -= 1
        room -= sizes[start]
    return [*lines[:keep], Text.of("…"), *lines[start:]]


_PICTURES: dict[int, str | None] = {c: chr(0x2400 + c) for c in range(0x20) if chr(c) != "\n"}
_PICTURES[0x7F] = "\u2421"  # ␡
_PICTURES.update(dict.fromkeys(range(0x80, 0xA0)))  # C1 controls have no picture: dropped
"""Each control character a person may type, as a reply shows it: its Unicode control
picture (``␀`` for NUL, ``␉`` for a tab), or nothing for the C1 controls, which have none.
A line break stays a line break."""


def visible(text: str | Text) -> Text:
    """``text`` with every control character it holds written visibly (see
    :data:`_PICTURES`), the strings filling its messages' places too, its typed parts kept:
    what a reply that quotes typed text shows, so a NUL or an escape typed into an option
    never reaches a message as it is."""
    return Text(_visible_piece(p) for p in as_text(text).pieces)


def _visible_piece(piece: Piece) -> Piece:
    if isinstance(piece, str):
        return piece.translate(_PICTURES)
    if isinstance(piece, Said):
        places = tuple((name, _visible_arg(value)) for name, value in piece.args)
        return Said(piece.text, places, piece.plural, piece.count)
    return piece


def _visible_arg(value: i18n.Arg) -> i18n.Arg:
    if isinstance(value, Text):
        return visible(value)
    if isinstance(value, str | Said):
        return _visible_piece(value)
    return value
