//! Every game option's bounds in the API document are what the game takes: the document allowed
//! `max_deals` from 0 to 4294967295 where Rödskägg and Norrlandsknack take 1 to 1000 (issue 36).
//! For each whole-number option of every playable game, its `minimum` and `maximum` are taken by
//! `setup` at some player count and the numbers just beyond them by none; an option with no
//! `maximum` is a 64-bit number whose largest value is taken, unless its upper bound depends on
//! another option and its description says so.

use engine::game::Game;
use serde_json::{json, Map, Value};

/// Options whose upper bound is another option's value, told in their description.
const BOUNDED_BY_ANOTHER: &[(&str, &str, &str)] =
    &[("bondtolva", "fall_to", "below the target"), ("blackjack", "min_bet", "at most max_bet")];

/// Whether `game` takes `name` set to `value` at some player count, with its other options at
/// their defaults or every other whole number at its documented minimum (Bondtolva's target
/// must be above `fall_to`).
fn taken(game: &dyn Game, properties: &Map<String, Value>, name: &str, value: Value) -> bool {
    let defaults = game.normalize_options(&Value::Null).unwrap();
    let mut lowest = defaults.clone();
    for (other, schema) in properties {
        if let Some(min) = schema["minimum"].as_i64().filter(|_| is_whole_number(schema)) {
            lowest[other] = json!(min);
        }
    }
    [defaults, lowest].into_iter().any(|mut options| {
        options[name] = value.clone();
        game.player_counts().any(|players| game.setup(players, &options).is_ok())
    })
}

fn is_whole_number(schema: &Value) -> bool {
    match &schema["type"] {
        Value::String(t) => t == "integer",
        Value::Array(types) => types.contains(&json!("integer")),
        _ => false,
    }
}

#[test]
fn every_options_documented_bounds_are_what_setup_takes() {
    let mut checked = 0;
    for game in engine::playable() {
        let game = game.as_ref();
        let schemas = game.schemas();
        let options = &schemas.components.iter().find(|(name, _)| *name == schemas.options).unwrap().1;
        // A game without options (Svarte Petter) has no properties to check.
        let Some(properties) = options["properties"].as_object() else { continue };
        let taken = |name: &str, value: Value| taken(game, properties, name, value);
        for (name, schema) in properties {
            if !is_whole_number(schema) {
                continue;
            }
            let what = format!("{}'s option {name}", game.id());
            let min = schema["minimum"].as_i64().unwrap_or_else(|| panic!("{what} documents no minimum: {schema}"));
            assert!(taken(name, json!(min)), "{what}: its minimum {min} is refused");
            assert!(!taken(name, json!(i128::from(min) - 1)), "{what}: {} is taken, below its minimum", min - 1);
            match schema["maximum"].as_u64() {
                Some(max) => {
                    assert!(taken(name, json!(max)), "{what}: its maximum {max} is refused");
                    assert!(
                        !taken(name, json!(u128::from(max) + 1)),
                        "{what}: {} is taken, above its maximum",
                        max + 1
                    );
                }
                None => match BOUNDED_BY_ANOTHER.iter().find(|(g, o, _)| *g == game.id() && o == name) {
                    Some((_, _, told)) => {
                        let description = schema["description"].as_str().unwrap_or_default();
                        assert!(description.contains(told), "{what}: its description says nothing of its bound");
                    }
                    None => {
                        assert_eq!(schema["format"], "int64", "{what} documents no maximum: {schema}");
                        assert!(taken(name, json!(i64::MAX)), "{what}: the largest 64-bit number is refused");
                    }
                },
            }
            checked += 1;
        }
    }
    assert!(checked >= 30, "{checked} whole-number options checked");
}
