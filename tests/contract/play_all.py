"""Plays a whole match of every playable game through the Python client generated from
openapi/openapi.json, and checks that the client reads each game's objects as that game's own.

Only the generated client is used: its functions for the paths and its models for every body,
none of them parsed or cast by hand. For every answer the service gives (the match, the legal
moves, a move's result with its events, the event feed, each deal's record and replay steps, the
export), the parsed object must be of the game's own class (`TrettioettMatchView` holding a
`TrettioettTable` and `TrettioettOptions`, moves `Trettioett...Command`, events
`TrettioettEventOut` with `Trettioett...Event` data or the service's `Match...Event`), serialising
it back (`to_dict`) must give the JSON the service sent, and no field the service sent may be one
the document does not declare (kept aside in `additional_properties`).

Usage: python play_all.py <package dir> <base url> [game ...]
"""

import datetime
import json
import random
import sys
import time

sys.path.insert(0, sys.argv[1])

from kortbord_client import AuthenticatedClient, Client, models  # noqa: E402
from kortbord_client.api.auth import guest  # noqa: E402
from kortbord_client.api.games import get_rules, list_games  # noqa: E402
from kortbord_client.api.history import deal_record, deal_replay, export, match_events  # noqa: E402
from kortbord_client.api.matches import create_match, get_match, legal_moves, make_move  # noqa: E402
from kortbord_client.models import (  # noqa: E402
    BotSeat,
    DryRun,
    EventPage,
    GameSummary,
    GuestRequest,
    GuestToken,
    MatchPhase,
    MeSeat,
    MoveRequest,
    MoveResult,
    Problem,
    Rulebook,
)
from kortbord_client.models.bot_level import BotLevel  # noqa: E402
from kortbord_client.models.bot_seat_kind import BotSeatKind  # noqa: E402
from kortbord_client.models.me_seat_kind import MeSeatKind  # noqa: E402
from kortbord_client.types import UNSET  # noqa: E402

# A table and options that make a short match of each game (the random bots play fast). A game
# the service plays that is missing here fails the run: every game goes through the client.
SETUPS = {
    "plump": (3, {"last_bidder_restricted": True}),
    "spader": (4, {"target": 100}),
    "polskt-pass": (3, {"rounds": 1}),
    "svangknack": (3, {"rounds": 1}),
    "tarot": (4, {"deals": 1}),
    "fyrmanswhist": (4, {"target": 2}),
    "japansk-whist": (2, {"target": 3}),
    "fyrtioett": (4, {"target": 11}),
    "whist": (4, {"variant": "short"}),
    "femkort": (2, {"rounds": 1}),
    "norrlandsknack": (3, {"max_deals": 2}),
    "braus": (4, {"target": 2}),
    "priffe": (4, {"match_end": "deals", "deals": 1}),
    "femtio": (2, {"target": 10}),
    "gurka": (3, {"limit": 10, "buy_ins": 0}),
    "bondtolva": (2, {}),
    "trettioett": (2, {"lives": 2}),
    "rodskagg": (3, {"max_deals": 2}),
    "femhundra": (3, {}),
    "president": (3, {"target": 2}),
    "fan-tan": (3, {"free": True}),
    "snipp-snapp-snorum": (2, {"jig": True}),
    "stopp": (3, {"capital": 3, "per_card": 2}),
    "vandatta": (5, {"limit": 20}),
    "vandtia": (3, {"play_out": True}),
    "kasino": (2, {"target": 6, "deal_limit": 1}),
    "svalta-rav": (2, {"variant": "second", "round_limit": 20}),
    "krypkasino": (2, {}),
    "muggins": (3, {"turn_limit": 40}),
    "stortok": (3, {"deals": 2}),
    "lange-laban": (3, {}),
    "skitgubbe": (3, {"quiet_limit": 40}),
    "svarte-petter": (3, {}),
    "rummy": (5, {"jokers": True}),
    "lojliga-familjerna": (3, {}),
    "finns-i-sjon": (2, {}),
    "kom-ihag": (2, {}),
    "tvartom-kom-ihag": (3, {"scoring": "points"}),
    "fusk": (3, {"move_limit": 30}),
    "poker": (3, {"deals": 2}),
    "stotpoker": (4, {"deals": 2, "soko": True}),
    "chicago": (3, {"target": 24}),
    "jazz": (3, {}),
    "blackjack": (3, {"rounds": 2, "packs": 1}),
    "hej-knekt": (3, {"turn_limit": 20}),
    "gris": (4, {}),
}
SERVICE_EVENTS = {"MatchSeatJoinedEvent", "MatchTurnTimedOutEvent", "MatchBotMovedEvent"}


def fail(message):
    raise SystemExit(f"python client: {message}")


def pascal(game):
    return "".join(word.capitalize() for word in game.replace("_", "-").split("-"))


def expect(value, kind):
    if not isinstance(value, kind):
        fail(f"expected {kind.__name__}, got {value!r}")
    return value


def same(sent, back, where):
    """`back` (the parsed object serialised again) says what the service `sent`: the same keys and
    values, times compared as instants (a client may write the fraction of a second its way)."""
    if isinstance(sent, dict) and isinstance(back, dict):
        if sent.keys() != back.keys():
            fail(f"{where}: sent keys {sorted(sent)}, serialised back {sorted(back)}")
        for key in sent:
            same(sent[key], back[key], f"{where}.{key}")
    elif isinstance(sent, list) and isinstance(back, list):
        if len(sent) != len(back):
            fail(f"{where}: {len(sent)} items sent, {len(back)} serialised back")
        for i, (a, b) in enumerate(zip(sent, back)):
            same(a, b, f"{where}[{i}]")
    elif sent != back and not same_instant(sent, back):
        fail(f"{where}: sent {sent!r}, serialised back {back!r}")


def same_instant(a, b):
    if not (isinstance(a, str) and isinstance(b, str)):
        return False
    try:
        return datetime.datetime.fromisoformat(a) == datetime.datetime.fromisoformat(b)
    except ValueError:
        return False


def declared(value, where):
    """Every field of every parsed object is one the document declares."""
    extra = getattr(value, "additional_properties", None)
    if extra:
        fail(f"{where} ({type(value).__name__}): fields the document does not declare: {sorted(extra)}")
    if hasattr(value, "__attrs_attrs__"):
        for field in value.__attrs_attrs__:
            if field.name != "additional_properties":
                declared(getattr(value, field.name), f"{where}.{field.name}")
    elif isinstance(value, (list, tuple)):
        for i, item in enumerate(value):
            declared(item, f"{where}[{i}]")
    elif isinstance(value, dict):
        for key, item in value.items():
            declared(item, f"{where}.{key}")


def read(response, kind, where):
    """The parsed answer, checked against the JSON the service sent."""
    if response.status_code >= 300:
        fail(f"{where}: {response.status_code} {response.content[:300]!r}")
    parsed = expect(response.parsed, kind)
    same(json.loads(response.content), parsed.to_dict(), where)
    declared(parsed, where)
    return parsed


class Game:
    """What a game's own classes are called: `TrettioettTable`, `Trettioett...Command`."""

    def __init__(self, game, others):
        self.id = game
        self.prefix = pascal(game)
        # A longer name that starts with this one (`Whist`, `JapanskWhist` does not) is another game's.
        self.longer = [pascal(g) for g in others if pascal(g) != self.prefix and pascal(g).startswith(self.prefix)]

    def own(self, value, suffix, where):
        name = type(value).__name__
        if name != f"{self.prefix}{suffix}":
            fail(f"{where}: a {self.id} {suffix} parsed as {name}")

    def member(self, value, suffix, where, shared=()):
        name = type(value).__name__
        mine = name.startswith(self.prefix) and not any(name.startswith(p) for p in self.longer)
        if not ((mine and name.endswith(suffix)) or name in shared):
            fail(f"{where}: a {self.id} {suffix.lower()} parsed as {name}")

    def view(self, view, where):
        self.own(view, "MatchView", where)
        self.own(view.table, "Table", f"{where}.table")
        self.own(view.options, "Options", f"{where}.options")

    def events(self, events, where):
        for i, event in enumerate(events):
            self.own(event, "EventOut", f"{where}[{i}]")
            self.member(event.data, "Event", f"{where}[{i}].data", SERVICE_EVENTS)


def refusal(client, match_id, offered, chosen, version, rules, game):
    """The same command with a card it may not play now is refused, naming a rule of the rulebook."""
    cards = {m.card for m in offered if type(m) is type(chosen)}
    other = next(c for c in ("2C", "3D", "4H", "5S", "9C", "AC", "AS", "KH") if c not in cards)
    wrong = type(chosen).from_dict({**chosen.to_dict(), "card": other})
    answer = make_move.sync_detailed(client=client, id=match_id, body=MoveRequest(move=wrong, expected_version=UNSET if version is None else version))
    if answer.status_code != 422:
        fail(f"{game}: {wrong.to_dict()} was answered {answer.status_code}")
    problem = expect(answer.parsed, Problem)
    same(json.loads(answer.content), problem.to_dict(), f"{game}: refusal")
    if problem.code != "rule-violation" or problem.rule not in rules:
        fail(f"{game}: a refusal that names no rule of the rulebook: {problem!r}")
    return problem.rule


def play(client, summary, games, rules, rng):
    game = Game(summary.id, games)
    players, options = SETUPS.get(summary.id) or fail(f"no short match set up for {summary.id}: add it to SETUPS")
    if not summary.min_players <= players <= summary.max_players:
        fail(f"{summary.id} is played by {summary.min_players} to {summary.max_players}, not {players}")
    creation = getattr(models, f"{game.prefix}CreateMatch")
    game_id = getattr(models, f"{game.prefix}CreateMatchGame")(summary.id)
    seats = [MeSeat(kind=MeSeatKind.ME)] + [
        BotSeat(kind=BotSeatKind.BOT, level=BotLevel.RANDOM) for _ in range(players - 1)
    ]
    chosen_options = getattr(models, f"{game.prefix}Options").from_dict(options)
    body = creation(game=game_id, seats=seats, options=chosen_options)
    view = read(create_match.sync_detailed(client=client, body=body), object, f"{summary.id}: created")
    game.view(view, f"{summary.id}: created")
    match_id = view.id
    if not options.items() <= view.options.to_dict().items():
        fail(f"{summary.id}: the match's options {view.options.to_dict()} lost some of {options}")

    moves = 0
    dry_run = False
    refused = None
    waits = 0
    while view.phase != MatchPhase.FINISHED:
        legal = read(legal_moves.sync_detailed(client=client, id=match_id), object, f"{summary.id}: legal moves")
        game.own(legal, "LegalMoves", f"{summary.id}: legal moves")
        if not legal.moves and summary.clocked and waits < 200:
            # A game on the server's clock lists every seat that may react, and its bots react
            # after their delays: wait for them.
            waits += 1
            time.sleep(0.1)
            view = read(get_match.sync_detailed(client=client, id=match_id), object, f"{summary.id}: waiting")
            continue
        if not legal.moves:
            fail(f"{summary.id}: seat {legal.seat} has no legal move in phase {view.phase}")
        waits = 0
        for i, move in enumerate(legal.moves):
            game.member(move, "Command", f"{summary.id}: legal move {i}")
        chosen = rng.choice(legal.moves)
        if not dry_run:
            verdict = read(
                make_move.sync_detailed(client=client, id=match_id, body=MoveRequest(move=chosen, dry_run=True)),
                DryRun,
                f"{summary.id}: dry run",
            )
            if not verdict.legal:
                fail(f"{summary.id}: a legal move was judged illegal: {verdict!r}")
            dry_run = True
        if refused is None and isinstance(getattr(chosen, "card", None), str):
            refused = refusal(
                client, match_id, legal.moves, chosen, None if summary.clocked else view.version, rules, summary.id
            )
        # A reaction goes without a version: a bot's may land first, and the service orders them.
        version = UNSET if summary.clocked else f'"{view.version}"'
        answer = make_move.sync_detailed(client=client, id=match_id, body=MoveRequest(move=chosen), if_match=version)
        result = read(answer, MoveResult, f"{summary.id}: move {moves}")
        game.view(result.match, f"{summary.id}: move {moves}: match")
        game.events(result.events, f"{summary.id}: move {moves}: events")
        view = result.match
        moves += 1
        if moves > 3000:
            fail(f"{summary.id}: the match did not end within 3000 moves")

    final = read(get_match.sync_detailed(client=client, id=match_id), object, f"{summary.id}: final")
    game.view(final, f"{summary.id}: final")
    if final.phase != MatchPhase.FINISHED or final.outcome is None:
        fail(f"{summary.id}: the finished match has no outcome: {final!r}")

    events = []
    while True:
        page = read(
            match_events.sync_detailed(client=client, id=match_id, since=len(events), limit=1000),
            EventPage,
            f"{summary.id}: events",
        )
        game.events(page.events, f"{summary.id}: events")
        events.extend(page.events)
        if len(events) >= page.version:
            break
    if not any(type(e.data).__name__ == f"{game.prefix}MatchCreatedEvent" for e in events):
        fail(f"{summary.id}: the feed has no match.created of the game's own")

    steps_read = 0
    for deal in range(1, final.deal_number + 1):
        record = read(deal_record.sync_detailed(client=client, id=match_id, deal=deal), object, f"{summary.id}: deal {deal}")
        game.own(record, "DealRecord", f"{summary.id}: deal {deal}")
        game.own(record.end, "Table", f"{summary.id}: deal {deal}: end")
        game.events(record.events, f"{summary.id}: deal {deal}: events")
        for at in sorted({0, len(record.events) // 2, len(record.events)}):
            where = f"{summary.id}: deal {deal} step {at}"
            step = read(deal_replay.sync_detailed(client=client, id=match_id, deal=deal, at=at), object, where)
            game.own(step, "ReplayStep", where)
            game.own(step.table, "Table", f"{where}: table")
            if step.event is not None:
                game.events([step.event], f"{where}: event")
            steps_read += 1

    # The export is ndjson, lines of text to a client: each line is an event of the match's game.
    exported = export.sync_detailed(client=client, id=match_id)
    if exported.status_code != 200:
        fail(f"{summary.id}: export: {exported.status_code}")
    event_out = getattr(models, f"{game.prefix}EventOut")
    lines = [json.loads(line) for line in exported.content.decode().splitlines() if line.strip()]
    for i, line in enumerate(lines):
        parsed = event_out.from_dict(line)
        same(line, parsed.to_dict(), f"{summary.id}: export line {i}")
        declared(parsed, f"{summary.id}: export line {i}")
    return moves, len(events), steps_read, refused


def main():
    base = sys.argv[2]
    only = set(sys.argv[3:])
    anonymous = Client(base_url=base, raise_on_unexpected_status=True)
    token = expect(guest.sync(client=anonymous, body=GuestRequest(name="Python")), GuestToken)
    client = AuthenticatedClient(base_url=base, token=token.token, raise_on_unexpected_status=True)
    catalog = [expect(g, GameSummary) for g in list_games.sync(client=anonymous)]
    playable = [g for g in catalog if g.status.value == "playable"]
    games = [g.id for g in playable]
    rng = random.Random(36)
    for summary in playable:
        if only and summary.id not in only:
            continue
        rulebook = expect(get_rules.sync(client=anonymous, game=summary.id), Rulebook)
        rules = {rule.id for section in rulebook.sections for rule in section.rules}
        moves, events, steps, refused = play(client, summary, games, rules, rng)
        print(
            f"python client: {summary.id}: {moves} moves, {events} events, {steps} replay steps, all of its own "
            f"types{f'; a wrong card refused by {refused}' if refused else ''}"
        )
    print(f"python client: {len(playable)} games played through the generated client")


main()
