"""What the SQLite and PostgreSQL stores share: every statement that is the same in both
dialects, written once, one module per concern (port).

:class:`SqlStore` implements the :class:`~bot.store.Store` protocol (whose docstrings say
what each method promises) as one class per port (``games.py``, ``outbox.py``, ...), all
over a small execution layer each dialect provides (``base.py``): a transaction and a lone
statement, each handing out a :class:`~bot.store.sql.base.Session` that runs statements,
and a read outside any transaction (``_reading``; a lone statement unless the dialect keeps
a connection for reads). Statements are written with ``?`` placeholders; the PostgreSQL
session numbers them (``$1``, ``$2``, ...). The few dialect words live in one place each:
the game query with its seats as JSON (``_GAMES``), a list parameter (``_any``), the row
lock a versioned answer takes (``_LOCK_ROW``), the error of a unique key (``_DUPLICATE``),
and how notices are stored (``_enqueue``). The tuned hot paths (an action, the deadline
queries, a lane's claim with its read, a send) are written per dialect in ``sqlite.py``
and ``postgres.py``.
"""

from __future__ import annotations

from abc import ABC
from typing import Generic

from bot.store.sql.actions import ActionSql
from bot.store.sql.base import S
from bot.store.sql.deadlines import DeadlineSql
from bot.store.sql.digests import DigestSql
from bot.store.sql.games import GameSql
from bot.store.sql.guilds import GuildSql
from bot.store.sql.held_calls import HeldCallSql
from bot.store.sql.notes import NoteSql
from bot.store.sql.offers import OfferSql
from bot.store.sql.outbox import OutboxSql
from bot.store.sql.pages import PageSql
from bot.store.sql.players import PlayerSql
from bot.store.sql.posts import PostSql
from bot.store.sql.ratings import RatingSql
from bot.store.sql.watchers import WatcherSql


class SqlStore(
    GameSql[S],
    ActionSql[S],
    OfferSql[S],
    PostSql[S],
    DeadlineSql[S],
    OutboxSql[S],
    HeldCallSql[S],
    DigestSql[S],
    PlayerSql[S],
    RatingSql[S],
    PageSql[S],
    GuildSql[S],
    NoteSql[S],
    WatcherSql[S],
    ABC,
    Generic[S],
):
    """The store's statements over a dialect's sessions of type ``S``: every port's shared
    statements; a dialect adds its execution layer and its tuned paths."""
