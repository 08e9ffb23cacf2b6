DROP TABLE timed_matches;
