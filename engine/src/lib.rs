//! Kortbord's rules engine: pure and deterministic (no I/O, no clock, no randomness inside a
//! rule). Each game is one module behind [`game::Rules`]; the service sees them through the
//! object-safe [`game::Game`] and [`game::Match`].

pub mod bidding;
pub mod bots;
pub mod cards;
pub mod catalog;
pub mod deals;
pub mod game;
pub mod games;
pub mod ledger;
pub mod random;
pub mod rules;
pub mod schema;
pub mod seat;
pub mod simulate;
pub mod trick;

use std::sync::OnceLock;

use game::Game;

/// Every playable game, by id.
pub fn playable() -> &'static [Box<dyn Game>] {
    static GAMES: OnceLock<Vec<Box<dyn Game>>> = OnceLock::new();
    GAMES.get_or_init(games::all)
}

pub fn game(id: &str) -> Option<&'static dyn Game> {
    playable().iter().find(|g| g.id() == id).map(|g| g.as_ref())
}
