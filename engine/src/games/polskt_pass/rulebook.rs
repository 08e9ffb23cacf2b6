//! The rulebook and the documented options.

use super::*;

impl PolsktPass {
    pub(super) fn book(&self) -> Rulebook {
        rules::parse_rulebook("polskt-pass", include_str!("../rulebooks/polskt-pass.txt"))
    }

    pub(super) fn option_docs(&self) -> Vec<OptionDoc> {
        let d = Options::default();
        vec![
            OptionDoc {
                name: "stake",
                default: json!(d.stake),
                sv: "Insatsen som givaren lägger i potten i början av varje giv (1 till 1 000 000).",
                en: "The stake the dealer puts into the pot at the start of every deal (1 to 1,000,000).",
            },
            OptionDoc {
                name: "double_bet",
                default: json!(d.double_bet),
                sv: "En misslyckad spelförares bet är dubbla beloppet man spelade om, i stället för lika mycket.",
                en: "A failed declarer's bet is twice the amount played for, instead of the same amount.",
            },
            OptionDoc {
                name: "merge_bets",
                default: json!(d.merge_bets),
                sv: "Misslyckas två spelförare i samma giv slås deras betar ihop till en enda dubbelt så stor bet.",
                en: "When two declarers fail in the same deal, their bets are merged into one bet twice the size.",
            },
            OptionDoc {
                name: "rounds",
                default: json!(d.rounds),
                sv: "Hur många gånger var och en ger innan partiet är slut (1 till 10).",
                en: "How many times each player deals before the match ends (1 to 10).",
            },
        ]
    }
}
