-- Private matches (issue 44): joined with an invitation code, never in the lobby nor in a list
-- without a token. Matches from before were all public.
ALTER TABLE matches ADD COLUMN private boolean NOT NULL DEFAULT false;

-- The sweep for waiting matches past their time reads the oldest waiting ones first.
CREATE INDEX matches_waiting ON matches (created_at) WHERE phase = 'waiting';
