-- Every match is one stream of events, appended in order and never changed.
CREATE TABLE events (
    stream_id       uuid        NOT NULL,
    seq             bigint      NOT NULL CHECK (seq >= 1),
    event_type      text        NOT NULL,
    -- The deal the event belongs to (0 before the first deal), for per-deal reads and redaction.
    deal            integer     NOT NULL CHECK (deal >= 0),
    data            jsonb       NOT NULL,
    -- A player id, "bot:<seat>" or "service" (dealing).
    actor           text        NOT NULL,
    idempotency_key text,
    recorded_at     timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (stream_id, seq)
);

CREATE INDEX events_stream_deal ON events (stream_id, deal, seq);

-- A retried match creation finds the match its first attempt made.
CREATE UNIQUE INDEX events_creation_key ON events (actor, idempotency_key)
    WHERE seq = 1 AND idempotency_key IS NOT NULL;

-- Stored answers to requests that carried an Idempotency-Key, keyed by stream so that the
-- append and the answer live on the same shard when the tables are distributed by stream.
CREATE TABLE idempotency (
    stream_id     uuid        NOT NULL,
    player_id     uuid        NOT NULL,
    key           text        NOT NULL,
    request_hash  text        NOT NULL,
    status        smallint    NOT NULL,
    body          jsonb       NOT NULL,
    created_at    timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (stream_id, player_id, key)
);

CREATE FUNCTION events_are_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'events are append-only: % is not allowed', TG_OP;
END;
$$;

CREATE TRIGGER events_append_only
    BEFORE UPDATE OR DELETE ON events
    FOR EACH ROW EXECUTE FUNCTION events_are_append_only();
