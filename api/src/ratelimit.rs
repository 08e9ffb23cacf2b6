//! Per-player rate limits (token buckets) for the writes that cost the most: moves and match
//! creation; and per client address for minting tokens, since every new token is a new player. Kept per node: with N nodes a player gets at most N times the rate, which still
//! bounds abuse; a shared limiter would put the database back on every request's path.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::Instant;

use uuid::Uuid;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    Move,
    CreateMatch,
}

#[derive(Clone, Copy, Debug)]
pub struct Limit {
    /// Tokens added per second.
    pub per_second: f64,
    /// The most a player can spend at once.
    pub burst: f64,
}

#[derive(Clone, Copy, Debug)]
pub struct Limits {
    pub moves: Limit,
    pub creations: Limit,
    /// Tokens minted or renewed per client address.
    pub tokens: Limit,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            moves: Limit { per_second: 20.0, burst: 60.0 },
            creations: Limit { per_second: 1.0, burst: 20.0 },
            tokens: Limit { per_second: 0.2, burst: 20.0 },
        }
    }
}

/// Where a caller stands with one limit after a request that counted against it: what the IETF
/// `RateLimit-Policy` and `RateLimit` fields say (draft-ietf-httpapi-ratelimit-headers).
#[derive(Clone, Copy, Debug)]
pub struct Quota {
    /// The policy's name: `moves`, `matches` or `tokens`.
    pub policy: &'static str,
    pub limit: Limit,
    /// Tokens left in the bucket.
    pub remaining: f64,
}

impl Quota {
    /// `RateLimit-Policy`: the quota (the burst) and the window it refills in, in seconds.
    pub fn policy_field(&self) -> String {
        let window = (self.limit.burst / self.limit.per_second).ceil().max(1.0);
        format!("\"{}\";q={};w={}", self.policy, self.limit.burst.floor() as u64, window as u64)
    }

    /// `RateLimit`: what is left, and the seconds until the bucket is full again.
    pub fn field(&self) -> String {
        let left = self.remaining.max(0.0);
        let reset = ((self.limit.burst - left) / self.limit.per_second).ceil().max(0.0);
        format!("\"{}\";r={};t={}", self.policy, left.floor() as u64, reset as u64)
    }
}

struct Bucket {
    tokens: f64,
    refilled: Instant,
}

pub struct RateLimiter {
    limits: Limits,
    buckets: Mutex<HashMap<(Uuid, Action), Bucket>>,
    addresses: Mutex<HashMap<IpAddr, Bucket>>,
}

impl RateLimiter {
    pub fn new(limits: Limits) -> RateLimiter {
        RateLimiter { limits, buckets: Mutex::new(HashMap::new()), addresses: Mutex::new(HashMap::new()) }
    }

    /// A token for `address`, or the seconds to wait for one; and where the address stands.
    pub fn check_address(&self, address: IpAddr) -> (Result<(), u64>, Quota) {
        let now = Instant::now();
        let limit = self.limits.tokens;
        let mut addresses = self.addresses.lock().expect("rate limiter lock");
        if addresses.len() > 100_000 {
            // Full buckets say nothing: forget them, as the per-player map does.
            addresses.retain(|_, b| !b.is_full(limit, now));
        }
        let bucket = addresses.entry(address).or_insert(Bucket { tokens: limit.burst, refilled: now });
        let taken = take(bucket, limit, now);
        (taken, Quota { policy: "tokens", limit, remaining: bucket.tokens })
    }

    /// Spends one token, or says how many seconds to wait; and where the player stands.
    pub fn check(&self, player: Uuid, action: Action) -> (Result<(), u64>, Quota) {
        self.quota_at(player, action, Instant::now())
    }

    fn quota_at(&self, player: Uuid, action: Action, now: Instant) -> (Result<(), u64>, Quota) {
        let limit = match action {
            Action::Move => self.limits.moves,
            Action::CreateMatch => self.limits.creations,
        };
        let mut buckets = self.buckets.lock().expect("rate limiter lock");
        if buckets.len() > 100_000 {
            // Forget players whose buckets have refilled: they lose nothing by it.
            buckets.retain(|(_, a), b| {
                !b.is_full(if *a == Action::Move { self.limits.moves } else { self.limits.creations }, now)
            });
        }
        let bucket = buckets.entry((player, action)).or_insert(Bucket { tokens: limit.burst, refilled: now });
        let taken = take(bucket, limit, now);
        let policy = if action == Action::Move { "moves" } else { "matches" };
        (taken, Quota { policy, limit, remaining: bucket.tokens })
    }
}

impl Bucket {
    /// Whether the bucket has refilled by `now`: forgetting it loses nothing.
    fn is_full(&self, limit: Limit, now: Instant) -> bool {
        self.tokens + now.duration_since(self.refilled).as_secs_f64() * limit.per_second >= limit.burst
    }
}

fn take(bucket: &mut Bucket, limit: Limit, now: Instant) -> Result<(), u64> {
    let elapsed = now.duration_since(bucket.refilled).as_secs_f64();
    bucket.tokens = (bucket.tokens + elapsed * limit.per_second).min(limit.burst);
    bucket.refilled = now;
    if bucket.tokens >= 1.0 {
        bucket.tokens -= 1.0;
        Ok(())
    } else {
        Err(((1.0 - bucket.tokens) / limit.per_second).ceil().max(1.0) as u64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    impl RateLimiter {
        fn check_at(&self, player: Uuid, action: Action, now: Instant) -> Result<(), u64> {
            self.quota_at(player, action, now).0
        }
    }

    #[test]
    fn a_burst_is_allowed_then_the_rate_and_players_are_separate() {
        let limiter = RateLimiter::new(Limits {
            moves: Limit { per_second: 2.0, burst: 3.0 },
            creations: Limit { per_second: 1.0, burst: 1.0 },
            tokens: Limit { per_second: 1.0, burst: 1.0 },
        });
        let (a, b) = (Uuid::new_v4(), Uuid::new_v4());
        let t = Instant::now();
        for _ in 0..3 {
            assert!(limiter.check_at(a, Action::Move, t).is_ok());
        }
        assert_eq!(limiter.check_at(a, Action::Move, t), Err(1));
        assert!(limiter.check_at(b, Action::Move, t).is_ok(), "another player has their own bucket");
        assert!(limiter.check_at(a, Action::CreateMatch, t).is_ok(), "each action has its own bucket");
        assert!(
            limiter.check_at(a, Action::Move, t + Duration::from_millis(500)).is_ok(),
            "half a second buys one move"
        );
        assert!(limiter.check_at(a, Action::Move, t + Duration::from_millis(500)).is_err());
    }
}
