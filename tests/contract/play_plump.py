"""Plays a whole Plump match through the Python client generated from openapi/openapi.json.

Only the generated client is used: its functions for the paths, its models for every body,
none of them parsed or cast by hand. Usage: python play_plump.py <package dir> <base url>.
"""

import sys

sys.path.insert(0, sys.argv[1])

from kortbord_client import AuthenticatedClient, Client  # noqa: E402
from kortbord_client.api.auth import guest  # noqa: E402
from kortbord_client.api.games import get_rules  # noqa: E402
from kortbord_client.api.history import deal_record, deal_replay, match_events  # noqa: E402
from kortbord_client.api.matches import create_match, get_match, legal_moves, make_move  # noqa: E402
from kortbord_client.models import (  # noqa: E402
    BotSeat,
    CreateMatch,
    DealRecord,
    EventPage,
    GuestRequest,
    GuestToken,
    LegalMoves,
    MatchPhase,
    MatchView,
    MeSeat,
    MoveRequest,
    MoveResult,
    PlumpBidCommand,
    PlumpOptions,
    PlumpPlayCommand,
    PlumpTable,
    Problem,
    ReplayStep,
    Rulebook,
)
from kortbord_client.models.bot_seat_kind import BotSeatKind  # noqa: E402
from kortbord_client.models.me_seat_kind import MeSeatKind  # noqa: E402


def expect(value, kind):
    if not isinstance(value, kind):
        raise SystemExit(f"expected {kind.__name__}, got {value!r}")
    return value


def main() -> None:
    base = sys.argv[2]
    anonymous = Client(base_url=base, raise_on_unexpected_status=True)
    token = expect(guest.sync(client=anonymous, body=GuestRequest(name="Python")), GuestToken)
    client = AuthenticatedClient(base_url=base, token=token.token, raise_on_unexpected_status=True)

    rulebook = expect(get_rules.sync(client=anonymous, game="plump"), Rulebook)
    rule_ids = {rule.id for section in rulebook.sections for rule in section.rules}

    seats = [MeSeat(kind=MeSeatKind.ME), BotSeat(kind=BotSeatKind.BOT), BotSeat(kind=BotSeatKind.BOT)]
    options = PlumpOptions(last_bidder_restricted=True)
    view = expect(create_match.sync(client=client, body=CreateMatch(game="plump", seats=seats, options=options)), MatchView)
    match_id = view.id

    moves_made = 0
    refused = False
    while view.phase != MatchPhase.FINISHED:
        legal = expect(legal_moves.sync(client=client, id=match_id), LegalMoves)
        if not legal.moves:
            raise SystemExit(f"seat {legal.seat} has no legal move in phase {view.phase}")
        chosen = legal.moves[moves_made % len(legal.moves)]
        if not isinstance(chosen, (PlumpBidCommand, PlumpPlayCommand)):
            raise SystemExit(f"a Plump match offered {chosen!r}")
        if not refused and isinstance(chosen, PlumpPlayCommand):
            # A card the seat does not hold (or may not play) is refused with the rule it breaks.
            offered = {m.card for m in legal.moves if isinstance(m, PlumpPlayCommand)}
            other = next(c for c in ("2C", "3D", "4H", "5S", "AC", "AS") if c not in offered)
            answer = make_move.sync(
                client=client,
                id=match_id,
                body=MoveRequest(move=PlumpPlayCommand(type_=chosen.type_, card=other), expected_version=view.version),
            )
            problem = expect(answer, Problem)
            if problem.code != "rule-violation" or problem.rule not in rule_ids:
                raise SystemExit(f"a refusal that names no rule of the rulebook: {problem!r}")
            refused = True
        answer = make_move.sync(
            client=client, id=match_id, body=MoveRequest(move=chosen), if_match=f'"{view.version}"'
        )
        view = expect(answer, MoveResult).match
        moves_made += 1
        if moves_made > 2000:
            raise SystemExit("the match did not end within 2000 moves")

    final = expect(get_match.sync(client=client, id=match_id), MatchView)
    if final.phase != MatchPhase.FINISHED or final.outcome is None or not final.outcome.winners:
        raise SystemExit(f"the finished match has no winners: {final!r}")
    # The table is typed too: Plump's own view, with a score per seat.
    table = expect(final.table, PlumpTable)
    if len(table.scores) != 3 or max(table.scores) != table.scores[final.outcome.winners[0]]:
        raise SystemExit(f"the winner does not have the best score: {table.scores} {final.outcome.winners}")
    events = expect(match_events.sync(client=client, id=match_id, since=0, limit=1000), EventPage)
    record = expect(deal_record.sync(client=client, id=match_id, deal=1), DealRecord)
    step = expect(deal_replay.sync(client=client, id=match_id, deal=1, at=len(record.events)), ReplayStep)
    if step.steps != len(record.events):
        raise SystemExit("the replay and the record disagree on the deal's length")
    if not refused:
        raise SystemExit("no card was ever played")
    print(
        f"python client: plump match {match_id} finished after {moves_made} moves, "
        f"winners {final.outcome.winners}, {len(events.events)} events, a refusal named {problem.rule}"
    )


main()
