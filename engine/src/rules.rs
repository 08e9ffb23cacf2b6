//! Rulebooks, rule violations and score breakdowns: the engine's explanations.
//!
//! Every rule has a stable id (`spader.lead.spades-not-broken`) and a short text in Swedish and
//! English, written in our own words. A refused move names the rule it breaks and says, in both
//! languages, what the player did and what the rule requires.

use serde::{Deserialize, Serialize};

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct Text {
    pub sv: String,
    pub en: String,
}

impl Text {
    pub fn new(sv: impl Into<String>, en: impl Into<String>) -> Text {
        Text { sv: sv.into(), en: en.into() }
    }

    pub fn get(&self, lang: Lang) -> &str {
        match lang {
            Lang::Sv => &self.sv,
            Lang::En => &self.en,
        }
    }
}

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Lang {
    Sv,
    #[default]
    En,
}

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, Serialize)]
pub struct Rule {
    pub id: &'static str,
    pub sv: &'static str,
    pub en: &'static str,
    /// A choice the texts leave open that we settled ("house rule"), or an option's effect.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub house_rule: bool,
}

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, Serialize)]
pub struct Section {
    pub id: &'static str,
    pub title_sv: &'static str,
    pub title_en: &'static str,
    pub rules: Vec<Rule>,
}

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, Serialize)]
pub struct Rulebook {
    pub game: &'static str,
    pub sections: Vec<Section>,
}

impl Rulebook {
    pub fn rule(&self, id: &str) -> Option<&Rule> {
        self.sections.iter().flat_map(|s| &s.rules).find(|r| r.id == id)
    }

    pub fn rule_ids(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.sections.iter().flat_map(|s| s.rules.iter().map(|r| r.id))
    }
}

/// Reads a rulebook kept as text beside its game (`games/rulebooks/<game>.txt`), so that the
/// prose can be read and translated without reading Rust. The format, line by line:
/// `core` (the shared section), `section <id>` or `house <id>` (a section of house rules)
/// followed by its titles as `sv …` and `en …` lines (a house section may leave them out), and
/// for each rule its id alone on a line followed by `sv …` and `en …`; `option <name>` followed
/// by `sv …` and `en …` describes one of the game's options (read by [`parse_options`], not a
/// rule). Lines starting with `#` and blank lines are skipped. A malformed file is a bug that
/// every test meets at once.
pub fn parse_rulebook(game: &'static str, text: &'static str) -> Rulebook {
    let mut sections: Vec<Section> = Vec::new();
    let mut house = false;
    let mut lines = text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')).peekable();
    let texts = |lines: &mut std::iter::Peekable<_>| -> Option<(&'static str, &'static str)> {
        let take = |lines: &mut std::iter::Peekable<_>, lang: &str| -> Option<&'static str> {
            let line: &'static str = lines.peek().copied()?;
            let rest = line.strip_prefix(lang)?.strip_prefix(' ')?;
            lines.next();
            Some(rest)
        };
        let sv = take(lines, "sv")?;
        let en = take(lines, "en").unwrap_or_else(|| panic!("{game}: {sv:?} has no English text"));
        Some((sv, en))
    };
    while let Some(line) = lines.next() {
        let (word, id) = line.split_once(' ').unwrap_or((line, ""));
        match word {
            "core" => sections.push(core::section()),
            "option" => {
                texts(&mut lines).unwrap_or_else(|| panic!("{game}: option {id} has no texts"));
            }
            "section" | "house" => {
                house = word == "house";
                let (title_sv, title_en) = texts(&mut lines).unwrap_or_else(|| {
                    assert!(house, "{game}: section {id} has no titles");
                    ("Husregler och tolkningar", "House rules and interpretations")
                });
                sections.push(Section { id, title_sv, title_en, rules: Vec::new() });
            }
            _ => {
                let (sv, en) = texts(&mut lines).unwrap_or_else(|| panic!("{game}: rule {line} has no texts"));
                let section = sections.last_mut().unwrap_or_else(|| panic!("{game}: rule {line} outside a section"));
                section.rules.push(Rule { id: line, sv, en, house_rule: house });
            }
        }
    }
    Rulebook { game, sections }
}

/// The descriptions of a game's options in its rulebook text (`option <name>`, see
/// [`parse_rulebook`]), in the order written: `(name, sv, en)`.
pub fn parse_options(text: &'static str) -> Vec<(&'static str, &'static str, &'static str)> {
    let lines: Vec<&'static str> =
        text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')).collect();
    lines
        .windows(3)
        .filter_map(|w| {
            let name = w[0].strip_prefix("option ")?;
            let sv = w[1].strip_prefix("sv ")?;
            let en = w[2].strip_prefix("en ")?;
            Some((name, sv, en))
        })
        .collect()
}

/// Builds a section from `(id, sv, en)` triples; ids are written in full so that a grep for a
/// rule id finds its text.
pub fn section(
    id: &'static str,
    title_sv: &'static str,
    title_en: &'static str,
    rules: &[(&'static str, &'static str, &'static str)],
) -> Section {
    Section {
        id,
        title_sv,
        title_en,
        rules: rules.iter().map(|&(id, sv, en)| Rule { id, sv, en, house_rule: false }).collect(),
    }
}

/// Like [`section`], for choices the source text leaves open.
pub fn house_rules(id: &'static str, rules: &[(&'static str, &'static str, &'static str)]) -> Section {
    let mut s = section(id, "Husregler och tolkningar", "House rules and interpretations", rules);
    for r in &mut s.rules {
        r.house_rule = true;
    }
    s
}

/// Why a command was refused: the rule it breaks and an explanation in both languages.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct RuleViolation {
    pub rule: String,
    pub explanation: Text,
}

impl RuleViolation {
    pub fn new(rule: &str, sv: impl Into<String>, en: impl Into<String>) -> RuleViolation {
        RuleViolation { rule: rule.to_string(), explanation: Text::new(sv, en) }
    }

    pub fn not_your_turn(seat: usize) -> RuleViolation {
        RuleViolation::new(
            core::TURN,
            format!("Det är inte plats {seat}s tur att göra detta nu."),
            format!("It is not seat {seat}'s turn to do this now."),
        )
    }

    pub fn wrong_phase(sv: &str, en: &str) -> RuleViolation {
        RuleViolation::new(
            core::PHASE,
            format!("Det draget passar inte nu: {sv}."),
            format!("That move does not fit now: {en}."),
        )
    }

    pub fn card_not_held(card: crate::cards::Card) -> RuleViolation {
        RuleViolation::new(
            core::CARD_NOT_HELD,
            format!("Du har inte {card} på handen."),
            format!("You do not hold {card}."),
        )
    }
}

impl std::fmt::Display for RuleViolation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.rule, self.explanation.en)
    }
}

/// Rules every game shares.
pub mod core {
    pub const TURN: &str = "core.turn";
    pub const PHASE: &str = "core.phase";
    pub const CARD_NOT_HELD: &str = "core.card-not-held";
    pub const DECK: &str = "core.deck";
    pub const MATCH_OVER: &str = "core.match-over";

    pub fn section() -> super::Section {
        super::section(
            "core",
            "Allmänt",
            "General",
            &[
                (TURN, "Man agerar bara när det är ens tur.", "You act only when it is your turn."),
                (PHASE, "Ett drag måste passa spelets läge: man kan inte bjuda under spelet eller spela kort under budgivningen.", "A move must fit the state of the deal: no bidding during play, no cards during bidding."),
                (CARD_NOT_HELD, "Man kan bara spela kort man har på handen.", "You can only play cards you hold."),
                (DECK, "Varje giv börjar med en blandad kortlek av rätt sammansättning; ordningen sparas så att given kan spelas upp igen.", "Every deal starts from a shuffled pack of the right composition; its order is recorded so the deal can be replayed."),
                (MATCH_OVER, "När partiet är slut görs inga fler drag.", "Once the match is over no more moves are made."),
            ],
        )
    }
}

/// One term of a score: who gets it, how much, under which rule, and in words.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct ScoreTerm {
    /// The seat, or for partnership games the side, that the term is credited to.
    pub to: usize,
    pub points: i64,
    pub rule: String,
    pub explanation: Text,
}

impl ScoreTerm {
    pub fn new(to: usize, points: i64, rule: &str, sv: String, en: String) -> ScoreTerm {
        ScoreTerm { to, points, rule: rule.to_string(), explanation: Text::new(sv, en) }
    }
}
