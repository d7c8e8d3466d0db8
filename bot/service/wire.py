"""Notices to JSON and back, for the outbox.

Only the application layer reads what it wrote: the store keeps the JSON as it is given.
``load(dump(notice)) == notice`` for every notice kind the outbox holds.
"""

from __future__ import annotations

from typing import Any

import i18n
from bot.service.notices import (
    Board,
    ChannelPost,
    Controls,
    Notice,
    Outcome,
    PrivateFallback,
    PrivateMessage,
    Sendable,
    StatusUpdate,
)
from bot.service.text import (
    BoardLink,
    ChannelRef,
    Mention,
    Moment,
    Part,
    Piece,
    ServerRef,
    Text,
    WebLink,
    as_text,
)
from bot.store import JsonValue, Outgoing
from engines.base import Choice, Prompt
from i18n import Said

_PARTS: dict[str, type[Mention | ChannelRef | Moment | BoardLink | WebLink | ServerRef]] = {
    "mention": Mention,
    "channel": ChannelRef,
    "moment": Moment,
    "link": BoardLink,
    "web": WebLink,
    "server": ServerRef,
}
_PART_NAMES = {kind: name for name, kind in _PARTS.items()}


def outgoing(outcome: Outcome) -> list[Outgoing]:
    """What of ``outcome`` the outbox keeps: every notice but the replies, in order, each
    saying which offer it settles (if any), so the store knows not to settle it again."""
    return [kept(n) for n in outcome.outgoing]


def kept(notice: Notice) -> Outgoing:
    """One notice as the outbox keeps it, saying which offer it settles (if any)."""
    settles = notice.settles if isinstance(notice, ChannelPost) else None
    return Outgoing(lane(notice), dump(notice), settles)


def lane(notice: Notice) -> str:
    """Where a notice is sent in order: its channel (``c<id>``) or a user's DMs (``u<id>``)."""
    if isinstance(notice, PrivateMessage):
        return f"u{notice.user_id}"
    if isinstance(notice, ChannelPost | StatusUpdate | PrivateFallback):
        return f"c{notice.channel_id}"
    raise TypeError(f"{type(notice).__name__} is not sent through the outbox")


def dump(notice: Notice) -> dict[str, Any]:
    match notice:
        case ChannelPost():
            return {
                "kind": "post", "game": notice.game_id, "channel": notice.channel_id,
                "text": dump_text(notice.text), "board": _dump_board(notice.board),
                "mentions": list(notice.mentions),
                "controls": [dump_controls(c) for c in notice.controls], "final": notice.final,
                "turn": notice.turn, "edit": notice.edit, "story": dump_text(notice.story),
                "settles": notice.settles, "passed": notice.passed,
            }  # fmt: skip
        case PrivateMessage():
            return {
                "kind": "private", "game": notice.game_id, "user": notice.user_id,
                "text": dump_text(notice.text),
                "controls": [dump_controls(c) for c in notice.controls],
                "channel": notice.channel_id,
                "boards": [_dump_board(b) for b in notice.boards],
            }  # fmt: skip
        case StatusUpdate():
            return {
                "kind": "status", "game": notice.game_id, "channel": notice.channel_id,
                "text": dump_text(notice.text),
            }  # fmt: skip
        case PrivateFallback():
            return {
                "kind": "fallback", "game": notice.game_id, "channel": notice.channel_id,
                "user": notice.user_id,
            }  # fmt: skip
    raise TypeError(f"{type(notice).__name__} is not sent through the outbox")


def load(data: dict[str, Any]) -> Sendable:
    match data["kind"]:
        case "post":
            return ChannelPost(
                data["game"], data["channel"], load_text(data["text"]),
                _load_board(data["board"]), tuple(data["mentions"]),
                tuple(load_controls(c) for c in data["controls"]), data["final"],
                data.get("turn"), data.get("edit", False), load_text(data.get("story", [])),
                data.get("settles"), data.get("passed", False),
            )  # fmt: skip
        case "private":
            return PrivateMessage(
                data["game"], data["user"], load_text(data["text"]),
                tuple(load_controls(c) for c in data["controls"]), channel_id=data["channel"],
                boards=_load_boards(data),
            )  # fmt: skip
        case "status":
            return StatusUpdate(data["game"], data["channel"], load_text(data["text"]))
        case "fallback":
            return PrivateFallback(data["game"], data["channel"], data["user"])
    raise ValueError(f"unknown notice kind {data['kind']!r}")


def dump_text(text: str | Text) -> list[Any]:
    return [
        piece if isinstance(piece, str) else _dump_part(piece) for piece in as_text(text).pieces
    ]


def load_text(data: JsonValue) -> Text:
    """A text as :func:`dump_text` stored it; ValueError for anything else."""
    if not isinstance(data, list):
        raise ValueError(f"not a stored text: {data!r}")
    return Text(_load_piece(piece) for piece in data)


def _dump_part(part: Part) -> dict[str, Any]:
    if isinstance(part, Said):
        return _dump_said(part)
    return {"part": _PART_NAMES[type(part)], **part.__dict__}


def _dump_said(message: Said) -> dict[str, Any]:
    """A message as its English text and its arguments, each stored as it is kept: a
    number or string as it is, a typed part or nested message as an object, a text as a
    list of pieces. The words are chosen only when it is sent, for its reader."""
    dumped: dict[str, Any] = {
        "part": "said",
        "text": message.text,
        "args": {name: _dump_arg(value) for name, value in message.args},
    }
    if message.plural is not None:
        dumped["plural"] = message.plural
    return dumped


def _dump_arg(value: object) -> JsonValue:
    if isinstance(value, bool) or not isinstance(value, str | int | float | Text | Part):
        raise TypeError(f"a message's argument cannot be stored: {value!r}")
    if isinstance(value, Text):
        return {"text": dump_text(value)}
    if isinstance(value, str | int | float):
        return value
    return _dump_part(value)


def _load_arg(data: JsonValue) -> i18n.Arg:
    if isinstance(data, dict) and "text" in data and "part" not in data:
        return load_text(data["text"])
    if isinstance(data, dict):
        return _load_part(data)
    if isinstance(data, str | int | float):
        return data
    raise ValueError(f"not a stored argument: {data!r}")


def _load_piece(data: JsonValue) -> Piece:
    """One piece of a stored text: a string, or a part stored as an object."""
    if isinstance(data, str):
        return data
    if not isinstance(data, dict):
        raise ValueError(f"not a stored piece of text: {data!r}")
    return _load_part(data)


def _load_part(data: dict[str, Any]) -> Part:
    if data["part"] == "said":
        args = tuple((name, _load_arg(value)) for name, value in data["args"].items())
        plural = data.get("plural")
        count = dict(args).get("count") if plural is not None else None
        return Said(data["text"], args, plural, count if isinstance(count, int) else None)
    fields = {k: v for k, v in data.items() if k != "part"}
    return _PARTS[data["part"]](**fields)


def dump_controls(controls: Controls) -> dict[str, Any]:
    prompt = controls.prompt
    dumped = {
        "game": controls.game_id, "version": controls.version,
        "prompt": [prompt.seat, prompt.kind, prompt.text, prompt.secret],
        "choices": [_dump_choice(c) for c in controls.choices],
    }  # fmt: skip
    return {**dumped, "placed": True} if controls.placed else dumped


def _dump_choice(choice: Choice) -> list[Any]:
    """A choice as a list; where it goes and what happens there only when it says so."""
    dumped: list[Any] = [choice.action, choice.label, choice.group]
    if choice.to or choice.outcome or choice.notable:
        dumped += [choice.to, choice.outcome, choice.notable]
    return dumped


def load_controls(data: dict[str, Any]) -> Controls:
    return Controls(
        data["game"], data["version"], Prompt(*data["prompt"]),
        tuple(Choice(*c) for c in data["choices"]), data.get("placed", False),
    )  # fmt: skip


def _dump_board(board: Board | None) -> dict[str, Any] | None:
    if board is None:
        return None
    dumped = {"slug": board.slug, "view": board.view}
    return {**dumped, "data": board.data} if board.data else dumped


def _load_boards(data: dict[str, Any]) -> tuple[Board, ...]:
    """A private message's boards (stored before digests as one ``board``, or none)."""
    if "boards" in data:
        return tuple(b for b in map(_load_board, data["boards"]) if b is not None)
    board = _load_board(data.get("board"))
    return () if board is None else (board,)


def _load_board(data: dict[str, Any] | None) -> Board | None:
    return None if data is None else Board(data["slug"], data["view"], data.get("data") or {})
