//! Results checked, not trusted: [`GameRecord::check_result`] replays a game and compares
//! what the record claims (the result token, the `Result` tag, the `Termination` tag) with
//! where the moves end. The replay decides:
//!
//! - moves that end in a win on the board give that winner, whatever the record says (a
//!   token or tag that says otherwise, or a `Termination` other than `normal`, is a
//!   warning);
//! - otherwise the game ended off the board, and the result token counts when nothing
//!   contradicts it; it does not count (with a warning) when the `Result` tag names
//!   another result, or when `Termination` says `normal` (a win on the board) although
//!   the board shows none: such a game cannot have ended;
//! - a game without a result (`*`) counts for no one; a `Result` tag that names a winner
//!   for it is a warning.
//!
//! A record without `Termination` (hand-written, older) may have ended by resignation or
//! adjudication: its result token counts, as PGN results do.

use super::{GameRecord, RecordError, Termination, parse_result_token, result_token, tag};
use crate::Color;

/// What a game's result is once checked against its moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResultCheck {
    /// The winner to count, or `None`: no result, or a claim the game contradicts.
    pub counted: Option<Color>,
    /// What the record claims that its moves or its own tags contradict (one line,
    /// without the game's name), or `None` when everything agrees.
    pub warning: Option<String>,
}

impl GameRecord {
    /// Replays the game and checks its result (see the module documentation). A game
    /// that does not replay (a bad tag, an illegal move) is the error.
    pub fn check_result(&self) -> Result<ResultCheck, RecordError> {
        Ok(self.check_against(self.position_after(None)?.winner()))
    }

    /// The check of [`GameRecord::check_result`] for a game already replayed, whose
    /// final position's winner is `board`.
    pub fn check_against(&self, board: Option<Color>) -> ResultCheck {
        let token = self.result;
        let shown = |winner: Option<Color>| result_token(winner);
        let mut problems = Vec::new();
        let tag_result = match self.tag(tag::RESULT).map(parse_result_token) {
            None => None,
            Some(Ok(claim)) => Some(claim),
            Some(Err(e)) => {
                problems.push(format!("bad Result tag: {}", e.message));
                None
            }
        };
        let termination = match self.termination() {
            Ok(t) => t,
            Err(e) => {
                problems.push(e.message);
                None
            }
        };
        let counted = match board {
            Some(winner) => {
                let claims: Vec<String> = [("the result token", Some(token)), ("the Result tag", tag_result)]
                    .into_iter()
                    .filter_map(|(what, claim)| {
                        claim.filter(|&c| c != Some(winner)).map(|c| format!("{what} says {}", shown(c)))
                    })
                    .collect();
                if !claims.is_empty() {
                    problems.push(format!(
                        "the moves end in a win for {winner}, {}: counted as {}",
                        claims.join(" and "),
                        shown(Some(winner))
                    ));
                }
                if let Some(t) = termination.filter(|&t| t != Termination::Normal) {
                    problems.push(format!("the moves end in a win for {winner}, but Termination says '{t}'"));
                }
                Some(winner)
            }
            None => {
                let turns = self.moves.len();
                if let Some(claim) = tag_result.filter(|&c| c != token) {
                    problems.push(format!(
                        "the Result tag says {}, the result token {}: not counted",
                        shown(claim),
                        shown(token)
                    ));
                    None
                } else if token.is_some() && termination == Some(Termination::Normal) {
                    problems.push(format!(
                        "the record says {} by a normal end, but no one has won on the board after {turns} turns: \
                         not counted",
                        shown(token)
                    ));
                    None
                } else {
                    token
                }
            }
        };
        ResultCheck { counted, warning: (!problems.is_empty()).then(|| problems.join("; ")) }
    }

    /// How to name this game in a warning: `game N` (its place in its file, from 1), with
    /// its `Round` or `Game` tag and its players when it has them.
    pub fn describe(&self, number: usize) -> String {
        let mut text = format!("game {number}");
        if let Some(id) = self.tag(tag::GAME) {
            text.push_str(&format!(" (id {})", crate::quoted(id)));
        } else if let Some(round) = self.tag(tag::ROUND) {
            text.push_str(&format!(" (round {})", crate::quoted(round)));
        }
        if let (Some(black), Some(white)) = (self.player(Color::Black), self.player(Color::White)) {
            text.push_str(&format!(", {} vs {}", crate::quoted(black), crate::quoted(white)));
        }
        text
    }
}

#[cfg(test)]
mod tests {
    use super::super::parse_records;
    use super::*;

    /// A 7x7 game played to its end on the board (the first legal move every turn).
    fn won(result: &str, tags: &str) -> GameRecord {
        let mut position = crate::Position::new(crate::Variant::from_size(7).unwrap());
        let mut moves = Vec::new();
        while position.winner().is_none() {
            let mv = position.legal_moves()[0];
            moves.push(mv.to_string());
            position.play(mv).unwrap();
        }
        let text = format!("[Size \"7\"]\n{tags}\n{} {result}\n", moves.join(" "));
        parse_records(&text).unwrap().remove(0)
    }

    #[test]
    fn the_board_decides_a_game_won_on_it() {
        let game = won("B+", "[Result \"B+\"]\n[Termination \"normal\"]");
        assert!(game.replay(None).unwrap().position().winner().is_some(), "the sample must be over");
        let winner = game.replay(None).unwrap().position().winner();
        assert_eq!(game.check_result().unwrap(), ResultCheck { counted: winner, warning: None });
        let lie = won(result_token(winner.map(|w| !w)), "");
        let check = lie.check_result().unwrap();
        assert_eq!(check.counted, winner);
        assert!(check.warning.unwrap().contains("the moves end in a win for"));
        let forfeit = won(result_token(winner), "[Termination \"time forfeit\"]");
        assert!(forfeit.check_result().unwrap().warning.unwrap().contains("Termination says 'time forfeit'"));
    }

    #[test]
    fn claims_off_the_board_count_unless_contradicted() {
        let game = |tags: &str, result: &str| {
            parse_records(&format!("[Size \"7\"]\n{tags}\n1. d4 b2,f6 {result}\n")).unwrap().remove(0)
        };
        let resigned = game("[Result \"W+\"]\n[Termination \"resignation\"]", "W+");
        assert_eq!(resigned.check_result().unwrap(), ResultCheck { counted: Some(Color::White), warning: None });
        let bare = game("", "B+");
        assert_eq!(bare.check_result().unwrap(), ResultCheck { counted: Some(Color::Black), warning: None });
        let unfinished = game("", "*");
        assert_eq!(unfinished.check_result().unwrap(), ResultCheck { counted: None, warning: None });
        for (tags, result, says) in [
            ("[Result \"W+\"]", "B+", "the Result tag says W+, the result token B+"),
            ("[Result \"B+\"]", "*", "the Result tag says B+, the result token *"),
            ("[Termination \"normal\"]", "B+", "no one has won on the board after 2 turns"),
        ] {
            let check = game(tags, result).check_result().unwrap();
            assert_eq!(check.counted, None, "{tags}");
            assert!(check.warning.as_deref().is_some_and(|w| w.contains(says)), "{tags}: {check:?}");
        }
        let odd = game("[Result \"1-0\"]\n[Termination \"stalemate\"]", "B+").check_result().unwrap();
        assert_eq!(odd.counted, Some(Color::Black));
        let warning = odd.warning.unwrap();
        assert!(warning.contains("bad Result tag") && warning.contains("bad Termination tag"), "{warning}");
    }

    #[test]
    fn a_void_game_counts_for_no_one_and_reads_back_as_written() {
        let text = "[Size \"7\"]\n[Result \"*\"]\n[Termination \"timeout\"]\n\
                    [Reason \"black: no reply to 'boardsize 7' within 1.000 s; no engine had moved: void\"]\n\n1. d4 *\n\n";
        let game = parse_records(text).unwrap().remove(0);
        assert!(game.is_void());
        assert_eq!(game.check_result().unwrap(), ResultCheck { counted: None, warning: None });
        assert_eq!(game.to_string(), text, "a void game is written back byte for byte");
        let unfinished = parse_records("[Size \"7\"]\n1. d4 *\n").unwrap().remove(0);
        assert!(!unfinished.is_void(), "a game without a result and without Termination is not void");
        let normal = parse_records("[Size \"7\"]\n[Termination \"normal\"]\n1. d4 *\n").unwrap().remove(0);
        assert!(!normal.is_void(), "a normal end is never void");
        let decided = parse_records("[Size \"7\"]\n[Termination \"timeout\"]\n1. d4 W+\n").unwrap().remove(0);
        assert!(!decided.is_void(), "a forfeit with a result is not void");
    }

    #[test]
    fn games_are_named_by_number_id_and_players() {
        let mut game = GameRecord::default();
        assert_eq!(game.describe(3), "game 3");
        game.set_tag(tag::ROUND, "7");
        game.set_player(Color::Black, "a");
        game.set_player(Color::White, "b");
        assert_eq!(game.describe(3), "game 3 (round 7), a vs b");
        game.set_tag(tag::GAME, "2-5");
        assert_eq!(game.describe(3), "game 3 (id 2-5), a vs b");
    }
}
