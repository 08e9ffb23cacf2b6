DROP INDEX matches_due;
ALTER TABLE matches DROP COLUMN due_at;
