//! Every game module has its sections in one order (docs/engine.md, section 7), so that a reader
//! who knows one game finds their way in any other, and a new game copies that order.

use std::path::{Path, PathBuf};

/// The sections a game module may have, in their order. A game's own pure rules (its card order,
/// the tests a hand is put to) come where `None` stands, under a name of the game's choosing.
const ORDER: [Option<&str>; 11] = [
    Some("Options"),
    Some("State"),
    Some("Commands and events"),
    Some("Setup and deal"),
    None,
    Some("Decide"),
    Some("Evolve"),
    Some("Scoring"),
    Some("The table view"),
    Some("The bot"),
    Some("Rules"),
];

/// Each game module's source: `games/<game>.rs`, or `games/<game>/mod.rs` for a game in a folder.
fn game_modules() -> Vec<PathBuf> {
    let games = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/games");
    let mut found: Vec<PathBuf> = std::fs::read_dir(&games)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter_map(|p| match p.is_dir() {
            true => Some(p.join("mod.rs")).filter(|m| m.exists()),
            false => (p.extension().is_some_and(|x| x == "rs") && !p.ends_with("mod.rs")).then_some(p),
        })
        .collect();
    found.sort();
    found
}

/// The section titles of a module's code before its tests: the comment line under each rule of
/// dashes.
fn sections(source: &str) -> Vec<String> {
    let code = source.split("#[cfg(test)]\nmod tests {").next().unwrap();
    let lines: Vec<&str> = code.lines().collect();
    lines
        .windows(2)
        .filter(|w| w[0].starts_with("// ----------") && w[1].starts_with("// "))
        .map(|w| w[1].trim_start_matches("// ").to_string())
        .collect()
}

#[test]
fn every_game_module_has_its_sections_in_one_order() {
    let modules = game_modules();
    assert!(modules.len() >= 19, "only {} game modules found", modules.len());
    for path in modules {
        let titles = sections(&std::fs::read_to_string(&path).unwrap());
        let ranks: Vec<usize> =
            titles.iter().map(|t| ORDER.iter().position(|o| *o == Some(t.as_str())).unwrap_or(4)).collect();
        assert!(ranks.windows(2).all(|r| r[0] < r[1] || (r[0] == 4 && r[1] == 4)), "{path:?}: {titles:?}");
        for needed in ["Options", "State", "Commands and events", "Rules"] {
            assert!(titles.iter().any(|t| t == needed), "{path:?} has no section {needed:?}: {titles:?}");
        }
    }
}
