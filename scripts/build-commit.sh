#!/usr/bin/env bash
# Builds the engine as it was at any commit of this repository into a folder of its own.
#
# usage: scripts/build-commit.sh [-n] COMMIT DIR
#
#   COMMIT      a commit of this repository's history (hash, tag or branch), e.g. 9de633c
#   DIR         the folder for that engine (created if missing; best outside the repository)
#   -n          dry run: check COMMIT and DIR and print what would be done, build nothing
#
# The commit's files are exported with `git archive` into a temporary folder (the working
# tree and its target/ are never touched), built there with `cargo build --release` and a
# target folder of their own, and the binary is copied to DIR/veletas; DIR/COMMIT records the
# full hash. The script prints the binary's path on stdout (logs go to stderr). Rerunning it
# is cheap: when DIR/veletas exists and DIR/COMMIT names the same commit nothing is built.
# A DIR holding another commit's engine is an error (exit 1), never overwritten.
# Exit status: 0 built or already there, 1 on failure, 2 on usage errors.
# Example: scripts/build-commit.sh 9de633c /work/v010   # v0.1.0, then: /work/v010/veletas
set -euo pipefail

usage() { sed -n 's/^# \(usage: .*\)/\1/p' "$0" >&2; exit "${1:-2}"; }
fail() { echo "build-commit: $*" >&2; exit 1; }

dry=
while getopts 'nh' opt; do
    case $opt in
        n) dry=1 ;;
        h) usage 0 ;;
        *) usage ;;
    esac
done
shift $((OPTIND - 1))
[ $# -eq 2 ] || usage
commit=$1 dir=$2

repo=$(cd "$(dirname "$0")/.." && pwd)
hash=$(git -C "$repo" rev-parse --verify --quiet "$commit^{commit}") || fail "no commit '$commit' in $repo"
if [ -z "$dry" ]; then
    mkdir -p -- "$dir" 2>/dev/null || fail "cannot create folder '$dir'"
fi
[ -d "$dir" ] && dir=$(cd "$dir" && pwd)
binary=$dir/veletas

if [ -e "$binary" ] || [ -e "$dir/COMMIT" ]; then
    recorded=$(cat "$dir/COMMIT" 2>/dev/null || true)
    if [ "$recorded" = "$hash" ] && [ -x "$binary" ]; then
        echo "build-commit: $binary is already commit $hash" >&2
        echo "$binary"
        exit 0
    fi
    fail "$dir already holds another build (COMMIT: '${recorded:-none}'); choose another folder"
fi

if [ -n "$dry" ]; then
    echo "build-commit: would export $hash with git archive, run cargo build --release there" >&2
    echo "build-commit: and copy the binary to $binary (recording the commit in $dir/COMMIT)" >&2
    echo "$binary"
    exit 0
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/build-commit.XXXXXX")
trap 'rm -rf -- "$work"' EXIT
echo "build-commit: exporting $hash into $work" >&2
git -C "$repo" archive --format=tar "$hash" | tar -x -C "$work"
[ -f "$work/Cargo.toml" ] || fail "commit $hash has no Cargo.toml"
locked=()
[ -f "$work/Cargo.lock" ] && locked=(--locked)
echo "build-commit: cargo build --release ${locked[*]}" >&2
(cd "$work" && cargo build --release "${locked[@]}" --target-dir "$work/target" --bin veletas >&2) \
    || fail "cargo build failed for commit $hash"
[ -x "$work/target/release/veletas" ] || fail "commit $hash built no target/release/veletas"

# Copy under a temporary name, then rename: never a half-written binary.
cp -- "$work/target/release/veletas" "$dir/.veletas.tmp"
mv -- "$dir/.veletas.tmp" "$binary"
echo "$hash" >"$dir/.COMMIT.tmp"
mv -- "$dir/.COMMIT.tmp" "$dir/COMMIT"
echo "build-commit: built $binary from commit $hash" >&2
echo "$binary"
