-- A player's own stream (`GET /v1/me/stream`, issue 44) hears of the matches a player creates or
-- joins on any node: the notification also names who made the append (its first event's actor),
-- "<stream id> <version> <actor>". Listeners that read only the first two fields read it as before.
CREATE OR REPLACE FUNCTION events_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('kortbord_events', n.stream_id::text || ' ' || n.version || ' ' || n.actor)
       FROM (SELECT stream_id, max(seq) AS version, (array_agg(actor ORDER BY seq))[1] AS actor
               FROM appended GROUP BY stream_id) n;
    RETURN NULL;
END;
$$;
