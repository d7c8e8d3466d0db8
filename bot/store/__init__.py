"""Storage: games, seats, the append-only action log and settings.

The application layer and the frontends talk to a store only through :class:`Store`
(``protocol.py``), or only the ports of it they use, which say what each method
promises. :class:`~bot.store.sqlite.SqliteStore`
implements it, and so does :class:`~bot.store.postgres.PostgresStore` (PostgreSQL, for several
bot processes); :func:`open_store` opens either from one location (a URL or a path).
"""

from bot.store.opening import open_store
from bot.store.protocol import (
    PORTS,
    ActionStore,
    DeadlineStore,
    DigestStore,
    GameStore,
    GuildStore,
    HeldCallStore,
    NoteStore,
    OfferStore,
    OutboxStore,
    PageStore,
    PlayerStore,
    PostStore,
    RatingStore,
    Store,
    StoreLifetime,
    WatcherStore,
)
from bot.store.records import (
    GAME_FIELDS,
    GAME_STATUSES,
    ActionRecord,
    DigestRow,
    GameRecord,
    GuildDataRecord,
    HeldCall,
    NewerDatabase,
    NewSeat,
    OfferRecord,
    OutboxEntry,
    Outgoing,
    Rater,
    RatingRow,
    ResultRow,
    SeatRecord,
    StaleVersion,
    StoreBusy,
)

__all__ = [
    "GAME_FIELDS",
    "GAME_STATUSES",
    "PORTS",
    "ActionRecord",
    "ActionStore",
    "DeadlineStore",
    "DigestRow",
    "DigestStore",
    "GameRecord",
    "GameStore",
    "GuildDataRecord",
    "GuildStore",
    "HeldCall",
    "HeldCallStore",
    "NewSeat",
    "NewerDatabase",
    "NoteStore",
    "OfferRecord",
    "OfferStore",
    "OutboxEntry",
    "OutboxStore",
    "Outgoing",
    "PageStore",
    "PlayerStore",
    "PostStore",
    "Rater",
    "RatingRow",
    "RatingStore",
    "ResultRow",
    "SeatRecord",
    "StaleVersion",
    "Store",
    "StoreBusy",
    "StoreLifetime",
    "WatcherStore",
    "open_store",
]
