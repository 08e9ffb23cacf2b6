-- A match of a game decided on the server's clock (the reaction games) moves on by itself: a
-- reaction window closes, a bot reacts after its delay. `due_at` is when that next happens, written
-- with the summary in the statement that appends the events it follows from (so it is never
-- behind the log); every node's sweep finds the matches whose time has come (issue 41).
ALTER TABLE matches ADD COLUMN due_at timestamptz;
CREATE INDEX matches_due ON matches (due_at) WHERE due_at IS NOT NULL;
