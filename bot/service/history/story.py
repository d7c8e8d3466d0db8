"""A game's story: its history by turn, its record file, its replay animation, and
finished games kept findable.

Everything here is built from the stored action log replayed from the seed
(:mod:`engines.replay`) and from the *public* events stored with each action. An action
that answered a secret prompt is shown as hidden; what the rules later reveal appears
through their public events at the moment it was revealed. Seat-only events never appear.
"""

from __future__ import annotations

import asyncio
import json
import math
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Unpack

import engines.replay
import games
from bot.service.boards.drawing import Drawing
from bot.service.desk import Desk, Where, title_of
from bot.service.errors import UserError
from bot.service.history import record as records
from bot.service.notices import Board, Reply
from bot.service.tables import STATUS_TEXTS, Table, engine_with, role_keys
from bot.service.text import ChannelRef, Text, lines_of, said, said_plural
from bot.store import ActionRecord, GameRecord, JsonObject
from engines import data as engine_data
from engines.base import ActionError, Game, Prompt, Termination

PAGE_CHARS = 1900
"""A history page's length: Discord allows 2,000 characters a message."""
LINE_CHARS = 300
"""The longest line a history shows of one event (the rest is cut)."""
EVENTS_CHARS = PAGE_CHARS - 300
"""The most a history shows of one action's events together, so that its line fits a page."""
GROWTH = 1.4
"""How much longer than in English a message may be written (the pseudo-locale's third,
with its brackets): a history's pages are packed to fit in every language."""
FINISHED_SHOWN = 10
"""Finished games a listing shows."""
SECRET = "🔒 " + said("chose in secret")
MARKERS = {
    engines.replay.SKIP: "⏱️ " + said("ran out of time; the turn was skipped"),
    engines.replay.FORFEIT: "⏱️ " + said("ran out of time; the seat was forfeited"),
    engines.replay.forfeit_marker("resigned"): "🏳️ " + said("resigned"),
    engines.replay.forfeit_marker("left"): "🚪 " + said("left the game"),
    engines.replay.DRAW: "🤝 " + said("drawn by agreement"),
    engines.replay.TAKEBACK: "↩️ " + said("took back"),
}
"""How history shows the logged markers it knows; any other ``!marker`` is shown by name."""

Progress = Callable[[int, int], Awaitable[None]]
"""Told ``(frames drawn, frames in all)`` while a replay is drawn."""


@dataclass(frozen=True)
class Entry:
    """One logged action as the story tells it."""

    seq: int
    seat: int
    action: str
    secret: bool  # it answered a secret prompt
    events: tuple[str, ...]  # the texts of its public events
    turn: int  # the turn it was taken in, from 1 (Game.turn)
    passed: bool  # the turn passed after it (a change of who is asked, or the end)
    view: dict[str, Any] | None  # the public view after it, when a board was shown


@dataclass(frozen=True)
class Story:
    """A whole game walked through: the board at the start and every entry."""

    start: dict[str, Any]
    entries: tuple[Entry, ...]
    final: Any  # the engine state after the last entry
    turns: int  # the turn the game is in now, or ended in (Game.turn of ``final``)
    over: bool  # the game has ended
    word: str  # what the game calls a turn (Game.turn_name)

    def counted(self, count: int | None = None) -> Text:
        """``count`` (by default every turn) with the game's word: "16 turns", "1 round"."""
        return counted(self.word, self.turns if count is None else count)


def counted(word: str, count: int) -> Text:
    """``count`` turns as a game calls them (``word``, :attr:`Game.turn_name`): "16 turns",
    "1 round"."""
    if word == "round":
        return said_plural("{count} round", "{count} rounds", count)
    return said_plural("{count} turn", "{count} turns", count)


def turn_word(word: str) -> Text:
    """What a game calls a turn (``word``), as a word of its own: "turn", "round"."""
    return said("round") if word == "round" else said("turn")


def turn_called(word: str, turn: int) -> Text:
    """Turn number ``turn`` as a game calls its turns (``word``): "Turn 3", "Round 3"."""
    if word == "round":
        return said("Round {turn}", turn=turn)
    return said("Turn {turn}", turn=turn)


@dataclass(frozen=True)
class File:
    """A file to give the asker: its name, its bytes, and a line to go with it."""

    name: str
    data: bytes
    text: Text


def walk(
    engine: Game[Any], record: GameRecord, actions: list[ActionRecord], *, every_view: bool = False
) -> Story:
    """Replay ``actions`` from the seed, noting for each whether it answered a secret
    prompt and whether the turn passed after it (a change of who is asked, or the end).
    An entry carries the public view after it where a board was shown then, or after
    every entry with ``every_view`` (a web page's replay steps through each)."""
    walker = Walker(engine, record, every_view=every_view)
    walker.walk_on(actions)
    return walker.story()


class Walker:
    """A game's story walked as far as its log was read, and walked on from there as the
    log grows (it only ever grows), so a game followed move by move is replayed once."""

    def __init__(self, engine: Game[Any], record: GameRecord, *, every_view: bool = False) -> None:
        self._engine = engine
        self._seed = record.seed
        self._every_view = every_view
        roles = role_keys(engine, record)
        self._state = engines.replay.start(engine, roles, record.options, record.seed)
        self._start = engine.view(self._state, None)
        self._entries: list[Entry] = []
        # The entries in effect, and the state before each: a takeback returns to one.
        self._kept: list[engines.replay.Entry] = []
        self._befores: list[Any] = []
        self.walked = -1
        """The sequence number of the last action walked (-1: none yet)."""

    def walk_on(self, actions: list[ActionRecord]) -> None:
        """Walk the actions of ``actions`` after those walked already, in order."""
        for logged in actions:
            if logged.seq > self.walked:
                self._walk(logged)
                self.walked = logged.seq

    def story(self) -> Story:
        """The story as far as it was walked."""
        engine, state = self._engine, self._state
        over = engine.result(state) is not None
        entries = tuple(self._entries)
        return Story(self._start, entries, state, engine.turn(state), over, engine.turn_name)

    def _walk(self, logged: ActionRecord) -> None:
        engine, state = self._engine, self._state
        before = engine.prompts(state)
        turn = engine.turn(state)
        # A marker (a timeout, a resignation) is public even when it ends a secret prompt:
        # what a skip chose for the seat depends on the seed, which stays hidden.
        marker = logged.action.startswith("!")
        secret = not marker and any(p.secret and p.seat == logged.seat for p in before)
        if logged.action == engines.replay.TAKEBACK:
            undone = engines.replay.last_action(self._kept, logged.seat)
            if undone is not None:
                state = self._befores[undone]
                del self._kept[undone:], self._befores[undone:]
        else:
            self._kept.append((logged.seq, logged.seat, logged.action))
            self._befores.append(state)
            state = _step(engine, state, self._seed, logged)
        self._state = state
        public = [e for e in logged.events if e.get("seat") is None]
        passed = _passed(engine, before, state, logged)
        # A board is shown at each change of who plays and of the turn's number, and when
        # an event asks for one.
        shown = passed or engine.turn(state) != turn or self._every_view
        shown = shown or any(_asks_for_picture(e) for e in public)
        self._entries.append(Entry(
            logged.seq, logged.seat, logged.action, secret,
            tuple(str(e.get("text", "")) for e in public), turn, passed,
            engine.view(state, None) if shown else None,
        ))  # fmt: skip


def _asks_for_picture(event: JsonObject) -> bool:
    """Whether a logged event asks for the board to be shown with it."""
    data = event.get("data")
    return isinstance(data, dict) and bool(data.get("picture"))


def _step(engine: Game[Any], state: Any, seed: int, logged: ActionRecord) -> Any:
    rng = engines.replay.action_rng(seed, logged.seq)
    try:
        return engines.replay.step(engine, state, logged.seat, logged.action, rng)[0]
    except ActionError:
        if not logged.action.startswith("!"):
            raise
        return state  # a marker this engine cannot step (from a newer release): it stays


def _passed(engine: Game[Any], before: list[Prompt], state: Any, logged: ActionRecord) -> bool:
    """Whether the turn passed after ``logged``, as the host decides when it posts a board."""
    after = engine.prompts(state)
    if engine.result(state) is not None:
        return True
    fresh = [p for p in after if p.seat == logged.seat or p not in before]
    if logged.action.startswith("!") and any(p.seat == logged.seat for p in after):
        return True  # a timeout leaves the same seat a fresh turn
    return any(p.seat != logged.seat for p in fresh)


def told(entry: Entry) -> Text:
    """What the history shows of one entry: the action in notation (hidden if secret),
    then its public events (as the rules told them)."""
    if entry.action.startswith("!"):
        head = MARKERS.get(entry.action, Text.of(entry.action[1:].replace("-", " ")))
    elif entry.secret:
        head = SECRET
    else:
        head = Text.of(f"`{entry.action}`")
    events = _clip(" ".join(_clip(e, LINE_CHARS) for e in entry.events if e), EVENTS_CHARS)
    return head + " — " + events if events else head


def _clip(text: str, limit: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def seat_name(table: Table, seat: int) -> str:
    """``Role (player)`` in plain words (a history is read later; nobody is pinged)."""
    who = next((s.name for s in table.record.seats if s.seat == seat), "")
    role = table.role_name(seat)
    return f"{role} ({who})" if who else role


def history_blocks(table: Table, story: Story) -> list[Text]:
    """The history as blocks of lines, one per turn as the game numbers them: a header
    naming the turn and who played in it, then one line per action."""
    blocks: list[Text] = []
    by_turn: dict[int, list[Entry]] = {}
    for entry in story.entries:
        by_turn.setdefault(entry.turn, []).append(entry)
    for turn, entries in by_turn.items():
        seats = dict.fromkeys(e.seat for e in entries)
        who = ", ".join(seat_name(table, s) for s in seats)
        head = Text.of("**", turn_called(story.word, turn), "** · ", who)
        blocks.append(Text.of("\n").join([head, *(told(e) for e in entries)]))
    return blocks


def pages(blocks: list[Text], size: int = PAGE_CHARS) -> list[Text]:
    """``blocks`` packed into pages of at most ``size`` characters as written in any
    language (see :func:`written_size`), a turn kept whole on a page where it fits (a
    longer one is split between its lines)."""
    pieces: list[Text] = []
    for block in blocks:
        if written_size(block) <= size:
            pieces.append(block)
            continue
        chunk = Text()
        for line in lines_of(block):
            if chunk and written_size(chunk) + 1 + written_size(line) > size:
                pieces.append(chunk)
                chunk = Text()
            chunk = chunk + "\n" + line if chunk else line
        pieces.append(chunk)
    out: list[Text] = []
    for piece in pieces:
        if out and written_size(out[-1]) + 1 + written_size(piece) <= size:
            out[-1] += "\n" + piece
        else:
            out.append(piece)
    return out or [said("No moves yet.")]


def written_size(text: Text) -> int:
    """The most characters ``text`` takes once written: its messages as long as in English
    times :data:`GROWTH`, its plain strings (names, notation, the rules' events) as they are."""
    return sum(
        len(piece) if isinstance(piece, str) else math.ceil(len(Text.of(piece).plain()) * GROWTH)
        for piece in text.pieces
    )


def frames_of(story: Story, from_turn: int = 1) -> list[dict[str, Any]]:
    """The public boards to animate: the board as turn ``from_turn`` began, then the board
    at each change of turn after it."""
    views = [story.start]
    for entry in story.entries:
        if entry.view is None:
            continue
        if entry.turn < from_turn:
            views = [entry.view]  # the latest board before turn ``from_turn``
        else:
            views.append(entry.view)
    return views


class StoryTeller:
    """History, records, replays and finished games, from the stored action log."""

    def __init__(self, desk: Desk, drawing: Drawing) -> None:
        self._desk = desk
        self._drawing = drawing

    async def story(self, table: Table) -> Story:
        if table.state is None:
            raise UserError(
                said("{game} has not started yet; there is no story to tell.", game=table.title)
            )
        actions = await self._desk.store.actions(table.record.id)
        return await asyncio.to_thread(walk, table.engine, table.record, actions)

    async def history(
        self, *, page: int | None = None, user_id: int | None = None, **where: Unpack[Where]
    ) -> Reply:
        """The moves by turn (the game's own numbering), from public events only, one page at
        a time (the latest page unless ``page`` names an older one, from 1); a finished
        game's history says it is the whole game and how many turns it lasted."""
        table = await self._desk.find(user_id=user_id, **where)
        story = await self.story(table)
        paged = pages(history_blocks(table, story), PAGE_CHARS - 100)
        number = len(paged) if page is None else page
        if not 1 <= number <= len(paged):
            raise UserError(
                said_plural(
                    "The history of {game} has {count} page; ask for a `page` from 1 to {count}.",
                    "The history of {game} has {count} pages; ask for a `page` from 1 to {count}.",
                    len(paged),
                    game=table.title,
                )
            )
        if story.over:
            head = said(
                "**{game}**: history of the whole game, {turns}, page {number} of {pages}",
                game=table.title,
                turns=story.counted(),
                number=number,
                pages=len(paged),
            )
        else:
            head = said(
                "**{game}**: history of the game so far, page {number} of {pages}",
                game=table.title,
                number=number,
                pages=len(paged),
            )
        if number > 1:
            head += " " + said("(older: `page:{number}`)", number=number - 1)
        return Reply(Text.of("📖 ", head, "\n", paged[number - 1]))

    async def export_record(self, *, user_id: int | None = None, **where: Unpack[Where]) -> File:
        """The game's record as a text file: while it runs without its seed and with every
        secret answer hidden; once it is over, everything, so it replays exactly."""
        table = await self._desk.find(user_id=user_id, **where)
        story = await self.story(table)
        text = records.write(self._record_of(table, story))
        over = table.record.status == "finished"
        note = (
            said("The whole game, with its seed: it plays back to the same final board.")
            if over
            else said(
                "The game so far: secret choices are hidden, and the seed is added once it ends."
            )
        )
        name = f"{table.engine.slug}-{table.record.id}.txt"
        told = Text.of("📜 ", said("Record of {game}.", game=table.title), " ", note)
        return File(name, text.encode("utf-8"), told)

    def _record_of(self, table: Table, story: Story) -> records.Record:
        record = table.record
        over = record.status == "finished"
        roles = table.roles()
        headers = {
            "Game": table.engine.slug,
            "Title": table.engine.title,
            "Number": str(record.id),
            "Players": str(record.players),
        }
        names = {s.seat: s.name for s in record.seats}
        for index, role in enumerate(roles, 1):
            headers[f"Seat{index}"] = role.key
            headers[f"Player{index}"] = names.get(index - 1, "")
        headers["Options"] = _json(record.options)
        if record.data:
            headers["Data"] = _json(record.data)
        headers["Opened"] = _date(record.created_at)
        if over:
            headers["Ended"] = _date(record.updated_at)
        headers["Status"] = record.status
        if record.result:
            headers["Result"] = record.result
        ended = table.engine.result(table.state) if over and table.state is not None else None
        if ended is not None:
            headers["Termination"] = ended.how.value
        if over:
            headers["Turns"] = str(story.turns)
            headers["Seed"] = str(record.seed)
        moves = tuple(
            records.Move(e.seq, e.seat, None if e.secret and not over else e.action)
            for e in story.entries
        )
        return records.Record(headers, moves)

    async def replay_animation(
        self, *, from_turn: int = 1, progress: Progress | None = None,
        user_id: int | None = None, **where: Unpack[Where],
    ) -> File:  # fmt: skip
        """An animated picture of the public boards at each change of who plays, from the
        board turn ``from_turn`` began with (turns as the game numbers them, up to the
        turn it is on or ended in), each board drawn off the event loop; ``progress``
        hears how far the drawing has got. A finished game's caption calls it the whole
        game."""
        table = await self._desk.find(user_id=user_id, **where)
        if not self._drawing.draws_pictures:
            raise UserError(said("This table draws no pictures, so it cannot draw a replay."))
        story = await self.story(table)
        if not 1 <= from_turn <= story.turns:
            raise UserError(_no_such_turn(table.title, story))
        views = frames_of(story, from_turn)
        pictures = []
        for index, view in enumerate(views):
            if progress is not None:
                await progress(index, len(views))
            picture = await self._drawing.draw(Board(table.engine.slug, view, table.record.data))
            assert picture is not None  # this table draws pictures
            pictures.append(picture)
        if progress is not None:
            await progress(len(views), len(views))
        data = await self._drawing.animate(pictures)
        name = f"{table.engine.slug}-{table.record.id}-replay.gif"
        turns = story.counted() if from_turn == 1 else _turns_from(story, from_turn)
        boards = said_plural("{count} board", "{count} boards", len(views))
        if story.over:
            told = said(
                "Replay of {game}, the whole game: {turns}, {boards}.",
                game=table.title,
                turns=turns,
                boards=boards,
            )
        else:
            told = said(
                "Replay of {game}, the game so far: {turns}, {boards}.",
                game=table.title,
                turns=turns,
                boards=boards,
            )
        return File(name, data, "🎞️ " + told)

    async def play_record(self, text: str) -> Reply:
        """A finished game's record played back from its seed: the final board, its
        summary and its result. BadRecord says what is wrong with the text."""
        record = records.read(text)
        engine = engine_with(record.slug, _checked_data(record))
        if not record.complete:
            raise records.BadRecord(
                said(
                    "This record has no seed or hides some actions: it is of a game still under "
                    "way. Export it again once the game is over to play it back."
                )
            )
        state = await asyncio.to_thread(_play, engine, record)
        result = engine.result(state)
        view = engine.view(state, None)
        title = record.headers.get("Title", engine.title)
        number = record.headers.get("Number", "")
        title += f" #{number}" if number else ""
        played = said(
            "**{game}** played back: {turns}, {actions}.",
            game=title,
            turns=counted(engine.turn_name, engine.turn(state)),
            actions=said_plural("{count} action", "{count} actions", len(record.moves)),
        )
        lines: list[str | Text] = [played, view["summary"]]
        if result is not None:
            lines.append(f"{ENDING_MARKS[result.how] if result.winners else '🤝'} {result.text}")
        return Reply(Text.of("\n").join(lines), board=Board(engine.slug, view, record.data))

    # -- finished games ----------------------------------------------------------------

    async def finished_list(self, *, guild_id: int, **_: object) -> Reply:
        """The server's recently finished games, newest first, with their results."""
        games = await self._desk.store.finished_games(guild_id=guild_id, limit=FINISHED_SHOWN)
        if not games:
            return Reply(said("No game has finished on this server yet."))
        lines = [_finished_line(g) for g in games]
        return Reply(Text.of(said("**Recently finished here**"), "\n", Text.of("\n").join(lines)))

    async def finished_lines(self, *, guild_id: int, user_id: int) -> list[Text]:
        """The lines of ``user_id``'s recently finished games on the server."""
        games = await self._desk.store.finished_games(
            guild_id=guild_id, user_id=user_id, limit=FINISHED_SHOWN
        )
        return [_finished_line(g) for g in games]


def _checked_data(record: records.Record) -> dict[str, Any]:
    """The record's corrected data, checked as an upload is; BadRecord names the field."""
    found = record.data
    checked = engine_data.NONE
    try:
        for package, files in found.items():
            for name, fields in files.items():
                checked = games.check_corrections(package, name, fields, checked)
    except engine_data.BadDataFile as error:
        raise records.BadRecord(
            said("The record's corrected data cannot be used: {error}", error=str(error))
        ) from None
    return found


ENDING_MARKS = {kind: "🏳️" if kind.forfeited else "🏆" for kind in Termination}
"""The mark before a played-back game's ending: a trophy for a win by the rules, a white
flag where a seat giving up decided it (a draw has a handshake)."""


def _play(engine: Game[Any], record: records.Record) -> Any:
    """The state at the end of a complete record, replayed from its seed."""
    actions = [(m.seq, m.seat, m.action or "") for m in record.moves]
    assert record.seed is not None  # a complete record has its seed
    try:
        return engines.replay.replay(engine, record.roles, record.options, record.seed, actions)
    except ActionError as error:
        raise records.BadRecord(
            said("The record does not play back: {error}", error=str(error))
        ) from None


def _finished_line(record: GameRecord) -> Text:
    return said(
        "{game} in {channel}, ended {date}: {result}",
        game=f"#{record.id} {title_of(record.slug)}",
        channel=ChannelRef(record.channel_id),
        date=_date(record.updated_at)[:10],
        result=record.result or STATUS_TEXTS[record.status],
    )


def _no_such_turn(title: str, story: Story) -> Text:
    """Why a replay cannot start at a turn the game has not reached."""
    if story.over:
        return said(
            "{game} lasted {turns}; `from_turn` must be between 1 and {last}.",
            game=title,
            turns=story.counted(),
            last=story.turns,
        )
    if story.word == "round":
        return said(
            "{game} is on round {last}; `from_turn` must be between 1 and {last}.",
            game=title,
            last=story.turns,
        )
    return said(
        "{game} is on turn {last}; `from_turn` must be between 1 and {last}.",
        game=title,
        last=story.turns,
    )


def _turns_from(story: Story, first: int) -> Text:
    """The turns of a replay that starts at turn ``first``: "turns 3 to 16 of 16"."""
    if story.word == "round":
        return said("rounds {first} to {last} of {last}", first=first, last=story.turns)
    return said("turns {first} to {last} of {last}", first=first, last=story.turns)


def _date(at: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(at))


def _json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False)
