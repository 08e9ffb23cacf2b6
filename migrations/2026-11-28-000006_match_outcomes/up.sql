-- A finished match's outcome in lists (issue 44); null while playing, and for summaries written before.
ALTER TABLE matches ADD COLUMN outcome jsonb;
