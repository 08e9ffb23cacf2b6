//! The 46 games of the catalog (`shared/games.md`): ids never change once released.

use serde::Serialize;

#[derive(Clone, Copy, Debug, Serialize)]
pub struct GameInfo {
    pub id: &'static str,
    pub name_sv: &'static str,
    pub name_en: &'static str,
    pub min_players: usize,
    pub max_players: usize,
    /// The pack, in words.
    pub deck: &'static str,
    pub family: &'static str,
    /// Where the rules come from: seed file and section.
    pub source: &'static str,
}

#[allow(clippy::too_many_arguments)] // one catalog row, read like the table in games.md
const fn g(
    id: &'static str,
    name_sv: &'static str,
    name_en: &'static str,
    min_players: usize,
    max_players: usize,
    deck: &'static str,
    family: &'static str,
    source: &'static str,
) -> GameInfo {
    GameInfo { id, name_sv, name_en, min_players, max_players, deck, family, source }
}

pub const CATALOG: &[GameInfo] = &[
    g(
        "polskt-pass",
        "Polskt pass",
        "Polskt pass",
        3,
        5,
        "24 (9-A), 28 (8-A) for 5 players",
        "trick, pot and bets",
        "000",
    ),
    g("svangknack", "Svängknack", "Svängknack", 3, 12, "36 (6-A), more low cards above 6 players", "trick, pot", "003"),
    g("tarot", "Tarot", "French Tarot", 3, 5, "78 tarot", "trick, contracts", "004 + rules-notes"),
    g("fyrtioett", "Fyrtioett", "Forty-one", 4, 4, "52", "trick, bids", "001 Fyrtioett regler"),
    g("spader", "Spader", "Spades", 4, 4, "52", "trick, bids", "001 Spader regler"),
    g("chicago", "Chicago", "Chicago", 2, 4, "52", "poker hands + tricks", "001 Chicago regler"),
    g("vandatta", "Vändåtta", "Crazy Eights", 2, 8, "52, 104 from 5 players", "shedding", "001 Vändåtta"),
    g("fyrmanswhist", "Fyrmanswhist", "Fyrmanswhist", 4, 4, "52", "trick", "001 Fyrmanswhist regler"),
    g("gurka", "Gurka", "Cucumber", 3, 8, "52", "trick-like, elimination", "001 Gurka regler"),
    g("stortok", "Stortok", "Stortok", 3, 5, "36 (6-A)", "beating, elimination", "001 Stortok regler"),
    g("plump", "Plump", "Oh Hell", 3, 8, "52", "trick, exact bids", "001 Plump regler"),
    g("fusk", "Fusk", "Cheat", 3, 10, "52, 104 from 5 players", "shedding, bluff", "001 Fusk regler"),
    g("rodskagg", "Rödskägg", "Rödskägg", 3, 7, "52", "trick, bids, etiquette penalties", "001 Rödskägg regler"),
    g(
        "lojliga-familjerna",
        "Löjliga familjerna",
        "Happy Families",
        3,
        5,
        "52",
        "asking, quartets",
        "001 Löjliga familjerna regler",
    ),
    g("femtio", "Femtio", "Femtio", 2, 6, "52", "blind trick", "001 Femtio regler"),
    g("lange-laban", "Långe Laban", "Långe Laban", 3, 4, "52", "trick-like, personal trumps", "001 Långe Laban regler"),
    g(
        "rummy",
        "Rummy",
        "Rummy",
        2,
        8,
        "52, 104 from 5 players (+ jokers variant)",
        "draw and meld",
        "001 Rummy regler",
    ),
    g("stotpoker", "Stötpoker", "Five-card Stud", 2, 10, "52", "betting", "001 Stötpoker (sökö) regler"),
    g("jazz", "Jazz", "Jazz", 3, 7, "52 less some 2s", "trick, 6 deals", "001 Jazz regler"),
    g("fan-tan", "Fan tan", "Fan Tan", 3, 7, "52", "layout shedding", "001 Fan tan regler"),
    g("priffe", "Priffe", "Preference", 4, 4, "52", "trick, contracts, rubber", "001 Priffe regler"),
    g("muggins", "Muggins", "Muggins", 3, 7, "52", "blind piles", "001 Muggins regler"),
    g("svalta-rav", "Svälta räv", "Svälta räv", 2, 4, "52", "no-skill capture", "001 Svälta räv regler"),
    g("gris", "Gris", "Pig", 4, 8, "36-44 by players", "passing + reaction", "001 Gris regler"),
    g("president", "President", "President", 3, 6, "52 (+ jokers in Trouduc)", "climbing", "001 section on this game"),
    g(
        "norrlandsknack",
        "Norrlandsknack",
        "Norrlandsknack",
        3,
        5,
        "52",
        "trick, pot, knock",
        "001 Norrlandsknack regler",
    ),
    g("femkort", "Femkort", "Femkort", 2, 10, "52", "trick, last trick wins pot", "001 Femkort regler"),
    g("trettioett", "Trettioett", "Thirty-one", 2, 7, "52", "draw, knock, pot", "001 Trettioett regler"),
    g(
        "snipp-snapp-snorum",
        "Snipp snapp snorum",
        "Snip Snap Snorem",
        2,
        8,
        "52",
        "shedding",
        "001 Snipp snapp snorum regler",
    ),
    g("stopp", "Stopp", "Stops", 3, 6, "52 (6 each)", "beating, capital", "001 Stopp regler"),
    g("krypkasino", "Krypkasino", "Krypkasino", 2, 6, "104", "fishing", "001 Krypkasino regler"),
    g(
        "femhundra",
        "Femhundra",
        "Five Hundred",
        2,
        5,
        "24-53 by players, joker",
        "trick, contracts",
        "001 Femhundra regler + rules-notes",
    ),
    g("whist", "Whist", "Whist", 4, 4, "52", "trick, rubber", "001 Whist regler"),
    g("braus", "Bräus", "Bräus", 4, 4, "36 (6-A)", "trick, special ranking", "001 Bräus regler + rules-notes"),
    g(
        "tvartom-kom-ihag",
        "Tvärtom-kom ihåg",
        "Tvärtom-kom ihåg",
        2,
        6,
        "52",
        "memory, push your luck",
        "001 Tvärtom-kom ihåg regler",
    ),
    g("blackjack", "Blackjack", "Blackjack", 1, 7, "52 x 1-8", "banking", "001 BlackJack Regler"),
    g("svarte-petter", "Svarte Petter", "Old Maid", 3, 6, "51 (no JC)", "pairing", "001 Svarte Petter regler"),
    g("poker", "Poker", "Five-card Draw", 2, 7, "52", "betting", "001 Poker regler"),
    g("hej-knekt", "Hej knekt", "Hej knekt", 3, 6, "48-52 by players", "reaction", "001 Hej knekt regler"),
    g("vandtia", "Vändtia", "Palace", 2, 8, "52, 104 from 5 players", "shedding", "001 Vändtia regler"),
    g("finns-i-sjon", "Finns i sjön", "Go Fish", 2, 5, "52", "asking, quartets", "001 Finns i sjön regler"),
    g("kasino", "Kasino", "Casino", 2, 4, "52", "fishing", "001 Kortspelet: Kasino"),
    g("kom-ihag", "Kom ihåg", "Memory", 2, 7, "52", "memory", "001 Kom ihåg!"),
    g("japansk-whist", "Japansk whist", "Japansk whist", 2, 2, "52", "trick, open cards", "002 Japansk Whist Regler"),
    g("bondtolva", "Bondtolva", "Bondtolva", 2, 2, "24 (9-A)", "trick, marriages", "002 Bondtolva regler"),
    g("skitgubbe", "Skitgubbe", "Skitgubbe", 3, 3, "52", "two phases: duels, then shedding", "002 Skitgubbe regler"),
];

pub fn info(id: &str) -> Option<&'static GameInfo> {
    CATALOG.iter().find(|g| g.id == id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_catalog_holds_all_46_games_once_each() {
        assert_eq!(CATALOG.len(), 46);
        let mut ids: Vec<&str> = CATALOG.iter().map(|g| g.id).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), 46, "duplicate ids in the catalog");
    }

    #[test]
    fn every_entry_is_well_formed() {
        for g in CATALOG {
            assert!(g.min_players >= 1, "{}: no players", g.id);
            assert!(g.min_players <= g.max_players, "{}: {} > {}", g.id, g.min_players, g.max_players);
            assert!(
                !g.id.is_empty() && g.id.chars().all(|c| c.is_ascii_lowercase() || c == '-'),
                "{}: ids are lowercase ascii words joined by dashes",
                g.id
            );
            for (what, text) in [
                ("name_sv", g.name_sv),
                ("name_en", g.name_en),
                ("deck", g.deck),
                ("family", g.family),
                ("source", g.source),
            ] {
                assert!(!text.trim().is_empty(), "{}: empty {what}", g.id);
            }
        }
    }

    #[test]
    fn the_first_playable_games_are_listed() {
        let plump = info("plump").expect("plump is in the catalog");
        assert_eq!((plump.min_players, plump.max_players), (3, 8));
        let spader = info("spader").expect("spader is in the catalog");
        assert_eq!((spader.min_players, spader.max_players), (4, 4));
        assert!(info("no-such-game").is_none());
    }

    #[test]
    fn president_is_shown_under_its_neutral_name() {
        let p = info("president").unwrap();
        assert_eq!((p.name_sv, p.name_en), ("President", "President"));
    }
}
