//! The `claimed-block` option of the modern rules through the protocol: how `option` and
//! `rules` set, report and refuse it, and the situations that tell it apart played through
//! `run` (the rules' side: crates/rules/tests/rules/claimed_block.rs, where the positions
//! are explained).

use veletas_engine::player::RandomPlayer;
use veletas_engine::protocol::{Engine, run};
use veletas_rules::Variant;

/// 7x7: an unclaimed shooter on a1, a shooter claimed by Black on c1, another on d4.
const PAST: &str = "7/7/5w1/3s3/7/2b4/s1B4 b modern";

/// 7x7: a1 can leave only along rank 1 over the shooter Black claimed on b1 (a2 aside).
const TRAP: &str = "7/7/3s3/7/b6/1b5/sB5 b modern";

fn replies(input: &str) -> Vec<String> {
    let mut engine = Engine::new(Variant::from_size(7).unwrap(), Box::new(RandomPlayer::new(1)));
    let mut output = Vec::new();
    run(input.as_bytes(), &mut output, &mut engine).unwrap();
    String::from_utf8(output).unwrap().split_terminator("\n\n").map(str::to_string).collect()
}

#[test]
fn the_protocol_sets_reports_and_refuses_the_option() {
    let r = replies(
        "option claimed-block\noption claimed-block on\nposition\nrules modern\noption claimed-block on\n\
         option claimed-block\nrules\nposition\nrules classic\nrules\noption claimed-block off\nrules classic\nrules\n\
         option claimed-block maybe\n",
    );
    assert_eq!(r[0], "= off");
    assert_eq!(
        r[1],
        "? cannot set claimed-block: claimed-block is an option of the modern rules only (in the classic rules \
         every shooter blocks); set rules modern first"
    );
    assert_eq!(r[2], "= 7/7/7/7/7/7/7 b");
    assert_eq!(r[5], "= on");
    assert!(r[6].ends_with("; rules modern, claimed-block"), "{}", r[6]);
    assert_eq!(r[7], "= 7/7/7/7/7/7/7 b modern claimed-block");
    assert!(
        r[8].starts_with("? cannot set the rules: claimed-block is an option of the modern rules only"),
        "{}",
        r[8]
    );
    assert!(r[9].ends_with("; rules modern, claimed-block"), "{}", r[9]);
    assert_eq!(r[10], "= ");
    assert_eq!(r[11], "= ");
    assert!(r[12].ends_with("; rules classic"), "{}", r[12]);
    assert_eq!(r[13], "? syntax error: expected on or off, not 'maybe'");
}

#[test]
fn the_protocol_plays_the_situations() {
    let r = replies(&format!(
        "set_position {PAST} claimed-block\nplay b a1-e1/e2\nplay b d4-d1/b1\nplay b e1\nis_legal b a1-e1/e2\n\
         set_position {PAST}\nis_legal b a1-e1/e2\nset_position {TRAP} claimed-block\nplay b a2\nfinal_score\n"
    ));
    assert_eq!(r[1], "? illegal move: a1-e1/e2: the path from a1 to e1 is blocked at c1");
    assert_eq!(r[2], "? illegal move: d4-d1/b1: the shot from d1 to b1 is blocked at c1");
    assert_eq!(r[3], "? illegal move: e1: no unclaimed shooter has a clear line to e1");
    assert_eq!(r[4], "= false");
    assert_eq!(r[6], "= true");
    assert_eq!(r[8], "= ");
    assert_eq!(r[9], "= B+");
}
