//! Every game of record files in one self-contained HTML page: a list of games, the board,
//! the move list, and keys and buttons to step through a game. No network, no server.
//!
//! The rules stay on this side: each game is replayed here with the rules library, and
//! the page gets, per game, the pieces of the start position and, per turn, the squares
//! that changed and what stands on them now (`e2.e6sg8b`: `e2` empty, a shooter on `e6`,
//! a black stone on `g8`; claims show up as `B`/`W`), plus one letter per position for
//! the side to move (`b`, `w`) or the winner (`B`, `W`). The page's JavaScript only
//! applies those changes and draws them with the templates of [`super::svg`], so it
//! draws exactly what `veletas render` draws and never decides anything about the game.
//!
//! The data sits in a `<script type="application/json">` block, one compact array per
//! game, written as each game is read ([`write_page`]: the games come before the table of
//! strings they refer to, so a page's memory is that table, not its games), and the page lists the games virtually (only the visible rows exist), so a
//! 10,000-game tournament file opens quickly (figures in `docs/pictures.md`).

use std::collections::BTreeMap;
use std::fmt::Write as _;

use crate::marks::{self, TurnLoss};
use crate::output::CannotWrite;
use crate::picture::svg::{
    self, CELL, Layout, MIN_LINE, MOVE_INSET, MOVE_LINE, PIECES, SHOT_INSET, SHOT_LINE, SquareMark,
};
use veletas_rules::record::{Annotation, GameRecord, RecordError, result_token, tag};
use veletas_rules::{Color, Position, Variant};

/// The page around the data: HTML, CSS and JavaScript (`{{TITLE}}` and `{{DATA}}` are
/// filled in).
const TEMPLATE: &str = include_str!("viewer.html");

use serde::Serialize;

use super::{PageDataError, html_escape, script_json};

/// Why a viewer page could not be made or written ([`write_page`], [`page`]): one line.
#[derive(Debug, thiserror::Error)]
pub enum PageError {
    /// Writing the page failed: `cannot write: ...`.
    #[error(transparent)]
    Write(#[from] CannotWrite),
    /// The page's data could not be written as JSON: `page data: ...`.
    #[error(transparent)]
    Data(#[from] PageDataError),
    /// The page's data is not the JSON object the page expects.
    #[error("page data: not an object")]
    NotObject,
    /// The viewer's template lacks one of its markers (`title`, `panel`, `data`).
    #[error("the viewer template has no {0} marker")]
    Template(&'static str),
    /// The page made in memory is not UTF-8.
    #[error("page: {0}")]
    Text(#[from] std::string::FromUtf8Error),
}

impl From<PageError> for String {
    fn from(e: PageError) -> String {
        e.to_string()
    }
}

/// The pieces of `position` as changes from the empty board (`c3sf6b`...).
fn piece_list(position: &Position) -> String {
    let mut out = String::new();
    for sq in position.variant().board() {
        if let Some(piece) = position.piece_at(sq) {
            let _ = write!(out, "{sq}{}", svg::piece_letter(piece));
        }
    }
    out
}

/// The squares whose content differs between `before` and `after`, with what stands on
/// them after (`.` for empty); `-` when nothing changed (the swap).
fn changes(before: &Position, after: &Position) -> String {
    let mut out = String::new();
    for sq in after.variant().board() {
        let now = after.piece_at(sq);
        if before.piece_at(sq) != now {
            let _ = write!(out, "{sq}{}", now.map_or('.', svg::piece_letter));
        }
    }
    if out.is_empty() { "-".to_string() } else { out }
}

/// One letter for a position: the side to move (`b`, `w`), or the winner (`B`, `W`).
fn state(position: &Position) -> char {
    match position.winner() {
        Some(winner) => winner.name().chars().next().map_or('?', |c| c.to_ascii_uppercase()),
        None => position.side_to_move().name().chars().next().unwrap_or('?'),
    }
}

/// The key of a board frame: its size, and `n` with `no-corners`.
fn frame_key(position: &Position) -> String {
    format!("{}{}", position.variant().size(), if position.rules().no_corners { "n" } else { "" })
}

/// Strings that repeat from game to game (names, tag names and values), stored once in
/// the page and referred to by their index.
#[derive(Default)]
struct Strings {
    list: Vec<String>,
    index: std::collections::HashMap<String, usize>,
}

impl Strings {
    fn id(&mut self, text: &str) -> usize {
        if let Some(&i) = self.index.get(text) {
            return i;
        }
        self.list.push(text.to_string());
        self.index.insert(text.to_string(), self.list.len() - 1);
        self.list.len() - 1
    }
}

/// One game as the page's JSON array: `[file, black, white, result, termination, reason,
/// frame, rules, start pieces, moves, changes, states, tags, annotations, best lines]`, where the names,
/// the termination, the reason, the rules and the tags (name, value, name, value...) are
/// indices in the page's table of strings. The result is the one the replay decides
/// ([`GameRecord::check_against`]). The annotations are empty when the record has none,
/// else one word per turn: `-`, or `MS,WIN,VISITS,LOST,MARK` (the turn's time in
/// milliseconds, Black's win rate in hundredths of a percent by the estimate of the engine
/// that played the turn, its visits; how much the turn lowered its mover's chance, in
/// hundredths of a point, and the index of its mark in the page's `marks`
/// ([`marks::turn_losses`]); each part empty when not known). The best lines are empty when
/// no turn has one, else one word per turn: `-`, or the turns of the engine's best line from
/// the position before the turn joined by `;` (as the annotation's `pv=` writes them).
#[derive(Serialize)]
struct GameRow(
    usize,
    usize,
    usize,
    &'static str,
    usize,
    usize,
    String,
    usize,
    String,
    String,
    String,
    String,
    Vec<usize>,
    String,
    String,
);

fn game_json(
    file: usize,
    record: &GameRecord,
    frames: &mut Vec<String>,
    strings: &mut Strings,
) -> Result<GameRow, RecordError> {
    let (mut moves, mut diffs) = (Vec::with_capacity(record.moves().len()), Vec::with_capacity(record.moves().len()));
    let mut states = String::with_capacity(record.moves().len() + 1);
    let mut movers = Vec::with_capacity(record.moves().len());
    let mut previous: Option<Position> = None;
    let game = record.replay_each(None, |game, mv| {
        let before = game.position();
        if let Some(earlier) = &previous {
            diffs.push(changes(earlier, before));
        }
        states.push(state(before));
        moves.push(mv.to_string());
        movers.push(before.side_to_move());
        previous = Some(before.clone());
    })?;
    if let Some(earlier) = &previous {
        diffs.push(changes(earlier, game.position()));
    }
    states.push(state(game.position()));
    let mut notes = Vec::new();
    let mut lines = Vec::new();
    if (0..record.moves().len()).any(|i| record.annotation(i).best_line.is_some()) {
        for i in 0..record.moves().len() {
            lines.push(record.annotation(i).best_line.map_or("-".to_string(), |l| l.turns().join(";")));
        }
    }
    if record.has_annotations() {
        let losses = marks::turn_losses(&marks::black_chances(record, &movers), &movers);
        for (i, (mover, loss)) in movers.iter().zip(losses).enumerate() {
            notes.push(annotation_word(record.annotation(i), *mover, loss));
        }
    }
    let start = game.start().clone();
    let key = frame_key(&start);
    if !frames.contains(&key) {
        frames.push(key.clone());
    }
    let checked = record.check_against(game.position().winner());
    let mut tag = |name: &str| strings.id(record.tag(name).unwrap_or(""));
    let (black, white) = (tag(tag::BLACK), tag(tag::WHITE));
    let (termination, reason) = (tag(tag::TERMINATION), tag(tag::REASON));
    let rules = strings.id(&start.rules().label());
    let tags: Vec<usize> = record.tags().flat_map(|(n, v)| [strings.id(n), strings.id(v)]).collect();
    Ok(GameRow(
        file,
        black,
        white,
        result_token(checked.counted),
        termination,
        reason,
        key,
        rules,
        piece_list(&start),
        moves.join(" "),
        diffs.join(" "),
        states,
        tags,
        notes.join(" "),
        lines.join(" "),
    ))
}

/// A turn's annotation as the page reads it (see [`game_json`]): `mover` played the turn,
/// which lost its mover `loss`.
fn annotation_word(annotation: Annotation, mover: Color, loss: Option<TurnLoss>) -> String {
    if annotation.is_empty() && loss.is_none() {
        return "-".into();
    }
    let time = annotation.time.map_or(String::new(), |t| t.as_millis().to_string());
    let (black, visits) = match annotation.evaluation {
        Some(e) => {
            let rate = if mover == Color::Black { e.winrate } else { e.winrate.other_side() };
            (rate.hundredths().to_string(), e.visits.to_string())
        }
        None => (String::new(), String::new()),
    };
    let (lost, mark) = match loss {
        Some(TurnLoss { lost, mark }) => {
            let index = mark.and_then(|m| marks::MARKS.iter().position(|k| k == m));
            (lost.to_string(), index.map_or(String::new(), |i| i.to_string()))
        }
        None => (String::new(), String::new()),
    };
    format!("{time},{black},{visits},{lost},{mark}")
}

/// The drawing parts the page needs: geometry, frames, piece and mark templates, lines.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Drawing {
    cell: u32,
    left: u32,
    top: u32,
    min_line: (u32, u32),
    move_inset: (u32, u32),
    shot_inset: (u32, u32),
    defs: String,
    move_line: &'static str,
    shot_line: &'static str,
    /// Piece letter: its class and template.
    pieces: BTreeMap<String, (String, String)>,
    marks: Marks,
    /// Frame key (size, `n` without corners): the empty board.
    frames: BTreeMap<String, Frame>,
}

#[derive(Serialize)]
struct Marks {
    from: String,
    to: String,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Frame {
    size: u8,
    to_win: u8,
    width: u32,
    height: u32,
    svg: String,
}

fn drawing_json(frames: &[String]) -> Drawing {
    let layout = Layout::new(10, true);
    let pieces = PIECES
        .iter()
        .map(|&p| (svg::piece_letter(p).to_string(), (svg::piece_class(p), svg::piece_template(p))))
        .collect();
    let mut entries = BTreeMap::new();
    for key in frames {
        let no_corners = key.ends_with('n');
        let size: u8 = key.trim_end_matches('n').parse().unwrap_or(10);
        let Some(variant) = Variant::from_size(size) else { continue };
        let rules = veletas_rules::Rules::CLASSIC.with_no_corners(no_corners);
        let layout = Layout::new(size, true);
        let frame = Frame {
            size,
            to_win: variant.claims_to_win(),
            width: layout.width(),
            height: layout.board_height(),
            svg: svg::frame(variant, rules, layout),
        };
        entries.insert(key.clone(), frame);
    }
    Drawing {
        cell: CELL,
        left: layout.left(),
        top: layout.top(),
        min_line: MIN_LINE,
        move_inset: MOVE_INSET,
        shot_inset: SHOT_INSET,
        defs: svg::defs(),
        move_line: MOVE_LINE,
        shot_line: SHOT_LINE,
        pieces,
        marks: Marks { from: svg::mark_template(SquareMark::From), to: svg::mark_template(SquareMark::To) },
        frames: entries,
    }
}

/// The head of the page's data: what the viewer's script reads before the games.
#[derive(Serialize)]
struct PageHead<'a> {
    title: &'a str,
    generator: &'static str,
    files: &'a [&'a str],
    /// The turns' marks, the heaviest first: `[name, symbol]` ([`marks::MARKS`]).
    marks: Vec<[&'static str; 2]>,
}

/// The rest of the page's data, after the games: what drawing them needs.
#[derive(Serialize)]
struct PageTail<'a> {
    drawing: Drawing,
    strings: &'a [String],
}

/// The games of a page being written ([`write_page`]): each is replayed and written out
/// as it is added, so that the page's memory is its table of strings and its frames, not
/// its games.
pub struct PageGames<'w> {
    out: &'w mut dyn std::io::Write,
    frames: Vec<String>,
    strings: Strings,
    rows: usize,
}

impl PageGames<'_> {
    /// Adds game `number` of file `file` (its index in the page's files, named `name`): a
    /// game that does not replay is left out with a warning on stderr naming it, as
    /// `ratings` leaves it out. The error is a failed write (one line).
    pub fn add(&mut self, file: usize, name: &str, number: usize, record: &GameRecord) -> Result<(), PageError> {
        let game = match game_json(file, record, &mut self.frames, &mut self.strings) {
            Ok(game) => game,
            Err(e) => {
                crate::records::warn(&format!("{name}: game {number}: {e}: skipped"));
                return Ok(());
            }
        };
        let row = script_json(&game)?;
        let separator = if self.rows == 0 { "" } else { ",\n" };
        self.rows += 1;
        Ok(write!(self.out, "{separator}{row}").map_err(CannotWrite)?)
    }

    /// How many games have been written.
    pub fn count(&self) -> usize {
        self.rows
    }
}

/// Writes the viewer page to `out` as its games come: `title` (HTML-escaped here),
/// `panel` (trusted HTML, see [`page_with_panel`]), the names of the `files`, then the games
/// `games` adds ([`PageGames::add`]), then what drawing them takes. The games come before
/// the table of strings they refer to, so none is held until the end. The error is the
/// page's ([`PageError`]) or what `games` gave up on.
pub fn write_page<E: From<PageError>>(
    out: &mut dyn std::io::Write,
    title: &str,
    panel: &str,
    files: &[&str],
    games: impl FnOnce(&mut PageGames<'_>) -> Result<(), E>,
) -> Result<(), E> {
    let failed = |e: std::io::Error| PageError::Write(CannotWrite(e));
    // Split the template rather than replace, so that no title or tag can hold a marker.
    let (head, rest) = TEMPLATE.split_once("{{TITLE}}").ok_or(PageError::Template("title"))?;
    let (top, rest) = rest.split_once("{{PANEL}}").ok_or(PageError::Template("panel"))?;
    let (middle, tail) = rest.split_once("{{DATA}}").ok_or(PageError::Template("data"))?;
    let marks = marks::MARKS.iter().map(|m| [m.name, m.symbol]).collect();
    let data = PageHead { title, generator: concat!("veletas ", env!("CARGO_PKG_VERSION")), files, marks };
    let data = script_json(&data).map_err(PageError::from)?;
    let data = data.strip_suffix('}').ok_or(PageError::NotObject)?;
    for part in [head, &html_escape(title), top, panel, middle, data, ",\"games\":[\n"] {
        out.write_all(part.as_bytes()).map_err(failed)?;
    }
    let mut page = PageGames { out, frames: Vec::new(), strings: Strings::default(), rows: 0 };
    games(&mut page)?;
    // Then what drawing them takes, once they are all known.
    let rest = PageTail { drawing: drawing_json(&page.frames), strings: &page.strings.list };
    let rest = script_json(&rest).map_err(PageError::from)?;
    let rest = rest.strip_prefix('{').ok_or(PageError::NotObject)?;
    let end = if page.rows == 0 { "]," } else { "\n]," };
    for part in [end, rest, tail] {
        page.out.write_all(part.as_bytes()).map_err(failed)?;
    }
    Ok(page.out.flush().map_err(failed)?)
}

/// The title a page of `files` takes without one given: the first game's `Event` tag.
pub fn default_title(files: &[(String, Vec<GameRecord>)]) -> String {
    files
        .iter()
        .flat_map(|(_, records)| records.first())
        .find_map(|r| r.tag(tag::EVENT))
        .unwrap_or("Veletas games")
        .to_string()
}

/// The page for the games of `files` (each a name and its games). Every game is
/// replayed; one that does not replay is left out with a warning on stderr naming it.
pub fn page(files: &[(String, Vec<GameRecord>)], title: Option<&str>) -> Result<String, PageError> {
    page_with_panel(files, title, "")
}

/// The page of [`page`] with `panel` (HTML, trusted: the caller escapes what it holds)
/// between the header and the games. A panel that is a `<div id="report"
/// data-tab="NAME">` becomes a tab beside the games, and its elements with
/// `data-pair-a`/`data-pair-b` (two engine names) or `data-engine` (one) show those
/// engines' games when clicked: the reports of `veletas ratings --format html` and
/// `--report` are built so (`crate::report`). The viewer itself knows nothing of ratings.
pub fn page_with_panel(
    files: &[(String, Vec<GameRecord>)],
    title: Option<&str>,
    panel: &str,
) -> Result<String, PageError> {
    let title = title.map_or_else(|| default_title(files), str::to_string);
    let names: Vec<&str> = files.iter().map(|(name, _)| name.as_str()).collect();
    let mut out = Vec::new();
    write_page::<PageError>(&mut out, &title, panel, &names, |page| {
        for (index, (name, records)) in files.iter().enumerate() {
            for (n, record) in records.iter().enumerate() {
                page.add(index, name, n + 1, record)?;
            }
        }
        Ok(())
    })?;
    Ok(String::from_utf8(out)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn changes_name_every_square_that_changed() {
        let before: Position = "7/7/2s4/7/4s2/1s5/7 b".parse().unwrap();
        let mut after = before.clone();
        after.play(before.parse_move("c5-c7/e7").unwrap()).unwrap();
        assert_eq!(changes(&before, &after), "c5.c7se7b");
        assert_eq!(changes(&before, &before), "-");
        assert_eq!(piece_list(&before), "b2se3sc5s");
    }
}
