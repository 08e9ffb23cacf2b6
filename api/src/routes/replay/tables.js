// Per-game drawing for the replay viewer, all in one place. The viewer (replay.js) draws the
// seats, their hands, the trick on the table and the scores from the fields tables share; this
// file draws every other field, in two layers:
//
// 1. FIELDS: fields that several games (and the families to come) name alike, drawn by their
//    name for any game: a stock or talon (its cards, or how many are left), a pile, a dog,
//    cards set aside, a turned card, and per seat the cards bought, discarded, thrown in or
//    shown. A new game whose table names its stock `stock` or `stock_size` gets it drawn with
//    no code; a new common field is one line here (its name, where it goes, its words).
// 2. Hooks, by game id, for what is a game's own (all optional), each given the step's table
//    and `ui` (helpers from replay.js, below):
//      hand(table, seat, ui)   nodes to draw as the seat's hand, instead of table.hands[seat]
//      seat(table, seat, ui)   more nodes under the seat's hand
//      centre(table, ui)       more nodes in the middle of the table
//      facts(table, ui)        more [label, value] rows for the facts panel (value: text or node)
//      omit                    {field: why} card fields the page deliberately does not draw
//                              (duplicates, history); the browser test reads this list
//
// Every card drawn is in a zone that names where it comes from in the replay step
// (`data-from="table.hands.2"`, `"table.stock"`): ui.cards(codes, {from}) and ui.card(code,
// {from}) set it. The browser test (tests/replay/browser.py) compares each zone with the step's
// JSON at that path, and fails on a field with cards that no zone draws and no `omit` names.
//
// ui: t(sv, en), el(tag, attrs, ...children), cards(codes, {small, label, from, id}),
// card(code, {small, from}), backs(count, {label}), seat(n), seats(list), contract(value),
// suit(name), word(value) (a known value in the page's language), num(path-free numbers).
"use strict";

window.KortbordTables = (function () {
  const hooks = {};
  const register = (game, hook) => { hooks[game] = hook; };
  const get = (game) => hooks[game] || {};

  // Fields with cards that tables share. where: "centre" or "seat" (a list by seat). kind:
  // "cards" (a list of cards), "card" (one), "count" (how many, face down: drawn only when the
  // field named by `unless` is absent, as a record may show the cards themselves).
  const FIELDS = [
    { key: "stock", where: "centre", kind: "cards", sv: "Talongen", en: "The stock" },
    { key: "stock_size", where: "centre", kind: "count", unless: "stock", sv: "Talongen", en: "The stock" },
    { key: "talon", where: "centre", kind: "cards", sv: "Talongen", en: "The talon" },
    { key: "talon_size", where: "centre", kind: "count", unless: "talon", sv: "Talongen", en: "The talon" },
    { key: "talon_count", where: "centre", kind: "count", unless: "talon", sv: "Talongen", en: "The talon" },
    { key: "undealt", where: "centre", kind: "count", sv: "Outdelade kort", en: "Undealt cards" },
    { key: "pile", where: "centre", kind: "cards", sv: "Högen (överst sist)", en: "The pile (top card last)" },
    { key: "pile_top", where: "centre", kind: "card", unless: "pile", sv: "Högens översta kort", en: "The pile's top card" },
    { key: "dog", where: "centre", kind: "cards", sv: "Hunden", en: "The dog" },
    { key: "discards", where: "centre", kind: "cards", sv: "Avlagda kort", en: "Discards" },
    { key: "set_aside", where: "centre", kind: "cards", sv: "Undanlagda kort", en: "Cards set aside" },
    { key: "turned_card", where: "centre", kind: "card", sv: "Vänt kort", en: "Turned card" },
    { key: "trump_card", where: "centre", kind: "card", sv: "Trumfkortet", en: "The trump card" },
    { key: "turned_cards", where: "centre", kind: "cards", sv: "Vända kort", en: "Turned cards" },
    { key: "open_hand", where: "centre", kind: "cards", sv: "Öppen hand", en: "Open hand" },
    // A fishing game's open table of loose cards (Fan tan's layout is rows: its hook draws them).
    { key: "layout", where: "centre", kind: "cards", sv: "Bordet", en: "The table" },
    { key: "drawn", where: "seat", kind: "cards", sv: "Köpta kort", en: "Cards bought" },
    { key: "discards", where: "seat", kind: "cards", sv: "Kastade kort", en: "Discarded" },
    { key: "thrown_in", where: "seat", kind: "cards", sv: "Inkastad hand", en: "Hand thrown in" },
    { key: "shown", where: "seat", kind: "cards", sv: "Visade kort", en: "Cards shown" },
    { key: "shown_bottom_cards", where: "seat", kind: "card", sv: "Visat bottenkort", en: "Bottom card shown" },
    { key: "shown_in_hand", where: "seat", kind: "card", sv: "Visat kort på handen", en: "Card shown in hand" },
    // Cards every seat saw go into a hand (a picked-up pile or trick): public while held.
    { key: "public_cards", where: "seat", kind: "cards", sv: "Kort på handen som alla sett", en: "Cards in hand seen by all" },
    // A fishing game's piles taken in: the cards in a record, else how many; the cards lying face
    // up on a pile (Kasino's tabbar).
    { key: "captured", where: "seat", kind: "cards", sv: "Intagna kort", en: "Cards taken in" },
    { key: "captured_sizes", where: "seat", kind: "count", unless: "captured", sv: "Intagna kort", en: "Cards taken in" },
    { key: "tabbar", where: "seat", kind: "cards", sv: "Tabbar", en: "Tabbar (sweeps)" },
    // Face-down piles nobody looks at (Svälta räv, Muggins): the cards in a record, else how
    // many; the card each seat turned up; a seat's face-up discard pile.
    { key: "piles", where: "seat", kind: "cards", sv: "Hög med baksidan upp (överst först)", en: "Face-down pile (top card first)" },
    { key: "pile_sizes", where: "seat", kind: "count", unless: "piles", sv: "Kort i högen", en: "Cards in the pile" },
    { key: "turned", where: "seat", kind: "cards", sv: "Vänt kort", en: "Card turned" },
    { key: "discard_piles", where: "seat", kind: "cards", sv: "Kasthög (överst sist)", en: "Discard pile (top card last)" },
  ];

  // Card fields no game draws: the pack as dealt, and the tricks already won (the jump list and
  // the last trick show them).
  const OMIT = {
    deck: "the pack as it was dealt: the hands show where it went",
    tricks: "the tricks won: reached with the jump to a trick and shown as the last trick",
  };

  const isCardList = (v) => Array.isArray(v) && v.every((c) => c === null || typeof c === "string");
  const isCard = (v) => v === null || typeof v === "string";

  // The common fields of a table: {centre: [nodes], seats: [[nodes] by seat]}.
  function common(table, n, ui, omit) {
    const out = { centre: [], seats: Array.from({ length: n }, () => []) };
    for (const f of FIELDS) {
      const v = table[f.key];
      if (v === undefined || (omit && f.key in omit)) continue;
      if (f.unless && table[f.unless] !== undefined) continue;
      const label = ui.t(f.sv, f.en);
      const from = `table.${f.key}`;
      if (f.where === "centre") {
        if (f.kind === "count" && typeof v === "number") {
          out.centre.push(ui.backs(v, { label: `${label}: ${v} ${ui.t("kort", v === 1 ? "card" : "cards")}`, zone: f.key }));
        } else if (f.kind === "cards" && isCardList(v) && v.length) {
          out.centre.push(ui.cards(v, { small: true, label, from }));
        } else if (f.kind === "card" && typeof v === "string") {
          out.centre.push(ui.cards([v], { small: true, label, from, single: true }));
        }
      } else if (Array.isArray(v) && v.length === n) {
        v.forEach((x, s) => {
          if (f.kind === "count" && typeof x === "number" && x > 0) {
            out.seats[s].push(ui.el("div", { class: "extra" }, `${label}: ${x}`));
          } else if (f.kind === "cards" && Array.isArray(x) && isCardList(x) && x.length) {
            out.seats[s].push(ui.cards(x, { small: true, label, from: `${from}.${s}` }));
          } else if (f.kind === "card" && typeof x === "string") {
            out.seats[s].push(ui.cards([x], { small: true, label, from: `${from}.${s}`, single: true }));
          }
        });
      }
    }
    return out;
  }

  // Per-seat figures tables share: [field, sv, en], drawn "label value" under the seat.
  const SEAT_FIGURES = [
    ["lives", "marker kvar", "marks left"],
    ["limpor", "limpor", "loaves"],
  ];

  // --- the games' own fields ---------------------------------------------------------------
  const yesNo = (ui, b) => (b ? ui.t("ja", "yes") : ui.t("nej", "no"));
  const list = (ui, seats) => (Array.isArray(seats) && seats.length ? ui.seats(seats) : "—");
  const text = (ui, x) => (x && (x.sv || x.en) ? ui.t(x.sv || x.en, x.en || x.sv) : "");

  register("tarot", {
    omit: {
      dealt: "the hands as dealt: the hands show them as they are",
      count: "the deal's count repeats the dog and the discards drawn on the table",
    },
    // A poignée: the trumps shown, and the trost a seat declared.
    seat(table, seat, ui) {
      const out = [];
      const p = (table.poignees || [])[seat];
      if (p && Array.isArray(p.trumps)) {
        out.push(ui.cards(p.trumps, { small: true, label: ui.t(`Poignée (${ui.word(p.level)})`, `Poignée (${ui.word(p.level)})`), from: `table.poignees.${seat}.trumps` }));
      }
      if ((table.trost || [])[seat]) out.push(ui.el("div", { class: "extra" }, ui.t("Tröst", "Trost")));
      return out;
    },
    facts(table, ui) {
      const rows = [];
      if (table.taker != null) rows.push([ui.t("Spelare", "Taker"), ui.seat(table.taker)]);
      if (table.called_card) rows.push([ui.t("Uppropat kort", "Called card"), ui.cards([table.called_card], { small: true, from: "table.called_card", single: true })]);
      if (table.partner != null && table.partner_revealed) rows.push([ui.t("Partner", "Partner"), ui.seat(table.partner)]);
      if (table.multiplier && table.multiplier !== 1) rows.push([ui.t("Multiplikator", "Multiplier"), String(table.multiplier)]);
      if (table.slam_announced) rows.push([ui.t("Slam", "Slam"), ui.t("utropad", "announced")]);
      if (table.highest_bid) rows.push([ui.t("Högsta bud", "Highest bid"), ui.contract(table.highest_bid)]);
      if (table.deals_total != null) rows.push([ui.t("Givar", "Deals"), `${table.deals_played ?? 0} / ${table.deals_total}`]);
      if (table.dog_to) rows.push([ui.t("Hunden går till", "The dog goes to"), ui.word(table.dog_to)]);
      return rows;
    },
  });

  // Japansk whist: each player has piles on the table, an open card on a face-down one.
  register("japansk-whist", {
    seat(table, seat, ui) {
      const piles = (table.piles || [])[seat];
      if (!Array.isArray(piles) || !piles.length) return [];
      const row = ui.el("div", { class: "pile-row", "data-piles": String(seat) });
      piles.forEach((p, i) => {
        const pile = ui.el("span", { class: "pile" });
        const at = `table.piles.${seat}.${i}`;
        if (p.face_down) pile.append(ui.card(p.hidden === undefined ? null : p.hidden, { small: true, from: `${at}.hidden` }));
        else if (typeof p.hidden === "string") pile.append(ui.card(p.hidden, { small: true, from: `${at}.hidden` }));
        if (p.open) pile.append(ui.card(p.open, { small: true, from: `${at}.open` }));
        if (pile.childNodes.length) row.append(pile);
      });
      return row.childNodes.length ? [ui.el("div", { class: "extra" }, ui.t("Högar", "Piles")), row] : [];
    },
    facts(table, ui) {
      const rows = [];
      if (table.defender != null) rows.push([ui.t("Försvarare", "Defender"), ui.seat(table.defender)]);
      if (table.hands_picked_up !== undefined) rows.push([ui.t("Korten upptagna", "Hands picked up"), yesNo(ui, table.hands_picked_up)]);
      if (table.target != null) rows.push([ui.t("Mål", "Target"), String(table.target)]);
      return rows;
    },
  });

  // Fyrmanswhist: what each player asks for with the bottom card, the game chosen.
  register("fyrmanswhist", {
    seat(table, seat, ui) {
      const wants = (table.wants || [])[seat];
      return wants ? [ui.el("div", { class: "extra" }, `${ui.t("vill", "wants")}: ${ui.word(wants)}`)] : [];
    },
    facts(table, ui) {
      const rows = [];
      if (table.declaring_side != null) rows.push([ui.t("Spelande sida", "Declaring side"), String(table.declaring_side + 1)]);
      if (table.first_lead != null) rows.push([ui.t("Första utspel", "First lead"), ui.seat(table.first_lead)]);
      return rows;
    },
  });

  // Svängknack: trumps come from turned cards; blanked cards stay hidden.
  register("svangknack", {
    omit: { hands_dealt: "the hands as dealt: the hands show them as they are" },
    seat(table, seat, ui) {
      const out = [];
      const swing = (table.swing_calls || []).find((c) => c.seat === seat);
      if (swing) out.push(ui.el("div", { class: "extra" }, swing.swung ? ui.t("svängde", "swung") : ui.t("svängde inte", "did not swing")));
      const join = (table.join_calls || []).find((c) => c.seat === seat);
      if (join) out.push(ui.el("div", { class: "extra" }, join.joined ? ui.t("går med", "joins") : ui.t("går inte med", "does not join")));
      const buy = (table.buys || []).find((b) => b.seat === seat);
      if (buy && buy.turn) out.push(ui.el("div", { class: "extra" }, `${ui.word(buy.turn.kind)}${buy.turn.count != null ? ` ${buy.turn.count}` : ""}`));
      if (Array.isArray(table.folded) && table.folded.includes(seat)) out.push(ui.el("div", { class: "extra" }, ui.t("Har lagt sig", "Folded")));
      return out;
    },
    facts(table, ui) {
      const rows = [];
      if (table.swinger != null) rows.push([ui.t("Svängare", "Swinger"), ui.seat(table.swinger)]);
      if (Array.isArray(table.in_play)) rows.push([ui.t("Med i spelet", "In the play"), list(ui, table.in_play)]);
      if (table.stake != null) rows.push([ui.t("Insats", "Stake"), String(table.stake)]);
      if (Array.isArray(table.winners) && table.winners.length) rows.push([ui.t("Vinnare", "Winners"), list(ui, table.winners)]);
      return rows;
    },
  });

  // Polskt pass: the cut card, the discards of each declarer and the bets.
  register("polskt-pass", {
    omit: { dealt_hands: "the hands as dealt: the hands show them as they are" },
    facts(table, ui) {
      const rows = [];
      if (table.cut && table.cut.shown_card) rows.push([ui.t("Kuttat kort", "Card shown at the cut"), ui.cards([table.cut.shown_card], { small: true, from: "table.cut.shown_card", single: true })]);
      if (Array.isArray(table.declarers) && table.declarers.length) rows.push([ui.t("Spelförare", "Declarers"), list(ui, table.declarers)]);
      if (table.trumps_from) rows.push([ui.t("Trumf från", "Trumps from"), ui.word(table.trumps_from)]);
      if (table.cutter != null) rows.push([ui.t("Kuttade", "Cut by"), ui.seat(table.cutter)]);
      if (table.la_vola != null) rows.push([ui.t("La vola", "La vola"), ui.seat(table.la_vola.seat ?? table.la_vola)]);
      if (table.deals_total != null) rows.push([ui.t("Givar", "Deals"), String(table.deals_total)]);
      if (table.amount_played_for != null) rows.push([ui.t("Spelas om", "Played for"), String(table.amount_played_for)]);
      if (Array.isArray(table.bets) && table.bets.length) {
        rows.push([ui.t("Insatser", "Bets"), table.bets.map((b) => `${ui.t("bud", "bet")} ${b.bet}: ${b.amount}`).join(", ")]);
      }
      return rows;
    },
    seat(table, seat, ui) {
      const out = [];
      (table.discards || []).forEach((d, i) => {
        if (d && d.seat === seat) out.push(ui.cards([d.card], { small: true, label: ui.t("Avlagt", "Discarded"), from: `table.discards.${i}.card`, single: true }));
      });
      return out;
    },
  });

  // Spader: bids are made per side.
  register("spader", {
    facts(table, ui) {
      const rows = (table.bids || []).filter(Boolean).map((b) => [
        ui.t("Bud, sida ", "Bid, side ") + ((b.by ?? 0) % 2 + 1),
        `${ui.seat(b.by)}: ${b.nil ? ui.t("noll", "nil") : b.tricks}${b.blind_nil ? ui.t(" (blind noll)", " (blind nil)") : ""}`,
      ]);
      if (table.spades_broken !== undefined) rows.push([ui.t("Spader brutna", "Spades broken"), yesNo(ui, table.spades_broken)]);
      if (Array.isArray(table.overtricks)) rows.push([ui.t("Överstick", "Overtricks"), table.overtricks.join(" – ")]);
      if (table.target != null) rows.push([ui.t("Mål", "Target"), String(table.target)]);
      return rows;
    },
  });

  // Trettioett: every hand with its worth, the stock, the pile, the knock and the pot.
  register("trettioett", {
    omit: {
      shown: "the hands laid down at the end: the hands drawn, with their worth",
      pile_top: "the pile's top card: the last of the pile drawn",
    },
    seat(table, seat, ui) {
      const out = [];
      const shown = (table.shown || [])[seat];
      const value = (shown && shown.value) || (table.hand_values || [])[seat];
      if (value) {
        const what = value.suit ? ui.suit(value.suit) : ui.t("tretal", "three of a kind");
        out.push(ui.el("div", { class: "extra value", "data-value": value.points },
          `${shown ? ui.t("Visad hand", "Hand shown") : ui.t("Handen", "The hand")}: ${value.points} (${what})`));
      }
      if (Array.isArray(table.playing) && table.playing[seat] === false) out.push(ui.el("div", { class: "extra" }, ui.t("Inte med", "Not dealt in")));
      if (table.knocker === seat) out.push(ui.el("div", { class: "extra" }, ui.t("Knackade", "Knocked")));
      return out;
    },
    facts(table, ui) {
      const rows = [];
      if (table.knocker !== undefined) rows.push([ui.t("Knackat av", "Knocked by"), table.knocker === null ? "—" : ui.seat(table.knocker)]);
      if (table.to_play != null && table.phase !== "deal-over") rows.push([ui.t("Tur", "To play"), ui.seat(table.to_play)]);
      if (table.pile_size != null) rows.push([ui.t("Kort i högen", "Cards in the pile"), String(table.pile_size)]);
      if (table.taken_from_pile) rows.push([ui.t("Taget från högen", "Taken from the pile"), ui.cards([table.taken_from_pile], { small: true, from: "table.taken_from_pile", single: true })]);
      if (table.turns != null) rows.push([ui.t("Drag", "Turns"), String(table.turns)]);
      if (table.pile_turns) rows.push([ui.t("Högen vänd", "Pile turned over"), String(table.pile_turns)]);
      if (table.deals_scheduled != null) rows.push([ui.t("Givar", "Deals"), `${table.deals_played ?? 0} / ${table.deals_scheduled}`]);
      const s = table.settlement;
      if (s && s.winner != null) rows.push([ui.t("Vinnare", "Winner"), ui.seat(s.winner)]);
      if (s && Array.isArray(s.paid_marks) && s.paid_marks.length) rows.push([ui.t("Betalade marker", "Paid a mark"), list(ui, s.paid_marks)]);
      return rows;
    },
  });

  // Vändåtta: the pile with the suit that counts, the talon, draws this turn, "one left"
  // forgotten, talons shuffled anew, who went out and the minus points.
  register("vandatta", {
    omit: {
      pile_top: "the pile's top card: the last of the pile drawn",
      result: "the hands left at the end: the hands drawn at each seat, counted in the facts",
    },
    seat(table, seat, ui) {
      const out = [];
      if (Array.isArray(table.out) && table.out[seat]) out.push(ui.el("div", { class: "extra" }, ui.t("Utslagen", "Out of the match")));
      if ((table.forgot_one_left || [])[seat]) out.push(ui.el("div", { class: "extra" }, ui.t("glömde säga \"ett kvar\": drar ett kort", "forgot to say \"one left\": draws a card")));
      const r = table.result;
      if (r && Array.isArray(r.points) && r.winner !== seat) out.push(ui.el("div", { class: "extra value", "data-value": r.points[seat] }, `${ui.t("Givens poäng", "The deal's points")}: ${r.points[seat]}`));
      return out;
    },
    facts(table, ui) {
      const rows = [];
      if (table.suit) rows.push([ui.t("Färg som gäller", "Suit that counts"), ui.suit(table.suit)]);
      if (table.to_play != null && table.phase === "playing") rows.push([ui.t("Tur", "To play"), ui.seat(table.to_play)]);
      if (table.draws) rows.push([ui.t("Dragna kort i turen", "Cards drawn this turn"), String(table.draws)]);
      if (table.pile_size != null) rows.push([ui.t("Kort i högen", "Cards in the pile"), String(table.pile_size)]);
      if (table.reshuffles) rows.push([ui.t("Ny talong blandad", "New talon shuffled"), String(table.reshuffles)]);
      const r = table.result;
      if (r) rows.push([ui.t("Gick ut", "Went out"), r.winner == null ? ui.t("ingen: given låstes", "nobody: the deal was blocked") : ui.seat(r.winner)]);
      if (r && Array.isArray(r.eliminated) && r.eliminated.length) rows.push([ui.t("Slogs ut", "Eliminated"), list(ui, r.eliminated)]);
      if (table.options && table.options.limit != null) rows.push([ui.t("Gräns", "Limit"), `-${table.options.limit}`]);
      return rows;
    },
  });

  // Vändtia: every seat's face-up table cards and its face-down ones (the cards in a record,
  // else backs), the burnt cards, whose turn it is, the rank that opens and who went out.
  register("vandtia", {
    seat(table, seat, ui) {
      const out = [];
      const up = (table.face_up || [])[seat];
      if (Array.isArray(up)) out.push(ui.cards(up, { small: true, from: `table.face_up.${seat}`, label: ui.t("Öppna bordskort", "Face-up table cards") }));
      const down = (table.face_down || [])[seat];
      if (Array.isArray(down)) out.push(ui.cards(down, { small: true, from: `table.face_down.${seat}`, label: ui.t("Nedvända bordskort", "Face-down table cards") }));
      else {
        const left = ((table.face_down_left || [])[seat] || []).filter(Boolean).length;
        if (left) out.push(ui.backs(left, { label: ui.t("Nedvända bordskort", "Face-down table cards") }));
      }
      if ((table.done || [])[seat]) out.push(ui.el("div", { class: "extra" }, ui.t("klar", "done")));
      return out;
    },
    centre(table, ui) {
      return Array.isArray(table.burnt) && table.burnt.length
        ? [ui.cards(table.burnt, { small: true, from: "table.burnt", label: ui.t("Bortvända kort", "Burnt cards") })]
        : [];
    },
    facts(table, ui) {
      const rows = [];
      if (table.to_play != null && table.phase === "playing") rows.push([ui.t("Tur", "To play"), ui.seat(table.to_play)]);
      if (table.opening_rank != null) rows.push([ui.t("Öppnar med valören", "Opens with the rank"), String(table.opening_rank)]);
      if (table.burnt_count) rows.push([ui.t("Bortvända kort", "Cards burnt"), String(table.burnt_count)]);
      if (Array.isArray(table.out) && table.out.length) rows.push([ui.t("Gick ut", "Went out"), list(ui, table.out)]);
      return rows;
    },
  });

  // Femtio: each hand is a pile arranged face down, turned one card a trick.
  register("femtio", {
    omit: { arranged: "the piles as arranged, played cards too: the hands are what is left of them" },
    hand(table, seat, ui) {
      const pile = (table.hands || [])[seat];
      if (!Array.isArray(pile)) return undefined;
      return [ui.cards(pile, { id: `hand-${seat}`, from: `table.hands.${seat}`,
        label: table.phase === "arranging" ? ui.t("Högen som läggs (överst först)", "The pile being arranged (top first)") : ui.t("Högen (överst först)", "The pile (top first)") })];
    },
    seat(table, seat, ui) {
      const left = (table.to_place || [])[seat];
      return left ? [ui.el("div", { class: "extra" }, `${ui.t("kort kvar att lägga", "cards left to place")}: ${left}`)] : [];
    },
    facts(table, ui) {
      const rows = [];
      if (table.cards_each != null) rows.push([ui.t("Kort var", "Cards each"), String(table.cards_each)]);
      if (table.target != null) rows.push([ui.t("Mål", "Target"), String(table.target)]);
      return rows;
    },
  });

  // Gurka: the pot, who is still in, buy-ins and the last cards.
  register("gurka", {
    seat(table, seat, ui) {
      const out = [];
      if (Array.isArray(table.in_game) && table.in_game[seat] === false) out.push(ui.el("div", { class: "extra" }, ui.t("Ute ur partiet", "Out of the match")));
      const used = (table.buy_ins_used || [])[seat];
      if (used) out.push(ui.el("div", { class: "extra" }, `${ui.t("köpt in sig", "bought in")}: ${used}`));
      if (Array.isArray(table.deciding) && table.deciding.includes(seat)) out.push(ui.el("div", { class: "extra" }, ui.t("väljer om att köpa in sig", "deciding whether to buy in")));
      return out;
    },
    facts(table, ui) {
      const rows = [];
      const r = table.result;
      if (r && Array.isArray(r.last_cards)) rows.push([ui.t("Sista korten", "The last cards"), ui.cards(r.last_cards, { small: true, from: "table.result.last_cards" })]);
      if (r && Array.isArray(r.losers)) rows.push([ui.t("Förlorare", "Losers"), list(ui, r.losers)]);
      if (r && Array.isArray(r.eliminated) && r.eliminated.length) rows.push([ui.t("Slogs ut", "Eliminated"), list(ui, r.eliminated)]);
      if (table.options && table.options.limit != null) rows.push([ui.t("Gräns", "Limit"), String(table.options.limit)]);
      return rows;
    },
  });

  // Femkort: offers of better cards, who kept and who offered, a deal thrown in.
  register("femkort", {
    seat(table, seat, ui) {
      const choice = (table.choices || [])[seat];
      return choice ? [ui.el("div", { class: "extra" }, ui.word(choice))] : [];
    },
    facts(table, ui) {
      const rows = [];
      (table.offers || []).forEach((o) => {
        const answer = o.declined_by != null ? ui.t(`nej från ${ui.seat(o.declined_by)}`, `declined by ${ui.seat(o.declined_by)}`)
          : o.accepted && o.accepted.length ? ui.t(`ja från ${ui.seats(o.accepted)}`, `accepted by ${ui.seats(o.accepted)}`) : "…";
        rows.push([ui.t("Erbjudande", "Offer"), `${ui.seat(o.by)}, ${ui.t("stick", "trick")} ${o.trick_number}: ${answer}`]);
      });
      if (table.offer) rows.push([ui.t("Öppet erbjudande", "Open offer"), ui.seat(table.offer.by)]);
      if (table.thrown_in) rows.push([ui.t("Given", "The deal"), ui.t("inkastad", "thrown in")]);
      if (table.redeal) rows.push([ui.t("Omgiv", "Redeal"), ui.t("ja", "yes")]);
      if (table.deals_scheduled != null) rows.push([ui.t("Givar", "Deals"), `${table.deals_played ?? 0} / ${table.deals_scheduled}`]);
      const s = table.settlement;
      if (s && s.winner != null) rows.push([ui.t("Vinnare", "Winner"), ui.seat(s.winner)]);
      return rows;
    },
  });

  // Norrlandsknack: the knock, joins, purchases, loaves and the pot.
  register("norrlandsknack", {
    seat(table, seat, ui) {
      const out = [];
      const call = (table.calls || []).find((c) => c.seat === seat);
      if (call) out.push(ui.el("div", { class: "extra" }, call.knocked ? ui.t("knackade", "knocked") : ui.t("lurade", "passed (lurat)")));
      const join = (table.joins || []).find((j) => j.seat === seat);
      if (join) out.push(ui.el("div", { class: "extra" }, join.joined ? ui.t("går med", "joins") : ui.t("går inte med", "does not join")));
      const buy = (table.buys || []).find((b) => b.seat === seat);
      if (buy) out.push(ui.el("div", { class: "extra" }, ui.t(`köpte ${buy.drawn} (lade bort ${buy.discarded})`, `bought ${buy.drawn} (put away ${buy.discarded})`)));
      if (Array.isArray(table.folded) && table.folded.includes(seat)) out.push(ui.el("div", { class: "extra" }, ui.t("Har lagt sig", "Folded")));
      return out;
    },
    facts(table, ui) {
      const rows = [];
      if (table.knocker !== undefined) rows.push([ui.t("Knackat av", "Knocked by"), table.knocker === null ? "—" : ui.seat(table.knocker)]);
      if (table.trumfmant !== undefined) rows.push([ui.t("Trumfmant", "Trumfmant (trumps must be played)"), yesNo(ui, table.trumfmant)]);
      if (table.first_deal !== undefined) rows.push([ui.t("Första given", "First deal"), yesNo(ui, table.first_deal)]);
      const r = table.result;
      if (r && Array.isArray(r.terms)) r.terms.forEach((term) => rows.push([ui.t("Poäng", "Score"), text(ui, term.explanation)]));
      return rows;
    },
  });

  // Rödskägg: the bidding, the declarer's question and who goes on.
  register("rodskagg", {
    seat(table, seat, ui) {
      const out = [];
      const call = (table.calls || []).filter((c) => c.seat === seat).map((c) => (c.bid === null ? ui.t("smyger", "sneaks") : ui.word(c.bid)));
      if (call.length) out.push(ui.el("div", { class: "extra" }, `${ui.t("bud", "bids")}: ${call.join(", ")}`));
      const going = (table.going_on || [])[seat];
      if (going) out.push(ui.el("div", { class: "extra" }, ui.word(going)));
      if (Array.isArray(table.out_of_match) && table.out_of_match.includes(seat)) out.push(ui.el("div", { class: "extra" }, ui.t("Ute ur partiet", "Out of the match")));
      return out;
    },
    facts(table, ui) {
      const rows = [];
      if (table.bid) rows.push([ui.t("Bud", "Bid"), ui.word(table.bid)]);
      if (table.out_knocked) rows.push([ui.t("Knackat för utgång", "Knocked for going out"), ui.t("ja", "yes")]);
      if (table.end_reason) rows.push([ui.t("Partiet slut", "Match over"), ui.word(table.end_reason)]);
      const r = table.result;
      if (r && Array.isArray(r.terms)) r.terms.forEach((term) => rows.push([ui.t("Poäng", "Score"), text(ui, term.explanation)]));
      return rows;
    },
  });

  // Bondtolva: the stock and the turned trump, the marriages declared.
  register("bondtolva", {
    facts(table, ui) {
      const rows = (table.marriages || []).map((m) => [ui.t("Mariage", "Marriage"),
        `${ui.seat(m.seat)}: ${ui.suit(m.suit)}${m.kind === "trumps" ? ui.t(" (i trumf)", " (in trumps)") : ""}`]);
      if (table.target != null) rows.push([ui.t("Mål", "Target"), String(table.target)]);
      if (table.winner != null) rows.push([ui.t("Vinnare", "Winner"), ui.seat(table.winner)]);
      return rows;
    },
  });

  // Femhundra: the auction, the contract and its worth, the widow.
  register("femhundra", {
    seat(table, seat, ui) {
      const bids = (table.bids || []).filter((b) => b.seat === seat).map((b) => (b.contract ? ui.contract(b.contract) : ui.t("pass", "pass")));
      return bids.length ? [ui.el("div", { class: "extra" }, `${ui.t("bud", "bids")}: ${bids.join(", ")}`)] : [];
    },
    centre(table, ui) {
      if (!table.widow_size) return [];
      const label = table.widow_taken ? ui.t("Änkan (tagen av spelföraren)", "The widow (taken by the declarer)") : ui.t("Änkan", "The widow");
      return table.widow_taken ? [ui.el("div", { class: "extra" }, label)] : [ui.backs(table.widow_size, { label, zone: "widow" })];
    },
    facts(table, ui) {
      const rows = [];
      if (table.contract_value != null) rows.push([ui.t("Kontraktets värde", "The contract's worth"), String(table.contract_value)]);
      if (table.partner != null) rows.push([ui.t("Partner", "Partner"), ui.seat(table.partner)]);
      if (table.called_card) rows.push([ui.t("Uppropat kort", "Called card"), ui.cards([table.called_card], { small: true, from: "table.called_card", single: true })]);
      if (table.joker_suit) rows.push([ui.t("Jokerns färg", "The joker's suit"), ui.suit(table.joker_suit)]);
      if (table.discard_count) rows.push([ui.t("Avlagda kort", "Cards discarded"), String(table.discard_count)]);
      if (table.laid_away_by != null) rows.push([ui.t("Lade bort handen", "Laid the hand away"), ui.seat(table.laid_away_by)]);
      if (table.target != null) rows.push([ui.t("Mål", "Target"), `${table.target} (${ui.t("golv", "floor")} ${table.floor})`]);
      return rows;
    },
  });

  // Fyrtioett: each seat's bid and what its hand is worth.
  register("fyrtioett", {
    seat(table, seat, ui) {
      const worth = (table.bid_worth || [])[seat];
      return worth != null ? [ui.el("div", { class: "extra" }, `${ui.t("budets värde", "bid worth")} ${worth}`)] : [];
    },
    facts(table, ui) {
      const rows = [];
      if (table.total_worth != null) rows.push([ui.t("Budens värde", "The bids' worth"), `${table.total_worth} (${ui.t("minst", "at least")} ${table.minimum_total_worth})`]);
      if (table.thrown_in) rows.push([ui.t("Given", "The deal"), ui.t("inkastad", "thrown in")]);
      if (table.target != null) rows.push([ui.t("Mål", "Target"), String(table.target)]);
      return rows;
    },
  });

  // Plump: the bids against the tricks, where trumps came from.
  register("plump", {
    facts(table, ui) {
      const rows = [];
      if (table.deals_total != null) rows.push([ui.t("Givar", "Deals"), String(table.deals_total)]);
      if (table.cards_per_hand != null) rows.push([ui.t("Kort per hand", "Cards per hand"), String(table.cards_per_hand)]);
      if (table.bids_total != null) rows.push([ui.t("Bud sammanlagt", "Bids in all"), String(table.bids_total)]);
      if (table.trumps_from) rows.push([ui.t("Trumf från", "Trumps from"), ui.word(table.trumps_from)]);
      if (table.first_lead != null) rows.push([ui.t("Första utspel", "First lead"), ui.seat(table.first_lead)]);
      return rows;
    },
  });

  // Priffe: the contract above and below the line, games and sittings.
  register("priffe", {
    facts(table, ui) {
      const rows = [];
      if (table.declaring_side != null) rows.push([ui.t("Spelande sida", "Declaring side"), String(table.declaring_side + 1)]);
      if (Array.isArray(table.below_the_line)) rows.push([ui.t("Under strecket", "Below the line"), table.below_the_line.join(" – ")]);
      if (Array.isArray(table.above_the_line)) rows.push([ui.t("Över strecket", "Above the line"), table.above_the_line.join(" – ")]);
      if (Array.isArray(table.games)) rows.push([ui.t("Utgångar", "Games"), table.games.join(" – ")]);
      if (table.sitting != null) rows.push([ui.t("Sits", "Sitting"), String(table.sitting)]);
      if (table.highest_bid) rows.push([ui.t("Högsta bud", "Highest bid"), ui.contract(table.highest_bid)]);
      if (table.game_points != null) rows.push([ui.t("Utgång på", "Game at"), String(table.game_points)]);
      return rows;
    },
  });

  // Whist: games won and trick points by side.
  register("whist", {
    facts(table, ui) {
      const rows = [];
      if (Array.isArray(table.trick_points)) rows.push([ui.t("Stickpoäng", "Trick points"), table.trick_points.join(" – ")]);
      if (Array.isArray(table.games_won)) rows.push([ui.t("Vunna utgångar", "Games won"), table.games_won.join(" – ")]);
      if (table.game_target != null) rows.push([ui.t("Utgång på", "Game at"), String(table.game_target)]);
      return rows;
    },
  });

  // Bräus: who stood over, the deal's result.
  register("braus", {
    facts(table, ui) {
      const rows = [];
      if (Array.isArray(table.stood_over) && table.stood_over.length) rows.push([ui.t("Stod över", "Stood over"), list(ui, table.stood_over)]);
      if (table.result) rows.push([ui.t("Resultat", "Result"), ui.word(table.result)]);
      if (table.target != null) rows.push([ui.t("Mål (ritor)", "Target (ritor)"), String(table.target)]);
      return rows;
    },
  });

  // President: the plays on the table since it was last cleared (the one to beat last), each
  // seat's title from the last deal and place out, the order of play, the exchange.
  register("president", {
    seat(table, seat, ui) {
      const out = [];
      const title = (table.titles || [])[seat];
      if (title) out.push(ui.el("div", { class: "extra" }, ui.word(title)));
      const place = (table.out || []).indexOf(seat);
      if (place >= 0) out.push(ui.el("div", { class: "extra" }, ui.t(`ute som nummer ${place + 1}`, `out in place ${place + 1}`)));
      return out;
    },
    centre(table, ui) {
      const out = [];
      (table.plays || []).forEach((p, i) => {
        const last = i === table.plays.length - 1;
        const label = `${ui.seat(p.seat)}${last ? ui.t(" (att slå)", " (to beat)") : ""}`;
        out.push(ui.cards(p.cards, { small: true, label, from: `table.plays.${i}.cards` }));
      });
      if (table.plays && !table.plays.length && table.phase === "playing") out.push(ui.el("div", { class: "extra" }, ui.t("Bordet är tomt", "The table is clear")));
      return out;
    },
    facts(table, ui) {
      const rows = [];
      if (Array.isArray(table.order)) rows.push([ui.t("Spelordning", "Order of play"), ui.seats(table.order)]);
      if (table.to_play != null && table.phase === "playing") rows.push([ui.t("Tur", "To play"), ui.seat(table.to_play)]);
      if (table.passes) rows.push([ui.t("Pass i rad", "Passes in a row"), String(table.passes)]);
      if (table.cleared_count != null) rows.push([ui.t("Kort ur spel", "Cards out of play"), String(table.cleared_count)]);
      (table.exchanges || []).forEach((x, i) => {
        const label = ui.t(`${ui.seat(x.from)} ger ${ui.seat(x.to)}`, `${ui.seat(x.from)} gives ${ui.seat(x.to)}`);
        rows.push([label, Array.isArray(x.cards) ? ui.cards(x.cards, { small: true, from: `table.exchanges.${i}.cards` }) : ui.backs(x.count, {})]);
      });
      if (table.options && table.options.trouduc) rows.push([ui.t("Variant", "Variant"), "Trouduc"]);
      if (table.options && table.options.target != null) rows.push([ui.t("Mål", "Target"), String(table.options.target)]);
      return rows;
    },
  });
  // Fan tan: the layout's rows, one a suit, built out from the sevens (or up from any card in
  // the free variant); how often each seat has passed.
  register("fan-tan", {
    centre(table, ui) {
      const rows = Array.isArray(table.layout) ? table.layout : [];
      if (!rows.length) return [ui.el("div", { class: "extra" }, ui.t("Inga kort utlagda än", "No cards laid yet"))];
      return [ui.el("div", { class: "extra" }, ui.t("Raderna på bordet", "The rows on the table"))].concat(
        rows.map((r, i) => ui.cards(r.cards, { small: true, label: ui.suit(r.suit), from: `table.layout.${i}.cards` })));
    },
    seat(table, seat, ui) {
      const passes = (table.passes || [])[seat];
      return passes ? [ui.el("div", { class: "extra" }, `${ui.t("pass", "passes")}: ${passes}`)] : [];
    },
    facts(table, ui) {
      const rows = [];
      if (table.options && table.options.free) rows.push([ui.t("Spelsätt", "Variant"), ui.t("fri fan tan", "free fan tan")]);
      if (table.to_play != null && table.phase === "playing") rows.push([ui.t("Tur", "To play"), ui.seat(table.to_play)]);
      if (table.winner != null) rows.push([ui.t("Först ut", "First out"), ui.seat(table.winner)]);
      return rows;
    },
  });

  // Jazz: which of the six deals is played and how it scores; the trick deals drawn as any trick
  // game's (the trick, the hands) with the twos out of the pack, the sixth deal's rows and
  // passes as Fan tan's; under each seat what the deal has counted against it so far.
  const fanTan = get("fan-tan");
  const JAZZ_COUNTED = {
    tricks: ["stick", "tricks"],
    clubs: ["klöver", "clubs"],
    queens: ["damer", "queens"],
    "king-of-clubs": ["klöver kung", "king of clubs"],
    "last-trick": ["sista sticket", "last trick"],
    "fan-tan": ["tvungna pass", "forced passes"],
  };
  register("jazz", {
    centre(table, ui) {
      const out = table.kind === "fan-tan" ? fanTan.centre(table, ui) : [];
      if (Array.isArray(table.twos_out) && table.twos_out.length) {
        out.push(ui.cards(table.twos_out, { small: true, label: ui.t("Tvåor ur leken", "Twos out of the pack"), from: "table.twos_out" }));
      }
      return out;
    },
    seat(table, seat, ui) {
      const out = table.kind === "fan-tan" ? fanTan.seat(table, seat, ui) : [];
      const n = (table.counted || [])[seat];
      const what = JAZZ_COUNTED[table.kind];
      if (n && what) out.push(ui.el("div", { class: "extra" }, `${ui.t(what[0], what[1])}: ${n}`));
      return out;
    },
    facts(table, ui) {
      const rows = [];
      if (table.kind) rows.push([ui.t("Giv", "Deal"), `${table.deal_number} / 6: ${ui.word(table.kind)}`]);
      if (table.scoring) rows.push([ui.t("Poäng", "Scoring"), ui.t(table.scoring.sv, table.scoring.en)]);
      if (table.to_play != null && table.phase === "fan-tan") rows.push([ui.t("Tur", "To play"), ui.seat(table.to_play)]);
      if (table.first_out != null) rows.push([ui.t("Först ut", "First out"), ui.seat(table.first_out)]);
      return rows;
    },
  });

  // Snipp snapp snorum: the sequence on the table is the pile; how often each seat stood over.
  register("snipp-snapp-snorum", {
    seat(table, seat, ui) {
      const stood = (table.stood_over || [])[seat];
      return stood ? [ui.el("div", { class: "extra" }, `${ui.t("stod över", "stood over")}: ${stood}`)] : [];
    },
    facts(table, ui) {
      const rows = [];
      if (table.options && table.options.jig) rows.push([ui.t("Spelsätt", "Variant"), "jig"]);
      if (table.to_play != null && table.phase !== "finished" && table.phase !== "deal-over") rows.push([ui.t("Tur", "To play"), ui.seat(table.to_play)]);
      if (table.winner != null) rows.push([ui.t("Först ut", "First out"), ui.seat(table.winner)]);
      return rows;
    },
  });

  // Stopp: the pile and the cards turned away are the common fields; each seat's capital, who
  // is out of the deal or of the match.
  register("stopp", {
    seat(table, seat, ui) {
      const out = [];
      const capital = (table.capital || [])[seat];
      if (capital !== undefined) out.push(ui.el("div", { class: "extra" }, `${ui.t("kapital", "capital")}: ${capital}`));
      if ((table.out_of_match || []).includes(seat)) out.push(ui.el("div", { class: "extra" }, ui.t("ute ur partiet", "out of the match")));
      else if ((table.went_out || []).includes(seat)) out.push(ui.el("div", { class: "extra" }, ui.t("ute ur given", "out of the deal")));
      return out;
    },
    facts(table, ui) {
      const rows = [];
      if (table.options) rows.push([ui.t("Betalning per kort", "Payment per card"), String(table.options.per_card)]);
      if (table.to_play != null) rows.push([ui.t("Tur", "To play"), ui.seat(table.to_play)]);
      if (Array.isArray(table.went_out) && table.went_out.length) rows.push([ui.t("Ute ur given", "Out of the deal"), list(ui, table.went_out)]);
      return rows;
    },
  });

  // Kasino: the card shown for a take and the groups taken with it so far; who gets sistan.
  const kasino = {
    centre(table, ui) {
      const out = [];
      const tk = table.taking;
      if (tk && tk.card) {
        out.push(ui.cards([tk.card], { small: true, label: ui.t(`Tar in med (räknas ${tk.worth})`, `Taking in with (counts ${tk.worth})`), from: "table.taking.card", single: true }));
        if (Array.isArray(tk.taken) && tk.taken.length) out.push(ui.cards(tk.taken, { small: true, label: ui.t("Intaget hittills", "Taken so far"), from: "table.taking.taken" }));
      }
      if (Array.isArray(table.layout) && !table.layout.length && table.phase !== "waiting-for-deal") {
        out.push(ui.el("div", { class: "extra" }, ui.t("Bordet är tomt", "The table is empty")));
      }
      return out;
    },
    facts(table, ui) {
      const rows = [];
      if (table.to_play != null && (table.phase === "playing" || table.phase === "taking")) rows.push([ui.t("Tur", "To play"), ui.seat(table.to_play)]);
      if (table.last_taker != null) rows.push([ui.t("Tog in sist", "Took in last"), ui.seat(table.last_taker)]);
      if (table.options && table.options.target != null) rows.push([ui.t("Mål", "Target"), String(table.options.target)]);
      return rows;
    },
  };
  register("kasino", kasino);

  // Krypkasino: Kasino's take in progress and last taker, and its round, dukningar and tabbar
  // turned down, and the worths that would sweep the table.
  register("krypkasino", {
    centre: kasino.centre,
    facts(table, ui) {
      const rows = kasino.facts(table, ui);
      if (table.round != null) rows.push([ui.t("Omgång", "Round"), `${table.round} / 4`]);
      if (Array.isArray(table.tabbe_on) && table.tabbe_on.length) rows.push([ui.t("Tabbe på", "A tabbe on"), table.tabbe_on.join(", ")]);
      if (Array.isArray(table.dukningar)) rows.push([ui.t("Dukningar", "Dukningar"), table.dukningar.join(" · ")]);
      if (Array.isArray(table.turned_down)) rows.push([ui.t("Tabbar nedvända", "Tabbar turned down"), table.turned_down.join(" · ")]);
      return rows;
    },
  });

  // Svälta räv: what is owed in the second variant, the rounds played, who is out.
  register("svalta-rav", {
    facts(table, ui) {
      const rows = [];
      if (table.options) rows.push([ui.t("Spelsätt", "Variant"), table.options.variant === "second" ? ui.t("andra", "second") : ui.t("första", "first")]);
      if (table.rounds != null) rows.push([table.options && table.options.variant === "second" ? ui.t("Vunna högar", "Piles won") : ui.t("Rundor", "Rounds"), String(table.rounds)]);
      if (table.rounds_without_capture != null) rows.push([ui.t("Rundor i rad utan tagning", "Rounds in a row without a capture"), String(table.rounds_without_capture)]);
      if (table.claimant != null) rows.push([ui.t("Betalar till", "Paying to"), `${ui.seat(table.claimant)} (${ui.t("kvar att betala", "still owed")}: ${table.owed})`]);
      if (Array.isArray(table.out) && table.out.length) rows.push([ui.t("Ute", "Out"), list(ui, table.out)]);
      return rows;
    },
  });

  // Muggins: the muggins piles in the middle; whose turn it is and a wrong placement open to a call.
  register("muggins", {
    centre(table, ui) {
      const piles = Array.isArray(table.muggins) ? table.muggins : [];
      return piles.map((p, i) => ui.cards(p, { small: true, label: ui.t(`Muggins-hög ${i + 1} (överst sist)`, `Muggins pile ${i + 1} (top card last)`), from: `table.muggins.${i}` }));
    },
    facts(table, ui) {
      const rows = [];
      if (table.to_play != null) rows.push([ui.t("Tur", "To play"), ui.seat(table.to_play)]);
      if (table.turns != null) rows.push([ui.t("Vända kort", "Cards turned"), String(table.turns)]);
      if (table.callable != null) rows.push([ui.t("Kan kallas muggins", "May be called muggins"), ui.seat(table.callable)]);
      return rows;
    },
  });

  // Stortok: the turned card, the pile (the trick under way), the cards put aside and each seat's
  // picked-up cards (public_cards) are common fields; who went out, the trumps and the Stortok.
  // Kom ihåg and Tvärtom-kom ihåg: the spread as a grid of its places (a card face down, a card
  // face up, or an empty place once taken; a record shows the faces of the cards face down too,
  // dimmed); under each seat its pairs or its heap.
  const memorySpread = (table, ui) => {
    const places = Array.isArray(table.places) ? table.places : [];
    const up = new Set([...(table.turned || []), ...(table.to_turn_back || [])]);
    const at = new Map(places.map((p, i) => [p.position, i]));
    const grid = ui.el("div", { class: "memory-grid", style: "display:grid;grid-template-columns:repeat(13,auto);gap:2px" });
    for (let pos = 0; pos < 52; pos++) {
      const i = at.get(pos);
      const slot = ui.el("span", { class: `memory-place ${i === undefined ? "empty" : up.has(pos) ? "up" : "down"}`, title: String(pos) });
      if (i === undefined) slot.append("·");
      else {
        const card = ui.card(places[i].card || null, { small: true, from: `table.places.${i}.card` });
        if (!up.has(pos)) card.style.opacity = "0.45";
        slot.append(card);
      }
      grid.append(slot);
    }
    return places.length ? [ui.el("div", { class: "extra" }, ui.t("Korten på bordet", "The cards on the table")), grid] : [];
  };
  const memoryFacts = (table, ui) => {
    const rows = [];
    if (table.to_play != null && table.phase === "playing") rows.push([ui.t("Tur", "To play"), ui.seat(table.to_play)]);
    if (Array.isArray(table.places)) rows.push([ui.t("Kort kvar", "Cards left"), String(table.places.length)]);
    return rows;
  };
  register("kom-ihag", {
    omit: { deck: "the pack as spread: the grid shows each place's card" },
    centre: memorySpread,
    seat(table, seat, ui) {
      const pairs = (table.pairs || [])[seat];
      return Array.isArray(pairs) && pairs.length
        ? [ui.cards(pairs, { small: true, from: `table.pairs.${seat}`, label: `${ui.t("Par", "Pairs")}: ${pairs.length / 2}` })]
        : [];
    },
    facts: memoryFacts,
  });

  // Tvärtom-kom ihåg: the spread as in Kom ihåg; each seat's heap (face down at the table, but
  // every card in it was seen by all); the cards turned up in the turn under way.
  register("tvartom-kom-ihag", {
    omit: { deck: "the pack as spread: the grid shows each place's card" },
    centre: memorySpread,
    seat(table, seat, ui) {
      const heap = (table.heaps || [])[seat];
      return Array.isArray(heap) && heap.length
        ? [ui.cards(heap, { small: true, from: `table.heaps.${seat}`, label: `${ui.t("Hög", "Heap")}: ${heap.length}` })]
        : [];
    },
    facts(table, ui) {
      const rows = memoryFacts(table, ui);
      if (Array.isArray(table.turned) && table.turned.length) rows.push([ui.t("Uppvända i turen", "Turned up this turn"), String(table.turned.length)]);
      if (table.options && table.options.scoring && table.options.scoring !== "cards") rows.push([ui.t("Räknas i", "Counted in"), table.options.scoring === "points" ? ui.t("poäng", "points") : ui.t("enkla poäng", "simple points")]);
      return rows;
    },
  });

  register("stortok", {
    seat(table, seat, ui) {
      const out = [];
      const place = Array.isArray(table.out) ? table.out.indexOf(seat) : -1;
      if (place >= 0) out.push(ui.el("div", { class: "extra" }, `${ui.t("Ute som nummer", "Out in place")} ${place + 1}`));
      if (Array.isArray(table.stortok) && table.stortok.includes(seat)) out.push(ui.el("div", { class: "extra" }, ui.t("Stortok", "The Stortok")));
      return out;
    },
    facts(table, ui) {
      const rows = [];
      if (table.to_play != null && table.phase === "playing") rows.push([ui.t("Tur", "To play"), ui.seat(table.to_play)]);
      if (table.high_trump) rows.push([ui.t("Högtrumf", "High trumps"), ui.suit(table.high_trump)]);
      if (table.low_trump) rows.push([ui.t("Lågtrumf", "Low trumps"), ui.suit(table.low_trump)]);
      if (Array.isArray(table.trick_seats) && table.trick_seats.length) rows.push([ui.t("Har lagt i sticket", "Played to the trick"), list(ui, table.trick_seats)]);
      if (Array.isArray(table.out) && table.out.length) rows.push([ui.t("Gick ut", "Went out"), list(ui, table.out)]);
      if (Array.isArray(table.stortok)) rows.push([ui.t("Stortok", "The Stortok"), list(ui, table.stortok)]);
      if (table.options && table.options.deals > 1) rows.push([ui.t("Givar i partiet", "Deals in the match"), String(table.options.deals)]);
      return rows;
    },
  });

  // Långe Laban: each seat's own trump suit (the cards everyone knows a hand holds, picked-up
  // tricks and the jack of clubs, are the shared public_cards field); whose turn it is, who went
  // out in which order, pick-ups in a row.
  register("lange-laban", {
    seat(table, seat, ui) {
      const out = [];
      const trump = (table.trumps || [])[seat];
      if (trump) out.push(ui.el("div", { class: "extra" }, `${ui.t("Trumf", "Trumps")}: ${ui.suit(trump)}`));
      const place = (table.out || []).indexOf(seat);
      if (place >= 0) out.push(ui.el("div", { class: "extra" }, `${ui.t("ute som", "out as number")} ${place + 1}`));
      return out;
    },
    facts(table, ui) {
      const rows = [];
      if (table.to_play != null) rows.push([ui.t("Tur", "To play"), ui.seat(table.to_play)]);
      if (Array.isArray(table.out) && table.out.length) rows.push([ui.t("Gick ut", "Went out"), list(ui, table.out)]);
      if (table.pick_ups_in_row) rows.push([ui.t("Upptagningar i rad", "Pick-ups in a row"), String(table.pick_ups_in_row)]);
      if (table.ending === "pick-up-limit") rows.push([ui.t("Slut", "Ended"), ui.t("taket för upptagningar i rad", "the cap on pick-ups in a row")]);
      return rows;
    },
  });

  // Skitgubbe: the duel's cards are the trick the page draws; here the second phase's groups on
  // the table (the last is the one to beat), the last talon card's holder, the trump suit and,
  // by seat, the tricks won in the duels (cards in a record, else how many).
  register("skitgubbe", {
    seat(table, seat, ui) {
      const out = [];
      const won = (table.won || [])[seat];
      const count = (table.won_counts || [])[seat];
      if (Array.isArray(won) && won.length) out.push(ui.cards(won, { small: true, from: `table.won.${seat}`, label: ui.t("Vunna stick", "Tricks won") }));
      else if (!Array.isArray(won) && count) out.push(ui.backs(count, { label: ui.t("Vunna stick", "Tricks won") }));
      if (table.last_card_holder === seat) {
        if (table.last_card) out.push(ui.cards([table.last_card], { small: true, single: true, from: "table.last_card", label: ui.t("Talongens sista kort (osett)", "The talon's last card (unseen)") }));
        else out.push(ui.backs(1, { label: ui.t("Talongens sista kort (osett)", "The talon's last card (unseen)") }));
      }
      const place = (table.out || []).indexOf(seat);
      if (place >= 0) out.push(ui.el("div", { class: "extra" }, ui.t(`ute som nummer ${place + 1}`, `out in place ${place + 1}`)));
      return out;
    },
    centre(table, ui) {
      const out = [];
      (table.groups || []).forEach((g, i) => {
        const last = i === table.groups.length - 1;
        const label = `${ui.seat(g.seat)}${last ? ui.t(" (att slå)", " (to beat)") : ""}`;
        out.push(ui.cards(g.cards, { small: true, label, from: `table.groups.${i}.cards` }));
      });
      if (table.groups && !table.groups.length && table.phase === "shedding") out.push(ui.el("div", { class: "extra" }, ui.t("Bordet är tomt", "The table is clear")));
      return out;
    },
    facts(table, ui) {
      const rows = [];
      if (Array.isArray(table.duel)) rows.push([ui.t("Duell", "Duel"), `${ui.seat(table.duel[0])} ${ui.t("mot", "against")} ${ui.seat(table.duel[1])}`]);
      if (table.to_play != null) rows.push([ui.t("Tur", "To play"), ui.seat(table.to_play)]);
      if (table.holder != null) rows.push([ui.t("Sista talongkortet", "Last talon card"), ui.seat(table.holder)]);
      if (table.quiet_moves) rows.push([ui.t("Tysta drag i rad", "Quiet moves in a row"), String(table.quiet_moves)]);
      if (Array.isArray(table.out) && table.out.length) rows.push([ui.t("Gick ut", "Went out"), list(ui, table.out)]);
      return rows;
    },
  });

  // Gris: who holds the pig and whether he owes a card back, the passes, the thumbs (the first,
  // and each follow with its time after it), the window the first thumb opened, the losers and
  // why. The pig in its holder's hand is the shared public_cards field.
  register("gris", {
    seat(table, seat, ui) {
      const out = [];
      if (table.pig_holder === seat) out.push(ui.el("div", { class: "extra" }, ui.t("Har grisen", "Holds the pig")));
      if (table.owes === seat) out.push(ui.el("div", { class: "extra" }, ui.t("Ska ge ett kort tillbaka", "Owes a card back")));
      if (table.first_thumb === seat) out.push(ui.el("div", { class: "extra" }, ui.t("Först med tummen", "First thumb up")));
      const w = table.window;
      const r = w && (w.reacted || []).find((x) => x.seat === seat);
      if (r) out.push(ui.el("div", { class: "extra" }, ui.t(`Tummen upp ${r.after_ms} ms efter`, `Thumb up ${r.after_ms} ms after`)));
      if (Array.isArray(table.losers) && table.losers.includes(seat)) {
        const why = table.ending === "late" ? ui.t("För sen: förlorar", "Late: loses") : ui.t("Sist: förlorar", "Last: loses");
        out.push(ui.el("div", { class: "extra" }, why));
      }
      return out;
    },
    centre(table, ui) {
      const w = table.window;
      if (!w) return [];
      const waiting = (w.waiting || []).length ? list(ui, w.waiting) : ui.t("ingen", "nobody");
      return [ui.el("div", { class: "extra" }, ui.t(`Tummen är uppe: fönstret öppnades ${w.opened_at_ms} och stänger ${w.closes_at_ms}; väntar på ${waiting}.`,
        `A thumb is up: the window opened at ${w.opened_at_ms} and closes at ${w.closes_at_ms}; waiting for ${waiting}.`))];
    },
    facts(table, ui) {
      const rows = [];
      if (table.pig_holder != null) rows.push([ui.t("Grisen", "The pig"), ui.seat(table.pig_holder)]);
      if (table.owes != null) rows.push([ui.t("Ska ge tillbaka", "Owes a card"), ui.seat(table.owes)]);
      if (table.passes != null) rows.push([ui.t("Skickningar", "Passes"), String(table.passes)]);
      if (table.first_thumb != null) rows.push([ui.t("Först med tummen", "First thumb"), ui.seat(table.first_thumb)]);
      if (table.ending) rows.push([ui.t("Slut", "Ending"), ui.word(table.ending)]);
      if (Array.isArray(table.losers)) rows.push([ui.t("Förlorare", "Losers"), table.losers.length ? list(ui, table.losers) : ui.t("ingen", "nobody")]);
      if (table.options && table.options.deals > 1) rows.push([ui.t("Givar i partiet", "Deals in the match"), String(table.options.deals)]);
      return rows;
    },
  });

  // Svarte Petter: each seat's pairs laid face up (the page draws the hands: cards in a record,
  // else a count), who went out and in which order, who draws from whom, and the loser.
  register("svarte-petter", {
    seat(table, seat, ui) {
      const out = [];
      const pairs = (table.pairs || [])[seat];
      if (Array.isArray(pairs) && pairs.length) out.push(ui.cards(pairs, { small: true, from: `table.pairs.${seat}`, label: ui.t("Upplagda par", "Pairs laid") }));
      const place = (table.out || []).indexOf(seat);
      if (place >= 0) out.push(ui.el("div", { class: "extra" }, ui.t(`ute som nummer ${place + 1}`, `out in place ${place + 1}`)));
      if (table.loser === seat) out.push(ui.el("div", { class: "extra" }, ui.t("Kvar med Svarte Petter", "Left with Svarte Petter")));
      return out;
    },
    facts(table, ui) {
      const rows = [];
      if (table.drawer != null) rows.push([ui.t("Drar", "To draw"), ui.seat(table.drawer)]);
      if (table.drawn_from != null) rows.push([ui.t("Drar från", "Draws from"), ui.seat(table.drawn_from)]);
      if (Array.isArray(table.out) && table.out.length) rows.push([ui.t("Gick ut", "Went out"), list(ui, table.out)]);
      if (table.loser != null) rows.push([ui.t("Förlorare", "Loser"), ui.seat(table.loser)]);
      return rows;
    },
  });

  // Rummy: the melds in front of each seat (a run from its lowest card up, numbered as the moves
  // name them), the cards everyone saw go into a hand from the pile, whose turn it is, whether he
  // has drawn, and who went out. The stock and the pile are the shared fields.
  register("rummy", {
    seat(table, seat, ui) {
      const out = [];
      (table.melds || []).forEach((laid, i) => {
        if (laid.owner !== seat || !laid.meld) return;
        const kind = laid.meld.kind === "run" ? ui.t("Sekvens", "Run") : ui.t("Grupp", "Group");
        out.push(ui.cards(laid.meld.cards, { small: true, from: `table.melds.${i}.meld.cards`, label: `${kind} ${i}` }));
      });
      const known = (table.known_cards || [])[seat];
      if (Array.isArray(known) && known.length) out.push(ui.cards(known, { small: true, from: `table.known_cards.${seat}`, label: ui.t("Tagna från högen, synliga för alla", "Taken from the pile, seen by all") }));
      if (table.went_out === seat) out.push(ui.el("div", { class: "extra" }, ui.t("Gick ut", "Went out")));
      return out;
    },
    facts(table, ui) {
      const rows = [];
      if (table.turn != null) rows.push([ui.t("Tur", "To play"), ui.seat(table.turn)]);
      if (table.drawn != null) rows.push([ui.t("Har tagit sitt kort", "Has drawn"), table.drawn ? ui.t("ja", "yes") : ui.t("nej", "no")]);
      if (table.turns != null) rows.push([ui.t("Avslutade turer", "Turns ended"), String(table.turns)]);
      if (table.went_out != null) rows.push([ui.t("Gick ut", "Went out"), ui.seat(table.went_out)]);
      return rows;
    },
  });

  // Fusk: the plays face down on the table, each with its claim (the last may still be called),
  // the cards being laid, and what a seat's own record adds: its hand and the cards it knows in
  // the pile. Cards never turned up are never in a step.
  const fuskRank = (ui, r) => ({ 11: ui.t("knektar", "jacks"), 12: ui.t("damer", "queens"), 13: ui.t("kungar", "kings"), 14: ui.t("ess", "aces") }[r] || ui.t(`${r}:or`, `${r}s`));
  register("fusk", {
    centre(table, ui) {
      const out = [];
      (table.claims || []).forEach((c, i) => {
        const last = i === table.claims.length - 1 && table.open_to_call === c.seat;
        const label = `${ui.seat(c.seat)}: ${c.count} ${fuskRank(ui, c.rank)}${last ? ui.t(" (kan synas)", " (may be called)") : ""}`;
        out.push(ui.backs(c.count, { label }));
      });
      if (table.laying_count) out.push(ui.backs(table.laying_count, { label: ui.t("Läggs just nu", "Being laid now") }));
      if (Array.isArray(table.pile_known) && table.pile_known.length) out.push(ui.cards(table.pile_known, { small: true, from: "table.pile_known", label: ui.t("Egna kort i högen", "Own cards in the pile") }));
      if (Array.isArray(table.hand) && table.hand.length) out.push(ui.cards(table.hand, { small: true, from: "table.hand", label: ui.t("Egen hand", "Own hand") }));
      if (table.claims && !table.claims.length && table.phase === "playing") out.push(ui.el("div", { class: "extra" }, ui.t("Bordet är tomt", "The table is clear")));
      return out;
    },
    facts(table, ui) {
      const rows = [];
      if (table.to_play != null) rows.push([ui.t("Tur", "To play"), ui.seat(table.to_play)]);
      if (table.open_to_call != null) rows.push([ui.t("Kan synas", "May be called"), ui.seat(table.open_to_call)]);
      if (Array.isArray(table.passed) && table.passed.length) rows.push([ui.t("Lät spelet stå", "Let it stand"), list(ui, table.passed)]);
      if (table.packs) rows.push([ui.t("Lekar", "Packs"), String(table.packs)]);
      if (table.moves != null) rows.push([ui.t("Drag", "Moves"), `${table.moves} / ${table.options ? table.options.move_limit : ""}`]);
      return rows;
    },
  });

  // Löjliga familjerna and Finns i sjön: whose turn it is to ask, by seat the quartets laid
  // (ranks: every card of a quartet is out of play); the cards handed over are the shared
  // public_cards field. Finns i sjön's sea is a grid of face-down places, by position.
  const RANKS_SV = ["tvåor", "treor", "fyror", "femmor", "sexor", "sjuor", "åttor", "nior", "tior", "knektar", "damer", "kungar", "ess"];
  const RANKS_EN = ["twos", "threes", "fours", "fives", "sixes", "sevens", "eights", "nines", "tens", "jacks", "queens", "kings", "aces"];
  const rankName = (ui, r) => ui.t(RANKS_SV[r - 2] || String(r), RANKS_EN[r - 2] || String(r));
  const asking = {
    seat(table, seat, ui) {
      const laid = (table.quartets || [])[seat];
      if (!Array.isArray(laid) || !laid.length) return [];
      return [ui.el("div", { class: "extra" }, `${ui.t("Kvartetter", "Quartets")} (${laid.length}): ${laid.map((r) => rankName(ui, r)).join(", ")}`)];
    },
    centre(table, ui) {
      if (!Array.isArray(table.sea)) return [];
      const label = `${ui.t("Sjön", "The sea")}: ${table.sea.length} ${ui.t("kort", table.sea.length === 1 ? "card" : "cards")} (${ui.t("platser", "places")} ${table.sea.map((p) => p.position).join(" ")})`;
      // A record shows the sea's cards, place by place; a table only their backs.
      if (Array.isArray(table.sea_cards)) return [ui.cards(table.sea_cards, { small: true, label, from: "table.sea_cards" })];
      return [ui.backs(table.sea.length, { label })];
    },
    facts(table, ui) {
      const rows = [];
      if (table.turn != null) rows.push([ui.t("Frågar", "Asking"), ui.seat(table.turn)]);
      if (Array.isArray(table.out) && table.out.length) rows.push([ui.t("Utan kort, sjön tom", "Out of cards, the sea empty"), list(ui, table.out)]);
      return rows;
    },
    omit: { hand: "the viewer's own hand: a record draws every seat's hand" },
  };
  register("lojliga-familjerna", asking);
  register("finns-i-sjon", asking);

  // Poker: each seat's chips, what it has put in this round and this deal, folded or all in,
  // how many cards it bought and the hand it showed; the betting round, the bet to meet, who
  // buys. The page draws the hands (cards in a record while the deal is played, else a count),
  // the stock, the discards and the hands shown.
  register("poker", {
    omit: {
      hand: "the viewer's own hand: a record has none, and a seat's record repeats its hand under the seat",
    },
    seat(table, seat, ui) {
      const out = [];
      const stack = (table.stacks || [])[seat];
      if (stack !== undefined) out.push(ui.el("div", { class: "extra" }, `${ui.t("marker", "chips")}: ${stack}`));
      const bet = (table.bets || [])[seat];
      if (bet) out.push(ui.el("div", { class: "extra" }, `${ui.t("satsat i rundan", "bet this round")}: ${bet}`));
      const put = (table.committed || [])[seat];
      if (put) out.push(ui.el("div", { class: "extra" }, `${ui.t("satsat i given", "put in this deal")}: ${put}`));
      if ((table.folded || []).includes(seat)) out.push(ui.el("div", { class: "extra" }, ui.t("har lagt sig", "folded")));
      if ((table.all_in || []).includes(seat)) out.push(ui.el("div", { class: "extra" }, ui.t("har satsat allt", "all in")));
      if ((table.out_of_match || []).includes(seat)) out.push(ui.el("div", { class: "extra" }, ui.t("ute ur partiet", "out of the match")));
      const drew = (table.draws || [])[seat];
      if (drew != null) out.push(ui.el("div", { class: "extra" }, drew ? `${ui.t("köpte", "bought")}: ${drew}` : ui.t("stod nöjd", "stood pat")));
      const category = (table.shown_categories || [])[seat];
      if (category) out.push(ui.el("div", { class: "extra" }, ui.word(category)));
      return out;
    },
    facts(table, ui) {
      const rows = [];
      if (table.round != null) rows.push([ui.t("Satsningsrunda", "Betting round"), String(table.round)]);
      if (table.round != null) rows.push([ui.t("Insats att möta", "Bet to meet"), String(table.current_bet)]);
      if (table.drawer != null) rows.push([ui.t("Köper", "Buying"), ui.seat(table.drawer)]);
      if (table.options) rows.push([ui.t("Ante", "Ante"), String(table.options.ante)]);
      if (table.options) rows.push([ui.t("Insatsgräns", "Betting limit"), ui.word(table.options.limit)]);
      return rows;
    },
  });

  // Stötpoker: Poker's chips and bets under each seat, with the seat's up cards in the order
  // dealt and its hole card (face down unless the viewer may see it: its owner, the record while
  // the deal is played, a hand shown); the betting round, the bet to meet and the forced bet.
  const poker = get("poker");
  register("stotpoker", {
    seat(table, seat, ui) {
      const out = [];
      const up = (table.up_cards || [])[seat] || [];
      if (up.length) {
        const hole = (table.hole_cards || [])[seat];
        out.push(ui.cards([hole === undefined ? null : hole], { small: true, label: ui.t("Hålkort", "Hole card"), from: `table.hole_cards.${seat}`, single: true }));
        out.push(ui.cards(up, { small: true, label: ui.t("Öppna kort", "Up cards"), from: `table.up_cards.${seat}` }));
      }
      return out.concat(poker.seat(table, seat, ui));
    },
    facts(table, ui) {
      const rows = poker.facts(table, ui);
      if (table.options) rows.push([ui.t("Tvångsbet", "Forced bet"), String(table.options.forced_bet)]);
      if (table.options && table.options.soko) rows.push([ui.t("Sökö", "Sökö"), ui.t("ja", "yes")]);
      return rows;
    },
  });

  // Chicago: under each seat its standing with this deal's points, what it bought in this buy,
  // the cards it showed to break up a scored hand and, at the end, its pile and the pile's hand; the buy, the
  // buyer, who declared Chicago and the deal's points so far.
  register("chicago", {
    omit: {
      hand: "the viewer's own hand: a record has none, and a seat's record repeats its hand under the seat",
    },
    seat(table, seat, ui) {
      const out = [];
      const standing = (table.standings || [])[seat];
      if (standing !== undefined) out.push(ui.el("div", { class: "extra" }, `${ui.t("poäng", "points")}: ${standing}`));
      const bought = (table.bought || [])[seat];
      if (bought != null) out.push(ui.el("div", { class: "extra" }, bought ? `${ui.t("köpte", "bought")}: ${bought}` : ui.t("behöll handen", "kept the hand")));
      if ((table.no_buying || []).includes(seat)) out.push(ui.el("div", { class: "extra" }, ui.t("köper inte", "does not buy")));
      const shown = (table.shown || [])[seat] || [];
      if (shown.length) out.push(ui.cards(shown, { small: true, label: ui.t("Visade kort", "Cards shown"), from: `table.shown.${seat}` }));
      if (table.chicago === seat) out.push(ui.el("div", { class: "extra" }, ui.t("har sagt Chicago", "declared Chicago")));
      const piles = table.piles || [];
      const at = piles.findIndex((h) => h.seat === seat);
      if (at >= 0) {
        const pile = piles[at];
        out.push(ui.cards(pile.cards, { small: true, label: `${ui.t("Hög", "Pile")}: ${ui.word(pile.category)}`, from: `table.piles.${at}.cards` }));
      }
      return out;
    },
    facts(table, ui) {
      const rows = [];
      if (table.buy != null) rows.push([ui.t("Köp", "Buy"), String(table.buy)]);
      if (table.buyer != null) rows.push([ui.t("Köper", "Buying"), ui.seat(table.buyer)]);
      if (table.chicago != null) rows.push([ui.t("Chicago", "Chicago"), ui.seat(table.chicago)]);
      (table.terms || []).forEach((term) => rows.push([ui.seat(term.to), `${term.points > 0 ? "+" : ""}${term.points}`]));
      if (table.options) rows.push([ui.t("Mål", "Target"), String(table.options.target)]);
      return rows;
    },
  });

  // BlackJack: the dealer is the house, drawn in the middle with his cards (the hole card face
  // down until turned); each seat's hands with their stakes in place of a hand, its chips and
  // its insurance under it.
  register("blackjack", {
    // A seat's hands, each with its stake, drawn in place of a hand of cards.
    hand(table, seat, ui) {
      return ((table.hands || [])[seat] || []).map((hand, k) => {
        const state = hand.bust ? ui.t(", sprucken", ", bust") : hand.doubled ? ui.t(", dubblad", ", doubled") : "";
        return ui.cards(hand.cards, { small: true, label: `${ui.t("Hand", "Hand")} ${k + 1} (${hand.stake}${state})`, from: `table.hands.${seat}.${k}.cards` });
      });
    },
    seat(table, seat, ui) {
      const out = [];
      const stack = (table.stacks || [])[seat];
      if (stack !== undefined) out.push(ui.el("div", { class: "extra" }, `${ui.t("marker", "chips")}: ${stack}`));
      const insured = (table.insured || [])[seat];
      if (insured) out.push(ui.el("div", { class: "extra" }, `${ui.t("försäkring", "insurance")}: ${insured}`));
      return out;
    },
    // The dealer's cards (a back for the hole card while it lies face down) and the cards he has
    // taken in this round.
    centre(table, ui) {
      const out = [];
      const house = table.house || {};
      const cards = house.cards || [];
      // A record shows the hole card among the dealer's cards before it is turned; a seat's view
      // leaves it out, and it is drawn as a back.
      const unturned = house.hole_down ? ui.t(", hålkortet ännu inte vänt", ", the hole card not yet turned") : "";
      if (cards.length) out.push(ui.cards(cards, { small: true, label: `${ui.t("Dealern", "The dealer")} (${house.total}${unturned})`, from: "table.house.cards" }));
      if (house.hole_down && cards.length < 2) out.push(ui.backs(1, { label: ui.t("Hålkortet", "The hole card"), zone: "hole" }));
      const tray = table.tray || [];
      if (tray.length) out.push(ui.cards(tray, { small: true, label: ui.t("Intagna kort", "Cards taken in"), from: "table.tray" }));
      return out;
    },
    facts(table, ui) {
      const rows = [];
      const house = table.house || {};
      if ((house.cards || []).length) rows.push([ui.t("Dealerns summa", "The dealer's total"), String(house.total)]);
      if (table.shoe !== undefined) rows.push([ui.t("Kort i skon", "Cards in the shoe"), String(table.shoe)]);
      if (table.options) rows.push([ui.t("Lika", "Ties"), ui.word(table.options.ties)]);
      if (table.options) rows.push([ui.t("Dubbling", "Doubling"), ui.word(table.options.double_on)]);
      return rows;
    },
  });

  // Hej knekt: the face-down piles (`piles` in a record, else `pile_sizes`) and the middle pile
  // (`pile`) are common fields; under each seat the cards everyone saw it take up (at the bottom
  // of its pile), the window open now, cards turned and piles taken.
  register("hej-knekt", {
    seat(table, seat, ui) {
      const out = [];
      const known = (table.known_under || [])[seat];
      if (Array.isArray(known) && known.length) out.push(ui.cards(known, { small: true, from: `table.known_under.${seat}`, label: ui.t("Underst i högen (kända av alla)", "At the bottom of the pile (known to all)") }));
      const w = table.window;
      if (w && Array.isArray(w.reacted)) {
        const r = w.reacted.find((x) => x.seat === seat);
        if (r) out.push(ui.el("div", { class: "extra" }, `${ui.t("Rätt gest efter", "Right gesture after")} ${r.after_ms} ms`));
        else if (Array.isArray(w.waiting) && w.waiting.includes(seat)) out.push(ui.el("div", { class: "extra" }, ui.t("Har inte reagerat", "Has not reacted")));
      }
      const wrong = (table.wrong_gestures || [])[seat];
      if (wrong) out.push(ui.el("div", { class: "extra" }, `${ui.t("Fel gester", "Wrong gestures")}: ${wrong}`));
      return out;
    },
    facts(table, ui) {
      const rows = [];
      if (table.turner != null) rows.push([table.window ? ui.t("Vände kortet", "Turned the card") : ui.t("Vänder nästa", "Turns next"), ui.seat(table.turner)]);
      const w = table.window;
      if (w) {
        rows.push([ui.t("Reaktionsfönster", "Reaction window"), `${ui.t("öppet", "open")} ${w.closes_at_ms - w.opened_at_ms} ms`]);
        if (Array.isArray(w.waiting) && w.waiting.length) rows.push([ui.t("Väntar på", "Waiting for"), list(ui, w.waiting)]);
      }
      if (table.turns != null) rows.push([ui.t("Vända kort", "Cards turned"), String(table.turns)]);
      if (Array.isArray(table.piles_taken)) rows.push([ui.t("Tagit högen", "Took the pile"), table.piles_taken.join(" · ")]);
      return rows;
    },
  });

  const omitted = (game) => Object.assign({}, OMIT, get(game).omit || {});

  return { register, get, common, omitted, FIELDS, SEAT_FIGURES };
})();
