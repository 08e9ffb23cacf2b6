//! The JSON shapes of each game's options, commands, table view and events, derived from the
//! game's own Rust types, so that the service's OpenAPI document is typed from a game's first
//! commit with no hand-written schema.
//!
//! Everything that needs `utoipa` sits behind the `openapi` feature: the rules build and run
//! without it, and only the service (which renders the document) turns it on. [`Typed`] is the
//! bound [`crate::game::Rules`] puts on a game's types; without the feature every type meets it.

/// A game type whose JSON schema can be derived (with the `openapi` feature).
#[cfg(feature = "openapi")]
pub trait Typed: utoipa::ToSchema {}
#[cfg(feature = "openapi")]
impl<T: utoipa::ToSchema> Typed for T {}

/// A game type whose JSON schema can be derived (with the `openapi` feature).
#[cfg(not(feature = "openapi"))]
pub trait Typed {}
#[cfg(not(feature = "openapi"))]
impl<T> Typed for T {}

/// Reads a whole number of a command and refuses one outside `MIN..=MAX`, the bounds the
/// command's document gives it: beyond them a move is no move of the game, refused as unreadable
/// whatever the version it was sent at (a client that checks its request against the document
/// expects that), not by a rule of the game later, nor as a stale version before the rules look.
/// `#[serde(deserialize_with = "crate::schema::within::<_, _, 2, 14>")]` beside the field's
/// `schema(minimum = 2, maximum = 14)`; api/tests/option_bounds.rs checks that the two agree.
pub fn within<'de, D, T, const MIN: i64, const MAX: i64>(deserializer: D) -> Result<T, D::Error>
where
    D: serde::Deserializer<'de>,
    T: serde::Deserialize<'de> + Copy + Into<i64>,
{
    let n = T::deserialize(deserializer)?;
    let value: i64 = n.into();
    if (MIN..=MAX).contains(&value) {
        Ok(n)
    } else {
        Err(serde::de::Error::custom(format_args!("{value} is not between {MIN} and {MAX}")))
    }
}

#[cfg(feature = "openapi")]
pub use derived::*;

#[cfg(feature = "openapi")]
mod derived {
    use serde_json::{json, Map, Value};
    use utoipa::openapi::schema::Schema;
    use utoipa::openapi::RefOr;
    use utoipa::{PartialSchema, ToSchema};

    use crate::cards::{Card, Suit};

    /// The regular expression every card code matches (see [`Card`]'s `FromStr`).
    pub const CARD_PATTERN: &str = "^([2-9TJQKA1C][CDHS]|JK[12]?|T([1-9]|1[0-9]|2[01])|EX)$";

    impl PartialSchema for Card {
        fn schema() -> RefOr<Schema> {
            from_json(json!({
                "type": "string",
                "pattern": CARD_PATTERN,
                "description": "A card: rank (2-9, T, J, Q, K, A) then suit (C, D, H, S), so `TD` is the ten \
            of diamonds; a joker `JK` (Femhundra's), or `JK1` and `JK2` in a pack that tells two apart (none \
            yet); the tarot pack adds `1` and `C` (knight) before a suit, the trumps \
            `T1` to `T21` and the Excuse `EX`.",
                "examples": ["QS", "TD", "JK", "T21"],
            }))
        }
    }
    impl ToSchema for Card {}

    impl PartialSchema for Suit {
        fn schema() -> RefOr<Schema> {
            from_json(json!({ "type": "string", "enum": ["clubs", "diamonds", "hearts", "spades"] }))
        }
    }
    impl ToSchema for Suit {}

    /// A seat's schema. `Seat` is an alias of `usize`, which the derive refers to by the name
    /// `usize`: every such reference is a seat, and is named so.
    pub fn seat_schema() -> Value {
        json!({
            "type": "integer",
            "minimum": 0,
            "maximum": u32::MAX,
            "description": "A seat at the table, numbered from 0 clockwise.",
        })
    }

    /// Engine-wide types keep their own names in the document; every other type a game's schema
    /// refers to is the game's own and is named after the game (`plump` + `TrumpsFrom` =
    /// `PlumpTrumpsFrom`), so that two games' `Phase` types never meet under one name.
    /// (The service refuses to start, and its document test fails, should a game's own type and
    /// a shared one ever meet under one name with different shapes: the game's type then takes
    /// another name with `#[schema(as = ...)]`.)
    const SHARED: &[&str] = &[
        // cards, seats and texts
        "Seat",
        "Card",
        "Suit",
        "Text",
        "Lang",
        "ScoreTerm",
        "Outcome",
        "Direction",
        // the match of deals and the trick toolkit
        "MatchProgress",
        "TrickPlayView",
        "TrickOnTable",
        "Trick",
        "Play",
        "WinReason",
        "TrickRecord",
        // the money ledger
        "Account",
        "Payment",
        "Ledger",
        // the poker and betting toolkits
        "HandCategory",
        "HandRank",
        "BettingLimit",
        // the layout toolkit
        "LayoutRow",
        "Place",
    ];

    /// One game's shapes, named for the document, with every schema they refer to.
    #[derive(Debug, Default)]
    pub struct GameSchemas {
        /// The name of the options schema, e.g. `PlumpOptions`.
        pub options: String,
        /// The name of the union of the game's commands, e.g. `PlumpCommand`.
        pub command: String,
        /// The name of the table view, e.g. `PlumpTable`.
        pub table: String,
        /// The name of the union of the game's events, e.g. `PlumpEvent`.
        pub event: String,
        /// Every named schema above and below them, as OpenAPI JSON.
        pub components: Vec<(String, Value)>,
    }

    impl GameSchemas {
        /// `game` is the game's id (`japansk-whist`); the names start with its PascalCase form.
        pub fn derive<O: ToSchema, C: ToSchema, V: ToSchema, E: ToSchema>(game: &str) -> GameSchemas {
            let prefix = pascal(game);
            let mut named = Vec::new();
            O::schemas(&mut named);
            C::schemas(&mut named);
            V::schemas(&mut named);
            E::schemas(&mut named);
            let mut out = GameSchemas {
                options: format!("{prefix}Options"),
                command: format!("{prefix}Command"),
                table: format!("{prefix}Table"),
                event: format!("{prefix}Event"),
                components: Vec::new(),
            };
            let rename = |name: &str| match name {
                "usize" => "Seat".to_string(),
                _ if SHARED.contains(&name) => name.to_string(),
                _ => format!("{prefix}{name}"),
            };
            for (name, schema) in named {
                let name = rename(&name);
                let mut schema = renamed_refs(to_json(schema), &rename);
                if name == "Seat" {
                    schema = seat_schema();
                }
                if !out.components.iter().any(|(n, _)| *n == name) {
                    out.components.push((name, schema));
                }
            }
            // A type's own schema, named as the game's (`Options` is `PlumpOptions`, which the
            // derive may have collected already as something another type refers to).
            let (options_name, table_name) = (out.options.clone(), out.table.clone());
            let mut own = |name: &str, schema: Value| {
                out.components.retain(|(n, _)| n != name);
                out.components.push((name.to_string(), schema));
            };
            own(&options_name, renamed_refs(to_json(O::schema()), &rename));
            let mut table = renamed_refs(to_json(V::schema()), &rename);
            if table == json!({}) {
                // A view still built as free JSON (`type View = Value`).
                table = json!({ "type": "object" });
            }
            own(&table_name, table);
            let command = renamed_refs(to_json(C::schema()), &rename);
            tagged_union(&prefix, &out.command.clone(), command, &mut out.components, false);
            close_referenced(&out.command.clone(), &mut out.components);
            let event = renamed_refs(to_json(E::schema()), &rename);
            tagged_union(&prefix, &out.event.clone(), event, &mut out.components, true);
            for (_, schema) in &mut out.components {
                tidy(schema);
            }
            out
        }
    }

    /// A `#[serde(tag = "type")]` enum's `oneOf` of inline objects becomes one named schema per
    /// variant (`PlumpBidCommand`, `PlumpBidMadeEvent`) and a `oneOf` of references with a discriminator on `type`, the form
    /// client generators turn into a tagged union. Events as a viewer sees them may lack what is
    /// hidden from the viewer, or show `null` in its place (see `Rules::redact`), so with `seen`
    /// every field but `type` becomes optional and nullable.
    fn tagged_union(prefix: &str, name: &str, union: Value, components: &mut Vec<(String, Value)>, seen: bool) {
        let kind = if seen { "Event" } else { "Command" };
        let (mut union, variants) = named_union(&union, "type", |tag| format!("{prefix}{}{kind}", pascal(tag)))
            .unwrap_or_else(|| panic!("{name}: every variant needs a `type` tag"));
        for (variant_name, mut variant) in variants {
            if seen {
                seen_as_redacted(&mut variant);
            } else {
                closed(&mut variant);
            }
            components.push((variant_name, variant));
        }
        union["description"] = json!(if seen {
            "One event as the caller may see it: a field whose content is hidden from the caller is \
null or left out, and counts (`hand_sizes`) may stand in for hidden cards."
        } else {
            "One command; `type` says which."
        });
        components.push((name.to_string(), union));
    }

    /// A union of inline objects told apart by the property `tag` (a `oneOf`, or one object for a
    /// union of one), as named schemas: each variant under `name(its tag)`, and the union a
    /// `oneOf` of references with a discriminator on `tag`, the form client generators turn into
    /// a tagged union with classes named after what they are. `None` when a variant has no tag.
    pub fn named_union(
        union: &Value,
        tag: &str,
        name: impl Fn(&str) -> String,
    ) -> Option<(Value, Vec<(String, Value)>)> {
        let variants = union.get("oneOf").and_then(Value::as_array).cloned().unwrap_or_else(|| vec![union.clone()]);
        let mut named = Vec::new();
        let mut refs = Vec::new();
        let mut mapping = Map::new();
        for variant in variants {
            let value = variant.pointer(&format!("/properties/{tag}/enum/0"))?.as_str()?.to_string();
            let variant_name = name(&value);
            let reference = format!("#/components/schemas/{variant_name}");
            refs.push(json!({ "$ref": reference }));
            mapping.insert(value, Value::String(reference));
            named.push((variant_name, variant));
        }
        let mut union = match union {
            Value::Object(map) if map.contains_key("oneOf") => Value::Object(map.clone()),
            _ => json!({}),
        };
        union["oneOf"] = Value::Array(refs);
        union["discriminator"] = json!({ "propertyName": tag, "mapping": mapping });
        Some((union, named))
    }

    /// A command takes no field it does not have: the engine refuses one at any depth (it lets
    /// a `null` pass, which says nothing, but a client has no reason to send one).
    fn closed(schema: &mut Value) {
        match schema {
            Value::Object(map) => {
                if map.get("type") == Some(&json!("object")) && !map.contains_key("additionalProperties") {
                    map.insert("additionalProperties".into(), json!(false));
                }
                map.values_mut().for_each(closed);
            }
            Value::Array(items) => items.iter_mut().for_each(closed),
            _ => {}
        }
    }

    /// The game's own types a command refers to (a bid's contract, say) take no field they do
    /// not have either: every component reachable from `root` by `$ref` is [`closed`].
    fn close_referenced(root: &str, components: &mut [(String, Value)]) {
        let mut seen = vec![root.to_string()];
        let mut next = 0;
        while next < seen.len() {
            let mut found = Vec::new();
            if let Some((_, schema)) = components.iter_mut().find(|(n, _)| *n == seen[next]) {
                each_ref(schema, &mut |name| found.push(name.clone()));
            }
            for name in found {
                if !seen.contains(&name) {
                    seen.push(name);
                }
            }
            next += 1;
        }
        for (name, schema) in components.iter_mut() {
            if seen.contains(name) {
                closed(schema);
            }
        }
    }

    /// What a redacted event may show in place of hidden cards, by the field it stands beside:
    /// the sizes of hidden hands, piles and decks, and whether a card left out is hidden from the
    /// viewer. (A game whose redaction adds another adds it here: the contract test refuses a
    /// field the document does not declare.)
    const STAND_INS: &[(&str, &str, &str)] = &[
        ("hands", "hand_sizes", "How many cards each hand holds, where the hands are hidden from the viewer."),
        ("deck", "deck_size", "How many cards the deck holds, where its order is hidden from the viewer."),
        ("set_aside", "set_aside_count", "How many cards were set aside, where they are hidden from the viewer."),
        ("talon", "talon_count", "How many cards the talon holds, where it is hidden from the viewer."),
        ("dog", "dog_size", "How many cards the dog holds, where it is hidden from the viewer."),
        ("card", "hidden", "True where the card is hidden from the viewer."),
    ];

    /// An event's variant as a viewer may see it: any field but `type`, any item of a list and
    /// any field of an object inside may be `null` (hidden), and fields the event does not have
    /// may stand in for hidden ones ([`STAND_INS`]).
    fn seen_as_redacted(variant: &mut Value) {
        fn nullable(schema: &mut Value) {
            if !schema.is_object() {
                // `items: false` (after a tuple's `prefixItems`) admits nothing, nulls included.
                return;
            }
            if let Some(items) = schema.get_mut("items") {
                nullable(items);
            }
            if let Some(properties) = schema.get_mut("properties").and_then(Value::as_object_mut) {
                for property in properties.values_mut() {
                    nullable(property);
                }
            }
            for union in ["oneOf", "anyOf"] {
                if let Some(Value::Array(members)) = schema.get_mut(union) {
                    members.iter_mut().for_each(nullable);
                }
            }
            let inner = schema.take();
            *schema = if inner.get("type") == Some(&json!("null")) {
                inner
            } else {
                json!({ "anyOf": [inner, { "type": "null" }] })
            };
        }
        if let Some(properties) = variant.get_mut("properties").and_then(Value::as_object_mut) {
            for (key, property) in properties.iter_mut() {
                if key != "type" {
                    nullable(property);
                }
            }
            for (beside, stand_in, description) in STAND_INS {
                if properties.contains_key(*beside) && !properties.contains_key(*stand_in) {
                    let mut schema = match *stand_in {
                        "hidden" => json!({ "type": "boolean" }),
                        "hand_sizes" => json!({ "type": "array", "items": { "type": "integer", "minimum": 0 } }),
                        _ => json!({ "type": "integer", "minimum": 0 }),
                    };
                    schema["description"] = json!(description);
                    properties.insert(stand_in.to_string(), schema);
                }
            }
        }
        variant["additionalProperties"] = json!(true);
        variant["required"] = json!(["type"]);
    }

    /// Forms the derive writes that linters, validators and client generators stumble on: a
    /// `oneOf` of one schema (how a documented field of a named type gets its description), a
    /// `oneOf` with no discriminator (an untagged union, whose members may overlap), and a tuple
    /// as `items: false` with `prefixItems` (a `(Seat, Card)` pair), which gets `items` listing
    /// what any place may hold and a fixed length.
    fn tidy(value: &mut Value) {
        match value {
            Value::Object(map) => {
                map.values_mut().for_each(tidy);
                if let Some(Value::Array(one)) = map.get("oneOf") {
                    if let [Value::Object(only)] = one.as_slice() {
                        let only = only.clone();
                        map.remove("oneOf");
                        for (key, inner) in only {
                            map.entry(key).or_insert(inner);
                        }
                    }
                }
                // An untagged union's members may overlap (an empty list is a list of cards and a
                // list of hands alike): `anyOf` says what is sent, `oneOf` would refuse it.
                if !map.contains_key("discriminator") {
                    if let Some(members) = map.remove("oneOf") {
                        map.insert("anyOf".into(), members);
                    }
                }
                // The derive writes `u32` (and `u8`, `u16`) as `int32` with a minimum of 0, which
                // would put the upper bound at 2^31 - 1: give unsigned integers their own.
                // (A `u8` or `u16` field a client sends says its own `maximum`.)
                if map.get("format") == Some(&json!("int32")) && map.get("minimum") == Some(&json!(0)) {
                    map.remove("format");
                    map.entry("maximum").or_insert(json!(u32::MAX));
                }
                // A `usize` (a seat, a position) is written with no upper bound; a move holds
                // none past u32::MAX, and reading one refuses larger (`game::read_command`).
                if map.get("type") == Some(&json!("integer"))
                    && map.get("minimum") == Some(&json!(0))
                    && !map.contains_key("format")
                {
                    map.entry("maximum").or_insert(json!(u32::MAX));
                }
                if map.get("items") == Some(&Value::Bool(false)) {
                    if let Some(Value::Array(places)) = map.get("prefixItems") {
                        let mut kinds: Vec<Value> = Vec::new();
                        for place in places {
                            if !kinds.contains(place) {
                                kinds.push(place.clone());
                            }
                        }
                        let n = places.len();
                        let items = if kinds.len() == 1 { kinds.remove(0) } else { json!({ "anyOf": kinds }) };
                        map.insert("items".into(), items);
                        map.insert("minItems".into(), json!(n));
                        map.insert("maxItems".into(), json!(n));
                    }
                }
            }
            Value::Array(items) => items.iter_mut().for_each(tidy),
            _ => {}
        }
    }

    /// `schema` with every reference to a named schema pointed at `rename(name)`.
    pub fn renamed_refs(mut schema: Value, rename: &impl Fn(&str) -> String) -> Value {
        each_ref(&mut schema, &mut |name| *name = rename(name));
        schema
    }

    /// Calls `visit` with the name of every schema `value` refers to by `$ref`; what `visit`
    /// leaves in the name is where the reference then points.
    fn each_ref(value: &mut Value, visit: &mut impl FnMut(&mut String)) {
        const COMPONENT: &str = "#/components/schemas/";
        match value {
            Value::Object(map) => {
                for (key, inner) in map.iter_mut() {
                    match (key.as_str(), inner) {
                        ("$ref", Value::String(target)) if target.starts_with(COMPONENT) => {
                            let mut name = target[COMPONENT.len()..].to_string();
                            visit(&mut name);
                            *target = format!("{COMPONENT}{name}");
                        }
                        (_, inner) => each_ref(inner, visit),
                    }
                }
            }
            Value::Array(items) => items.iter_mut().for_each(|i| each_ref(i, visit)),
            _ => {}
        }
    }

    /// `japansk-whist` → `JapanskWhist`, `bid_made` → `BidMade`.
    pub fn pascal(id: &str) -> String {
        id.split(['-', '_'])
            .map(|word| {
                let mut chars = word.chars();
                chars.next().map(|c| c.to_uppercase().chain(chars).collect::<String>()).unwrap_or_default()
            })
            .collect()
    }

    fn to_json(schema: RefOr<Schema>) -> Value {
        serde_json::to_value(schema).expect("schemas serialize")
    }

    fn from_json(value: Value) -> RefOr<Schema> {
        serde_json::from_value(value).expect("a valid schema")
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        /// Femhundra's bid carries a contract, a type of its own: the engine refuses a field the
        /// contract does not have, so its schema must say so too (schemathesis sent one).
        #[test]
        fn what_a_command_refers_to_takes_no_other_field() {
            let schemas = crate::game("femhundra").expect("femhundra is playable").schemas();
            let (_, contract) = schemas.components.iter().find(|(n, _)| n == "FemhundraContract").unwrap();
            let variants = contract["anyOf"].as_array().expect("a union of contracts");
            assert!(variants.iter().all(|v| v["additionalProperties"] == json!(false)), "{contract}");
        }

        #[test]
        fn names_are_pascal_case() {
            assert_eq!(pascal("japansk-whist"), "JapanskWhist");
            assert_eq!(pascal("bid_made"), "BidMade");
            assert_eq!(pascal("play"), "Play");
        }
    }
}
