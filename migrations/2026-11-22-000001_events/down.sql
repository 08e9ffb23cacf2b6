DROP TRIGGER events_append_only ON events;
DROP FUNCTION events_are_append_only();
DROP TABLE idempotency;
DROP TABLE events;
