//! What each viewer is shown: views, the masked record of a deal with a blanked card, redacted
//! events and the secrets behind them.

use super::*;

impl Svangknack {
    pub(super) fn redact_event(&self, state: &State, event: &Event, viewer: Viewer, deal_over: bool) -> Value {
        use Event as E;
        let mut full = serde_json::to_value(event).expect("events serialize");
        if viewer == Viewer::Record || deal_over {
            if let Some(mask) = event.deal_number().and_then(|n| self.record_mask(state, n)) {
                mask_cards(&mut full, &|c| mask.shows(c, viewer));
            }
            return full;
        }
        let Value::Object(map) = &mut full else { return full };
        let own = |s: Seat| viewer == Viewer::Seat(s);
        match event {
            E::DealStarted { hands, talon, .. } => {
                map.remove("deck");
                map.remove("talon");
                map.insert("talon_count".into(), json!(talon.len()));
                map.insert("hand_sizes".into(), json!(hands.iter().map(Vec::len).collect::<Vec<_>>()));
                let shown: Vec<Value> =
                    (0..hands.len()).map(|s| if own(s) { json!(hands[s]) } else { Value::Null }).collect();
                map.insert("hands".into(), Value::Array(shown));
            }
            E::Folded { seat, .. } if !own(*seat) => {
                map.insert("cards".into(), Value::Null);
            }
            E::Bought { seat, .. } if !own(*seat) => {
                map.insert("discarded".into(), Value::Null);
                map.insert("drawn".into(), Value::Null);
            }
            E::CardBlanked { seat, .. } if !own(*seat) => {
                map.insert("card".into(), Value::Null);
            }
            _ => {}
        }
        full
    }

    pub(super) fn secret_cards(&self, state: &State) -> Vec<(Card, Vec<Seat>)> {
        let Some(deal) = &state.deal else { return Vec::new() };
        let mut secrets = Vec::new();
        for s in 0..deal.players() {
            for &c in deal.hands[s].iter().chain(&deal.folded[s]).chain(&deal.discards[s]) {
                secrets.push((c, vec![s]));
            }
        }
        secrets.extend(deal.talon.iter().map(|&c| (c, Vec::new())));
        secrets.extend(deal.blanked().map(|p| (p.card, vec![p.seat])));
        secrets
    }

    /// The state as `viewer` sees it; `record_of` is the seat whose deal record this is, which
    /// shows it the cards it held itself where a blanked card masks the rest.
    pub(super) fn render(&self, state: &State, viewer: Viewer, record_of: Option<Seat>) -> Value {
        let players = state.players();
        let status = self.status(state);
        let mut v = Map::new();
        v.insert("phase".into(), json!(self.phase_name(state)));
        v.insert("players".into(), json!(players));
        v.insert("options".into(), json!(state.options));
        v.insert("lowest_rank".into(), json!(state.lowest_rank));
        v.insert("pack_size".into(), json!(pack_size(state.lowest_rank)));
        v.insert("stake".into(), json!(state.options.stake));
        v.insert("deal_number".into(), json!(state.deals_started));
        v.insert("deals_scheduled".into(), json!(state.deals_scheduled()));
        v.insert("pot".into(), json!(state.pot()));
        v.insert("balances".into(), json!(state.ledger.seats(players)));
        v.insert("to_act".into(), json!(status.to_act()));
        v.insert("winners".into(), json!(state.winners));
        if let Viewer::Seat(s) = viewer {
            v.insert("seat".into(), json!(s));
        }
        let Some(deal) = &state.deal else { return Value::Object(v) };
        let own = |s: Seat| viewer == Viewer::Seat(s) || (viewer == Viewer::Record && record_of == Some(s));
        v.insert("dealer".into(), json!(deal.dealer));
        v.insert("forehand".into(), json!(deal.forehand));
        v.insert("forced".into(), json!(deal.forced));
        v.insert("trumps".into(), json!(deal.trumps));
        v.insert("turned_cards".into(), json!(deal.turned));
        v.insert("swinger".into(), json!(deal.swinger));
        v.insert(
            "swing_calls".into(),
            json!(deal
                .swing_calls
                .iter()
                .map(|&(seat, swung)| json!({"seat": seat, "swung": swung}))
                .collect::<Vec<_>>()),
        );
        v.insert(
            "join_calls".into(),
            json!(deal
                .join_calls
                .iter()
                .map(|&(seat, joined)| json!({"seat": seat, "joined": joined}))
                .collect::<Vec<_>>()),
        );
        v.insert("in_play".into(), json!(deal.in_seats()));
        v.insert(
            "folded".into(),
            json!((0..players).filter(|&s| deal.join_calls.contains(&(s, false))).collect::<Vec<_>>()),
        );
        v.insert("buy_order".into(), json!(deal.buy_order));
        v.insert(
            "buys".into(),
            json!(deal.buys.iter().map(|&(seat, turn)| json!({"seat": seat, "turn": turn})).collect::<Vec<_>>()),
        );
        v.insert("talon_count".into(), json!(deal.talon.len()));
        v.insert("hand_sizes".into(), json!(deal.hands.iter().map(Vec::len).collect::<Vec<_>>()));
        v.insert("trick_number".into(), json!(deal.trick_number().min(HAND)));
        v.insert("trick".into(), json!({"leader": deal.leader, "plays": plays_json(&deal.trick, &own)}));
        v.insert(
            "tricks".into(),
            json!(deal
                .tricks
                .iter()
                .map(|t| json!({
                    "number": t.number,
                    "leader": t.leader,
                    "plays": plays_json(&t.plays, &own),
                    "winner": t.winner,
                    "card": t.card,
                    "reason": t.reason,
                }))
                .collect::<Vec<_>>()),
        );
        v.insert("tricks_taken".into(), json!(deal.tricks_taken));
        v.insert("settlement".into(), json!(deal.settlement));
        match viewer {
            Viewer::Seat(s) if s < players => {
                v.insert("hand".into(), json!(deal.hands[s]));
                v.insert("discards".into(), json!(deal.discards[s]));
                v.insert("thrown_in".into(), json!(deal.folded[s]));
                let blanked: Vec<Card> = deal.blanked().filter(|p| p.seat == s).map(|p| p.card).collect();
                v.insert("blanked".into(), json!(blanked));
            }
            Viewer::Record => {
                v.insert("deck".into(), json!(deal.deck));
                v.insert("hands_dealt".into(), json!(deal.dealt));
                v.insert("hands".into(), json!(deal.hands));
                v.insert("talon".into(), json!(deal.talon));
                v.insert("thrown_in".into(), json!(deal.folded));
                v.insert("discards".into(), json!(deal.discards));
                v.insert("drawn".into(), json!(deal.drawn));
                if deal.blanked().next().is_some() {
                    let mask = RecordMask::of(deal);
                    let mut value = Value::Object(v);
                    let as_seen = record_of.map_or(Viewer::Record, Viewer::Seat);
                    mask_cards(&mut value, &|c| mask.shows(c, as_seen));
                    return value;
                }
            }
            _ => {}
        }
        Value::Object(v)
    }

    pub(super) fn record_mask(&self, state: &State, deal_number: u32) -> Option<RecordMask> {
        match &state.deal {
            Some(d) if d.number == deal_number => d.blanked().next().is_some().then(|| RecordMask::of(d)),
            _ => state.masks.get(&deal_number).cloned(),
        }
    }
}

/// Replaces every card the viewer may not see with `null`, wherever it sits in `value`.
fn mask_cards(value: &mut Value, shows: &dyn Fn(Card) -> bool) {
    match value {
        Value::String(s) if s.parse::<Card>().is_ok_and(|c| !shows(c)) => *value = Value::Null,
        Value::Array(items) => items.iter_mut().for_each(|i| mask_cards(i, shows)),
        Value::Object(map) => map.values_mut().for_each(|i| mask_cards(i, shows)),
        _ => {}
    }
}

fn plays_json(plays: &[Played], sees_blanked: &dyn Fn(Seat) -> bool) -> Value {
    json!(plays
        .iter()
        .map(|p| TrickPlay {
            seat: p.seat,
            card: (!p.blanked || sees_blanked(p.seat)).then_some(p.card),
            blanked: p.blanked
        })
        .collect::<Vec<_>>())
}
