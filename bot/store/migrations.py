"""The numbered schema migrations of both stores, each written once.

Step N brings the schema to version N (SQLite's ``PRAGMA user_version``, PostgreSQL's
one-row table ``schema_version``), so both stores hold the same schema at the same number.
A step is either **shared**, one script in both dialects, whose few type words are
placeholders each dialect fills in (:data:`SQLITE_WORDS`, :data:`POSTGRES_WORDS`), or
written **per dialect** where the statements themselves differ. Append new steps; never
edit a released one (``tests/store/test_migrations.py`` builds the schema both ways and
compares it with the one the released steps built).

PostgreSQL's words: Discord ids, seeds and message ids are ``bigint``; times are ``double
precision``; flags are ``boolean``; JSON columns are ``text`` in both dialects, so a value
reads back exactly as it was written (key order included). ``left`` is a reserved word
there and is quoted.
"""

from __future__ import annotations

from dataclasses import dataclass
from string import Template
from typing import Literal

Dialect = Literal["sqlite", "postgres"]

SQLITE_WORDS = {
    "ID": "INTEGER PRIMARY KEY",
    "SERIAL": "INTEGER PRIMARY KEY",
    "BIGINT": "INTEGER",
    "REAL": "REAL",
    "BOOL": "INTEGER",
    "FALSE": "0",
    "LEFT": "left",
}
"""What each placeholder of a shared step (``$BIGINT``, ...) is in SQLite."""
POSTGRES_WORDS = {
    "ID": "bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY",
    "SERIAL": "bigserial PRIMARY KEY",
    "BIGINT": "bigint",
    "REAL": "double precision",
    "BOOL": "boolean",
    "FALSE": "false",
    "LEFT": '"left"',
}
"""What each placeholder of a shared step is in PostgreSQL (``$SERIAL``: a sequence, as
``held_calls`` was given, where ``$ID`` is an identity column)."""


@dataclass(frozen=True)
class Step:
    """One migration step: its script in each dialect."""

    sqlite: str
    postgres: str

    def script(self, dialect: Dialect) -> str:
        """The step's statements in ``dialect``, separated by ``;``."""
        return self.sqlite if dialect == "sqlite" else self.postgres


def shared(script: str) -> Step:
    """A step written once: ``script`` with its placeholders in each dialect's words."""
    template = Template(script)
    return Step(template.substitute(SQLITE_WORDS), template.substitute(POSTGRES_WORDS))


def per_dialect(*, sqlite: str, postgres: str) -> Step:
    """A step whose statements differ by dialect."""
    return Step(sqlite, postgres)


MIGRATIONS: list[Step] = [
    # 1: games, seats, the append-only action log, per-user and per-guild settings.
    shared(
        """
    CREATE TABLE games (
        id $ID,
        guild_id $BIGINT NOT NULL,
        channel_id $BIGINT NOT NULL,
        slug TEXT NOT NULL,
        status TEXT NOT NULL
            CHECK (status IN ('lobby', 'running', 'paused', 'finished', 'cancelled')),
        host_id $BIGINT NOT NULL,
        players INTEGER NOT NULL,
        options TEXT NOT NULL DEFAULT '{}',
        seed $BIGINT NOT NULL,
        version INTEGER NOT NULL DEFAULT 0,
        snapshot TEXT,
        result TEXT,
        deadline $REAL,
        created_at $REAL NOT NULL,
        updated_at $REAL NOT NULL
    );
    CREATE INDEX games_by_guild ON games (guild_id, status);
    CREATE INDEX games_by_channel ON games (channel_id, status);
    CREATE INDEX games_by_deadline ON games (deadline) WHERE deadline IS NOT NULL;

    CREATE TABLE seats (
        game_id $BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        role TEXT NOT NULL,
        seat INTEGER NOT NULL,
        user_id $BIGINT NOT NULL,
        name TEXT NOT NULL,
        PRIMARY KEY (game_id, role),
        UNIQUE (game_id, seat)
    );
    CREATE INDEX seats_by_user ON seats (user_id);

    CREATE TABLE actions (
        game_id $BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        action TEXT NOT NULL,
        events TEXT NOT NULL,
        created_at $REAL NOT NULL,
        UNIQUE (game_id, seq)
    );

    CREATE TABLE users (
        user_id $BIGINT PRIMARY KEY,
        dm_closed $BOOL NOT NULL DEFAULT $FALSE,
        notify TEXT NOT NULL DEFAULT 'turns'
    );

    CREATE TABLE guild_settings (
        guild_id $BIGINT NOT NULL,
        key TEXT NOT NULL,
        value TEXT NOT NULL,
        PRIMARY KEY (guild_id, key)
    );
    """
    ),
    # 2: turn timing per game (limit, reminder, what a timeout does) and the reminder time.
    shared(
        """
    ALTER TABLE games ADD COLUMN timing TEXT NOT NULL DEFAULT '{}';
    ALTER TABLE games ADD COLUMN remind_at $REAL;
    CREATE INDEX games_by_reminder ON games (remind_at) WHERE remind_at IS NOT NULL;
    """
    ),
    # 3: the game's status message (edited in place) and its newest board post.
    shared(
        """
    ALTER TABLE games ADD COLUMN status_message_id $BIGINT;
    ALTER TABLE games ADD COLUMN board_message_id $BIGINT;
    """
    ),
    # 4: players who left a running game; games played in their own thread.
    shared(
        """
    ALTER TABLE seats ADD COLUMN $LEFT $BOOL NOT NULL DEFAULT $FALSE;
    ALTER TABLE games ADD COLUMN own_thread $BOOL NOT NULL DEFAULT $FALSE;
    """
    ),
    # 5: seats played by the computer, and at which level.
    shared(
        """
    ALTER TABLE seats ADD COLUMN computer TEXT;
    """
    ),
    # 6: the outbox: every notice of an accepted write, stored in the write's transaction and
    # sent by a delivery worker, in order within its lane (a channel, or one user's DMs).
    shared(
        """
    CREATE TABLE outbox (
        id $ID,
        game_id $BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        lane TEXT NOT NULL,
        body TEXT NOT NULL,
        created_at $REAL NOT NULL,
        attempts INTEGER NOT NULL DEFAULT 0,
        not_before $REAL,
        sent_at $REAL,
        message_id $BIGINT,
        failed TEXT
    );
    CREATE INDEX outbox_pending ON outbox (id) WHERE sent_at IS NULL AND failed IS NULL;
    """
    ),
    # 7: leases for several processes sharing one database: the process firing a game's due
    # deadline or reminder (until its lease runs out), and the one sending each lane.
    shared(
        """
    ALTER TABLE games ADD COLUMN claimed_by TEXT;
    ALTER TABLE games ADD COLUMN claimed_until $REAL;
    CREATE TABLE lanes (
        lane TEXT PRIMARY KEY,
        owner TEXT NOT NULL,
        until $REAL NOT NULL
    );
    """
    ),
    # 8: a draw offer or takeback request waiting for answers, one per game; it counts only
    # while the game is still at the version it was made at.
    shared(
        """
    CREATE TABLE offers (
        game_id $BIGINT PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
        version $BIGINT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('draw', 'takeback')),
        seat INTEGER NOT NULL,
        user_id $BIGINT NOT NULL,
        accepted TEXT NOT NULL DEFAULT '[]',
        created_at $REAL NOT NULL
    );
    """
    ),
    # 9: who watches a game (its public boards come to them by DM), and until when a user
    # is away (their turns' deadlines are stretched meanwhile).
    shared(
        """
    CREATE TABLE watchers (
        game_id $BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        user_id $BIGINT NOT NULL,
        since $REAL NOT NULL,
        PRIMARY KEY (game_id, user_id)
    );
    CREATE INDEX watchers_by_user ON watchers (user_id);
    ALTER TABLE users ADD COLUMN away_until $REAL;
    """
    ),
    # 10: each finished game's result per seat, written in the transaction that ends it, and
    # the ratings they give per server and game (``user_id`` is a computer level's negative
    # key for a computer seat). Ratings can always be rebuilt from the results.
    shared(
        """
    CREATE TABLE results (
        game_id $BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        guild_id $BIGINT NOT NULL,
        slug TEXT NOT NULL,
        user_id $BIGINT NOT NULL,
        role TEXT NOT NULL,
        rank INTEGER NOT NULL,
        won $BOOL NOT NULL,
        ended_at $REAL NOT NULL,
        computer TEXT,
        PRIMARY KEY (game_id, seat)
    );
    CREATE INDEX results_by_pool ON results (guild_id, slug, ended_at, game_id);
    CREATE INDEX results_by_player ON results (guild_id, user_id);

    CREATE TABLE ratings (
        guild_id $BIGINT NOT NULL,
        slug TEXT NOT NULL,
        user_id $BIGINT NOT NULL,
        mu $REAL NOT NULL,
        sigma $REAL NOT NULL,
        games INTEGER NOT NULL,
        wins INTEGER NOT NULL,
        PRIMARY KEY (guild_id, slug, user_id)
    );
    CREATE INDEX ratings_by_player ON ratings (guild_id, user_id);
    """
    ),
    # 11: a server's corrected data files (uploaded with /game data), and the corrections
    # each game was opened with (so a later upload never changes a game under way).
    shared(
        """
    CREATE TABLE guild_data (
        guild_id $BIGINT NOT NULL,
        package TEXT NOT NULL,
        name TEXT NOT NULL,
        content TEXT NOT NULL,
        user_id $BIGINT NOT NULL,
        uploaded_at $REAL NOT NULL,
        PRIMARY KEY (guild_id, package, name)
    );
    ALTER TABLE games ADD COLUMN data TEXT NOT NULL DEFAULT '{}';
    """
    ),
    # 12: the game a rematch was opened from; a finished game has at most one rematch.
    shared(
        """
    ALTER TABLE games ADD COLUMN rematch_of $BIGINT;
    CREATE UNIQUE INDEX games_by_rematch ON games (rematch_of) WHERE rematch_of IS NOT NULL;
    """
    ),
    # 13: a game's notices in a lane, newest first, found without reading the whole outbox
    # (a turn's later steps read its post back from there).
    shared(
        """
    CREATE INDEX outbox_by_game ON outbox (game_id, lane, id);
    """
    ),
    # 14: a lane's waiting notices found without reading every lane's (a backlog across
    # many channels made each lane's read as long as the backlog); a notice a newer one of
    # its lane told for it is recorded as sent, with the one that did.
    shared(
        """
    CREATE INDEX outbox_waiting_by_lane ON outbox (lane, id)
        WHERE sent_at IS NULL AND failed IS NULL;
    ALTER TABLE outbox ADD COLUMN superseded_by $BIGINT;
    """
    ),
    # 15: each game's web page address, a random token (NULL: the game has no page, as on a
    # server that switched pages off); the games stored before get one each.
    per_dialect(
        sqlite="""
    ALTER TABLE games ADD COLUMN page TEXT;
    UPDATE games SET page = lower(hex(randomblob(18)));
    CREATE UNIQUE INDEX games_by_page ON games (page) WHERE page IS NOT NULL;
    """,
        postgres="""
    ALTER TABLE games ADD COLUMN page text;
    UPDATE games SET page = replace(gen_random_uuid()::text, '-', '');
    CREATE UNIQUE INDEX games_by_page ON games (page) WHERE page IS NOT NULL;
    """,
    ),
    # 16: a player's private note on a game, seen by its author only.
    shared(
        """
    CREATE TABLE notes (
        game_id $BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        user_id $BIGINT NOT NULL,
        text TEXT NOT NULL,
        updated_at $REAL NOT NULL,
        PRIMARY KEY (game_id, user_id)
    );
    CREATE INDEX notes_by_user ON notes (user_id);
    """
    ),
    # 17: how each event calls a user (/notify event:... how:...), as a JSON object of
    # event to choice; an event never chosen is called as before.
    shared(
        """
    ALTER TABLE users ADD COLUMN calls TEXT NOT NULL DEFAULT '{}';
    """
    ),
    # 18: the calls held back from a user during their quiet hours, each with its notice,
    # delivered together as one DM when ``due_at`` (the quiet hours' end) has come.
    shared(
        """
    CREATE TABLE held_calls (
        id $SERIAL,
        user_id $BIGINT NOT NULL,
        game_id $BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        body TEXT NOT NULL,
        due_at $REAL NOT NULL,
        created_at $REAL NOT NULL
    );
    CREATE INDEX held_calls_by_due ON held_calls (due_at);
    CREATE INDEX held_calls_by_user ON held_calls (user_id);
    """
    ),
    # 19: a user's digest (/notify digest:<hours>): every ``every`` seconds, when ``due_at``
    # has come, one DM of the games waiting on them if one is new since the last (``seen``:
    # the games and versions listed then).
    shared(
        """
    CREATE TABLE digests (
        user_id $BIGINT PRIMARY KEY,
        every $REAL NOT NULL,
        due_at $REAL NOT NULL,
        seen TEXT NOT NULL DEFAULT ''
    );
    CREATE INDEX digests_by_due ON digests (due_at);
    """
    ),
    # 20: a digest has a kind: ``turns`` (the games waiting on the player, as before) or
    # ``watching`` (the newest positions of the games they watch, instead of each board).
    # SQLite cannot change a primary key in place: the table is made again.
    per_dialect(
        sqlite="""
    CREATE TABLE digests_by_kind (
        user_id INTEGER NOT NULL,
        kind TEXT NOT NULL DEFAULT 'turns',
        every REAL NOT NULL,
        due_at REAL NOT NULL,
        seen TEXT NOT NULL DEFAULT '',
        PRIMARY KEY (user_id, kind)
    );
    INSERT INTO digests_by_kind (user_id, every, due_at, seen)
        SELECT user_id, every, due_at, seen FROM digests;
    DROP TABLE digests;
    ALTER TABLE digests_by_kind RENAME TO digests;
    CREATE INDEX digests_by_due ON digests (due_at);
    """,
        postgres="""
    ALTER TABLE digests ADD COLUMN kind text NOT NULL DEFAULT 'turns';
    ALTER TABLE digests DROP CONSTRAINT digests_pkey;
    ALTER TABLE digests ADD PRIMARY KEY (user_id, kind);
    """,
    ),
    # 21: what a notice's nonce was last sent showing (a digest of the notice), written
    # before a send that may make a message: a later send under the same nonce that
    # shows something else knows Discord may answer with the message made then.
    shared(
        """
    ALTER TABLE outbox ADD COLUMN shown TEXT;
    """
    ),
    # 22: the version an offer waits at and its lapse notice (the outbox entry's lane and
    # body, as JSON), on the game's own row: the write that bumps the version past it
    # reads them back from the row it bumps, even one whose statement began before the
    # offer was made, and stores the lapse notice in its own transaction.
    shared(
        """
    ALTER TABLE games ADD COLUMN offer_version INTEGER;
    ALTER TABLE games ADD COLUMN offer_lapse TEXT;
    UPDATE games SET offer_version = version
    WHERE EXISTS (SELECT 1 FROM offers o WHERE o.game_id = games.id AND o.version = games.version);
    """
    ),
    # 23: the language a user reads: the locale they chose (/language) and the Discord
    # locale code last seen from them (their later DMs are written in it).
    shared(
        """
    ALTER TABLE users ADD COLUMN language TEXT;
    ALTER TABLE users ADD COLUMN seen_locale TEXT;
    """
    ),
]


def scripts(dialect: Dialect) -> list[str]:
    """Every step's script in ``dialect``, step 1 first."""
    return [step.script(dialect) for step in MIGRATIONS]
