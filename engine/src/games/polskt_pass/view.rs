//! What each viewer is shown: views, redacted events and the secrets behind them.

use super::*;

impl PolsktPass {
    pub(super) fn render_view(&self, state: &State, viewer: Viewer) -> Value {
        let players = state.players();
        let status = self.status(state);
        let phase = if state.winners.is_some() {
            "finished"
        } else {
            match &state.deal {
                None => "waiting-for-deal",
                Some(d) => match d.phase {
                    Phase::Cutting => "cutting",
                    Phase::TurnedCard => "turned-card",
                    Phase::Bidding => "bidding",
                    Phase::Discarding => "discarding",
                    Phase::Playing => "playing",
                    Phase::Over => "deal-over",
                },
            }
        };
        let books = state.books();
        let mut v = Map::new();
        v.insert("phase".into(), json!(phase));
        v.insert("players".into(), json!(players));
        v.insert("options".into(), json!(state.options));
        v.insert("deal_number".into(), json!(state.deals_started));
        v.insert("deals_total".into(), json!(state.deals_total()));
        v.insert("to_act".into(), json!(status.to_act()));
        v.insert("winners".into(), json!(state.winners));
        v.insert("balances".into(), json!(books.balances));
        v.insert("pot".into(), json!(books.pot));
        v.insert("bets".into(), json!(books.bets));
        if let Viewer::Seat(s) = viewer {
            v.insert("seat".into(), json!(s));
        }
        let Some(deal) = &state.deal else { return Value::Object(v) };
        let bet = deal.bet_in_play.map(|b| state.ledger.balance(Account::Bet(b)));
        v.insert("dealer".into(), json!(deal.dealer));
        v.insert("cutter".into(), json!(deal.cutter));
        v.insert("forehand".into(), json!(deal.forehand));
        v.insert("bet_in_play".into(), json!(deal.bet_in_play));
        if deal.phase != Phase::Over {
            v.insert("amount_played_for".into(), json!(books.pot + bet.unwrap_or(0)));
        }
        v.insert("cut".into(), json!(deal.cut));
        v.insert("turned_card".into(), json!(deal.turned_card));
        v.insert("turned_card_taken".into(), json!(deal.turned_taken));
        v.insert("ace_choice".into(), json!(deal.ace_choice_open()));
        v.insert("trumps".into(), json!(deal.trumps));
        v.insert("trumps_from".into(), json!(deal.trumps_from));
        v.insert("trumps_rule".into(), json!(deal.trumps_from.map(|f| f.rule())));
        v.insert("declarers".into(), json!(deal.declarers));
        v.insert(
            "bidding".into(),
            json!({
                "round": deal.bidding_turn().map(|(r, _)| r),
                "next": deal.bidding_turn().map(|(_, s)| s),
                "calls": deal.calls().collect::<Vec<_>>(),
            }),
        );
        v.insert("hand_sizes".into(), json!(deal.hands.iter().map(Vec::len).collect::<Vec<_>>()));
        v.insert("to_discard".into(), json!(deal.to_discard));
        v.insert("discarded".into(), json!(deal.discards.iter().map(|(s, _)| *s).collect::<Vec<_>>()));
        v.insert("undealt".into(), json!(deal.pack.len()));
        v.insert("tricks_taken".into(), json!(deal.tricks_taken));
        v.insert("tricks_played".into(), json!(deal.tricks.len()));
        v.insert(
            "trick".into(),
            json!({
                "leader": deal.trick.leader,
                "plays": deal.trick.plays.iter().map(|&(seat, card)| Play { seat, card }).collect::<Vec<_>>(),
                "led_suit": deal.trumps.and_then(|t| led_suit(&deal.trick, t)),
            }),
        );
        v.insert("last_trick".into(), json!(deal.tricks.last()));
        v.insert("la_vola".into(), json!(deal.la_vola));
        v.insert("result".into(), json!(deal.result));
        match viewer {
            Viewer::Seat(s) if s < players => {
                v.insert("hand".into(), json!(deal.hands[s]));
                let own = deal.discards.iter().find(|(d, _)| *d == s).map(|(_, c)| *c);
                v.insert("discard".into(), json!(own));
            }
            Viewer::Record => {
                // Everything but the undealt rest of the pack, which stays hidden for ever.
                v.insert("hands".into(), json!(deal.hands));
                v.insert("dealt_hands".into(), json!(deal.dealt));
                v.insert(
                    "discards".into(),
                    json!(deal.discards.iter().map(|&(seat, card)| Play { seat, card }).collect::<Vec<_>>()),
                );
                v.insert("tricks".into(), json!(deal.tricks));
            }
            _ => {}
        }
        Value::Object(v)
    }

    pub(super) fn redact_event(&self, _state: &State, event: &Event, viewer: Viewer, deal_over: bool) -> Value {
        let full = serde_json::to_value(event).expect("events serialize");
        let Value::Object(mut map) = full else { return full };
        let open = viewer == Viewer::Record || deal_over;
        match event {
            Event::DealStarted { deck, .. } => {
                // The order would give away the undealt rest: never shown to anyone.
                map.remove("deck");
                map.insert("deck_size".into(), json!(deck.len()));
            }
            Event::CardsDealt { hands, .. } if !open => {
                let shown: Vec<Value> = (0..hands.len())
                    .map(|s| if viewer == Viewer::Seat(s) { json!(hands[s]) } else { Value::Null })
                    .collect();
                map.insert("hands".into(), Value::Array(shown));
                map.insert("hand_sizes".into(), json!(hands.iter().map(Vec::len).collect::<Vec<_>>()));
            }
            Event::CardDiscarded { seat, .. } if !open && viewer != Viewer::Seat(*seat) => {
                map.insert("card".into(), Value::Null);
                map.insert("hidden".into(), json!(true));
            }
            _ => {}
        }
        Value::Object(map)
    }

    pub(super) fn secret_cards(&self, state: &State) -> Vec<(Card, Vec<Seat>)> {
        let Some(deal) = &state.deal else { return Vec::new() };
        let public = deal.public_cards();
        let held = deal.hands.iter().enumerate().flat_map(|(s, h)| h.iter().map(move |&c| (c, vec![s])));
        let discarded = deal.discards.iter().map(|&(s, c)| (c, vec![s]));
        let rest = deal.pack.iter().map(|&c| (c, Vec::new()));
        held.chain(discarded).chain(rest).filter(|(c, _)| !public.contains(c)).collect()
    }
}
