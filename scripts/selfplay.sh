#!/usr/bin/env bash
# Self-play: a match between two settings of the same engine binary.
#
# usage: [VELETAS=BINARY] scripts/selfplay.sh -a 'ARGS A' -b 'ARGS B' [-n GAMES] [-s SIZE] [-t SECONDS] [-j JOBS] [-r RECORD] [MATCH OPTIONS...]
#
#   -a, -b ARGS         engine options of the two players, e.g. -a '--seed 1' -b '--seed 2'
#   -n GAMES            number of games (default 20)
#   -s SIZE             board size 7, 9 or 10 (default 10)
#   -t SECONDS          time per move (default 0.1)
#   -j JOBS             games in parallel (default 2)
#   -r RECORD           record file (default: none); rerunning with it resumes
#   MATCH OPTIONS       passed on to `veletas match` (e.g. --clock 10+0.1 --sprt 0,10)
#
# The binary is $VELETAS (default: this clone's target/release/veletas, else veletas on PATH); build it with `cargo build --release`.
# Example: scripts/selfplay.sh -a '--seed 1' -b '--seed 2' -n 10 -s 7
set -euo pipefail

usage() { sed -n 's/^# \(usage: .*\)/\1/p' "$0" >&2; exit "${1:-2}"; }

# The binary: $VELETAS, else this clone's target/release/veletas, else veletas on PATH.
if [[ -z ${VELETAS:-} ]]; then
    VELETAS=$(dirname "$0")/../target/release/veletas
    [[ -x $VELETAS ]] || VELETAS=$(command -v veletas || echo "$VELETAS")
fi
a= b= games=20 size=10 movetime=0.1 jobs=2 record=
while getopts 'a:b:n:s:t:j:r:h' opt; do
    case $opt in
        a) a=$OPTARG ;;
        b) b=$OPTARG ;;
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
[ -n "$a" ] && [ -n "$b" ] || usage

args=(match --engine "'$VELETAS' $a" --engine "'$VELETAS' $b" --each dir=. --games "$games" --size "$size"
      --movetime "$movetime" --concurrency "$jobs")
[ -n "$record" ] && args+=(--record "$record")
exec "$VELETAS" "${args[@]}" "$@"
