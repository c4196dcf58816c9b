//! Positions off the game's own line, and how a finished position reads: a variation is a
//! position of the game (after some of its turns) followed by turns tried on the page, which
//! never change the game ([`VariationView`]); [`status_lines`] adds to the status of a won
//! position the claim that decided it.

use serde::Serialize;
use veletas_rules::{Color, Game, Move};
use veletas_tools::picture::svg::{self, SvgOptions};

use crate::analysis_view::AnalysisView;
use crate::steps::{self, Steps};

/// The most turns a variation may add to a position of the game.
pub const MAX_VARIATION: usize = 200;

/// The page's view of a variation's position.
#[derive(Clone, Debug, Serialize)]
pub struct VariationView {
    /// The game's id.
    pub id: u64,
    /// The position of the game the variation leaves from: after this many of its turns.
    pub turn: usize,
    /// The variation's turns, in notation (as the rules library writes them).
    pub moves: Vec<String>,
    /// The position string.
    pub position: String,
    /// The board, the variation's last turn marked.
    pub svg: String,
    /// `black` or `white`.
    pub to_move: String,
    /// Whether the game is over in this position.
    pub over: bool,
    /// The position's status lines.
    pub status: Vec<String>,
    /// The targets of the next click of a turn after the picks asked about (`None` once
    /// the position is over).
    pub steps: Option<Steps>,
    /// The latest analysis of this position, if any.
    pub analysis: Option<AnalysisView>,
}

/// Why a variation cannot be shown.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadVariation(pub String);

impl std::fmt::Display for BadVariation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// `start` (a position of the game) followed by the turns `moves`, each checked with the
/// rules.
pub fn play_out(start: &Game, moves: &[String]) -> Result<Game, BadVariation> {
    if moves.len() > MAX_VARIATION {
        return Err(BadVariation(format!("a variation has at most {MAX_VARIATION} turns")));
    }
    let mut game = start.clone();
    for (i, text) in moves.iter().enumerate() {
        let shown = veletas_rules::quoted_to(text, 40);
        let bad = |e: String| BadVariation(format!("turn {} of the variation, '{shown}': {e}", i + 1));
        let mv = game.position().parse_move(text).map_err(|e| bad(e.to_string()))?;
        game.play(mv).map_err(|e| bad(e.to_string()))?;
    }
    Ok(game)
}

/// The view of the variation `game` (the game's first `turn` turns, then the variation's
/// `moves`), with the targets of the next click after `picks` and its `analysis`.
pub fn view(
    id: u64,
    game: &Game,
    turn: usize,
    picks: &[String],
    analysis: Option<AnalysisView>,
) -> Result<VariationView, BadVariation> {
    let position = game.position();
    let last = game.moves().last();
    let options = SvgOptions { width: 560, coordinates: true, status: false };
    let steps =
        if position.is_over() { None } else { Some(steps::steps(position, picks).map_err(|e| BadVariation(e.0))?) };
    Ok(VariationView {
        id,
        turn,
        moves: game.moves().skip(turn).map(|m| m.to_string()).collect(),
        position: position.to_string(),
        svg: svg::render(position, last.as_ref(), &options),
        to_move: position.side_to_move().to_string(),
        over: position.is_over(),
        status: status_lines(game),
        steps,
        analysis,
    })
}

/// The status lines of `game`'s position (as `veletas render` writes them), and for a
/// position won on the board, the line that says which claim decided it: the shooters the
/// winner claimed with the last turn.
pub fn status_lines(game: &Game) -> Vec<String> {
    let last = game.moves().last();
    let mut lines = svg::status_lines(game.position(), last.as_ref());
    if let Some(line) = decided_by(game) {
        lines.insert(1, line);
    }
    lines
}

/// Which claim decided a won game: `Black claimed the shooter on f6 with White's turn 17
/// (d4-d7/e6): 3 claims, 3 to win`.
pub fn decided_by(game: &Game) -> Option<String> {
    let winner = game.position().winner()?;
    let last: Move = game.moves().last()?;
    let mut before = game.clone();
    before.undo().ok()?;
    let mover = before.position().side_to_move();
    let new = game.position().claimed(winner) & !before.position().claimed(winner);
    let mut squares: Vec<_> = new.into_iter().collect();
    squares.sort_by_key(|sq| sq.file_major_key());
    if squares.is_empty() {
        return None;
    }
    let names: Vec<String> = squares.iter().map(ToString::to_string).collect();
    let claims = game.position().claims(winner);
    let need = game.position().variant().claims_to_win();
    let whose = if mover == winner { "its".to_string() } else { format!("{}'s", capitalized(mover)) };
    let what = if names.len() == 1 { "the shooter on" } else { "the shooters on" };
    Some(format!(
        "{} claimed {what} {} with {whose} turn {} ({last}): {claims} claims, {need} to win",
        capitalized(winner),
        names.join(" and "),
        game.moves().len(),
    ))
}

fn capitalized(color: Color) -> &'static str {
    match color {
        Color::Black => "Black",
        Color::White => "White",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use veletas_rules::{Position, Variant};

    fn moves(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn a_variation_is_played_turn_by_turn_and_a_bad_turn_is_named() {
        let start = Game::from_position(Position::new(Variant::from_size(7).unwrap()));
        let game = play_out(&start, &moves(&["d4", "b2,f6", "d4-d7/d4"])).unwrap();
        assert_eq!(game.moves().count(), 3);
        let error = play_out(&start, &moves(&["d4", "b2,f6", "d4-e6/d4"])).unwrap_err();
        assert!(error.0.starts_with("turn 3 of the variation, 'd4-e6/d4': "), "{error}");
        let control = play_out(&start, &moves(&["d4\u{1b}"])).unwrap_err();
        assert!(control.0.contains("d4\\u{1b}"), "{control}");
        let long = vec!["d4".to_string(); MAX_VARIATION + 1];
        assert!(play_out(&start, &long).is_err());
    }

    #[test]
    fn a_view_gives_the_variation_turns_and_the_targets_after_the_picks() {
        let start = Game::from_position(Position::new(Variant::from_size(7).unwrap()));
        let game = play_out(&start, &moves(&["d4", "b2,f6"])).unwrap();
        let at_one = view(1, &game, 1, &moves(&["d4"]), None).unwrap();
        assert_eq!(at_one.moves, ["b2,f6"]);
        assert_eq!(at_one.steps.unwrap().prompt, "the shooter's destination");
        assert!(view(1, &game, 1, &moves(&["a1"]), None).is_err());
    }

    #[test]
    fn a_won_game_says_which_claim_decided_it() {
        let mut game = Game::from_position(Position::new(Variant::from_size(7).unwrap()));
        for i in 0..500 {
            if game.position().is_over() {
                break;
            }
            assert!(decided_by(&game).is_none());
            let legal = game.position().legal_moves();
            game.play(legal[(i * 7 + 3) % legal.len()]).unwrap();
        }
        let winner = capitalized(game.position().winner().expect("the game ends"));
        let line = decided_by(&game).expect("a claim decided it");
        assert!(line.starts_with(&format!("{winner} claimed the shooter")), "{line}");
        assert!(line.contains(&format!(" turn {} (", game.moves().count())), "{line}");
        assert_eq!(status_lines(&game)[1], line);
        assert!(status_lines(&game)[0].starts_with(&format!("{winner} wins")));
    }
}
