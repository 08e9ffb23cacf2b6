//! A player sees only what they could see at a real table: for every playable game, two people
//! at one table (bots in the other seats) never see each other's hand in any response.
//!
//! Copies count: with two packs (Vändåtta from five players) a card's code may be shown as often
//! as there are copies the viewer may know of, so a public 9♥ on the pile is no leak while the
//! other 9♥ is in the other person's hand, but a response showing that hidden copy too is.
//!
//! Which copy a hand holds is not always known from outside: in Vändtia a face-up 6♦ swapped
//! into Ada's hand stays public there, while Bo's own 6♦ showed in his deal event beside it.
//! Counting alone reads that as Ada's hidden copy, so a piece over the count is a leak only if
//! it also shows the viewer more copies than the same piece shows a spectator plus the copies
//! the viewer held this deal: whatever else a seat is shown privately must be its own.

use std::collections::BTreeMap;

use serde_json::{json, Value};

use kortbord_e2e::{cards_in, spawn_app};

/// The events of the deal in play: earlier deals are over and public, and the same cards are
/// dealt again, so only this deal's events can give a hand away.
fn this_deal(page: &Value, deal: &Value) -> Value {
    Value::Array(page["events"].as_array().unwrap().iter().filter(|e| &e["deal"] == deal).cloned().collect())
}

/// How many copies of each card the game's pack holds at a table of `players`.
fn copies(game: &dyn engine::game::Game, players: usize) -> BTreeMap<String, usize> {
    let m = game.setup(players, &Value::Null).unwrap();
    let mut copies = BTreeMap::new();
    for card in m.status().to_shuffle().unwrap_or_default() {
        *copies.entry(card.to_string()).or_insert(0) += 1;
    }
    copies
}

/// The player counts checked: the fewest, and the fewest whose pack holds a card twice.
fn player_counts(game: &dyn engine::game::Game) -> Vec<usize> {
    // Two people at the least: a table of one (BlackJack against the dealer) has no other seat.
    let mut counts = vec![(*game.player_counts().start()).max(2)];
    if let Some(two) = game.player_counts().filter(|&n| n >= 2).find(|&n| copies(game, n).values().any(|&c| c > 1)) {
        if !counts.contains(&two) {
            counts.push(two);
        }
    }
    counts
}

/// Each card of `hand` (the other person's) with how many of its copies the viewer may be shown
/// in one piece of a response: the pack's copies less those hidden in that hand. A copy of the
/// hand may be public (a card seen picked up): the public copies are counted as the hand's only
/// where the pack has too few others, `public` being the most a spectator's piece shows.
fn allowed(hand: &[String], public: &[Vec<String>], copies: &BTreeMap<String, usize>) -> BTreeMap<String, usize> {
    let mut out = BTreeMap::new();
    for card in hand {
        let pack = copies.get(card).copied().unwrap_or(1);
        let held = hand.iter().filter(|c| *c == card).count();
        let shown = public.iter().map(|p| p.iter().filter(|c| *c == card).count()).max().unwrap_or(0);
        let hidden = held.min(pack.saturating_sub(shown));
        if hidden > 0 {
            out.insert(card.clone(), pack - hidden);
        }
    }
    out
}

/// The first card a piece shows more often than `allowed` lets it.
fn shown_too_often(piece: &[String], allowed: &BTreeMap<String, usize>) -> Option<(String, usize, usize)> {
    allowed.iter().find_map(|(card, &may)| {
        let seen = piece.iter().filter(|c| *c == card).count();
        (seen > may).then(|| (card.clone(), seen, may))
    })
}

/// How many copies of `card` `piece` shows beyond its `public` counterpart.
fn beyond(piece: &[String], public: &[String], card: &str) -> usize {
    let count = |p: &[String]| p.iter().filter(|c| *c == card).count();
    count(piece).saturating_sub(count(public))
}

/// The first card a viewer's piece shows too often: over the count `allowed` lets it and, of
/// those copies, more privately (beyond the spectator's `public` piece) than the viewer `held`.
fn leaked(
    piece: &[String],
    public: &[String],
    allowed: &BTreeMap<String, usize>,
    held: &BTreeMap<String, usize>,
) -> Option<(String, usize, usize)> {
    let over = shown_too_often(piece, allowed)?;
    (beyond(piece, public, &over.0) > held.get(&over.0).copied().unwrap_or(0)).then_some(over)
}

/// Keeps in `held` the most copies of each card a seat's hand has held at once this deal.
fn note_held(held: &mut BTreeMap<String, usize>, hand: &[String]) {
    for card in hand {
        let n = hand.iter().filter(|c| *c == card).count();
        let most = held.entry(card.clone()).or_insert(0);
        *most = (*most).max(n);
    }
}

/// The spectator's counterpart of each piece `pieces(view, events, moves)` gives: the same
/// event (by `seq`: a move's answer holds only the events it led to), the spectator's view for
/// the view and for the legal moves (a move may name a public card).
fn counterparts(spectator_view: &Value, spectator_events: &Value, events: &Value, moves: bool) -> Vec<Vec<String>> {
    let view = cards_in(spectator_view);
    let spectator = spectator_events.as_array().unwrap();
    let mut out = vec![view.clone()];
    out.extend(
        events
            .as_array()
            .unwrap()
            .iter()
            .map(|e| spectator.iter().find(|p| p["seq"] == e["seq"]).map(cards_in).unwrap_or_default()),
    );
    if moves {
        out.push(view);
    }
    out
}

/// A response in the pieces that are each one view of the table: the view, each event, the
/// legal moves (each card once, as several moves may lay the same card).
fn pieces(view: &Value, events: &Value, moves: Option<&Value>) -> Vec<Vec<String>> {
    let mut out = vec![cards_in(view)];
    out.extend(events.as_array().unwrap().iter().map(cards_in));
    if let Some(moves) = moves {
        let mut named = cards_in(moves);
        named.sort();
        named.dedup();
        out.push(named);
    }
    out
}

#[actix_web::test]
async fn no_response_to_a_seat_holds_another_seats_hand_in_any_game() {
    let app = spawn_app().await;
    let (ada, _) = app.guest("Ada").await;
    let (bo, _) = app.guest("Bo").await;
    let mut rng = engine::random::Rng::new(7);
    for game in engine::playable() {
        for players in player_counts(game.as_ref()) {
            let copies = copies(game.as_ref(), players);
            scan(&app, &ada, &bo, game.id(), players, &copies, &mut rng).await;
        }
    }
}

async fn scan(
    app: &kortbord_e2e::TestApp,
    ada: &str,
    bo: &str,
    game: &str,
    players: usize,
    copies: &BTreeMap<String, usize>,
    rng: &mut engine::random::Rng,
) {
    let seats: Vec<Value> = (0..players)
        .map(|s| match s {
            0 => json!({"kind": "me"}),
            1 => json!({"kind": "open"}),
            _ => json!({"kind": "bot"}),
        })
        .collect();
    let hand_of = |view: &Value| -> Vec<String> { cards_in(&view["table"]["hand"]) };
    let mut checked = 0;
    // A match can end within a few moves (a Trettioett deal won at once on 31): another
    // one is played until enough steps were checked.
    for _match in 0..5 {
        if checked > 10 {
            break;
        }
        let created = app.create_match(ada, json!({ "game": game, "seats": seats })).await;
        let id = created["id"].as_str().unwrap().to_string();
        let joined = app.post(&format!("/v1/matches/{id}/seats/1/join")).token(bo).send().await;
        assert_eq!(joined.status.as_u16(), 200, "{}", joined.body);
        let (mut held_deal, mut a_held, mut b_held) = (Value::Null, BTreeMap::new(), BTreeMap::new());
        for _ in 0..150 {
            let a_view = app.view(ada, &id, Some(0)).await;
            if a_view["phase"] == "finished" {
                break;
            }
            let b_view = app.view(bo, &id, Some(1)).await;
            let (a_hand, b_hand) = (hand_of(&a_view), hand_of(&b_view));
            let deal = a_view["deal_number"].clone();
            if deal != held_deal {
                (held_deal, a_held, b_held) = (deal.clone(), BTreeMap::new(), BTreeMap::new());
            }
            note_held(&mut a_held, &a_hand);
            note_held(&mut b_held, &b_hand);
            let a_events = this_deal(&app.get(&format!("/v1/matches/{id}/events")).token(ada).send().await.body, &deal);
            let b_events = this_deal(&app.get(&format!("/v1/matches/{id}/events")).token(bo).send().await.body, &deal);
            let spectator_view = app.get(&format!("/v1/matches/{id}")).send().await.body;
            let spectator_events = this_deal(&app.get(&format!("/v1/matches/{id}/events")).send().await.body, &deal);
            let a_moves = Value::Array(app.legal_moves(ada, &id, 0).await);
            let b_moves = Value::Array(app.legal_moves(bo, &id, 1).await);
            // A card shown to the whole table (a turned card taken into a hand, a shown dog) is
            // no secret; what a spectator may see is checked in the engine against `secrets`.
            let public = pieces(&spectator_view, &spectator_events, None);
            // A card a seat handed to the other itself (President's exchange) is known to it
            // in the other's hand.
            let gave = |events: &Value, seat: u64| -> Vec<String> {
                let given = events.as_array().unwrap().iter().filter(|e| {
                    e["data"]["type"] == "cards_given" && e["data"]["from"] == seat && e["game"] == "president"
                });
                given.flat_map(|e| cards_in(&e["data"]["cards"])).collect()
            };
            let (a_gave, b_gave) = (gave(&a_events, 0), gave(&b_events, 1));
            let unknown = |hand: &[String], given: &[String]| -> Vec<String> {
                hand.iter().filter(|c| !given.contains(c)).cloned().collect()
            };
            let (a_unknown, b_unknown) = (unknown(&a_hand, &b_gave), unknown(&b_hand, &a_gave));
            let (a_secret, b_secret) = (allowed(&a_unknown, &public, copies), allowed(&b_unknown, &public, copies));
            for (who, seen, events, secret, held) in [
                ("Ada's response", pieces(&a_view, &a_events, Some(&a_moves)), &a_events, &b_secret, &a_held),
                ("Bo's response", pieces(&b_view, &b_events, Some(&b_moves)), &b_events, &a_secret, &b_held),
            ] {
                for (piece, public) in seen.iter().zip(counterparts(&spectator_view, &spectator_events, events, true)) {
                    if let Some((card, times, may)) = leaked(piece, &public, secret, held) {
                        panic!("{game} with {players} players: {who} shows {card} {times} time(s), {may} allowed");
                    }
                }
            }
            checked += 1;
            // Whoever of the two is to act moves; bots have already moved.
            // A game on the server's clock lists seats with nothing to do, and its bots react
            // only when their delay is over: then the two wait for them.
            let has_moves = |s: u64| !(if s == 0 { &a_moves } else { &b_moves }).as_array().unwrap().is_empty();
            let seat = a_view["to_act"]
                .as_array()
                .unwrap()
                .iter()
                .filter_map(Value::as_u64)
                .find(|s| *s <= 1 && has_moves(*s));
            let Some(seat) = seat.map(|s| s as usize) else {
                if engine::game(game).is_some_and(|g| g.clocked()) {
                    actix_web::rt::time::sleep(std::time::Duration::from_millis(250)).await;
                    continue;
                }
                panic!("{game}: nobody to act: {a_view}")
            };
            let (token, moves) = if seat == 0 { (ada, &a_moves) } else { (bo, &b_moves) };
            let moves = moves.as_array().unwrap();
            let r = app.play(token, &id, seat, &moves[rng.below(moves.len())]).await;
            assert_eq!(r.status.as_u16(), 200, "{game}: {}", r.body);
            if r.body["match"]["deal_number"] == deal {
                // A move may make another seat's card public (the last bottom card chosen in
                // Fyrmanswhist shows the others'): what a spectator now sees is no secret.
                let spectator_view = app.get(&format!("/v1/matches/{id}")).send().await.body;
                let spectator_events =
                    this_deal(&app.get(&format!("/v1/matches/{id}/events")).send().await.body, &deal);
                let public_after = pieces(&spectator_view, &spectator_events, None);
                let (other_hand, held) = if seat == 0 { (&b_unknown, &mut a_held) } else { (&a_unknown, &mut b_held) };
                let secret = allowed(other_hand, &public_after, copies);
                let events = this_deal(&r.body, &deal);
                let answer = pieces(&r.body["match"], &events, None);
                // The answer's hand is the mover's now: a card it just took is its own.
                note_held(held, &hand_of(&r.body["match"]));
                for (piece, public) in
                    answer.iter().zip(counterparts(&spectator_view, &spectator_events, &events, false))
                {
                    if let Some((card, times, may)) = leaked(piece, &public, &secret, held) {
                        panic!("{game} with {players} players: a move's answer shows {card} {times} time(s), {may} allowed");
                    }
                }
            }
        }
    }
    assert!(checked > 10, "{game} with {players} players: only {checked} steps checked");
}

#[actix_web::test]
async fn a_deal_in_play_has_no_public_record() {
    let app = spawn_app().await;
    let (ada, _) = app.guest("Ada").await;
    let created = app
        .create_match(&ada, json!({ "game": "plump", "seats": [{"kind": "me"}, {"kind": "bot"}, {"kind": "bot"}] }))
        .await;
    let id = created["id"].as_str().unwrap();
    app.get(&format!("/v1/matches/{id}/deals/1")).send().await.assert_problem(409, "deal-in-progress");
    app.get(&format!("/v1/matches/{id}/deals/1/replay?at=1")).send().await.assert_problem(409, "deal-in-progress");
}

#[test]
fn a_public_copy_in_a_hand_beside_the_viewers_own_is_no_leak_but_a_hidden_one_is() {
    let cards = |s: &[&str]| -> Vec<String> { s.iter().map(|c| c.to_string()).collect() };
    let copies = BTreeMap::from([("6D".to_string(), 2)]);
    // Bo's deal event: his own 6D and Ada's face-up 6D, which she has since swapped into her hand.
    let (piece, public, ada) = (cards(&["6D", "6D"]), cards(&["6D"]), cards(&["6D"]));
    let secret = allowed(&ada, std::slice::from_ref(&public), &copies);
    let bo_held = BTreeMap::from([("6D".to_string(), 1)]);
    assert_eq!(leaked(&piece, &public, &secret, &bo_held), None);
    // Bo holding no 6D, a second one shown him privately is Ada's.
    assert!(leaked(&piece, &public, &secret, &BTreeMap::new()).is_some());
    // Ada's 6D hidden, the other public: Bo may not be shown both.
    let secret = allowed(&ada, &[cards(&["6D"])], &copies);
    assert!(leaked(&piece, &cards(&[]), &secret, &bo_held).is_some());
    assert_eq!(leaked(&cards(&["6D"]), &cards(&["6D"]), &secret, &BTreeMap::new()), None);
}
