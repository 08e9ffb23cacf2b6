CREATE OR REPLACE FUNCTION events_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('kortbord_events', n.stream_id::text || ' ' || n.version)
       FROM (SELECT stream_id, max(seq) AS version FROM appended GROUP BY stream_id) n;
    RETURN NULL;
END;
$$;
