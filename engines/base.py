"""The contract every game engine keeps.

A game is a module-level object that satisfies :class:`Game`. The application layer knows
games only through this contract, so it can host any of them without an ``if`` about rules.

Ideas borrowed from OpenSpiel and boardgame.io:

* **Seats.** A game is set up for an ordered list of seats, each with a role name
  (``"dragon"``, ``"george"``, ``"white"``...). Seats are numbered from 0 in that order.
* **Prompts.** :meth:`Game.prompts` says who must decide *now*. An ordinary turn is one
  prompt. Simultaneous secret choices are several prompts with ``secret=True``; the engine
  keeps the answers in its state and resolves them when the last one is in. An out-of-turn
  answer (choose a hand, accept a challenge) is just a prompt for that seat.
* **Actions** are short strings in the game's own text notation (``"roll"``,
  ``"c4-lair"``, ``"card red"``). Each engine's ``notation`` module reads them
  (``read(text)``, raising :class:`UnreadableAction`) and writes them in canonical form
  (``write(action)``; ``write(read(text))`` is the canonical text of ``text``, and the
  engine's own actions are canonical). :meth:`Game.legal_actions` lists them with a label
  for menus; :meth:`Game.apply` validates whatever it is given and raises
  :class:`UnreadableAction` for text that is not notation, :class:`IllegalAction` for an
  action the rules do not allow now, each with a friendly message.
* **Chance** comes only from the ``rng`` passed to :meth:`Game.apply`; every outcome is
  also written into the returned events. The host derives ``rng`` from the game's seed and
  the action's sequence number, so a game replays exactly from its action log.
* **Views.** :meth:`Game.view` returns what one seat may know, or with ``seat=None`` the
  public view. Anything posted in a channel (text or picture) is built from the public
  view only.
* **Options** are declared as a schema (:attr:`Game.options`, see :mod:`engines.options`)
  and read from what the player typed by :meth:`Game.parse_options`.
* **Endings by agreement.** :meth:`Game.draw_by_agreement` says whether the players may
  agree a draw; :meth:`Game.agree_draw` ends the game so (a :class:`Result` without
  winners). A takeback is the host's replay of the log without the seat's last action
  (:func:`engines.replay.takeback`); it is allowed only while nothing was revealed since:
  no chance drawn (the host watches the rng) and nothing hidden shown
  (:meth:`Game.revealed`). Each game's rules help says both.
* **Turns** are numbered by the game itself (:meth:`Game.turn`, with its word
  :attr:`Game.turn_name`): whatever shows a turn number uses that one numbering.
* **Snapshots** (:meth:`Game.dump`) carry a format version; :meth:`Game.load` refuses one
  it does not know (see :mod:`engines.snapshot`). :mod:`engines.replay` rebuilds a game
  from its seed and action log.

Engines are pure: no I/O, no clock, no Discord, the standard library only. ``apply``
never mutates the state it is given; it returns a new one.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, Any, Literal, Protocol, TypeVar

from engines.errors import ActionError, BadOptions, IllegalAction, UnreadableAction

if TYPE_CHECKING:
    from engines.options import Option

__all__ = [
    "FORFEIT_REASONS",
    "MENU_LIMIT",
    "ActionError",
    "BadOptions",
    "Choice",
    "Event",
    "ForfeitReason",
    "Game",
    "IllegalAction",
    "Prompt",
    "Result",
    "Role",
    "Termination",
    "UnreadableAction",
    "termination",
    "unreadable",
]

S = TypeVar("S")
"""An engine's own state type (:class:`Game` ``[S]``); opaque to the host except through
the contract."""

ForfeitReason = Literal["timeout", "resigned", "left"]
"""Why a seat gives up for good: its turn ran out of time on a clock set to forfeit
(``timeout``), its player resigned (``resigned``), or its player left the game or the
server (``left``). Each engine words the forfeit from it, and the log keeps it."""

FORFEIT_REASONS: tuple[ForfeitReason, ...] = ("timeout", "resigned", "left")
"""Every :data:`ForfeitReason`, the first being what a forfeit logged without one was."""


def unreadable(error: UnreadableAction, position: Callable[[], object]) -> UnreadableAction:
    """The refusal for text that is not notation: what the position itself refuses (not the
    seat's turn, the game over) when ``position()`` refuses the action (either way), else
    ``error``. Either way the cause stays "unreadable"."""
    try:
        position()
    except ActionError as refused:
        return UnreadableAction(str(refused))
    return error


@dataclass(frozen=True)
class Choice:
    """One legal action and how to show it in a menu.

    ``group`` lets a frontend offer a two-step pick when there are many actions: first the
    group (usually the piece, e.g. ``"c4"``), then the action within it. Empty: no grouping.
    Whenever a seat has more than :data:`MENU_LIMIT` actions, every engine groups them so
    that no group holds more than :data:`MENU_LIMIT` actions and there are at most
    :data:`MENU_LIMIT` groups (a piece with too many destinations is split by regions of
    the board, each group's name saying where: ``"Dragon → spokes 1–3"``).

    ``to`` is the place the action ends at, named exactly as the game's public view names
    that place, so a renderer can find it from the view and the game's board data alone:
    a St. George point (``"3c"``, ``"lair"``, ``"G1"``), a Lions and Dragons cell
    (``"e4"``), a Dragonslayer place key (``"morgenthorme"``), sea zone (``"sea:west_sea"``)
    or road (``"road:<from>:<towards>"``), a Dragon's Cave square (``"7"``, the path index
    as the view's Dwarves' squares name it, or ``"lair:ruby"``).
    Empty for an action that goes to no place (a roll, a pass, a split of coins).

    ``outcome`` says in a few plain words what happens there when it matters to the player
    (``"takes a Knight of St. David"``, ``"wins the game"``), exactly true by the rules at
    the moment the action is offered; empty when nothing notable happens. ``notable`` is
    True for a capture, a win or another outcome a player should see first (a menu lists
    notable actions first); an action with an ``outcome`` is not always notable.
    """

    action: str
    label: str
    group: str = ""
    to: str = ""
    outcome: str = ""
    notable: bool = False


MENU_LIMIT = 25
"""The most entries one menu shows (Discord's select menus): the most actions in one group
and the most groups, whenever a list of actions is grouped."""


@dataclass(frozen=True)
class Prompt:
    """A decision one seat must make now.

    ``kind`` names the decision (``"roll"``, ``"move"``, ``"card"``, ``"split"``...) so a
    frontend can pick a fitting widget; ``text`` says it in words. A ``secret`` prompt's
    answer must reach the engine without anyone else seeing it (DM or ephemeral message).
    """

    seat: int
    kind: str
    text: str
    secret: bool = False


@dataclass(frozen=True)
class Event:
    """Something that happened, told to everyone (``seat=None``) or to one seat only.

    ``data`` is machine-readable detail (dice, captures, the path of a move) for renderers
    and logs; it follows the same visibility as ``text``. A public event whose data has
    ``"picture": True`` asks for a fresh board picture even though the turn did not pass
    (a battle shown while its player is still deciding).
    """

    text: str
    seat: int | None = None
    data: dict[str, Any] = field(default_factory=dict)

    @property
    def public(self) -> bool:
        return self.seat is None


class Termination(StrEnum):
    """How a game came to its end: what shows an ending reads this, never the text.

    Stored by its value (``"rules"``, ``"agreed"``...) wherever a result is kept."""

    RULES = "rules"
    """The game's own rules ended it: a goal reached, a Dragon slain, the coins counted, a
    side with no move left (a win, or a draw the rules call)."""
    AGREED = "agreed"
    """Every player agreed a draw (:meth:`Game.agree_draw`)."""
    TIMEOUT = "timeout"
    """A seat's time ran out on a clock set to forfeit, and that ended the game."""
    RESIGNED = "resigned"
    """A player resigned, and that ended the game."""
    LEFT = "left"
    """A player left the game or the server, and that ended the game."""
    FORFEIT = "forfeit"
    """A seat gave up and that ended the game, in a game kept before the reason was
    recorded with its result (its log still says why)."""

    @classmethod
    def of_forfeit(cls, reason: ForfeitReason) -> Termination:
        """The ending a forfeit for ``reason`` brings about."""
        return cls(reason)

    @property
    def forfeited(self) -> bool:
        """Whether a seat giving up ended the game (for any reason)."""
        return self in (Termination.TIMEOUT, Termination.RESIGNED, Termination.LEFT,
                        Termination.FORFEIT)  # fmt: skip


def termination(value: str | None, default: Termination = Termination.RULES) -> Termination:
    """The termination stored as ``value`` (its string), or ``default`` for a result kept
    before the kind was recorded (``None``) or a value this release does not know."""
    if value is None:
        return default
    try:
        return Termination(value)
    except ValueError:
        return default


@dataclass(frozen=True)
class Result:
    """How a finished game ended. ``winners`` are seats; a draw has none. ``how`` is the
    kind of ending (:class:`Termination`); ``text`` says it in words for people."""

    winners: tuple[int, ...]
    text: str
    how: Termination = Termination.RULES

    @property
    def draw(self) -> bool:
        return not self.winners


@dataclass(frozen=True)
class Role:
    """A seat a player can take: its key (used in commands) and its display name."""

    key: str
    name: str


class Game(Protocol[S]):
    """What every engine module exposes as its ``GAME`` object, over its own state type
    ``S`` (every registered game is a :class:`engines.declared.DeclaredGame`)."""

    @property
    def slug(self) -> str:
        """Short id used in commands and storage, e.g. ``"stgeorge"``."""

    @property
    def title(self) -> str:
        """The game's name as people read it."""

    @property
    def min_players(self) -> int:
        """The fewest seats a table of this game has."""

    @property
    def max_players(self) -> int:
        """The most seats a table of this game has."""

    @property
    def options(self) -> tuple[Option, ...]:
        """The table options, as a schema (:class:`engines.options.Option`): what
        :meth:`parse_options` accepts, with defaults; also printed in help
        (:func:`engines.options.describe`). Empty for a game without options."""

    @property
    def turn_name(self) -> str:
        """What this game calls one turn, in lower case (``"turn"``, ``"round"``): the word
        every numbered turn is shown with (``Turn 3``, ``Round 3``, ``16 turns``)."""

    def roles(self, players: int, options: dict[str, Any]) -> list[Role]:
        """The seats of a table of ``players``, in seat (and turn) order.

        Raises :class:`BadOptions` for an unsupported player count.
        """

    def parse_options(self, text: str) -> dict[str, Any]:
        """The options a player typed (``"lions=symmetric reserve=4"``,
        ``"magicians=merridyds,galen"``), read with :attr:`options`: checked, with defaults
        filled. The result is what :meth:`roles` and :meth:`setup` take and what is stored.

        Raises :class:`BadOptions` (unknown key, bad value, a key given twice) with a
        message saying what to type instead and listing the known keys or values.
        """

    def normalize_options(self, options: dict[str, Any]) -> dict[str, Any]:
        """The same schema over options already split into ``{key: value}`` (typed words,
        or values :meth:`parse_options` returned, which read back unchanged). Kept for hosts
        that split the typed text themselves. Raises BadOptions."""

    def setup(self, roles: list[str], options: dict[str, Any], rng: random.Random) -> S:
        """A new game for seats with these role keys (as returned by :meth:`roles`)."""

    def prompts(self, state: S) -> list[Prompt]:
        """Who must decide what now; empty once the game is over."""

    def legal_actions(self, state: S, seat: int) -> list[Choice]:
        """Every action ``seat`` may take now; empty when it has no prompt."""

    def apply(self, state: S, seat: int, action: str, rng: random.Random) -> tuple[S, list[Event]]:
        """The state after ``seat`` takes ``action``, and what happened.

        Raises :class:`UnreadableAction` (state untouched) if ``action`` is not the game's
        notation at all, :class:`IllegalAction` if it is but the rules do not allow it now.
        """

    def skip(self, state: S, seat: int, rng: random.Random) -> tuple[S, list[Event]]:
        """The state after ``seat``'s pending prompt ran out of time and is skipped.

        Each game says in its rules help what skipping means (the turn passes; a secret
        answer is made for the player). Only called while ``seat`` has a prompt.
        """

    def forfeit(
        self, state: S, seat: int, rng: random.Random, reason: ForfeitReason = "timeout"
    ) -> tuple[S, list[Event]]:
        """The state after ``seat`` gives up for good, for ``reason``, and the events, which
        tell it as what it was (a timeout, a resignation, a player leaving).

        Any seat still playing may give up, whether it is prompted or not: where one side
        remains the game ends at once, where several remain it goes on without the seat
        from this moment, whoever is to move. Raises :class:`IllegalAction` once the game
        is over or the seat has already given up. Each game says in its rules help what
        becomes of the seat's pieces.
        """

    def draw_by_agreement(self, state: S) -> bool:
        """Whether the players may end the game now as a draw by agreement: False where
        the game knows no such ending (its rules help says why), and once it is over."""

    def agree_draw(self, state: S) -> tuple[S, list[Event]]:
        """The game ended as a draw all players agreed: :meth:`result` is then a
        :class:`Result` with no winners and a text saying so. Raises
        :class:`IllegalAction` where :meth:`draw_by_agreement` is False."""

    def revealed(self, before: S, after: S) -> bool:
        """Whether the step from ``before`` to ``after`` showed any seat something that was
        hidden from it (a secret card turned up, a face-down tile looked at). Chance is not
        asked here: the host sees it by watching the rng. Such a step cannot be taken back.
        Always False in a game without hidden information."""

    def view(self, state: S, seat: int | None) -> dict[str, Any]:
        """JSON-ready picture of the game as ``seat`` may know it; ``None`` is public.

        Every view has ``"summary"``: one line in words (whose turn, last roll...). A seat's
        view also has ``"private"``: what only that seat knows, in words (its hand, its
        Chest), or ``""``. The renderer draws the public view; game-specific keys are free.
        """

    def observe(self, state: S, seat: int) -> S:
        """The state as ``seat`` may know it: a copy whose hidden parts (other seats'
        secrets, face-down things the seat never saw) are replaced by neutral placeholders.

        ``prompts`` and ``legal_actions`` for ``seat`` work on it unchanged, so a computer
        player decides from it alone. Two states that differ only in what ``seat`` cannot
        see observe to the same state.
        """

    def result(self, state: S) -> Result | None:
        """The outcome once the game is over, else ``None``."""

    def turn(self, state: S) -> int:
        """The number of the turn ``state`` is in, from 1, as this game counts turns (each
        game says what one turn is: one seat's move, a round of every seat, a round of
        secret choices): the turn whose decisions :meth:`prompts` asks for now, and once
        the game is over the turn it ended in, so a finished game lasted ``turn(final)``
        turns. An action belongs to the turn of the state it was taken in. It never
        falls along a line of play (a takeback returns to an earlier state and its
        number) and rises by at most one a step. This is the only numbering of turns:
        the summary, posts, history, records and replays all show it.
        """

    def dump(self, state: S) -> dict[str, Any]:
        """The state as JSON-ready data (the stored snapshot), with its ``"format"``: the
        version of the snapshot layout (each engine's ``state.FORMAT``)."""

    def load(self, data: dict[str, Any]) -> S:
        """Inverse of :meth:`dump`: ``dump(load(dump(s))) == dump(s)``.

        Reads the engine's current format and the older ones it knows; an unknown or newer
        format raises :class:`engines.snapshot.UnknownFormat` (a ``ValueError``) saying so.
        """

    def rules_help(self) -> str:
        """Markdown rules summary: notation, readings of ambiguities, reconstructed data."""
