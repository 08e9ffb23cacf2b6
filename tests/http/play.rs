//! Playing whole matches over HTTP, as an app would.

use kortbord_e2e::TestApp;
use serde_json::Value;

/// Picks a move from the legal ones, seeing what the acting seat sees.
pub type Chooser = fn(&TestApp, &Value, &[Value]) -> Value;

pub fn first_move(_: &TestApp, _: &Value, moves: &[Value]) -> Value {
    moves[0].clone()
}

/// Plays until the match is over, moving for whichever held seat is to act. Returns the final
/// view and how many moves were made.
pub async fn play_out(app: &TestApp, token: &str, id: &str, choose: Chooser) -> (Value, usize) {
    let mut moves_made = 0;
    loop {
        let view = app.view(token, id, None).await;
        if view["phase"] == "finished" {
            return (view, moves_made);
        }
        assert!(moves_made < 20_000, "the match does not end");
        let seat = view["to_act"][0].as_u64().expect("someone is to act") as usize;
        let view = app.view(token, id, Some(seat)).await;
        let moves = app.legal_moves(token, id, seat).await;
        assert!(!moves.is_empty(), "seat {seat} is to act but has no legal move: {view}");
        let command = choose(app, &view, &moves);
        let r = app.play(token, id, seat, &command).await;
        assert_eq!(r.status.as_u16(), 200, "move {command} refused: {}", r.body);
        moves_made += 1;
    }
}

/// Checks every finished deal's record: it replays step by step to the same end.
pub async fn check_deal_records(app: &TestApp, id: &str, deals: u64) {
    for k in 1..=deals {
        let record = app.get(&format!("/v1/matches/{id}/deals/{k}")).send().await;
        assert_eq!(record.status.as_u16(), 200, "deal {k}: {}", record.body);
        let steps = record.body["events"].as_array().unwrap().len();
        assert!(steps > 0);
        let last = app.get(&format!("/v1/matches/{id}/deals/{k}/replay?at={steps}")).send().await;
        assert_eq!(last.status.as_u16(), 200, "{}", last.body);
        assert_eq!(last.body["table"], record.body["end"], "deal {k}: replay and record disagree");
        let start = app.get(&format!("/v1/matches/{id}/deals/{k}/replay?at=0")).send().await;
        assert_eq!(start.status.as_u16(), 200);
        assert!(start.body["event"].is_null());
        let beyond = app.get(&format!("/v1/matches/{id}/deals/{k}/replay?at={}", steps + 1)).send().await;
        beyond.assert_problem(404, "invalid-step");
    }
}
