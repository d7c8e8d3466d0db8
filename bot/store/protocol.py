"""The store's ports, and ``Store``, all of them at once: every coroutine the host and the
frontends call on the store.

The store is split by concern into small protocols (ports): games and seats, the action
log, offers, a game's posts, deadlines, the outbox, held calls, digests, players' facts,
ratings, pages, a server's settings and data, notes, watchers, and the store's lifetime.
A part that takes the store itself is typed with only the ports it uses; :class:`Store`
is exactly their union (``tests/store/test_ports.py``), so a new method goes in a port.

A store keeps games, their seats, the append-only action log, per-user facts and per-server
settings. :class:`~bot.store.sql.SqlStore` implements it once for both SQL dialects, and
:class:`~bot.store.sqlite.SqliteStore` and :class:`~bot.store.postgres.PostgresStore` (for
several bot processes) complete it with their execution layers and tuned paths. These
docstrings are the only statement of what each method promises; the implementations carry
none. ``tests/store`` checks those promises against each implementation.

Conventions every method keeps:

- **Versions.** A game's ``version`` starts at 0 when it is created. Every write that
  changes the game itself (its fields, its seats, its log) takes the ``expected_version``
  the caller read, and in one transaction checks it, bumps it by exactly one and writes.
  It returns the new version. If the game does not exist or its version is no longer
  ``expected_version`` it raises :class:`~bot.store.StaleVersion` and writes nothing.
  The bump also sets ``updated_at`` to the ``now`` given. A bump that moves the game past
  an offer waiting at ``expected_version`` stores that offer's lapse notice (see
  :meth:`Store.make_offer`) in the same transaction, before the write's own notices,
  unless one of those settles the offer already (``Outgoing.settles``): an offer made
  after the writer read the game, before its write, is settled all the same.
- **Pointers.** Message ids (:meth:`Store.set_message`), a reminder being taken
  (:meth:`Store.take_reminder`) and offers waiting for answers (:meth:`Store.make_offer`)
  change no version, so they never make a control stale.
- **Unreadable rows.** A game whose stored JSON is damaged spoils only itself:
  :meth:`Store.get_game` raises ValueError for it, listings (:meth:`Store.games`,
  :meth:`Store.due`, :meth:`Store.claim_due`) leave it out and :meth:`Store.next_wakeup`
  passes over it.
- **Records.** Reads return fresh immutable records (:class:`~bot.store.GameRecord` with its
  seats, ordered by seat number, and the offer waiting in it, as of one moment); JSON fields
  (``options``, ``timing``, ``snapshot``, ``events``) come back equal to what was written.
- **Time** is whatever float the caller passes as ``now``; a store never reads a clock.
- **Claims.** Processes sharing a database split the work with leases: a due game is fired
  by the owner that claimed it (:meth:`Store.claim_due`), a lane is sent by the owner that
  claimed it (:meth:`Store.claim_lane`). A claim lasts until its owner releases it or its
  lease runs out (an owner that died loses it then); another owner may then take it.
- **Concurrency.** Calls from concurrent coroutines (or processes sharing the database) never
  see half of another call's transaction.
- **Notices.** Every write that tells people something takes ``notices``: each
  :class:`~bot.store.Outgoing` is stored in the outbox *in the write's own transaction*, so
  either the write and all its notices are stored, or nothing is. Outbox entries get
  increasing ids; within one ``lane`` they are sent in id order.
- **Wake-ups.** Processes sharing a database learn of each other's writes through
  :meth:`Store.subscribe`: a write that moves a deadline or a reminder (or a game's status)
  tells every other store's subscribers ``"clock"``, one that stores notices tells them
  ``"outbox"``, once it has committed. A store that serves one process only may never call back.

Opening is not part of the protocol: each implementation has an async classmethod
``open(location)`` that connects, brings the schema up to date and returns a ready store.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from types import EllipsisType
from typing import Protocol, runtime_checkable

from bot.store.records import (
    ActionRecord,
    DigestRow,
    GameRecord,
    GuildDataRecord,
    HeldCall,
    JsonObject,
    NewSeat,
    OfferRecord,
    OutboxEntry,
    Outgoing,
    Rater,
    RatingRow,
    ResultRow,
)


class GameStore(Protocol):
    """Games and their seats: opening a game, reading it, listing games, versioned changes
    of its fields and seats, and the rematch it was opened as."""

    async def create_game(
        self,
        *,
        guild_id: int,
        channel_id: int,
        slug: str,
        host_id: int,
        players: int,
        options: JsonObject,
        seed: int,
        now: float,
        timing: JsonObject | None = None,
        own_thread: bool = False,
        seats: Sequence[NewSeat] = (),
        notices: Sequence[Outgoing] | Callable[[int], Sequence[Outgoing]] = (),
        data: JsonObject | None = None,
        rematch_of: int | None = None,
        page: str | None = None,
    ) -> int:
        """Open a new game in the ``lobby`` with ``seats`` taken (its host's) and its
        ``notices`` stored, all in one transaction, and return its id. ``notices`` may be a
        function of the new id, for notices that name the game.

        ``rematch_of``: the new game is the rematch of that game (:meth:`rematch` finds
        it). A game has at most one rematch: if it has one already, StaleVersion is raised
        and nothing is written, however many open one at the same moment.

        The id is a positive integer larger than that of every game created before (so
        "newest first" is "highest id first"). The game's version is the number of
        ``seats`` (each counts as one write, as if taken by :meth:`add_seat`); it has
        no snapshot, no result, no deadline or reminder and no message ids; ``created_at`` and
        ``updated_at`` are ``now``; ``timing`` defaults to ``{}``. ``data`` (the server's
        corrected data the game is played with, default ``{}``) never changes afterwards.
        ``page`` is the token of its web page address (:meth:`game_by_page`), None for none.
        """
        ...

    async def get_game(self, game_id: int) -> GameRecord | None:
        """The game ``game_id`` with its seats (ordered by seat number) and, as ``offer``,
        the offer waiting in it as :meth:`offer` gives it (read in the same statement), or
        None if there is no such game. Finished and cancelled games are still returned."""
        ...

    async def games(
        self,
        *,
        guild_id: int | None = None,
        channel_id: int | None = None,
        user_id: int | None = None,
        active_only: bool = True,
        limit: int = 100,
    ) -> list[GameRecord]:
        """Games matching every filter given, newest (highest id) first, at most ``limit``.

        ``guild_id``/``channel_id``: the game's current server or channel. ``user_id``: games
        where that user holds a seat, including a seat they have left. ``active_only``: only
        ``lobby``, ``running`` and ``paused`` games. Each record carries all its seats and
        the offer waiting in it, as :meth:`get_game`'s does.
        """
        ...

    async def finished_games(
        self, *, guild_id: int, user_id: int | None = None, limit: int = 10
    ) -> list[GameRecord]:
        """The server's ``finished`` games, the most recently ended (highest ``updated_at``,
        then highest id) first, at most ``limit``, each with its seats. ``user_id``: only
        games where that user holds a seat (including one they left). Lobbies, running,
        paused and cancelled games are never listed; a game that cannot be read is left
        out."""
        ...

    async def update_game(
        self,
        game_id: int,
        expected_version: int,
        *,
        now: float,
        notices: Sequence[Outgoing] = (),
        **fields: object,
    ) -> int:
        """Set ``fields`` (any of :data:`~bot.store.GAME_FIELDS`) and bump the version, in one
        transaction; returns the new version (``expected_version + 1``).

        Raises StaleVersion (nothing written) if the game is missing or has moved on;
        ValueError (nothing written) for a field not in ``GAME_FIELDS`` or a ``status`` not
        in :data:`~bot.store.GAME_STATUSES`. With no fields it only bumps the version.
        """
        ...

    async def add_seat(
        self,
        game_id: int,
        expected_version: int,
        *,
        seat: int,
        role: str,
        user_id: int,
        name: str,
        now: float,
        computer: str | None = None,
        notices: Sequence[Outgoing] = (),
    ) -> int:
        """Seat ``user_id`` (shown as ``name``) at seat number ``seat`` in ``role``, and bump
        the version, in one transaction; returns the new version.

        ``computer`` is the level of a computer player (its ``user_id`` is then negative by
        the host's convention); None for a person. The seat is not ``left``. Raises
        StaleVersion (nothing written) if the game is missing or has moved on, or if the seat
        number or the role is already taken at that game. A user may hold several seats.
        """
        ...

    async def mark_left(
        self,
        game_id: int,
        expected_version: int,
        *,
        user_id: int,
        now: float,
        notices: Sequence[Outgoing] = (),
    ) -> int:
        """Mark every seat of ``user_id`` at the game as ``left`` (they stay seated, so the
        log and the seat labels still name them) and bump the version, in one transaction;
        returns the new version. StaleVersion (nothing written) as for every versioned write.
        A user with no seat there changes nothing but the version."""
        ...

    async def remove_seats(
        self,
        game_id: int,
        expected_version: int,
        *,
        user_id: int,
        now: float,
        notices: Sequence[Outgoing] = (),
    ) -> int:
        """Remove every seat of ``user_id`` at the game (it is open again, for anyone) and
        bump the version, in one transaction; returns the new version. StaleVersion (nothing
        written) as for every versioned write."""
        ...

    async def rematch(self, game_id: int) -> int | None:
        """The id of the game opened as the rematch of ``game_id`` (``create_game`` with
        ``rematch_of``), whatever its status; None when there is none."""
        ...


class ActionStore(Protocol):
    """The append-only action log: an accepted action with its snapshot and notices, and the
    log read back."""

    async def append_action(
        self,
        game_id: int,
        expected_version: int,
        *,
        seat: int,
        action: str,
        events: list[JsonObject],
        now: float,
        notices: Sequence[Outgoing] = (),
        results: Sequence[ResultRow] = (),
        rater: Rater | None = None,
        **fields: object,
    ) -> int:
        """Log one accepted action, update the game and store its notices, in one
        transaction; returns the new version.

        The action that ends a game also gives its ``results`` (one row per seat, all of
        one pool) and the ``rater`` (required with them): they are stored in the same
        transaction and the pool's ratings brought up to date, as
        :meth:`rebuild_ratings` would make them (games of one pool ending at once are
        rated one after the other).

        The version is checked and bumped, ``fields`` (the new ``snapshot``, ``status``,
        ``result``, ``deadline``, ``remind_at``...; as for :meth:`update_game`) are written,
        and the action is appended with ``seq`` equal to the new version and ``created_at``
        ``now``. So the log and the snapshot can never disagree. Raises StaleVersion if the
        game is missing or has moved on, ValueError for an unknown field or status: in both
        cases neither the action nor any field is written. Logged actions are never changed
        or removed.
        """
        ...

    async def actions(self, game_id: int) -> list[ActionRecord]:
        """The game's whole action log in order of ``seq`` (ascending); empty for a game
        without actions or no such game. ``seq`` values are increasing but need not be
        consecutive: writes other than actions bump the version too."""
        ...

    async def acted_since(self, game_id: int, seats: list[int], seq: int) -> bool:
        """Whether any of ``seats`` has an action in the game's log with a ``seq`` greater
        than ``seq`` (a version the caller saw). False for no seats."""
        ...


class OfferStore(Protocol):
    """Draw offers and takeback requests waiting for answers (see Versions in the module)."""

    async def make_offer(
        self,
        game_id: int,
        version: int,
        *,
        kind: str,
        seat: int,
        user_id: int,
        now: float,
        notices: Sequence[Outgoing] = (),
        lapse: Outgoing | None = None,
    ) -> bool:
        """Store an offer (``kind`` ``"draw"`` or ``"takeback"``) made while the game is at
        ``version``, with its notices, in one transaction, replacing a lapsed one; True.
        False, storing nothing, when the game is not at ``version`` (or does not exist) or
        an offer made at ``version`` already waits. The version is not bumped.

        ``lapse`` is the notice that settles the offer's post when the game moves on
        before it is answered: the versioned write that moves the game past it stores
        it, unless that write's notices settle the offer themselves (see Versions
        above). It is forgotten when the offer is declined (:meth:`drop_offer`)."""
        ...

    async def offer(self, game_id: int) -> OfferRecord | None:
        """The offer waiting in the game: the one made at its current version; None when
        there is none or it lapsed (the game moved on since). Every game record read
        carries it too (``GameRecord.offer``)."""
        ...

    async def accept_offer(
        self,
        game_id: int,
        version: int,
        user_id: int,
        *,
        now: float,
        notices: Sequence[Outgoing] = (),
    ) -> bool:
        """Add ``user_id`` to the acceptances of the offer made at ``version`` and store
        the notices, in one transaction; True. False, storing nothing, when no such offer
        waits (lapsed, declined, never made) or ``user_id`` already accepted it."""
        ...

    async def drop_offer(
        self, game_id: int, version: int, *, now: float, notices: Sequence[Outgoing] = ()
    ) -> bool:
        """Remove the offer made at ``version`` (declined), with its lapse notice, and
        store the notices, in one transaction; True. False, storing nothing, when no such
        offer waits."""
        ...


class PostStore(Protocol):
    """A game's messages: its status message and newest board post, and its notices so far
    in a lane (the turn's post)."""

    async def set_message(self, game_id: int, kind: str, message_id: int | None) -> None:
        """Remember the game's ``"status"`` message or its newest ``"board"`` post (None
        forgets it). Not versioned: the version and every other field stay as they are.
        Nothing happens for a missing game; ValueError for another ``kind``."""
        ...

    async def recent_notices(self, game_id: int, lane: str, limit: int = 10) -> list[JsonObject]:
        """The bodies of the game's newest stored notices in ``lane`` (sent, waiting or
        given up on), newest first, at most ``limit`` (the host reads the turn's post so
        far from them to update it in place)."""
        ...


class DeadlineStore(Protocol):
    """Deadlines and reminders: when the next is due, the due games claimed by one owner,
    reminders taken and deadlines moved without a version bump."""

    async def next_wakeup(self, exclude: Sequence[int] = ()) -> float | None:
        """The earliest ``deadline`` or ``remind_at`` of any ``running`` game not in
        ``exclude`` (games being fired, or held back after a failure), whether or not it has
        passed; None if no such game has either. Paused, finished and cancelled games,
        lobbies and games that cannot be read never count."""
        ...

    async def due(self, now: float, limit: int = 100) -> list[GameRecord]:
        """``running`` games whose ``deadline`` or ``remind_at`` is at or before ``now``, at
        most ``limit``, ordered by the earlier of the two (earliest first), with seats.
        A game that cannot be read (damaged JSON) is never due."""
        ...

    async def take_reminder(
        self, game_id: int, remind_at: float, *, now: float = 0.0, notices: Sequence[Outgoing] = ()
    ) -> bool:
        """Clear the game's reminder if it is still ``remind_at`` and store its ``notices``;
        True only for the one caller that cleared it (False if it was already taken, moved,
        or the game is missing; then nothing is stored). Not versioned: the version and
        every other field stay as they are."""
        ...

    async def claim_due(
        self, now: float, owner: str, lease_seconds: float, limit: int = 100
    ) -> list[GameRecord]:
        """Claim for ``owner`` until ``now + lease_seconds`` the games :meth:`due` would
        list that no other owner holds an unexpired claim on (one whose ``until`` is after
        ``now``), at most ``limit``, earliest first, with seats; returns them. A game
        ``owner`` already holds is claimed again (its lease renewed). Several owners
        claiming at once (in one process or several) get disjoint sets. Not versioned: the
        version and every other field stay as they are."""
        ...

    async def release_game(self, game_id: int, owner: str) -> None:
        """Give up ``owner``'s claim on the game, so any owner may claim it at once; nothing
        happens if another owner holds it (``owner``'s lease ran out and it was taken) or
        nobody does."""
        ...

    async def move_deadline(
        self,
        game_id: int,
        version: int,
        *,
        deadline: float | None,
        remind_at: float | None,
        now: float,
        notices: Sequence[Outgoing] = (),
        timing: JsonObject | None = None,
        timing_was: JsonObject | None = None,
    ) -> bool:
        """Set the game's ``deadline`` and ``remind_at`` (and its ``timing``, when given:
        time banks) and store the notices, in one transaction, if the game is still at
        ``version`` (and, with ``timing``, its timing still ``timing_was``); True. False,
        writing nothing, when it moved on (or does not exist). The version is not bumped,
        so the turn's controls stay valid."""
        ...


class OutboxStore(Protocol):
    """The outbox and its lanes: notices stored, claimed lane by lane, sent once, retried or
    given up on."""

    async def enqueue(self, game_id: int, notices: Sequence[Outgoing], *, now: float) -> None:
        """Store notices that go with no versioned write (a departure told to a host)."""
        ...

    async def pending_notices(
        self, *, lanes: Sequence[str] | None = None, limit: int = 200
    ) -> list[OutboxEntry]:
        """Notices neither sent nor given up on, oldest (lowest id) first, at most ``limit``;
        only those of ``lanes`` when given. Entries waiting to be retried are included, with
        their ``not_before``: a sender keeps a lane's order by stopping at the first entry
        it may not send yet. Each entry carries its game's status and board message ids
        as they are now, and its game's server."""
        ...

    async def take_lane(
        self, lane: str, owner: str, *, now: float, lease_seconds: float, limit: int = 200
    ) -> list[OutboxEntry] | None:
        """Claim ``lane`` for ``owner`` as :meth:`claim_lane` does and, only once the claim
        is won, read its pending notices as :meth:`pending_notices` does (so none is read
        that another owner may be sending). None, with nothing changed, while another
        owner's claim lasts."""
        ...

    async def mark_sent(
        self,
        entry_id: int,
        *,
        now: float,
        message_id: int | None = None,
        remember: str | None = None,
        covers: Sequence[int] = (),
    ) -> bool:
        """Record that the entry was sent (as ``message_id``, if it made one). True only for
        the one caller that marked it; False if it was already sent or given up on.

        With ``remember`` (``"board"`` or ``"status"``) and a ``message_id``, the entry's
        game also remembers that message, as :meth:`set_message` does, in the same
        transaction and only when this caller marked it. The entries ``covers`` (those
        the send told for, see :meth:`mark_superseded`) are recorded as sent by it in that
        same transaction too: a crash never leaves a send recorded and what it folded
        waiting to be sent again."""
        ...

    async def note_shown(self, entry_id: int, shown: str) -> None:
        """Remember that a send under entry ``entry_id``'s nonce is about to go out showing
        ``shown`` (a digest of what it shows), before it goes: Discord answers a later
        send under that nonce with the message this one made, whatever that one shows."""
        ...

    async def mark_superseded(self, entry_ids: Sequence[int], *, by: int, now: float) -> None:
        """Record the entries as sent by the send of entry ``by``, which told everything
        they would have (see :mod:`bot.service.delivery.superseded`). Entries already sent or given
        up on stay as they are."""
        ...

    async def retry_later(self, entry_id: int, *, not_before: float) -> int:
        """Count a failed attempt at the entry and hold it back until ``not_before``;
        returns how many attempts have failed."""
        ...

    async def give_up(self, entry_id: int, *, reason: str) -> None:
        """Never send the entry (its channel is gone, the user cannot be reached); it stays
        stored with ``reason``. An entry already sent stays sent."""
        ...

    async def claim_lane(self, lane: str, owner: str, now: float, lease_seconds: float) -> bool:
        """Claim the right to send ``lane`` for ``owner`` until ``now + lease_seconds``: True
        if nobody else holds an unexpired claim on it (``owner``'s own claim is renewed),
        False (nothing changed) while another owner's claim lasts. Only one of several
        owners claiming at once gets it."""
        ...

    async def release_lane(self, lane: str, owner: str) -> None:
        """Give up ``owner``'s claim on ``lane``, so any owner may claim it at once; nothing
        happens if another owner holds it or nobody does."""
        ...


class HeldCallStore(Protocol):
    """Calls held back through a user's quiet hours, released together when they end."""

    async def hold_call(
        self,
        entry_id: int,
        *,
        user_id: int,
        game_id: int,
        body: JsonObject,
        due_at: float,
        now: float,
        covers: Sequence[int] = (),
    ) -> bool:
        """Hold outbox entry ``entry_id`` back from ``user_id`` until ``due_at``: in one
        transaction it is recorded as sent and kept as a held call, and the entries it
        folded (``covers``) are recorded as told by it; False (nothing changed) if it was
        sent or given up on meanwhile."""
        ...

    async def next_held(self) -> float | None:
        """When the earliest held call is due (None: none is held)."""
        ...

    async def held_due(self, now: float, limit: int = 500) -> list[HeldCall]:
        """The held calls due at ``now``, by user and in the order they were held."""
        ...

    async def release_held(
        self, ids: Sequence[int], game_id: int, notices: Sequence[Outgoing], *, now: float
    ) -> bool:
        """Remove the held calls ``ids`` and store ``notices`` (of ``game_id``) in one
        transaction; False, with nothing changed, if any of them is gone already (another
        process released it)."""
        ...


class DigestStore(Protocol):
    """Users' digests: when each is due, and moving one on with its DM."""

    async def set_digest(
        self, user_id: int, every: float | None, due_at: float, kind: str = "turns"
    ) -> None:
        """Start (or change) ``user_id``'s digest of ``kind``, every ``every`` seconds from
        ``due_at``; ``every`` None stops it. A user with a ``watching`` digest is among the
        :attr:`GameRecord.digest_watchers` of the games they watch."""
        ...

    async def next_digest(self) -> float | None:
        """When the earliest digest is due (None: nobody has one)."""
        ...

    async def digests_due(self, now: float, limit: int = 200) -> list[DigestRow]:
        """The digests due at ``now``, earliest first."""
        ...

    async def settle_digest(
        self,
        row: DigestRow,
        *,
        due_at: float,
        seen: str,
        game_id: int,
        notices: Sequence[Outgoing],
        now: float,
    ) -> bool:
        """Move ``row``'s digest on to ``due_at`` having ``seen`` this, and store
        ``notices`` (of ``game_id``) in the same transaction; False, with nothing changed,
        if another process did it first."""
        ...


class PlayerStore(Protocol):
    """Facts about a person: how they are called, whether their DMs are closed, until when
    they are away, which language they read."""

    async def notify_choice(self, user_id: int) -> str:
        """The user's ``/notify`` choice as last set; ``"turns"`` if never set."""
        ...

    async def set_notify_choice(self, user_id: int, choice: str) -> None:
        """Remember the user's ``/notify`` choice (any string; the host validates it),
        replacing the previous one; the user's other facts stay as they are."""
        ...

    async def calls(self, user_id: int) -> dict[str, str]:
        """How the user chose to be called, event by event (``/notify event:... how:...``):
        ``{}`` if never set."""
        ...

    async def set_calls(self, user_id: int, calls: Mapping[str, str]) -> None:
        """Remember the user's per-event calls (any strings; the host validates them),
        replacing the previous ones; the user's other facts stay as they are."""
        ...

    async def dm_closed(self, user_id: int) -> bool:
        """Whether the user's direct messages were found closed; False if never set."""
        ...

    async def set_dm_closed(self, user_id: int, closed: bool) -> None:
        """Remember whether the user's direct messages are closed; the user's other facts
        stay as they are."""
        ...

    async def away_until(self, user_id: int) -> float | None:
        """Until when the user said they are away (seconds since the epoch); None if never
        set or ended. A time in the past is returned as stored."""
        ...

    async def set_away(self, user_id: int, until: float | None) -> None:
        """Remember until when the user is away (None: not away); the user's other facts
        stay as they are."""
        ...

    async def language(self, user_id: int) -> tuple[str | None, str | None]:
        """The user's language as ``(chosen, seen)``: the locale they chose with
        ``/language`` and the Discord locale code last seen from them, each as last set
        (None if never set, or cleared)."""
        ...

    async def set_language(
        self,
        user_id: int,
        *,
        chosen: str | EllipsisType | None = ...,
        seen: str | EllipsisType | None = ...,
    ) -> None:
        """Remember the user's chosen locale and the Discord locale code last seen from
        them, in one write: a value replaces the one stored, None clears it, ``...`` (the
        default) leaves it as it is. Any strings (the host validates them); the user's
        other facts stay as they are."""
        ...


class RatingStore(Protocol):
    """Results of finished games and the ratings they give, per server and game."""

    async def ratings(self, *, guild_id: int, slug: str) -> list[RatingRow]:
        """Every rating of the pool (the server's games of ``slug``), in no set order."""
        ...

    async def player_ratings(self, *, guild_id: int, user_id: int) -> list[RatingRow]:
        """The player's ratings on the server, one per game they were rated in, by slug."""
        ...

    async def player_results(self, *, guild_id: int, user_id: int) -> list[ResultRow]:
        """Every result row of the player on the server, in end order (``ended_at``, then
        ``game_id``, then seat)."""
        ...

    async def finished_without_results(
        self, *, after_id: int = 0, limit: int = 100
    ) -> list[GameRecord]:
        """Finished games (of every server) numbered above ``after_id`` that have no result
        rows (they ended before results were kept), lowest id first, at most ``limit``,
        with seats; unreadable ones left out."""
        ...

    async def rebuild_ratings(self, rater: Rater, *, add: Sequence[ResultRow] = ()) -> int:
        """In one transaction: store the result rows ``add`` (a game's seat that has its
        row already keeps it), then replace every rating with those that rating every
        stored result gives, each pool's games in end order (``ended_at``, then
        ``game_id``) through ``rater``, starting from nobody rated. Returns how many
        games' results there are. Rebuilding twice gives exactly the same ratings."""
        ...


class PageStore(Protocol):
    """Game pages: the token of each game's address, and versions read for pages that follow
    games."""

    async def game_by_page(self, page: str) -> GameRecord | None:
        """The game whose web page token is ``page`` (as :meth:`get_game` reads it), or None
        when no game has that token (never a game whose token was replaced or cleared)."""
        ...

    async def set_page(self, game_id: int, page: str | None) -> bool:
        """Give the game the page token ``page`` (None: no page), replacing its old one,
        which then finds no game. A pointer: the version does not change. False when there
        is no such game. Callers draw tokens at random, long enough never to meet."""
        ...

    async def clear_pages(self, guild_id: int) -> int:
        """Take the page token from every game of the server (their pages are gone); how
        many had one. No version changes."""
        ...

    async def versions(self, game_ids: Sequence[int]) -> dict[int, int]:
        """The current version of each game of ``game_ids`` that exists, by id, read in one
        statement (a page following games asks it often)."""
        ...


class GuildStore(Protocol):
    """A server's settings and its corrected data files."""

    async def guild_setting(self, guild_id: int, key: str) -> str | None:
        """The server's setting ``key`` as last set, or None if never set. Settings of
        different servers and keys are independent."""
        ...

    async def set_guild_setting(self, guild_id: int, key: str, value: str) -> None:
        """Set (or replace) the server's setting ``key`` to ``value``."""
        ...

    async def guild_settings(self, guild_id: int) -> dict[str, str]:
        """Every setting of the server, by key, read at once (``{}`` if none was set)."""
        ...

    async def guild_data(self, guild_id: int) -> list[GuildDataRecord]:
        """The corrected data files server ``guild_id`` keeps, by package and file name."""
        ...

    async def set_guild_data(
        self,
        guild_id: int,
        package: str,
        name: str,
        content: JsonObject,
        *,
        user_id: int,
        now: float,
    ) -> None:
        """Keep ``content`` as the server's correction of file ``name`` of ``package``,
        replacing the one it had, with who uploaded it and when."""
        ...

    async def clear_guild_data(self, guild_id: int, package: str | None = None) -> int:
        """Remove the server's corrections of ``package`` (of every package with None);
        the number of files removed."""
        ...


class NoteStore(Protocol):
    """Players' private notes on games, each read by its author only."""

    async def notes(self, user_id: int, game_ids: Sequence[int]) -> dict[int, str]:
        """``user_id``'s note on each game of ``game_ids`` that has one, by game; another
        user's notes are never read here."""
        ...

    async def set_note(self, game_id: int, user_id: int, text: str | None, *, now: float) -> bool:
        """Keep ``text`` as ``user_id``'s note on the game, replacing theirs (None or "":
        remove it). A pointer: the game's version does not change. False when there is no
        such game (nothing written)."""
        ...


class WatcherStore(Protocol):
    """Who watches which game."""

    async def add_watcher(self, game_id: int, user_id: int, *, now: float) -> bool:
        """Record that ``user_id`` watches the game since ``now``; True. False, storing
        nothing, when they already watch it or the game does not exist."""
        ...

    async def remove_watcher(self, game_id: int, user_id: int) -> bool:
        """Stop ``user_id`` watching the game; True, or False when they did not watch it."""
        ...

    async def watchers(self, game_id: int) -> list[int]:
        """The users watching the game, the earliest watcher first."""
        ...

    async def watched_games(self, user_id: int) -> list[GameRecord]:
        """The lobby, running and paused games ``user_id`` watches, newest first, each with
        its seats (a game that cannot be read is left out)."""
        ...


class StoreLifetime(Protocol):
    """The store's connection: hearing other processes' writes, and closing."""

    async def subscribe(self, callback: Callable[[str], None]) -> None:
        """Call ``callback(kind)`` in the event loop each time a write through another store
        object sharing the database (usually in another process) has committed: ``kind`` is
        ``"clock"`` when it moved a deadline, a reminder or a game's status, ``"outbox"``
        when it stored notices. A wake-up only says "look again": it may come twice. It
        never comes for a write made through this store itself, whose host pokes its own
        scheduler and outbox. When the store loses and regains its way of hearing them it
        calls back with both kinds, since wake-ups may have been missed meanwhile. Stops at
        :meth:`close`. A store that serves one process only (SQLite) never calls back."""
        ...

    async def close(self) -> None:
        """Release the connection once every write so far is durable: a store opened again
        at the same location sees all of it. Closing again does nothing."""
        ...


@runtime_checkable
class Store(
    GameStore,
    ActionStore,
    OfferStore,
    PostStore,
    DeadlineStore,
    OutboxStore,
    HeldCallStore,
    DigestStore,
    PlayerStore,
    RatingStore,
    PageStore,
    GuildStore,
    NoteStore,
    WatcherStore,
    StoreLifetime,
    Protocol,
):
    """Every port at once: what a whole store implements, and what the desk holds. A part
    that takes the store itself is typed with only the ports it uses."""


PORTS: tuple[type, ...] = (
    GameStore,
    ActionStore,
    OfferStore,
    PostStore,
    DeadlineStore,
    OutboxStore,
    HeldCallStore,
    DigestStore,
    PlayerStore,
    RatingStore,
    PageStore,
    GuildStore,
    NoteStore,
    WatcherStore,
    StoreLifetime,
)
"""The store's ports, each a concern of its own; :class:`Store` is exactly all of them."""
