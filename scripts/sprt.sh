#!/usr/bin/env bash
# SPRT of a candidate binary against a base binary: plays game pairs until the test decides
# (or the game limit is reached) and prints the log-likelihood ratio and the decision.
#
# usage: [VELETAS=BINARY] scripts/sprt.sh [-e ELO0,ELO1[,ALPHA,BETA]] [-n MAX_GAMES] [-s SIZE] [-t SECONDS] [-j JOBS] [-r RECORD] CANDIDATE BASE [MATCH OPTIONS...]
#
#   CANDIDATE, BASE     engine binaries (or command lines: 'path --option value')
#   -e BOUNDS           SPRT bounds in Elo (default 0,10; alpha = beta = 0.05 unless given)
#   -n MAX_GAMES        stop after this many games even without a decision (default 10000)
#   -s, -t, -j          board size (10), seconds per move (0.1), games in parallel (2)
#   -r RECORD           record file; rerunning the same command resumes the test
#   MATCH OPTIONS       passed on to `veletas match` (e.g. --clock 5+0.05)
#
# The referee is $VELETAS (default target/release/veletas). Exit status: 0 when H1 is accepted
# (the candidate is better), 1 when H0 is accepted, 3 without a decision, 2 on usage errors.
# Example: scripts/sprt.sh -e 0,20 ./new/veletas ./old/veletas
set -euo pipefail

usage() { sed -n 's/^# \(usage: .*\)/\1/p' "$0" >&2; exit "${1:-2}"; }

# The binary: $VELETAS, else this clone's target/release/veletas, else veletas on PATH.
if [[ -z ${VELETAS:-} ]]; then
    VELETAS=$(dirname "$0")/../target/release/veletas
    [[ -x $VELETAS ]] || VELETAS=$(command -v veletas || echo "$VELETAS")
fi
bounds=0,10 games=10000 size=10 movetime=0.1 jobs=2 record=
while getopts 'e:n:s:t:j:r:h' opt; do
    case $opt in
        e) bounds=$OPTARG ;;
        n) games=$OPTARG ;;
        s) size=$OPTARG ;;
        t) movetime=$OPTARG ;;
        j) jobs=$OPTARG ;;
        r) record=$OPTARG ;;
        h) usage 0 ;;
        *) usage ;;
    esac
done
shift $((OPTIND - 1))
[ $# -ge 2 ] || usage
candidate=$1 base=$2
shift 2

args=(match --engine "$candidate" --engine "$base" --each dir=. --games "$games" --size "$size" --movetime "$movetime"
      --concurrency "$jobs" --sprt "$bounds" --quiet)
[ -n "$record" ] && args+=(--record "$record")
out=$("$VELETAS" "${args[@]}" "$@")
echo "$out"
case $(grep -m1 '^SPRT' <<<"$out") in
    *"H1 accepted"*) exit 0 ;;
    *"H0 accepted"*) exit 1 ;;
    *) exit 3 ;;
esac
