//! The checks of the protocol's extensions, run only when `known_command` offers what
//! they need: `position`, `legal_moves`, `is_legal` and `set_position` against the rules
//! library. They never decide whether an engine is compliant.

use super::session::{Checked, Session};
use crate::referee::engine::controller::shorten;
use veletas_rules::{Game, Move, PlayoutPolicy, Position};

/// `position` gives the position string of the rules library after random moves.
pub(super) fn position(s: &mut Session) -> Checked {
    let mut game = s.new_game()?;
    let empty = s.ok("position")?;
    if empty != game.position().to_string() {
        return Err(format!("at the start 'position' answers '{empty}', not '{}'", game.position()).into());
    }
    s.play_into_play_phase(&mut game)?;
    let position = s.ok("position")?;
    if position != game.position().to_string() {
        return Err(format!(
            "after {} turns 'position' answers '{position}', not '{}'",
            game.moves().len(),
            game.position()
        )
        .into());
    }
    Ok(format!("'{position}' after {} turns", game.moves().len()))
}

/// `legal_moves` lists the rules library's legal moves of a position in play.
pub(super) fn legal_moves(s: &mut Session) -> Checked {
    let mut game = s.new_game()?;
    s.play_into_play_phase(&mut game)?;
    let listed = s.ok("legal_moves")?;
    let mut theirs = Vec::new();
    for word in listed.split_whitespace() {
        let mv =
            game.position().parse_move(word).map_err(|e| format!("'legal_moves' lists '{}': {e}", shorten(word)))?;
        theirs.push(mv.to_string());
    }
    let mut ours: Vec<String> = game.position().legal_moves().iter().map(Move::to_string).collect();
    theirs.sort();
    ours.sort();
    if theirs != ours {
        let extra: Vec<&String> = theirs.iter().filter(|m| !ours.contains(m)).take(3).collect();
        let lacking: Vec<&String> = ours.iter().filter(|m| !theirs.contains(m)).take(3).collect();
        return Err(format!(
            "{} moves listed, the rules have {} (listed but illegal: {extra:?}; legal but not listed: {lacking:?})",
            theirs.len(),
            ours.len()
        )
        .into());
    }
    Ok(format!("{} legal moves in '{}'", ours.len(), game.position()))
}

/// `is_legal` agrees with the rules on a legal move, an illegal one and the wrong side.
pub(super) fn is_legal(s: &mut Session) -> Checked {
    let mut game = s.new_game()?;
    s.play_into_play_phase(&mut game)?;
    let side = game.position().side_to_move();
    let legal = game.position().random_move(&mut s.rng, PlayoutPolicy::Uniform).ok_or("no legal move")?;
    let mut cases =
        vec![(format!("is_legal {side} {legal}"), "true"), (format!("is_legal {} {legal}", !side), "false")];
    if let Some(illegal) = Session::illegal_move(game.position()) {
        cases.push((format!("is_legal {side} {illegal}"), "false"));
    }
    for (command, want) in &cases {
        let said = s.ok(command)?;
        if said != *want {
            return Err(format!("'{command}' answered '{}', not '{want}'", shorten(&said)).into());
        }
    }
    Ok(format!("{} questions answered as the rules do", cases.len()))
}

/// `set_position` of a position reached elsewhere, then `position` gives it back.
pub(super) fn set_position(s: &mut Session) -> Checked {
    let mut game = Game::from_position(Position::with_rules(s.settings.variant(), s.settings.rules()));
    for _ in 0..(game.position().variant().shooters() as usize + 4) {
        if game.position().winner().is_some() {
            break;
        }
        let Some(mv) = game.position().random_move(&mut s.rng, PlayoutPolicy::Uniform) else { break };
        let _ = game.play(mv);
    }
    s.new_game()?;
    let wanted = game.position().to_string();
    s.ok(&format!("set_position {wanted}"))?;
    let position = s.ok("position")?;
    if position != wanted {
        return Err(format!("'set_position {wanted}' then 'position' answers '{position}'").into());
    }
    s.refused("set_position garbage", "invalid position")?;
    let after = s.ok("position")?;
    if after != wanted {
        return Err(format!("a refused 'set_position garbage' changed the position to '{after}'").into());
    }
    Ok(format!("'{wanted}' set and read back; garbage refused"))
}
