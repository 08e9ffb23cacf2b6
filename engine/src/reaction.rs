//! Reaction windows: the reaction games' toolkit (docs/engine.md §3, §4.7). Something happens at
//! the table (a ten turned in Hej knekt, the first thumb in Gris) and every seat named must react;
//! the order the service recorded the reactions in decides, and their times are kept as evidence
//! ("412 ms after the jack"). A window closes when all but one have reacted (that one is last,
//! and is not waited for) or when its time runs out, when every seat still waited for is late.
//!
//! Time is data: each command of a clocked game arrives with the service's receive time
//! ([`crate::game::Rules::decide_at`]); a game keeps a [`Clock`] that never runs backwards, and
//! the service closes a window through [`crate::game::Rules::time_passes`] once
//! [`Window::closes_at_ms`] is past.

use serde::{Deserialize, Serialize};

use crate::bots::Level;
use crate::random::Rng;
use crate::seat::Seat;

/// The latest time a game has recorded, in milliseconds since the Unix epoch.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct Clock(pub u64);

impl Clock {
    /// When a command received at `at_ms` happened: that time, or the latest recorded one if it
    /// is earlier (two nodes' clocks differ a little; what was recorded first stays first) or
    /// missing (a test, a simulation).
    pub fn at(self, at_ms: Option<u64>) -> u64 {
        at_ms.map_or(self.0, |t| t.max(self.0))
    }

    /// Moves the clock on to `at_ms`, never back.
    pub fn advance(&mut self, at_ms: u64) {
        self.0 = self.0.max(at_ms);
    }
}

/// One seat's reaction in a window.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reaction {
    pub seat: Seat,
    /// Milliseconds after the window opened.
    pub after_ms: u64,
}

/// A reaction window as the table sees it.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Window {
    /// When it opened (the service's receive time of the move that opened it), in milliseconds
    /// since the Unix epoch.
    pub opened_at_ms: u64,
    /// When it closes by time if some seats have not reacted.
    pub closes_at_ms: u64,
    /// The seats that must react and have not yet, in seat order.
    pub waiting: Vec<Seat>,
    /// The reactions so far, in the order recorded (the first is first).
    pub reacted: Vec<Reaction>,
}

impl Window {
    /// A window opened at `at_ms` for `seats`, open for `length_ms`.
    pub fn open(at_ms: u64, length_ms: u64, seats: impl IntoIterator<Item = Seat>) -> Window {
        Window {
            opened_at_ms: at_ms,
            closes_at_ms: at_ms.saturating_add(length_ms),
            waiting: seats.into_iter().collect(),
            reacted: Vec::new(),
        }
    }

    pub fn is_waiting_for(&self, seat: Seat) -> bool {
        self.waiting.contains(&seat)
    }

    /// Records `seat`'s reaction at `at_ms`; a seat not waited for changes nothing.
    pub fn react(&mut self, seat: Seat, at_ms: u64) {
        if let Some(i) = self.waiting.iter().position(|&s| s == seat) {
            self.waiting.remove(i);
            self.reacted.push(Reaction { seat, after_ms: at_ms.saturating_sub(self.opened_at_ms) });
        }
    }

    /// The one seat still waited for when every other has reacted: the last, not waited for.
    pub fn last(&self) -> Option<Seat> {
        match self.waiting[..] {
            [only] if !self.reacted.is_empty() => Some(only),
            _ => None,
        }
    }

    /// Whether the window's time has run out at `now_ms`.
    pub fn timed_out(&self, now_ms: u64) -> bool {
        now_ms >= self.closes_at_ms
    }

    /// The seats that are late when the window closes at `now_ms` by time: every seat still
    /// waited for, or none if the time has not run out.
    pub fn late_at(&self, now_ms: u64) -> &[Seat] {
        if self.timed_out(now_ms) {
            &self.waiting
        } else {
            &[]
        }
    }

    /// The milliseconds `seat` took to react, if it did.
    pub fn time_of(&self, seat: Seat) -> Option<u64> {
        self.reacted.iter().find(|r| r.seat == seat).map(|r| r.after_ms)
    }
}

/// A bot's human-like reaction time in milliseconds, drawn from `seed`: never instant, and slow
/// enough at every level that an attentive person beats it. A stronger bot is quicker on average
/// and less spread. Shared by the reaction games so that their bots behave alike.
pub fn bot_delay_ms(level: Level, seed: u64) -> u64 {
    let (fastest, spread) = match level {
        Level::Random => (650, 1100),
        Level::Basic => (520, 800),
        Level::Strong => (420, 560),
    };
    let mut rng = Rng::new(seed);
    // The sum of two draws leans to the middle, as people's times do.
    fastest + (rng.below(spread as usize + 1) + rng.below(spread as usize + 1)) as u64 / 2
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_seat_left_when_all_others_reacted_is_last() {
        let mut w = Window::open(1_000, 4_000, [0, 1, 2]);
        assert_eq!(w.last(), None);
        w.react(2, 1_412);
        w.react(2, 1_500);
        assert_eq!(w.last(), None);
        w.react(0, 1_600);
        assert_eq!(w.last(), Some(1));
        assert_eq!(w.reacted, vec![Reaction { seat: 2, after_ms: 412 }, Reaction { seat: 0, after_ms: 600 }]);
        assert_eq!(w.time_of(0), Some(600));
    }

    #[test]
    fn every_seat_still_waited_for_is_late_once_the_time_runs_out() {
        let mut w = Window::open(1_000, 4_000, [0, 1, 2, 3]);
        w.react(1, 2_000);
        assert!(w.late_at(4_999).is_empty());
        assert_eq!(w.late_at(5_000), &[0, 2, 3]);
    }

    #[test]
    fn the_clock_never_runs_backwards() {
        let mut c = Clock(5_000);
        assert_eq!(c.at(Some(4_000)), 5_000);
        assert_eq!(c.at(None), 5_000);
        assert_eq!(c.at(Some(6_000)), 6_000);
        c.advance(4_000);
        assert_eq!(c, Clock(5_000));
    }

    #[test]
    fn bots_are_never_instant_and_stronger_ones_are_quicker() {
        let mean = |level| (0..2_000u64).map(|s| bot_delay_ms(level, s)).sum::<u64>() / 2_000;
        assert!((0..2_000u64).all(|s| bot_delay_ms(Level::Strong, s) >= 420));
        assert!(mean(Level::Strong) < mean(Level::Basic) && mean(Level::Basic) < mean(Level::Random));
    }
}
