//! The rulebook and the documented options.

use super::*;

impl Svangknack {
    pub(super) fn book(&self) -> Rulebook {
        rules::parse_rulebook("svangknack", include_str!("../rulebooks/svangknack.txt"))
    }

    pub(super) fn option_docs(&self) -> Vec<OptionDoc> {
        vec![
            OptionDoc {
                name: "stake",
                default: json!(1),
                sv: "Grundinsatsen som förhand och de två till vänster om förhand sätter in före varje giv (1 till 1 000 000).",
                en: "The base stake forehand and the two players on forehand's left put in before every deal (1 to 1,000,000).",
            },
            OptionDoc {
                name: "lowest_rank",
                default: Value::Null,
                sv: "Lekens lägsta valör, 2 till 6. null: 36 kort (från sexan) upp till sex spelare, och för fler så många lägre valörer att alla kan byta alla kort, som mest hela leken.",
                en: "The pack's lowest rank, 2 to 6. null: 36 cards (six up) for up to six players, and for more as many lower ranks as let everyone exchange every card, at most the whole pack.",
            },
            OptionDoc {
                name: "rounds",
                default: json!(1),
                sv: "Antal varv där var och en ger en gång (1 till 100); därefter spelar man tills potten går ut.",
                en: "Rounds in which each player deals once (1 to 100); after them play goes on until the pot goes out.",
            },
        ]
    }
}
