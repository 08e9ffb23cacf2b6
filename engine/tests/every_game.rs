//! The same generic tests against every playable game (as OpenSpiel does): random legal
//! matches for every player count end with balanced books and no leaks; rulebooks and options
//! are complete; a stored log replays to the same state.

use engine::game::{Game, Status, Viewer};
use engine::simulate::{play_match, Checks};
use serde_json::{json, Value};

fn games() -> impl Iterator<Item = &'static dyn Game> {
    engine::playable().iter().map(|g| g.as_ref())
}

#[test]
fn every_playable_game_is_in_the_catalog_with_the_same_player_counts() {
    for game in games() {
        let info = engine::catalog::info(game.id()).unwrap_or_else(|| panic!("{} is not in the catalog", game.id()));
        assert_eq!(info.min_players, *game.player_counts().start(), "{}", game.id());
        assert_eq!(info.max_players, *game.player_counts().end(), "{}", game.id());
    }
}

#[test]
fn rulebooks_have_unique_ids_in_the_games_namespace_and_both_languages() {
    for game in games() {
        let book = game.rulebook();
        assert_eq!(book.game, game.id());
        let mut seen = std::collections::HashSet::new();
        for section in &book.sections {
            assert!(!section.title_sv.is_empty() && !section.title_en.is_empty());
            for rule in &section.rules {
                assert!(seen.insert(rule.id), "{} repeats rule id {}", game.id(), rule.id);
                assert!(
                    rule.id.starts_with(&format!("{}.", game.id())) || rule.id.starts_with("core."),
                    "rule id {} is outside {}'s namespace",
                    rule.id,
                    game.id()
                );
                assert!(rule.sv.len() > 10 && rule.en.len() > 10, "rule {} needs real text in both languages", rule.id);
                assert_ne!(rule.sv, rule.en, "rule {} is not translated", rule.id);
            }
        }
        for core in ["core.turn", "core.phase", "core.card-not-held", "core.deck", "core.match-over"] {
            assert!(book.rule(core).is_some(), "{} lacks {core}", game.id());
        }
    }
}

#[test]
fn options_are_documented_and_unknown_options_refused() {
    for game in games() {
        let defaults = game.normalize_options(&Value::Null).unwrap();
        let documented: Vec<&str> = game.options().iter().map(|o| o.name).collect();
        for (name, value) in defaults.as_object().unwrap() {
            assert!(documented.contains(&name.as_str()), "{}: option {name} is not documented", game.id());
            let doc = game.options().into_iter().find(|o| o.name == name).unwrap();
            assert_eq!(&doc.default, value, "{}: documented default of {name}", game.id());
        }
        assert!(game.normalize_options(&json!({ "no-such-option": true })).is_err(), "{}", game.id());
    }
}

#[test]
fn random_matches_for_every_player_count_end_balanced_and_leak_nothing() {
    for game in games() {
        for players in game.player_counts() {
            for seed in 0..20u64 {
                let report = play_match(game, players, &Value::Null, seed * 7919 + players as u64, Checks::ALL)
                    .unwrap_or_else(|e| panic!("{} with {players} players, seed {seed}: {e}", game.id()));
                assert!(report.deals >= 1 && report.moves > 0);
            }
        }
    }
}

#[test]
fn a_stored_log_replays_to_the_same_state() {
    for game in games() {
        let players = *game.player_counts().start();
        let report = play_match(game, players, &Value::Null, 42, Checks::NONE).unwrap();
        let replay = || {
            let mut m = game.setup(players, &Value::Null).unwrap();
            for event in &report.log {
                m.apply(event).unwrap();
            }
            m
        };
        let (a, b) = (replay(), replay());
        assert!(matches!(a.status(), Status::Finished { .. }), "{}: the replayed match is over", game.id());
        assert_eq!(a.view(Viewer::Record), b.view(Viewer::Record));
        for seat in 0..players {
            assert_eq!(a.view(Viewer::Seat(seat)), b.view(Viewer::Seat(seat)));
        }
        // A finished match takes no more moves.
        assert!(a.legal_moves(0).is_empty());
    }
}

#[test]
fn garbage_is_refused_not_panicked_on() {
    for game in games() {
        let players = *game.player_counts().start();
        let mut m = game.setup(players, &Value::Null).unwrap();
        assert!(m.apply(&json!({ "type": "no_such_event" })).is_err());
        if let Status::NeedsDeck { composition } = m.status() {
            assert!(m.deal(&composition[1..]).is_err(), "a short deck is refused");
            let mut doubled = composition.clone();
            doubled[0] = doubled[1];
            assert!(m.deal(&doubled).is_err(), "a deck with a card twice is refused");
            for e in m.deal(&composition).unwrap() {
                m.apply(&e).unwrap();
            }
        }
        for bad in [json!(null), json!(42), json!({}), json!({ "type": "play", "card": "1X" }), json!({ "type": "bid", "tricks": -1 })] {
            for seat in 0..players + 1 {
                assert!(m.decide(seat, &bad).is_err(), "{}: {bad} accepted", game.id());
            }
        }
    }
}

#[test]
#[ignore]
fn dump_rulebooks() {
    for game in games() {
        let book = game.rulebook();
        let mut out = String::new();
        for s in &book.sections {
            if s.id == "core" {
                out.push_str("core\n");
                continue;
            }
            let house = s.rules.iter().all(|r| r.house_rule) && !s.rules.is_empty();
            assert!(house || s.rules.iter().all(|r| !r.house_rule), "{} mixed", s.id);
            if house && s.title_sv == "Husregler och tolkningar" && s.title_en == "House rules and interpretations" {
                out.push_str(&format!("\nhouse {}\n", s.id));
            } else {
                out.push_str(&format!("\n{} {}\n  sv {}\n  en {}\n", if house { "house" } else { "section" }, s.id, s.title_sv, s.title_en));
            }
            for r in &s.rules {
                assert!(!r.sv.contains('\n') && !r.en.contains('\n'));
                out.push_str(&format!("\n{}\n  sv {}\n  en {}\n", r.id, r.sv, r.en));
            }
        }
        let text: &'static str = Box::leak(out.clone().into_boxed_str());
        let back = engine::rules::parse_rulebook(game.id(), text);
        assert_eq!(serde_json::to_value(&back).unwrap(), serde_json::to_value(&book).unwrap(), "{}", game.id());
        std::fs::write(format!("/tmp/rulebook-{}.txt", game.id()), out).unwrap();
    }
}
