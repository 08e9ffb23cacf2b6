//! Kortbord's rules engine: pure and deterministic (no I/O, no clock, no randomness inside a
//! rule). Each game is one module behind [`game::Rules`]; the service sees them through the
//! object-safe [`game::Game`] and [`game::Match`].

pub mod asking;
pub mod betting;
pub mod bidding;
pub mod bots;
pub mod capture;
pub mod cards;
pub mod catalog;
pub mod climb;
pub mod deals;
pub mod game;
pub mod games;
pub mod knowledge;
pub mod layout;
pub mod ledger;
pub mod meld;
pub mod pile;
pub mod poker;
pub mod random;
pub mod reaction;
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

/// The playable game other than `game` that reads `command` as one of its moves, if any: what a
/// move sent to the wrong game is refused as (`wrong-game`).
pub fn other_game_reading(game: &str, command: &serde_json::Value) -> Option<&'static str> {
    playable().iter().find(|g| g.id() != game && g.reads_command(command)).map(|g| g.id())
}

pub fn game(id: &str) -> Option<&'static dyn Game> {
    playable().iter().find(|g| g.id() == id).map(|g| g.as_ref())
}
