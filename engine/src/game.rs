//! The one interface every game sits behind.
//!
//! A game implements [`Rules`] over its own typed options, state, commands and events
//! (decide/evolve, as in an event-sourced aggregate). [`erase`] wraps it into the object-safe
//! [`Game`] / [`Match`] pair, with JSON at the edge, which is all the service ever sees.

use std::fmt::Debug;
use std::ops::RangeInclusive;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::cards::{is_permutation, Card};
use crate::rules::{core, RuleViolation, Rulebook, Text};
use crate::schema::Typed;
use crate::seat::Seat;

/// Who is looking at the state or at an event.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "kind", content = "seat")]
pub enum Viewer {
    /// A player at the table: sees their own hand and everything public.
    Seat(Seat),
    /// Somebody watching: sees only what is public.
    Spectator,
    /// Anyone, once a deal is over: the deal's full record, less what the game keeps hidden
    /// for ever (a blanked card, a folded hand).
    Record,
}

impl Viewer {
    /// The seat looking, if a player at a table of `players` is (a seat beyond it sees no hand).
    pub fn seat_at(self, players: usize) -> Option<Seat> {
        match self {
            Viewer::Seat(s) if s < players => Some(s),
            _ => None,
        }
    }
}

/// What the match is waiting for.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case", tag = "kind")]
pub enum Status {
    /// The service must shuffle this composition and hand the order to [`Rules::deal`].
    NeedsDeck {
        composition: Vec<Card>,
    },
    /// In the middle of a deal, the service must shuffle these cards (a discard pile turned into
    /// a new talon, say) and hand the order to [`Rules::reshuffle`]: the same deal goes on, and
    /// its number does not change. The cards are those the table has seen go there; their new
    /// order is nobody's to know.
    NeedsShuffle {
        cards: Vec<Card>,
    },
    /// These seats may act now (usually one; several where the rules let players act
    /// independently, such as either partner giving a side's bid).
    ToAct {
        seats: Vec<Seat>,
    },
    Finished {
        outcome: Outcome,
    },
}

impl Status {
    pub fn to_act(&self) -> &[Seat] {
        match self {
            Status::ToAct { seats } => seats,
            _ => &[],
        }
    }

    /// The cards the service must shuffle now, for a new deal or within one.
    pub fn to_shuffle(&self) -> Option<&[Card]> {
        match self {
            Status::NeedsDeck { composition } => Some(composition),
            Status::NeedsShuffle { cards } => Some(cards),
            _ => None,
        }
    }

    pub fn is_finished(&self) -> bool {
        matches!(self, Status::Finished { .. })
    }
}

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcome {
    /// Seats that won the match (a whole side in partnership games; several on a tie).
    pub winners: Vec<Seat>,
    pub explanation: Text,
}

impl Outcome {
    /// The seats with the most points won; several share the win on a tie.
    pub fn most_points(winners: &[Seat], totals: &[i64]) -> Outcome {
        let who = crate::seat::seats_text(winners);
        let best = winners.first().map_or(0, |&s| totals[s]);
        let explanation = if winners.len() == 1 {
            Text::new(
                format!("Plats {who} vann med flest poäng, {best}."),
                format!("Seat {who} won with the most points, {best}."),
            )
        } else {
            Text::new(
                format!("Platserna {who} delar segern med {best} poäng var."),
                format!("Seats {who} share the win with {best} points each."),
            )
        };
        Outcome { winners: winners.to_vec(), explanation }
    }
}

/// A variant or parameter a match is created with.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, Serialize)]
pub struct OptionDoc {
    pub name: &'static str,
    pub default: Value,
    pub sv: &'static str,
    pub en: &'static str,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetupError(pub String);

impl std::fmt::Display for SetupError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// A game's rules over its own types. `decide` checks a command and states what happened;
/// `evolve` applies a fact and never fails on facts `decide` produced; `legal_moves` lists
/// exactly the commands `decide` accepts (a generic test holds the two together).
pub trait Rules: Send + Sync + 'static {
    type Options: Serialize + DeserializeOwned + Default + Clone + Debug + Send + Sync + Typed;
    type State: Clone + Debug + Send + Sync + 'static;
    type Command: Serialize + DeserializeOwned + Clone + Debug + PartialEq + Send + Sync + Typed;
    type Event: Serialize + DeserializeOwned + Clone + Debug + Send + Sync + Typed;
    /// The table as one viewer sees it ([`Rules::view`]).
    type View: Serialize + Typed;

    /// The game's id, as the catalog and the API name it.
    const ID: &'static str;
    /// How many may play.
    const PLAYERS: RangeInclusive<usize>;
    /// The rulebook kept as text beside the game (`games/rulebooks/<id>.txt`, see
    /// [`crate::rules::parse_rulebook`]): the rules and the descriptions of the options.
    const RULEBOOK: &'static str;

    fn id(&self) -> &'static str {
        Self::ID
    }

    fn rulebook(&self) -> Rulebook {
        crate::rules::parse_rulebook(Self::ID, Self::RULEBOOK)
    }

    /// Each option, described in the rulebook text, with its default from `Options::default()`.
    fn options(&self) -> Vec<OptionDoc> {
        let defaults = to_json(&Self::Options::default());
        let docs = crate::rules::parse_options(Self::RULEBOOK);
        docs.into_iter().map(|(name, sv, en)| OptionDoc { name, default: defaults[name].clone(), sv, en }).collect()
    }

    fn player_counts(&self) -> RangeInclusive<usize> {
        Self::PLAYERS
    }

    fn setup(&self, players: usize, options: Self::Options) -> Result<Self::State, SetupError>;
    fn status(&self, state: &Self::State) -> Status;
    /// How many deals have been started, including cancelled ones (0 before the first).
    fn deal_number(&self, state: &Self::State) -> u32;
    /// Starts the next deal from a deck order the service drew (or a caller supplied). Called
    /// only while [`Status::NeedsDeck`] holds and with a deck already checked to be a permutation
    /// of the composition asked for ([`check_deal`]), so a game repeats neither check.
    fn deal(&self, state: &Self::State, deck: Vec<Card>) -> Result<Vec<Self::Event>, RuleViolation>;
    /// Goes on with the deal from a new order of the cards [`Status::NeedsShuffle`] asked to be
    /// shuffled (checked, like a deck, by [`check_deal`]); the first event records the order. Only
    /// a game that asks for a shuffle within a deal has one.
    fn reshuffle(&self, state: &Self::State, order: Vec<Card>) -> Result<Vec<Self::Event>, RuleViolation> {
        let _ = (state, order);
        Err(RuleViolation::wrong_phase("inget ska blandas", "nothing is to be shuffled"))
    }
    /// How many shuffles the match has had: its deals (cancelled ones included) and the
    /// reshuffles within them. Supplied orders (`decks` when a match is created, or a deal to
    /// check) are taken in this order, one a shuffle.
    fn shuffles(&self, state: &Self::State) -> u32 {
        self.deal_number(state)
    }
    /// Called only for a seat listed in [`Status::ToAct`] (so never before a deal or after the
    /// match, see [`check_turn`]); the game checks the rest, such as a command that does not fit
    /// the phase.
    fn decide(
        &self,
        state: &Self::State,
        seat: Seat,
        command: &Self::Command,
    ) -> Result<Vec<Self::Event>, RuleViolation>;
    fn evolve(&self, state: &mut Self::State, event: &Self::Event);
    fn legal_moves(&self, state: &Self::State, seat: Seat) -> Vec<Self::Command>;
    /// Every command of a shape this game knows that could be tried now by `seat` (legal or
    /// not): the tests check that `decide` accepts exactly the legal ones among them.
    fn move_space(&self, state: &Self::State, seat: Seat) -> Vec<Self::Command>;

    fn view(&self, state: &Self::State, viewer: Viewer) -> Self::View;
    /// An event as `viewer` may see it. `deal_over` says the event's deal has ended.
    fn redact(&self, state: &Self::State, event: &Self::Event, viewer: Viewer, deal_over: bool) -> Value;
    /// Every card whose identity is not public now, with the seats that may know it.
    fn secrets(&self, state: &Self::State) -> Vec<(Card, Vec<Seat>)>;
    /// The books balance: cards, scores, chips. Checked after every event in the tests.
    fn check_invariants(&self, state: &Self::State) -> Result<(), String>;

    /// A bot's choice. The default plays a legal move picked by `seed`.
    fn bot_move(&self, state: &Self::State, seat: Seat, seed: u64) -> Option<Self::Command> {
        let moves = self.legal_moves(state, seat);
        (!moves.is_empty()).then(|| moves[(seed % moves.len() as u64) as usize].clone())
    }

    /// The move a strong bot keeps unless its search finds a better one beyond doubt (a paired
    /// mean advantage over it of more than two standard errors): for a game whose deals swing so
    /// much on luck that the best move's edge drowns in a search of tens of worlds (Vändåtta).
    /// `None` (the default): the search's best move, however slight its edge.
    fn strong_anchor(&self, state: &Self::State, seat: Seat) -> Option<Self::Command> {
        let _ = (state, seat);
        None
    }

    /// The moves a strong bot weighs: the legal moves unless the game prunes them (a long list of
    /// bids, say) to the sensible ones.
    fn bot_candidates(&self, state: &Self::State, seat: Seat) -> Vec<Self::Command> {
        self.legal_moves(state, seat)
    }

    /// A whole state consistent with everything `seat` may know now, the rest (other hands, a
    /// hidden stock, bids not yet shown) drawn from `rng`: a world for the strong bot to play
    /// out. It must be built from what the seat sees alone, so that the bot cannot read hidden
    /// cards. `None` (the default): the game has no such search and its strong bot plays basic.
    fn determinize(&self, state: &Self::State, seat: Seat, rng: &mut crate::random::Rng) -> Option<Self::State> {
        let _ = (state, seat, rng);
        None
    }

    /// A cheap rule-of-thumb move from what `seat` may see: the basic bot, and the strong bot's
    /// playout policy. The default is the random bot.
    fn basic_move(&self, state: &Self::State, seat: Seat, rng: &mut crate::random::Rng) -> Option<Self::Command> {
        self.bot_move(state, seat, rng.next_u64())
    }

    /// How well `seat` stands, for a bot to compare outcomes: its score (or its side's) less
    /// the mean of the others'.
    fn standing(&self, state: &Self::State, seat: Seat) -> f64 {
        let _ = (state, seat);
        0.0
    }

    /// Whether [`Rules::basic_move`] and [`Rules::determinize`] are the game's own.
    fn bot_levels(&self) -> crate::bots::Levels {
        crate::bots::Levels::RANDOM_ONLY
    }

    /// How much a strong decision searches: [`crate::bots::Budget::STRONG`], or less in a game
    /// whose playouts are long, so that a decision stays inside its 20 ms of CPU.
    fn strong_budget(&self) -> crate::bots::Budget {
        crate::bots::Budget::STRONG
    }

    /// The finished deal's record as a seated player (`Some`) or anyone else (`None`) may see
    /// it. Only games that hide part of the record for ever need more than the default, which
    /// shows everyone the same record.
    fn record_view(&self, state: &Self::State, seat: Option<Seat>) -> Value {
        let _ = seat;
        to_json(&self.view(state, Viewer::Record))
    }

    /// One event of the finished deal's record as a seated player (`Some`) or anyone else
    /// (`None`) may see it; see [`Rules::record_view`].
    fn record_event(&self, state: &Self::State, event: &Self::Event, seat: Option<Seat>) -> Value {
        let _ = seat;
        self.redact(state, event, Viewer::Record, true)
    }

    /// A new match's options: `options` as read from what its creator sent (`sent`). Options are
    /// stored with the match and with every deal, and a stored set lacking an option that was
    /// added later is read with that option's serde default, the behaviour the matches stored
    /// before it had, so that they replay and play on as they were created (docs/engine.md §2).
    /// A game that added such an option gives new matches the new behaviour here, and refuses a
    /// value kept only for the older matches. The default takes the options as read.
    fn new_match_options(&self, sent: &Value, options: Self::Options) -> Result<Self::Options, SetupError> {
        let _ = sent;
        Ok(options)
    }

    /// A game decided on the server's clock (the reaction games, docs/engine.md §4.7): the
    /// service writes its receive time into every command (`at_ms`), which reaches
    /// [`Rules::decide_at`], and closes what [`Rules::due_at`] names when its time comes.
    const CLOCKED: bool = false;

    /// [`Rules::decide`] with the time the service received the command, in milliseconds since
    /// the Unix epoch. `None` (a test, a simulation, a replayed bot) is taken by a clocked game as
    /// the latest time it has recorded; the game never lets its clock run backwards, since the
    /// recorded order is what decides. Only a clocked game overrides it.
    fn decide_at(
        &self,
        state: &Self::State,
        seat: Seat,
        command: &Self::Command,
        at_ms: Option<u64>,
    ) -> Result<Vec<Self::Event>, RuleViolation> {
        let _ = at_ms;
        self.decide(state, seat, command)
    }

    /// [`Rules::deal`] with the time the service dealt (milliseconds since the Unix epoch), for a
    /// clocked game in which a reaction may start from the deal itself (a quartet dealt in Gris);
    /// `None` as in [`Rules::decide_at`].
    fn deal_at(
        &self,
        state: &Self::State,
        deck: Vec<Card>,
        at_ms: Option<u64>,
    ) -> Result<Vec<Self::Event>, RuleViolation> {
        let _ = at_ms;
        self.deal(state, deck)
    }

    /// When the table moves on by itself if nobody acts first (a reaction window closing), in
    /// milliseconds since the Unix epoch; the service calls [`Rules::time_passes`] then.
    fn due_at(&self, state: &Self::State) -> Option<u64> {
        let _ = state;
        None
    }

    /// What follows from the time reaching `now_ms` (at or past [`Rules::due_at`]): the seats
    /// that did not react recorded as late, the loser named.
    fn time_passes(&self, state: &Self::State, now_ms: u64) -> Result<Vec<Self::Event>, RuleViolation> {
        let _ = (state, now_ms);
        Err(RuleViolation::wrong_phase("ingen tid löper ut", "no time is running out"))
    }

    /// In a clocked game, when a bot at `level` makes the move [`crate::bots::choose`] gives it
    /// with the same `seed`: a reaction comes after a human-like delay drawn from `seed`
    /// ([`crate::reaction::bot_delay_ms`]), never at once, so that a person can beat it. `None`
    /// is a move made at once (turning a card, passing the pig).
    fn bot_reaction_at(&self, state: &Self::State, seat: Seat, level: crate::bots::Level, seed: u64) -> Option<u64> {
        let _ = (state, seat, level, seed);
        None
    }

    /// The option sets the generic tests play random matches with at `players`: each variant
    /// and the combinations worth playing together. A game with options overrides the default,
    /// which is the defaults alone, so that no variant goes untested.
    fn test_option_sets(&self, players: usize) -> Vec<Self::Options> {
        let _ = players;
        vec![Self::Options::default()]
    }
}

/// The turn guard every command passes before [`Rules::decide`]: the match must go on, the
/// cards must be dealt and `seat` must be listed in [`Status::ToAct`].
pub fn check_turn(status: &Status, seat: Seat) -> Result<(), RuleViolation> {
    match status {
        Status::Finished { .. } => Err(RuleViolation::new(core::MATCH_OVER, "Partiet är slut.", "The match is over.")),
        Status::NeedsDeck { .. } => {
            Err(RuleViolation::wrong_phase("korten har inte delats ut än", "the cards have not been dealt yet"))
        }
        Status::NeedsShuffle { .. } => {
            Err(RuleViolation::wrong_phase("korten blandas just nu", "the cards are being shuffled"))
        }
        Status::ToAct { seats } if !seats.contains(&seat) => Err(RuleViolation::not_your_turn(seat)),
        Status::ToAct { .. } => Ok(()),
    }
}

/// The guard every deck passes before [`Rules::deal`] (or an order before [`Rules::reshuffle`]):
/// a shuffle must be due and the deck must be a permutation of the cards asked for.
pub fn check_deal(status: &Status, deck: &[Card]) -> Result<(), RuleViolation> {
    let Some(composition) = status.to_shuffle() else {
        return Err(RuleViolation::wrong_phase("ingen ny giv behövs", "no new deal is due"));
    };
    if !is_permutation(deck, composition) {
        return Err(RuleViolation::new(
            core::DECK,
            format!("Kortleken måste bestå av exakt dessa {} kort, var och ett en gång per lek.", composition.len()),
            format!("The deck must hold exactly these {} cards, each as often as the pack has it.", composition.len()),
        ));
    }
    Ok(())
}

/// Starts the deal or goes on with it, whichever shuffle the status asks for, from `order`
/// (already checked by [`check_deal`]).
pub fn shuffled_in<R: Rules + ?Sized>(
    rules: &R,
    state: &R::State,
    order: Vec<Card>,
) -> Result<Vec<R::Event>, RuleViolation> {
    match rules.status(state) {
        Status::NeedsShuffle { .. } => rules.reshuffle(state, order),
        _ => rules.deal(state, order),
    }
}

/// The events given, then every automatic step that follows them (`next_step` on the state as
/// each event leaves it, until it has none), all applied to a copy of `state`: a decision's
/// events when forced steps (a draw, a pick-up, a deal's score) come after the choice itself.
pub fn with_automatic_steps<S: Clone, E>(
    state: &S,
    mut events: Vec<E>,
    evolve: impl Fn(&mut S, &E),
    next_step: impl Fn(&S) -> Option<E>,
) -> Vec<E> {
    let mut state = state.clone();
    for e in &events {
        evolve(&mut state, e);
    }
    while let Some(e) = next_step(&state) {
        evolve(&mut state, &e);
        events.push(e);
    }
    events
}

/// Why the service could not act on a command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The JSON is not a command of this game (unknown type, unknown card code, ...).
    Malformed(String),
    /// A well-formed command the rules do not allow now.
    Violation(RuleViolation),
}

/// A kind of game: the factory for matches, and what can be said about it before one starts.
pub trait Game: Send + Sync {
    fn id(&self) -> &'static str;
    fn rulebook(&self) -> Rulebook;
    fn options(&self) -> Vec<OptionDoc>;
    fn player_counts(&self) -> RangeInclusive<usize>;
    /// A new match's options with every default filled in, as they are stored with the match
    /// (see [`Rules::new_match_options`]).
    fn normalize_options(&self, options: &Value) -> Result<Value, SetupError>;
    /// A match from options as stored (normalized when it was created), or from none (`null`: the
    /// defaults a new match gets).
    fn setup(&self, players: usize, options: &Value) -> Result<Box<dyn Match>, SetupError>;
    /// [`Rules::test_option_sets`], normalized.
    fn test_option_sets(&self, players: usize) -> Vec<Value>;
    /// Whether `command` is one of this game's commands (whether or not the rules would allow it
    /// anywhere): what tells a move meant for another game from one that is no move at all.
    fn reads_command(&self, command: &Value) -> bool;
    /// Whether the game is decided on the server's clock ([`Rules::CLOCKED`]).
    fn clocked(&self) -> bool;
    /// The bot levels the game plays at of its own (see [`crate::bots`]).
    fn bot_levels(&self) -> crate::bots::Levels;
    /// The game's options, commands, table and events as OpenAPI schemas.
    #[cfg(feature = "openapi")]
    fn schemas(&self) -> crate::schema::GameSchemas;
}

/// A match in progress, as derived by replaying its events.
pub trait Match: Send + Sync {
    fn game(&self) -> &'static str;
    fn clone_box(&self) -> Box<dyn Match>;
    fn players(&self) -> usize;
    fn status(&self) -> Status;
    fn deal_number(&self) -> u32;
    /// See [`Rules::shuffles`].
    fn shuffles(&self) -> u32;
    /// Deals from `deck`, or reshuffles within the deal, as the status asks ([`shuffled_in`]).
    fn deal(&self, deck: &[Card]) -> Result<Vec<Value>, RuleViolation>;
    /// [`Match::deal`] at the service's time, for a clocked game ([`Rules::deal_at`]).
    fn deal_at(&self, deck: &[Card], at_ms: Option<u64>) -> Result<Vec<Value>, RuleViolation>;
    fn decide(&self, seat: Seat, command: &Value) -> Result<Vec<Value>, Refusal>;
    fn apply(&mut self, event: &Value) -> Result<(), String>;
    fn legal_moves(&self, seat: Seat) -> Vec<Value>;
    fn move_space(&self, seat: Seat) -> Vec<Value>;
    fn view(&self, viewer: Viewer) -> Value;
    fn redact(&self, event: &Value, viewer: Viewer, deal_over: bool) -> Value;
    /// See [`Rules::record_view`].
    fn record_view(&self, seat: Option<Seat>) -> Value;
    /// See [`Rules::record_event`].
    fn record_event(&self, event: &Value, seat: Option<Seat>) -> Value;
    fn secrets(&self) -> Vec<(Card, Vec<Seat>)>;
    fn check_invariants(&self) -> Result<(), String>;
    fn bot_move(&self, seat: Seat, seed: u64) -> Option<Value>;
    /// A bot's move at `level` (see [`crate::bots`]), from `seed` alone.
    fn bot_move_at(&self, seat: Seat, level: crate::bots::Level, seed: u64) -> Option<Value>;
    /// How `seat` stands now (see [`Rules::standing`]).
    fn standing(&self, seat: Seat) -> f64;
    /// Whether the game is decided on the server's clock ([`Rules::CLOCKED`]).
    fn clocked(&self) -> bool;
    /// See [`Rules::due_at`].
    fn due_at(&self) -> Option<u64>;
    /// See [`Rules::time_passes`].
    fn time_passes(&self, now_ms: u64) -> Result<Vec<Value>, RuleViolation>;
    /// See [`Rules::bot_reaction_at`].
    fn bot_reaction_at(&self, seat: Seat, level: crate::bots::Level, seed: u64) -> Option<u64>;
}

/// The seats that have a move now: those in [`Status::ToAct`], less, in a clocked game (which
/// lists every seat that may react, so that the list shows nobody's hand), those with no legal
/// move. Drivers of whole matches pick from these.
pub fn movers(m: &dyn Match) -> Vec<Seat> {
    let seats = m.status().to_act().to_vec();
    if !m.clocked() {
        return seats;
    }
    seats.into_iter().filter(|&s| !m.legal_moves(s).is_empty()).collect()
}

/// [`movers`] over a game's own types.
pub fn movers_of<R: Rules>(rules: &R, state: &R::State) -> Vec<Seat> {
    let seats = rules.status(state).to_act().to_vec();
    if !R::CLOCKED {
        return seats;
    }
    seats.into_iter().filter(|&s| !rules.legal_moves(state, s).is_empty()).collect()
}

impl Clone for Box<dyn Match> {
    fn clone(&self) -> Self {
        self.clone_box()
    }
}

pub fn erase<R: Rules>(rules: R) -> Box<dyn Game> {
    Box::new(Erased(std::sync::Arc::new(rules)))
}

struct Erased<R>(std::sync::Arc<R>);

struct ErasedMatch<R: Rules> {
    rules: std::sync::Arc<R>,
    players: usize,
    state: R::State,
}

fn to_json<T: Serialize>(value: &T) -> Value {
    serde_json::to_value(value).expect("engine types always serialize")
}

impl<R: Rules> Erased<R> {
    /// Options as stored, or the defaults for none. A field missing from a stored set takes its
    /// serde default (see [`Rules::new_match_options`]).
    fn parse_options(&self, options: &Value) -> Result<R::Options, SetupError> {
        if options.is_null() {
            return Ok(R::Options::default());
        }
        serde_json::from_value(options.clone()).map_err(|e| SetupError(format!("invalid options: {e}")))
    }
}

impl<R: Rules> Game for Erased<R> {
    fn id(&self) -> &'static str {
        self.0.id()
    }
    fn rulebook(&self) -> Rulebook {
        self.0.rulebook()
    }
    fn options(&self) -> Vec<OptionDoc> {
        self.0.options()
    }
    fn player_counts(&self) -> RangeInclusive<usize> {
        self.0.player_counts()
    }
    fn normalize_options(&self, options: &Value) -> Result<Value, SetupError> {
        Ok(to_json(&self.0.new_match_options(options, self.parse_options(options)?)?))
    }
    fn setup(&self, players: usize, options: &Value) -> Result<Box<dyn Match>, SetupError> {
        let counts = self.0.player_counts();
        if !counts.contains(&players) {
            return Err(SetupError(format!(
                "{} is played by {} to {} players, not {players}",
                self.0.id(),
                counts.start(),
                counts.end()
            )));
        }
        let state = self.0.setup(players, self.parse_options(options)?)?;
        Ok(Box::new(ErasedMatch { rules: self.0.clone(), players, state }))
    }
    fn test_option_sets(&self, players: usize) -> Vec<Value> {
        self.0.test_option_sets(players).iter().map(to_json).collect()
    }
    fn reads_command(&self, command: &Value) -> bool {
        read_command::<R>(&without_time::<R>(command).0).is_ok()
    }
    fn clocked(&self) -> bool {
        R::CLOCKED
    }
    fn bot_levels(&self) -> crate::bots::Levels {
        self.0.bot_levels()
    }
    #[cfg(feature = "openapi")]
    fn schemas(&self) -> crate::schema::GameSchemas {
        crate::schema::GameSchemas::derive::<R::Options, R::Command, R::View, R::Event>(self.0.id())
    }
}

impl<R: Rules> Match for ErasedMatch<R> {
    fn game(&self) -> &'static str {
        self.rules.id()
    }
    fn clone_box(&self) -> Box<dyn Match> {
        Box::new(ErasedMatch { rules: self.rules.clone(), players: self.players, state: self.state.clone() })
    }
    fn players(&self) -> usize {
        self.players
    }
    fn status(&self) -> Status {
        self.rules.status(&self.state)
    }
    fn deal_number(&self) -> u32 {
        self.rules.deal_number(&self.state)
    }
    fn shuffles(&self) -> u32 {
        self.rules.shuffles(&self.state)
    }
    fn deal(&self, deck: &[Card]) -> Result<Vec<Value>, RuleViolation> {
        self.deal_at(deck, None)
    }
    fn deal_at(&self, deck: &[Card], at_ms: Option<u64>) -> Result<Vec<Value>, RuleViolation> {
        check_deal(&self.status(), deck)?;
        let events = match self.status() {
            Status::NeedsDeck { .. } => self.rules.deal_at(&self.state, deck.to_vec(), at_ms)?,
            _ => shuffled_in(&*self.rules, &self.state, deck.to_vec())?,
        };
        Ok(events.iter().map(to_json).collect())
    }
    fn decide(&self, seat: Seat, command: &Value) -> Result<Vec<Value>, Refusal> {
        let (command, at_ms) = without_time::<R>(command);
        let command = read_command::<R>(&command).map_err(Refusal::Malformed)?;
        if seat >= self.players {
            return Err(Refusal::Malformed(format!("there is no seat {seat} at a table of {}", self.players)));
        }
        check_turn(&self.status(), seat).map_err(Refusal::Violation)?;
        self.rules
            .decide_at(&self.state, seat, &command, at_ms)
            .map(|events| events.iter().map(to_json).collect())
            .map_err(Refusal::Violation)
    }
    fn apply(&mut self, event: &Value) -> Result<(), String> {
        let event: R::Event = serde_json::from_value(event.clone())
            .map_err(|e| format!("stored event does not fit {}: {e}", self.rules.id()))?;
        self.rules.evolve(&mut self.state, &event);
        Ok(())
    }
    fn legal_moves(&self, seat: Seat) -> Vec<Value> {
        if !self.status().to_act().contains(&seat) {
            return Vec::new();
        }
        self.rules.legal_moves(&self.state, seat).iter().map(to_json).collect()
    }
    fn move_space(&self, seat: Seat) -> Vec<Value> {
        self.rules.move_space(&self.state, seat).iter().map(to_json).collect()
    }
    fn view(&self, viewer: Viewer) -> Value {
        to_json(&self.rules.view(&self.state, viewer))
    }
    fn redact(&self, event: &Value, viewer: Viewer, deal_over: bool) -> Value {
        match serde_json::from_value::<R::Event>(event.clone()) {
            Ok(e) => self.rules.redact(&self.state, &e, viewer, deal_over),
            // An event this build cannot read shows nothing rather than something secret.
            Err(_) => serde_json::json!({ "type": "unreadable" }),
        }
    }
    fn record_view(&self, seat: Option<Seat>) -> Value {
        self.rules.record_view(&self.state, seat)
    }
    fn record_event(&self, event: &Value, seat: Option<Seat>) -> Value {
        match serde_json::from_value::<R::Event>(event.clone()) {
            Ok(e) => self.rules.record_event(&self.state, &e, seat),
            Err(_) => serde_json::json!({ "type": "unreadable" }),
        }
    }
    fn secrets(&self) -> Vec<(Card, Vec<Seat>)> {
        self.rules.secrets(&self.state)
    }
    fn check_invariants(&self) -> Result<(), String> {
        self.rules.check_invariants(&self.state)
    }
    fn bot_move(&self, seat: Seat, seed: u64) -> Option<Value> {
        if !self.status().to_act().contains(&seat) {
            return None;
        }
        self.rules.bot_move(&self.state, seat, seed).map(|c| to_json(&c))
    }
    fn bot_move_at(&self, seat: Seat, level: crate::bots::Level, seed: u64) -> Option<Value> {
        if !self.status().to_act().contains(&seat) {
            return None;
        }
        crate::bots::choose(&*self.rules, &self.state, seat, level, seed).map(|c| to_json(&c))
    }
    fn standing(&self, seat: Seat) -> f64 {
        self.rules.standing(&self.state, seat)
    }
    fn clocked(&self) -> bool {
        R::CLOCKED
    }
    fn due_at(&self) -> Option<u64> {
        if !R::CLOCKED || !matches!(self.status(), Status::ToAct { .. }) {
            return None;
        }
        self.rules.due_at(&self.state)
    }
    fn time_passes(&self, now_ms: u64) -> Result<Vec<Value>, RuleViolation> {
        if self.due_at().is_none_or(|due| now_ms < due) {
            return Err(RuleViolation::wrong_phase("ingen tid har löpt ut", "no time has run out"));
        }
        Ok(self.rules.time_passes(&self.state, now_ms)?.iter().map(to_json).collect())
    }
    fn bot_reaction_at(&self, seat: Seat, level: crate::bots::Level, seed: u64) -> Option<u64> {
        if !R::CLOCKED {
            return None;
        }
        self.rules.bot_reaction_at(&self.state, seat, level, seed)
    }
}

/// A command as `R` reads it, refusing every field it does not have. Commands are tagged enums
/// with `deny_unknown_fields`, which serde applies to variants with fields; a variant without
/// fields ignores whatever else is sent, and a nested object may too, which `unknown_field`
/// catches. A `null` the command read does not show is a known optional field left empty when
/// a variant with fields read it, and an unknown one when a variant without fields did: which,
/// the same object with the key replaced by one no command has tells.
/// A clocked game's command less the receive time the service wrote into it (`at_ms`), and that
/// time; any other game's command as it came.
fn without_time<R: Rules>(command: &Value) -> (Value, Option<u64>) {
    match command {
        Value::Object(fields) if R::CLOCKED && fields.contains_key(AT_MS) => {
            let mut fields = fields.clone();
            let at = fields.remove(AT_MS).and_then(|t| t.as_u64());
            (Value::Object(fields), at)
        }
        _ => (command.clone(), None),
    }
}

/// The field of a clocked game's command that holds the service's receive time.
pub const AT_MS: &str = "at_ms";

fn read_command<R: Rules>(command: &Value) -> Result<R::Command, String> {
    // The document bounds every whole number in a move by u32::MAX (a seat or a position is
    // never larger): past that a move is malformed, whatever the version it was sent at.
    if let Some(n) = too_large(command) {
        return Err(format!("{n} is larger than any number in a move ({})", u32::MAX));
    }
    let parsed: R::Command = serde_json::from_value(command.clone()).map_err(|e| e.to_string())?;
    let read = to_json(&parsed);
    if let Some(field) = unknown_field(command, &read) {
        return Err(format!("unknown field `{field}` in a move of this type"));
    }
    if let (Value::Object(sent), Value::Object(read)) = (command, &read) {
        for (key, _) in sent.iter().filter(|(k, v)| v.is_null() && !read.contains_key(*k)) {
            let mut probe = sent.clone();
            probe.remove(key);
            probe.insert("\u{1}probe".into(), Value::Null);
            if serde_json::from_value::<R::Command>(Value::Object(probe)).is_ok() {
                return Err(format!("unknown field `{key}` in a move of this type"));
            }
        }
    }
    Ok(parsed)
}

fn too_large(value: &Value) -> Option<&serde_json::Number> {
    match value {
        Value::Number(n) if n.as_f64().is_some_and(|v| v > f64::from(u32::MAX)) => Some(n),
        Value::Array(items) => items.iter().find_map(too_large),
        Value::Object(map) => map.values().find_map(too_large),
        _ => None,
    }
}

/// A field the client sent that the command read does not have (at any depth): serde skips
/// unknown fields in a tagged enum, and a move must not quietly do less than its sender meant.
/// A `null` sent for a field the command leaves out says nothing, so it passes.
fn unknown_field(sent: &Value, read: &Value) -> Option<String> {
    match (sent, read) {
        (Value::Object(sent), Value::Object(read)) => sent.iter().find_map(|(key, value)| match read.get(key) {
            None if value.is_null() => None,
            None => Some(key.clone()),
            Some(inner) => unknown_field(value, inner).map(|f| format!("{key}.{f}")),
        }),
        (Value::Array(sent), Value::Array(read)) => sent.iter().zip(read).find_map(|(s, r)| unknown_field(s, r)),
        _ => None,
    }
}

/// Puts `null` wherever a card of `hidden` stands in a JSON value: how a step of a replay keeps
/// back what the deal's record keeps back for ever, whatever the game.
pub fn hide_cards(value: &mut Value, hidden: &[Card]) {
    match value {
        Value::String(s) if s.parse::<Card>().is_ok_and(|c| hidden.contains(&c)) => *value = Value::Null,
        Value::Array(items) => items.iter_mut().for_each(|i| hide_cards(i, hidden)),
        Value::Object(map) => map.values_mut().for_each(|i| hide_cards(i, hidden)),
        _ => {}
    }
}

/// Every card code found anywhere in a JSON value: what a leak check looks for.
pub fn cards_in(value: &Value) -> Vec<Card> {
    let mut found = Vec::new();
    fn walk(v: &Value, found: &mut Vec<Card>) {
        match v {
            Value::String(s) => {
                if let Ok(c) = s.parse::<Card>() {
                    found.push(c);
                }
            }
            Value::Array(items) => items.iter().for_each(|i| walk(i, found)),
            Value::Object(map) => map.values().for_each(|i| walk(i, found)),
            _ => {}
        }
    }
    walk(value, &mut found);
    found
}
