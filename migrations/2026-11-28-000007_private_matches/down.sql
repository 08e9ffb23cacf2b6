DROP INDEX matches_waiting;
ALTER TABLE matches DROP COLUMN private;
