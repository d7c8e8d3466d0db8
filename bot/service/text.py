"""Notice text without any frontend's markup.

The host says *who*, *where* and *when* with typed parts; each frontend writes them its own
way (Discord: its mention, channel and timestamp markup and a message link; the local
table: names, ``#table``, local times and bare links). Plain strings are Markdown (bold,
code), which both frontends show as it is.

Build text by adding strings and parts, or with :meth:`Text.join`::

    Text.of("➡️ ", Mention(42), ": roll the die")
    Text.of("Only the host, ", Mention(host), ", can start.") + " Ask them."
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass


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


Part = Mention | ChannelRef | Moment | BoardLink | WebLink | ServerRef
Piece = str | Part


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

    def render(self, part: Callable[[Part], str]) -> str:
        """The text as one string, each typed part written by ``part``."""
        return "".join(p if isinstance(p, str) else part(p) for p in self.pieces)

    @property
    def parts(self) -> tuple[Part, ...]:
        """The typed parts alone (who is mentioned, which channels...)."""
        return tuple(p for p in self.pieces if not isinstance(p, str))

    def plain(self) -> str:
        """The text with parts as neutral placeholders (for logs and tests)."""
        return self.render(_plain_part)

    def __add__(self, other: str | Text) -> Text:
        return Text((self, other))  # type: ignore[arg-type]

    def __radd__(self, other: str | Text) -> Text:
        return Text((other, self))  # type: ignore[arg-type]

    def __contains__(self, item: object) -> bool:
        if isinstance(item, str):
            return item in self.plain()
        return item in self.pieces

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


def _flat(piece: Piece | Text) -> tuple[Piece, ...]:
    """A piece as pieces: a text's own, or itself (so that strings meet and merge)."""
    return piece.pieces if isinstance(piece, Text) else (piece,)


def _plain_part(part: Part) -> str:
    match part:
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
    :data:`_PICTURES`), its typed parts kept: what a reply that quotes typed text shows,
    so a NUL or an escape typed into an option never reaches a message as it is."""
    return Text(p.translate(_PICTURES) if isinstance(p, str) else p for p in as_text(text).pieces)
