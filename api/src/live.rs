//! Live updates: which matches moved, learnt from PostgreSQL's notifications, for the event
//! streams open on this node. Every statement that appends events notifies the channel
//! `kortbord_events` with "<stream id> <version>" per match (a trigger, see the migration), so a
//! node hears of appends made by any node; one connection per node listens, and only while
//! someone streams. A stream then reads its match's new events as the event feed does.

use std::collections::HashMap;
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

/// The matches streamed on this node, each with the newest version heard of.
pub struct Hub {
    database_url: String,
    streams: Mutex<HashMap<Uuid, watch::Sender<i64>>>,
    open: AtomicUsize,
    listening: AtomicBool,
    /// Turns to read a match's events for a stream: as many as the pool has connections.
    pub reads: Semaphore,
}

/// An open stream's claim on its match's news; dropping it closes the claim.
pub struct Subscription {
    hub: Arc<Hub>,
    id: Uuid,
    pub news: watch::Receiver<i64>,
}

impl Hub {
    pub fn new(database_url: &str, connections: usize) -> Arc<Hub> {
        Arc::new(Hub {
            database_url: database_url.to_string(),
            streams: Mutex::new(HashMap::new()),
            open: AtomicUsize::new(0),
            listening: AtomicBool::new(false),
            reads: Semaphore::new(connections.max(1)),
        })
    }

    /// How many streams are open on this node.
    pub fn open_streams(&self) -> usize {
        self.open.load(Ordering::Relaxed)
    }

    /// Starts hearing of `id`'s appends (and the node's listener, on the first stream).
    pub fn subscribe(self: &Arc<Hub>, id: Uuid) -> Subscription {
        if !self.listening.swap(true, Ordering::AcqRel) {
            let hub = Arc::downgrade(self);
            let url = self.database_url.clone();
            std::thread::Builder::new()
                .name("kortbord-listen".into())
                .spawn(move || listen(&url, hub))
                .expect("a thread for the listener");
        }
        let news = {
            let mut streams = self.streams.lock().expect("hub lock");
            streams.entry(id).or_insert_with(|| watch::channel(0).0).subscribe()
        };
        self.open.fetch_add(1, Ordering::Relaxed);
        Subscription { hub: self.clone(), id, news }
    }

    /// `id` was appended to, up to `version`.
    fn moved(&self, id: Uuid, version: i64) {
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
                            hub.moved(id, version);
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
