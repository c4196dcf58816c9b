//! The marks of a reviewed game's turns: `?!` an inaccuracy, `?` a mistake, `??` a blunder,
//! by how much a turn lowered its mover's chance of winning (docs/gui.md states the
//! thresholds). [`MARKS`] is the one place they are set: `veletas view` marks a record's
//! turns with [`turn_losses`] and [`mark_of`], and `veletas gui` hands the same thresholds to its page.
//!
//! A turn's loss is its mover's chance in the position before it minus its mover's chance in
//! the position after it, each by the analysis of that position: a record's annotation of
//! turn `i` holds the analysis of the position before turn `i` (the win rate of the best
//! turn there, for the side to move), as the GUI's saved records and `veletas
//! analyse-games` write it. The last turn, after which no turn holds an analysis, gets none.

use veletas_rules::Color;
use veletas_rules::record::{GameRecord, WinRate};

/// One kind of mark: a turn that lowered its mover's chance by `lost` or more is marked so.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mark {
    /// The least loss, in hundredths of a percentage point of the mover's chance.
    pub lost: u16,
    /// Its name: `inaccuracy`, `mistake`, `blunder`.
    pub name: &'static str,
    /// Its sign after the move: `?!`, `?`, `??`.
    pub symbol: &'static str,
}

/// The marks, the heaviest first: a blunder loses 20 points of the mover's chance or more, a
/// mistake 10, an inaccuracy 5.
pub const MARKS: [Mark; 3] = [
    Mark { lost: 2000, name: "blunder", symbol: "??" },
    Mark { lost: 1000, name: "mistake", symbol: "?" },
    Mark { lost: 500, name: "inaccuracy", symbol: "?!" },
];

/// The heaviest mark a loss of `lost` hundredths of a point earns, if any.
pub fn mark_of(lost: i32) -> Option<&'static Mark> {
    MARKS.iter().find(|m| lost >= i32::from(m.lost))
}

/// What the analyses say of one turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TurnLoss {
    /// How much the turn lowered its mover's chance, in hundredths of a point (negative: it
    /// raised it).
    pub lost: i32,
    /// The mark it earns, if any.
    pub mark: Option<&'static Mark>,
}

/// Black's chance in the position before each turn of `record` whose annotation holds a win
/// rate, given the side that played each turn (`movers[i]` played turn `i`).
pub fn black_chances(record: &GameRecord, movers: &[Color]) -> Vec<Option<WinRate>> {
    movers
        .iter()
        .enumerate()
        .map(|(i, mover)| {
            let rate = record.annotation(i).evaluation?.winrate;
            Some(if *mover == Color::Black { rate } else { rate.other_side() })
        })
        .collect()
}

/// For each turn, its loss and mark where the positions before and after it were both
/// analysed (`black[i]`: Black's chance before turn `i`, [`black_chances`]; `movers[i]`: the
/// side that played turn `i`).
pub fn turn_losses(black: &[Option<WinRate>], movers: &[Color]) -> Vec<Option<TurnLoss>> {
    (0..movers.len())
        .map(|i| {
            let before = i32::from(black.get(i).copied().flatten()?.hundredths());
            let after = i32::from(black.get(i + 1).copied().flatten()?.hundredths());
            let lost = if movers[i] == Color::Black { before - after } else { after - before };
            Some(TurnLoss { lost, mark: mark_of(lost) })
        })
        .collect()
}

/// The marks as the GUI's page takes them: `[[least loss (0 to 1), name, symbol], ...]`, the
/// heaviest first.
pub fn marks_json() -> serde_json::Value {
    MARKS.iter().map(|m| serde_json::json!([f64::from(m.lost) / 10_000.0, m.name, m.symbol])).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rate(percent: u16) -> Option<WinRate> {
        WinRate::from_hundredths(percent * 100)
    }

    #[test]
    fn losses_are_the_movers_and_earn_the_heaviest_mark_reached() {
        use Color::{Black, White};
        // Black's chance: 50, 45, 70, 40, 39, unknown, 10.
        let black = [rate(50), rate(45), rate(70), rate(40), rate(39), None, rate(10)];
        let movers = [Black, White, Black, White, Black, White, Black];
        let losses = turn_losses(&black, &movers);
        let marks: Vec<Option<&str>> = losses.iter().map(|l| l.and_then(|l| l.mark).map(|m| m.symbol)).collect();
        // Black 50 -> 45 loses 5 (?!); White 55 -> 30 loses 25 (??); Black 70 -> 40 loses 30
        // (??); White 60 -> 61 gains; then unknown positions, and no position after the last.
        assert_eq!(marks, [Some("?!"), Some("??"), Some("??"), None, None, None, None]);
        assert_eq!(losses[3].map(|l| l.lost), Some(-100));
        assert_eq!(losses[4], None, "the position after turn 5 has no analysis");
        assert_eq!(mark_of(499).map(|m| m.name), None);
        assert_eq!(mark_of(500).map(|m| m.name), Some("inaccuracy"));
        assert_eq!(mark_of(999).map(|m| m.name), Some("inaccuracy"));
        assert_eq!(mark_of(1000).map(|m| m.name), Some("mistake"));
        assert_eq!(mark_of(1999).map(|m| m.name), Some("mistake"));
    }

    #[test]
    fn the_page_gets_the_same_thresholds_heaviest_first() {
        assert_eq!(marks_json().to_string(), r#"[[0.2,"blunder","??"],[0.1,"mistake","?"],[0.05,"inaccuracy","?!"]]"#);
    }
}
