"""What every part of the host shares: a game with its engine and state, seat labels,
and replaying a game from its log (with the engines' own chance derivation)."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable, Mapping
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field, replace
from typing import Any

import engines.replay
from bot.service.errors import UserError
from bot.service.text import Mention, Moment, Text, said, said_plural
from bot.service.timekeeping.bank import banks_line
from bot.service.timekeeping.timing import rest_line
from bot.store import GameRecord
from engines import data
from engines.base import Choice, Game, Prompt, Role
from engines.declared import DeclaredGame
from engines.options import clip
from games import UnknownGame, spec_for

STATUS_TEXTS = {
    "lobby": said("waiting for players"),
    "running": said("in play"),
    "paused": said("paused"),
    "finished": said("finished"),
    "cancelled": said("cancelled"),
}
"""A game's status as a person reads it: ``{title} is {status}``."""

LEVEL_WORDS = {"easy": said("easy"), "strong": said("strong")}
"""A computer player's level as a person reads it (the level typed stays ``easy`` or
``strong``)."""


def engine_for(slug: str) -> Game[Any]:
    """The engine of the game registered as ``slug``; UserError names the games there are."""
    try:
        return spec_for(slug).engine
    except UnknownGame as error:
        raise UserError(str(error)) from None


@dataclass
class Worked:
    """What was asked of one state, kept with it: its prompts, seats' legal actions and
    public view (each worked out on first asking)."""

    prompts: list[Prompt] | None = None
    legal: dict[int, list[Choice]] = field(default_factory=dict)
    view: dict[str, Any] | None = None


@dataclass(frozen=True)
class Table:
    """A game record together with its engine and (once started) its live state.

    The state never changes (engines return new ones), so what is asked of it is worked
    out once per table: its prompts and its public view."""

    record: GameRecord
    engine: Game[Any]
    state: Any  # the engine's own state type: each game has its own
    _asked: Worked = field(default_factory=lambda: Worked(), compare=False, repr=False)

    @property
    def title(self) -> str:
        return f"{self.engine.title} #{self.record.id}"

    def roles(self) -> list[Role]:
        return self.engine.roles(self.record.players, self.record.options)

    def role_keys(self) -> list[str]:
        return role_keys(self.engine, self.record)

    def role_name(self, seat: int) -> str:
        return self.roles()[seat].name

    def prompts(self) -> list[Prompt]:
        if self.state is None:
            return []
        if self._asked.prompts is None:
            self._asked.prompts = self.engine.prompts(self.state)
        return list(self._asked.prompts)

    def legal_actions(self, seat: int) -> list[Choice]:
        """The engine's legal actions of ``seat`` now (a fresh list each call)."""
        legal = self._asked.legal
        if seat not in legal:
            legal[seat] = self.engine.legal_actions(self.state, seat)
        return list(legal[seat])

    def public_view(self) -> dict[str, Any]:
        """The public view of the state (don't change it: it is shared); None-safe callers
        check ``state`` first."""
        if self._asked.view is None:
            self._asked.view = self.engine.view(self.state, None)
        return self._asked.view


class LoadedStates:
    """The engine states last loaded or made by one host, by game and version, each with
    what was worked out from it (its prompts, legal actions and public view).

    Every write bumps a game's version and engines never change a state they are given, so
    a state is the same object for as long as its version is current: reading a game again
    (each click reads it once, autocomplete and status again) skips loading its snapshot,
    and asking the engine again what the state already answered.
    One per host, since game ids are only unique within one database.
    """

    def __init__(self, size: int = 512) -> None:
        self.size = size
        self._states: OrderedDict[tuple[int, int], tuple[Any, Worked]] = OrderedDict()

    def get(self, game_id: int, version: int) -> tuple[Any, Worked] | None:
        """The state kept for ``game_id`` at ``version`` and what was asked of it, or None."""
        kept = self._states.get((game_id, version))
        if kept is not None:
            self._states.move_to_end((game_id, version))
        return kept

    def forget(self, game_id: int) -> None:
        """Drop every state kept of ``game_id`` (its stored snapshot was changed in place,
        as a repair does, without a new version)."""
        for key in [key for key in self._states if key[0] == game_id]:
            del self._states[key]

    def keep(self, game_id: int, version: int, table: Table) -> None:
        """Keep ``table``'s state (and what it has worked out) as ``game_id`` at ``version``."""
        if table.state is None:
            return
        self._states[(game_id, version)] = (table.state, table._asked)
        self._states.move_to_end((game_id, version))
        while len(self._states) > self.size:
            self._states.popitem(last=False)


_corrected_engines: dict[tuple[str, str], Game[Any]] = {}


def engine_of(record: GameRecord) -> Game[Any]:
    """The engine to play ``record`` with: its game's engine, with the corrected data the
    game was opened with in effect when it has some."""
    return engine_with(record.slug, record.data)


def engine_with(slug: str, corrections_json: dict[str, Any]) -> Game[Any]:
    """The engine of ``slug`` with ``corrections_json`` (a game's ``data``) in effect in
    every call (:meth:`engines.declared.DeclaredGame.with_data`); a game not declared so
    has no data files to correct and is its own engine."""
    engine = engine_for(slug)
    if not corrections_json or not isinstance(engine, DeclaredGame):
        return engine
    corrections = data.Corrections(corrections_json)
    key = (slug, corrections.digest)
    found = _corrected_engines.get(key)
    if found is None:
        if len(_corrected_engines) > 256:
            _corrected_engines.clear()
        found = _corrected_engines[key] = engine.with_data(corrections)
    return found


def corrections_of(engine: Game[Any]) -> AbstractContextManager[object]:
    """Puts the corrected data of an engine from :func:`engine_of` in effect (for code
    that reads game data without going through the engine, as computer players do)."""
    if isinstance(engine, DeclaredGame) and engine.corrections:
        return data.corrected(engine.corrections)
    return nullcontext()


def table_from(record: GameRecord, states: LoadedStates | None = None) -> Table:
    """The table of a game record already read; UserError if its state cannot be read.
    With ``states``, a state already loaded for the record's version is used as it is."""
    engine = engine_of(record)
    kept = states.get(record.id, record.version) if states is not None else None
    if kept is not None:
        return Table(record, engine, kept[0], kept[1])
    state = None
    if record.snapshot is not None:
        try:
            state = engine.load(record.snapshot)
        except Exception as error:
            raise UnreadableGame(record.id, error) from error
    table = Table(record, engine, state)
    if states is not None:
        states.keep(record.id, record.version, table)
    return table


class UnreadableGame(UserError):
    """A game whose stored state cannot be read: it spoils only itself."""

    def __init__(self, game_id: int, error: BaseException | None = None) -> None:
        super().__init__(
            said(
                "Game #{game} cannot be read: its stored state is damaged. Nothing else is "
                "affected; the bot's owner can repair or cancel it.",
                game=game_id,
            )
        )
        self.game_id = game_id
        self.error = error


def role_index(roles: list[Role], wanted: str) -> int:
    wanted = wanted.strip().lower()
    for index, role in enumerate(roles):
        if wanted in (role.key.lower(), role.name.lower()):
            return index
    names = ", ".join(f"`{r.key}` ({r.name})" for r in roles)
    raise UserError(
        said("There is no role `{role}` at this table. Roles: {roles}.", role=clip(wanted),
             roles=names)
    )  # fmt: skip


def seating(table: Table) -> Text:
    """``Seats: St. George: alice · the Dragon: *open*``."""
    names = {s.seat: player_name(s.name, s.computer) for s in table.record.seats}
    return seating_of(table.roles(), names)


def seating_of(roles: list[Role], names: Mapping[int, str | Text]) -> Text:
    """The seating line of ``roles`` with ``names`` by seat number (others open)."""
    seats = Text.of(" · ").join(
        Text.of(f"{role.name}: ", names.get(index, said("*open*")))
        for index, role in enumerate(roles)
    )
    return said("Seats: {seats}", seats=seats)


def player_name(name: str, computer: str | None = None) -> str | Text:
    """The name a seat is shown with: its player's, or ``Computer (strong)`` in the
    reader's words for a computer playing at level ``computer``."""
    if computer is None:
        return name
    return said("Computer ({level})", level=level_word(computer))


def player_count(players: int) -> Text:
    """``2 players`` (``1 player``), as a table's size is told."""
    return said_plural("{count} player", "{count} players", players)


def level_word(level: str) -> str | Text:
    """A computer's ``level`` as a person reads it (an unknown one as it is)."""
    return LEVEL_WORDS.get(level, level)


def free_seat(roles: list[Role], taken: set[int], wanted: str | None, *, title: str) -> int:
    """The seat to take: ``wanted`` (a role key or name) if open, else the first open one;
    UserError when the table is full or the role is taken."""
    free = [i for i in range(len(roles)) if i not in taken]
    if not free:
        raise UserError(said("{title} is full. Ask the host about another game.", title=title))
    if wanted is None:
        return free[0]
    seat = role_index(roles, wanted)
    if seat in taken:
        open_names = ", ".join(roles[i].name for i in free)
        raise UserError(
            said("{role} is taken. Still open: {open}.", role=roles[seat].name, open=open_names)
        )
    return seat


def seat_label(table: Table, seat: int) -> Text:
    """The seat's role and who plays it: a mention, or the computer and its level."""
    user = table.record.user_at(seat)
    name = table.role_name(seat)
    if user is not None:
        return Text.of(f"{name} (", Mention(user), ")")
    level = table.record.computer_at(seat)
    return Text.of(f"{name} (🤖 ", level_word(level), ")") if level else Text.of(name)


def seat_labels(table: Table, seats: Iterable[int], sep: str = ", ") -> Text:
    """Several seats' labels, each once, in order."""
    return Text.of(sep).join(seat_label(table, s) for s in dict.fromkeys(seats))


def already(table: Table) -> Text:
    """Why a game that no longer waits for players cannot be changed as a lobby:
    ``St. George #3 has already started.`` (or ended, or cancelled)."""
    title, status = table.title, table.record.status
    if status == "finished":
        return said("{title} has already ended.", title=title)
    if status == "cancelled":
        return said("{title} has already cancelled.", title=title)
    return said("{title} has already started.", title=title)


def written(record: GameRecord, now: float, fields: dict[str, Any]) -> GameRecord:
    """``record`` as one versioned write of ``fields`` leaves it, so a write can be
    announced in its own transaction (an offer waiting before it has lapsed)."""
    known = {k: v for k, v in fields.items() if k in GameRecord.__dataclass_fields__}
    return replace(record, version=record.version + 1, updated_at=now, offer=None, **known)


def replay(record: GameRecord, actions: list[tuple[int, int, str]]) -> Any:
    """Rebuild a game's state from its seed and logged ``(seq, seat, action)`` triples."""
    engine = engine_of(record)
    roles = role_keys(engine, record)
    return engines.replay.replay(engine, roles, record.options, record.seed, actions)


def role_keys(engine: Game[Any], record: GameRecord) -> list[str]:
    """The role keys of a game's seats in seat order, as its set-up and replay take them."""
    return [role.key for role in engine.roles(record.players, record.options)]


def status_line(
    table: Table, last: str, page: Text | None = None, now: float | None = None
) -> Text:
    """The text of a game's status message: whose turn, until when, whether the clock
    rests at ``now`` (with playing hours), and the last action, then ``page`` (the line
    giving its web page, if any)."""
    record = table.record
    title = table.title
    if record.status == "finished" and record.result:
        done = said("**{title}**: finished. {result}", title=title, result=record.result)
        return "📜 " + done + (page or Text())
    if record.status == "finished":
        return "📜 " + said("**{title}**: finished.", title=title) + (page or Text())
    waiting = seat_labels(table, [p.seat for p in table.prompts()])
    if record.deadline:
        text = said(
            "**{title}**: waiting for {seats}, turn ends {deadline}.",
            title=title, seats=waiting, deadline=Moment(record.deadline),
        )  # fmt: skip
    else:
        text = said("**{title}**: waiting for {seats}.", title=title, seats=waiting)
    text = "📜 " + text + banks_line(record)
    if now is not None:
        text += rest_line(record, now)
    if last:
        text += "\n" + said("Last: {action}", action=last)
    return text + (page or Text())
