"""The one shape every engine object takes: a game declared from its package's functions.

A game package writes its rules as plain functions in its own modules (``setup.roles``,
``prompts.prompts``, ``actions.apply``, ``timeouts.forfeit``, ``views.view``...) and its
``game.py`` declares the :class:`DeclaredGame` that ties them to the contract of
:class:`engines.base.Game`: its slug, title, table sizes, option schema, the word for a
turn, and which function answers each question. Nothing else is written per game: options
are parsed from the declared schema, and :meth:`DeclaredGame.with_data` gives the same game
with a server's corrected data files in effect in every call.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, fields, replace
from typing import Any, Generic, Protocol, TypeVar

from engines import data
from engines import options as schema
from engines.base import Choice, Event, ForfeitReason, Prompt, Result, Role
from engines.options import Option

__all__ = ["DeclaredGame", "Forfeit"]

S = TypeVar("S")


class Forfeit(Protocol[S]):
    """A game's ``forfeit``: the state after ``seat`` gives up for good, for ``reason``."""

    def __call__(
        self, state: S, seat: int, rng: random.Random, reason: ForfeitReason = "timeout", /
    ) -> tuple[S, list[Event]]: ...


@dataclass(frozen=True, eq=False)
class DeclaredGame(Generic[S]):
    """A game over states of type ``S``, each part of the contract answered by the declared
    function (see :class:`engines.base.Game` for what each promises). Equal only to itself:
    two declarations of one game are two engines."""

    slug: str
    title: str
    min_players: int
    max_players: int
    options: tuple[Option, ...]
    turn_name: str
    roles: Callable[[int, dict[str, Any]], list[Role]]
    normalize_options: Callable[[dict[str, Any]], dict[str, Any]]
    setup: Callable[[list[str], dict[str, Any], random.Random], S]
    prompts: Callable[[S], list[Prompt]]
    legal_actions: Callable[[S, int], list[Choice]]
    apply: Callable[[S, int, str, random.Random], tuple[S, list[Event]]]
    skip: Callable[[S, int, random.Random], tuple[S, list[Event]]]
    forfeit: Forfeit[S]
    draw_by_agreement: Callable[[S], bool]
    agree_draw: Callable[[S], tuple[S, list[Event]]]
    revealed: Callable[[S, S], bool]
    view: Callable[[S, int | None], dict[str, Any]]
    observe: Callable[[S, int], S]
    result: Callable[[S], Result | None]
    turn: Callable[[S], int]
    dump: Callable[[S], dict[str, Any]]
    load: Callable[[dict[str, Any]], S]
    rules_help: Callable[[], str]
    corrections: data.Corrections = data.NONE
    """The server's corrected data files in effect in every call (:meth:`with_data`)."""

    def parse_options(self, text: str) -> dict[str, Any]:
        """The options typed as ``text``, read with the declared schema (:attr:`options`),
        whose defaults may come from the data files: the game's corrections in effect."""
        if not self.corrections:
            return schema.parse(self.options, text, self.title)
        with data.corrected(self.corrections):
            return schema.parse(self.options, text, self.title)

    def with_data(self, corrections: data.Corrections) -> DeclaredGame[S]:
        """This game with ``corrections`` in effect in every call (``engines.data.corrected``),
        so a game opened with a server's corrected data keeps it for good, replays included.
        The game itself when there are none."""
        if corrections == self.corrections:
            return self
        wrapped: dict[str, Any] = {}
        for part in fields(self):
            declared = getattr(self, part.name)
            if part.name != "corrections" and callable(declared):
                if isinstance(declared, _Corrected):  # replaced, never stacked
                    declared = declared.function
                wrapped[part.name] = _Corrected(declared, corrections)
        return replace(self, **wrapped, corrections=corrections)


class _Corrected:
    """A declared function called with a server's corrections in effect."""

    __slots__ = ("corrections", "function")

    def __init__(self, function: Callable[..., Any], corrections: data.Corrections) -> None:
        self.function = function
        self.corrections = corrections

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        with data.corrected(self.corrections):
            return self.function(*args, **kwargs)
