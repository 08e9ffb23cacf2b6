// Per-game drawing for the replay viewer, all in one place. The viewer (replay.js) draws any
// trick game from the fields the tables share: `hands`, `trick`, `tricks`/`last_trick`,
// `scores` (per seat, or per side with `sides`), `balances`, `pot`, `bids`, `tricks_taken`...
// A game that shows more on its table registers hooks here; a game with none still renders.
//
// Hooks (all optional), each given the step's table and `ui` (helpers from replay.js:
// ui.t(sv, en), ui.el(tag, attrs, ...children), ui.cards(codes, {small, label}), ui.card(code),
// ui.seat(n), ui.contract(value), ui.suit(name)):
//   hand(table, seat, ui)   the cards to draw as the seat's hand, instead of table.hands[seat]
//   seat(table, seat, ui)   more nodes under the seat's hand
//   centre(table, ui)       more nodes in the middle of the table, under the trick
//   facts(table, ui)        more [label, value] rows for the facts panel (value: text or node)
"use strict";

window.KortbordTables = (function () {
  const hooks = {};
  const register = (game, hook) => { hooks[game] = hook; };
  const get = (game) => hooks[game] || {};

  const seatsOf = (table) => (Array.isArray(table.hands) ? table.hands.length : table.players || 0);

  register("tarot", {
    centre(table, ui) {
      const out = [];
      if (Array.isArray(table.dog) && table.dog.length) {
        out.push(ui.cards(table.dog, { small: true, label: ui.t("Hunden (talongen)", "The dog"), id: "dog" }));
      }
      if (Array.isArray(table.discards) && table.discards.length) {
        out.push(ui.cards(table.discards, { small: true, label: ui.t("Spelarens avlagda kort", "The taker's discards") }));
      }
      return out;
    },
    facts(table, ui) {
      const rows = [];
      if (table.contract) rows.push([ui.t("Kontrakt", "Contract"), ui.contract(table.contract)]);
      if (table.taker != null) rows.push([ui.t("Spelare", "Taker"), ui.seat(table.taker)]);
      if (table.called_card) rows.push([ui.t("Uppropat kort", "Called card"), ui.card(table.called_card)]);
      if (table.partner != null && table.partner_revealed) rows.push([ui.t("Partner", "Partner"), ui.seat(table.partner)]);
      if (table.multiplier && table.multiplier !== 1) rows.push([ui.t("Multiplikator", "Multiplier"), String(table.multiplier)]);
      return rows;
    },
  });

  // Japansk whist: each player has piles on the table, an open card on a face-down one.
  register("japansk-whist", {
    seat(table, seat, ui) {
      const piles = (table.piles || [])[seat];
      if (!Array.isArray(piles) || !piles.length) return [];
      const row = ui.el("div", { class: "pile-row", "data-piles": String(seat) });
      piles.forEach((p) => {
        const pile = ui.el("span", { class: "pile" });
        if (p.hidden !== undefined && p.hidden !== null) pile.append(p.face_down ? ui.card(null, true) : ui.card(p.hidden, true));
        if (p.open) pile.append(ui.card(p.open, true));
        if (pile.childNodes.length) row.append(pile);
      });
      return row.childNodes.length ? [ui.el("div", { class: "extra" }, ui.t("Högar", "Piles")), row] : [];
    },
  });

  // Fyrmanswhist: the bottom card each player shows to ask for a game.
  register("fyrmanswhist", {
    seat(table, seat, ui) {
      const shown = (table.shown_bottom_cards || [])[seat];
      return shown ? [ui.cards([shown], { small: true, label: ui.t("Visat bottenkort", "Bottom card shown") })] : [];
    },
  });

  // Svängknack: trumps come from turned cards; blanked cards stay hidden.
  register("svangknack", {
    centre(table, ui) {
      return Array.isArray(table.turned_cards) && table.turned_cards.length
        ? [ui.cards(table.turned_cards, { small: true, label: ui.t("Vända kort", "Turned cards") })]
        : [];
    },
    seat(table, seat, ui) {
      const out = [];
      const discards = (table.discards || [])[seat];
      if (Array.isArray(discards) && discards.length) out.push(ui.cards(discards, { small: true, label: ui.t("Kastade", "Discarded") }));
      if (Array.isArray(table.folded) && table.folded.includes(seat)) out.push(ui.el("div", { class: "extra" }, ui.t("Har lagt sig", "Folded")));
      return out;
    },
  });

  // Polskt pass: the cut card, the dealt hands' discards and the declarers.
  register("polskt-pass", {
    facts(table, ui) {
      const rows = [];
      if (table.cut && table.cut.shown_card) rows.push([ui.t("Kuttat kort", "Card shown at the cut"), ui.card(table.cut.shown_card)]);
      if (Array.isArray(table.declarers) && table.declarers.length) {
        rows.push([ui.t("Spelförare", "Declarers"), table.declarers.map(ui.seat).join(", ")]);
      }
      return rows;
    },
    seat(table, seat, ui) {
      const mine = (table.discards || []).filter((d) => d && d.seat === seat && d.card).map((d) => d.card);
      return mine.length ? [ui.cards(mine, { small: true, label: ui.t("Avlagt", "Discarded") })] : [];
    },
  });

  // Spader: bids are made per side.
  register("spader", {
    facts(table, ui) {
      return (table.bids || []).filter(Boolean).map((b) => [
        ui.t("Bud, sida ", "Bid, side ") + ((b.by ?? 0) % 2 + 1),
        `${ui.seat(b.by)}: ${b.nil ? ui.t("noll", "nil") : b.tricks}${b.blind_nil ? ui.t(" (blind noll)", " (blind nil)") : ""}`,
      ]);
    },
  });

  return { register, get, seatsOf };
})();
