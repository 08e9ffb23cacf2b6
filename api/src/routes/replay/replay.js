// The replay viewer: draws a finished deal step by step from the public API
// (GET /v1/matches/{id}, …/deals/{k}, …/deals/{k}/replay?at=N, /v1/games/{game}/rules).
// Per-game drawing is in tables.js; everything here works from the fields tables share.
"use strict";

(function () {
  const $ = (id) => document.getElementById(id);
  const parts = location.pathname.split("/").filter(Boolean); // replay, {id}, deals, {k}
  const matchId = decodeURIComponent(parts[1] || "");
  const dealNo = Number(parts[3]);
  const api = `/v1/matches/${encodeURIComponent(matchId)}`;
  const params = new URLSearchParams(location.search);

  const state = {
    lang: pickLang(),
    match: null,
    game: null,
    rules: {},
    record: null,
    steps: 0,
    at: 0,
    cache: new Map(),
    step: null,
  };

  function pickLang() {
    const asked = params.get("lang") || localStorage.getItem("kortbord.lang");
    if (asked === "sv" || asked === "en") return asked;
    const langs = navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language || "en"];
    for (const l of langs) {
      const base = String(l).toLowerCase().split("-")[0];
      if (base === "sv" || base === "en") return base;
    }
    return "en";
  }

  // --- small helpers ---------------------------------------------------------------------
  const t = (sv, en) => (state.lang === "sv" ? sv : en);

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === undefined || v === null || v === false) continue;
      if (k === "class") node.className = v;
      else node.setAttribute(k, v === true ? "" : String(v));
    }
    for (const c of children.flat()) {
      if (c === undefined || c === null || c === false) continue;
      node.append(c instanceof Node ? c : document.createTextNode(String(c)));
    }
    return node;
  }

  const SUITS = {
    C: { sym: "♣", red: false, sv: "klöver", en: "clubs" },
    D: { sym: "♦", red: true, sv: "ruter", en: "diamonds" },
    H: { sym: "♥", red: true, sv: "hjärter", en: "hearts" },
    S: { sym: "♠", red: false, sv: "spader", en: "spades" },
  };
  const SUIT_BY_NAME = { clubs: "C", diamonds: "D", hearts: "H", spades: "S" };
  const RANKS = {
    T: { short: "10", sv: "tia", en: "ten" },
    J: { short: "J", sv: "knekt", en: "jack" },
    C: { short: "C", sv: "riddare", en: "knight" },
    Q: { short: "Q", sv: "dam", en: "queen" },
    K: { short: "K", sv: "kung", en: "king" },
    A: { short: "A", sv: "ess", en: "ace" },
  };

  // A card code: "AS", "TD", tarot's "1H", "CH", "T1".."T21", "EX", jokers "JK", "JK1".
  function parseCard(code) {
    if (typeof code !== "string" || !code) return null;
    if (code === "EX") return { kind: "excuse", short: "★", suitSym: "", name: t("Ursäkten", "the Excuse") };
    if (/^JK\d?$/.test(code)) return { kind: "joker", short: "🃏", suitSym: "", name: t("joker", "joker") };
    const trump = /^T(\d{1,2})$/.exec(code);
    if (trump) return { kind: "trump", short: trump[1], suitSym: t("trumf", "trump"), name: t(`trumf ${trump[1]}`, `trump ${trump[1]}`) };
    const suit = SUITS[code.slice(-1)];
    const r = code.slice(0, -1);
    if (!suit || !r) return { kind: "unknown", short: code, suitSym: "", name: code };
    const rank = RANKS[r] || { short: r, sv: r, en: r };
    return { kind: "suited", red: suit.red, short: rank.short, suitSym: suit.sym, name: `${rank.short}${suit.sym}` };
  }

  // One card; `o.from` names where it is in the replay step (for a card drawn alone).
  function card(code, o) {
    const opts = typeof o === "object" && o ? o : { small: !!o };
    const small = opts.small;
    if (code === null || code === undefined) {
      return el("span", { class: "card back" + (small ? " small" : ""), "data-card": "", "data-from": opts.from, title: t("dolt kort", "hidden card") });
    }
    const c = parseCard(code) || { kind: "unknown", short: String(code), suitSym: "" };
    const cls = ["card", c.red ? "red" : "", c.kind === "trump" ? "trump" : "", c.kind === "excuse" ? "excuse" : "", small ? "small" : ""];
    return el("span", { class: cls.filter(Boolean).join(" "), "data-card": code, "data-from": opts.from, title: c.name },
      el("span", { class: "rank" }, c.short), el("span", { class: "suit" }, c.suitSym));
  }

  // A row of cards: a zone whose `data-from` names the list in the replay step it draws
  // (`table.hands.2`), which the browser test compares with the step. `single`: the zone draws
  // one card field (`table.trump_card`), not a list.
  function cards(codes, opts) {
    const o = opts || {};
    const row = el("div", { class: "hand" + ((codes || []).length > 13 ? " long" : ""), id: o.id, "data-from": o.from, "data-single": o.single ? "1" : undefined });
    (codes || []).forEach((c) => row.append(card(c, { small: o.small })));
    if (!o.label) return row;
    return el("div", { class: "extra zone" }, el("div", { class: "zone-label" }, o.label), row);
  }

  // Cards face down whose faces no step shows, only their number (a hand kept hidden for ever,
  // a stock): drawn as backs, up to a handful, with the count.
  function backs(count, opts) {
    const o = opts || {};
    const row = el("div", { class: "hand backs", id: o.id, "data-count": count, "data-zone": o.zone });
    for (let i = 0; i < Math.min(count, 5); i++) row.append(card(null, { small: o.small !== false }));
    if (count > 5) row.append(el("span", { class: "more" }, `+${count - 5}`));
    if (!o.label) return row;
    return el("div", { class: "extra zone" }, el("div", { class: "zone-label" }, o.label), row);
  }

  const cardName = (code) => (code === null || code === undefined ? t("ett dolt kort", "a hidden card") : (parseCard(code) || {}).name || code);
  const cardNames = (list) => (list || []).map(cardName).join(" ");
  // A rank asked for (Löjliga familjerna, Finns i sjön) or claimed (Fusk), 2 to 14, in the plural: [sv, en][i].
  const RANK_WORDS = ["tvåor", "treor", "fyror", "femmor", "sexor", "sjuor", "åttor", "nior", "tior", "knektar", "damer", "kungar", "ess"];
  const RANK_WORDS_EN = ["twos", "threes", "fours", "fives", "sixes", "sevens", "eights", "nines", "tens", "jacks", "queens", "kings", "aces"];
  const rankWord = (r, i) => ((i ? RANK_WORDS_EN : RANK_WORDS)[r - 2] || String(r));

  function seatName(n) {
    if (n === null || n === undefined) return "?";
    const s = state.match && (state.match.seats || [])[n];
    const who = s ? (s.kind === "bot" ? t("bot", "bot") : s.name || "") : "";
    return `${t("Plats", "Seat")} ${n}${who ? ` (${who})` : ""}`;
  }

  function suitWord(name) {
    const code = SUIT_BY_NAME[name] || name;
    return SUITS[code] ? `${SUITS[code][state.lang]} ${SUITS[code].sym}` : String(name);
  }

  const human = (s) => String(s).replace(/[_.-]+/g, " ");

  // Values the tables name (phases, contracts, bids, choices), in both languages; the key is the
  // value with `_` read as `-`. A value not here is shown as it is sent.
  const WORDS = {
    // President's titles
    president: ["president", "president"],
    "vice-president": ["vicepresident", "vice-president"],
    citizen: ["medborgare", "citizen"],
    last: ["sist", "last"],
    // Gris's phases and endings
    passing: ["grisen skickas runt", "passing the pig"],
    "thumbs-up": ["en tumme är uppe", "a thumb is up"],
    late: ["för sent", "too late"],
    stalled: ["för många skickningar", "too many passes"],
    // phases
    "waiting-for-deal": ["väntar på given", "waiting for the deal"],
    "deal-over": ["given är slut", "the deal is over"],
    asking: ["frågande", "asking"],
    fishing: ["drar ur sjön", "drawing from the sea"],
    refilling: ["fyller på handen", "refilling the hand"],
    finished: ["partiet är slut", "the match is over"],
    over: ["given är slut", "the deal is over"],
    playing: ["spel", "card play"],
    "move-limit": ["husets gräns för antal drag", "the house's cap on moves"],
    "by-players": ["efter antalet spelare", "by the number of players"],
    taking: ["intagning", "taking in"],
    turning: ["vända kort", "turning cards"],
    reacting: ["alla reagerar", "everyone reacting"],
    paying: ["betala för ett klätt kort eller ess", "paying for a court card or an ace"],
    placing: ["lägga det vända kortet", "placing the card turned"],
    play: ["spel", "card play"],
    bidding: ["budgivning", "bidding"],
    cutting: ["kuttning", "the cut"],
    drawing: ["dra ett kort", "drawing"],
    leading: ["utspel", "leading"],
    following: ["lägga på", "following"],
    beating: ["sticka över", "beating"],
    duels: ["första fasen, stick två och två", "duels"],
    shedding: ["andra fasen, bli av med korten", "shedding"],
    shuffling: ["ny talong blandas", "shuffling a new talon"],
    "shuffling-hand": ["handen blandas före dragningen", "the hand is shuffled before the draw"],
    "rebuilding-stock": ["ny talong blandas av högen", "the pile is shuffled into a new stock"],
    melding: ["lägga ned och bygga på, sedan kasta", "melding and laying off, then discarding"],
    betting: ["satsning", "betting"],
    insurance: ["försäkring", "insurance"],
    swedish: ["svenska regler", "Swedish rules"],
    push: ["insatsen tillbaka", "the bet back"],
    "seven-to-eleven": ["på 7 till 11", "on 7 to 11"],
    "nine-to-eleven": ["på 9 till 11", "on 9 to 11"],
    any: ["på alla två kort", "on any two cards"],
    "first-betting": ["satsning före köpet", "betting before the draw"],
    "second-betting": ["satsning efter köpet", "betting after the draw"],
    "shuffling-stock": ["de kastade korten blandas till ny talong", "the discards are shuffled into a new stock"],
    "no-limit": ["ingen gräns", "no limit"],
    "pot-limit": ["högst potten", "pot limit"],
    fixed: ["fasta insatser", "fixed bets"],
    "first-after-dealer": ["till vinnaren närmast efter given", "to the winner nearest after the dealer"],
    "carry-over": ["ligger kvar i potten", "left in the pot"],
    uncalled: ["ingen synade", "nobody called"],
    showdown: ["visning", "showdown"],
    "high-card": ["högsta kort", "high card"],
    "one-pair": ["ett par", "one pair"],
    "two-pairs": ["två par", "two pairs"],
    "three-of-a-kind": ["triss", "three of a kind"],
    straight: ["stege", "straight"],
    flush: ["färg", "flush"],
    "full-house": ["kåk", "full house"],
    "four-of-a-kind": ["fyrtal", "four of a kind"],
    "straight-flush": ["färgstege", "straight flush"],
    "four-straight": ["fyrstraight", "four-straight"],
    "four-flush": ["fyrflush", "four-flush"],
    discarding: ["lägga bort", "discarding"],
    arranging: ["lägga högarna", "arranging the piles"],
    swapping: ["byten med de öppna korten", "swapping with the face-up cards"],
    laying: ["lägga på motspelarnas kort", "laying on the opponents' cards"],
    declaring: ["mariage kan visas", "declaring a marriage"],
    "declaring-chicago": ["chicago kan sägas", "declaring Chicago"],
    "stock-play": ["spel med talong", "play with the stock"],
    "end-play": ["slutspel", "end play"],
    "answering-offer": ["svar på erbjudande", "answering an offer"],
    redeal: ["omgiv", "redeal"],
    "choosing-bottom-cards": ["val av bottenkort", "choosing bottom cards"],
    "thrown-in": ["inkastad", "thrown in"],
    "buying-in": ["köpa in sig", "buying in"],
    "choosing-trump": ["val av trumf", "choosing trumps"],
    "choosing-trumps": ["val av trumf", "choosing trumps"],
    "blind-nil-choice": ["val av blind noll", "choosing blind nil"],
    exchange: ["byte av kort", "exchanging cards"],
    "calling-partner": ["uppropa partner", "calling a partner"],
    calling: ["uppropa kung", "calling a king"],
    dog: ["hunden", "the dog"],
    slam: ["slam", "slam"],
    joining: ["gå med", "joining"],
    buying: ["köp", "buying"],
    "going-on": ["går ni med?", "going on?"],
    swinging: ["svängning", "swinging"],
    // contracts, bids and calls
    pass: ["pass", "pass"],
    spel: ["spel", "spel (a game)"],
    sang: ["sang", "sang (no trumps)"],
    trump: ["trumf", "trumps"],
    trumps: ["trumf", "trumps"],
    "no-trumps": ["sang", "no trumps"],
    misere: ["misär", "misère"],
    "open-misere": ["öppen misär", "open misère"],
    small: ["liten", "small"],
    big: ["stor", "big"],
    "without-dog": ["utan hunden", "without the dog"],
    "against-dog": ["mot hunden", "against the dog"],
    taker: ["spelaren", "the taker"],
    defence: ["försvaret", "the defence"],
    preference: ["preferens", "preference"],
    noll: ["noll", "noll (nil)"],
    hjarter: ["hjärter", "hearts"],
    ruter: ["ruter", "diamonds"],
    klover: ["klöver", "clubs"],
    spader: ["spader", "spades"],
    tvangsnoll: ["tvångsnoll", "forced nil"],
    one: ["ett", "one"], two: ["två", "two"], three: ["tre", "three"], four: ["fyra", "four"],
    five: ["fem", "five"], six: ["sex", "six"], rodskagg: ["rödskägg", "rödskägg"],
    offered: ["bjöd ut bättre kort", "offered better cards"],
    kept: ["behöll korten", "kept the cards"],
    declarer: ["spelförare", "declarer"],
    "in-with-trick": ["med (har stick)", "in (has a trick)"],
    undecided: ["har inte svarat", "undecided"],
    answered: ["har svarat", "has answered"],
    joined: ["går med", "goes on"],
    dropped: ["lade sig", "dropped out"],
    "out-of-match": ["ute ur partiet", "out of the match"],
    "reached-zero": ["någon nådde noll", "someone reached zero"],
    "last-in-match": ["en kvar", "one player left"],
    "deal-limit": ["antalet givar är spelat", "the deals are played"],
    "dealer-took": ["given tog det vända kortet", "the dealer took the turned card"],
    "round-one": ["första budrundan", "the first round of bids"],
    "round-two": ["andra budrundan", "the second round of bids"],
    "first-deal": ["första given", "the first deal"],
    "turned-card": ["det vända kortet", "the turned card"],
    "ace-turned": ["ett vänt ess", "a turned ace"],
    "nothing-to-turn": ["inget kort att vända", "no card to turn"],
    rita: ["rita", "rita"],
    accept: ["tar det vända kortets färg", "accepts the turned suit"],
    "name-suit": ["nämner en färg", "names a suit"],
    wieder: ["wieder", "wieder"],
    won: ["vunnen", "won"],
    "no-winner": ["ingen vinnare", "no winner"],
    "la-vola-won": ["la vola vunnen", "la vola won"],
    "la-vola-lost": ["la vola förlorad", "la vola lost"],
    "all-passed": ["alla passade", "everyone passed"],
    bought: ["köpte", "bought"],
    stood: ["stod", "stood"],
    single: ["enkel", "single"],
    double: ["dubbel", "double"],
    triple: ["trippel", "triple"],
    strong: ["stark", "strong"],
    basic: ["enkel", "basic"],
    random: ["slumpvis", "random"],
    // Jazz's six deals (its table's `kind`; the sixth is also its phase while played).
    tricks: ["undvik stick", "avoid tricks"],
    clubs: ["undvik klöver", "avoid clubs"],
    queens: ["undvik damerna", "avoid the queens"],
    "king-of-clubs": ["undvik klöver kung", "avoid the king of clubs"],
    "last-trick": ["undvik sista sticket", "avoid the last trick"],
    "fan-tan": ["fan tan-given", "the fan tan deal"],
  };
  const word = (v) => {
    if (v === null || v === undefined) return "—";
    const w = WORDS[String(v).replace(/_/g, "-")];
    return w ? t(w[0], w[1]) : human(v);
  };

  function contract(c) {
    if (c === null || c === undefined) return "—";
    if (typeof c === "string") return word(c);
    if (typeof c === "object") {
      const bits = [];
      if (c.kind) bits.push(word(c.kind));
      if (c.suit) bits.push(suitWord(c.suit));
      if (typeof c.tricks === "number") bits.push(t(`${c.tricks} stick`, `${c.tricks} tricks`));
      for (const [k, v] of Object.entries(c)) if (!["kind", "suit", "tricks"].includes(k) && typeof v !== "object") bits.push(`${human(k)} ${v}`);
      return bits.join(" ");
    }
    return String(c);
  }

  const seatNames = (list) => (list || []).map((s) => seatName(s)).join(", ");
  const ui = { t, el, card, cards, backs, seat: seatName, seats: seatNames, contract, suit: suitWord, word };

  // A game's hook from tables.js; one that throws draws nothing rather than break the page.
  function hookOf(game) {
    const hook = KortbordTables.get(game);
    const safe = {};
    for (const [name, f] of Object.entries(hook)) {
      safe[name] = (...args) => {
        try {
          return f(...args);
        } catch (err) {
          console.error(`tables.js ${game}.${name}:`, err);
          return name === "hand" ? undefined : [];
        }
      };
    }
    return safe;
  }

  // --- fetching ----------------------------------------------------------------------------
  async function getJson(url) {
    const r = await fetch(url, { headers: { Accept: "application/json" } });
    const body = await r.json().catch(() => null);
    if (!r.ok) {
      const err = new Error((body && (body.detail || body.title)) || `${r.status}`);
      err.status = r.status;
      err.code = body && body.code;
      throw err;
    }
    return body;
  }

  function fetchStep(at) {
    if (!state.cache.has(at)) {
      const p = getJson(`${api}/deals/${dealNo}/replay?at=${at}`);
      p.catch(() => state.cache.delete(at));
      state.cache.set(at, p);
    }
    return state.cache.get(at);
  }

  // --- events in words ---------------------------------------------------------------------
  const REASONS = {
    "highest-of-suit-led": ["högsta kortet i utspelad färg", "the highest card of the suit led"],
    "highest-trump": ["högsta trumfen", "the highest trump"],
    "all-passed": ["alla passade", "everyone passed"],
    "highest-card": ["högsta kortet", "the highest card"],
    leading: ["utspel", "leading"],
    following: ["val av kort", "choosing a card"],
    "laid-as-trick": ["lagt som stick", "laid as a trick"],
    "excuse-completes-slam": ["Ursäkten fullbordar slam", "the Excuse completes the slam"],
    "blanked-lead": ["utspelet var dolt", "the lead was blanked"],
  };
  const reason = (r) => (REASONS[r] ? t(...REASONS[r]) : human(r));
  const seatOf = (d) => (d.seat !== undefined ? d.seat : d.by);

  // Hej knekt's gestures, as a sentence goes on after the seat's name.
  const GESTURES = {
    whistle: ["visslar", "whistles"],
    "hej-knekt": ["säger \"Hej knekt!\"", "says \"Hej knekt!\""],
    "goddag-dam": ["säger \"Goddag dam!\"", "says \"Goddag dam!\""],
    salute: ["reser sig och gör honnör", "stands and salutes"],
    slap: ["daskar handen i bordet", "slaps the table"],
  };

  // One function per event type, for the event's data; anything else gets the generic words.
  const EVENTS = {
    turned_up: (d) => d.card
      ? t(`${seatName(d.seat)} vänder upp ${cardName(d.card)} på plats ${d.position}.`, `${seatName(d.seat)} turns up ${cardName(d.card)} at place ${d.position}.`)
      : t(`${seatName(d.seat)} vänder upp kortet på plats ${d.position}.`, `${seatName(d.seat)} turns up the card at place ${d.position}.`),
    turned_back: (d) => t(`Korten på plats ${d.positions.join(", ")} vänds tillbaka.`, `The cards at places ${d.positions.join(", ")} are turned back.`),
    pair_taken: (d) => t(`${seatName(d.seat)} tar paret ${cardNames(d.cards)} och vänder igen.`, `${seatName(d.seat)} takes the pair ${cardNames(d.cards)} and turns again.`),
    // Kom ihåg's turn gone bust, or a blackjack hand over 21 (its bet taken by the bank).
    busted: (d) => (d.payment
      ? t(`${seatName(d.seat)} spricker på hand ${d.hand + 1}: banken tar insatsen ${d.payment.amount}.`, `${seatName(d.seat)} goes bust on hand ${d.hand + 1}: the bank takes the bet of ${d.payment.amount}.`)
      : t(`${seatName(d.seat)} vänder upp en valör som redan ligger uppe i turen och spricker: korten ska vändas tillbaka. ${seatName(d.next)} har turen.`, `${seatName(d.seat)} turns up a rank already up in the turn and goes bust: the cards go back face down. ${seatName(d.next)} is next.`)),
    heap_taken: (d) => t(`${seatName(d.seat)} stannar och tar ${cardNames(d.cards)} till sin hög. ${seatName(d.next)} har turen.`, `${seatName(d.seat)} stops and takes ${cardNames(d.cards)} into his heap. ${seatName(d.next)} is next.`),
    missed: (d) => t(`Inget par. ${seatName(d.next)} har turen.`, `No pair. ${seatName(d.next)} is next.`),
    // Jazz names which of its six deals starts.
    deal_started: (d) => t(`Giv ${d.deal_number ?? dealNo} börjar. ${seatName(d.dealer)} ger.`,
      `Deal ${d.deal_number ?? dealNo} starts. ${seatName(d.dealer)} deals.`) + (d.kind ? ` ${word(d.kind)}.` : ""),
    cards_dealt: (d) => t("Korten delas ut.", "The cards are dealt.") +
      (d.turned_card ? t(` ${cardName(d.turned_card)} vänds upp.`, ` ${cardName(d.turned_card)} is turned up.`) : ""),
    bid_made: (d) => {
      let what;
      if (d.nil) what = d.blind_nil ? t("blind noll", "blind nil") : t("noll", "nil");
      else if (d.tricks !== undefined) what = t(`${d.tricks} stick`, `${d.tricks} tricks`);
      else if (d.contract !== undefined) what = contract(d.contract);
      else what = contract(d.bid ?? d.call ?? "") + (d.suit ? ` (${suitWord(d.suit)})` : "");
      return t(`${seatName(seatOf(d))} bjuder ${what}.`, `${seatName(seatOf(d))} bids ${what}.`);
    },
    // Jazz's fan tan deal: a pass after the first seven is forced and costs a point.
    passed: (d) => t(`${seatName(d.seat)} passar${d.forced ? " (tvunget pass: -1)" : ""}.`, `${seatName(d.seat)} passes${d.forced ? " (forced pass: -1)" : ""}.`),
    card_played: (d) => {
      const from = d.from && d.from.kind === "pile" ? t(` från hög ${d.from.pile + 1}`, ` from pile ${d.from.pile + 1}`) : "";
      const out = d.went_out ? t(" och är ute ur given", " and is out of the deal") : "";
      return t(`${seatName(d.seat)} spelar ${cardName(d.card)}${from}${out}.`, `${seatName(d.seat)} plays ${cardName(d.card)}${from}${out}.`);
    },
    trick_won: (d) => t(
      `${seatName(d.winner)} tar stick ${d.trick_number ?? ""} med ${cardName(d.card)}${d.reason ? `: ${reason(d.reason)}` : ""}.`,
      `${seatName(d.winner)} wins trick ${d.trick_number ?? ""} with ${cardName(d.card)}${d.reason ? `: ${reason(d.reason)}` : ""}.`),
    contract_won: (d) => t(`${seatName(d.taker ?? d.seat)} får kontraktet: ${contract(d.contract)}.`,
      `${seatName(d.taker ?? d.seat)} wins the contract: ${contract(d.contract)}.`),
    contract_chosen: (d) => t(`Kontrakt: ${contract(d.contract)}` + (d.forehand !== undefined ? `, förhand ${seatName(d.forehand)}.` : "."),
      `Contract: ${contract(d.contract)}` + (d.forehand !== undefined ? `, forehand ${seatName(d.forehand)}.` : ".")),
    bidding_ended: (d) => t(`Budgivningen är slut: ${contract(d.contract)}` + (d.declarer !== undefined ? `, spelförare ${seatName(d.declarer)}.` : "."),
      `The bidding is over: ${contract(d.contract)}` + (d.declarer !== undefined ? `, declarer ${seatName(d.declarer)}.` : ".")),
    dog_shown: (d) => t(`Hunden visas: ${cardNames(d.cards)}.`, `The dog is shown: ${cardNames(d.cards)}.`),
    card_discarded: (d) => t(`${seatName(d.seat)} lägger bort ${cardName(d.card)}.`, `${seatName(d.seat)} discards ${cardName(d.card)}.`),
    slam_declined: (d) => t(`${seatName(d.seat)} bjuder inte slam.`, `${seatName(d.seat)} does not announce a slam.`),
    spades_broken: (d) => t(`Spader är brutna: ${seatName(d.seat)} spelar ${cardName(d.card)}.`, `Spades are broken: ${seatName(d.seat)} plays ${cardName(d.card)}.`),
    bottom_card_chosen: (d) => t(`${seatName(d.seat)} väljer sitt bottenkort.`, `${seatName(d.seat)} chooses a bottom card.`),
    bottom_card_shown: (d) => t(`${seatName(d.seat)} visar ${cardName(d.card)}` + (d.wants ? ` (${human(d.wants)}).` : "."),
      `${seatName(d.seat)} shows ${cardName(d.card)}` + (d.wants ? ` (${human(d.wants)}).` : ".")),
    pile_turned_up: (d) => t(`${seatName(d.seat)} vänder upp hög ${d.pile + 1}: ${cardName(d.card)}.`, `${seatName(d.seat)} turns up pile ${d.pile + 1}: ${cardName(d.card)}.`),
    hands_picked_up: () => t("Korten på handen tas upp.", "The hands are picked up."),
    trump_card_turned: (d) => t(`${cardName(d.card)} vänds upp: trumf är ${suitWord(d.trumps)}.`, `${cardName(d.card)} is turned: trumps are ${suitWord(d.trumps)}.`),
    trumps_set: (d) => t(`Trumf är ${suitWord(d.trumps)}.`, `Trumps are ${suitWord(d.trumps)}.`),
    turned_card_taken: (d) => t(`${seatName(d.seat)} tar det vända kortet ${cardName(d.card)}.`, `${seatName(d.seat)} takes the turned card ${cardName(d.card)}.`),
    pack_cut: (d) => t(`${seatName(d.seat)} kuttar leken` + (d.shown_card ? `; ${cardName(d.shown_card)} syns.` : "."),
      `${seatName(d.seat)} cuts the pack` + (d.shown_card ? `; ${cardName(d.shown_card)} is shown.` : ".")),
    card_blanked: (d) => t(`${seatName(d.seat)} lägger ett kort dolt.`, `${seatName(d.seat)} blanks a card, face down.`),
    stake_paid: () => t("Insatsen läggs i potten.", "The stake goes into the pot."),
    stakes_paid: () => t("Insatserna läggs i potten.", "The stakes go into the pot."),
    deal_scored: (d) => {
      if (d.ending) return grisEnding(d);
      const points = d.points || (d.result && d.result.points);
      return t("Given räknas", "The deal is scored") + (Array.isArray(points) ? `: ${points.join(", ")}.` : ".");
    },
    deal_ended: () => t("Given är slut.", "The deal is over."),
    deal_settled: () => t("Given görs upp.", "The deal is settled."),
    deal_cancelled: (d) => t(`Given görs om: ${reason(d.reason)}.`, `The deal is cancelled: ${reason(d.reason)}.`),
    // Each game's own events (a seat's name first when the event has one).
    all_sneaked: () => t("Alla smög.", "Everyone sneaked."),
    answered: (d) => (d.joined === null || d.joined === undefined ? t(`${seatName(d.seat)} svarar.`, `${seatName(d.seat)} answers.`)
      : d.joined ? t(`${seatName(d.seat)} går med.`, `${seatName(d.seat)} goes on.`) : t(`${seatName(d.seat)} lägger sig.`, `${seatName(d.seat)} drops out.`)),
    answers_shown: (d) => t(`Svaren visas: med ${seatNames(d.joined) || "ingen"}; lade sig ${seatNames(d.dropped) || "ingen"}.`,
      `The answers are shown: going on ${seatNames(d.joined) || "nobody"}; dropped ${seatNames(d.dropped) || "nobody"}.`),
    auction_won: (d) => t(`${seatName(d.declarer ?? d.seat)} vinner budgivningen: ${contract(d.contract)}.`, `${seatName(d.declarer ?? d.seat)} wins the auction: ${contract(d.contract)}.`),
    better_cards_offered: (d) => t(`${seatName(d.seat)} bjuder ut bättre kort.`, `${seatName(d.seat)} offers better cards.`),
    bid: (d) => t(`${seatName(d.seat)} bjuder ${contract(d.contract)}.`, `${seatName(d.seat)} bids ${contract(d.contract)}.`),
    bids_revealed: () => t("Buden visas.", "The bids are shown."),
    blind_nil_declared: (d) => t(`${seatName(d.seat)} bjuder blind noll.`, `${seatName(d.seat)} declares blind nil.`),
    bought_in: (d) => t(`${seatName(d.seat)} köper in sig igen.`, `${seatName(d.seat)} buys back in.`),
    card_called: (d) => t(`${seatName(d.seat)} ropar upp ${cardName(d.card)}.`, `${seatName(d.seat)} calls ${cardName(d.card)}.`),
    card_drawn: (d) => t(`${seatName(d.seat)} drar ${cardName(d.card)} ur talongen.`, `${seatName(d.seat)} draws ${cardName(d.card)} from the stock.`),
    card_placed: (d) => t(`${seatName(d.seat)} lägger ${cardName(d.card)} på sin hög.`, `${seatName(d.seat)} puts ${cardName(d.card)} on their pile.`),
    card_turned_up: (d) => t(`${seatName(d.seat)} vänder upp ${cardName(d.card)}.`, `${seatName(d.seat)} turns up ${cardName(d.card)}.`),
    cards_given: (d) => (d.from !== undefined
      ? t(`${seatName(d.from)} ger ${seatName(d.to)} ${Array.isArray(d.cards) ? cardNames(d.cards) : "kort"}.`, `${seatName(d.from)} gives ${seatName(d.to)} ${Array.isArray(d.cards) ? cardNames(d.cards) : "cards"}.`)
      : t(`${seatName(d.seat)} lämnar kort.`, `${seatName(d.seat)} gives cards.`)),
    cards_played: (d) => t(`${seatName(d.seat)} lägger ${cardNames(d.cards)}${d.went_out ? " och är ute" : ""}.`, `${seatName(d.seat)} lays ${cardNames(d.cards)}${d.went_out ? " and is out" : ""}.`),
    table_cleared: (d) => t(`Alla andra passade: bordet rensas, ${seatName(d.leader)} spelar ut.`, `Everyone else passed: the table is cleared, ${seatName(d.leader)} leads.`),
    cards_kept: (d) => t(`${seatName(d.seat)} behåller sina kort.`, `${seatName(d.seat)} keeps their cards.`),
    cards_thrown: (d) => t(`${seatName(d.seat)} kastar sina sista kort dolda.`, `${seatName(d.seat)} throws their last cards face down.`),
    cards_thrown_in: (d) => t(`${seatName(d.seat)} kastar in sina kort.`, `${seatName(d.seat)} throws their cards in.`),
    cards_turned: (d) => t(`Korten vänds: ${cardNames(d.cards)}.`, `The cards are turned: ${cardNames(d.cards)}.`),
    deal_thrown_in: () => t("Given kastas in; potten ligger kvar.", "The deal is thrown in; the pot stays."),
    declarer_named: (d) => t(`${seatName(d.seat)} är spelförare: ${word(d.bid)}.`, `${seatName(d.seat)} is the declarer: ${word(d.bid)}.`),
    dog_set_aside: (d) => t(`Hunden läggs undan (${word(d.contract)}).`, `The dog is set aside (${word(d.contract)}).`),
    drew_from_stock: (d) => t(`${seatName(d.seat)} drar ${cardName(d.card)} ur talongen.`, `${seatName(d.seat)} draws ${cardName(d.card)} from the stock.`),
    exchange_declined: (d) => t(`${seatName(d.seat)} byter inte kort.`, `${seatName(d.seat)} does not exchange cards.`),
    folded: (d) => t(`${seatName(d.seat)} lägger sig.`, `${seatName(d.seat)} folds.`),
    game_won: (d) => t(`Sida ${(d.side ?? 0) + 1} vinner en utgång.`, `Side ${(d.side ?? 0) + 1} wins a game.`),
    going_on_asked: (d) => t(`${seatName(d.declarer)} frågar: går ni med?`, `${seatName(d.declarer)} asks: are you going on?`),
    hand_laid_away: (d) => t(`${seatName(d.seat)} lägger bort sin hand.`, `${seatName(d.seat)} lays the hand away.`),
    hand_looked_at: (d) => t(`${seatName(d.seat)} tittar på sina kort.`, `${seatName(d.seat)} looks at their cards.`),
    hand_opened: (d) => t(`${seatName(d.seat)} lägger upp handen.`, `${seatName(d.seat)} lays the hand open.`),
    hands_shown: () => t("Händerna läggs upp.", "The hands are shown."),
    joined: (d) => t(`${seatName(d.seat)} går med.`, `${seatName(d.seat)} joins.`),
    knocked: (d) => t(`${seatName(d.seat)} knackar.`, `${seatName(d.seat)} knocks.`),
    knocker_alone: (d) => t(`${seatName(d.seat)} knackade och ingen gick med.`, `${seatName(d.seat)} knocked and nobody joined.`),
    la_vola_announced: (d) => t(`${seatName(d.seat)} bjuder la vola.`, `${seatName(d.seat)} announces la vola.`),
    laid: (d) => {
      const calls = Array.isArray(d.calls) && d.calls.length ? `: ”${d.calls.join("”, ”")}”` : "";
      // Jazz's fan tan deal lays one card (`card`), Fan tan a list of them.
      const laid = d.cards || [d.card];
      return t(`${seatName(d.seat)} lägger ${cardNames(laid)}${calls}.`, `${seatName(d.seat)} lays ${cardNames(laid)}${calls.replace(/”/g, '"')}.`);
    },
    sequence_closed: (d) => t(`Följden läggs undan; ${seatName(d.leader)} spelar ut.`, `The sequence is put aside; ${seatName(d.leader)} leads.`),
    // Fusk
    card_laid: (d) => (d.card ? t(`${seatName(d.seat)} lägger ${cardName(d.card)} med baksidan upp.`, `${seatName(d.seat)} lays ${cardName(d.card)} face down.`)
      : t(`${seatName(d.seat)} lägger ett kort med baksidan upp.`, `${seatName(d.seat)} lays a card face down.`)),
    claimed: (d) => t(`${seatName(d.seat)} säger: ${d.count} × ${rankWord(d.rank, 0)}.`, `${seatName(d.seat)} claims: ${d.count} × ${rankWord(d.rank, 1)}.`),
    // Poker's call (chips) and Fusk's call (cheat) share the name.
    called: (d) => (d.amount !== undefined
      ? t(`${seatName(d.seat)} synar med ${d.amount}${d.all_in ? ", allt han har" : ""}.`, `${seatName(d.seat)} calls with ${d.amount}${d.all_in ? ", all in" : ""}.`)
      : d.truthful
      ? t(`${seatName(d.seat)} ropar fusk på ${seatName(d.against)}: ${cardNames(d.cards)} stämde.`, `${seatName(d.seat)} calls cheat on ${seatName(d.against)}: ${cardNames(d.cards)} was true.`)
      : t(`${seatName(d.seat)} ropar fusk på ${seatName(d.against)}: ${cardNames(d.cards)} var bluff.`, `${seatName(d.seat)} calls cheat on ${seatName(d.against)}: ${cardNames(d.cards)} was a lie.`)),
    pile_taken_up: (d) => t(`${seatName(d.seat)} tar upp högen, ${(d.hidden || []).length + (d.turned || []).length} kort; ${seatName(d.leader)} spelar ut.`,
      `${seatName(d.seat)} picks up the pile, ${(d.hidden || []).length + (d.turned || []).length} cards; ${seatName(d.leader)} leads.`),
    // Skitgubbe
    last_card_aside: (d) => t(`Talongens sista kort läggs osett framför ${seatName(d.seat)}.`, `The talon's last card is put unseen in front of ${seatName(d.seat)}.`),
    duel_won: (d) => t(`${seatName(d.seat)} vinner duellen: ${cardNames(d.cards)}.`, `${seatName(d.seat)} wins the duel: ${cardNames(d.cards)}.`),
    duel_returned: () => t("Duellen blev oavgjord: var och en tar tillbaka sina kort.", "The duel is left undecided: each takes his cards back."),
    shedding_started: (d) => t(`${seatName(d.holder)} visar talongens sista kort ${cardName(d.card)}: trumf är ${suitWord(d.trump)}. Alla tar upp sina vunna stick.`,
      `${seatName(d.holder)} shows the talon's last card ${cardName(d.card)}: trumps are ${suitWord(d.trump)}. Everyone takes up the tricks he won.`),
    picked_up: (d) => t(`${seatName(d.seat)} supar: tar upp ${cardNames(d.cards)} från ${seatName(d.from)}.`, `${seatName(d.seat)} picks up ${cardNames(d.cards)} from ${seatName(d.from)}.`),
    trick_turned_away: (d) => t(`Tre drag på bordet: sticket vänds bort, ${seatName(d.leader)} spelar ut.`, `Three plays on the table: the trick is turned away, ${seatName(d.leader)} leads.`),
    lead_passed: (d) => t(`${seatName(d.seat)} lämnar över utspelet.`, `${seatName(d.seat)} passes the lead.`),
    lurat: (d) => t(`${seatName(d.seat)} lurar (passar).`, `${seatName(d.seat)} says lurat (passes).`),
    marriage_declared: (d) => t(`${seatName(d.seat)} visar mariage i ${suitWord(d.suit)}: ${cardNames(d.cards)}.`, `${seatName(d.seat)} declares a marriage in ${suitWord(d.suit)}: ${cardNames(d.cards)}.`),
    played_to_take: (d) => t(`${seatName(d.seat)} tar in med ${cardName(d.card)}, räknat som ${d.worth}.`, `${seatName(d.seat)} takes in with ${cardName(d.card)}, counting ${d.worth}.`),
    group_taken: (d) => t(`${seatName(d.seat)} tar ${cardNames(d.group)}.`, `${seatName(d.seat)} takes ${cardNames(d.group)}.`),
    take_ended: (d) => {
      const charged = d.charged != null ? t(` ${seatName(d.charged)} dukade.`, ` ${seatName(d.charged)} set it up.`) : "";
      if (d.tabbar === 2) return t(`${seatName(d.seat)} tog in kortets dubblett: dubbeltabbe!`, `${seatName(d.seat)} took in the card's twin: a dubbeltabbe (two tabbar)!`) + charged;
      if (d.tabbe || d.tabbar === 1) return t(`${seatName(d.seat)} tog in allt på bordet: tabbe!`, `${seatName(d.seat)} took in everything on the table: a tabbe (sweep)!`) + charged;
      return t(`${seatName(d.seat)} tog in ${cardNames(d.cards)}.`, `${seatName(d.seat)} took in ${cardNames(d.cards)}.`);
    },
    tabbar_turned_down: () => t("Alla har en tabbe: var och en vänder ned en.", "Everyone has a tabbe: each turns one down."),
    round_dealt: (d) => t(`Omgång ${d.round} delas ut, och nya kort läggs på bordet.`, `Round ${d.round} is dealt, and new cards go on the table.`),
    hands_dealt: (d) => (d.last
      ? t("Fyra nya kort var: sista given.", "Four new cards each: the last deal.")
      : t("Fyra nya kort var.", "Four new cards each.")),
    table_swept: (d) => (state.match && state.match.game === "krypkasino"
      ? t(`${seatName(d.seat)} tog in sist och får det som ligger kvar och de undanlagda korten.`, `${seatName(d.seat)} took in last and gets what is left and the cards set aside.`)
      : t(`${seatName(d.seat)} tog in sist och får det som ligger kvar: sistan.`, `${seatName(d.seat)} took in last and gets what is left: sistan.`)),
    match_ended: (d) => t(`Partiet är slut. Vinnare: ${seatNames(d.winners)}.`, `The match is over. Winners: ${seatNames(d.winners)}.`),
    nobody_swung: () => t("Ingen svängde.", "Nobody swung."),
    offer_accepted: (d) => t(`${seatName(d.seat)} tar emot erbjudandet.`, `${seatName(d.seat)} accepts the offer.`),
    offer_declined: (d) => t(`${seatName(d.seat)} tackar nej.`, `${seatName(d.seat)} declines.`),
    out_knocked: (d) => t(`${seatName(d.seat)} knackar för sin utgång.`, `${seatName(d.seat)} knocks for going out.`),
    partner_called: (d) => t(`${seatName(d.declarer)} ropar upp ${cardName(d.card)}.`, `${seatName(d.declarer)} calls ${cardName(d.card)}.`),
    partner_revealed: (d) => t(`${seatName(d.seat ?? d.partner)} är partner.`, `${seatName(d.seat ?? d.partner)} is the partner.`),
    pile_turned: () => t("Högen vänds och blir ny talong.", "The pile is turned over as a new stock."),
    poignee_declared: (d) => t(`${seatName(d.seat)} visar en poignée.`, `${seatName(d.seat)} declares a poignée.`),
    redeal_requested: (d) => t(`${seatName(d.seat)} begär omgiv.`, `${seatName(d.seat)} asks for a redeal.`),
    redealt: () => t("Korten ges om.", "The cards are dealt again."),
    seven_laid: (d) => t(`${seatName(d.seat)} lägger ${cardName(d.card)}.`, `${seatName(d.seat)} lays ${cardName(d.card)}.`),
    sitting_ended: (d) => t(`Sitsen är slut; sida ${(d.side ?? 0) + 1} vann.`, `The sitting is over; side ${(d.side ?? 0) + 1} won.`),
    slam_announced: (d) => t(`${seatName(d.seat)} bjuder slam.`, `${seatName(d.seat)} announces a slam.`),
    sneaked: (d) => t(`${seatName(d.seat)} smyger.`, `${seatName(d.seat)} sneaks.`),
    stayed_out: (d) => t(`${seatName(d.seat)} står över.`, `${seatName(d.seat)} stays out.`),
    stood: (d) => t(`${seatName(d.seat)} står.`, `${seatName(d.seat)} stands.`),
    // BlackJack: the dealer is the house, no seat.
    round_started: (d) => t(`Runda ${d.deal_number ?? dealNo} börjar: alla satsar.`, `Round ${d.deal_number ?? dealNo} starts: everyone bets.`),
    bet_placed: (d) => t(`${seatName(d.seat)} satsar ${d.amount}.`, `${seatName(d.seat)} bets ${d.amount}.`),
    insurance_taken: (d) => t(`${seatName(d.seat)} försäkrar för ${d.amount}.`, `${seatName(d.seat)} insures for ${d.amount}.`),
    even_money_taken: (d) => t(`${seatName(d.seat)} tar even money på sin blackjack.`, `${seatName(d.seat)} takes even money on his blackjack.`),
    insurance_declined: (d) => t(`${seatName(d.seat)} avstår.`, `${seatName(d.seat)} declines.`),
    dealer_peeked: (d) => (d.blackjack
      ? t("Dealern tittar på hålkortet: blackjack.", "The dealer looks at his hole card: a blackjack.")
      : t("Dealern tittar på hålkortet: ingen blackjack.", "The dealer looks at his hole card: no blackjack.")),
    hole_card_turned: (d) => t(`Dealern vänder hålkortet: ${cardName(d.card)}.`, `The dealer turns his hole card: ${cardName(d.card)}.`),
    hit: (d) => t(`${seatName(d.seat)} tar ett kort till hand ${d.hand + 1}: ${cardName(d.card)}.`, `${seatName(d.seat)} hits hand ${d.hand + 1}: ${cardName(d.card)}.`),
    doubled: (d) => t(`${seatName(d.seat)} dubblar hand ${d.hand + 1} med ${d.amount} och får ${cardName(d.card)}.`, `${seatName(d.seat)} doubles hand ${d.hand + 1} with ${d.amount} and gets ${cardName(d.card)}.`),
    split: (d) => t(`${seatName(d.seat)} delar hand ${d.hand + 1} med en ny insats på ${d.amount}.`, `${seatName(d.seat)} splits hand ${d.hand + 1} with a new bet of ${d.amount}.`),
    card_dealt: (d) => t(`${seatName(d.seat)} får ${cardName(d.card)} till hand ${d.hand + 1}.`, `${seatName(d.seat)} gets ${cardName(d.card)} on hand ${d.hand + 1}.`),
    shoe_refilled: () => t("Skon är tom: dealern blandar korten han tagit in till en ny sko.", "The shoe is empty: the dealer shuffles the cards he took in into a new shoe."),
    dealer_drew: (d) => t(`Dealern tar ${cardName(d.card)}.`, `The dealer draws ${cardName(d.card)}.`),
    round_scored: (d) => t(`Rundan görs upp, dealern har ${d.dealer_total}: ${(d.points || []).join(", ")}.`, `The round is settled, the dealer has ${d.dealer_total}: ${(d.points || []).join(", ")}.`),
    stood_over: (d) => t(`${seatName(d.seat)} står över.`, `${seatName(d.seat)} stands over.`),
    // Hej knekt's turn of a ten or higher also opens a reaction window.
    card_turned: (d) => d.closes_at_ms != null
      ? t(`${seatName(d.seat)} vänder upp ${cardName(d.card)}: alla ska reagera inom ${d.closes_at_ms - d.opened_at_ms} ms.`, `${seatName(d.seat)} turns up ${cardName(d.card)}: everyone must react within ${d.closes_at_ms - d.opened_at_ms} ms.`)
      : t(`${seatName(d.seat)} vänder upp ${cardName(d.card)}.`, `${seatName(d.seat)} turns up ${cardName(d.card)}.`),
    reacted: (d) => {
      const g = GESTURES[d.gesture] || [d.gesture, d.gesture];
      return d.right
        ? t(`${seatName(d.seat)} ${g[0]}, ${d.after_ms} ms efter kortet.`, `${seatName(d.seat)} ${g[1]}, ${d.after_ms} ms after the card.`)
        : t(`${seatName(d.seat)} ${g[0]}, ${d.after_ms} ms efter kortet: fel gest, som inte räknas.`, `${seatName(d.seat)} ${g[1]}, ${d.after_ms} ms after the card: the wrong gesture, which does not count.`);
    },
    cards_won: (d) => t(`${seatName(d.seat)} lägger ${cardNames(d.cards)} under sin hög.`, `${seatName(d.seat)} puts ${cardNames(d.cards)} under his pile.`),
    player_out: (d) => t(`${seatName(d.seat)} har inga kort kvar och är ute.`, `${seatName(d.seat)} has no cards left and is out.`),
    placed_on_muggins: (d) => t(`${seatName(d.seat)} lägger ${cardName(d.card)} på muggins-hög ${d.pile + 1}.`, `${seatName(d.seat)} places ${cardName(d.card)} on muggins pile ${d.pile + 1}.`),
    // Rummy's discard goes on the one pile; Muggins names whose discard pile.
    discarded: (d) => d.owner === undefined ? t(`${seatName(d.seat)} kastar ${cardName(d.card)} på högen.`, `${seatName(d.seat)} discards ${cardName(d.card)} on the pile.`) : t(`${seatName(d.seat)} lägger ${cardName(d.card)} i ${d.owner === d.seat ? "sin egen kasthög" : `kasthögen hos ${seatName(d.owner)}`}${d.wrong ? " (fel)" : ""}.`,
      `${seatName(d.seat)} places ${cardName(d.card)} on ${d.owner === d.seat ? "his own discard pile" : `the discard pile of ${seatName(d.owner)}`}${d.wrong ? " (wrongly)" : ""}.`),
    draw_pile_renewed: (d) => t(`${seatName(d.seat)} vänder sin kasthög till en ny draghög (${d.cards} kort).`, `${seatName(d.seat)} turns his discard pile over as a new draw pile (${d.cards} cards).`),
    muggins_called: (d) => t(`${seatName(d.seat)} kallar ${seatName(d.offender)} muggins.`, `${seatName(d.seat)} calls ${seatName(d.offender)} a muggins.`),
    penalty_card: (d) => t(`${seatName(d.from)} ger ${seatName(d.to)} ${cardName(d.card)} osett.`, `${seatName(d.from)} gives ${seatName(d.to)} ${cardName(d.card)} unseen.`),
    stopped: (d) => t(`${seatName(d.seat)} säger ”stopp”.`, `${seatName(d.seat)} says "stopp".`),
    pile_turned_away: (d) => t(`Alla andra sa stopp: ${seatName(d.seat)} vänder bort högen (${(d.cards || []).length} kort) och spelar ut.`,
      `Everyone else said stop: ${seatName(d.seat)} turns the pile away (${(d.cards || []).length} cards) and leads.`),
    swing_passed: (d) => t(`${seatName(d.seat)} svänger inte.`, `${seatName(d.seat)} does not swing.`),
    swung: (d) => t(`${seatName(d.seat)} svänger.`, `${seatName(d.seat)} swings.`),
    talon_ran_out: () => t("Talongen tog slut.", "The talon ran out."),
    target_tied: () => t("Lika vid målet.", "A tie at the target."),
    thirty_one_shown: (d) => t(`${seatName(d.seat)} visar 31.`, `${seatName(d.seat)} shows 31.`),
    played: (d) => t(`${seatName(d.seat)} lägger ${cardNames(d.cards)}` + (d.named ? `; ${suitWord(d.named)} gäller` : "") + (d.one_left ? ` och säger "ett kvar".` : "."),
      `${seatName(d.seat)} lays ${cardNames(d.cards)}` + (d.named ? `; ${suitWord(d.named)} count` : "") + (d.one_left ? ` and says "one left".` : ".")),
    drew: (d) => {
      // Poker's purchase: a count of cards discarded and bought.
      if (d.count !== undefined) {
        return d.count ? t(`${seatName(d.seat)} kastar och köper ${d.count} kort.`, `${seatName(d.seat)} discards and buys ${d.count} cards.`)
          : t(`${seatName(d.seat)} står nöjd.`, `${seatName(d.seat)} stands pat.`);
      }
      const why = { ace: ["för ett ess", "for an ace"], upcard: ["för det uppvända esset", "for the ace turned up"], penalty: ["för ett glömt \"ett kvar\"", "for a forgotten \"one left\""] }[d.reason];
      const card = d.card ? cardName(d.card) : t("ett kort", "a card");
      return t(`${seatName(d.seat)} drar ${card} ur talongen${why ? ` ${why[0]}` : ""}.`, `${seatName(d.seat)} draws ${card} from the talon${why ? ` ${why[1]}` : ""}.`);
    },
    talon_shuffled: (d) => t(`Högen utom det översta kortet blandas till en ny talong (${(d.talon || []).length || d.talon_count} kort).`,
      `The pile less its top card is shuffled into a new talon (${(d.talon || []).length || d.talon_count} cards).`),
    draws_lapsed: () => t("Inget finns att dra: dragningarna förfaller.", "Nothing is left to draw: the draws owed lapse."),
    swapped: (d) => t(`${seatName(d.seat)} byter ${cardName(d.hand)} på handen mot det öppna ${cardName(d.face_up)}.`, `${seatName(d.seat)} swaps ${cardName(d.hand)} from the hand for the face-up ${cardName(d.face_up)}.`),
    laid_on: (d) => t(`${seatName(d.seat)} lägger ${cardName(d.card)} på ${seatName(d.on)}s öppna kort.`, `${seatName(d.seat)} lays ${cardName(d.card)} on ${seatName(d.on)}'s face-up cards.`),
    said_done: (d) => t(`${seatName(d.seat)} är klar.`, `${seatName(d.seat)} is done.`),
    refilled: (d) => t(`${seatName(d.seat)} fyller på handen med ${Array.isArray(d.cards) ? cardNames(d.cards) : `${d.count} kort`} från talongen.`, `${seatName(d.seat)} fills the hand with ${Array.isArray(d.cards) ? cardNames(d.cards) : `${d.count} cards`} from the talon.`),
    opened: (d) => t(`${seatName(d.seat)} har det lägsta kortet och börjar med valören ${d.rank}.`, `${seatName(d.seat)} holds the lowest card and starts with rank ${d.rank}.`),
    // Vändtia lays cards from one of its places; Kasino and Krypkasino lay out one card.
    laid_out: (d) => {
      if (!Array.isArray(d.cards)) {
        const on = Array.isArray(d.tabbe_on) && d.tabbe_on.length ? d.tabbe_on.join(", ") : "";
        return t(`${seatName(d.seat)} lägger ut ${cardName(d.card)}${on ? `: tabbe på ${on}` : ""}.`, `${seatName(d.seat)} lays out ${cardName(d.card)}${on ? `: a tabbe on ${on}` : ""}.`);
      }
      const from = { hand: ["från handen", "from the hand"], "face-up": ["från de öppna korten", "from the face-up cards"], "face-down": ["nedvänt, på chans", "face down, blind"], talon: ["från talongen, på chans", "from the talon, on a chance"] }[d.from] || ["", ""];
      return t(`${seatName(d.seat)} lägger ${cardNames(d.cards)} ${from[0]}.`, `${seatName(d.seat)} lays ${cardNames(d.cards)} ${from[1]}.`);
    },
    pile_burnt: (d) => t(`${seatName(d.seat)} vänder bort högen (${(d.cards || []).length} kort).`, `${seatName(d.seat)} burns the pile (${(d.cards || []).length} cards).`),
    trick_picked_up: (d) => t(`${seatName(d.seat)} kan inte lägga och tar upp sticket: ${cardNames(d.cards)}.`, `${seatName(d.seat)} cannot play and picks up the trick: ${cardNames(d.cards)}.`),
    // Hej knekt says why: the last to react, or the late seat nearest the turner at the timeout.
    pile_taken: (d) => d.why === "last"
      ? t(`${seatName(d.seat)} reagerade sist och tar högen under sin egen: ${cardNames(d.cards)}.`, `${seatName(d.seat)} reacted last and takes the pile under his own: ${cardNames(d.cards)}.`)
      : d.why === "late"
        ? t(`Tiden är ute; sena: ${seatNames(d.late)}. ${seatName(d.seat)} tar högen under sin egen: ${cardNames(d.cards)}.`, `Time is up; late: ${seatNames(d.late)}. ${seatName(d.seat)} takes the pile under his own: ${cardNames(d.cards)}.`)
        : t(`${seatName(d.seat)} tar upp högen: ${cardNames(d.cards)}.`, `${seatName(d.seat)} picks up the pile: ${cardNames(d.cards)}.`),
    went_out: (d) => d.place == null
      ? t(`${seatName(d.seat)} är av med sista kortet och går ut.`, `${seatName(d.seat)} is rid of the last card and goes out.`)
      : t(`${seatName(d.seat)} är av med alla kort (plats ${d.place}).`, `${seatName(d.seat)} is rid of every card (place ${d.place}).`),
    took_discard: (d) => t(`${seatName(d.seat)} tar ${cardName(d.card)} från högen.`, `${seatName(d.seat)} takes ${cardName(d.card)} from the pile.`),
    melded: (d) => {
      const run = d.meld && d.meld.kind === "run";
      const cards = cardNames((d.meld && d.meld.cards) || []);
      return t(`${seatName(d.seat)} lägger ned ${run ? "sekvensen" : "gruppen"} ${cards} (kombination ${d.index}).`, `${seatName(d.seat)} lays down the ${run ? "run" : "group"} ${cards} (meld ${d.index}).`);
    },
    laid_off: (d) => t(`${seatName(d.seat)} bygger på kombination ${d.index} med ${cardName(d.card)}.`, `${seatName(d.seat)} lays ${cardName(d.card)} off on meld ${d.index}.`),
    joker_taken: (d) => t(`${seatName(d.seat)} lägger ${cardName(d.card)} i kombination ${d.index} och tar jokern ${cardName(d.joker)}.`, `${seatName(d.seat)} puts ${cardName(d.card)} in meld ${d.index} and takes the joker ${cardName(d.joker)}.`),
    stock_rebuilt: (d) => t(`Talongen är slut: högen utom det översta kortet blandas till en ny talong (${(d.order || []).length} kort).`, `The stock is out: the pile but its top card is shuffled into a new stock (${(d.order || []).length} cards).`),
    deal_stopped: (d) => t(`Given stoppas efter ${d.turns} turer utan att någon gått ut.`, `The deal is stopped after ${d.turns} turns without anyone going out.`),
    took_from_pile: (d) => t(`${seatName(d.seat)} tar ${cardName(d.card)} från högen.`, `${seatName(d.seat)} takes ${cardName(d.card)} from the pile.`),
    trick_set_aside: () => t("Sticket läggs undan.", "The trick is set aside."),
    trick_put_aside: (d) => t(`Sticket läggs undan: ${cardNames(d.cards)}. ${seatName(d.leader)} spelar ut.`, `The trick is put aside: ${cardNames(d.cards)}. ${seatName(d.leader)} leads.`),
    // Löjliga familjerna, Finns i sjön
    asked: (d) => t(`${seatName(d.seat)} frågar ${seatName(d.target)} efter ${rankWord(d.rank, 0)}.`, `${seatName(d.seat)} asks ${seatName(d.target)} for ${rankWord(d.rank, 1)}.`),
    handed_over: (d) => t(`${seatName(d.from)} lämnar över ${cardNames(d.cards)} till ${seatName(d.to)}.`, `${seatName(d.from)} hands ${cardNames(d.cards)} to ${seatName(d.to)}.`),
    lacked: (d) => t(`${seatName(d.seat)} har inga ${rankWord(d.rank, 0)} och får frågan.`, `${seatName(d.seat)} has no ${rankWord(d.rank, 1)} and takes the turn.`),
    quartet_laid: (d) => t(`${seatName(d.seat)} lägger ut en kvartett: ${cardNames(d.cards)}.`, `${seatName(d.seat)} lays down a quartet: ${cardNames(d.cards)}.`),
    turn_passed: (d) => t(`${seatName(d.from)} har inga kort: ${seatName(d.to)} frågar.`, `${seatName(d.from)} has no cards: ${seatName(d.to)} asks.`),
    said_finns_i_sjon: (d) => t(`${seatName(d.seat)} har inga ${rankWord(d.rank, 0)}: ”Finns i sjön!”`, `${seatName(d.seat)} has no ${rankWord(d.rank, 1)}: "Go fish!"`),
    drew_from_sea: (d) => t(`${seatName(d.seat)} tar ${d.card ? cardName(d.card) : "ett kort"} från plats ${d.position} i sjön.`, `${seatName(d.seat)} takes ${d.card ? cardName(d.card) : "a card"} from place ${d.position} of the sea.`),
    refill_started: (d) => t(`${seatName(d.seat)} har inga kort kvar och tar ${d.cards} ur sjön.`, `${seatName(d.seat)} has no cards left and takes ${d.cards} from the sea.`),
    out_of_play: (d) => t(`${seatName(d.seat)} har inga kort och sjön är tom: ute.`, `${seatName(d.seat)} has no cards and the sea is empty: out.`),
    asking_stopped: (d) => t(`${d.asks} frågor i rad fick nej: given avbryts.`, `${d.asks} asks in a row were answered no: the deal is stopped.`),
    stalled: (d) => t(`Given står still och avbryts: flest kort förlorar (${seatNames(d.losers)}).`, `The deal is stalled and stopped: the most cards lose (${seatNames(d.losers)}).`),
    antes_paid: (d) => t(`Alla lägger ante i potten (${(d.payments || []).reduce((a, p) => a + p.amount, 0)}).`, `Everyone antes into the pot (${(d.payments || []).reduce((a, p) => a + p.amount, 0)}).`),
    // Poker has two rounds, Stötpoker four (the later ones opened by the best hand showing).
    round_opened: (d) => {
      const nth = [["Första", "first"], ["Andra", "second"], ["Tredje", "third"], ["Fjärde", "fourth"]][d.round - 1] || [`${d.round}:e`, `#${d.round}`];
      return t(`${nth[0]} satsningsrundan börjar hos ${seatName(d.first)}.`, `The ${nth[1]} betting round starts with ${seatName(d.first)}.`);
    },
    forced_bet: (d) => t(`${seatName(d.seat)} har det tvingande uppkortet och satsar ${d.amount}${d.all_in ? ", allt han har" : ""}.`,
      `${seatName(d.seat)} has the forcing up card and bets ${d.amount}${d.all_in ? ", all in" : ""}.`),
    up_cards_dealt: (d) => {
      const dealt = (d.cards || []).map((c, s) => [c, s]).filter(([c]) => c);
      const list = dealt.map(([c, s]) => `${seatName(s)} ${cardName(c)}`).join(", ");
      return t(`Nästa öppna kort delas ut: ${list}.`, `The next up card is dealt: ${list}.`);
    },
    checked: (d) => t(`${seatName(d.seat)} checkar.`, `${seatName(d.seat)} checks.`),
    bet: (d) => t(`${seatName(d.seat)} öppnar med ${d.amount}${d.all_in ? ", allt han har" : ""}.`, `${seatName(d.seat)} bets ${d.amount}${d.all_in ? ", all in" : ""}.`),
    raised: (d) => t(`${seatName(d.seat)} höjer med ${d.by} (lägger ${d.amount})${d.all_in ? ", allt han har" : ""}.`, `${seatName(d.seat)} raises by ${d.by} (puts in ${d.amount})${d.all_in ? ", all in" : ""}.`),
    round_closed: (d) => t(`Satsningsrundan är slut; potten är ${d.pot}.`, `The betting round is over; the pot is ${d.pot}.`),
    stock_shuffled: (d) => t(`De kastade korten blandas till en ny talong (${(d.order || []).length} kort).`, `The discards are shuffled into a new stock (${(d.order || []).length} cards).`),
    draw_completed: (d) => t(`${seatName(d.seat)} får resten av köpet ur den nya talongen.`, `${seatName(d.seat)} gets the rest of the purchase from the new stock.`),
    showdown: (d) => t(`Visning: ${(d.hands || []).map((h) => `${seatName(h.seat)} ${word(h.category)}`).join(", ")}.`, `Showdown: ${(d.hands || []).map((h) => `${seatName(h.seat)} ${word(h.category)}`).join(", ")}.`),
    // Chicago: three buys, the hands called by the engine (kinds only, no card), five tricks.
    // Chicago's buy names its number; Svängknack's and Norrlandsknack's purchases do not (one
    // key for both: a second `bought` in this object would replace the first).
    bought: (d) => (d.buy === undefined
      ? t(`${seatName(d.seat)} köper ${d.drawn_count ?? (d.drawn || []).length} kort.`, `${seatName(d.seat)} buys ${d.drawn_count ?? (d.drawn || []).length} cards.`)
      : d.count ? t(`${seatName(d.seat)} kastar och köper ${d.count} kort (köp ${d.buy}).`, `${seatName(d.seat)} discards and buys ${d.count} cards (buy ${d.buy}).`)
      : t(`${seatName(d.seat)} behåller handen (köp ${d.buy}).`, `${seatName(d.seat)} keeps the hand (buy ${d.buy}).`)),
    buy_completed: (d) => t(`${seatName(d.seat)} får resten av köpet ur den nya talongen.`, `${seatName(d.seat)} gets the rest of the purchase from the new stock.`),
    hand_shown: (d) => t(`${seatName(d.seat)} bryter upp sin ${word(d.category)} och visar handen: ${cardNames(d.cards)}.`,
      `${seatName(d.seat)} breaks up the ${word(d.category)} and shows the hand: ${cardNames(d.cards)}.`),
    hands_called: (d) => {
      const calls = (d.calls || []).map((c) => `${seatName(c.seat)} ${c.royal ? t("royal färgstege", "royal straight flush") : c.hand ? word(c.hand) : word("pass")}`).join(", ");
      return d.best === null || d.best === undefined
        ? t(`Efter köp ${d.buy}: ${calls}. Ingen har ett par: inga poäng.`, `After buy ${d.buy}: ${calls}. Nobody has a pair: no points.`)
        : t(`Efter köp ${d.buy}: ${calls}. ${seatName(d.best)} har bästa handen: ${d.points} poäng.`, `After buy ${d.buy}: ${calls}. ${seatName(d.best)} has the best hand: ${d.points} points.`);
    },
    chicago_declared: (d) => t(`${seatName(d.seat)} säger Chicago.`, `${seatName(d.seat)} declares Chicago.`),
    chicago_declined: (d) => t(`${seatName(d.seat)} säger inte Chicago.`, `${seatName(d.seat)} does not declare Chicago.`),
    chicago_lost: (d) => t(`${seatName(d.by)} tog ett stick: ${seatName(d.declarer)}s Chicago går förlorad, ${d.points} poäng.`, `${seatName(d.by)} took a trick: ${seatName(d.declarer)}'s Chicago is lost, ${d.points} points.`),
    last_trick_scored: (d) => (d.chicago ? t(`${seatName(d.seat)} tog alla fem sticken: Chicago, ${d.points} poäng.`, `${seatName(d.seat)} took all five tricks: Chicago, ${d.points} points.`)
      : t(`${seatName(d.seat)} tog sista sticket: ${d.points} poäng.`, `${seatName(d.seat)} took the last trick: ${d.points} points.`)),
    piles_shown: (d) => {
      const shown = (d.hands || []).map((h) => `${seatName(h.seat)} ${word(h.category)}`).join(", ");
      return d.best === null || d.best === undefined
        ? t(`Högarna visas: ${shown}. Ingen har ett par.`, `The piles are shown: ${shown}. Nobody has a pair.`)
        : t(`Högarna visas: ${shown}. ${seatName(d.best)} får ${d.points} poäng.`, `The piles are shown: ${shown}. ${seatName(d.best)} gets ${d.points} points.`);
    },
    // Gris: the pig passed openly, a card given back face down, the thumbs with their times.
    pig_passed: (d) => t(`${seatName(d.seat)} skickar grisen till ${seatName(d.to)} (skickning ${d.passes}).`, `${seatName(d.seat)} passes the pig to ${seatName(d.to)} (pass ${d.passes}).`),
    card_returned: (d) => {
      const card = d.card ? cardName(d.card) : t("ett dolt kort", "a card face down");
      return t(`${seatName(d.seat)} ger ${seatName(d.to)} ${card} tillbaka.`, `${seatName(d.seat)} gives ${seatName(d.to)} ${card} back.`);
    },
    thumb_up: (d) => t(`${seatName(d.seat)} sätter upp tummen! Alla andra ska följa före ${d.closes_at_ms}.`, `${seatName(d.seat)} puts a thumb up! Everyone else must follow before ${d.closes_at_ms}.`),
    followed: (d) => t(`${seatName(d.seat)} följer med tummen, ${d.after_ms} ms efter den första.`, `${seatName(d.seat)} follows with a thumb, ${d.after_ms} ms after the first.`),
    pair_laid: (d) => t(`${seatName(d.seat)} lägger upp paret ${cardNames(d.cards)}.`, `${seatName(d.seat)} lays the pair ${cardNames(d.cards)}.`),
    hand_shuffled: (d) => t(`Handen hos ${seatName(d.seat)} blandas (${(d.order || []).length} kort).`, `The hand of ${seatName(d.seat)} is shuffled (${(d.order || []).length} cards).`),
    drew_from_hand: (d) => {
      const card = d.card ? cardName(d.card) : t("ett kort", "a card");
      return t(`${seatName(d.seat)} drar ${card} från ${seatName(d.from)} (plats ${d.position}).`, `${seatName(d.seat)} draws ${card} from ${seatName(d.from)} (position ${d.position}).`);
    },
    trost_declared: (d) => t(`${seatName(d.seat)} säger tröst.`, `${seatName(d.seat)} declares trost.`),
    trumps_chosen: (d) => t(`${seatName(d.seat)} väljer trumf: ${suitWord(d.suit)}.`, `${seatName(d.seat)} chooses trumps: ${suitWord(d.suit)}.`),
    turned_card_left: (d) => t(`${cardName(d.card)} blir kvar på bordet.`, `${cardName(d.card)} stays on the table.`),
    widow_set_aside: () => t("Änkan läggs undan.", "The widow is set aside."),
    widow_taken: (d) => t(`${seatName(d.seat)} tar änkan.`, `${seatName(d.seat)} takes the widow.`),
    "match.bot_moved": (d) => t(`${seatName(d.seat)}s bot (${word(d.level)}) väljer ett drag.`, `${seatName(d.seat)}'s bot (${word(d.level)}) chooses a move.`),
    "match.turn_timed_out": (d) => t(`${seatName(d.seat)}s tid tog slut; boten spelade.`, `${seatName(d.seat)}'s time ran out; the bot played.`),
  };

  // Gris's deal result: who lost and why, with the times.
  function grisEnding(d) {
    const times = (d.reactions || []).map((r) => `${seatName(r.seat)} ${r.after_ms} ms`).join(", ");
    const after = times ? t(` Följde: ${times}.`, ` Followed: ${times}.`) : "";
    if (d.ending === "stalled") return t("Grisen har skickats så många gånger som huset tillåter utan tumme: ingen förlorar.", "The pig has been passed as often as the house allows without a thumb: nobody loses.");
    if (d.ending === "late") return t(`Tiden är ute: ${seatNames(d.losers)} hann inte och förlorar.${after}`, `Time is up: ${seatNames(d.losers)} did not make it and lose.${after}`);
    return t(`${seatNames(d.losers)} var sist med tummen och förlorar.${after}`, `${seatNames(d.losers)} was last with a thumb and loses.${after}`);
  }

  function genericWords(type, d) {
    const who = seatOf(d) !== undefined ? `${seatName(seatOf(d))}: ` : "";
    const bits = Object.entries(d || {})
      .filter(([k, v]) => k !== "type" && k !== "seat" && (v === null || typeof v !== "object" || (Array.isArray(v) && v.every((x) => typeof x !== "object"))))
      .slice(0, 6)
      .map(([k, v]) => `${human(k)} ${Array.isArray(v) ? v.join(" ") : v}`);
    return `${who}${t("händelse", "event")} ${human(type)}${bits.length ? ` (${bits.join(", ")})` : ""}.`;
  }

  function eventWords(e) {
    if (!e) return t("Före givens första händelse.", "Before the deal's first event.");
    const d = e.data || {};
    const f = EVENTS[e.type] || EVENTS[d.type];
    try {
      return f ? f(d) : genericWords(e.type, d);
    } catch (_) {
      return genericWords(e.type, d);
    }
  }

  // Rule texts and explanations an event carries anywhere in its data (a refusal's rule id,
  // payments and score terms with their explanations), and a won trick's rule.
  function explanations(e) {
    const out = [];
    const seen = new Set();
    const add = (text, ruleId) => {
      const key = `${ruleId || ""}|${text}`;
      if (text && !seen.has(key)) { seen.add(key); out.push({ text, ruleId }); }
    };
    const walk = (v, depth) => {
      if (!v || typeof v !== "object" || depth > 4) return;
      if (Array.isArray(v)) { v.forEach((x) => walk(x, depth + 1)); return; }
      if (v.explanation && typeof v.explanation === "object" && (v.explanation.sv || v.explanation.en)) {
        add(v.explanation[state.lang] || v.explanation.en || v.explanation.sv, typeof v.rule === "string" ? v.rule : undefined);
      } else if (typeof v.rule === "string" && state.rules[v.rule]) {
        add(state.rules[v.rule][state.lang], v.rule);
      }
      for (const [k, x] of Object.entries(v)) if (k !== "explanation") walk(x, depth + 1);
    };
    if (!e) return out;
    walk(e.data, 0);
    const d = e.data || {};
    if (e.type === "trick_won" && d.reason && d.reason !== "highest-of-suit-led") {
      const id = `${state.match.game}.play.trick-winner`;
      if (state.rules[id]) add(state.rules[id][state.lang], id);
    }
    return out;
  }

  // --- drawing -----------------------------------------------------------------------------
  const norm = (p) => (Array.isArray(p) ? { seat: p[0], card: p[1] } : p || {});

  function playerCount(table) {
    if (Array.isArray(table.hands)) return table.hands.length;
    if (typeof table.players === "number") return table.players;
    return (state.match && state.match.seats || []).length;
  }

  // Whether the game plays tricks: its table has a trick, or its record wins one.
  const hasTricks = () => !!(state.step && state.step.table && state.step.table.trick !== undefined) ||
    (state.record ? state.record.events : []).some((e) => e.type === "trick_won");

  // Step 0 of a deal after the first is the table as the deal before it ended: its cards are
  // not this deal's, so the page draws the seats and the scores only.
  const beforeDeal = (table) => typeof table.deal_number === "number" && table.deal_number !== dealNo;

  // The trick on the table: the one being played, or the one just won at a trick_won step,
  // with where it is in the step (`from`, for the browser test).
  function trickOnTable(table, event) {
    const current = ((table.trick || {}).plays || []).map(norm);
    if (current.length) {
      const done = table.tricks_played ?? (Array.isArray(table.tricks) ? table.tricks.length : null);
      return { plays: current, winner: null, number: table.trick_number ?? (done === null ? null : done + 1), from: "table.trick.plays" };
    }
    if (event && event.type === "trick_won" && Array.isArray(event.data.plays)) {
      const last = table.last_trick;
      const from = last && last.number === event.data.trick_number ? "table.last_trick" : "event.data.plays";
      return { plays: event.data.plays.map(norm), winner: event.data.winner, number: event.data.trick_number, from };
    }
    return { plays: [], winner: null, number: null, from: "table.trick.plays" };
  }

  function trickRow(plays, winner, attrs) {
    const row = el("div", Object.assign({ class: "trick" }, attrs));
    plays.forEach((p) => {
      row.append(el("div", { class: "play" + (winner === p.seat ? " won" : ""), "data-seat": p.seat },
        card(p.card), el("span", {}, `${t("Plats", "Seat")} ${p.seat}`)));
    });
    return row;
  }

  function drawTable(step) {
    const table = step.table || {};
    const game = state.match.game;
    const hook = hookOf(game);
    const n = playerCount(table);
    const root = $("table");
    root.replaceChildren();
    const before = beforeDeal(table);
    root.dataset.before = before ? "1" : "0";
    const toAct = table.to_act || [];
    const tricks = hasTricks();
    const trick = tricks && !before ? trickOnTable(table, step.event) : { plays: [], winner: null, number: null };
    const omit = KortbordTables.omitted(game);
    const common = before ? { centre: [], seats: [] } : KortbordTables.common(table, n, ui, omit);
    // Seat 0 at the bottom, the others clockwise (to its left, then across).
    for (let s = 0; s < n; s++) {
      const angle = (Math.PI / 2) + (2 * Math.PI * s) / n;
      const box = el("div", { class: "seat" + (toAct.includes(s) ? " to-act" : "") + (trick.winner === s ? " winner" : ""), "data-seat": s });
      box.style.left = `${50 + 36 * Math.cos(angle)}%`;
      box.style.top = `${50 + 35 * Math.sin(angle)}%`;
      const tags = [];
      if (table.dealer === s) tags.push(t("giver", "dealer"));
      if (table.forehand === s) tags.push(t("förhand", "forehand"));
      if (table.declarer === s || table.taker === s) tags.push(t("spelförare", "declarer"));
      if (toAct.includes(s)) tags.push(t("i tur", "to act"));
      box.append(el("h2", {}, seatName(s), tags.length ? el("span", { class: "tags" }, tags.join(" · ")) : null));
      if (!before) {
        const own = hook.hand ? hook.hand(table, s, ui) : undefined;
        const hand = (table.hands || [])[s];
        const size = (table.hand_sizes || [])[s];
        if (Array.isArray(own)) box.append(...own);
        else if (Array.isArray(hand)) box.append(cards(hand, { id: `hand-${s}`, from: `table.hands.${s}` }));
        else if (typeof size === "number" && size > 0) box.append(backs(size, { id: `hand-${s}`, small: false, zone: "hand" }));
        box.append(...(common.seats[s] || []));
      }
      const extras = seatExtras(table, s, n);
      if (extras.length) box.append(el("div", { class: "extra" }, extras.join(" · ")));
      if (!before && hook.seat) box.append(...hook.seat(table, s, ui));
      root.append(box);
    }
    const centre = el("div", { class: "centre" });
    if (before) {
      centre.append(el("div", { class: "label" }, t("Före given", "Before the deal")));
    } else {
      if (tricks) {
        const label = trick.number ? t(`Stick ${trick.number}`, `Trick ${trick.number}`) : t("Stick", "Trick");
        centre.append(el("div", { class: "label" }, label));
        centre.append(trickRow(trick.plays, trick.winner, { id: "trick", "data-trick": trick.number || "", "data-from": trick.from }));
        const last = table.last_trick;
        if (last && Array.isArray(last.plays) && trick.from !== "table.last_trick") {
          centre.append(el("div", { class: "extra zone" }, el("div", { class: "zone-label" }, t(`Förra sticket (${last.number})`, `Last trick (${last.number})`)),
            trickRow(last.plays.map(norm), last.winner, { class: "trick small-trick", "data-from": "table.last_trick" })));
        }
      }
      centre.append(...common.centre);
    }
    if (typeof table.pot === "number") centre.append(el("div", { class: "label", id: "pot" }, `${t("Pott", "Pot")}: ${table.pot}`));
    if (!before && hook.centre) centre.append(...hook.centre(table, ui));
    root.append(centre);
  }

  // Per-seat figures the tables share: bids, tricks taken, marks, loaves.
  function seatExtras(table, s, n) {
    const out = [];
    const perSeat = (k) => Array.isArray(table[k]) && table[k].length === n ? table[k][s] : undefined;
    const bid = perSeat("bids");
    if (bid !== undefined && bid !== null && typeof bid !== "object") out.push(`${t("bud", "bid")} ${contract(bid)}`);
    const taken = perSeat("tricks_taken") ?? perSeat("tricks_won");
    if (taken !== undefined) out.push(`${t("stick", "tricks")} ${taken}`);
    for (const [k, sv, en] of KortbordTables.SEAT_FIGURES) {
      const v = perSeat(k);
      if (v !== undefined && v !== null) out.push(`${t(sv, en)} ${v}`);
    }
    return out;
  }

  function drawFacts(step) {
    const table = step.table || {};
    const hook = hookOf(state.match.game);
    const rows = [];
    if (table.phase) rows.push([t("Läge", "Phase"), word(table.phase)]);
    if (table.dealer !== undefined) rows.push([t("Giver", "Dealer"), seatName(table.dealer)]);
    const trumps = table.trumps ?? table.trump;
    // A list of trumps by seat (Långe Laban's) is the game's hook's to draw.
    if (trumps && !Array.isArray(trumps)) rows.push([t("Trumf", "Trumps"), suitWord(trumps)]);
    if (table.contract) rows.push([t("Kontrakt", "Contract"), contract(table.contract)]);
    if (table.declarer !== undefined && table.declarer !== null) rows.push([t("Spelförare", "Declarer"), seatName(table.declarer)]);
    if (!beforeDeal(table) && hook.facts) rows.push(...hook.facts(table, ui));
    // The match's end: who won and why, as the engine words it.
    const outcome = table.outcome;
    if (outcome && typeof outcome === "object") {
      const why = outcome.explanation && (outcome.explanation[state.lang] || outcome.explanation.en);
      const who = Array.isArray(outcome.winners) ? seatNames(outcome.winners) : "";
      rows.push([t("Partiet är slut", "The match is over"), [who, why].filter(Boolean).join(": ") || "—"]);
    }
    const dl = el("dl");
    rows.forEach(([k, v]) => dl.append(el("dt", {}, k), el("dd", {}, v)));
    $("facts").replaceChildren(el("h3", {}, t("Bordet", "The table")), dl);
  }

  // Scores per seat or per side, balances and the pot.
  function drawScores(step) {
    const table = step.table || {};
    const n = playerCount(table);
    const box = $("scores");
    box.replaceChildren(el("h3", {}, t("Poäng", "Scores")));
    const scores = Array.isArray(table.scores) ? table.scores : null;
    const balances = Array.isArray(table.balances) ? table.balances : null;
    if (scores && scores.length !== n) {
      // Scores by side: the sides the table names, else seats taking turns.
      const sides = Array.isArray(table.sides) ? table.sides
        : scores.map((_, i) => Array.from({ length: n }, (_, s) => s).filter((s) => s % scores.length === i));
      const tb = el("table", { id: "score-table", "data-by": "side" });
      scores.forEach((v, i) => {
        const tricks = Array.isArray(table.side_tricks) ? ` · ${t("stick", "tricks")} ${table.side_tricks[i]}` : "";
        tb.append(el("tr", { "data-side": i },
          el("th", {}, `${t("Sida", "Side")} ${i + 1} (${(sides[i] || []).map((s) => seatName(s)).join(", ")})`),
          el("td", { class: "score", "data-score": v }, String(v)), el("td", {}, tricks)));
      });
      box.append(tb);
    } else if (scores || balances) {
      const tb = el("table", { id: "score-table", "data-by": "seat" });
      const head = el("tr", {}, el("th", {}, ""));
      if (scores) head.append(el("th", {}, t("Poäng", "Score")));
      if (balances) head.append(el("th", {}, t("Saldo", "Balance")));
      tb.append(head);
      for (let s = 0; s < n; s++) {
        const tr = el("tr", { "data-seat": s }, el("th", {}, seatName(s)));
        if (scores) tr.append(el("td", { class: "score", "data-score": scores[s] }, String(scores[s])));
        if (balances) tr.append(el("td", { class: "balance", "data-balance": balances[s] }, String(balances[s])));
        tb.append(tr);
      }
      box.append(tb);
    }
    if (typeof table.pot === "number") box.append(el("p", { "data-pot": table.pot }, `${t("Pott", "Pot")}: ${table.pot}`));
  }

  function drawEvent(step) {
    $("event-text").textContent = eventWords(step.event);
    const ex = $("explanation");
    ex.replaceChildren();
    explanations(step.event).forEach(({ text, ruleId }) => {
      ex.append(el("p", {}, text, ruleId ? el("span", { class: "rule-id" }, ` ${ruleId}`) : null));
    });
  }

  function drawControls() {
    $("counter").textContent = `${state.at} / ${state.steps}`;
    $("first").disabled = $("prev").disabled = state.at <= 0;
    $("next").disabled = $("last").disabled = state.at >= state.steps;
    const jump = $("jump");
    const options = Array.from(jump.options);
    let chosen = "";
    options.forEach((o) => { if (o.value !== "" && Number(o.value) <= state.at) chosen = o.value; });
    jump.value = chosen;
  }

  function drawTexts() {
    document.documentElement.lang = state.lang;
    $("lang").value = state.lang;
    $("lang-label").textContent = t("Språk", "Language");
    $("jump-label").textContent = t("Hoppa till stick", "Jump to trick");
    // A game without tricks has nothing to jump to.
    $("jump").closest("label").hidden = !hasTricks();
    $("raw").textContent = t("Rådata (JSON)", "Raw record (JSON)");
    $("first").title = t("Början", "Start");
    $("prev").title = t("Bakåt (←)", "Back (←)");
    $("next").title = t("Framåt (→)", "Forward (→)");
    $("last").title = t("Slutet", "End");
    if (state.match) {
      const name = state.game ? state.game[`name_${state.lang}`] || state.game.name_en : state.match.game;
      $("title").textContent = `${name} · ${t("giv", "deal")} ${dealNo}`;
      document.title = `${name} · ${t("giv", "deal")} ${dealNo} · Kortbord`;
    }
    fillJump();
  }

  function fillJump() {
    const jump = $("jump");
    jump.replaceChildren(el("option", { value: "" }, "—"));
    (state.record ? state.record.events : []).forEach((e, i) => {
      if (e.type !== "trick_won") return;
      const d = e.data || {};
      // The step before the trick is won: all its cards are on the table.
      jump.append(el("option", { value: i, "data-trick": d.trick_number ?? "" },
        `${t("Stick", "Trick")} ${d.trick_number ?? ""}: ${seatName(d.winner)}`));
    });
    drawControls();
  }

  async function show(at) {
    at = Math.max(0, Math.min(state.steps, at));
    state.at = at;
    document.body.dataset.ready = "0";
    drawControls();
    try {
      const step = await fetchStep(at);
      if (state.at !== at) return; // a later request won
      state.step = step;
      drawTable(step);
      drawFacts(step);
      drawScores(step);
      drawEvent(step);
      setStatus("");
      history.replaceState(null, "", `#at=${at}`);
      document.body.dataset.at = String(at);
      document.body.dataset.ready = "1";
      // Fetch the neighbours ahead of time.
      if (at + 1 <= state.steps) fetchStep(at + 1);
      if (at - 1 >= 0) fetchStep(at - 1);
    } catch (err) {
      setStatus(`${t("Kunde inte läsa steget", "Could not read the step")}: ${err.message}`, true);
    }
  }

  function setStatus(text, error) {
    const s = $("status");
    s.textContent = text;
    s.className = error ? "error" : "";
  }

  function redraw() {
    drawTexts();
    if (state.step) {
      drawTable(state.step);
      drawFacts(state.step);
      drawScores(state.step);
      drawEvent(state.step);
    }
  }

  function wire() {
    $("first").addEventListener("click", () => show(0));
    $("prev").addEventListener("click", () => show(state.at - 1));
    $("next").addEventListener("click", () => show(state.at + 1));
    $("last").addEventListener("click", () => show(state.steps));
    $("jump").addEventListener("change", (e) => { if (e.target.value !== "") show(Number(e.target.value)); });
    $("lang").addEventListener("change", (e) => {
      state.lang = e.target.value === "sv" ? "sv" : "en";
      try { localStorage.setItem("kortbord.lang", state.lang); } catch (_) { /* private mode */ }
      redraw();
    });
    // A link to a step (`#at=12`) moves the page there, as the back and forward buttons do.
    window.addEventListener("hashchange", () => {
      const m = /^#at=(\d+)$/.exec(location.hash);
      if (m && state.record && Number(m[1]) !== state.at) show(Number(m[1]));
    });
    document.addEventListener("keydown", (e) => {
      if (e.target && e.target.tagName === "SELECT") return;
      if (e.key === "ArrowRight") show(state.at + 1);
      else if (e.key === "ArrowLeft") show(state.at - 1);
      else if (e.key === "Home") show(0);
      else if (e.key === "End") show(state.steps);
      else return;
      e.preventDefault();
    });
  }

  async function start() {
    wire();
    drawTexts();
    setStatus(t("Läser in…", "Loading…"));
    $("raw").href = `${api}/deals/${dealNo}`;
    try {
      if (!matchId || !Number.isInteger(dealNo)) throw new Error(t("Ogiltig adress", "Invalid address"));
      state.match = await getJson(api);
      const [record, game, rules] = await Promise.all([
        getJson(`${api}/deals/${dealNo}`),
        getJson(`/v1/games/${encodeURIComponent(state.match.game)}`).catch(() => null),
        getJson(`/v1/games/${encodeURIComponent(state.match.game)}/rules`).catch(() => null),
      ]);
      state.record = record;
      state.game = game;
      (rules ? rules.sections || [] : []).forEach((s) => (s.rules || []).forEach((r) => { state.rules[r.id] = r; }));
      state.steps = record.events.length;
      drawTexts();
      const fromHash = /^#at=(\d+)$/.exec(location.hash);
      const at = params.has("at") ? Number(params.get("at")) : fromHash ? Number(fromHash[1]) : 0;
      await show(Number.isFinite(at) ? at : 0);
    } catch (err) {
      const what = err.status === 404 ? t("Finns inte", "Not found") : err.status === 409 ? t("Given spelas fortfarande", "The deal is still being played") : t("Fel", "Error");
      setStatus(`${what}: ${err.message}`, true);
      document.body.dataset.ready = "error";
    }
  }

  start();
})();
