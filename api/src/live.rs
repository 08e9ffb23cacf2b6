//! Live updates: which matches moved, learnt from PostgreSQL's notifications, for the event
//! streams open on this node. Every statement that appends events notifies the channel
//! `kortbord_events` with "<stream id> <version>" per match (a trigger, see the migration), so a
//! node hears of appends made by any node; one connection per node listens, and only while
//! someone streams. A stream then reads its match's new events as the event feed does.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, Weak};
use std::time::{Duration, Instant};

use diesel::prelude::*;
use tokio::sync::{watch, Semaphore};
use uuid::Uuid;

/// The channel the events trigger notifies.
pub const CHANNEL: &str = "kortbord_events";

/// How often the listening connection is read for notifications: the most a notification waits
/// on this node before a stream hears of it.
const LISTEN_EVERY: Duration = Duration::from_millis(5);
/// How often the listening connection is asked whether it is still alive.
const PING_EVERY: Duration = Duration::from_secs(5);

/// How many streams one client may hold open on a node, and how far back a new stream reads
/// (`KORTBORD_STREAMS_PER_ADDRESS`, `KORTBORD_STREAMS_PER_ADDRESS_ANONYMOUS`,
/// `KORTBORD_STREAMS_PER_PLAYER`, `KORTBORD_STREAM_BACKLOG`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StreamLimits {
    /// Streams open from one client address, with or without tokens (a household or an office
    /// behind one address shares it).
    pub per_address: usize,
    /// Of those, streams without a token: a spectator costs the node as much as a player and
    /// proves nothing, so fewer.
    pub anonymous_per_address: usize,
    /// Streams open with one player's token, from any address: a player watches the matches they
    /// sit at, on a phone or two.
    pub per_player: usize,
    /// The most past events a new stream sends before the live ones: one that asks for more
    /// (from the start of a long match, or a stale `Last-Event-ID`) is told where the rest is.
    pub backlog: i64,
    /// What a refused stream is told to wait, in seconds (`Retry-After`).
    pub retry_after: u64,
}

impl Default for StreamLimits {
    fn default() -> StreamLimits {
        StreamLimits { per_address: 256, anonymous_per_address: 32, per_player: 16, backlog: 1000, retry_after: 5 }
    }
}

/// Why a stream was not opened: the cap it would pass.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refused {
    Address(usize),
    Anonymous(usize),
    Player(usize),
}

/// Streams open per client address (all, and without a token) and per player.
#[derive(Default)]
struct Counts {
    addresses: HashMap<IpAddr, (usize, usize)>,
    players: HashMap<Uuid, usize>,
}

/// An open stream's place under the caps; dropping it frees the place.
pub struct Admission {
    hub: Arc<Hub>,
    address: IpAddr,
    player: Option<Uuid>,
}

/// The matches streamed on this node, each with the newest version heard of.
pub struct Hub {
    database_url: String,
    streams: Mutex<HashMap<Uuid, watch::Sender<i64>>>,
    open: AtomicUsize,
    listening: AtomicBool,
    /// Turns to read a match's events for a stream: half the pool's connections, so that moves
    /// and reads keep the other half however many streams open or wake at once.
    pub reads: Semaphore,
    pub limits: StreamLimits,
    counts: Mutex<Counts>,
    /// Players streamed on this node (`GET /v1/me/stream`): each one's news (a count of
    /// wake-ups) and the matches it watches; and the players watching each match.
    players: Mutex<PlayerStreams>,
}

#[derive(Default)]
struct PlayerStreams {
    news: HashMap<Uuid, (watch::Sender<u64>, std::collections::HashSet<Uuid>)>,
    by_match: HashMap<Uuid, std::collections::HashSet<Uuid>>,
}

impl PlayerStreams {
    fn wake(&self, player: &Uuid) {
        if let Some((news, _)) = self.news.get(player) {
            news.send_modify(|n| *n = n.wrapping_add(1));
        }
    }
}

/// An open player stream's claim on news of the player's matches; dropping it closes the claim.
pub struct PlayerSubscription {
    hub: Arc<Hub>,
    player: Uuid,
    pub news: watch::Receiver<u64>,
}

impl PlayerSubscription {
    /// The player's matches to hear of from now on (besides any the player appends to).
    pub fn watch(&self, matches: std::collections::HashSet<Uuid>) {
        let mut players = self.hub.players.lock().expect("hub lock");
        let PlayerStreams { news, by_match } = &mut *players;
        let Some((_, watched)) = news.get_mut(&self.player) else { return };
        for gone in watched.difference(&matches) {
            if let Some(watchers) = by_match.get_mut(gone) {
                watchers.remove(&self.player);
                if watchers.is_empty() {
                    by_match.remove(gone);
                }
            }
        }
        for id in &matches {
            by_match.entry(*id).or_default().insert(self.player);
        }
        *watched = matches;
    }
}

impl Drop for PlayerSubscription {
    fn drop(&mut self) {
        self.hub.open.fetch_sub(1, Ordering::Relaxed);
        let mut players = self.hub.players.lock().expect("hub lock");
        let last = players.news.get(&self.player).is_some_and(|(news, _)| news.receiver_count() <= 1);
        if last {
            let PlayerStreams { news, by_match } = &mut *players;
            if let Some((_, watched)) = news.remove(&self.player) {
                for id in watched {
                    if let Some(watchers) = by_match.get_mut(&id) {
                        watchers.remove(&self.player);
                        if watchers.is_empty() {
                            by_match.remove(&id);
                        }
                    }
                }
            }
        }
    }
}

/// An open stream's claim on its match's news; dropping it closes the claim.
pub struct Subscription {
    hub: Arc<Hub>,
    id: Uuid,
    pub news: watch::Receiver<i64>,
}

impl Hub {
    pub fn new(database_url: &str, connections: usize, limits: StreamLimits) -> Arc<Hub> {
        Arc::new(Hub {
            database_url: database_url.to_string(),
            streams: Mutex::new(HashMap::new()),
            open: AtomicUsize::new(0),
            listening: AtomicBool::new(false),
            reads: Semaphore::new((connections / 2).max(1)),
            limits,
            counts: Mutex::new(Counts::default()),
            players: Mutex::new(PlayerStreams::default()),
        })
    }

    /// Starts hearing of `player`'s matches (and the node's listener, on the first stream).
    pub fn subscribe_player(self: &Arc<Hub>, player: Uuid) -> PlayerSubscription {
        self.listen_once();
        let news = {
            let mut players = self.players.lock().expect("hub lock");
            players.news.entry(player).or_insert_with(|| (watch::channel(0).0, Default::default())).0.subscribe()
        };
        self.open.fetch_add(1, Ordering::Relaxed);
        PlayerSubscription { hub: self.clone(), player, news }
    }

    fn listen_once(self: &Arc<Hub>) {
        if !self.listening.swap(true, Ordering::AcqRel) {
            let hub = Arc::downgrade(self);
            let url = self.database_url.clone();
            std::thread::Builder::new()
                .name("kortbord-listen".into())
                .spawn(move || listen(&url, hub))
                .expect("a thread for the listener");
        }
    }

    /// A place for one more stream from `address` (with `player`'s token, if any), or the cap it
    /// would pass. Checked before the stream costs anything.
    pub fn admit(self: &Arc<Hub>, address: IpAddr, player: Option<Uuid>) -> Result<Admission, Refused> {
        let limits = self.limits;
        let mut counts = self.counts.lock().expect("hub lock");
        let (all, anonymous) = counts.addresses.get(&address).copied().unwrap_or((0, 0));
        match player {
            None if anonymous >= limits.anonymous_per_address => {
                return Err(Refused::Anonymous(limits.anonymous_per_address))
            }
            Some(p) if counts.players.get(&p).copied().unwrap_or(0) >= limits.per_player => {
                return Err(Refused::Player(limits.per_player))
            }
            _ => {}
        }
        if all >= limits.per_address {
            return Err(Refused::Address(limits.per_address));
        }
        let entry = counts.addresses.entry(address).or_insert((0, 0));
        entry.0 += 1;
        entry.1 += usize::from(player.is_none());
        if let Some(p) = player {
            *counts.players.entry(p).or_insert(0) += 1;
        }
        Ok(Admission { hub: self.clone(), address, player })
    }

    /// How many streams are open on this node.
    pub fn open_streams(&self) -> usize {
        self.open.load(Ordering::Relaxed)
    }

    /// Starts hearing of `id`'s appends (and the node's listener, on the first stream).
    pub fn subscribe(self: &Arc<Hub>, id: Uuid) -> Subscription {
        self.listen_once();
        let news = {
            let mut streams = self.streams.lock().expect("hub lock");
            streams.entry(id).or_insert_with(|| watch::channel(0).0).subscribe()
        };
        self.open.fetch_add(1, Ordering::Relaxed);
        Subscription { hub: self.clone(), id, news }
    }

    /// `id` was appended to, up to `version`, by `actor` (a player id, when a player made it):
    /// the players watching the match hear of it, and so does the actor (a match they created
    /// or joined, which their streams did not know yet).
    fn moved(&self, id: Uuid, version: i64, actor: Option<Uuid>) {
        {
            let players = self.players.lock().expect("hub lock");
            if !players.news.is_empty() {
                for player in players.by_match.get(&id).into_iter().flatten().chain(actor.as_ref()) {
                    players.wake(player);
                }
            }
        }
        if let Some(news) = self.streams.lock().expect("hub lock").get(&id) {
            news.send_if_modified(|known| {
                let newer = version > *known;
                *known = (*known).max(version);
                newer
            });
        }
    }

    /// Every stream looks again: the listener was away and may have missed news.
    fn wake_all(&self) {
        for news in self.streams.lock().expect("hub lock").values() {
            news.send_modify(|_| {});
        }
        let players = self.players.lock().expect("hub lock");
        for player in players.news.keys() {
            players.wake(player);
        }
    }
}

impl Drop for Admission {
    fn drop(&mut self) {
        let mut counts = self.hub.counts.lock().expect("hub lock");
        if let Some(entry) = counts.addresses.get_mut(&self.address) {
            entry.0 = entry.0.saturating_sub(1);
            entry.1 = entry.1.saturating_sub(usize::from(self.player.is_none()));
            if entry.0 == 0 {
                counts.addresses.remove(&self.address);
            }
        }
        if let Some(p) = self.player {
            if let Some(n) = counts.players.get_mut(&p) {
                *n = n.saturating_sub(1);
                if *n == 0 {
                    counts.players.remove(&p);
                }
            }
        }
    }
}

impl Drop for Subscription {
    fn drop(&mut self) {
        self.hub.open.fetch_sub(1, Ordering::Relaxed);
        let mut streams = self.hub.streams.lock().expect("hub lock");
        // This subscription's receiver is the last one: nobody streams the match any more.
        if streams.get(&self.id).is_some_and(|news| news.receiver_count() <= 1) {
            streams.remove(&self.id);
        }
    }
}

/// The node's listener: one connection that LISTENs and hands what it hears to the hub, until
/// the hub is gone. It reconnects after a lost connection (with the streams told to look again,
/// as news may have been missed meanwhile).
fn listen(url: &str, hub: Weak<Hub>) {
    let mut backoff = Duration::from_millis(50);
    while hub.strong_count() > 0 {
        let connected = PgConnection::establish(url).map_err(|e| e.to_string()).and_then(|mut c| {
            diesel::sql_query(format!("LISTEN {CHANNEL}")).execute(&mut c).map(|_| c).map_err(|e| e.to_string())
        });
        let mut conn = match connected {
            Ok(conn) => conn,
            Err(e) => {
                tracing::warn!(error = %crate::db::explain(&e), "cannot listen for appends; trying again");
                std::thread::sleep(backoff);
                backoff = (backoff * 2).min(Duration::from_secs(2));
                continue;
            }
        };
        backoff = Duration::from_millis(50);
        match hub.upgrade() {
            Some(hub) => hub.wake_all(),
            None => return,
        }
        let mut pinged = Instant::now();
        'connected: loop {
            let Some(hub) = hub.upgrade() else { return };
            for heard in conn.notifications_iter() {
                match heard {
                    Ok(n) => {
                        let mut parts = n.payload.split(' ');
                        if let (Some(Ok(id)), Some(Ok(version))) =
                            (parts.next().map(Uuid::try_parse), parts.next().map(str::parse::<i64>))
                        {
                            let actor = parts.next().and_then(|a| Uuid::try_parse(a).ok());
                            hub.moved(id, version, actor);
                        }
                    }
                    Err(e) => {
                        tracing::warn!(error = %e, "the listening connection failed; reconnecting");
                        break 'connected;
                    }
                }
            }
            drop(hub);
            if pinged.elapsed() > PING_EVERY {
                if diesel::sql_query("SELECT 1").execute(&mut conn).is_err() {
                    break 'connected;
                }
                pinged = Instant::now();
            }
            std::thread::sleep(LISTEN_EVERY);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn streams_are_capped_per_address_and_player_and_freed_when_closed() {
        let limits =
            StreamLimits { per_address: 4, anonymous_per_address: 2, per_player: 2, backlog: 10, retry_after: 1 };
        let hub = Hub::new("postgres://nowhere/x", 8, limits);
        let (a, b) = (IpAddr::from([10, 0, 0, 1]), IpAddr::from([10, 0, 0, 2]));
        let (p, q) = (Uuid::new_v4(), Uuid::new_v4());
        let anon: Vec<_> = (0..2).map(|_| hub.admit(a, None).unwrap()).collect();
        assert_eq!(hub.admit(a, None).err(), Some(Refused::Anonymous(2)));
        let mine: Vec<_> = (0..2).map(|_| hub.admit(a, Some(p)).unwrap()).collect();
        assert_eq!(hub.admit(b, Some(p)).err(), Some(Refused::Player(2)), "a player's cap holds on any address");
        assert_eq!(hub.admit(a, Some(q)).err(), Some(Refused::Address(4)));
        assert!(hub.admit(b, None).is_ok(), "another address has its own");
        drop(anon);
        drop(mine);
        assert!(hub.admit(a, Some(q)).is_ok());
        assert!(hub.counts.lock().unwrap().addresses.is_empty(), "nothing kept for closed streams");
    }
}
