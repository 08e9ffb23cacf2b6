//! The basic and strong bots' view of Tarot: the taker (with the called partner at five) plays
//! to reach the points its bouts need, the defence to keep it short; both fight over the bouts
//! (the Petit above all) and the kings, and a side that holds a trick loads it with points.

use super::{
    callable_value, deal_plan, half_points, is_bout, is_king, is_trump, led_of, playable, poignee_show, sort_hand,
    suit_card, suit_value, trick_winner, trump_number, Command, Contract, Deal, Phase, Poignee, State, EXCUSE, PETIT,
    TWENTY_ONE,
};
use crate::bots;
use crate::cards::{decks, take_card, Card, Suit};
use crate::random::Rng;
use crate::seat::Seat;

// ---------------------------------------------------------------------------------------------
// What a seat knows

/// What a seat's play has shown it lacks: suits it failed to follow, and the highest trump it
/// may still hold (0: none, after failing to trump; below a trump it failed to overtrump).
#[derive(Clone, Copy, Debug)]
struct Shown {
    void: [bool; 4],
    trump_cap: u8,
}

/// Every seat's [`Shown`], from the tricks played (public knowledge). The Excuse shows nothing:
/// it may always be played.
fn shown(deal: &Deal) -> Vec<Shown> {
    let mut out = vec![Shown { void: [false; 4], trump_cap: 21 }; deal.play.table.seats];
    for t in &deal.play.tricks {
        note_trick(&mut out, t.plays.iter().map(|p| (p.seat, p.card)));
    }
    note_trick(&mut out, deal.play.trick.plays.iter().copied());
    out
}

fn note_trick(out: &mut [Shown], plays: impl Iterator<Item = (Seat, Card)>) {
    let mut led = None;
    let mut high = 0u8;
    for (s, c) in plays {
        if c == EXCUSE {
            continue;
        }
        let t = trump_number(c);
        let Some(l) = led else {
            led = Some(c.suit());
            high = t.unwrap_or(0);
            continue;
        };
        let shown = &mut out[s];
        match (l, t) {
            // Trumps led, a trump below the highest: none higher held.
            (None, Some(n)) if n < high => shown.trump_cap = shown.trump_cap.min(high),
            // Trumps led, no trump given: none held.
            (None, None) => shown.trump_cap = 0,
            (Some(suit), t) if !c.is_suit(suit) => {
                shown.void[suit as usize] = true;
                match t {
                    Some(n) if n < high => shown.trump_cap = shown.trump_cap.min(high),
                    None => shown.trump_cap = 0,
                    _ => {}
                }
            }
            _ => {}
        }
        high = high.max(t.unwrap_or(0));
    }
}

/// Cards that may still be held against `seat`: neither in its hand, nor played, nor (for the
/// taker) among its discards. Bit n of `trumps` is trump n; bit v of `suits[s]` is value v.
struct Out {
    trumps: u32,
    suits: [u16; 4],
}

impl Out {
    fn of(deal: &Deal, seat: Seat) -> Out {
        let mut out = Out { trumps: ((1u32 << 22) - 1) & !1, suits: [((1u16 << 15) - 1) & !1; 4] };
        let own_discards = (deal.taker == Some(seat)).then_some(&deal.discards);
        let gone = deal.play.hands[seat].iter().copied().chain(deal.play.played().map(|(_, c)| c));
        for c in gone.chain(own_discards.into_iter().flatten().copied()) {
            out.remove(c);
        }
        out
    }

    fn remove(&mut self, c: Card) {
        if let Some(n) = trump_number(c) {
            self.trumps &= !(1 << n);
        } else if let (Some(s), Some(v)) = (c.suit(), suit_value(c)) {
            self.suits[s as usize] &= !(1 << v);
        }
    }

    fn trumps_above(&self, n: u8) -> bool {
        self.trumps >> (n + 1) != 0
    }

    fn trump_count(&self) -> u32 {
        self.trumps.count_ones()
    }

    /// No card of its suit still out beats `card`.
    fn is_master(&self, card: Card) -> bool {
        match (card.suit(), suit_value(card), trump_number(card)) {
            (Some(s), Some(v), _) => self.suits[s as usize] >> (v + 1) == 0,
            (_, _, Some(n)) => !self.trumps_above(n),
            _ => false,
        }
    }
}

/// Whether `seat` plays on the taker's side, from what it sees: the taker, or the holder of the
/// called card.
fn on_taker_side(deal: &Deal, seat: Seat) -> bool {
    Some(seat) == deal.taker
        || deal.called.is_some_and(|c| deal.play.hands[seat].contains(&c))
        || (deal.partner_revealed && deal.partner == Some(seat))
}

/// Whether `seat` knows `other` to be on its own side.
fn ally(deal: &Deal, seat: Seat, other: Seat) -> bool {
    if seat == other {
        return true;
    }
    let Some(taker) = deal.taker else { return false };
    let revealed = deal.partner.filter(|_| deal.partner_revealed);
    if on_taker_side(deal, seat) {
        // The partner knows the taker; the taker knows its partner once the called card is out.
        other == taker || revealed == Some(other)
    } else {
        // A defender knows its fellows once there is no partner left to guess at.
        let alone = deal.dog_taken && deal.called.is_some_and(|c| deal.dog.contains(&c));
        let partner_known = deal.called.is_none() || deal.partner_revealed || alone;
        other != taker && partner_known && revealed != Some(other)
    }
}

// ---------------------------------------------------------------------------------------------
// Bidding, calling, the dog

/// A hand's worth by the usual count, scaled to a four-player hand of 18 cards: the 21 10, the
/// Excuse 8, the Petit 4 to 8 as the trumps guard it, a trump 1 (2 from the 16 up) and 1.5 more
/// from the fifth; kings 6, queens 3, knights 2, jacks 1; with trumps, 6 for a void and 3 for a
/// singleton.
pub fn strength(hand: &[Card]) -> f64 {
    let trumps: Vec<u8> = hand.iter().filter_map(|&c| trump_number(c)).collect();
    let n = trumps.len() as f64;
    let mut points = 0.0;
    for &t in &trumps {
        points += match t {
            21 => 10.0,
            1 => [4.0, 4.0, 4.0, 5.0, 5.0, 6.0, 8.0][trumps.len().min(6)],
            16..=20 => 2.0,
            _ => 1.0,
        };
    }
    points += (n - 4.0).max(0.0) * 1.5;
    if hand.contains(&EXCUSE) {
        points += 8.0;
    }
    for suit in Suit::ALL {
        let cards: Vec<u8> = hand.iter().filter(|c| c.is_suit(suit)).filter_map(|&c| suit_value(c)).collect();
        for &v in &cards {
            points += match v {
                14 => 6.0,
                13 => 3.0,
                12 => 2.0,
                11 => 1.0,
                _ => 0.0,
            };
        }
        if trumps.len() >= 4 {
            points += match cards.len() {
                0 => 6.0,
                1 => 3.0,
                _ => 0.0,
            };
        }
        if cards.len() >= 5 {
            points += (cards.len() - 4) as f64 * 2.0;
        }
    }
    points * 18.0 / hand.len().max(1) as f64
}

/// The contract a hand of `strength` is worth: small from 40, big from 56, without the dog from
/// 71, against it from 81.
pub fn contract_for(strength: f64) -> Option<Contract> {
    match strength {
        s if s >= 81.0 => Some(Contract::AgainstDog),
        s if s >= 71.0 => Some(Contract::WithoutDog),
        s if s >= 56.0 => Some(Contract::Big),
        s if s >= 40.0 => Some(Contract::Small),
        _ => None,
    }
}

fn basic_bid(deal: &Deal, seat: Seat) -> Command {
    let wanted = contract_for(strength(&deal.play.hands[seat]));
    match wanted {
        Some(c) if deal.highest_bid().is_none_or(|h| c > h) => Command::Bid { contract: c },
        _ => Command::Pass,
    }
}

/// The king (or the rank the hand calls) of the suit the taker is best in without it: its
/// partner's card then guards the taker's own.
fn basic_call(deal: &Deal, seat: Seat) -> Command {
    let hand = &deal.play.hands[seat];
    let value = callable_value(hand);
    let worth = |s: Suit| {
        let cards = hand.iter().filter(|c| c.is_suit(s));
        (cards.clone().map(|&c| half_points(c)).sum::<u32>(), cards.count())
    };
    let suit = Suit::ALL
        .into_iter()
        .filter(|&s| !hand.contains(&suit_card(s, value)))
        .max_by_key(|&s| worth(s))
        .unwrap_or(Suit::Spades);
    Command::Call { suit }
}

/// The cards the taker may lay away now, by the rules on kings, bouts and trumps.
fn discardable(deal: &Deal, seat: Seat) -> Vec<Card> {
    let hand = &deal.play.hands[seat];
    let plain: Vec<Card> = hand.iter().copied().filter(|&c| !is_trump(c) && !is_king(c) && c != EXCUSE).collect();
    let remaining = deal.dog.len() - deal.discards.len();
    if plain.len() >= remaining {
        plain
    } else {
        plain.into_iter().chain(hand.iter().copied().filter(|&c| is_trump(c) && !is_bout(c))).collect()
    }
}

/// Laying away counts the cards for the taker, and a void lets it trump: empty the shortest
/// suit it can empty, its best card first, else lay away the best card there is.
fn basic_discard(deal: &Deal, seat: Seat) -> Option<Card> {
    let allowed = discardable(deal, seat);
    let remaining = deal.dog.len() - deal.discards.len();
    let in_suit = |c: Card| allowed.iter().filter(|d| d.suit() == c.suit() && !is_trump(**d)).count();
    let plain = allowed.iter().copied().filter(|&c| !is_trump(c));
    let voidable = plain
        .clone()
        .filter(|&c| in_suit(c) <= remaining)
        .min_by_key(|&c| (in_suit(c), std::cmp::Reverse(half_points(c))));
    voidable
        .or_else(|| plain.max_by_key(|&c| (half_points(c), std::cmp::Reverse(in_suit(c)))))
        .or_else(|| allowed.iter().copied().min_by_key(|&c| trump_number(c)))
}

/// The trumps a player may show as a poignée, the largest first.
fn poignee_level(state: &State, deal: &Deal, seat: Seat) -> Option<Poignee> {
    if !state.options.poignee || deal.poignees[seat].is_some() || deal.has_played(seat) {
        return None;
    }
    let hand = &deal.play.hands[seat];
    Poignee::ALL.into_iter().rev().find(|&l| poignee_show(hand, state.players(), l).is_some())
}

fn may_claim_trost(state: &State, deal: &Deal, seat: Seat) -> bool {
    state.options.trost
        && !deal.trost[seat]
        && !deal.has_played(seat)
        && !deal.play.hands[seat].iter().any(|&c| super::is_court(c))
}

// ---------------------------------------------------------------------------------------------
// Card play

/// The cards `seat` may play: the duties to follow, trump and overtrump, and the first lead's
/// ban on the called suit.
fn legal_cards(deal: &Deal, seat: Seat) -> Vec<Card> {
    let hand = &deal.play.hands[seat];
    let plays = &deal.play.trick.plays;
    let mut cards = playable(hand, plays);
    if let (true, Some(called), Some(suit)) =
        (deal.play.tricks.is_empty() && plays.is_empty(), deal.called, deal.called.and_then(|c| c.suit()))
    {
        if hand.iter().any(|c| !c.is_suit(suit)) {
            cards.retain(|&c| !c.is_suit(suit) || c == called);
        }
    }
    cards
}

/// Who holds the trick so far: `None` while it holds only the Excuse.
fn holding(plays: &[(Seat, Card)]) -> Option<(Seat, Card)> {
    led_of(plays)?;
    let (s, c, _) = trick_winner(plays);
    Some((s, c))
}

/// A trick-taking strength for ordering cards: suit cards by value, trumps above them.
fn rank(c: Card) -> u8 {
    trump_number(c).map_or_else(|| suit_value(c).unwrap_or(0), |n| 20 + n)
}

/// How often each suit has been led in the deal.
fn times_led(deal: &Deal) -> [u8; 4] {
    let mut led = [0u8; 4];
    for t in &deal.play.tricks {
        if let Some(s) = t.plays.iter().map(|p| p.card).find(|&c| c != EXCUSE).and_then(|c| c.suit()) {
            led[s as usize] += 1;
        }
    }
    led
}

struct Table<'a> {
    deal: &'a Deal,
    seat: Seat,
    out: Out,
    shown: Vec<Shown>,
    led: [u8; 4],
}

impl Table<'_> {
    fn ally(&self, other: Seat) -> bool {
        ally(self.deal, self.seat, other)
    }

    /// The seats still to play to the trick after this one.
    fn to_come(&self) -> Vec<Seat> {
        let play = &self.deal.play;
        let order = play.seats_in_from(play.trick.leader);
        order.into_iter().skip(play.trick.plays.len() + 1).collect()
    }

    /// No seat still to play that is not an ally can beat `card` (laid as the trick's winner).
    fn safe(&self, card: Card, to_come: &[Seat], led: Option<Suit>) -> bool {
        let threats: Vec<Seat> = to_come.iter().copied().filter(|&s| !self.ally(s)).collect();
        if threats.is_empty() {
            return true;
        }
        match trump_number(card) {
            Some(n) => !threats.iter().any(|&s| self.shown[s].trump_cap > n) || !self.out.trumps_above(n),
            None => {
                let Some(suit) = led else { return false };
                let first_rounds = self.led[suit as usize] < 2;
                self.out.is_master(card)
                    && first_rounds
                    && threats.iter().all(|&s| !self.shown[s].void[suit as usize] || self.shown[s].trump_cap == 0)
            }
        }
    }
}

fn play_card(deal: &Deal, seat: Seat) -> Option<Card> {
    let legal = legal_cards(deal, seat);
    if legal.len() <= 1 {
        return legal.first().copied();
    }
    // The Excuse is lost in the last trick: lay it before then.
    if legal.contains(&EXCUSE) && deal.play.hands[seat].len() <= 2 {
        return Some(EXCUSE);
    }
    let t = Table { deal, seat, out: Out::of(deal, seat), shown: shown(deal), led: times_led(deal) };
    if deal.play.trick.plays.is_empty() {
        Some(lead(&t, &legal))
    } else {
        Some(follow(&t, &legal))
    }
}

/// The cheapest card to give away: fewest points, then the lowest; the Petit and the 21 only
/// when nothing else goes.
fn cheapest(cards: &[Card]) -> Option<Card> {
    cards
        .iter()
        .copied()
        .filter(|&c| c != EXCUSE)
        .min_by_key(|&c| (c == PETIT || c == TWENTY_ONE, half_points(c), rank(c)))
}

fn follow(t: &Table, legal: &[Card]) -> Card {
    let plays = &t.deal.play.trick.plays;
    let to_come = t.to_come();
    let led = led_of(plays);
    let led_suit = led.and_then(|_| plays.iter().map(|p| p.1).find(|&c| c != EXCUSE).and_then(|c| c.suit()));
    let cards: Vec<Card> = legal.iter().copied().filter(|&c| c != EXCUSE).collect();
    let wins = |c: Card| {
        let mut p = plays.clone();
        p.push((t.seat, c));
        holding(&p).is_some_and(|(s, _)| s == t.seat)
    };
    let holder = holding(plays);
    let ours = holder.is_some_and(|(s, c)| t.ally(s) && t.safe(c, &to_come, led_suit));
    if ours {
        // Load the trick: the Petit is saved under a partner's winning trump; then the most
        // points, the 21 last of all (it wins a trick of its own).
        return cards
            .iter()
            .copied()
            .max_by_key(|&c| (c == PETIT, c != TWENTY_ONE, half_points(c), std::cmp::Reverse(rank(c))))
            .unwrap_or(EXCUSE);
    }
    let safe: Vec<Card> = cards.iter().copied().filter(|&c| wins(c) && t.safe(c, &to_come, led_suit)).collect();
    if let Some(c) = safe.iter().copied().min_by_key(|&c| (c == TWENTY_ONE, rank(c))) {
        return c;
    }
    let holder_is_ally = holder.is_some_and(|(s, _)| t.ally(s));
    if !holder_is_ally {
        // A cheap card that may win: a low trump when trumping anyway, a low card of the suit.
        let chance = cards
            .iter()
            .copied()
            .filter(|&c| wins(c) && c != PETIT && (is_trump(c) || half_points(c) <= 3))
            .min_by_key(|&c| rank(c));
        if let Some(c) = chance {
            return c;
        }
    }
    let give = cheapest(&cards);
    match give {
        // Keep a card of points (or the Petit) from the other side with the Excuse.
        Some(c) if legal.contains(&EXCUSE) && !holder_is_ally && (half_points(c) >= 3) => EXCUSE,
        Some(c) => c,
        None => EXCUSE,
    }
}

fn lead(t: &Table, legal: &[Card]) -> Card {
    let deal = t.deal;
    let taker_side = on_taker_side(deal, t.seat);
    let cards: Vec<Card> = legal.iter().copied().filter(|&c| c != EXCUSE).collect();
    if cards.is_empty() {
        return EXCUSE;
    }
    let led = t.led;
    let opponents: Vec<Seat> = (0..deal.play.table.seats).filter(|&s| !t.ally(s)).collect();
    let nobody_void = |s: Suit| opponents.iter().all(|&o| !t.shown[o].void[s as usize] || t.shown[o].trump_cap == 0);
    let trumps: Vec<Card> = cards.iter().copied().filter(|&c| is_trump(c)).collect();
    let plain = || cards.iter().copied().filter(|&c| !is_trump(c));
    // A king or other top card of a suit in its first rounds, while nobody against has shown a
    // void in it.
    let master = plain()
        .filter(|&c| {
            let s = c.suit().expect("a suit card");
            t.out.is_master(c) && led[s as usize] < 2 && nobody_void(s) && t.out.suits[s as usize] != 0
        })
        .max_by_key(|&c| half_points(c));
    let low_trump = trumps.iter().copied().filter(|&c| c != PETIT && c != TWENTY_ONE).min_by_key(|&c| rank(c));
    if taker_side {
        // Draw the defence's trumps while holding as many: from the top while it is master.
        let out = t.out.trump_count() as usize;
        if out > 0 && trumps.len() >= out {
            let top = trumps.iter().copied().max_by_key(|&c| rank(c));
            if let Some(c) = top.filter(|&c| t.out.is_master(c)) {
                return c;
            }
            if let Some(c) = low_trump {
                return c;
            }
        }
        if let Some(c) = master {
            return c;
        }
        // A low card of the shortest suit, toward a void.
        let length = |c: Card| cards.iter().filter(|d| d.suit() == c.suit()).count();
        if let Some(c) = plain().filter(|&c| half_points(c) == 1).min_by_key(|&c| (length(c), rank(c))) {
            return c;
        }
    } else {
        if let Some(c) = master {
            return c;
        }
        // Make the taker trump: a low card of a suit it lacks while it may have trumps.
        let taker = deal.taker.unwrap_or(t.seat);
        let forcing = plain()
            .filter(|&c| {
                let s = c.suit().expect("a suit card") as usize;
                t.shown[taker].void[s] && t.shown[taker].trump_cap > 0
            })
            .min_by_key(|&c| (half_points(c), rank(c)));
        if let Some(c) = forcing {
            return c;
        }
        let length = |c: Card| cards.iter().filter(|d| d.suit() == c.suit()).count();
        if let Some(c) =
            plain().filter(|&c| half_points(c) == 1).min_by_key(|&c| (std::cmp::Reverse(length(c)), rank(c)))
        {
            return c;
        }
    }
    if let Some(c) = trumps.iter().copied().filter(|&c| t.out.is_master(c)).max_by_key(|&c| rank(c)) {
        return c;
    }
    low_trump.or_else(|| cheapest(&cards)).unwrap_or(EXCUSE)
}

// ---------------------------------------------------------------------------------------------
// The hooks

pub fn basic_move(state: &State, seat: Seat, _rng: &mut Rng) -> Option<Command> {
    let deal = state.deals.acting(seat)?;
    match deal.phase {
        Phase::Bidding => Some(basic_bid(deal, seat)),
        Phase::Calling => Some(basic_call(deal, seat)),
        Phase::Discarding => basic_discard(deal, seat).map(|card| Command::Discard { card }),
        // A slam is for hands of nothing but trumps and kings, the 21 and the Excuse among them.
        Phase::Slam => {
            let hand = &deal.play.hands[seat];
            let sure = hand.iter().all(|&c| is_trump(c) || is_king(c) || c == EXCUSE)
                && hand.contains(&TWENTY_ONE)
                && hand.contains(&EXCUSE)
                && hand.iter().filter(|&&c| is_trump(c)).count() * 3 >= hand.len() * 2;
            Some(if sure { Command::AnnounceSlam } else { Command::DeclineSlam })
        }
        Phase::Playing => {
            if may_claim_trost(state, deal, seat) {
                return Some(Command::DeclareTrost);
            }
            // A poignée's bonus goes to the side that wins: the taker's side shows one.
            if let Some(level) = poignee_level(state, deal, seat).filter(|_| on_taker_side(deal, seat)) {
                return Some(Command::DeclarePoignee { level });
            }
            play_card(deal, seat).map(|card| Command::Play { card })
        }
        _ => None,
    }
}

/// Most discards and cards the strong bot weighs: a playout is a whole deal of 72 cards, and
/// fewer candidates leave fewer playouts (`Budget::STRONG` gives each at most 48 worlds).
const MOST_DISCARDS: usize = 3;
const MOST_CARDS: usize = 4;

/// The moves the strong bot weighs: bids up to a contract above the hand's count; calls; a few
/// discards (the basic one, then per suit its best card); tröst always; the largest poignée or
/// none; and a few cards: the basic one, then the lowest of each suit and of the trumps, the
/// bouts, the highest of each.
pub fn candidates(state: &State, seat: Seat, legal: Vec<Command>) -> Vec<Command> {
    let Some(deal) = state.deals.acting(seat) else { return legal };
    let basic = basic_move(state, seat, &mut Rng::new(0));
    match deal.phase {
        Phase::Bidding => {
            let cap = contract_for(strength(&deal.play.hands[seat])).map_or(0, |c| c as usize + 1);
            legal.into_iter().filter(|m| !matches!(m, Command::Bid { contract } if *contract as usize > cap)).collect()
        }
        Phase::Discarding => {
            let allowed = discardable(deal, seat);
            let mut keep: Vec<Card> = basic_discard(deal, seat).into_iter().collect();
            for group in groups(&allowed) {
                keep.extend(group.iter().max_by_key(|&&c| (half_points(c), rank(c))));
            }
            first_few(keep, MOST_DISCARDS).into_iter().map(|card| Command::Discard { card }).collect()
        }
        Phase::Slam => basic.into_iter().collect(),
        Phase::Playing => {
            if may_claim_trost(state, deal, seat) {
                return vec![Command::DeclareTrost];
            }
            let level = poignee_level(state, deal, seat);
            let cards: Vec<Card> = legal
                .iter()
                .filter_map(|m| match m {
                    Command::Play { card } => Some(*card),
                    _ => None,
                })
                .collect();
            let mut keep: Vec<Card> = match basic {
                Some(Command::Play { card }) => vec![card],
                _ => Vec::new(),
            };
            let groups = groups(&cards);
            keep.extend(groups.iter().filter_map(|g| g.iter().copied().min_by_key(|&c| rank(c))));
            keep.extend(cards.iter().copied().filter(|&c| is_bout(c)));
            keep.extend(groups.iter().filter_map(|g| g.iter().copied().max_by_key(|&c| rank(c))));
            level
                .map(|level| Command::DeclarePoignee { level })
                .into_iter()
                .chain(first_few(keep, MOST_CARDS).into_iter().map(|card| Command::Play { card }))
                .collect()
        }
        _ => legal,
    }
}

/// The first `n` distinct cards of `cards`, in order.
fn first_few(cards: Vec<Card>, n: usize) -> Vec<Card> {
    let mut out: Vec<Card> = Vec::with_capacity(n);
    for c in cards {
        if out.len() < n && !out.contains(&c) {
            out.push(c);
        }
    }
    out
}

/// Cards by suit, trumps and the Excuse each a group of their own.
fn groups(cards: &[Card]) -> Vec<Vec<Card>> {
    let mut out: Vec<Vec<Card>> = vec![Vec::new(); 6];
    for &c in cards {
        let k = match (c.suit(), is_trump(c)) {
            (Some(s), _) => s as usize,
            (None, true) => 4,
            _ => 5,
        };
        out[k].push(c);
    }
    out.retain(|g| !g.is_empty());
    out
}

/// The deal as `seat` knows it: its own hand, the cards played, the shown dog, shown trumps
/// (discarded or in a poignée), its own discards if it is the taker; the other hands, a dog
/// never shown and the discards it did not see dealt afresh, keeping the suits and trumps a
/// seat has shown it lacks, the dog's cards with the taker (in hand or laid away) and the
/// partner as whoever is dealt the called card.
pub fn determinize(state: &State, seat: Seat, rng: &mut Rng) -> Option<State> {
    let mut world = state.clone();
    let deal = world.deals.live_mut()?;
    let players = deal.play.table.seats;
    let taker = deal.taker;
    let is_taker = taker == Some(seat);
    let shown_seats = shown(deal);
    let played: Vec<(Seat, Card)> = deal.play.played().collect();
    // The dog's cards the taker took up in sight of all, where `seat` does not know them to be.
    let dog_with_taker: Vec<Card> = if deal.dog_taken && !is_taker { deal.dog.clone() } else { Vec::new() };
    let hidden_discards = |c: &Card| !is_trump(*c);
    let seen_discards: Vec<Card> = deal.discards.iter().copied().filter(|c| is_taker || !hidden_discards(c)).collect();
    let poignee_of = |c: Card| -> Option<Seat> {
        deal.poignees.iter().flatten().find(|p| p.seat != seat && p.trumps.contains(&c)).map(|p| p.seat)
    };

    let mut pool = decks::tarot78();
    let known = deal.play.hands[seat].iter().chain(played.iter().map(|(_, c)| c)).chain(&seen_discards);
    for c in known {
        take_card(&mut pool, *c);
    }
    let others: Vec<Seat> = (0..players).filter(|&s| s != seat).collect();
    let mut sizes: Vec<usize> = others.iter().map(|&s| deal.play.hands[s].len()).collect();
    let dog_pile = (!deal.dog_taken).then_some(sizes.len());
    if dog_pile.is_some() {
        sizes.push(deal.dog.len());
    }
    let discard_pile = (deal.dog_taken && !is_taker).then_some(sizes.len());
    if discard_pile.is_some() {
        sizes.push(deal.discards.len() - seen_discards.len());
    }
    let taker_pile = taker.and_then(|t| others.iter().position(|&s| s == t));
    let allowed = |pile: usize, c: Card| -> bool {
        if Some(pile) == discard_pile {
            return hidden_discards(&c) && !is_king(c) && c != EXCUSE && poignee_of(c).is_none();
        }
        if Some(pile) == dog_pile {
            return poignee_of(c).is_none();
        }
        let s = others[pile];
        if let Some(p) = poignee_of(c) {
            return p == s;
        }
        if dog_with_taker.contains(&c) {
            return Some(pile) == taker_pile;
        }
        let sh = &shown_seats[s];
        match (c.suit(), trump_number(c)) {
            (Some(suit), _) => !sh.void[suit as usize],
            (_, Some(n)) => n <= sh.trump_cap,
            _ => true,
        }
    };
    let mut dealt = bots::redeal_where(&pool, &sizes, allowed, rng).into_iter();
    for &s in &others {
        let mut hand = dealt.next().expect("a pile per seat");
        sort_hand(&mut hand);
        deal.play.hands[s] = hand;
    }
    if dog_pile.is_some() {
        deal.dog = dealt.next().expect("the dog");
    }
    if discard_pile.is_some() {
        let mut fresh = dealt.next().expect("the discards").into_iter();
        for d in deal.discards.iter_mut().filter(|c| hidden_discards(c)) {
            *d = fresh.next().expect("as many as were hidden");
        }
    }
    if let (Some(called), false) = (deal.called, deal.partner_revealed) {
        deal.partner = (0..players).find(|&s| Some(s) != taker && deal.play.hands[s].contains(&called));
    }
    rebuild_deal(deal, &played);
    Some(world)
}

/// The hands as dealt and the pack's order, made to fit a sampled world (the dealing plan keeps
/// the dog's positions), so that the world is a deal like any other.
fn rebuild_deal(deal: &mut Deal, played: &[(Seat, Card)]) {
    let mut dealt = deal.play.hands.clone();
    for &(s, c) in played {
        dealt[s].push(c);
    }
    if let (Some(t), true) = (deal.taker, deal.dog_taken) {
        dealt[t].extend(deal.discards.iter().copied());
        for &c in &deal.dog {
            take_card(&mut dealt[t], c);
        }
    }
    dealt.iter_mut().for_each(|h| sort_hand(h));
    let plan = deal_plan(&deal.play.table, deal.dealer);
    let mut next = vec![0usize; dealt.len()];
    let mut dog = deal.dog.iter();
    let deck: Option<Vec<Card>> = plan
        .iter()
        .map(|to| match to {
            Some(s) => {
                let c = dealt[*s].get(next[*s]).copied();
                next[*s] += 1;
                c
            }
            None => dog.next().copied(),
        })
        .collect();
    if let Some(deck) = deck {
        deal.deck = deck;
    }
    deal.dealt = dealt;
}

/// The seat's score less the mean of the others' (each deal's scores sum to zero, called
/// partner's share included).
pub fn standing(state: &State, seat: Seat) -> f64 {
    let scores = &state.deals.scores;
    bots::lead_over_mean(scores.len(), |s| scores[s] as f64, seat)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Rules, Status};
    use crate::games::tarot::{Options, Tarot};

    /// Basic-bot matches at 3, 4 and 5 players: every world a seat samples is a whole deal by
    /// the rules (the books balance), keeps the seat's hand and every hand's size, and its
    /// basic moves are legal.
    #[test]
    fn worlds_are_whole_deals_that_keep_what_the_seat_sees() {
        let rules = Tarot;
        for players in 3..=5 {
            let mut rng = Rng::new(players as u64);
            let mut state = rules.setup(players, Options::default()).unwrap();
            for _ in 0..5_000 {
                let events = match rules.status(&state) {
                    Status::Finished { .. } | Status::NeedsShuffle { .. } => break,
                    Status::NeedsDeck { mut composition } => {
                        rng.shuffle(&mut composition);
                        rules.deal(&state, composition).unwrap()
                    }
                    Status::ToAct { seats } => {
                        let seat = seats[0];
                        for s in 0..players {
                            let world = determinize(&state, s, &mut rng).unwrap();
                            rules
                                .check_invariants(&world)
                                .unwrap_or_else(|e| panic!("{players} players, seat {s}: {e}"));
                            let (real, seen) = (state.deals.live().unwrap(), world.deals.live().unwrap());
                            assert_eq!(real.play.hands[s], seen.play.hands[s]);
                            let sizes = |d: &Deal| d.play.hands.iter().map(Vec::len).collect::<Vec<_>>();
                            assert_eq!(sizes(real), sizes(seen));
                        }
                        let command = basic_move(&state, seat, &mut rng).unwrap();
                        rules.decide(&state, seat, &command).unwrap_or_else(|e| panic!("{command:?}: {e:?}"))
                    }
                };
                events.iter().for_each(|e| rules.evolve(&mut state, e));
            }
            assert!(matches!(rules.status(&state), Status::Finished { .. }));
        }
    }

    #[test]
    fn strength_orders_hands() {
        let weak = crate::cards::cards("2H 3H 4H 5H 6H 7H 2C 3C 4C 5C 6C 7C 2D 3D 4D 5D 6D 7D");
        assert_eq!(contract_for(strength(&weak)), None);
    }
}
