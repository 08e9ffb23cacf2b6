ALTER TABLE matches DROP COLUMN outcome;
