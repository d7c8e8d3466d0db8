"""What the application layer asks a frontend to deliver.

The host never talks to Discord or a terminal. Every call returns a list of notices; the
frontend turns each into a reply, a channel post or a private message. Public notices are
built from the engine's public view and public events only. Their text carries no markup of
any frontend: people, channels, times and links are typed parts (:mod:`bot.service.text`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bot.service.text import Text
from engines.base import Choice, Prompt


@dataclass(frozen=True)
class Board:
    """A board picture to draw: a game's *public* view (never a seat's), drawn by the
    renderer of ``slug`` when the notice is delivered. A private reply's board may add
    ``marks``: the places of the chooser's own legal moves (:mod:`bot.service.play.destinations`),
    never posted in a channel."""

    slug: str
    view: dict[str, Any]
    data: dict[str, Any] = field(default_factory=dict)
    """The game's corrected data (``{}``: the deployment's), drawn with the view."""


@dataclass(frozen=True)
class Controls:
    """A decision to offer with buttons or menus: one prompt and its legal choices.

    ``version`` is the game version the choices belong to; a frontend puts it into the
    control's id so a click on an outdated control is recognised and refused.
    """

    game_id: int
    version: int
    prompt: Prompt
    choices: tuple[Choice, ...]
    placed: bool = False
    """The choices lead with the labels of their places, marked on the picture sent with
    them (:mod:`bot.service.play.destinations`): a frontend offers them as they are."""


@dataclass(frozen=True)
class Reply:
    """An answer to the user who asked; ``private`` means only they see it."""

    text: str | Text
    private: bool = True
    controls: tuple[Controls, ...] = ()
    board: Board | None = None
    quiet: bool = False
    """Its mentions only name people: nobody is notified by them (a public list of players)."""


@dataclass(frozen=True)
class ChannelPost:
    """A message in the game's channel: public events, maybe the board, maybe controls.

    A turn's steps share one post. ``turn`` names the turn (the game version its post was
    made at); ``edit`` says this notice *updates* that post in place (the game's remembered
    board post; posted anew if it is gone) instead of adding one. ``story`` is the text
    without its closing calls to act, from which the turn's next step goes on.
    """

    game_id: int
    channel_id: int
    text: str | Text
    board: Board | None = None
    mentions: tuple[int, ...] = ()
    controls: tuple[Controls, ...] = ()
    final: bool = False  # the game is over: a game thread can be archived
    turn: int | None = None
    edit: bool = False
    story: str | Text = ""
    settles: int | None = None
    """The version of an offer (a draw or takeback) whose post this settles: instead of
    posting, the frontend puts ``text`` under that offer and takes its buttons away."""
    passed: bool = False
    """This edits the post of a turn that has passed (:func:`turn_posts.retired`): its
    story, no controls; the post that opens the next turn follows it."""

    @property
    def of_turn(self) -> bool:
        """Whether this is a turn's post (made or updated), not another kind of post."""
        return self.turn is not None and self.settles is None


@dataclass(frozen=True)
class PrivateMessage:
    """A message for one user's eyes only (a DM, or an ephemeral message if DMs are closed).

    With ``controls`` it asks a secret question; the answer is submitted like any action.
    """

    game_id: int
    user_id: int
    text: str | Text
    controls: tuple[Controls, ...] = ()
    channel_id: int = 0
    """The game's channel, where a secret prompt falls back when the user's DMs are closed."""
    boards: tuple[Board, ...] = ()
    """Public boards sent along (to a watcher: the new board, or a digest's newest
    positions, at most :data:`MAX_BOARDS`); with DMs closed the watcher is mentioned in the
    game's channel instead."""


MAX_BOARDS = 10
"""The most pictures one message carries (Discord's limit of attachments)."""


@dataclass(frozen=True)
class StatusUpdate:
    """The game's one status message: edit it in place (post it if it is gone)."""

    game_id: int
    channel_id: int
    text: str | Text


@dataclass(frozen=True)
class PrivateFallback:
    """A private message could not reach ``user_id`` (their DMs are closed): tell them in
    the game's channel, without any secret, that their choice waits behind a button only
    they can open."""

    game_id: int
    channel_id: int
    user_id: int


Notice = Reply | ChannelPost | PrivateMessage | StatusUpdate | PrivateFallback
Sendable = ChannelPost | PrivateMessage | StatusUpdate | PrivateFallback
"""A notice that goes through the outbox (every kind but a reply)."""


@dataclass
class Outcome:
    """Everything one host call told, in order. The replies answer the asker; every other
    notice was stored in the outbox in the call's own transaction, and frontends send those
    from there (:mod:`bot.service.delivery.outbox`)."""

    notices: list[Notice] = field(default_factory=list)

    def add(self, notice: Notice) -> Outcome:
        self.notices.append(notice)
        return self

    @property
    def replies(self) -> list[Reply]:
        return [n for n in self.notices if isinstance(n, Reply)]

    @property
    def outgoing(self) -> list[Sendable]:
        """The notices that go through the outbox (all but the replies)."""
        return [n for n in self.notices if not isinstance(n, Reply)]
