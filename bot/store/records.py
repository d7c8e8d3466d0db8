"""What the store hands out: a game with its seats, one logged action, and the errors
of a write whose version check failed, of a store too busy to write, and of a database
written by a newer release."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Protocol, TypeAlias

JsonValue: TypeAlias = "str | int | float | bool | list[JsonValue] | dict[str, JsonValue] | None"
"""A value JSON holds, as ``json.loads`` gives it back."""
JsonObject: TypeAlias = dict[str, JsonValue]
"""A JSON object, as ``json.loads`` gives it back."""


class Row(Protocol):
    """A row as both drivers hand it out, read by column name."""

    def __getitem__(self, key: str, /) -> Any: ...


GAME_STATUSES = frozenset({"lobby", "running", "paused", "finished", "cancelled"})
"""Every status a game can have; ``lobby``, ``running`` and ``paused`` are active."""

GAME_FIELDS = frozenset({
    "status", "snapshot", "result", "deadline", "remind_at", "timing", "channel_id", "options",
    "players", "own_thread",
})  # fmt: skip
"""The game fields ``update_game`` and ``append_action`` may change."""


class StaleVersion(Exception):
    """The game moved on since the caller read it (or there is no such game, or the seat
    was taken); nothing was written."""


class StoreBusy(Exception):
    """Another writer held the database for longer than the store waits for it ("database
    is locked"); nothing was written, and the same call may simply be tried again."""


class NewerDatabase(Exception):
    """The database was written by a newer release: its schema version is past the newest
    migration this release knows. It was refused before anything was written."""

    def __init__(self, path: str, found: int, known: int) -> None:
        self.path, self.found, self.known = path, found, known
        super().__init__(
            f"The database {path} was written by a newer release of the bot (its schema "
            f"version is {found}; this release knows versions up to {known}). Nothing was "
            "changed. Run the newer release, or point DATABASE_PATH (or DATABASE_URL) at "
            "another database."
        )


def parse_calls(value: object) -> dict[str, str]:
    """A user's per-event calls as stored (JSON text, or already an object); ``{}`` for
    none or anything unreadable."""
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except ValueError:
            return {}
    if not isinstance(value, dict):
        return {}
    return {str(k): str(v) for k, v in value.items() if isinstance(v, str)}


@dataclass(frozen=True)
class SeatRecord:
    game_id: int
    seat: int
    role: str
    user_id: int
    name: str
    left: bool = False
    computer: str | None = None
    """The computer player's level (``easy``, ``strong``) for a computer seat; else None."""
    notify: str = "turns"
    """The player's ``/notify`` choice, read with the game (``turns`` when never set)."""
    calls: dict[str, str] = field(default_factory=dict)
    """The player's per-event calls (``/notify event:... how:...``), read with the game
    (``{}`` when never set)."""
    away_until: float | None = None
    """Until when the player said they are away (``/away``), read with the game; None if
    never set or ended. A time in the past is as stored."""

    @staticmethod
    def all_from_json(game_id: int, text: str) -> tuple[SeatRecord, ...]:
        """A game's seats from the JSON list a store's query built, in seat order."""
        seats = sorted(json.loads(text), key=lambda s: s["seat"])
        return tuple(
            SeatRecord(
                game_id=game_id, seat=s["seat"], role=s["role"], user_id=s["user_id"],
                name=s["name"], left=bool(s["left"]), computer=s["computer"],
                notify=s.get("notify") or "turns", calls=parse_calls(s.get("calls")),
                away_until=s.get("away_until"),
            )
            for s in seats
        )  # fmt: skip


@dataclass(frozen=True)
class GameRecord:
    id: int
    guild_id: int
    channel_id: int
    slug: str
    status: str
    host_id: int
    players: int
    options: JsonObject
    seed: int
    version: int
    snapshot: JsonObject | None
    result: str | None
    deadline: float | None
    remind_at: float | None
    timing: JsonObject
    status_message_id: int | None
    board_message_id: int | None
    own_thread: bool
    created_at: float
    updated_at: float
    seats: tuple[SeatRecord, ...] = field(default=())
    data: JsonObject = field(default_factory=dict)
    """The server's corrected data the game was opened with (``{package: {file: {key:
    value}}}``; ``{}`` for the deployment's own data)."""
    watchers: tuple[int, ...] = ()
    """The users watching the game (``/game watch``) when it was read, earliest first."""
    digest_watchers: frozenset[int] = frozenset()
    """Those of ``watchers`` who take a digest of their watched games instead of each
    board (a ``watching`` digest)."""
    offer: OfferRecord | None = None
    """The draw offer or takeback request waiting for answers when the game was read: the
    one made at its ``version`` (None when there is none, or it lapsed)."""
    page: str | None = None
    """The token of the game's web page address (None: the game has no page)."""

    @property
    def active(self) -> bool:
        return self.status in ("lobby", "running", "paused")

    def seat_of(self, user_id: int) -> list[int]:
        """Seats held by ``user_id`` (a user may hold several only at a local table)."""
        return [s.seat for s in self.seats if s.user_id == user_id]

    def has_left(self, seat: int) -> bool:
        return any(s.left for s in self.seats if s.seat == seat)

    def user_at(self, seat: int) -> int | None:
        """The person playing ``seat``; None for an open or computer seat."""
        return next((s.user_id for s in self.seats if s.seat == seat and s.computer is None), None)

    def computer_at(self, seat: int) -> str | None:
        """The level of the computer playing ``seat``, or None if a person plays it."""
        return next((s.computer for s in self.seats if s.seat == seat), None)

    def notify_of(self, user_id: int) -> str:
        """The ``/notify`` choice of a player seated here, as read with the game."""
        return next((s.notify for s in self.seats if s.user_id == user_id), "turns")

    def away_until_of(self, user_id: int) -> float | None:
        """Until when a player seated here is away, as read with the game (None: not)."""
        return next((s.away_until for s in self.seats if s.user_id == user_id), None)

    @staticmethod
    def with_seat_list(row: Row) -> GameRecord:
        """A game row that carries its seats as the JSON list ``seat_list``, its watchers
        as the JSON list ``watcher_list`` and the offer made at its version as the JSON
        object ``open_offer`` (as both stores' game queries read them)."""
        record = GameRecord.from_row(row, SeatRecord.all_from_json(row["id"], row["seat_list"]))
        opened = json.loads(row["open_offer"]) if row["open_offer"] else None
        offer = OfferRecord.from_row({**opened, "game_id": row["id"]}) if opened else None
        watchers = tuple(json.loads(row["watcher_list"] or "[]"))
        digests = frozenset(json.loads(row["digest_watcher_list"] or "[]"))
        return replace(record, watchers=watchers, digest_watchers=digests, offer=offer)

    @staticmethod
    def from_row(row: Row, seats: tuple[SeatRecord, ...]) -> GameRecord:
        return GameRecord(
            id=row["id"],
            guild_id=row["guild_id"],
            channel_id=row["channel_id"],
            slug=row["slug"],
            status=row["status"],
            host_id=row["host_id"],
            players=row["players"],
            options=json.loads(row["options"]),
            seed=row["seed"],
            version=row["version"],
            snapshot=json.loads(row["snapshot"]) if row["snapshot"] else None,
            result=row["result"],
            deadline=row["deadline"],
            remind_at=row["remind_at"],
            timing=json.loads(row["timing"]),
            status_message_id=row["status_message_id"],
            board_message_id=row["board_message_id"],
            own_thread=bool(row["own_thread"]),
            created_at=row["created_at"],
            updated_at=row["updated_at"],
            seats=seats,
            data=json.loads(row["data"]) if row["data"] else {},
            page=row["page"],
        )


@dataclass(frozen=True)
class ActionRecord:
    game_id: int
    seq: int
    seat: int
    action: str
    events: list[JsonObject]
    created_at: float


@dataclass(frozen=True)
class Outgoing:
    """A notice to store with a write: the ``lane`` it is sent in (its order is kept within
    the lane) and its JSON ``body``, which only the application layer reads."""

    lane: str
    body: JsonObject
    settles: int | None = None
    """The version of the offer whose post this notice settles, if it does: a write that
    moves a game past an offer none of its notices settles stores the offer's lapse
    notice itself (see :meth:`Store.make_offer`)."""


@dataclass(frozen=True)
class HeldCall:
    """A call held back from a user during their quiet hours: its notice's JSON ``body``,
    delivered with the user's other held calls once ``due_at`` has come."""

    id: int
    user_id: int
    game_id: int
    body: JsonObject
    due_at: float


@dataclass(frozen=True)
class DigestRow:
    """A user's digest of ``kind`` (``turns``: the games waiting on them; ``watching``:
    the games they watch): every ``every`` seconds, next at ``due_at``; ``seen``: what the
    last one looked at."""

    user_id: int
    every: float
    due_at: float
    seen: str
    kind: str = "turns"

    @staticmethod
    def from_row(row: Row) -> DigestRow:
        return DigestRow(
            user_id=int(row["user_id"]), every=float(row["every"]), due_at=float(row["due_at"]),
            seen=str(row["seen"]), kind=str(row["kind"]),
        )  # fmt: skip


@dataclass(frozen=True)
class OutboxEntry:
    """A stored notice not yet sent (or given up on)."""

    id: int
    game_id: int
    lane: str
    body: JsonObject
    created_at: float
    attempts: int = 0
    not_before: float | None = None
    status_message_id: int | None = None
    """The game's status message when the entry was read (a status edit edits it)."""
    board_message_id: int | None = None
    """The game's newest board post when the entry was read (its controls go once a
    newer board is posted)."""
    shown: str | None = None
    """What a send under this entry's nonce was last meant to show (see
    :meth:`Store.note_shown`); None: no send that may make a message went under it."""
    guild_id: int | None = None
    """The server of the entry's game (whose language its public posts are written in)."""

    @staticmethod
    def from_row(row: Row) -> OutboxEntry:
        """An outbox row, with its game's message ids read as ``status_message`` and
        ``board_message`` and its game's server as ``guild_id``."""
        return OutboxEntry(
            row["id"], row["game_id"], row["lane"], json.loads(row["body"]), row["created_at"],
            row["attempts"], row["not_before"], row["status_message"], row["board_message"],
            row["shown"], row["guild_id"],
        )  # fmt: skip


@dataclass(frozen=True)
class NewSeat:
    """A seat taken when a game is created (its host's)."""

    seat: int
    role: str
    user_id: int
    name: str
    computer: str | None = None


@dataclass(frozen=True)
class OfferRecord:
    """A draw offer or a takeback request (``kind`` ``"draw"`` or ``"takeback"``) waiting
    for answers: made by ``user_id`` for ``seat`` while the game was at ``version``;
    ``accepted`` lists who said yes so far. It lapses once the game's version moves on."""

    game_id: int
    version: int
    kind: str
    seat: int
    user_id: int
    accepted: tuple[int, ...]
    created_at: float

    @staticmethod
    def from_row(row: Row) -> OfferRecord:
        return OfferRecord(
            game_id=row["game_id"],
            version=row["version"],
            kind=row["kind"],
            seat=row["seat"],
            user_id=row["user_id"],
            accepted=tuple(json.loads(row["accepted"])),
            created_at=row["created_at"],
        )


# -- results and ratings -------------------------------------------------------------------


@dataclass(frozen=True)
class ResultRow:
    """One seat's result in a finished game, written in the transaction that ends it.

    ``user_id`` is the person's id, or for a computer seat the fixed negative key of its
    level (``computer``), so every computer of one level is one player in the ratings.
    ``rank`` orders the seats' results (1 is best; equal ranks tie, as in a draw) and
    ``won`` says whether the seat is among the winners. ``ended_at`` and ``game_id`` put
    the games of a pool in the order they are rated.
    """

    game_id: int
    seat: int
    guild_id: int
    slug: str
    user_id: int
    role: str
    rank: int
    won: bool
    ended_at: float
    computer: str | None = None

    @staticmethod
    def from_row(row: Row) -> ResultRow:
        return ResultRow(
            game_id=row["game_id"], seat=row["seat"], guild_id=row["guild_id"], slug=row["slug"],
            user_id=row["user_id"], role=row["role"], rank=row["rank"], won=bool(row["won"]),
            ended_at=row["ended_at"], computer=row["computer"],
        )  # fmt: skip


@dataclass(frozen=True)
class RatingRow:
    """A player's rating in one pool (a server's games of one kind): the rating model's
    ``mu`` and ``sigma``, and how many rated games they played and won there."""

    guild_id: int
    slug: str
    user_id: int
    mu: float
    sigma: float
    games: int
    wins: int

    @staticmethod
    def from_row(row: Row) -> RatingRow:
        return RatingRow(
            guild_id=row["guild_id"], slug=row["slug"], user_id=row["user_id"], mu=row["mu"],
            sigma=row["sigma"], games=row["games"], wins=row["wins"],
        )  # fmt: skip


Rater = Callable[[Mapping[int, RatingRow], Sequence[ResultRow]], list[RatingRow]]
"""Rates one finished game: given the current ratings of its players in the game's pool
(a player without one is missing) and the game's result rows, returns the new ratings of
the players it rated. It is pure, so rating the same games in the same order always gives
the same numbers. The application layer supplies it; a store only keeps what it returns."""


@dataclass(frozen=True)
class GuildDataRecord:
    """One corrected data file a server keeps: the top-level fields ``content`` of file
    ``name`` of engine package ``package``, uploaded by ``user_id`` at ``uploaded_at``."""

    guild_id: int
    package: str
    name: str
    content: JsonObject
    user_id: int
    uploaded_at: float

    @staticmethod
    def from_row(row: Row) -> GuildDataRecord:
        return GuildDataRecord(
            guild_id=row["guild_id"],
            package=row["package"],
            name=row["name"],
            content=json.loads(row["content"]),
            user_id=row["user_id"],
            uploaded_at=row["uploaded_at"],
        )
