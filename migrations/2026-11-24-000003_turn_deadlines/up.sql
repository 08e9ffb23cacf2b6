-- Matches whose turns have a deadline. The deadline itself is not stored: it is the time of the
-- match's last event plus `turn_seconds`, so every node's sweep finds it from the log, and it
-- survives any node. `idle_version` is the version at which a sweep last found nothing due
-- (the match waits for players, or a person is to act in time), so a sweep does not look at
-- that match again until it changes; `finished` ends its sweeping.
CREATE TABLE timed_matches (
    stream_id     uuid    PRIMARY KEY,
    turn_seconds  integer NOT NULL CHECK (turn_seconds > 0),
    idle_version  bigint  NOT NULL DEFAULT 0,
    finished      boolean NOT NULL DEFAULT false
);

CREATE INDEX timed_matches_running ON timed_matches (stream_id) WHERE NOT finished;
