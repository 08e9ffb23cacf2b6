//! One module per game.

use crate::game::{erase, Game};

pub mod fyrmanswhist;
pub mod japansk_whist;
pub mod plump;
pub mod polskt_pass;
pub mod priffe;
pub mod spader;
pub mod svangknack;
pub mod tarot;

pub fn all() -> Vec<Box<dyn Game>> {
    vec![
        erase(plump::Plump),
        erase(spader::Spader),
        erase(polskt_pass::PolsktPass),
        erase(svangknack::Svangknack),
        erase(tarot::Tarot),
        erase(fyrmanswhist::Fyrmanswhist),
        erase(japansk_whist::JapanskWhist),
        erase(priffe::Priffe),
    ]
}
