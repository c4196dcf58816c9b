#!/usr/bin/env bash
# Gauntlet: the engine against each baseline player in turn, one match per opponent.
#
# usage: [VELETAS=BINARY] scripts/gauntlet.sh [-a 'ENGINE ARGS'] [-p PLAYER]... [-o 'OPPONENT CMD']... [-n GAMES] [-s SIZE] [-t SECONDS] [-j JOBS] [MATCH OPTIONS...]
#
#   -a 'ENGINE ARGS'    options of the engine under test, passed through to $VELETAS (default none)
#   -p PLAYER           an opponent: `$VELETAS --player PLAYER` (random, greedy, uct or veletas);
#                       may be repeated
#   -o 'OPPONENT CMD'   an opponent given as a whole command line; may be repeated
#   -n, -s, -t, -j      games per opponent (default 20), board size (10), seconds per move (0.1),
#                       games in parallel (2)
#   MATCH OPTIONS       passed on to every `veletas match`
#
# Without -p or -o the opponents are the baseline players random, greedy and uct. Each match
# prints its summary; the script ends with one line per opponent.
# The binary is $VELETAS (default: this clone's target/release/veletas, else veletas on PATH).
# Example: scripts/gauntlet.sh -a '--seed 1' -n 4 -s 7
set -euo pipefail

usage() { sed -n 's/^# \(usage: .*\)/\1/p' "$0" >&2; exit "${1:-2}"; }

# The binary: $VELETAS, else this clone's target/release/veletas, else veletas on PATH.
if [[ -z ${VELETAS:-} ]]; then
    VELETAS=$(dirname "$0")/../target/release/veletas
    [[ -x $VELETAS ]] || VELETAS=$(command -v veletas || echo "$VELETAS")
fi
args= games=20 size=10 movetime=0.1 jobs=2
opponents=()
while getopts 'a:n:s:t:j:p:o:h' opt; do
    case $opt in
        a) args=$OPTARG ;;
        n) games=$OPTARG ;;
        s) size=$OPTARG ;;
        t) movetime=$OPTARG ;;
        j) jobs=$OPTARG ;;
        p) opponents+=("'$VELETAS' --player $OPTARG") ;;
        o) opponents+=("$OPTARG") ;;
        h) usage 0 ;;
        *) usage ;;
    esac
done
shift $((OPTIND - 1))
engine="'$VELETAS' $args"
if [ ${#opponents[@]} -eq 0 ]; then
    for player in random greedy uct; do opponents+=("'$VELETAS' --player $player"); done
fi

results=()
for opponent in "${opponents[@]}"; do
    echo "=== $engine vs $opponent"
    out=$("$VELETAS" match --engine "$engine" --engine "$opponent" --each dir=. --games "$games" --size "$size" \
        --movetime "$movetime" --concurrency "$jobs" --quiet "$@")
    echo "$out"
    results+=("$(grep -m1 '^Score of' <<<"$out" || echo "no score") [$opponent]")
done
echo "=== gauntlet"
printf '%s\n' "${results[@]}"
