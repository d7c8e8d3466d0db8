"""The PostgreSQL migration steps as released (see the package), unchanged."""

from __future__ import annotations

MIGRATIONS: list[str] = [
    # 1: games, seats, the append-only action log, per-user and per-guild settings.
    """
    CREATE TABLE games (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        guild_id bigint NOT NULL,
        channel_id bigint NOT NULL,
        slug text NOT NULL,
        status text NOT NULL
            CHECK (status IN ('lobby', 'running', 'paused', 'finished', 'cancelled')),
        host_id bigint NOT NULL,
        players integer NOT NULL,
        options text NOT NULL DEFAULT '{}',
        seed bigint NOT NULL,
        version integer NOT NULL DEFAULT 0,
        snapshot text,
        result text,
        deadline double precision,
        created_at double precision NOT NULL,
        updated_at double precision NOT NULL
    );
    CREATE INDEX games_by_guild ON games (guild_id, status);
    CREATE INDEX games_by_channel ON games (channel_id, status);
    CREATE INDEX games_by_deadline ON games (deadline) WHERE deadline IS NOT NULL;

    CREATE TABLE seats (
        game_id bigint NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        role text NOT NULL,
        seat integer NOT NULL,
        user_id bigint NOT NULL,
        name text NOT NULL,
        PRIMARY KEY (game_id, role),
        UNIQUE (game_id, seat)
    );
    CREATE INDEX seats_by_user ON seats (user_id);

    CREATE TABLE actions (
        game_id bigint NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        seq integer NOT NULL,
        seat integer NOT NULL,
        action text NOT NULL,
        events text NOT NULL,
        created_at double precision NOT NULL,
        UNIQUE (game_id, seq)
    );

    CREATE TABLE users (
        user_id bigint PRIMARY KEY,
        dm_closed boolean NOT NULL DEFAULT false,
        notify text NOT NULL DEFAULT 'turns'
    );

    CREATE TABLE guild_settings (
        guild_id bigint NOT NULL,
        key text NOT NULL,
        value text NOT NULL,
        PRIMARY KEY (guild_id, key)
    );
    """,
    # 2: turn timing per game (limit, reminder, what a timeout does) and the reminder time.
    """
    ALTER TABLE games ADD COLUMN timing text NOT NULL DEFAULT '{}';
    ALTER TABLE games ADD COLUMN remind_at double precision;
    CREATE INDEX games_by_reminder ON games (remind_at) WHERE remind_at IS NOT NULL;
    """,
    # 3: the game's status message (edited in place) and its newest board post.
    """
    ALTER TABLE games ADD COLUMN status_message_id bigint;
    ALTER TABLE games ADD COLUMN board_message_id bigint;
    """,
    # 4: players who left a running game; games played in their own thread.
    """
    ALTER TABLE seats ADD COLUMN "left" boolean NOT NULL DEFAULT false;
    ALTER TABLE games ADD COLUMN own_thread boolean NOT NULL DEFAULT false;
    """,
    # 5: seats played by the computer, and at which level.
    """
    ALTER TABLE seats ADD COLUMN computer text;
    """,
    # 6: the outbox: every notice of an accepted write, stored in the write's transaction and
    # sent by a delivery worker, in order within its lane (a channel, or one user's DMs).
    """
    CREATE TABLE outbox (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        game_id bigint NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        lane text NOT NULL,
        body text NOT NULL,
        created_at double precision NOT NULL,
        attempts integer NOT NULL DEFAULT 0,
        not_before double precision,
        sent_at double precision,
        message_id bigint,
        failed text
    );
    CREATE INDEX outbox_pending ON outbox (id) WHERE sent_at IS NULL AND failed IS NULL;
    """,
    # 7: leases for several processes sharing one database: the process firing a game's due
    # deadline or reminder (until its lease runs out), and the one sending each lane.
    """
    ALTER TABLE games ADD COLUMN claimed_by text;
    ALTER TABLE games ADD COLUMN claimed_until double precision;
    CREATE TABLE lanes (
        lane text PRIMARY KEY,
        owner text NOT NULL,
        until double precision NOT NULL
    );
    """,
    # 8: a draw offer or takeback request waiting for answers, one per game; it counts only
    # while the game is still at the version it was made at.
    """
    CREATE TABLE offers (
        game_id bigint PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
        version bigint NOT NULL,
        kind text NOT NULL CHECK (kind IN ('draw', 'takeback')),
        seat integer NOT NULL,
        user_id bigint NOT NULL,
        accepted text NOT NULL DEFAULT '[]',
        created_at double precision NOT NULL
    );
    """,
    # 9: who watches a game (its public boards come to them by DM), and until when a user
    # is away (their turns' deadlines are stretched meanwhile).
    """
    CREATE TABLE watchers (
        game_id bigint NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        user_id bigint NOT NULL,
        since double precision NOT NULL,
        PRIMARY KEY (game_id, user_id)
    );
    CREATE INDEX watchers_by_user ON watchers (user_id);
    ALTER TABLE users ADD COLUMN away_until double precision;
    """,
    # 10: each finished game's result per seat, written in the transaction that ends it, and
    # the ratings they give per server and game (``user_id`` is a computer level's negative
    # key for a computer seat). Ratings can always be rebuilt from the results.
    """
    CREATE TABLE results (
        game_id bigint NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        seat integer NOT NULL,
        guild_id bigint NOT NULL,
        slug text NOT NULL,
        user_id bigint NOT NULL,
        role text NOT NULL,
        rank integer NOT NULL,
        won boolean NOT NULL,
        ended_at double precision NOT NULL,
        computer text,
        PRIMARY KEY (game_id, seat)
    );
    CREATE INDEX results_by_pool ON results (guild_id, slug, ended_at, game_id);
    CREATE INDEX results_by_player ON results (guild_id, user_id);

    CREATE TABLE ratings (
        guild_id bigint NOT NULL,
        slug text NOT NULL,
        user_id bigint NOT NULL,
        mu double precision NOT NULL,
        sigma double precision NOT NULL,
        games integer NOT NULL,
        wins integer NOT NULL,
        PRIMARY KEY (guild_id, slug, user_id)
    );
    CREATE INDEX ratings_by_player ON ratings (guild_id, user_id);
    """,
    # 11: a server's corrected data files (uploaded with /game data), and the corrections
    # each game was opened with (so a later upload never changes a game under way).
    """
    CREATE TABLE guild_data (
        guild_id bigint NOT NULL,
        package text NOT NULL,
        name text NOT NULL,
        content text NOT NULL,
        user_id bigint NOT NULL,
        uploaded_at double precision NOT NULL,
        PRIMARY KEY (guild_id, package, name)
    );
    ALTER TABLE games ADD COLUMN data text NOT NULL DEFAULT '{}';
    """,
    # 12: the game a rematch was opened from; a finished game has at most one rematch.
    """
    ALTER TABLE games ADD COLUMN rematch_of bigint;
    CREATE UNIQUE INDEX games_by_rematch ON games (rematch_of) WHERE rematch_of IS NOT NULL;
    """,
    # 13: a game's notices in a lane, newest first, found without reading the whole outbox
    # (a turn's later steps read its post back from there).
    """
    CREATE INDEX outbox_by_game ON outbox (game_id, lane, id);
    """,
    # 14: a lane's waiting notices found without reading every lane's (a backlog across
    # many channels made each lane's read as long as the backlog); a notice a newer one of
    # its lane told for it is recorded as sent, with the one that did.
    """
    CREATE INDEX outbox_waiting_by_lane ON outbox (lane, id)
        WHERE sent_at IS NULL AND failed IS NULL;
    ALTER TABLE outbox ADD COLUMN superseded_by bigint;
    """,
    # 15: each game's web page address, a random token (NULL: the game has no page, as on a
    # server that switched pages off); the games stored before get one each.
    """
    ALTER TABLE games ADD COLUMN page text;
    UPDATE games SET page = replace(gen_random_uuid()::text, '-', '');
    CREATE UNIQUE INDEX games_by_page ON games (page) WHERE page IS NOT NULL;
    """,
    # 16: a player's private note on a game, seen by its author only.
    """
    CREATE TABLE notes (
        game_id bigint NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        user_id bigint NOT NULL,
        text text NOT NULL,
        updated_at double precision NOT NULL,
        PRIMARY KEY (game_id, user_id)
    );
    CREATE INDEX notes_by_user ON notes (user_id);
    """,
    # 17: how each event calls a user (/notify event:... how:...), as a JSON object of
    # event to choice; an event never chosen is called as before.
    """
    ALTER TABLE users ADD COLUMN calls text NOT NULL DEFAULT '{}';
    """,
    # 18: the calls held back from a user during their quiet hours, each with its notice,
    # delivered together as one DM when ``due_at`` (the quiet hours' end) has come.
    """
    CREATE TABLE held_calls (
        id bigserial PRIMARY KEY,
        user_id bigint NOT NULL,
        game_id bigint NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        body text NOT NULL,
        due_at double precision NOT NULL,
        created_at double precision NOT NULL
    );
    CREATE INDEX held_calls_by_due ON held_calls (due_at);
    CREATE INDEX held_calls_by_user ON held_calls (user_id);
    """,
    # 19: a user's digest (/notify digest:<hours>): every ``every`` seconds, when ``due_at``
    # has come, one DM of the games waiting on them if one is new since the last (``seen``:
    # the games and versions listed then).
    """
    CREATE TABLE digests (
        user_id bigint PRIMARY KEY,
        every double precision NOT NULL,
        due_at double precision NOT NULL,
        seen text NOT NULL DEFAULT ''
    );
    CREATE INDEX digests_by_due ON digests (due_at);
    """,
    # 20: a digest has a kind: ``turns`` (the games waiting on the player, as before) or
    # ``watching`` (the newest positions of the games they watch, instead of each board).
    """
    ALTER TABLE digests ADD COLUMN kind text NOT NULL DEFAULT 'turns';
    ALTER TABLE digests DROP CONSTRAINT digests_pkey;
    ALTER TABLE digests ADD PRIMARY KEY (user_id, kind);
    """,
    # 21: what a notice's nonce was last sent showing (a digest of the notice), written
    # before a send that may make a message: a later send under the same nonce that
    # shows something else knows Discord may answer with the message made then.
    """
    ALTER TABLE outbox ADD COLUMN shown text;
    """,
    # 22: the version an offer waits at and its lapse notice (the outbox entry's lane and
    # body, as JSON), on the game's own row: the write that bumps the version past it
    # reads them back from the row it bumps, even one whose statement began before the
    # offer was made, and stores the lapse notice in its own transaction.
    """
    ALTER TABLE games ADD COLUMN offer_version integer;
    ALTER TABLE games ADD COLUMN offer_lapse text;
    UPDATE games SET offer_version = version
    WHERE EXISTS (SELECT 1 FROM offers o WHERE o.game_id = games.id AND o.version = games.version);
    """,
    # 23: the language a user reads: the locale they chose (/language) and the Discord
    # locale code last seen from them (their later DMs are written in it).
    """
    ALTER TABLE users ADD COLUMN language text;
    ALTER TABLE users ADD COLUMN seen_locale text;
    """,
]
