//! The engine's own small random generator, for bots' choices (from the seed the service records
//! with each bot move) and for the harness's shuffles. No rule ever draws from it: a rule gets
//! its randomness as data, such as a deck order.

/// splitmix64: small, fast and the same on every platform, so a failing seed reproduces.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            items.swap(i, self.below(i + 1));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shuffle_is_a_permutation_and_depends_on_the_seed() {
        let deck = crate::cards::decks::standard52();
        let mut a = deck.clone();
        let mut b = deck.clone();
        Rng::new(1).shuffle(&mut a);
        Rng::new(2).shuffle(&mut b);
        assert!(crate::cards::is_permutation(&a, &deck));
        assert_ne!(a, b);
        assert_ne!(a, deck);
    }
}
