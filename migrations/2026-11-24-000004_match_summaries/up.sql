-- One row per match: what lists and the lobby show without replaying anything. The log stays
-- the truth: the row is written in the same statement as the events it summarises (so it is
-- never behind a committed append), and a service that finds a match without one rebuilds it
-- from the log at start-up.
CREATE TABLE matches (
    stream_id   uuid        PRIMARY KEY,
    game        text        NOT NULL,
    -- waiting (open seats), playing or finished: the match view's `phase`.
    phase       text        NOT NULL CHECK (phase IN ('waiting', 'playing', 'finished')),
    version     bigint      NOT NULL CHECK (version >= 1),
    open_seats  integer     NOT NULL CHECK (open_seats >= 0),
    -- The player ids seated (a JSON array of strings), for "my matches".
    players     jsonb       NOT NULL,
    -- The seats as everyone sees them (`SeatOut`), and the seats to act now.
    seats       jsonb       NOT NULL,
    to_act      jsonb       NOT NULL,
    created_at  timestamptz NOT NULL,
    updated_at  timestamptz NOT NULL
);

-- Lists are newest first, with (created_at, stream_id) as the cursor: a match's place in a list
-- never moves while someone pages through it.
CREATE INDEX matches_newest ON matches (created_at DESC, stream_id DESC);
CREATE INDEX matches_players ON matches USING gin (players jsonb_path_ops);
CREATE INDEX matches_lobby ON matches (game, created_at DESC, stream_id DESC) WHERE open_seats > 0;
