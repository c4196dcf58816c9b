//! HTML panels of results: a field's [`Standings`] (standings, crosstable, LOS matrix,
//! head to head, notes) and a match's summary ([`MatchPanel`]).
//!
//! The panels are well-formed XML fragments (every element closed, every text and
//! attribute escaped), so tests can parse them with an XML parser. The numbers are those
//! of `crate::ratings`'s text report, formatted the same way. Engine names and pairs are
//! `data-engine` / `data-pair-a` + `data-pair-b` attributes, which the viewer
//! (`crate::picture::viewer`) turns into links to the games.

use std::fmt::Write as _;

use crate::picture::html_escape;
use crate::ratings::render::{signed, tenths, whole};
use crate::ratings::{RatingBound, Standings};

/// The panels' style sheet (also used by the live page).
pub const STYLE: &str = r#"<style>
#report .report-inner { max-width: 1100px; margin: 0 auto; padding: 12px 20px 32px; }
#report h2 { font-size: 16px; margin: 22px 0 6px; }
#report p { margin: 4px 0; }
#report .hint, #report .notes { color: var(--muted, #656d76); font-size: 12px; }
#report table { border-collapse: collapse; font-variant-numeric: tabular-nums; }
#report th, #report td { padding: 3px 9px; border-bottom: 1px solid var(--line, #d0d7de); text-align: right; white-space: nowrap; }
#report th { font-size: 12px; color: var(--muted, #656d76); font-weight: 600; background: var(--panel, #f6f8fa); }
#report td.name, #report th.name { text-align: left; }
#report td.rating { font-weight: 600; }
#report tbody tr:hover { background: #f3f7fd; }
#report .engine, #report .pair { font: inherit; color: var(--accent, #1f5fbf); background: none; border: 0; padding: 0; cursor: pointer; text-decoration: underline; text-decoration-color: #b7c9e8; }
#report .engine:hover, #report .pair:hover { text-decoration-color: currentColor; }
#report td.self { color: #b0b7bf; background: #fafbfc; }
#report td.none { color: #b0b7bf; }
#report table.matrix td.cell { min-width: 56px; text-align: center; }
#report td.good { background: #e3f1e6; }
#report td.bad { background: #fbe9e7; }
#report table.summary td { text-align: left; white-space: normal; }
#report table.summary td:first-child { color: var(--muted, #656d76); padding-right: 24px; }
</style>
"#;

/// A button showing `name`'s games.
fn engine_button(name: &str) -> String {
    let name = html_escape(name);
    format!(r#"<button type="button" class="engine" data-engine="{name}" title="Games of {name}">{name}</button>"#)
}

/// The class of a cell shaded by how well the row's engine did: good, bad or neither.
fn shade(fraction: f64) -> &'static str {
    if fraction >= 0.75 {
        " good"
    } else if fraction <= 0.25 {
        " bad"
    } else {
        ""
    }
}

/// The standings panel: a `<div id="report" data-tab="Standings">` with the standings
/// (rank, name, rating with its mark, 95% error, games, score, results by colour), the
/// crosstable (each cell a link to the pair's games), the LOS matrix, each pair's own
/// Elo, and the notes.
pub fn standings_panel(standings: &Standings, lead: &str) -> String {
    let mut out = String::from(r#"<div id="report" data-tab="Standings"><div class="report-inner">"#);
    let base = match &standings.anchor {
        Some((name, rating)) => format!("{} anchored at {}", html_escape(name), signed(*rating)),
        None => "mean 0".to_string(),
    };
    if !lead.is_empty() {
        let _ = write!(out, "<p>{}</p>", html_escape(lead));
    }
    let _ = write!(
        out,
        r#"<h2>Standings</h2><p class="hint">Ratings of {} engines from {} games (logistic Elo, {base}; error: 95% interval). Click a name or a crosstable cell for its games.</p>"#,
        standings.engines.len(),
        standings.games
    );
    out.push_str(
        r#"<table class="standings"><thead><tr><th>Rank</th><th class="name">Engine</th><th>Rating</th><th>Error</th><th>Games</th><th>Score</th><th>As Black</th><th>As White</th></tr></thead><tbody>"#,
    );
    for e in &standings.engines {
        let mark_title = match e.mark {
            RatingBound::Exact => "",
            RatingBound::AtLeast => " title=\"at least: never lost to the rest of the field\"",
            RatingBound::AtMost => " title=\"at most: never beat the rest of the field\"",
            RatingBound::Unpinned => " title=\"not pinned by the results\"",
        };
        let _ = write!(
            out,
            r#"<tr data-rank="{}"><td class="rank">{}</td><td class="name">{}</td><td class="rating"{mark_title}>{}{}</td><td class="error">{}</td><td class="games">{}</td><td class="score">{}%</td><td class="black">{}/{}</td><td class="white">{}/{}</td></tr>"#,
            e.rank,
            e.rank,
            engine_button(&e.name),
            html_escape(e.mark.symbol()),
            signed(e.rating),
            whole(e.error),
            e.games(),
            tenths(e.score_percent()),
            e.as_black.wins,
            e.as_black.games(),
            e.as_white.wins,
            e.as_white.games()
        );
    }
    out.push_str("</tbody></table>");

    let header = |out: &mut String| {
        out.push_str(r#"<thead><tr><th>Rank</th><th class="name">Engine</th>"#);
        for e in &standings.engines {
            let _ = write!(out, r#"<th title="{}">{}</th>"#, html_escape(&e.name), e.rank);
        }
        out.push_str("</tr></thead><tbody>");
    };
    out.push_str(r#"<h2>Crosstable</h2><p class="hint">Wins-losses of the row's engine against the column's.</p>"#);
    out.push_str(r#"<table class="matrix crosstable">"#);
    header(&mut out);
    for (i, e) in standings.engines.iter().enumerate() {
        let _ = write!(out, r#"<tr><td class="rank">{}</td><td class="name">{}</td>"#, e.rank, engine_button(&e.name));
        for (j, score) in standings.crosstable[i].iter().enumerate() {
            let other = &standings.engines[j].name;
            if i == j {
                out.push_str(r#"<td class="cell self">&#183;</td>"#);
            } else if score.games() == 0 {
                out.push_str(r#"<td class="cell none">&#8211;</td>"#);
            } else {
                let _ = write!(
                    out,
                    r#"<td class="cell{}"><button type="button" class="pair" data-pair-a="{}" data-pair-b="{}" title="{} against {}: {} games">{}-{}</button></td>"#,
                    shade(score.fraction().unwrap_or(0.5)),
                    html_escape(&e.name),
                    html_escape(other),
                    html_escape(&e.name),
                    html_escape(other),
                    score.games(),
                    score.wins,
                    score.losses
                );
            }
        }
        out.push_str("</tr>");
    }
    out.push_str("</tbody></table>");

    out.push_str(
        r#"<h2>Likelihood of superiority</h2><p class="hint">Percent: the row's engine is stronger than the column's (from the model).</p>"#,
    );
    out.push_str(r#"<table class="matrix los">"#);
    header(&mut out);
    for (i, e) in standings.engines.iter().enumerate() {
        let _ = write!(out, r#"<tr><td class="rank">{}</td><td class="name">{}</td>"#, e.rank, html_escape(&e.name));
        for (j, p) in standings.los[i].iter().enumerate() {
            if i == j {
                out.push_str(r#"<td class="cell self">&#183;</td>"#);
            } else {
                let _ = write!(out, r#"<td class="cell{}">{:.0}</td>"#, shade(*p), p * 100.0);
            }
        }
        out.push_str("</tr>");
    }
    out.push_str("</tbody></table>");

    let pairs = standings.head_to_head();
    if !pairs.is_empty() {
        out.push_str(
            r#"<h2>Head to head</h2><p class="hint">Each pair's games alone: Elo of the first over the second, 95% interval."#,
        );
        if pairs.iter().any(|p| p.interval.adjusted) {
            let _ = write!(out, " {}", html_escape(crate::ratings::ADJUSTED_NOTE));
        }
        out.push_str("</p>");
        out.push_str(
            r#"<table class="h2h"><thead><tr><th class="name">First</th><th class="name">Second</th><th>Result</th><th>Score</th><th>Elo</th><th>Interval</th></tr></thead><tbody>"#,
        );
        for p in pairs {
            let (a, b) = (&standings.engines[p.first].name, &standings.engines[p.second].name);
            let i = p.interval;
            let _ = write!(
                out,
                r#"<tr><td class="name">{}</td><td class="name">{}</td><td><button type="button" class="pair" data-pair-a="{}" data-pair-b="{}">{}-{}</button></td><td>{}%</td><td>{}</td><td>[{}, {}]</td></tr>"#,
                html_escape(a),
                html_escape(b),
                html_escape(a),
                html_escape(b),
                p.score.wins,
                p.score.losses,
                tenths(p.score.fraction().unwrap_or(0.0) * 100.0),
                signed(i.elo),
                signed(i.lower),
                signed(i.upper)
            );
        }
        out.push_str("</tbody></table>");
    }
    notes(&mut out, &standings.notes);
    out.push_str("</div></div>");
    out
}

fn notes(out: &mut String, notes: &[String]) {
    if !notes.is_empty() {
        out.push_str(r#"<div class="notes">"#);
        for note in notes {
            let _ = write!(out, "<p>Note: {}</p>", html_escape(note));
        }
        out.push_str("</div>");
    }
}

/// A match's summary as the report shows it: the two engines and labelled lines (score,
/// Elo with its interval, LOS, pentanomial...), formatted by the referee.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MatchPanel {
    /// Engine 1 and engine 2, as the records name them.
    pub engines: [String; 2],
    /// Label and value of each line, in order.
    pub lines: Vec<(String, String)>,
    /// Notes under the table.
    pub notes: Vec<String>,
}

impl MatchPanel {
    /// The panel: a `<div id="report" data-tab="Summary">` with the engines (links to
    /// their games), a link to all their games, and the lines.
    pub fn html(&self) -> String {
        let [a, b] = &self.engines;
        let mut out = String::from(r#"<div id="report" data-tab="Summary"><div class="report-inner"><h2>Match</h2>"#);
        let _ = write!(
            out,
            r#"<p>{} (engine 1) against {} (engine 2) &#183; <button type="button" class="pair" data-pair-a="{}" data-pair-b="{}">all games</button></p>"#,
            engine_button(a),
            engine_button(b),
            html_escape(a),
            html_escape(b)
        );
        out.push_str(r#"<table class="summary"><tbody>"#);
        for (label, value) in &self.lines {
            let _ = write!(out, "<tr><td>{}</td><td>{}</td></tr>", html_escape(label), html_escape(value));
        }
        out.push_str("</tbody></table>");
        notes(&mut out, &self.notes);
        out.push_str("</div></div>");
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ratings::{RatedGame, RatingOptions, rate};
    use veletas_rules::Color;

    #[test]
    fn the_panel_escapes_names_and_links_every_pair_that_played() {
        let games = vec![
            RatedGame::new("a<b", "c&d", Color::Black),
            RatedGame::new("c&d", "a<b", Color::Black),
            RatedGame::new("e\"f", "a<b", Color::White),
        ];
        let standings = rate(&games, &RatingOptions::default()).unwrap();
        let html = standings_panel(&standings, "lead <x>");
        assert!(!html.contains("a<b") && !html.contains("c&d") && html.contains("a&lt;b"));
        assert!(html.contains("lead &lt;x&gt;"));
        // Pairs that played: a-c both ways, a-e both ways (c-e never met).
        assert_eq!(html.matches("class=\"pair\"").count(), 4 + 2);
        assert_eq!(html.matches("class=\"cell none\"").count(), 2);
    }

    #[test]
    fn a_sweep_in_the_head_to_head_is_finite_and_explained() {
        let mut games: Vec<RatedGame> = (0..6).map(|_| RatedGame::new("a", "b", Color::Black)).collect();
        games.extend((0..6).map(|_| RatedGame::new("b", "a", Color::White)));
        let standings = rate(&games, &RatingOptions::default()).unwrap();
        let html = standings_panel(&standings, "");
        assert!(!html.contains("inf"), "{html}");
        // 12 - 0 rated as 12.5 - 0.5 of 13, as Score::elo_interval gives it.
        let i = crate::stats::Score::new(12, 0).elo_interval().unwrap();
        let interval = format!("<td>{}</td><td>[{}, {}]</td>", signed(i.elo), signed(i.lower), signed(i.upper));
        assert!(html.contains(&interval), "{interval} not in {html}");
        assert!(html.contains(&html_escape(crate::ratings::ADJUSTED_NOTE)));
        // Without a sweep there is no note.
        games.push(RatedGame::new("a", "b", Color::White));
        let html = standings_panel(&rate(&games, &RatingOptions::default()).unwrap(), "");
        assert!(!html.contains(&html_escape(crate::ratings::ADJUSTED_NOTE)));
    }
}
