//! What each viewer is shown: views, redacted events and the secrets behind them.

use super::*;

impl Tarot {
    pub(super) fn render_view(&self, state: &State, viewer: Viewer) -> Value {
        let players = state.players();
        let status = self.status(state);
        let phase = if state.winners.is_some() {
            "finished"
        } else {
            match &state.deal {
                None => "waiting-for-deal",
                Some(d) => match d.phase {
                    Phase::Bidding => "bidding",
                    Phase::Calling => "calling",
                    Phase::Dog => "dog",
                    Phase::Discarding => "discarding",
                    Phase::Slam => "slam",
                    Phase::Playing => "playing",
                    Phase::Over => "deal-over",
                },
            }
        };
        let mut v = Map::new();
        v.insert("phase".into(), json!(phase));
        v.insert("players".into(), json!(players));
        v.insert("options".into(), json!(state.options));
        v.insert("deal_number".into(), json!(state.deals_started));
        v.insert("deals_played".into(), json!(state.deals_played));
        v.insert("deals_total".into(), json!(state.deals_total()));
        v.insert("score_limit".into(), json!(state.options.score_limit));
        v.insert("scores".into(), json!(state.scores));
        v.insert("to_act".into(), json!(status.to_act()));
        v.insert("winners".into(), json!(state.winners));
        v.insert("next_dealer".into(), json!(state.next_dealer));
        v.insert("layout".into(), json!(layout(players)));
        v.insert("poignee_sizes".into(), json!(poignee_sizes(players)));
        if let Viewer::Seat(s) = viewer {
            v.insert("seat".into(), json!(s));
        }
        let Some(deal) = &state.deal else { return Value::Object(v) };
        let over = deal.phase == Phase::Over;
        let open = over || viewer == Viewer::Record;
        let me = viewer.seat_at(players);
        v.insert("dealer".into(), json!(deal.dealer));
        v.insert("cancelled".into(), json!(deal.cancelled));
        v.insert("bidding_order".into(), json!(deal.auction.order));
        let bids: Vec<Value> = (0..players)
            .map(|s| match deal.auction.bid_of(s) {
                None => Value::Null,
                Some(None) => json!("pass"),
                Some(Some(c)) => json!(c),
            })
            .collect();
        v.insert("bids".into(), json!(bids));
        v.insert("highest_bid".into(), json!(deal.highest_bid()));
        v.insert("taker".into(), json!(deal.taker));
        v.insert("contract".into(), json!(deal.contract));
        v.insert("multiplier".into(), json!(deal.contract.map(Contract::multiplier)));
        v.insert("called_card".into(), json!(deal.called));
        // The partner is known to the table once the called card is played; before that only
        // to the partner (and the taker knows when holding the card itself).
        let partner_known = open || deal.partner_revealed || (me.is_some() && me == deal.partner);
        v.insert("partner".into(), json!(deal.partner.filter(|_| partner_known)));
        v.insert("partner_revealed".into(), json!(deal.partner_revealed));
        let alone = players == 5 && deal.called.is_some() && deal.partner.is_none();
        let alone_public = deal.dog_taken && deal.called.is_some_and(|c| deal.dog.contains(&c))
            || (deal.partner_revealed && deal.partner.is_none());
        let taker_knows = me.is_some()
            && me == deal.taker
            && deal.called.is_some_and(|c| me.is_some_and(|s| deal.dealt[s].contains(&c)));
        let alone_known = deal.called.is_some()
            && (open || deal.partner_revealed || alone_public || taker_knows || (me.is_some() && me == deal.partner));
        v.insert("taker_alone".into(), if alone_known { json!(alone) } else { Value::Null });
        let dog_visible = open || deal.dog_taken;
        v.insert("dog".into(), if dog_visible { json!(deal.dog) } else { Value::Null });
        v.insert("dog_size".into(), json!(deal.dog.len()));
        v.insert(
            "dog_to".into(),
            json!(deal.contract.map(|c| if c == Contract::AgainstDog { Side::Defence } else { Side::Taker })),
        );
        v.insert("discard_count".into(), json!(deal.discards.len()));
        let discards_visible = open || (me.is_some() && me == deal.taker);
        v.insert("discards".into(), if discards_visible { json!(deal.discards) } else { Value::Null });
        let shown: Vec<Card> = deal.discards.iter().copied().filter(|&c| is_trump(c)).collect();
        v.insert("discarded_trumps".into(), json!(shown));
        v.insert("slam_announced".into(), json!(deal.slam_announced));
        v.insert("poignees".into(), json!(deal.poignees));
        v.insert("trost".into(), json!(deal.trost));
        v.insert("hand_sizes".into(), json!(deal.hands.iter().map(Vec::len).collect::<Vec<_>>()));
        let first_played: Vec<bool> = (0..players).map(|s| deal.has_played(s)).collect();
        v.insert("has_played".into(), json!(first_played));
        v.insert(
            "trick".into(),
            json!({
                "leader": deal.trick.leader,
                "plays": deal.trick.plays.iter().map(|&(seat, card)| Play { seat, card }).collect::<Vec<_>>(),
                "led": led_of(&deal.trick.plays),
            }),
        );
        v.insert("tricks_played".into(), json!(deal.tricks.len()));
        let tricks_won: Vec<usize> =
            (0..players).map(|s| deal.tricks.iter().filter(|t| t.winner == s).count()).collect();
        v.insert("tricks_won".into(), json!(tricks_won));
        // As at the table, the tricks are turned down once taken: only the last stays in view.
        v.insert("last_trick".into(), json!(deal.tricks.last()));
        if let Some((count, scoring)) = &deal.result {
            v.insert("count".into(), json!(count));
            v.insert("scoring".into(), json!(scoring));
        }
        if let Some(s) = me {
            v.insert("hand".into(), json!(deal.hands[s]));
        }
        if open {
            v.insert("hands".into(), json!(deal.hands));
            v.insert("dealt".into(), json!(deal.dealt));
            v.insert("deck".into(), json!(deal.deck));
            v.insert("dog_positions".into(), json!(deal.dog_positions));
            v.insert("tricks".into(), json!(deal.tricks));
        }
        Value::Object(v)
    }

    pub(super) fn redact_event(&self, _state: &State, event: &Event, viewer: Viewer, deal_over: bool) -> Value {
        let full = serde_json::to_value(event).expect("events serialize");
        if viewer == Viewer::Record || deal_over {
            return full;
        }
        let Value::Object(mut map) = full else { return full };
        match event {
            Event::DealStarted { hands, dog, .. } => {
                map.remove("deck");
                map.remove("dog_positions");
                map.insert("dog".into(), Value::Null);
                map.insert("dog_size".into(), json!(dog.len()));
                map.insert("hand_sizes".into(), json!(hands.iter().map(Vec::len).collect::<Vec<_>>()));
                let shown: Vec<Value> = (0..hands.len())
                    .map(|s| if viewer == Viewer::Seat(s) { json!(hands[s]) } else { Value::Null })
                    .collect();
                map.insert("hands".into(), Value::Array(shown));
            }
            Event::Discarded { seat, shown: false, .. } if viewer != Viewer::Seat(*seat) => {
                map.insert("card".into(), Value::Null);
            }
            _ => {}
        }
        Value::Object(map)
    }

    pub(super) fn secret_cards(&self, state: &State) -> Vec<(Card, Vec<Seat>)> {
        let Some(deal) = &state.deal else { return Vec::new() };
        if deal.phase == Phase::Over {
            return Vec::new();
        }
        let hidden = |c: &Card| !deal.public.contains(c);
        let mut out: Vec<(Card, Vec<Seat>)> = Vec::new();
        for (s, hand) in deal.hands.iter().enumerate() {
            out.extend(hand.iter().filter(|c| hidden(c)).map(|&c| (c, vec![s])));
        }
        if !deal.dog_taken {
            out.extend(deal.dog.iter().filter(|c| hidden(c)).map(|&c| (c, Vec::new())));
        }
        if let Some(taker) = deal.taker {
            out.extend(deal.discards.iter().filter(|c| hidden(c)).map(|&c| (c, vec![taker])));
        }
        out
    }
}
