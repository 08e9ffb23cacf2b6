//! The rulebook and the documented options.

use super::*;

impl PolsktPass {
    pub(super) fn book(&self) -> Rulebook {
        Rulebook {
            game: "polskt-pass",
            sections: vec![
                core::section(),
                rules::section(
                    "polskt-pass.deck",
                    "Kortleken",
                    "The pack",
                    &[
                        (rule::PLAYERS, "Tre, fyra eller fem spelare; spelet är bäst med fyra.", "Three, four or five players; four is best."),
                        (rule::PACK, "Man spelar med 24 kort, nior till ess. Är man fem tas åttorna med, så att leken har 28 kort.", "The pack has 24 cards, nines to aces. With five players the eights go in too, for 28 cards."),
                        (rule::JACKS, "De fyra knektarna är alltid trumf, högst av alla: klöver knekt, spader knekt, hjärter knekt, ruter knekt.", "The four jacks are always trumps, the highest of all: jack of clubs, of spades, of hearts, of diamonds."),
                        (rule::TRUMP_ORDER, "Efter knektarna kommer trumffärgens övriga kort: ess, kung, dam, tio, nio (och åtta).", "Below the jacks come the rest of the trump suit: ace, king, queen, ten, nine (and eight)."),
                        (rule::SIDE_ORDER, "I de andra färgerna går ordningen ess, kung, dam, tio, nio (och åtta).", "In the other suits the order is ace, king, queen, ten, nine (and eight)."),
                    ],
                ),
                rules::section(
                    "polskt-pass.stake",
                    "Insats",
                    "Stake",
                    &[
                        (rule::STAKE, "I början av varje giv lägger givaren den överenskomna insatsen i potten.", "At the start of every deal the dealer puts the agreed stake into the pot."),
                        (rule::POT_CARRIES, "Det som ligger kvar i potten från tidigare givar stannar där; insatsen läggs till det.", "Whatever the pot holds from earlier deals stays there; the stake is added to it."),
                    ],
                ),
                rules::section(
                    "polskt-pass.deal",
                    "Given",
                    "The deal",
                    &[
                        (rule::DEALER_ROTATES, "Given och spelet går medsols: efter varje giv, hur den än slutade, ger spelaren till vänster.", "Dealing and play go clockwise: after every deal, however it ended, the player on the left deals."),
                        (rule::CUT, "Spelaren till höger om givaren kuperar och visar bottenkortet i den avlyfta delen för alla.", "The player on the dealer's right cuts and shows everyone the bottom card of the part lifted off."),
                        (rule::CUT_JACK, "Är det visade kortet en knekt måste den som kuperade ta det; annars ligger det kvar i leken.", "If the card shown is a jack, the cutter must take it; otherwise it stays in the pack."),
                        (rule::THREE_THEN_TWO, "Givaren delar ut fem kort var med början till vänster: först tre kort var, sedan två kort var.", "The dealer gives five cards each starting on the left: three each first, then two each."),
                        (rule::TURNED_CARD, "Nästa kort i leken vänds upp så att alla ser det.", "The next card of the pack is turned face up for everyone to see."),
                        (rule::MUST_TAKE, "Givaren måste ta det uppvända kortet om det är en knekt eller om den som kuperade tog ett kort.", "The dealer must take the turned card if it is a jack or if the cutter took a card."),
                        (rule::MAY_TAKE_ACE, "Är det uppvända kortet ett ess och tog den som kuperade inget kort, väljer givaren själv om esset ska tas.", "If the turned card is an ace and the cutter took no card, the dealer chooses whether to take the ace."),
                        (rule::TURNED_STAYS, "I alla andra fall ligger det uppvända kortet kvar på bordet.", "In every other case the turned card stays on the table."),
                        (rule::REST_UNUSED, "Resten av leken används inte i given utan läggs åt sidan.", "The rest of the pack is not used in the deal and is put aside."),
                        (rule::DISCARD, "Den som har sex kort, givaren och kanske den som kuperade, lägger bort ett kort dolt före första utspelet.", "Whoever holds six cards, the dealer and perhaps the cutter, puts one card away face down before the first lead."),
                    ],
                ),
                rules::section(
                    "polskt-pass.bidding",
                    "Trumf och budgivning",
                    "Trumps and bidding",
                    &[
                        (rule::DEALER_TOOK, "Tog givaren det uppvända kortet, frivilligt eller av tvång, blir det ingen budgivning: dess färg är trumf och givaren är spelförare.", "If the dealer took the turned card, by choice or not, there is no bidding: its suit is trumps and the dealer declares."),
                        (rule::TWO_DECLARERS, "Tog både givaren och den som kuperade ett kort är båda spelförare och spelar var för sig; bara så kan det bli två spelförare.", "If both the dealer and the cutter took a card, both declare and play independently; this is the only way to have two declarers."),
                        (rule::ROUND_ONE, "Annars börjar förhand, och sedan går turen medsols: i första rundan säger man om man vill vara spelförare med den uppvända färgen som trumf, eller passar.", "Otherwise forehand speaks first, then the turn passes clockwise: in the first round each says whether to declare with the turned suit as trumps, or passes."),
                        (rule::ROUND_TWO, "Passar alla följer en andra runda där man anger en trumffärg och blir spelförare, eller säger \"wieder\" och passar.", "If all pass, a second round follows in which each names a trump suit and declares, or says \"wieder\" and passes."),
                        (rule::FOREHAND_ANY_SUIT, "I andra rundan får förhand välja vilken färg som helst, även den uppvända.", "In the second round forehand may choose any suit, the turned suit included."),
                        (rule::OTHERS_OTHER_SUITS, "Övriga spelare får i andra rundan bara välja bland de tre färger som inte vändes upp.", "In the second round the other players may choose only among the three suits not turned."),
                        (rule::FIRST_ENDS, "Så fort någon blir spelförare är budgivningen slut.", "As soon as someone declares, the bidding is over."),
                        (rule::ALL_PASS, "Passar alla två gånger är given slut utan betalning, och turen att ge går vidare; den nya givaren sätter en ny insats.", "If everyone passes twice the deal ends with no payment and the deal passes on; the new dealer stakes again."),
                    ],
                ),
                rules::section(
                    "polskt-pass.play",
                    "Spelet",
                    "Play",
                    &[
                        (rule::FIRST_LEAD, "Förhand spelar ut till första sticket.", "Forehand leads to the first trick."),
                        (rule::FOLLOW_SUIT, "Man måste bekänna färg om man kan.", "You must follow suit if you can."),
                        (rule::VOID, "Kan man inte bekänna får man lägga vilket kort som helst.", "If you cannot follow suit you may play any card."),
                        (rule::TRICK_WINNER, "Finns trumf i sticket tar högsta trumfen det, annars högsta kortet i utspelsfärgen.", "If the trick holds a trump the highest trump takes it, otherwise the highest card of the suit led."),
                        (rule::WINNER_LEADS, "Den som tar ett stick spelar ut till nästa.", "Whoever takes a trick leads to the next."),
                        (rule::LA_VOLA, "Den som tagit de två första sticken kan säga \"la vola\" när den spelar ut till det tredje, och spelar då om att ta alla fem.", "Whoever took the first two tricks may say \"la vola\" when leading to the third, and then plays to take all five."),
                    ],
                ),
                rules::section(
                    "polskt-pass.win",
                    "Vem vinner",
                    "Who wins",
                    &[
                        (rule::THREE_TRICKS, "Den som tar minst tre stick vinner sticktagningen.", "Whoever takes at least three tricks wins the tricks."),
                        (rule::FIRST_TO_TWO, "Tar ingen tre stick vinner den som först kom upp i två.", "If nobody takes three tricks, whoever first reached two wins."),
                        (rule::NO_WINNER, "Är man fem och tar alla ett stick var finns ingen vinnare; spelföraren har ändå misslyckats.", "With five players each taking one trick there is no winner; the declarer has still failed."),
                        (rule::LA_VOLA_ONLY, "När la vola är sagt gäller inte längre spelförarens åtagande: man spelar bara om la vola.", "Once la vola is said the declarer's undertaking no longer counts: the deal is played for la vola alone."),
                        (rule::LA_VOLA_LOST, "Förlorar den som sagt la vola ett stick avbryts given genast och räknas som rundpass: ingen betalar, och turen att ge går vidare.", "If the player who said la vola loses a trick the deal stops at once and counts as a round pass: nobody pays, and the deal passes on."),
                    ],
                ),
                rules::section(
                    "polskt-pass.payment",
                    "Betalning",
                    "Payment",
                    &[
                        (rule::AMOUNT, "Man spelar om potten plus högst en bet, en straffsats som en spelförare satt i en tidigare giv.", "A deal is played for the pot plus at most one bet, a forfeit a declarer paid in an earlier deal."),
                        (rule::LEAST_BET, "Finns två eller fler betar när given börjar spelar man om den minst värda; de andra väntar till kommande givar.", "If two or more bets are waiting when the deal starts, it is played for the least valuable; the others wait for later deals."),
                        (rule::WINNER_TAKES, "Den som vinner given, spelförare eller inte, tar potten och beten man spelade om.", "Whoever wins the deal, declarer or not, takes the pot and the bet played for."),
                        (rule::LA_VOLA_PAID, "Den som vinner la vola tar det man spelade om och får dessutom lika mycket av var och en av de andra.", "Whoever makes la vola takes what was played for and also gets as much from each of the others."),
                        (rule::FAILED_DECLARER, "Vinner någon annan än spelföraren har spelföraren misslyckats och sätter bet: lika mycket som man spelade om.", "If anyone but the declarer wins, the declarer has failed and pays a bet: as much as was played for."),
                        (rule::BOTH_FAIL, "Med två spelförare misslyckas minst den ena; misslyckas båda sätter de en bet var.", "With two declarers at least one fails; if both fail, each pays a bet."),
                        (rule::NO_WINNER_BET, "Finns ingen vinnare ligger potten och betarna kvar till nästa giv, men spelföraren sätter ändå bet.", "If there is no winner the pot and the bets stay for the next deal, but the declarer still pays a bet."),
                        (rule::BETS_APART, "Varje bet hålls åtskild från potten och från andra betar tills en giv spelas om den.", "Each bet is kept apart from the pot and from other bets until a deal is played for it."),
                    ],
                ),
                rules::section(
                    "polskt-pass.variant",
                    "Överenskommelser",
                    "Agreements",
                    &[
                        (rule::DOUBLE_BET, "Tillval: en misslyckad spelförares bet är dubbla beloppet man spelade om.", "Option: a failed declarer's bet is twice the amount played for."),
                        (rule::MERGE_BETS, "Tillval: misslyckas två spelförare i samma giv slås deras betar ihop till en enda, dubbelt så stor.", "Option: when two declarers fail in the same deal, their bets are merged into a single bet twice the size."),
                    ],
                ),
                rules::house_rules(
                    "polskt-pass.house",
                    &[
                        (rule::THREE_PLAYERS, "Tre spelare följer fyrmansreglerna oförändrade, med 24 kort.", "Three players follow the four-player rules unchanged, with 24 cards."),
                        (rule::FIRST_DEALER, "Plats 0 ger i första given.", "Seat 0 deals the first deal."),
                        (rule::CUT_RANGE, "Vid kuperingen lyfts minst tre kort och minst tre blir kvar; den avlyfta delen läggs under resten, så det visade kortet hamnar sist i leken och delas inte ut.", "The cut lifts at least three cards and leaves at least three; the lifted part goes under the rest, so the card shown ends at the bottom of the pack and is not dealt."),
                        (rule::JACKS_FOLLOW_TRUMPS, "Eftersom knektarna är trumf hör de till trumffärgen när man bekänner, inte till sin tryckta färg.", "Since the jacks are trumps, they belong to the trump suit for following suit, not to their printed suit."),
                        (rule::DISCARD_ANY, "Vilket kort som helst får läggas bort, även det man just tog; givaren och den som kuperade lägger bort i valfri ordning. Det bortlagda kortet visas bara för den som lade bort det, och i givens protokoll när given är slut.", "Any card may be put away, even the one just taken; dealer and cutter put away in either order. The card is shown only to whoever put it away, and in the deal's record once the deal is over."),
                        (rule::REST_HIDDEN, "Korten som inte delas ut visas aldrig, inte heller i protokollet efteråt; bara kortet som visades vid kuperingen är känt.", "The cards not dealt are never shown, not even in the record afterwards; only the card shown at the cut is known."),
                        (rule::ALL_TRICKS, "Alla fem sticken spelas även när vinnaren redan är klar, utom när la vola förloras.", "All five tricks are played even when the winner is already settled, except when la vola is lost."),
                        (rule::EQUAL_BETS, "Är två väntande betar lika mycket värda spelar man om den äldsta.", "If two waiting bets are worth the same, the deal is played for the older."),
                        (rule::MATCH_LENGTH, "Ett parti är ett överenskommet antal varv: var och en ger lika många gånger.", "A match is an agreed number of rounds: everyone deals the same number of times."),
                        (rule::SHARE_OUT, "När partiet är slut delas det som ligger i potten och i betarna lika mellan spelarna; det som inte går jämnt ut går ett i taget till spelarna med början till vänster om sista givaren.", "When the match is over, what the pot and the bets hold is shared equally between the players; what does not share evenly goes one each to the players starting on the last dealer's left."),
                        (rule::TIES_SHARE, "Har flera spelare samma högsta saldo när partiet är slut delar de på segern.", "If several players share the highest balance at the end, they share the win."),
                        (rule::TABLE_LIMIT, "Ingen bet och ingen betalning för la vola är större än bordets tak på 1 000 000 000 000, så att alla summor förblir exakta.", "No bet and no la vola payment is larger than the table limit of 1,000,000,000,000, so every sum stays exact."),
                    ],
                ),
            ],
        }
    }

    pub(super) fn option_docs(&self) -> Vec<OptionDoc> {
        let d = Options::default();
        vec![
            OptionDoc {
                name: "stake",
                default: json!(d.stake),
                sv: "Insatsen som givaren lägger i potten i början av varje giv (1 till 1 000 000).",
                en: "The stake the dealer puts into the pot at the start of every deal (1 to 1,000,000).",
            },
            OptionDoc {
                name: "double_bet",
                default: json!(d.double_bet),
                sv: "En misslyckad spelförares bet är dubbla beloppet man spelade om, i stället för lika mycket.",
                en: "A failed declarer's bet is twice the amount played for, instead of the same amount.",
            },
            OptionDoc {
                name: "merge_bets",
                default: json!(d.merge_bets),
                sv: "Misslyckas två spelförare i samma giv slås deras betar ihop till en enda dubbelt så stor bet.",
                en: "When two declarers fail in the same deal, their bets are merged into one bet twice the size.",
            },
            OptionDoc {
                name: "rounds",
                default: json!(d.rounds),
                sv: "Hur många gånger var och en ger innan partiet är slut (1 till 10).",
                en: "How many times each player deals before the match ends (1 to 10).",
            },
        ]
    }
}
