#!/usr/bin/env bash
# A tournament spread over GNU parallel job slots: on this machine, or over ssh on others.
#
# usage: [VELETAS=BINARY] scripts/tournament-parallel.sh [-n SHARDS] [-j JOBS] [-S SSHLOGINFILE] [-d DIR] [-R] TOURNAMENT OPTIONS...
#
#   -n SHARDS          how many shards the schedule is cut into (default 4)
#   -j JOBS            shards run at once per machine (default 2; each shard runs one game at a time
#                      unless TOURNAMENT OPTIONS give -j)
#   -S SSHLOGINFILE    run the shards over ssh on the machines of this GNU parallel login file (`:` is this
#                      machine): set VELETAS and the engine commands to absolute paths valid on every
#                      machine; each shard runs in a scratch folder there and its file is brought back
#                      (--return) and removed there (--cleanup) when the shard ends
#   -d DIR             where the shard record files go (default tournament-shards)
#   -R                 no ratings at the end
#   TOURNAMENT OPTIONS every option of `veletas tournament` except --shard and --record
#
# Shard K plays the games whose index i has i mod SHARDS = K - 1 into DIR/shard-K.txt; rerunning the same
# command resumes each shard. At the end `veletas ratings DIR/shard-*.txt` prints the standings of the whole.
# The binary is $VELETAS (default: this clone's target/release/veletas, else veletas on PATH); GNU parallel must be installed.
# Example: scripts/tournament-parallel.sh -n 3 --engine 'a=veletas --seed 1' --engine 'b=veletas --seed 2' \
#          --engine 'c=veletas --player uct' --size 7 --movetime 0.1
set -euo pipefail

usage() { sed -n 's/^# \(usage: .*\)/\1/p' "$0" >&2; exit "${1:-2}"; }

# The binary: $VELETAS, else this clone's target/release/veletas, else veletas on PATH.
if [[ -z ${VELETAS:-} ]]; then
    VELETAS=$(dirname "$0")/../target/release/veletas
    [[ -x $VELETAS ]] || VELETAS=$(command -v veletas || echo "$VELETAS")
fi
shards=4 jobs=2 sshloginfile= dir=tournament-shards ratings=1
# The script's own options come first; the first long option (--...) starts the tournament's.
while [[ $OPTIND -le $# && ${!OPTIND} != --* ]] && getopts 'n:j:S:d:Rh' opt; do
    case $opt in
        n) shards=$OPTARG ;;
        j) jobs=$OPTARG ;;
        S) sshloginfile=$OPTARG ;;
        d) dir=$OPTARG ;;
        R) ratings= ;;
        h) usage 0 ;;
        *) usage ;;
    esac
done
shift $((OPTIND - 1))
[[ ${1:-} == -- ]] && shift
[[ $# -gt 0 ]] || usage
[[ $shards =~ ^[1-9][0-9]*$ ]] || { echo "tournament-parallel.sh: -n must be a positive number" >&2; exit 2; }
command -v parallel >/dev/null || { echo "tournament-parallel.sh: GNU parallel is not installed" >&2; exit 2; }

mkdir -p "$dir"
# Every argument quoted once for the shell parallel runs the job in.
quoted=$(printf '%q ' "$VELETAS" tournament "$@")
qdir=$(printf '%q' "$dir")
# Each shard's own summary is of its part only: not shown (its record file is what counts).
job="mkdir -p $qdir && $quoted--shard {}/$shards --record $qdir/shard-{}.txt --quiet >/dev/null"
remote=()
if [[ -n $sshloginfile ]]; then
    remote=(--sshloginfile "$sshloginfile" --workdir ... --return "$dir/shard-{}.txt" --cleanup)
fi
seq 1 "$shards" | parallel --will-cite --halt now,fail=1 -j "$jobs" "${remote[@]}" --tagstring 'shard {}' "$job"
if [[ -n $ratings ]]; then
    files=()
    for k in $(seq 1 "$shards"); do files+=("$dir/shard-$k.txt"); done
    "$VELETAS" ratings "${files[@]}"
fi
