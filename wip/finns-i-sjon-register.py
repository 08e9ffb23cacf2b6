def edit(p, old, new, count=1):
    s=open(p).read()
    assert old in s, (p, old)
    s=s.replace(old,new,count)
    open(p,'w').write(s)
import os
os.chdir('/work/wt-asking')
edit('engine/src/games/mod.rs',"pub mod femtio;\n","pub mod femtio;\npub mod finns_i_sjon;\n")
edit('engine/src/games/mod.rs',"        erase(lojliga_familjerna::LojligaFamiljerna),\n","        erase(lojliga_familjerna::LojligaFamiljerna),\n        erase(finns_i_sjon::FinnsISjon),\n")
edit('tests/contract/play_all.py','    "lojliga-familjerna": (3, {}),\n','    "lojliga-familjerna": (3, {}),\n    "finns-i-sjon": (2, {}),\n')
edit('tests/contract/play_all.ts','  "lojliga-familjerna": { game: "lojliga-familjerna", seats: seats(3), options: {} },\n','  "lojliga-familjerna": { game: "lojliga-familjerna", seats: seats(3), options: {} },\n  "finns-i-sjon": { game: "finns-i-sjon", seats: seats(2), options: {} },\n')
for p in ['engine/tests/bots.rs','engine/benches/bots.rs']:
    edit(p,'femtio::Femtio,','femtio::Femtio, finns_i_sjon::FinnsISjon,')
edit('engine/tests/bots.rs','    compare(&LojligaFamiljerna);\n','    compare(&LojligaFamiljerna);\n    compare(&FinnsISjon);\n')
edit('engine/benches/bots.rs','    bench_strong(c, &LojligaFamiljerna, &mut tails);\n','    bench_strong(c, &LojligaFamiljerna, &mut tails);\n    bench_strong(c, &FinnsISjon, &mut tails);\n')
edit('api/src/routes/replay/replay.js','''    asking_stopped: (d) =>''','''    said_finns_i_sjon: (d) => t(`${seatName(d.seat)} har inga ${rankWord(d.rank, 0)}: ”Finns i sjön!”`, `${seatName(d.seat)} has no ${rankWord(d.rank, 1)}: "Go fish!"`),
    drew_from_sea: (d) => t(`${seatName(d.seat)} tar ${d.card ? cardName(d.card) : "ett kort"} från plats ${d.position} i sjön.`, `${seatName(d.seat)} takes ${d.card ? cardName(d.card) : "a card"} from place ${d.position} of the sea.`),
    refill_started: (d) => t(`${seatName(d.seat)} har inga kort kvar och tar ${d.cards} ur sjön.`, `${seatName(d.seat)} has no cards left and takes ${d.cards} from the sea.`),
    out_of_play: (d) => t(`${seatName(d.seat)} har inga kort och sjön är tom: ute.`, `${seatName(d.seat)} has no cards and the sea is empty: out.`),
    asking_stopped: (d) =>''')
edit('api/src/routes/replay/replay.js','''    asking: ["frågande", "asking"],''','''    asking: ["frågande", "asking"],
    fishing: ["drar ur sjön", "drawing from the sea"],
    refilling: ["fyller på handen", "refilling the hand"],''')
edit('README.md','**Skitgubbe** and **Löjliga familjerna**.','**Skitgubbe**, **Löjliga familjerna** and **Finns i sjön**.')
edit('docs/engine.md','| finns-i-sjon | asking, quartets / knowledge, layout | S | hands; sea (nobody) | planned |','| finns-i-sjon | asking, quartets / asking, layout (`Positions`) | S (ask; draw a sea place after "Finns i sjön" and for each card of a refill); Auto answer, hand-over, quartets laid, refill start, going out, turn passed | hands (handed-over cards public while held); sea (nobody); a sea card drawn (the drawer) | playable |')
edit('docs/engine.md','''- *Odd rule*: Svarte Petter needs''','''- *Finns i sjön* (`games/finns_i_sjon.rs`): one deal, seven cards each, the rest the sea
  (`layout::Positions`, places numbered from 0 as the cards lie in the pack). An ask answered no
  is `said_finns_i_sjon`; the asker then draws a place of his choice (`draw`, `drew_from_sea`,
  the card redacted for the others) and the turn passes to the seat that said it, whatever was
  drawn. A hand run empty starts a refill (`refill_started`: seven or what is left) drawn place
  by place by its holder's commands; with the sea empty the seat is `out_of_play` and its
  quartets still count. House rules (`finns-i-sjon.house`): seat 0 deals one deal, forehand
  first (`one-deal`); places numbered in pack order (`deal-singly`); quartets dealt laid at
  once (`quartet-at-deal`); "Finns i sjön" with an empty sea passes the turn with no draw
  (`empty-sea`); an out seat is passed over clockwise, and nobody else holding cards means every
  card is already in quartets (`skip`); 200 no's in a row with nothing drawn stop the deal
  (`stall`). Bots as Löjliga familjerna's; the sea place drawn is random (basic) or the first.
- *Odd rule*: Svarte Petter needs''')
edit('docs/bots.md','| Every game still to come, until it has its own |','| Finns i sjön | yes | asks for the rank it holds most of, of a random seat holding cards; draws a random place of the sea | `asking::remembering_ask` as in Löjliga familjerna (a card drawn unseen wipes what the table knew its drawer lacked); draws the sea's first place (all are alike to it); no search |\n| Every game still to come, until it has its own |')
print("ok")
