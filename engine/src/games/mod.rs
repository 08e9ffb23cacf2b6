//! One module per game.

use crate::game::{erase, Game};

pub mod plump;

pub fn all() -> Vec<Box<dyn Game>> {
    vec![erase(plump::Plump)]
}
