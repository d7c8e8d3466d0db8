"""Game records: a game written as text (headers, then its actions) and read back.

The format is described in ``docs/RECORDS.md``. In short: PGN-like header lines
``[Name "value"]`` (values are JSON strings), a blank line, then one line per logged action,
``<seq>. <role>: <action>``, where ``seq`` is the action's number in the game's log (its
chance is derived from it) and ``<role>`` the acting seat's role key. A hidden action is
written ``(hidden)``. A record with a ``Seed`` and no hidden action replays exactly.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from bot.service.errors import UserError
from bot.service.text import said

HIDDEN = "(hidden)"
"""How an action not yet public is written."""

HEADER = re.compile(r'^\[([A-Za-z][A-Za-z0-9]*) ("(?:[^"\\]|\\.)*")\]$')
MOVE = re.compile(r"^(\d+)\.\s+(\S+):\s+(.+)$")


class BadRecord(UserError):
    """Text that is not a game record (or one that cannot be played back)."""


@dataclass(frozen=True)
class Move:
    """One logged action: its sequence number, the acting seat, and the action (None when
    it is hidden)."""

    seq: int
    seat: int
    action: str | None


@dataclass(frozen=True)
class Record:
    """A game record: its headers in order, and its actions."""

    headers: dict[str, str]
    moves: tuple[Move, ...]

    @property
    def slug(self) -> str:
        return self.headers["Game"]

    @property
    def players(self) -> int:
        return int(self.headers["Players"])

    @property
    def options(self) -> dict[str, Any]:
        options: dict[str, Any] = json.loads(self.headers.get("Options", "{}"))
        return options

    @property
    def data(self) -> dict[str, Any]:
        """The server's corrected data the game was played with (``{}``: none); BadRecord
        when the header is not ``{package: {file: {field: value}}}``."""
        try:
            value = json.loads(self.headers.get("Data", "{}"))
        except json.JSONDecodeError:
            value = None
        if not isinstance(value, dict) or not all(
            isinstance(files, dict) and all(isinstance(f, dict) for f in files.values())
            for files in value.values()
        ):
            raise BadRecord(
                said(
                    "The record's Data header must be a JSON object {shape}, as exported.",
                    shape='{"package": {"file": {"field": value}}}',
                )
            )
        return value

    @property
    def seed(self) -> str | None:
        """The game's seed (only in the record of a finished game)."""
        return self.headers.get("Seed")

    @property
    def roles(self) -> list[str]:
        """The seats' role keys, in seat order."""
        return [self.headers[f"Seat{n}"] for n in range(1, self.players + 1)]

    @property
    def names(self) -> list[str]:
        """Who played each seat, in seat order."""
        return [self.headers.get(f"Player{n}", "") for n in range(1, self.players + 1)]

    @property
    def complete(self) -> bool:
        """Whether it replays exactly: it has the seed and every action."""
        return self.seed is not None and all(m.action is not None for m in self.moves)


def write(record: Record) -> str:
    """The record as text; :func:`read` gives it back."""
    lines = [
        f"[{name} {json.dumps(value, ensure_ascii=False)}]"
        for name, value in record.headers.items()
    ]
    lines.append("")
    roles = record.roles
    for move in record.moves:
        lines.append(f"{move.seq}. {roles[move.seat]}: {move.action or HIDDEN}")
    return "\n".join(lines) + "\n"


def read(text: str) -> Record:
    """The record written in ``text``; BadRecord names the first line it cannot read."""
    headers: dict[str, str] = {}
    raw: list[tuple[int, re.Match[str]]] = []
    for number, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line or line.startswith(";"):
            continue
        if match := HEADER.match(line):
            if raw:
                raise BadRecord(
                    said("Line {number} is a header after the actions began.", number=number)
                )
            headers[match[1]] = json.loads(match[2])
        elif match := MOVE.match(line):
            raw.append((number, match))
        else:
            raise BadRecord(
                said(
                    'Line {number} is neither a header `[Name "value"]` nor an action '
                    "`<number>. <role>: <action>`.",
                    number=number,
                )
            )
    _check_headers(headers)
    record = Record(headers, ())
    seat_of = {role: index for index, role in enumerate(record.roles)}
    moves = []
    for number, match in raw:
        if match[2] not in seat_of:
            raise BadRecord(
                said(
                    "Line {number} names the role `{role}`, not a seat of this game.",
                    number=number,
                    role=match[2],
                )
            )
        action = None if match[3].strip() == HIDDEN else match[3].strip()
        moves.append(Move(int(match[1]), seat_of[match[2]], action))
    return Record(headers, tuple(moves))


def _check_headers(headers: dict[str, str]) -> None:
    for needed in ("Game", "Players"):
        if needed not in headers:
            raise BadRecord(said('A game record needs a `[{name} "..."]` header.', name=needed))
    if not headers["Players"].isdigit() or int(headers["Players"]) < 1:
        raise BadRecord(said("The `Players` header must be the table size, a whole number."))
    for n in range(1, int(headers["Players"]) + 1):
        if f"Seat{n}" not in headers:
            raise BadRecord(
                said(
                    "A record of {players} seats needs a `Seat{seat}` header.",
                    players=headers["Players"],
                    seat=n,
                )
            )
    try:
        options = json.loads(headers.get("Options", "{}"))
    except ValueError:
        options = None
    if not isinstance(options, dict):
        raise BadRecord(said("The `Options` header must be the options as a JSON object."))
