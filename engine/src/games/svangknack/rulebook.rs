//! The rulebook and the documented options.

use super::*;

impl Svangknack {
    pub(super) fn book(&self) -> Rulebook {
        Rulebook {
            game: "svangknack",
            sections: vec![
                core::section(),
                rules::section(
                    "svangknack.pack",
                    "Kortleken",
                    "The pack",
                    &[
                        (rule::PACK, "Man spelar med 36 kort: en vanlig lek utan tvåor, treor, fyror och femmor.", "The game uses 36 cards: a standard pack without the twos, threes, fours and fives."),
                        (rule::LOW_CARDS, "Med fler än sex spelare kan lägre valörer tas med så att leken räcker; vilken valör leken börjar på är ett tillval.", "With more than six players lower ranks may be added so that the pack suffices; the lowest rank is an option."),
                        (rule::RANKING, "Korten rangordnas som vanligt med esset högst och sexan (eller den lägsta valören) lägst.", "Cards rank in the usual order, ace high and the six (or the lowest rank in use) low."),
                    ],
                ),
                rules::section(
                    "svangknack.stakes",
                    "Insatser",
                    "Stakes",
                    &[
                        (rule::BASE_STAKE, "Spelarna kommer överens om en grundinsats innan partiet börjar (tillval, 1 om inget annat sägs).", "The players agree on a base stake before the match starts (an option, 1 unless said otherwise)."),
                        (rule::THREE_STAKES, "Före varje giv sätter förhand och de två spelarna närmast till vänster om förhand in en grundinsats var i potten, även när potten redan har ett innehåll.", "Before every deal forehand and the two players next on forehand's left each put one base stake into the pot, even when the pot already holds chips."),
                    ],
                ),
                rules::section(
                    "svangknack.deal",
                    "Given",
                    "Dealing",
                    &[
                        (rule::DEALER, "Spelet går medsols: förhand sitter till vänster om given, och given går vidare till vänster efter varje giv.", "Play goes clockwise: forehand sits on the dealer's left, and the deal passes to the left after every deal."),
                        (rule::THREE_EACH, "Given delar ut tre kort till varje spelare med början hos spelaren till vänster.", "The dealer gives every player three cards, starting with the player on the left."),
                        (rule::TALON, "Korten som blir kvar bildar talongen, med baksidan upp.", "The cards left over form the talon, face down."),
                    ],
                ),
                rules::section(
                    "svangknack.forced",
                    "Tvång",
                    "Forced deal",
                    &[
                        (rule::FORCED_WHEN, "Var potten tom innan insatserna sattes spelas given med tvång; partiets första giv är därför alltid tvång.", "If the pot was empty before the stakes went in, the deal is forced; the first deal of a match is therefore always forced."),
                        (rule::FORCED_TRUMPS, "I en tvångsgiv vänder given upp talongens översta kort, och dess färg är trumf.", "In a forced deal the dealer turns up the talon's top card, and its suit is trumps."),
                        (rule::FORCED_ALL_PLAY, "I en tvångsgiv är alla med i spelet; ingen svänger, passar eller kastar in.", "In a forced deal everyone plays; nobody swings, passes or throws in."),
                        (rule::FORCED_NO_BUYING, "I en tvångsgiv köper ingen kort.", "In a forced deal nobody buys cards."),
                        (rule::FORCED_LEAD, "I en tvångsgiv spelar förhand ut till första sticket.", "In a forced deal forehand leads to the first trick."),
                    ],
                ),
                rules::section(
                    "svangknack.swing",
                    "Svängen",
                    "Swinging",
                    &[
                        (rule::SWING_ORDER, "Finns det något i potten från förra given börjar förhand och kan svänga (knacka) eller passa; passar förhand får spelaren till vänster om förhand samma val.", "If the pot holds chips from the last deal, forehand may swing (knock) or pass first; if forehand passes, the player on forehand's left has the same choice."),
                        (rule::BOTH_PASS, "Passar båda slutar given utan spel: potten ligger kvar och given går vidare.", "If both pass the deal ends without play: the pot stays and the deal passes on."),
                        (rule::TURN_TWO, "När någon har svängt vänder given upp talongens två översta kort.", "Once someone has swung, the dealer turns up the talon's two top cards."),
                        (rule::CHOOSE_TRUMPS, "Den som svängde väljer trumf bland de två uppvända kortens färger; har båda samma färg blir den trumf utan val.", "The swinger chooses trumps from the suits of the two turned cards; if both have the same suit, that suit is trumps without a choice."),
                    ],
                ),
                rules::section(
                    "svangknack.join",
                    "Att gå med",
                    "Joining",
                    &[
                        (rule::JOIN_ORDER, "När trumf är bestämd säger de andra i tur och ordning, från spelaren till vänster om den som svängde, om de går med (knackar) eller passar; den som svängde är redan med.", "Once trumps are set, the others say in turn, from the swinger's left, whether they join (knock) or pass; the swinger is already in."),
                        (rule::FOLD, "Den som passar kastar in sina kort med baksidan upp och är inte med i given.", "A player who passes throws in the cards face down and sits the deal out."),
                        (rule::FORCED_JOIN, "Den som svängde får aldrig ta potten utan spel: har alla andra passat måste den som talar sist knacka (given om förhand svängde, förhand om spelaren till vänster om förhand svängde).", "The swinger may never take the pot without play: if all the others have passed, the last to speak must knock (the dealer if forehand swung, forehand if the player on forehand's left swung)."),
                    ],
                ),
                rules::section(
                    "svangknack.buy",
                    "Köpet",
                    "Buying",
                    &[
                        (rule::BUY_ORDER, "Efter en sväng får alla som är med köpa, med början hos den som svängde och vidare medsols.", "After a swing everyone in may buy, starting with the swinger and going clockwise."),
                        (rule::EXCHANGE, "Den som köper lägger bort valfritt antal kort, minst ett, och drar lika många från talongens topp; den som inte vill köpa säger sig vara nöjd.", "A buyer puts away any number of cards, at least one, and draws as many from the top of the talon; a player who does not want to buy stands."),
                        (rule::BUY_ONCE, "Var och en får bara en chans att köpa.", "Everyone gets only one chance to buy."),
                    ],
                ),
                rules::section(
                    "svangknack.play",
                    "Spelet",
                    "Play",
                    &[
                        (rule::FIRST_LEAD, "Den som svängde spelar ut till första sticket, vilket kort som helst.", "The swinger leads any card to the first trick."),
                        (rule::FOLLOW_SUIT, "I första och tredje sticket måste man bekänna färg om man kan; annars får man lägga vilket kort som helst.", "In the first and third tricks a player must follow suit if able; otherwise any card may be played."),
                        (rule::TRICK_WINNER, "Högsta trumfen tar sticket; utan trumf i sticket tar högsta kortet i utspelsfärgen.", "The highest trump takes the trick; with no trump in it, the highest card of the suit led does."),
                        (rule::WINNER_LEADS, "Den som tog ett stick spelar ut till nästa.", "Whoever took a trick leads to the next."),
                        (rule::TRUMP_LEAD, "Den som tog första sticket måste spela ut trumf till det andra om den har trumf.", "The winner of the first trick must lead a trump to the second if holding one."),
                        (rule::BLANK_LEAD, "Har den som spelar ut till andra sticket ingen trumf måste den blanka: spela ut ett kort med baksidan upp. Det räknas som en trumf lägre än den lägsta, så utspelaren vinner om ingen lägger trumf.", "If the leader to the second trick holds no trump, the leader must blank: lead a card face down. It counts as a trump below the lowest, so the leader wins unless somebody plays a trump."),
                        (rule::BLANK_FOLLOW, "I andra sticket måste de andra lägga trumf om de kan, annars blanka; ett blankat kort till ett redan påbörjat stick är värdelöst och kan inte vinna.", "In the second trick the others must play a trump if they can, otherwise blank; a card blanked to a trick already begun is worthless and cannot win."),
                        (rule::BLANK_HIDDEN, "Vilket kort som blankades får ingen annan än ägaren någonsin veta, inte heller i givens protokoll efteråt.", "Which card was blanked is never known to anyone but its owner, not even in the deal's record afterwards."),
                        (rule::FACE_UP, "I första och tredje sticket spelas alla kort med framsidan upp; man blankar bara i det andra.", "In the first and third tricks every card is played face up; blanking happens only in the second."),
                    ],
                ),
                rules::section(
                    "svangknack.pay",
                    "Betalning",
                    "Payment",
                    &[
                        (rule::SHARE, "Varje stick ger den som tog det en tredjedel av potten, i tvångsgiv som i vanlig giv.", "Every trick earns its taker a third of the pot, in a forced deal as in any other."),
                        (rule::FORFEIT, "Den som var med men inte tog något stick betalar in lika mycket som potten höll innan den delades.", "A player who was in but took no trick pays in as much as the pot held before it was shared."),
                        (rule::NEXT_POT, "Det som betalas in av dem utan stick blir nästa givs pott.", "What the players without a trick pay in becomes the next deal's pot."),
                        (rule::POT_OUT, "Tog alla som var med minst ett stick går potten ut, och nästa giv börjar med en tom pott (och alltså med tvång).", "If everyone in took at least one trick the pot goes out, and the next deal starts with an empty pot (and so is forced)."),
                        (rule::RIVET, "Tar en spelare alla tre sticken tar den hela potten ensam: det kallas rivet.", "A player who takes all three tricks takes the whole pot alone: that is called \"rivet\"."),
                    ],
                ),
                rules::house_rules(
                    "svangknack.house",
                    &[
                        (rule::FIRST_DEALER, "Dragningen om given görs innan man sätter sig: plats 0 ger först.", "The draw for the deal happens before seating: seat 0 deals first."),
                        (rule::ONE_AT_A_TIME, "Korten delas ut ett och ett, tre varv runt bordet.", "The cards are dealt one at a time, three times round the table."),
                        (rule::AUTO_PACK, "Utan särskilt val används 36 kort upp till sex spelare. Med fler tas hela valörer med, femmor först, tills talongen efter given och de två uppvända korten räcker till att alla kan byta alla tre korten; från åtta spelare används hela leken med 52 kort, och från nio räcker den inte till att alla byter allt. En vald lägsta valör måste ge minst tre kort per spelare och två att vända upp.", "Without a choice, 36 cards are used for up to six players. With more, whole ranks are added, fives first, until the talon left after dealing and turning two cards lets every player exchange all three cards; from eight players the whole 52-card pack is used, and from nine it can no longer cover everyone exchanging everything. A chosen lowest rank must give three cards per player and two to turn up."),
                        (rule::TURNED_ASIDE, "De uppvända korten ligger kvar med framsidan upp bredvid talongen hela given; ingen tar upp eller köper dem.", "The turned cards stay face up beside the talon for the whole deal; nobody picks them up or buys them."),
                        (rule::DISCARDS_ASIDE, "Kort som läggs bort vid köpet och händer som kastas in läggs åt sidan med baksidan upp; bara ägaren vet vilka de är, och de går inte tillbaka till talongen.", "Cards put away when buying and hands thrown in are set aside face down; only their owner knows them, and they do not go back into the talon."),
                        (rule::TALON_OUT, "Man kan byta högst så många kort som talongen har kvar. När talongen är slut kan de som ännu inte köpt inte köpa alls, och spelar med korten de har.", "A buyer may exchange at most as many cards as the talon still holds. Once the talon is empty, those who have not bought yet cannot buy at all and play with the cards they hold."),
                        (rule::INDIVISIBLE, "Varje stick ger en tredjedel av potten i hela marker; det som inte går att dela ligger kvar i potten till nästa giv, utom vid rivet då hela potten går. Eftersom potten bara växer med tre lika insatser och med inbetalningar lika stora som en hel pott går den med dessa regler alltid jämnt ut i tre.", "Each trick earns a third of the pot in whole chips; whatever cannot be divided stays in the pot for the next deal, except with rivet, which takes the whole pot. Since the pot only grows by three equal stakes and by payments as large as a whole pot, under these rules it always divides evenly by three."),
                        (rule::MATCH_END, "Ett parti är ett antal varv (tillval, ett om inget annat sägs) där varje spelare ger en gång per varv. Efter den sista planerade given spelar man vidare tills potten går ut, så partiet slutar med tom pott.", "A match is a number of rounds (an option, one unless said otherwise) in which every player deals once per round. After the last scheduled deal play goes on until the pot goes out, so the match ends with the pot empty."),
                        (rule::WINNERS, "Den eller de som har vunnit mest när partiet är slut vinner; lika delar segern.", "Whoever is furthest ahead when the match ends wins; ties share the win."),
                        (rule::RECORD, "Efter given är dess protokoll öppet för alla, utom i en giv där ett kort blankades: där visas bara de kort som låg med framsidan upp på bordet (och för var och en de kort den själv hade), eftersom mer skulle avslöja det blankade kortet genom uteslutning.", "After a deal its record is open to all, except in a deal where a card was blanked: there only the cards that lay face up on the table are shown (and to each player the cards they held themselves), since more would give the blanked card away by elimination."),
                    ],
                ),
            ],
        }
    }

    pub(super) fn option_docs(&self) -> Vec<OptionDoc> {
        vec![
            OptionDoc {
                name: "stake",
                default: json!(1),
                sv: "Grundinsatsen som förhand och de två till vänster om förhand sätter in före varje giv (1 till 1 000 000).",
                en: "The base stake forehand and the two players on forehand's left put in before every deal (1 to 1,000,000).",
            },
            OptionDoc {
                name: "lowest_rank",
                default: Value::Null,
                sv: "Lekens lägsta valör, 2 till 6. null: 36 kort (från sexan) upp till sex spelare, och för fler så många lägre valörer att alla kan byta alla kort, som mest hela leken.",
                en: "The pack's lowest rank, 2 to 6. null: 36 cards (six up) for up to six players, and for more as many lower ranks as let everyone exchange every card, at most the whole pack.",
            },
            OptionDoc {
                name: "rounds",
                default: json!(1),
                sv: "Antal varv där var och en ger en gång (1 till 100); därefter spelar man tills potten går ut.",
                en: "Rounds in which each player deals once (1 to 100); after them play goes on until the pot goes out.",
            },
        ]
    }
}
