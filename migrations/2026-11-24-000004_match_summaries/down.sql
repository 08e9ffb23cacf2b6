DROP TABLE matches;
