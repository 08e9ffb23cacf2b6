DROP TRIGGER events_notify ON events;
DROP FUNCTION events_notify();
