// Plays a whole match of every playable game through openapi-fetch, typed by the types
// openapi-typescript generates from openapi/openapi.json (`tsc --strict`; nothing is cast or
// parsed by hand). The compiler holds every game's objects to that game's own types: narrowed by
// `game`, a match's table is the game's `...Table`, its options the game's `...Options`, its
// legal moves the game's `...Command`, its events the game's `...Event` (the service's
// `match.*` included), a deal's record and replay steps the game's table. At run time every
// answer must carry the game it was asked about.
// Usage: node play_all.js <base url> [game ...]
import createClient from "openapi-fetch";
import type { components, paths } from "./kortbord";

type Schemas = components["schemas"];
type Game = Schemas["MatchView"]["game"];
type Of<Union, G> = Extract<Union, { game: G }>;

// --- each game's objects are its own, checked by the compiler ---------------------------------
type Pascal<S extends string> = S extends `${infer Word}-${infer Rest}` ? `${Capitalize<Word>}${Pascal<Rest>}` : Capitalize<S>;
type Named<Name extends string> = Name extends keyof Schemas ? Schemas[Name] : never;
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? ([A] extends [never] ? false : true) : false) : false;
type OwnTypes<G extends Game> = [
  Same<Of<Schemas["MatchView"], G>["table"], Named<`${Pascal<G>}Table`>>,
  Same<Of<Schemas["MatchView"], G>["options"], Named<`${Pascal<G>}Options`>>,
  Same<Of<Schemas["LegalMoves"], G>["moves"][number], Named<`${Pascal<G>}Command`>>,
  Same<Of<Schemas["EventOut"], G>["data"], Named<`${Pascal<G>}Event`>>,
  Same<Of<Schemas["DealRecord"], G>["end"], Named<`${Pascal<G>}Table`>>,
  Same<Of<Schemas["DealRecord"], G>["events"][number], Of<Schemas["EventOut"], G>>,
  Same<Of<Schemas["ReplayStep"], G>["table"], Named<`${Pascal<G>}Table`>>,
  Same<Of<Schemas["DealChecked"], G>["table"], Named<`${Pascal<G>}Table`>>,
  Same<NonNullable<Of<Schemas["CreateMatch"], G>["options"]>, Named<`${Pascal<G>}Options`>>,
];
type AllTrue<T extends readonly boolean[]> = T[number] extends true ? true : false;
type Assert<T extends true> = T;
// Fails to compile when any game's table, options, moves or events are not its own.
export type EveryGameIsTyped = Assert<{ [G in Game]: AllTrue<OwnTypes<G>> }[Game]>;

// --- a short match of each game ----------------------------------------------------------------
function seats(players: number): Schemas["SeatRequest"][] {
  const bots: Schemas["SeatRequest"][] = Array.from({ length: players - 1 }, () => ({ kind: "bot", level: "random" }));
  return [{ kind: "me" }, ...bots];
}

// Each creation is typed as its game's own (`TrettioettCreateMatch`): the compiler checks the
// options, and a game with no entry here does not compile.
const creations: { [G in Game]: Of<Schemas["CreateMatch"], G> } = {
  plump: { game: "plump", seats: seats(3), options: { last_bidder_restricted: true } },
  spader: { game: "spader", seats: seats(4), options: { target: 100 } },
  "polskt-pass": { game: "polskt-pass", seats: seats(3), options: { rounds: 1 } },
  svangknack: { game: "svangknack", seats: seats(3), options: { rounds: 1 } },
  tarot: { game: "tarot", seats: seats(4), options: { deals: 1 } },
  fyrmanswhist: { game: "fyrmanswhist", seats: seats(4), options: { target: 2 } },
  "japansk-whist": { game: "japansk-whist", seats: seats(2), options: { target: 3 } },
  fyrtioett: { game: "fyrtioett", seats: seats(4), options: { target: 11 } },
  whist: { game: "whist", seats: seats(4), options: { variant: "short" } },
  femkort: { game: "femkort", seats: seats(2), options: { rounds: 1 } },
  norrlandsknack: { game: "norrlandsknack", seats: seats(3), options: { max_deals: 2 } },
  braus: { game: "braus", seats: seats(4), options: { target: 2 } },
  priffe: { game: "priffe", seats: seats(4), options: { match_end: "deals", deals: 1 } },
  femtio: { game: "femtio", seats: seats(2), options: { target: 10 } },
  gurka: { game: "gurka", seats: seats(3), options: { limit: 10, buy_ins: 0 } },
  bondtolva: { game: "bondtolva", seats: seats(2), options: {} },
  trettioett: { game: "trettioett", seats: seats(2), options: { lives: 2 } },
  rodskagg: { game: "rodskagg", seats: seats(3), options: { max_deals: 2 } },
  femhundra: { game: "femhundra", seats: seats(3), options: {} },
  president: { game: "president", seats: seats(3), options: { target: 2 } },
  "fan-tan": { game: "fan-tan", seats: seats(3), options: { free: true } },
  "snipp-snapp-snorum": { game: "snipp-snapp-snorum", seats: seats(2), options: { jig: true } },
  stopp: { game: "stopp", seats: seats(3), options: { capital: 3, per_card: 2 } },
  vandatta: { game: "vandatta", seats: seats(5), options: { limit: 20 } },
  vandtia: { game: "vandtia", seats: seats(3), options: {} },
  kasino: { game: "kasino", seats: seats(2), options: { target: 6, deal_limit: 1 } },
  "svalta-rav": { game: "svalta-rav", seats: seats(2), options: { variant: "second", round_limit: 20 } },
  krypkasino: { game: "krypkasino", seats: seats(2), options: {} },
  muggins: { game: "muggins", seats: seats(3), options: { turn_limit: 40 } },
  stortok: { game: "stortok", seats: seats(3), options: { deals: 2 } },
  "lange-laban": { game: "lange-laban", seats: seats(3), options: {} },
  skitgubbe: { game: "skitgubbe", seats: seats(3), options: { quiet_limit: 40 } },
  "svarte-petter": { game: "svarte-petter", seats: seats(3), options: {} },
  rummy: { game: "rummy", seats: seats(5), options: { jokers: true } },
  "lojliga-familjerna": { game: "lojliga-familjerna", seats: seats(3), options: {} },
  "finns-i-sjon": { game: "finns-i-sjon", seats: seats(2), options: {} },
  "kom-ihag": { game: "kom-ihag", seats: seats(2), options: {} },
  "tvartom-kom-ihag": { game: "tvartom-kom-ihag", seats: seats(3), options: { scoring: "simple" } },
  fusk: { game: "fusk", seats: seats(3), options: { move_limit: 30 } },
  poker: { game: "poker", seats: seats(3), options: { deals: 2 } },
  stotpoker: { game: "stotpoker", seats: seats(4), options: { deals: 2, soko: true } },
  chicago: { game: "chicago", seats: seats(3), options: { target: 24 } },
  jazz: { game: "jazz", seats: seats(3), options: {} },
  blackjack: { game: "blackjack", seats: seats(3), options: { rounds: 2, packs: 1 } },
  "hej-knekt": { game: "hej-knekt", seats: seats(3), options: { turn_limit: 20 } },
  gris: { game: "gris", seats: seats(4), options: {} },
};

function fail(message: string): never {
  throw new Error(`typescript client: ${message}`);
}

function isGame(id: string): id is Game {
  return id in creations;
}

const base = process.argv[2] ?? fail("usage: play_all.js <base url> [game ...]");
const only = new Set(process.argv.slice(3));
const anonymous = createClient<paths>({ baseUrl: base });
const minted = await anonymous.POST("/v1/auth/guest", { body: { name: "TypeScript" } });
const token = minted.data ?? fail(`no token: ${JSON.stringify(minted.error)}`);
const client = createClient<paths>({ baseUrl: base, headers: { Authorization: `Bearer ${token.token}` } });

function ours(what: string, game: Game, answer: { game: string }): void {
  if (answer.game !== game) fail(`${what} of a ${game} match says it is ${answer.game}`);
}

async function play(game: Game, clocked: boolean): Promise<string> {
  const created = await client.POST("/v1/matches", { body: creations[game] });
  let view = created.data ?? fail(`${game}: no match: ${JSON.stringify(created.error)}`);
  ours("the match", game, view);
  const id = view.id;
  let moves = 0;
  let events = 0;
  let waits = 0;
  while (view.phase !== "finished") {
    const asked = await client.GET("/v1/matches/{id}/legal-moves", { params: { path: { id } } });
    const legal = asked.data ?? fail(`${game}: no legal moves: ${JSON.stringify(asked.error)}`);
    ours("the legal moves", game, legal);
    if (legal.moves.length === 0 && clocked && waits < 200) {
      // A game on the server's clock lists every seat that may react, and its bots react after
      // their delays: wait for them.
      waits += 1;
      await new Promise((done) => setTimeout(done, 100));
      const again = await client.GET("/v1/matches/{id}", { params: { path: { id } } });
      view = again.data ?? fail(`${game}: no match while waiting`);
      continue;
    }
    waits = 0;
    const chosen = legal.moves[(moves * 7) % legal.moves.length] ?? fail(`${game}: seat ${legal.seat} has no legal move`);
    // A reaction goes without a version: a bot's may land first, and the service orders them.
    const header = clocked ? {} : { "If-Match": `"${view.version}"` };
    const answered = await client.POST("/v1/matches/{id}/moves", {
      params: { path: { id }, header },
      body: { move: chosen },
    });
    const outcome = answered.data ?? fail(`${game}: move refused: ${JSON.stringify(answered.error)}`);
    if (!("match" in outcome)) fail(`${game}: a move that was not a dry run answered a verdict`);
    for (const event of outcome.events) ours("an event", game, event);
    view = outcome.match;
    ours("the match after a move", game, view);
    events += outcome.events.length;
    moves += 1;
    if (moves > 3000) fail(`${game}: the match did not end within 3000 moves`);
  }
  const fetched = await client.GET("/v1/matches/{id}", { params: { path: { id } } });
  const final = fetched.data ?? fail(`${game}: no match`);
  ours("the finished match", game, final);
  if (final.outcome == null) fail(`${game}: the finished match has no outcome`);
  const history = await client.GET("/v1/matches/{id}/events", { params: { path: { id }, query: { since: 0, limit: 1000 } } });
  for (const event of (history.data ?? fail(`${game}: no events`)).events) ours("an event of the feed", game, event);
  let steps = 0;
  for (let deal = 1; deal <= final.deal_number; deal++) {
    const recorded = await client.GET("/v1/matches/{id}/deals/{deal}", { params: { path: { id, deal } } });
    const record = recorded.data ?? fail(`${game}: no record of deal ${deal}`);
    ours("a deal's record", game, record);
    for (const event of record.events) ours("an event of a record", game, event);
    const replayed = await client.GET("/v1/matches/{id}/deals/{deal}/replay", {
      params: { path: { id, deal }, query: { at: record.events.length } },
    });
    const step = replayed.data ?? fail(`${game}: no replay of deal ${deal}`);
    ours("a replay step", game, step);
    if (step.steps !== record.events.length) fail(`${game}: the replay and the record disagree on deal ${deal}'s length`);
    steps += 1;
  }
  return `${moves} moves, ${events} events, ${steps} deals replayed`;
}

const listed = await anonymous.GET("/v1/games");
const catalog = listed.data ?? fail("no catalog");
let played = 0;
for (const summary of catalog) {
  if (summary.status !== "playable" || (only.size > 0 && !only.has(summary.id))) continue;
  if (!isGame(summary.id)) fail(`${summary.id} is playable but has no short match set up in play_all.ts`);
  console.log(`typescript client: ${summary.id}: ${await play(summary.id, summary.clocked)}`);
  played += 1;
}
console.log(`typescript client: ${played} games played through the generated types`);
