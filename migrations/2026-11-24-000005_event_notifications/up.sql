-- Live updates across nodes: every statement that appends events tells the listening nodes
-- which matches moved and to which version ("<stream id> <version>", one notification per
-- match). A node holding an open event stream for a match reads its new events then; nothing
-- polls the events table. Notifications are sent on commit, so a listener never hears of an
-- append it cannot yet read.
CREATE FUNCTION events_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('kortbord_events', n.stream_id::text || ' ' || n.version)
       FROM (SELECT stream_id, max(seq) AS version FROM appended GROUP BY stream_id) n;
    RETURN NULL;
END;
$$;

CREATE TRIGGER events_notify
    AFTER INSERT ON events
    REFERENCING NEW TABLE AS appended
    FOR EACH STATEMENT EXECUTE FUNCTION events_notify();
