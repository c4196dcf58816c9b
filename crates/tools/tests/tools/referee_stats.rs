//! The referee's summary is wired to `veletas_tools::stats`: synthetic results give the
//! numbers stats.rs computes, and SPRTs accept and reject where they must.

use veletas_rules::Color;
use veletas_tools::referee::{GameOutcome, MatchSummary, SprtSpec, Termination};
use veletas_tools::stats::{Pentanomial, Score, Sprt, SprtDecision};

/// Game `round` won by engine 1 when `engine1_won`; engine 1 is Black in even rounds.
fn outcome(round: usize, engine1_won: bool) -> GameOutcome {
    let engine1_black = round.is_multiple_of(2);
    let winner = if engine1_won == engine1_black { Color::Black } else { Color::White };
    GameOutcome { round, engine1_black, winner: Some(winner), termination: Termination::Normal, disagreement: false }
}

fn names() -> [String; 2] {
    ["one".to_string(), "two".to_string()]
}

/// Pairs given as (first game won, second game won) by engine 1.
fn pairs(results: &[(bool, bool)]) -> Vec<GameOutcome> {
    results.iter().enumerate().flat_map(|(k, &(a, b))| [outcome(2 * k, a), outcome(2 * k + 1, b)]).collect()
}

#[test]
fn summary_numbers_are_those_of_stats_rs() {
    // 60 wins, 40 losses in 50 pairs: 20 WW, 20 WL, 10 LL.
    let mut results = vec![(true, true); 20];
    results.extend(vec![(true, false); 20]);
    results.extend(vec![(false, false); 10]);
    let mut outcomes = pairs(&results);
    outcomes.reverse(); // order does not matter
    outcomes[3].termination = Termination::TimeForfeit;
    outcomes[5].disagreement = true;
    let spec: SprtSpec = "0,10".parse().unwrap();
    let s = MatchSummary::new(names(), 100, &outcomes, Some(spec));

    assert_eq!(s.games, 100);
    assert_eq!(s.score, Score::new(60, 40));
    assert_eq!(s.pentanomial, Pentanomial::from_counts([10, 0, 20, 0, 20]));
    assert_eq!(s.elo, Score::new(60, 40).elo_interval());
    let elo = s.elo.unwrap();
    assert!((elo.elo - 70.436_503_622).abs() < 1e-6);
    assert!((elo.lower - 1.391_547_269).abs() < 1e-6 && (elo.upper - 139.481_459_975).abs() < 1e-6);
    assert!((s.los - 0.977_249_868_051_820_8).abs() < 1e-12);
    assert_eq!(s.pair_elo, Pentanomial::from_counts([10, 0, 20, 0, 20]).elo_interval());
    // Engine 1 won 40 with Black (20 WW + 20 WL first games) and 20 with White.
    assert_eq!((s.as_black, s.as_white), (Score::new(40, 10), Score::new(20, 30)));
    assert_eq!(s.colour_wins, [40 + 30, 20 + 10]);
    assert_eq!(s.terminations, vec![(Termination::Normal, 99), (Termination::TimeForfeit, 1)]);
    assert_eq!(s.disagreements, 1);
    let sprt = s.sprt.unwrap();
    let test = Sprt::with_default_errors(0.0, 10.0).unwrap();
    assert_eq!(sprt.llr, test.llr(&Pentanomial::from_counts([10, 0, 20, 0, 20])));
    assert_eq!(sprt.bounds, test.bounds());
    assert_eq!(sprt.decision, test.decision(sprt.llr));
    assert_eq!(sprt.pairs, 50);

    let text = s.to_string();
    assert!(text.contains("Score of one vs two: 60 - 40 (60.0%)"), "{text}");
    assert!(text.contains("Elo difference: +70.4 ± 69.0 [+1.4, +139.5] (95%), LOS 97.7%"), "{text}");
    assert!(text.contains("Pairs: 50 [LL 10, WL 20, WW 20]"), "{text}");
    assert!(text.contains("time forfeit 1"), "{text}");
}

#[test]
fn unpaired_and_repeated_games_count_once_and_outside_pairs() {
    let outcomes = vec![outcome(0, true), outcome(0, false), outcome(1, true), outcome(2, false), outcome(5, true)];
    let s = MatchSummary::new(names(), 6, &outcomes, None);
    assert_eq!(s.games, 4);
    assert_eq!(s.score, Score::new(3, 1));
    assert_eq!(s.pentanomial, Pentanomial::from_counts([0, 0, 0, 0, 1]));
    assert!(s.sprt.is_none());
}

#[test]
fn sprt_accepts_h1_on_winning_pairs_and_h0_on_losing_ones() {
    let spec: SprtSpec = "0,10".parse().unwrap();
    // 3000 pairs at a 65% game-win rate: LL 368, WL 1365, WW 1267.
    let mut winning = vec![(false, false); 368];
    winning.extend(vec![(true, false); 1365]);
    winning.extend(vec![(true, true); 1267]);
    let s = MatchSummary::new(names(), 6000, &pairs(&winning), Some(spec));
    assert_eq!(s.sprt.unwrap().decision, SprtDecision::AcceptH1);
    assert!(s.sprt_decided());

    let losing: Vec<(bool, bool)> = winning.iter().map(|&(a, b)| (!a, !b)).collect();
    let s = MatchSummary::new(names(), 6000, &pairs(&losing), Some(spec));
    assert_eq!(s.sprt.unwrap().decision, SprtDecision::AcceptH0);

    let s = MatchSummary::new(names(), 6000, &pairs(&[(true, false), (true, true)]), Some(spec));
    assert_eq!(s.sprt.unwrap().decision, SprtDecision::Continue);
    assert!(!s.sprt_decided());

    // A pair of wins is evidence, not a verdict: the LLR stays small.
    let one = MatchSummary::new(names(), 100, &pairs(&[(true, true)]), Some(spec)).sprt.unwrap();
    assert!(one.llr > 0.0 && one.llr < 0.1, "llr = {}", one.llr);
    assert_eq!(one.decision, SprtDecision::Continue);
}

#[test]
fn no_games_give_no_elo() {
    let s = MatchSummary::new(names(), 10, &[], Some("0,5".parse().unwrap()));
    assert_eq!((s.games, s.elo, s.los), (0, None, 0.5));
    assert_eq!(s.sprt.unwrap().llr, 0.0);
    assert!(s.to_string().contains("Elo difference: no games"));
}

#[test]
fn void_games_count_for_no_one_and_leave_their_pair_incomplete() {
    // Three pairs: (W, W), (W, void), (void, void); the void games ended on time.
    let mut outcomes = pairs(&[(true, true), (true, false), (false, false)]);
    for o in &mut outcomes[3..] {
        o.winner = None;
        o.termination = Termination::Timeout;
    }
    let spec: SprtSpec = "0,10".parse().unwrap();
    let s = MatchSummary::new(names(), 6, &outcomes, Some(spec));
    assert_eq!(s.games, 3, "only decided games are counted");
    assert_eq!(s.score, Score::new(3, 0));
    assert_eq!(s.void, vec![(Termination::Timeout, 3)]);
    assert_eq!(s.terminations, vec![(Termination::Normal, 3)]);
    assert_eq!(s.colour_wins, [2, 1]);
    assert_eq!(s.pentanomial, Pentanomial::from_counts([0, 0, 0, 0, 1]), "only the first pair is complete");
    assert_eq!(s.sprt.unwrap().pairs, 1);
    let text = s.to_string();
    assert!(text.contains("3 of 6 games, and 3 void (timeout 3: no engine moved; not counted)"), "{text}");
    // The summary's numbers are those of the decided games alone.
    let decided: Vec<GameOutcome> = outcomes.iter().copied().filter(|o| o.winner.is_some()).collect();
    let alone = MatchSummary::new(names(), 6, &decided, Some(spec));
    assert_eq!((alone.score, alone.pentanomial, alone.elo, alone.sprt), (s.score, s.pentanomial, s.elo, s.sprt));
}
