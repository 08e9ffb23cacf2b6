//! The rulebook and the documented options.

use super::*;

impl Tarot {
    pub(super) fn book(&self) -> Rulebook {
        Rulebook {
            game: "tarot",
            sections: vec![
                core::section(),
                rules::section(
                    "tarot.cards",
                    "Korten",
                    "The cards",
                    &[
                        (rule::PACK, "Leken har 78 kort: fyra färger om 14 kort (kung, dam, knekt, väpnare, 10 ned till 1), 21 trumf numrerade 1-21 och ursäkten. Koder: 1H för hjärter etta, CH för hjärter knekt (cavalier), JH för väpnaren, T1-T21 för trumf, EX för ursäkten.", "The pack has 78 cards: four suits of 14 (king, queen, knight, jack, 10 down to 1), 21 trumps numbered 1-21 and the Excuse. Codes: 1H for the 1 of hearts, CH for the knight of hearts (cavalier), JH for the jack, T1-T21 for the trumps, EX for the Excuse."),
                        (rule::CARD_ORDER, "I varje färg går kung före dam, knekt, väpnare och sedan 10 ned till 1. Trumf 21 är högst och trumf 1, ettan, lägst; varje trumf slår alla färgkort.", "In each suit the king ranks above the queen, the knight, the jack and then 10 down to 1. Trump 21 is highest and trump 1, the Petit, lowest; every trump beats every suit card."),
                        (rule::BOUTS, "Trumf 1, trumf 21 och ursäkten är de tre värdekorten.", "Trump 1, trump 21 and the Excuse are the three bouts."),
                        (rule::CARD_POINTS, "Värdekort och kungar är värda 4,5 poäng, damer 3,5, knektar 2,5, väpnare 1,5 och alla andra kort 0,5; leken har 91 poäng. (Texten räknar samma sak parvis: 5, 4, 3 och 2 tillsammans med ett halvpoängskort.)", "Bouts and kings are worth 4.5 points, queens 3.5, knights 2.5, jacks 1.5 and every other card 0.5; the pack holds 91 points. (The text counts the same in pairs: 5, 4, 3 and 2 together with a half-point card.)"),
                    ],
                ),
                rules::section(
                    "tarot.deal",
                    "Giv",
                    "Dealing",
                    &[
                        (rule::PLAYERS, "Tre, fyra eller fem spelare; spel och giv går motsols.", "Three, four or five players; play and dealing go counter-clockwise."),
                        (rule::DEALER, "Plats 0 ger först; sedan går given till spelaren till höger.", "Seat 0 deals first; then the deal passes to the player on the right."),
                        (rule::PACKETS, "Korten delas ut i omgångar från spelaren till höger om given: tre spelare får 24 kort fyra åt gången, fyra spelare 18 kort tre åt gången och fem spelare 15 kort tre åt gången.", "Cards are dealt in packets from the player on the dealer's right: three players get 24 cards four at a time, four players 18 cards three at a time, five players 15 cards three at a time."),
                        (rule::DOG_SINGLY, "Hunden, sex kort (tre med fem spelare), läggs ut ett kort i taget under utdelningen, aldrig som första eller sista kort.", "The dog, six cards (three with five players), is laid down one card at a time during the deal, never as the first or the last card."),
                        (rule::PETIT_SEC, "Har en spelare ettan som enda trumf och ingen ursäkt (ettan torr) visas handen och given görs om.", "If a player's only trump is the Petit and they have no Excuse (petit sec), the hand is shown and the deal is void."),
                    ],
                ),
                rules::section(
                    "tarot.bidding",
                    "Budgivning",
                    "Bidding",
                    &[
                        (rule::BID_ORDER, "Budgivningen börjar hos spelaren till höger om given och går ett varv; var och en bjuder eller passar en gång.", "The bidding starts with the player on the dealer's right and goes round once; each player bids or passes once."),
                        (rule::CONTRACTS, "Buden är, från lägsta: litet spel (×1), stort spel (×2), spel utan hund (×4) och spel mot hunden (×6). Den som bjuder högst blir spelare; de andra är motspelare.", "The bids, lowest first: small game (×1), big game (×2), game without the dog (×4) and game against the dog (×6). The highest bidder becomes the taker; the others are the defence."),
                        (rule::BID_HIGHER, "Ett bud måste vara högre än alla bud före det.", "A bid must be higher than every bid before it."),
                        (rule::ALL_PASS, "Passar alla samlas korten in och nästa giv ger på nytt.", "If everybody passes, the cards are gathered and the next dealer deals again."),
                    ],
                ),
                rules::section(
                    "tarot.call",
                    "Kallad kung (fem spelare)",
                    "Called king (five players)",
                    &[
                        (rule::CALL_KING, "Med fem spelare kallar spelaren en kung innan hunden vänds; har spelaren alla fyra kungar kallas en dam, har den även alla damer en knekt, och så vidare. Spelaren väljer färgen; valören följer av handen.", "With five players the taker calls a king before the dog is turned; a taker holding all four kings calls a queen, one holding all the queens too a knight, and so on. The taker chooses the suit; the rank follows from the hand."),
                        (rule::SECRET_PARTNER, "Den som har det kallade kortet spelar med spelaren utan att säga det; det blir känt först när kortet spelas.", "Whoever holds the called card plays with the taker without saying so; it becomes known only when the card is played."),
                        (rule::CALLED_ALONE, "Ligger det kallade kortet i hunden eller på spelarens egen hand spelar spelaren ensam mot fyra.", "If the called card is in the dog or in the taker's own hand, the taker plays alone against four."),
                    ],
                ),
                rules::section(
                    "tarot.dog",
                    "Hunden",
                    "The dog",
                    &[
                        (rule::DOG_SHOWN, "Vid litet och stort spel vänds hunden upp för alla och spelaren tar upp den på handen.", "In a small or big game the dog is turned up for all to see and the taker takes it into hand."),
                        (rule::DISCARD, "Spelaren lägger sedan lika många kort som hunden hade i sin egen hög; de räknas för spelaren.", "The taker then puts as many cards as the dog held on their own pile; they count for the taker."),
                        (rule::NO_KINGS_OR_BOUTS, "Kungar och värdekort får aldrig läggas i högen.", "Kings and bouts may never be discarded."),
                        (rule::TRUMPS_IF_FORCED, "Trumf läggs i högen bara när inget annat kort går, och en sådan trumf visas för alla.", "Trumps are discarded only when no other card can be, and such a trump is shown to all."),
                        (rule::DOG_WITHOUT, "Vid spel utan hund ser ingen hunden; den räknas för spelaren när given är slut.", "In a game without the dog nobody sees the dog; it counts for the taker at the end of the deal."),
                        (rule::DOG_AGAINST, "Vid spel mot hunden ser ingen hunden; den räknas för motspelarna när given är slut.", "In a game against the dog nobody sees the dog; it counts for the defence at the end of the deal."),
                    ],
                ),
                rules::section(
                    "tarot.play",
                    "Spelet",
                    "Play",
                    &[
                        (rule::FIRST_LEAD, "Spelaren till höger om given spelar ut till första sticket, utom när slam har annonserats.", "The player on the dealer's right leads to the first trick, unless a slam has been announced."),
                        (rule::CALLED_SUIT_LEAD, "Med fem spelare får första utspelet inte vara i den kallade färgen, utom det kallade kortet självt.", "With five players the first lead may not be in the called suit, except the called card itself."),
                        (rule::FOLLOW_SUIT, "Man måste bekänna färg, och lägga trumf när trumf spelas ut; man behöver inte ta sticket i en färg.", "You must follow suit, and play a trump when trumps are led; there is no duty to win a trick in a suit."),
                        (rule::MUST_TRUMP, "Den som saknar utspelsfärgen måste trumfa; den som saknar både färgen och trumf får lägga vad som helst.", "A player without the suit led must trump; one with neither the suit nor trumps may play anything."),
                        (rule::OVERTRUMP, "Ligger det redan trumf i sticket, eller är trumf utspelat, måste man gå över den högsta trumfen om man kan, annars lägga en lägre trumf.", "When a trump is already in the trick, or trumps were led, you must beat the highest trump if you can, and otherwise play a lower trump."),
                        (rule::TRICK_WINNER, "Högsta trumfen tar sticket; finns ingen trumf tar högsta kortet i utspelsfärgen.", "The highest trump takes the trick; without a trump, the highest card of the suit led does."),
                        (rule::WINNER_LEADS, "Den som tog sticket spelar ut till nästa.", "Whoever took a trick leads to the next."),
                    ],
                ),
                rules::section(
                    "tarot.excuse",
                    "Ursäkten",
                    "The Excuse",
                    &[
                        (rule::EXCUSE_ANY_TIME, "Ursäkten får spelas när som helst och befriar från plikten att bekänna, trumfa och gå över.", "The Excuse may be played at any time and frees its player from the duties to follow, to trump and to overtrump."),
                        (rule::EXCUSE_LED, "Spelas ursäkten ut bestämmer nästa kort färgen.", "If the Excuse is led, the next card sets the suit."),
                        (rule::EXCUSE_NEVER_WINS, "Ursäkten tar aldrig ett stick (utom vid slam, se nedan).", "The Excuse never takes a trick (except in a slam, below)."),
                        (rule::EXCUSE_KEPT, "Ursäktens sida behåller den och ger i stället sticktagarna ett halvpoängskort ur sina egna vunna kort.", "The Excuse's side keeps it and gives the trick's winners a half-point card from its own won cards instead."),
                        (rule::EXCUSE_LAST_TRICK, "Spelas ursäkten i sista sticket går den till den sida som tar sticket.", "Played to the last trick, the Excuse goes to the side that takes that trick."),
                        (rule::EXCUSE_SLAM, "Har ursäktens sida tagit alla stick före det sista och spelar ursäkten i sista sticket, tar ursäkten det sticket.", "If the Excuse's side has taken every trick before the last and plays the Excuse to the last trick, the Excuse takes that trick."),
                    ],
                ),
                rules::section(
                    "tarot.score",
                    "Poängräkning",
                    "Scoring",
                    &[
                        (rule::TARGETS, "Spelarens sida behöver 56 poäng utan värdekort, 51 med ett, 41 med två och 36 med alla tre; exakt det räcker.", "The taker's side needs 56 points with no bout, 51 with one, 41 with two and 36 with all three; exactly that is enough."),
                        (rule::HALF_POINT, "Slutar räkningen på en halv poäng dras den halva poängen från spelaren och ges till motspelarna; 40,5 räcker alltså inte där 41 krävs.", "When the count ends in a half point, the half point is taken from the taker and given to the defence; so 40.5 is not enough where 41 is needed."),
                        (rule::BASE, "Ett kontrakt är värt 25 poäng gånger budets faktor, till spelarens sida om det vinns och till motspelarna om det förloras.", "A contract is worth 25 points times the bid's factor, to the taker's side when made and to the defence when lost."),
                        (rule::DIFFERENCE, "Till de 25 läggs skillnaden mellan sidans poäng och det som krävdes, också den gånger faktorn.", "To the 25 is added the difference between the side's points and what was needed, also times the factor."),
                        (rule::MULTIPLIER, "Faktorn är 1 för litet spel, 2 för stort, 4 utan hund och 6 mot hunden.", "The factor is 1 for a small game, 2 for a big one, 4 without the dog and 6 against the dog."),
                        (rule::SHARES, "Varje motspelare betalar summan (eller får den om spelaren förlorar); spelaren får vad motspelarna betalar: tre gånger med fyra spelare, två gånger med tre, fyra gånger när spelaren är ensam mot fyra.", "Each defender pays the amount (or receives it when the taker loses); the taker receives what the defenders pay: three times with four players, twice with three, four times when alone against four."),
                        (rule::PARTNER_SHARE, "Med fem spelare och en partner delar spelaren och partnern på det motspelarna betalar: två tredjedelar till spelaren och en tredjedel till partnern.", "With five players and a partner, the taker and the partner share what the defenders pay: two thirds to the taker and one third to the partner."),
                        (rule::ZERO_SUM, "Plus och minus tar ut varandra: varje giv summerar till noll.", "Plus and minus cancel out: every deal sums to zero."),
                    ],
                ),
                rules::section(
                    "tarot.advanced",
                    "Avancerad poängräkning",
                    "Advanced scoring",
                    &[
                        (rule::PETIT_AU_BOUT, "Ettan sist: den sida som tar sista sticket med ettan i får 10 poäng innanför parentesen, alltså gånger faktorn, oavsett om kontraktet vinns.", "Petit au bout: the side that takes the last trick with the Petit in it gets 10 points inside the bracket, so times the factor, whether the contract is made or not."),
                        (rule::POIGNEE, "En visad hand (poignée) är värd 20 (enkel), 30 (dubbel) eller 40 (trippel), utan faktor, och går alltid till den sida som vinner given, vem som än visade den.", "A shown poignée is worth 20 (single), 30 (double) or 40 (triple), not multiplied, and always goes to the side that wins the deal, whoever showed it."),
                        (rule::POIGNEE_SIZES, "En hand visar exakt 13, 15 eller 18 trumf med tre spelare, 10, 13 eller 15 med fyra och 8, 10 eller 13 med fem; man väljer nivå bland dem handen når.", "A poignée shows exactly 13, 15 or 18 trumps with three players, 10, 13 or 15 with four and 8, 10 or 13 with five; the player picks a level the hand reaches."),
                        (rule::POIGNEE_TRUMPS, "Bara trumf visas i en hand; ursäkten räknas som trumf.", "Only trumps are shown in a poignée; the Excuse counts as a trump."),
                        (rule::POIGNEE_EXCUSE, "Visas ursäkten i en hand betyder det att spelaren inte har några fler trumf än de visade.", "Showing the Excuse in a poignée means the player holds no trump beyond those shown."),
                        (rule::POIGNEE_WHEN, "En hand visas när man står i tur att spela sitt första kort, och aldrig senare; den som inte vill visa sin hand får ingen bonus.", "A poignée is shown when about to play one's first card, and never later; a player who does not show it gets no bonus."),
                        (rule::TROST, "Tröst: den som helt saknar klädda kort (kung, dam, knekt, väpnare) kan säga det innan sitt första kort och får 10 poäng av var och en av de andra.", "Tröst: a player without any court card (king, queen, knight, jack) may say so before their first card and gets 10 points from each other player."),
                        (rule::SLAM, "Slam (alla stick): annonserad och vunnen +400, vunnen utan annons +200, annonserad men förlorad -200, efter faktorn.", "Slam (every trick): announced and made +400, made unannounced +200, announced and failed -200, added after the factor."),
                        (rule::SLAM_LEAD, "Den som annonserar slam spelar ut till första sticket.", "Whoever announces a slam leads to the first trick."),
                        (rule::DEFENCE_SLAM, "Tar motspelarna alla stick får de 200 poäng till.", "If the defence takes every trick it gets 200 points more."),
                    ],
                ),
                rules::section(
                    "tarot.end",
                    "Partiets slut",
                    "End of the match",
                    &[
                        (rule::MATCH_DEALS, "Partiet spelas ett bestämt antal givar, som standard ett varv (en giv per spelare); gjorda om givar räknas inte.", "The match is a set number of deals, by default one round (one deal per player); void deals do not count."),
                        (rule::SCORE_LIMIT, "Med en poänggräns slutar partiet efter den giv där någon når gränsen.", "With a score limit the match ends after the deal in which someone reaches the limit."),
                        (rule::MATCH_WINNER, "Den som har flest poäng när partiet är slut vinner.", "The player with the most points when the match ends wins."),
                    ],
                ),
                rules::section(
                    "tarot.variant",
                    "Varianter",
                    "Variants",
                    &[
                        (rule::FFT_HALF_POINT, "Tillval (förbundets regel): en halv poäng går till den sida som vinner given i stället för alltid till motspelarna.", "Option (the federation's rule): a half point goes to the side that wins the deal instead of always to the defence."),
                        (rule::ADVANCED_OFF, "Tillval: ettan sist, hand (poignée), tröst och slam kan var för sig stängas av; som standard gäller alla.", "Option: petit au bout, the poignée, tröst and the slam can each be turned off; by default all apply."),
                    ],
                ),
                rules::house_rules(
                    "tarot.house",
                    &[
                        (rule::DOG_POSITIONS, "Hundens kort läggs ut jämnt fördelade mellan omgångarna: med fyra spelare efter omgång 3, 6, 10, 13, 17 och 20 av 24, med tre efter 2, 5, 7, 10, 12 och 15 av 18, med fem efter 6, 12 och 18 av 25.", "The dog's cards are laid down spread evenly between packets: with four players after packets 3, 6, 10, 13, 17 and 20 of 24, with three after 2, 5, 7, 10, 12 and 15 of 18, with five after 6, 12 and 18 of 25."),
                        (rule::CANCELLED_DEAL, "En giv som görs om (alla passar, ettan torr) ges om av nästa giv och räknas inte bland partiets givar.", "A void deal (all passed, petit sec) is dealt again by the next dealer and does not count among the match's deals."),
                        (rule::DISCARD_SINGLY, "Spelaren lägger korten i högen ett i taget; ett lagt kort tas inte tillbaka.", "The taker discards one card at a time; a discarded card is not taken back."),
                        (rule::CALL_OWN_CARD, "Spelaren får kalla ett kort den själv har och spelar då ensam, utan att någon annan vet det.", "The taker may call a card of their own and then plays alone, without the others knowing."),
                        (rule::SLAM_AFTER_DOG, "Slam annonseras av spelaren direkt efter hunden (efter högen vid litet och stort spel), innan första kortet spelas.", "A slam is announced by the taker right after the dog (after discarding in a small or big game), before the first card is played."),
                        (rule::CALLED_LEAD_ONLY, "Regeln om den kallade färgen gäller själva utspelet; den som bara har den färgen får spela den.", "The called-suit rule binds the lead itself; a player with nothing but that suit may lead it."),
                        (rule::EXCHANGE_AT_COUNT, "Halvpoängskortet för ursäkten byts när given räknas, så att bytet aldrig röjer vem som är partner.", "The half-point card for the Excuse is exchanged at the count, so that the exchange never gives away the partner."),
                        (rule::EXCUSE_NO_CARD, "Har ursäktens sida inte vunnit ett enda kort att byta med går ursäkten till den sida som tog sticket.", "If the Excuse's side has won no card at all to exchange, the Excuse goes to the side that took the trick."),
                        (rule::PETIT_CAPTURED, "Ettan sist gäller den sida som tar sista sticket med ettan i, även om ettan togs från motståndarna.", "Petit au bout goes to the side taking the last trick with the Petit in it, even when the Petit was captured from the other side."),
                        (rule::ONE_POIGNEE, "Varje spelare visar högst en hand per giv.", "Each player shows at most one poignée per deal."),
                        (rule::LOWEST_TRUMPS_SHOWN, "Den som visar en hand visar sina lägsta trumf, så många som nivån kräver, och ursäkten bara när den behövs för att fylla ut; de högsta trumfen förblir dolda.", "A player showing a poignée shows their lowest trumps, as many as the level needs, and the Excuse only when it is needed to make up the number; the highest trumps stay hidden."),
                        (rule::TROST_UNSEEN, "Tröst kontrolleras av motorn; handen behöver inte visas, men alla får veta att den saknar klädda kort.", "Tröst is checked by the engine; the hand need not be shown, but everyone learns it has no court card."),
                        (rule::SLAM_BOTH_WAYS, "Tar motspelarna alla stick efter en annonserad slam gäller både -200 för annonsen och 200 till motspelarna.", "If the defence takes every trick after an announced slam, both the -200 for the announcement and the defence's 200 apply."),
                        (rule::DOG_HIDDEN_UNTIL_END, "Hunden vid spel utan och mot hunden, och spelarens hög, visas för alla när given är slut.", "The dog in a game without or against it, and the taker's discards, are shown to all when the deal is over."),
                        (rule::TIES_SHARE, "Har flera spelare lika många poäng i topp när partiet är slut delar de på segern.", "If several players share the highest score at the end, they share the win."),
                    ],
                ),
            ],
        }
    }

    pub(super) fn option_docs(&self) -> Vec<OptionDoc> {
        vec![
            OptionDoc {
                name: "deals",
                default: Value::Null,
                sv: "Antal givar i partiet (gjorda om givar räknas inte). null: ett varv, en giv per spelare, om inte score_limit är satt.",
                en: "Deals in the match (void deals do not count). null: one round, a deal per player, unless score_limit is set.",
            },
            OptionDoc {
                name: "score_limit",
                default: Value::Null,
                sv: "Partiet slutar efter den giv där någon når detta antal poäng. null: ingen gräns.",
                en: "The match ends after the deal in which someone reaches this many points. null: no limit.",
            },
            OptionDoc {
                name: "half_point",
                default: json!("text"),
                sv: "\"text\": en udda halv poäng går alltid till motspelarna (texten); \"fft\": till den sida som vinner (förbundet).",
                en: "\"text\": an odd half point always goes to the defence (the text); \"fft\": to the side that wins (the federation).",
            },
            OptionDoc {
                name: "petit_au_bout",
                default: json!(true),
                sv: "Ettan sist: 10 gånger faktorn till den sida som tar sista sticket med ettan i.",
                en: "Petit au bout: 10 times the factor to the side taking the last trick with the Petit in it.",
            },
            OptionDoc {
                name: "poignee",
                default: json!(true),
                sv: "Enkel, dubbel och trippel hand: 20, 30 eller 40 för många visade trumf.",
                en: "Single, double and triple poignée: 20, 30 or 40 for many trumps shown.",
            },
            OptionDoc {
                name: "trost",
                default: json!(true),
                sv: "Tröst: 10 av var och en till den som saknar klädda kort.",
                en: "Tröst: 10 from each player to one who has no court card.",
            },
            OptionDoc {
                name: "slam",
                default: json!(true),
                sv: "Slam: annonsering, utspel, +400/+200/-200 och motspelarnas slam.",
                en: "Slam: announcement, lead, +400/+200/-200 and the defence's slam.",
            },
        ]
    }
}
