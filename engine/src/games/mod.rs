//! One module per game.

use crate::game::{erase, Game};

pub mod blackjack;
pub mod bondtolva;
pub mod braus;
pub mod chicago;
pub mod fan_tan;
pub mod femhundra;
pub mod femkort;
pub mod femtio;
pub mod finns_i_sjon;
pub mod fusk;
pub mod fyrmanswhist;
pub mod fyrtioett;
pub mod gris;
pub mod gurka;
pub mod hej_knekt;
pub mod japansk_whist;
pub mod jazz;
pub mod kasino;
pub mod kom_ihag;
pub mod krypkasino;
pub mod lange_laban;
pub mod lojliga_familjerna;
pub mod muggins;
pub mod norrlandsknack;
pub mod plump;
pub mod poker;
pub mod polskt_pass;
pub mod president;
pub mod priffe;
pub mod rodskagg;
pub mod rummy;
pub mod skitgubbe;
pub mod snipp_snapp_snorum;
pub mod spader;
pub mod stopp;
pub mod stortok;
pub mod stotpoker;
pub mod svalta_rav;
pub mod svangknack;
pub mod svarte_petter;
pub mod tarot;
pub mod trettioett;
pub mod tvartom_kom_ihag;
pub mod vandatta;
pub mod vandtia;
pub mod whist;

pub fn all() -> Vec<Box<dyn Game>> {
    vec![
        erase(plump::Plump),
        erase(spader::Spader),
        erase(polskt_pass::PolsktPass),
        erase(svangknack::Svangknack),
        erase(tarot::Tarot),
        erase(fyrmanswhist::Fyrmanswhist),
        erase(japansk_whist::JapanskWhist),
        erase(fyrtioett::Fyrtioett),
        erase(whist::Whist),
        erase(femkort::Femkort),
        erase(norrlandsknack::Norrlandsknack),
        erase(braus::Braus),
        erase(priffe::Priffe),
        erase(femtio::Femtio),
        erase(gurka::Gurka),
        erase(bondtolva::Bondtolva),
        erase(trettioett::Trettioett),
        erase(rodskagg::Rodskagg),
        erase(femhundra::Femhundra),
        erase(president::President),
        erase(fan_tan::FanTan),
        erase(snipp_snapp_snorum::SnippSnappSnorum),
        erase(stopp::Stopp),
        erase(vandatta::Vandatta),
        erase(kasino::Kasino),
        erase(vandtia::Vandtia),
        erase(svalta_rav::SvaltaRav),
        erase(krypkasino::Krypkasino),
        erase(muggins::Muggins),
        erase(stortok::Stortok),
        erase(lange_laban::LangeLaban),
        erase(skitgubbe::Skitgubbe),
        erase(svarte_petter::SvartePetter),
        erase(lojliga_familjerna::LojligaFamiljerna),
        erase(finns_i_sjon::FinnsISjon),
        erase(kom_ihag::KomIhag),
        erase(tvartom_kom_ihag::TvartomKomIhag),
        erase(fusk::Fusk),
        erase(rummy::Rummy),
        erase(poker::Poker),
        erase(stotpoker::Stotpoker),
        erase(chicago::Chicago),
        erase(jazz::Jazz),
        erase(blackjack::Blackjack),
        erase(hej_knekt::HejKnekt),
        erase(gris::Gris),
    ]
}
