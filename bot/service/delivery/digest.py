"""Digests: instead of a DM for each event, one DM every N hours, sent only when it has
something new. Two kinds, each kept on its own schedule:

- a player's (``/notify digest:<hours>``, kind ``turns``) lists the games waiting on them
  (as ``/games`` lists them), when one of them is new since the last (a game, or a new
  turn of it);
- a watcher's (``/notify watching:<hours>``, kind ``watching``) shows the newest position
  of each game they watch that moved since the last (its board attached, its last move,
  whose turn it is), and a watched game that ended, once, with its result. Such a watcher
  gets no DM for each board (:attr:`bot.store.GameRecord.digest_watchers`).

The hours are kept with the player's calls (``users.calls``, under ``digest`` and
``watching``), so a turn's calls, read with the game's seats, fold a turn DM into the
digest at no extra read (:func:`bot.service.delivery.calls.how`); a mention in the channel stays as
the player chose. When the next one is due, and what the last one listed, are kept in
``digests`` (migrations 19 and 20): the turn clock's scheduler wakes for the earliest and
:meth:`Digests.send_due` moves each due digest on and stores its DM in one transaction, so a
restart loses none and sends none twice. A digest is a DM call like any other: quiet hours
hold it back.
"""

from __future__ import annotations

from bot.service import wire
from bot.service.community.inbox import Inbox
from bot.service.community.watchers import last_public
from bot.service.delivery import calls
from bot.service.desk import Desk
from bot.service.errors import UserError
from bot.service.notices import MAX_BOARDS, Outcome, PrivateMessage
from bot.service.play.turns import board_of
from bot.service.tables import STATUS_TEXTS, Table, seat_labels
from bot.service.text import BoardLink, Text, fitted, said, said_plural
from bot.store import DigestRow, GameRecord

TURNS, WATCHING = "turns", "watching"
"""The kinds of digest (:data:`bot.service.delivery.calls.DIGESTS`): of the games waiting on a
player, and of the games they watch."""
MAX_HOURS = calls.MAX_DIGEST_HOURS
HOUR = 3600.0
DIGEST_LIMIT = 1900
DIGEST_HELP = said("A digest comes every 1 to {most} hours; `0` stops it.", most=MAX_HOURS)


def checked(hours: int) -> int:
    """``hours`` as a user gave them; UserError saying what to give."""
    if not 0 <= hours <= MAX_HOURS:
        raise UserError(DIGEST_HELP)
    return hours


class Digests:
    """The digests that are due: each moved on, with its DM, in one transaction."""

    def __init__(self, desk: Desk, inbox: Inbox) -> None:
        self._desk = desk
        self._inbox = inbox

    async def send_due(self, now: float) -> Outcome:
        """Send every digest due at ``now`` that has something new, and move each on."""
        outcome = Outcome()
        for row in await self._desk.store.digests_due(now):
            if row.kind == WATCHING:
                seen, notice = await self._watched(row)
            else:
                seen, notice = await self._waiting(row)
            due_at = row.due_at + row.every
            while due_at <= now:  # days the bot was down: the next one is in the future
                due_at += row.every
            notices = [] if notice is None else [notice]
            settled = await self._desk.store.settle_digest(
                row, due_at=due_at, seen=seen, game_id=notice.game_id if notice else 0,
                notices=wire.outgoing(Outcome(list(notices))), now=now,
            )  # fmt: skip
            if settled:
                outcome.notices += notices
        return outcome

    async def _waiting(self, row: DigestRow) -> tuple[str, PrivateMessage | None]:
        """A player's digest (None: nothing new since ``row.seen``) and what it saw."""
        waiting = await self._inbox.waiting(user_id=row.user_id)
        marks = [_mark(record) for record, _ in waiting]
        before = set(row.seen.split(",")) if row.seen else set()
        if all(m in before for m in marks):
            return ",".join(marks), None
        head = "📬 " + said_plural(
            "Your digest: {count} game(s) waiting for you.",
            "Your digest: {count} game(s) waiting for you.",
            len(waiting),
        )
        lines = fitted([head, *(line for _, line in waiting)], DIGEST_LIMIT)
        text = Text.of("\n").join(lines)
        return ",".join(marks), PrivateMessage(waiting[0][0].id, row.user_id, text)

    async def _watched(self, row: DigestRow) -> tuple[str, PrivateMessage | None]:
        """A watcher's digest (None: no watched game moved since ``row.seen``) and what it
        saw: the games still going, so an ended one is told once."""
        store = self._desk.store
        before = dict(m.split(":") for m in row.seen.split(",") if m)
        going = await store.watched_games(row.user_id)
        ended = []
        for game_id in before.keys() - {str(r.id) for r in going}:
            record = await store.get_game(int(game_id))
            if record is not None and not record.active and row.user_id in record.watchers:
                ended.append(record)
        moved = [r for r in (*going, *ended) if before.get(str(r.id)) != str(r.version)]
        seen = ",".join(_mark(r) for r in going)
        if not moved:
            return seen, None
        moved.sort(key=lambda r: (r.updated_at, r.id))  # the newest last: it stays when cut
        tables = [self._desk.loaded(r) for r in moved]
        head = "👀 " + said_plural(
            "Your watched games: {count} moved since the last digest.",
            "Your watched games: {count} moved since the last digest.",
            len(moved),
        )
        lines = [head, *[await self._watched_line(t) for t in tables]]
        text = Text.of("\n").join(fitted(lines, DIGEST_LIMIT))
        text += "\n" + said("`/notify watching:0` sends each new board instead.")
        boards = tuple(b for b in map(board_of, tables) if b is not None)[-MAX_BOARDS:]
        last = moved[-1]
        notice = PrivateMessage(
            last.id, row.user_id, text, channel_id=last.channel_id, boards=boards
        )
        return seen, notice

    async def _watched_line(self, table: Table) -> Text:
        """A watched game where it stands: its place, whose turn or its result, its last
        move, and a link to its turn post."""
        record = table.record
        game = calls.where(record, table.title)
        if not record.active:
            status = STATUS_TEXTS.get(record.status, record.status)
            if record.result:
                line = said("{game}: {status}. {result}", game=game, status=status,
                            result=record.result)  # fmt: skip
            else:
                line = said("{game}: {status}.", game=game, status=status)
        elif table.state is None:
            line = said("{game}: in the lobby.", game=game)
        else:
            seats = seat_labels(table, [p.seat for p in table.prompts()])
            line = said("{game}: waiting for {seats}", game=game, seats=seats)
        line = "👀 " + line
        last = await last_public(self._desk.store, record.id)
        if last and record.active:
            line += " · " + said("last: {action}", action=last)
        if record.board_message_id:
            post = BoardLink(record.guild_id, record.channel_id, record.board_message_id)
            line += " · " + said("board: {post}", post=post)
        return line


def _mark(record: GameRecord) -> str:
    """What a digest notes of a game it saw: which game, at which version."""
    return f"{record.id}:{record.version}"
