//! Every script of scripts/ with a usage function prints its usage line on `-h` (issue 28,
//! point 7: `selfplay-data.sh -h` printed an empty line, its usage being one comment line
//! further down than the line number the function printed), and those that run the program say
//! how to choose the binary.

use std::path::Path;
use std::process::Command;

#[test]
fn every_script_prints_its_usage_line_on_dash_h() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts");
    let mut checked = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        if !text.contains("\nusage() {") {
            continue; // test.sh and the Kubernetes manifest take no -h
        }
        let out = Command::new("bash").arg(&path).arg("-h").output().unwrap();
        let stderr = String::from_utf8(out.stderr).unwrap();
        let name = path.file_name().unwrap().to_string_lossy();
        assert!(out.status.success(), "{name} -h: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{name} -h: {stderr}");
        assert!(stderr.starts_with("usage: ") && stderr.contains(&format!("scripts/{name}")), "{name} -h: {stderr}");
        if text.contains("\"$VELETAS\"") && !name.ends_with(".sbatch") {
            assert!(stderr.starts_with("usage: [VELETAS=BINARY] "), "{name} -h does not name $VELETAS: {stderr}");
        }
        checked += 1;
    }
    assert!(checked >= 7, "only {checked} scripts have a usage function");
}
