// Plays a whole Plump match through openapi-fetch typed by the types openapi-typescript generates
// from openapi/openapi.json. The compiler checks every path, parameter and body against the
// document (`tsc --strict`); nothing is cast or parsed by hand. Usage: node play_plump.js <base url>.
import createClient from "openapi-fetch";
import type { components, paths } from "./kortbord";

type Schemas = components["schemas"];

function fail(message: string): never {
  throw new Error(message);
}

const base = process.argv[2] ?? fail("usage: play_plump.js <base url>");
const anonymous = createClient<paths>({ baseUrl: base });

const minted = await anonymous.POST("/v1/auth/guest", { body: { name: "TypeScript" } });
const token = minted.data ?? fail(`no token: ${JSON.stringify(minted.error)}`);
const client = createClient<paths>({ baseUrl: base, headers: { Authorization: `Bearer ${token.token}` } });

const rules = await anonymous.GET("/v1/games/{game}/rules", { params: { path: { game: "plump" } } });
const rulebook = rules.data ?? fail("no rulebook");
const ruleIds = new Set(rulebook.sections.flatMap((section) => section.rules.map((rule) => rule.id)));

const seats: Schemas["SeatRequest"][] = [{ kind: "me" }, { kind: "bot" }, { kind: "bot" }];
const options: Schemas["PlumpOptions"] = { back_up: true };
const created = await client.POST("/v1/matches", { body: { game: "plump", seats, options } });
let view = created.data ?? fail(`no match: ${JSON.stringify(created.error)}`);
const id = view.id;

function isPlay(move: Schemas["Move"]): move is Schemas["PlumpPlayCommand"] {
  return move.type === "play" && "card" in move;
}

let made = 0;
let refusedBy: string | undefined;
while (view.phase !== "finished") {
  const asked = await client.GET("/v1/matches/{id}/legal-moves", { params: { path: { id } } });
  const legal = asked.data ?? fail(`no legal moves: ${JSON.stringify(asked.error)}`);
  const chosen = legal.moves[made % legal.moves.length] ?? fail(`seat ${legal.seat} has no legal move`);
  if (refusedBy === undefined && isPlay(chosen)) {
    // A card the seat may not play is refused, naming a rule of the rulebook.
    const offered = new Set(legal.moves.filter(isPlay).map((m) => m.card));
    const other = ["2C", "3D", "4H", "5S", "AC", "AS"].find((c) => !offered.has(c)) ?? fail("no card to try");
    const wrong: Schemas["PlumpPlayCommand"] = { type: "play", card: other };
    const refused = await client.POST("/v1/matches/{id}/moves", {
      params: { path: { id } },
      body: { move: wrong, expected_version: view.version },
    });
    const problem = refused.error ?? fail("a wrong card was accepted");
    if (problem.code !== "rule-violation" || problem.rule == null || !ruleIds.has(problem.rule)) {
      fail(`a refusal that names no rule of the rulebook: ${JSON.stringify(problem)}`);
    }
    refusedBy = problem.rule;
  }
  const answered = await client.POST("/v1/matches/{id}/moves", {
    params: { path: { id }, header: { "If-Match": `"${view.version}"` } },
    body: { move: chosen },
  });
  const outcome = answered.data ?? fail(`move refused: ${JSON.stringify(answered.error)}`);
  if (!("match" in outcome)) fail("a move that was not a dry run answered a verdict");
  view = outcome.match;
  made += 1;
  if (made > 2000) fail("the match did not end within 2000 moves");
}

const final = await client.GET("/v1/matches/{id}", { params: { path: { id } } });
const finished = final.data ?? fail("no match");
const winners = finished.outcome?.winners ?? fail("the finished match has no outcome");
if (winners.length === 0) fail("the finished match has no winners");
const history = await client.GET("/v1/matches/{id}/events", { params: { path: { id }, query: { since: 0, limit: 1000 } } });
const events = history.data ?? fail("no events");
const record = await client.GET("/v1/matches/{id}/deals/{deal}", { params: { path: { id, deal: 1 } } });
const deal = record.data ?? fail("no record of deal 1");
const replay = await client.GET("/v1/matches/{id}/deals/{deal}/replay", {
  params: { path: { id, deal: 1 }, query: { at: deal.events.length } },
});
const step = replay.data ?? fail("no replay of deal 1");
if (step.steps !== deal.events.length) fail("the replay and the record disagree on the deal's length");
if (refusedBy === undefined) fail("no card was ever played");
console.log(
  `typescript client: plump match ${id} finished after ${made} moves, winners ${winners.join(", ")}, ` +
    `${events.events.length} events, a refusal named ${refusedBy}`,
);
