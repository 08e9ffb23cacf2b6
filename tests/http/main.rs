//! End-to-end tests: the service over HTTP against a real PostgreSQL.

mod bad_input;
mod batch;
mod bots;
mod concurrency;
mod contract;
mod deadlines;
mod docs;
mod every_game;
mod exchange;
mod hidden_cards;
mod leaving;
mod lists;
mod lobby;
mod matches;
mod nodes;
mod phone;
mod play;
mod probe;
mod reactions;
mod replay_page;
mod replica;
mod security;
mod stream;
mod talon;
