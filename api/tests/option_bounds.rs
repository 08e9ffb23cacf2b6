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

/// A value for `schema` that its game reads, when one is easily made: the minimum of a number,
/// the first of an enumeration, no elements in a list, a card where a string is free.
fn sample(schema: &Value, named: &[(String, Value)]) -> Option<Value> {
    if let Some(name) = schema["$ref"].as_str().and_then(|r| r.rsplit('/').next()) {
        let (_, target) = named.iter().find(|(n, _)| n == name)?;
        return sample(target, named);
    }
    if let Some(first) = schema["enum"].as_array().and_then(|e| e.first()) {
        return Some(first.clone());
    }
    if let Some(first) = schema["oneOf"].as_array().or(schema["anyOf"].as_array()) {
        return first.iter().find_map(|s| sample(s, named));
    }
    let kind = match &schema["type"] {
        Value::String(t) => t.as_str(),
        Value::Array(types) if types.contains(&json!("null")) => return Some(Value::Null),
        _ => return None,
    };
    match kind {
        "integer" => Some(json!(schema["minimum"].as_i64().unwrap_or(0))),
        "boolean" => Some(json!(false)),
        "string" => Some(json!("AS")),
        "array" => {
            let at_least = schema["minItems"].as_u64().unwrap_or(0) as usize;
            let item = sample(&schema["items"], named)?;
            Some(Value::Array(vec![item; at_least]))
        }
        "object" => {
            let mut out = Map::new();
            for name in schema["required"].as_array().into_iter().flatten().filter_map(Value::as_str) {
                out.insert(name.to_string(), sample(&schema["properties"][name], named)?);
            }
            Some(Value::Object(out))
        }
        _ => None,
    }
}

/// A number a command's document bounds is a number the game reads, and one beyond them is no
/// command of the game at all: refused as unreadable (400) whatever the match's version, as a
/// client checking against the document expects, rather than a rule's refusal (or a stale
/// version's 412) on a request the document already calls invalid. Schemathesis found a bet of
/// 0 chips answered 412 where Poker's document asks for at least 1.
#[test]
fn every_commands_documented_bounds_are_what_the_game_reads() {
    let (mut checked, mut wrong) = (0, Vec::new());
    for game in engine::playable() {
        let game = game.as_ref();
        let schemas = game.schemas();
        let named = &schemas.components;
        let union = &named.iter().find(|(name, _)| *name == schemas.command).unwrap().1;
        // A game of one command (Löjliga familjerna) names the command itself, not a union.
        let variants: Vec<(&str, &Value)> = match union["oneOf"].as_array() {
            Some(refs) => refs
                .iter()
                .filter_map(|v| v["$ref"].as_str()?.rsplit('/').next())
                .map(|name| (name, &named.iter().find(|(n, _)| n == name).unwrap().1))
                .collect(),
            None => vec![(schemas.command.as_str(), union)],
        };
        for (name, schema) in variants {
            let Some(base) = sample(schema, named) else { continue };
            if !game.reads_command(&base) {
                continue;
            }
            for (field, property) in schema["properties"].as_object().into_iter().flatten() {
                if !is_whole_number(property) {
                    continue;
                }
                let what = format!("{}'s {name}.{field}", game.id());
                let with = |value: Value| {
                    let mut command = base.clone();
                    command[field] = value;
                    game.reads_command(&command)
                };
                let Some(min) = property["minimum"].as_i64() else {
                    wrong.push(format!("{what} documents no minimum"));
                    continue;
                };
                if !with(json!(min)) {
                    wrong.push(format!("{what}: its minimum {min} is not read"));
                }
                if with(json!(i128::from(min) - 1)) {
                    wrong.push(format!("{what}: {} is read, below its minimum", min - 1));
                }
                if let Some(max) = property["maximum"].as_u64() {
                    if !with(json!(max)) {
                        wrong.push(format!("{what}: its maximum {max} is not read"));
                    }
                    if with(json!(u128::from(max) + 1)) {
                        wrong.push(format!("{what}: {} is read, above its maximum", max + 1));
                    }
                }
                checked += 1;
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    assert!(checked >= 15, "{checked} whole numbers in commands checked");
}
