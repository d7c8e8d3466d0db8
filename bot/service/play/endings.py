"""Ending a game gracefully: resigning, draws by agreement and takebacks.

* **Resigning** gives a seat up by the game's own forfeit rule, at once, whoever is to
  move (the seats are marked ``left``, then each forfeits as one versioned action logged
  ``!forfeit resigned``, :meth:`Turns.give_up`): where one side remains the game ends,
  else it goes on without the seat. Leaving a game under way (``/game leave``,
  :meth:`Lobby.leave`) is the same, told as leaving (``!forfeit left``).
* **A draw offer** and **a takeback request** are stored offers (:meth:`Store.make_offer`):
  they survive a restart, a double click stores nothing twice, and they lapse when the game
  moves on (any write bumps its version: a move, a pause, a player leaving or resigning,
  the clock changed). Every such write settles the offer's post in its own transaction,
  saying what happened (:func:`bot.service.play.offers.settling`), so its Accept and
  Decline go at once; one that read the game before the offer was made has the store
  settle it (:func:`bot.service.play.offers.lapsing`). Every other person seated must
  accept; the last acceptance is the ending itself, one versioned action (``!draw`` or
  ``!takeback`` in the log) with its notices.
* **Computer seats** accept every takeback and decline every draw (they play on), so a
  draw cannot be offered at a table with a computer seat.

The rules stay in the engines: whether a draw by agreement exists and how it ends
(``draw_by_agreement``, ``agree_draw``), and whether a step revealed something
(``revealed``, with the rng watched by :func:`engines.replay.takeback`).
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any, Unpack

from bot.service import wire
from bot.service.delivery import calls
from bot.service.desk import Desk, Where
from bot.service.errors import AlreadyDone, UserError
from bot.service.notices import ChannelPost, Controls, Outcome, PrivateMessage, Reply
from bot.service.play.offers import DECLINED, lapsing, outcome_line, resigned_line, settling
from bot.service.play.turns import Turns
from bot.service.seating.table_controls import table_link
from bot.service.tables import STATUS_TEXTS, Table, seat_label, seat_labels
from bot.service.text import Mention, Text, said
from bot.store import OfferRecord, StaleVersion
from engines.base import Choice, Event, IllegalAction, Prompt
from engines.replay import (
    DRAW,
    TAKEBACK,
    Entry,
    NoTakeback,
    in_effect,
    last_action,
    takeback,
)

OFFER = "offer"
"""The prompt kind of an offer's Accept and Decline controls."""
RESIGN = "resign"
"""The prompt kind of the control that confirms a resignation."""
ACCEPT, DECLINE = "accept", "decline"

RECENT = 20
"""How many of a game's newest channel notices are looked through for the line that
settled an offer's post."""
ANSWERED = said("That offer was already answered, or the game has moved on since it was made.")

WHAT = {"draw": "a draw", "takeback": "to take back their last move"}
"""What an offer of each kind asks, in English (an offer's prompt)."""
WHAT_TEXTS = {"draw": said("a draw"), "takeback": said("to take back their last move")}
"""What an offer of each kind asks, as a person reads it: ``alice asks {what}``."""


@dataclass(frozen=True)
class OfferStanding:
    """Where an offer made at one version stands, as its post shows it: ``line`` to add
    under the offer (or nothing), and whether it still waits for answers (its Accept and
    Decline stay only then)."""

    line: str | Text
    waiting: bool


class Endings:
    """``/game resign``, draw offers and takeback requests, with their answers."""

    def __init__(self, desk: Desk, turns: Turns) -> None:
        self._desk = desk
        self._turns = turns

    # -- resigning ---------------------------------------------------------------------

    async def resign(
        self, *, user_id: int, confirmed: bool = False, **where: Unpack[Where]
    ) -> Outcome | Reply:
        """Ask to confirm (``confirmed`` False: a button for the asker only), then give
        up every seat of ``user_id`` by the game's forfeit rule."""
        table = await self._desk.find(user_id=user_id, **where)
        seats = _playing_seats(table, user_id)
        if not confirmed:
            prompt = Prompt(seats[0], RESIGN, "Resign?")
            choice = Choice(RESIGN, "Yes, resign")
            return Reply(
                said(
                    "Resign from {title}? Your seat gives up by the game's forfeit rule "
                    "(`/rules` says what becomes of it). This cannot be undone.",
                    title=table.title,
                ),
                controls=(Controls(table.record.id, table.record.version, prompt, (choice,)),),
            )
        resigned = said("You resigned from {title}.", title=table.title)
        outcome = Outcome([Reply(resigned),
                           *settling(table.record, resigned_line(user_id))])  # fmt: skip
        try:
            await self._desk.stored(
                outcome, self._desk.store.mark_left, table.record.id, table.record.version,
                user_id=user_id, now=self._desk.clock(),
            )  # fmt: skip
        except StaleVersion:
            raise UserError(said("The game moved on at that moment; please try again.")) from None
        # Every seat still playing gives up now, whoever is to move; the engine tells it
        # as a resignation (the flag stands before its words).
        given_up = await self._turns.give_up(table.record.id, seats, "resigned", "🏳️")
        outcome.notices += given_up.notices
        return outcome

    # -- offers ------------------------------------------------------------------------

    async def offer_draw(self, *, user_id: int, **where: Unpack[Where]) -> Outcome:
        """Offer a draw by agreement to every other player, with Accept and Decline."""
        table = await self._desk.find(user_id=user_id, **where)
        seats = _playing_seats(table, user_id)
        try:
            table.engine.agree_draw(table.state)
        except IllegalAction as error:
            raise UserError(str(error)) from None
        computers = [s.seat for s in table.record.seats if s.computer and not s.left]
        if computers:
            raise UserError(
                said("A computer seat declines every draw and plays on ({seats}); "
                     "`/game resign` gives up instead.", seats=seat_labels(table, computers))
            )  # fmt: skip
        return await self._offer(table, "draw", seats[0], user_id)

    async def request_takeback(self, *, user_id: int, **where: Unpack[Where]) -> Outcome:
        """Ask every other player to take back the asker's last action; allowed only while
        nothing was revealed since. With nobody else to ask (computer seats accept every
        takeback) it is taken back at once."""
        table = await self._desk.find(user_id=user_id, **where)
        seats = _playing_seats(table, user_id)
        entries = await self._entries(table)
        seat = _last_actor(entries, seats)
        if seat is None:
            raise UserError(
                said("You have no move in {title} that could be taken back.", title=table.title)
            )
        await self._taken_back(table, entries, seat)  # refused now if it cannot be
        if not _others(table, user_id):
            return await self._take_back(table, seat, "the computer accepts")
        return await self._offer(table, "takeback", seat, user_id)

    async def answer_offer(
        self, *, game_id: int, user_id: int, version: int, accept: bool
    ) -> Outcome:
        """``user_id`` accepts or declines the offer made at ``version``. The last
        acceptance ends the game in a draw or takes the move back."""
        table = await self._desk.find(game_id=game_id)
        offer = table.record.offer
        if offer is None or offer.version != version or table.record.version != version:
            raise AlreadyDone(ANSWERED)
        if user_id == offer.user_id:
            raise UserError(said("You made this offer; the other players answer it."))
        if user_id not in _others(table, offer.user_id):
            raise UserError(said("You are not playing in {title}.", title=table.title))
        if user_id in offer.accepted:
            raise AlreadyDone(said("You already accepted; the others are still to answer."))
        if not accept:
            return await self._decline(table, offer, user_id)
        waiting = [u for u in _others(table, offer.user_id) if u not in (*offer.accepted, user_id)]
        if waiting:
            return await self._accept(table, offer, user_id, waiting)
        if offer.kind == "draw":
            return await self._draw(table, offer)
        return await self._take_back(table, offer.seat, "everyone accepted")

    async def offer_standing(self, *, game_id: int, version: int) -> OfferStanding:
        """Where the offer made at ``version`` stands now: still waiting (with who has
        accepted so far), accepted (the draw or takeback that answered it), declined, or
        lapsed (the game moved on before everyone answered), in the words its post was
        settled with."""
        table = await self._desk.table(game_id)
        if table.record.version == version:
            offer = table.record.offer
            if offer is None or offer.version != version:
                return OfferStanding(DECLINED, waiting=False)
            if not offer.accepted:
                return OfferStanding("", waiting=True)
            still = [u for u in _others(table, offer.user_id) if u not in offer.accepted]
            line = "✅ " + said(
                "Accepted by {players}; still to answer: {waiting}.",
                players=_mentions(offer.accepted), waiting=_mentions(still),
            )  # fmt: skip
            return OfferStanding(line, waiting=True)
        # The action that answered an offer is the very next one in the log.
        actions = await self._desk.store.actions(game_id)
        answered = next((a.action for a in actions if a.seq == version + 1), None)
        if answered is None:  # a write that is not an action: the line it settled it with
            lane = wire.lane(ChannelPost(game_id, table.record.channel_id, ""))
            for body in await self._desk.store.recent_notices(game_id, lane, RECENT):
                if body.get("kind") == "post" and body.get("settles") == version:
                    return OfferStanding(wire.load_text(body["text"]), waiting=False)
        return OfferStanding(outcome_line(answered), waiting=False)

    async def _offer(self, table: Table, kind: str, seat: int, user_id: int) -> Outcome:
        record = table.record
        others = _others(table, user_id)
        what = WHAT_TEXTS[kind]
        text = said("**{title}**: {seat} asks {what}. {players}: accept or decline?",
                    title=table.title, seat=seat_label(table, seat), what=what,
                    players=_mentions(others))  # fmt: skip
        prompt = Prompt(seat, OFFER, f"Accept {WHAT[kind]}?")
        choices = (Choice(ACCEPT, "Accept"), Choice(DECLINE, "Decline"))
        controls = (Controls(record.id, record.version, prompt, choices),)
        reply = Reply(said("You asked {what}; every other player must accept. It lapses "
                           "if the game moves on first.", what=what))  # fmt: skip
        store = self._desk.store
        how = {u: await calls.reachable(store, u, calls.of(record, u, calls.OFFER)) for u in others}
        mentioned = tuple(u for u in others if calls.mentions(how[u]))
        outcome = Outcome(
            [
                reply,
                ChannelPost(
                    record.id, record.channel_id, text, mentions=mentioned, controls=controls
                ),
            ]
        )
        for user in (u for u in others if calls.dms(how[u])):
            asks = "🤝 " + said(
                "In {where}, {seat} asks {what}: accept or decline with the buttons there, "
                "before the game moves on. The table: {table}",
                where=calls.where(record, table.title), seat=seat_label(table, seat), what=what,
                table=table_link(record),
            )  # fmt: skip
            outcome.add(PrivateMessage(record.id, user, asks, channel_id=record.channel_id))
        made = await self._desk.stored(
            outcome, self._desk.store.make_offer, record.id, record.version, kind=kind, seat=seat,
            user_id=user_id, now=self._desk.clock(), lapse=wire.kept(lapsing(record)),
        )  # fmt: skip
        if not made:
            waiting = await self._desk.store.offer(record.id)
            if waiting is None:
                raise UserError(said("The game moved on at that moment; please try again."))
            raise AlreadyDone(
                said(
                    "An offer ({what}) is already waiting for answers in {title}.",
                    what=WHAT_TEXTS[waiting.kind], title=table.title,
                )
            )  # fmt: skip
        return outcome

    async def _accept(
        self, table: Table, offer: OfferRecord, user_id: int, waiting: list[int]
    ) -> Outcome:
        record = table.record
        text = said("{player} accepts; still to answer: {waiting}.",
                    player=Mention(user_id), waiting=_mentions(waiting))  # fmt: skip
        outcome = Outcome([Reply(said("You accepted; the others are still to answer.")),
                           ChannelPost(record.id, record.channel_id, text)])  # fmt: skip
        stored = await self._desk.stored(
            outcome, self._desk.store.accept_offer, record.id, offer.version, user_id,
            now=self._desk.clock(),
        )  # fmt: skip
        if not stored:
            raise AlreadyDone(ANSWERED)
        return outcome

    async def _decline(self, table: Table, offer: OfferRecord, user_id: int) -> Outcome:
        record = table.record
        text = said("**{title}**: {player} declines {what}; the game goes on.",
                    title=table.title, player=Mention(user_id),
                    what=WHAT_TEXTS[offer.kind])  # fmt: skip
        declined = Reply(said("You declined."))
        outcome = Outcome([declined, ChannelPost(record.id, record.channel_id, text)])
        dropped = await self._desk.stored(
            outcome, self._desk.store.drop_offer, record.id, offer.version, now=self._desk.clock()
        )
        if not dropped:
            raise AlreadyDone(ANSWERED)
        return outcome

    async def _draw(self, table: Table, offer: OfferRecord) -> Outcome:
        """Everyone agreed: the draw is one versioned action with its notices."""
        try:
            state, events = table.engine.agree_draw(table.state)
        except IllegalAction as error:
            raise UserError(str(error)) from None
        try:
            return await self._turns.commit(
                table, offer.seat, DRAW, state, events, "🤝 " + said("Draw agreed.")
            )
        except StaleVersion:
            raise AlreadyDone(ANSWERED) from None

    async def _take_back(self, table: Table, seat: int, why: str) -> Outcome:
        """The seat's last action undone as one versioned ``!takeback`` action."""
        state = await self._taken_back(table, await self._entries(table), seat)
        text = f"{table.role_name(seat)}'s last move is taken back ({why})."
        headline = "↩️ " + said("{seat} takes back their last move.", seat=seat_label(table, seat))
        try:
            return await self._turns.commit(table, seat, TAKEBACK, state, [Event(text)], headline)
        except StaleVersion:
            raise AlreadyDone(
                said(
                    "The game moved on at that moment (or this was already answered); nothing "
                    "was taken back."
                )
            ) from None

    async def _taken_back(self, table: Table, entries: list[Entry], seat: int) -> Any:
        """The state before ``seat``'s last action, replayed off the event loop (a long
        game's log takes a while); UserError saying why when it cannot be taken back."""
        record = table.record
        try:
            return await asyncio.to_thread(
                takeback, table.engine, table.role_keys(), record.options, record.seed,
                entries, seat,
            )  # fmt: skip
        except NoTakeback as refusal:
            raise UserError(str(refusal)) from None

    async def _entries(self, table: Table) -> list[Entry]:
        return [(a.seq, a.seat, a.action) for a in await self._desk.store.actions(table.record.id)]


def _playing_seats(table: Table, user_id: int) -> list[int]:
    """The seats ``user_id`` still plays in a running game; UserError otherwise."""
    record = table.record
    title, status = table.title, STATUS_TEXTS[record.status]
    if record.status in ("finished", "cancelled"):
        raise UserError(said("{title} is over ({status}): there is nothing left to resign, "
                             "draw or take back.", title=title, status=status))  # fmt: skip
    if record.status != "running":
        raise UserError(said("{title} is {status}; that can be done only while the game is "
                             "in play.", title=title, status=status))  # fmt: skip
    if not record.seat_of(user_id):
        raise UserError(said("You are not playing in {title}.", title=title))
    seats = [s for s in record.seat_of(user_id) if not record.has_left(s)]
    if not seats:
        raise UserError(said("You have already given up your seat in {title}.", title=title))
    return seats


def _others(table: Table, user_id: int) -> list[int]:
    """The other people still seated, who must accept an offer of ``user_id``."""
    people = [s.user_id for s in table.record.seats
              if not s.computer and not s.left and s.user_id != user_id]  # fmt: skip
    return list(dict.fromkeys(people))


def _last_actor(entries: list[tuple[int, int, str]], seats: list[int]) -> int | None:
    """Of ``seats``, the one whose last action in effect is the latest; None if none has."""
    kept = in_effect(entries)
    found = [(index, seat) for seat in seats if (index := last_action(kept, seat)) is not None]
    return max(found)[1] if found else None


def _mentions(user_ids: Any) -> Text:
    return Text.of(", ").join(Text.of(Mention(u)) for u in user_ids)
