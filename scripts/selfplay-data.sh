#!/usr/bin/env bash
# Self-play games for training the learned evaluation and the move policy: a two-engine tournament of
# the engine against itself at a fixed playout budget, written to a record file that `veletas train-eval`
# (and, with -f, `veletas train-policy`) reads.
#
# usage: [VELETAS=BINARY] scripts/selfplay-data.sh [-n GAMES] [-p PLAYOUTS] [-s SIZE] [-e EVAL] [-f] [-j JOBS] [-k SHARD] [-o RECORD] [TOURNAMENT OPTIONS...]
#
#   -n GAMES            games (default 4000; even)
#   -p PLAYOUTS         playouts per move of both sides (default 800): fast, reproducible, load-independent
#   -s SIZE             board size (default 10)
#   -e EVAL             the evaluation the engines play with: hand, learned, net or a FILE (default hand)
#   -f                  record each searched turn's first steps (the playouts of each shooter move and of
#                       not moving at the root: --record-steps), the move policy's training data
#   -j JOBS             games in parallel (default 2)
#   -k SHARD            play only shard K/N of the games (e.g. 2/8), to spread the data over machines; {shard}
#                       in the record name becomes K (run every shard, then train on all the files)
#   -o RECORD           the record file (default selfplay-SIZE.txt); rerunning the same command resumes it
#   TOURNAMENT OPTIONS  passed on to `veletas tournament` (e.g. --rules modern, --seed 7)
#
# Then: veletas train-eval selfplay-*.txt -o crates/engine/data/eval-weights.txt, and with -f
# veletas train-policy selfplay-*.txt -o my-policy.txt (see docs/learning.md).
# The binary is $VELETAS (default: this clone's target/release/veletas, else veletas on PATH).
# Example: scripts/selfplay-data.sh -n 2000 -p 400 -s 9 -o sp9.txt
set -euo pipefail

usage() { sed -n 's/^# \(usage: .*\)/\1/p' "$0" >&2; exit "${1:-2}"; }

# The binary: $VELETAS, else this clone's target/release/veletas, else veletas on PATH.
if [[ -z ${VELETAS:-} ]]; then
    VELETAS=$(dirname "$0")/../target/release/veletas
    [[ -x $VELETAS ]] || VELETAS=$(command -v veletas || echo "$VELETAS")
fi
games=4000 playouts=800 size=10 eval=hand steps= jobs=2 shard= record=
while [[ $OPTIND -le $# && ${!OPTIND} != --* ]] && getopts 'n:p:s:e:fj:k:o:h' opt; do
    case $opt in
        n) games=$OPTARG ;;
        p) playouts=$OPTARG ;;
        s) size=$OPTARG ;;
        e) eval=$OPTARG ;;
        f) steps=1 ;;
        j) jobs=$OPTARG ;;
        k) shard=$OPTARG ;;
        o) record=$OPTARG ;;
        h) usage 0 ;;
        *) usage ;;
    esac
done
shift $((OPTIND - 1))
[[ ${1:-} == -- ]] && shift
record=${record:-selfplay-$size.txt}
engine="$VELETAS --playouts $playouts --movetime 3600 --eval $eval"
args=(tournament --engine "a=$engine --seed 1" --engine "b=$engine --seed 2" --each dir=. --games-per-pair "$games"
      --size "$size" --movetime 3600 -j "$jobs" --quiet --record "$record")
[[ -n $shard ]] && args+=(--shard "$shard")
[[ -n $steps ]] && args+=(--record-steps)
exec "$VELETAS" "${args[@]}" "$@"
