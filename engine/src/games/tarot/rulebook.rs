//! The rulebook and the documented options.

use super::*;

impl Tarot {
    pub(super) fn book(&self) -> Rulebook {
        rules::parse_rulebook("tarot", include_str!("../rulebooks/tarot.txt"))
    }

    pub(super) fn option_docs(&self) -> Vec<OptionDoc> {
        vec![
            OptionDoc {
                name: "deals",
                default: Value::Null,
                sv: "Antal givar i partiet (gjorda om givar räknas inte). null: ett varv, en giv per spelare, om inte score_limit är satt.",
                en: "Deals in the match (void deals do not count). null: one round, a deal per player, unless score_limit is set.",
            },
            OptionDoc {
                name: "score_limit",
                default: Value::Null,
                sv: "Partiet slutar efter den giv där någon når detta antal poäng. null: ingen gräns.",
                en: "The match ends after the deal in which someone reaches this many points. null: no limit.",
            },
            OptionDoc {
                name: "half_point",
                default: json!("text"),
                sv: "\"text\": en udda halv poäng går alltid till motspelarna (texten); \"fft\": till den sida som vinner (förbundet).",
                en: "\"text\": an odd half point always goes to the defence (the text); \"fft\": to the side that wins (the federation).",
            },
            OptionDoc {
                name: "petit_au_bout",
                default: json!(true),
                sv: "Ettan sist: 10 gånger faktorn till den sida som tar sista sticket med ettan i.",
                en: "Petit au bout: 10 times the factor to the side taking the last trick with the Petit in it.",
            },
            OptionDoc {
                name: "poignee",
                default: json!(true),
                sv: "Enkel, dubbel och trippel hand: 20, 30 eller 40 för många visade trumf.",
                en: "Single, double and triple poignée: 20, 30 or 40 for many trumps shown.",
            },
            OptionDoc {
                name: "trost",
                default: json!(true),
                sv: "Tröst: 10 av var och en till den som saknar klädda kort.",
                en: "Tröst: 10 from each player to one who has no court card.",
            },
            OptionDoc {
                name: "slam",
                default: json!(true),
                sv: "Slam: annonsering, utspel, +400/+200/-200 och motspelarnas slam.",
                en: "Slam: announcement, lead, +400/+200/-200 and the defence's slam.",
            },
        ]
    }
}
