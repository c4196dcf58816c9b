#!/usr/bin/env bash
# The self-play generation loop: play, train, gate, keep only what wins; one command runs it and resumes it.
#
# usage: [VELETAS=BINARY] scripts/generations.sh -d DIR [-g GENERATIONS] [-n GAMES] [-p PLAYOUTS] [-s SIZES] [-r RULES] [-w WINDOW] [-m GATE_GAMES] [-q GATE_PLAYOUTS] [-e ELO0,ELO1] [-j JOBS] [-x RUNNER] [-N SHARDS] [-S SSHLOGINFILE] [-b WEIGHTS_DIR] [-t MODELS] [-a RECORD]...
#
#   -d DIR             the loop's folder: gen-000 holds the starting weights, gen-001, gen-002, ... one
#                      generation each; rerunning the same command resumes where it stopped
#   -g GENERATIONS     run until this generation is done (default 1)
#   -n GAMES           self-play games of each generation, size and rule set (default 400; even)
#   -p PLAYOUTS        playouts per move in self-play (default 800: fast, and the same games whatever the load)
#   -s SIZES           board sizes, comma-separated (default 10; e.g. 10,9,7): every size is played under
#                      every rule set, and the new weights must win the gate of each. Several sizes suit
#                      -t net, whose value network knows the board size; the linear evaluation does not
#   -r RULES           rule sets to play, comma-separated (default classic; e.g. classic,modern); the new
#                      weights must win the gate under each
#   -w WINDOW          train on the games of the last WINDOW generations (default 2)
#   -m GATE_GAMES      most games of the gate match (default 600)
#   -q GATE_PLAYOUTS   playouts per move in the gate match (default: PLAYOUTS)
#   -e ELO0,ELO1       the gate's SPRT bounds (default 0,20); the new weights are kept when H1 is accepted, or
#                      when the SPRT has not decided by the last game and the Elo interval (95%) lies above zero
#   -j JOBS            games at once on each machine (default 2)
#   -x RUNNER          who plays the self-play tournaments: local (default), parallel (GNU parallel, with
#                      scripts/tournament-parallel.sh), or slurm (sbatch --wait of scripts/tournament-slurm.sbatch)
#   -N SHARDS          shards of each self-play tournament for parallel and slurm (default 4)
#   -S SSHLOGINFILE    with -x parallel: run the shards over ssh on these machines (GNU parallel's login file)
#   -b WEIGHTS_DIR     the starting weights: eval-weights.txt and policy-weights.txt, and with -t net its
#                      value-net.txt and policy-net.txt where it has them (default: the source tree's
#                      crates/engine/data, the weights and network built into the binary, so the loop starts
#                      from today's engine)
#   -t MODELS          what each generation trains: linear (default: train-eval and train-policy) or net
#                      (those, then a value network and a policy network on top of them with train-net:
#                      value-net.txt, policy-net.txt; a generation's engine uses its networks when it has them)
#   -a RECORD          also train every generation on this record (repeatable): earlier runs' games, so a
#                      generation's networks learn from more than its window's self-play
#
# Generation G: the engine with the best weights so far plays itself (`veletas tournament`, --record-steps,
# into DIR/gen-G/games/SET/shard-*.txt, SET the rule set, or RULES-SIZE with several sizes); `veletas train-eval` and `veletas train-policy` fit new weights on
# the last WINDOW generations' games (DIR/gen-G/eval-weights.txt, policy-weights.txt); a gate match under
# each rule set and size plays them against the best (DIR/gen-G/gate-SET.txt). DIR/gen-G/verdict says accepted or rejected, and DIR/best
# names the generation whose weights are the best. DIR/generations.txt has a line per generation: games,
# positions, the CPU seconds each step took in the run that finished it, and the gate's score and Elo. Each step's result is written through a temporary
# file and a rename, so a killed run resumes at the step it was in (tournaments and matches resume
# from their records). Use the best weights with `veletas --eval DIR/gen-G/eval-weights.txt --policy
# DIR/gen-G/policy-weights.txt` (with -t net: DIR/gen-G/value-net.txt and policy-net.txt); DIR/gen-G/engine
# has the engine's whole command line.
# The binary is $VELETAS (default: this clone's target/release/veletas, else veletas on PATH).
# Example: scripts/generations.sh -d gens -g 3 -n 400 -p 800 -r classic,modern
set -euo pipefail

usage() { sed -n 's/^# \(usage: .*\)/\1/p' "$0" >&2; exit "${1:-2}"; }
die() { echo "generations.sh: $*" >&2; exit 2; }

here=$(cd "$(dirname "$0")" && pwd)
# The binary: $VELETAS, else this clone's target/release/veletas, else veletas on PATH.
if [[ -z ${VELETAS:-} ]]; then
    VELETAS=$here/../target/release/veletas
    [[ -x $VELETAS ]] || VELETAS=$(command -v veletas || echo "$VELETAS")
fi
dir= generations=1 games=400 playouts=800 sizes=10 rules=classic extra=() window=2 gate_games=600 gate_playouts=
bounds=0,20 jobs=2 runner=local shards=4 sshloginfile= weights=$here/../crates/engine/data models=linear
while getopts 'd:g:n:p:s:r:w:m:q:e:j:x:N:S:b:t:a:h' opt; do
    case $opt in
        d) dir=$OPTARG ;;
        g) generations=$OPTARG ;;
        n) games=$OPTARG ;;
        p) playouts=$OPTARG ;;
        s) sizes=$OPTARG ;;
        r) rules=$OPTARG ;;
        w) window=$OPTARG ;;
        m) gate_games=$OPTARG ;;
        q) gate_playouts=$OPTARG ;;
        e) bounds=$OPTARG ;;
        j) jobs=$OPTARG ;;
        x) runner=$OPTARG ;;
        N) shards=$OPTARG ;;
        S) sshloginfile=$OPTARG ;;
        b) weights=$OPTARG ;;
        t) models=$OPTARG ;;
        a) extra+=("$OPTARG") ;;
        h) usage 0 ;;
        *) usage ;;
    esac
done
shift $((OPTIND - 1))
[[ $# -eq 0 && -n $dir ]] || usage
gate_playouts=${gate_playouts:-$playouts}
for n in "$generations" "$games" "$playouts" "$window" "$gate_games" "$gate_playouts" "$jobs" "$shards"; do
    [[ $n =~ ^[1-9][0-9]{0,8}$ ]] || die "expected a positive whole number, not '$n'"
done
case $runner in local | parallel | slurm) ;; *) die "-x: expected local, parallel or slurm, not '$runner'" ;; esac
case $models in linear | net) ;; *) die "-t: expected linear or net, not '$models'" ;; esac
IFS=, read -r -a rule_sets <<<"$rules"
[[ ${#rule_sets[@]} -gt 0 ]] || die "-r: no rule set"
for r in "${rule_sets[@]}"; do [[ $r =~ ^[a-z-]+$ ]] || die "-r: not a rule set: '$r'"; done
IFS=, read -r -a board_sizes <<<"$sizes"
[[ ${#board_sizes[@]} -gt 0 ]] || die "-s: no board size"
for s in "${board_sizes[@]}"; do [[ $s =~ ^[0-9]{1,2}$ ]] || die "-s: not a board size: '$s'"; done
# The sets a generation plays and gates: each size under each rule set, SET the rule set's name, or
# RULES-SIZE with several sizes.
sets=()
for s in "${board_sizes[@]}"; do
    for r in "${rule_sets[@]}"; do
        if [[ ${#board_sizes[@]} -eq 1 ]]; then sets+=("$r:$s:$r"); else sets+=("$r-$s:$s:$r"); fi
    done
done
[[ ${#board_sizes[@]} -eq 1 || $models == net ]] || die "-s: several sizes need -t net (the linear evaluation has no board-size feature)"
for f in "${extra[@]}"; do [[ -f $f && -r $f ]] || die "-a: not a readable file: '$f'"; done

# Writes stdin to FILE through a temporary file in the same folder and a rename.
put() { local tmp; tmp=$(mktemp "$1.tmp.XXXXXX"); cat >"$tmp"; mv -f "$tmp" "$1"; }
# CPU: the CPU seconds (user + system) of this shell's finished children so far (`times` in this
# shell, not in a subshell, which would count only its own children).
cpu() {
    times >"$dir/.times"
    CPU=$(awk 'NR == 2 { s = 0; for (i = 1; i <= 2; i++) { split($i, t, "m"); s += t[1] * 60 + t[2] } printf "%.0f\n", s }' "$dir/.times")
}
gen_dir() { printf '%s/gen-%03d' "$dir" "$1"; }
engine() { # engine WEIGHTS_FOLDER PLAYOUTS: an engine command line with those weights (its networks if it has them)
    local eval=$1/eval-weights.txt policy=$1/policy-weights.txt
    [[ -f $1/value-net.txt ]] && eval=$1/value-net.txt
    [[ -f $1/policy-net.txt ]] && policy=$1/policy-net.txt
    printf '%q --playouts %s --movetime 3600 --eval %q --policy %q' "$VELETAS" "$2" "$eval" "$policy"
}

mkdir -p "$dir"
first=$(gen_dir 0)
if [[ ! -f $first/policy-weights.txt ]]; then
    [[ -f $weights/eval-weights.txt && -f $weights/policy-weights.txt ]] ||
        die "-b: $weights has no eval-weights.txt and policy-weights.txt"
    mkdir -p "$first"
    put "$first/eval-weights.txt" <"$weights/eval-weights.txt"
    put "$first/policy-weights.txt" <"$weights/policy-weights.txt"
    if [[ $models == net ]]; then
        for net in value-net.txt policy-net.txt; do
            [[ -f $weights/$net ]] && put "$first/$net" <"$weights/$net"
        done
    fi
fi
[[ -f $dir/best ]] || echo 0 | put "$dir/best"

for ((g = 1; g <= generations; g++)); do
    here_gen=$(gen_dir "$g")
    [[ -f $here_gen/verdict ]] && continue
    mkdir -p "$here_gen"
    # The best weights when the generation began: its games are played with them and the gate plays
    # against them, so a resume goes on with the same ones.
    [[ -f $here_gen/played-with ]] || put "$here_gen/played-with" <"$dir/best"
    best=$(<"$here_gen/played-with")
    [[ $best =~ ^[0-9]+$ && -f $(gen_dir "$best")/policy-weights.txt ]] || die "$here_gen/played-with: not a generation"
    with=$(gen_dir "$best")
    echo "== generation $g: self-play with the weights of $(basename "$with")" >&2

    # 1. Play.
    cpu; start=$CPU
    if [[ ! -f $here_gen/games/done ]]; then
        for set in "${sets[@]}"; do
            IFS=: read -r label size r <<<"$set"
            out=$here_gen/games/$label
            mkdir -p "$out"
            play=(--engine "a=$(engine "$with" "$playouts") --seed 1" --engine "b=$(engine "$with" "$playouts") --seed 2" --each dir=.
                  --games-per-pair "$games" --size "$size" --rules "$r" --movetime 3600 --seed "$g" --record-steps)
            case $runner in
                local) "$VELETAS" tournament "${play[@]}" -j "$jobs" --quiet --record "$out/shard-1.txt" >/dev/null ;;
                parallel)
                    p=(-n "$shards" -j "$jobs" -d "$out" -R)
                    [[ -n $sshloginfile ]] && p+=(-S "$sshloginfile")
                    VELETAS=$VELETAS "$here/tournament-parallel.sh" "${p[@]}" "${play[@]}" >/dev/null ;;
                slurm) RESULTS=$out VELETAS=$VELETAS sbatch --wait --quiet --array=1-"$shards" \
                           "$here/tournament-slurm.sbatch" "${play[@]}" >/dev/null ;;
            esac
        done
        echo done | put "$here_gen/games/done"
    fi
    cpu; play_cpu=$((CPU - start))

    # 2. Train on the last WINDOW generations' games.
    cpu; start=$CPU
    files=("${extra[@]}")
    for ((k = g - window + 1; k <= g; k++)); do
        ((k >= 1)) || continue
        files+=("$(gen_dir "$k")"/games/*/shard-*.txt)
    done
    if [[ ! -f $here_gen/eval-weights.txt && ${#board_sizes[@]} -gt 1 ]]; then
        # The linear evaluation has no board-size feature: with several sizes it is carried over
        # from the generation played with, and the value network learns the sizes on top of it.
        echo "carried over from $(basename "$with"): the linear evaluation trains on one board size" |
            put "$here_gen/train-eval.txt"
        put "$here_gen/eval-weights.txt" <"$with/eval-weights.txt"
    elif [[ ! -f $here_gen/eval-weights.txt ]]; then
        "$VELETAS" train-eval "${files[@]}" -o "$here_gen/eval-weights.txt" | put "$here_gen/train-eval.txt"
    fi
    if [[ ! -f $here_gen/policy-weights.txt ]]; then
        "$VELETAS" train-policy "${files[@]}" -o "$here_gen/policy-weights.txt" | put "$here_gen/train-policy.txt"
    fi
    # With -t net, networks on top of the linear weights just fitted: the value network on the
    # positions after the search's random turns (its leaves), the policy network on the first steps.
    if [[ $models == net && ! -f $here_gen/value-net.txt ]]; then
        "$VELETAS" train-net "${files[@]}" --random-plies 6 --l2 0.3 --epochs 3 --base "$here_gen/eval-weights.txt" \
            -o "$here_gen/value-net.txt" | put "$here_gen/train-net.txt"
    fi
    if [[ $models == net && ! -f $here_gen/policy-net.txt ]]; then
        "$VELETAS" train-net --policy "${files[@]}" --epochs 3 --base "$here_gen/policy-weights.txt" \
            -o "$here_gen/policy-net.txt" | put "$here_gen/train-policy-net.txt"
    fi
    cpu; train_cpu=$((CPU - start))
    # The new weights' engine, as the gate and (if accepted) the next generation run it.
    engine "$here_gen" "$playouts" | put "$here_gen/engine"

    # 3. Gate: the new weights against the best, an SPRT at a fixed playout budget under each rule
    # set in turn. A rule set's gate is won when its SPRT accepts H1, or, when it has not decided by
    # the last game, when the 95% interval of the Elo difference lies above zero. The new weights
    # are kept only when they win under every rule set (the first lost gate ends the gating).
    cpu; start=$CPU
    verdict=accepted gates=
    for set in "${sets[@]}"; do
        IFS=: read -r label size r <<<"$set"
        gate=$("$VELETAS" match --engine "gen$g=$(engine "$here_gen" "$gate_playouts") --seed 3" \
            --engine "gen$best=$(engine "$with" "$gate_playouts") --seed 4" --each dir=. \
            --games "$gate_games" --sprt "$bounds" --size "$size" --rules "$r" --movetime 3600 \
            --seed "$((1000 + g))" -j "$jobs" --quiet --record "$here_gen/gate-$label.txt")
        echo "$gate" | put "$here_gen/gate-$label-summary.txt"
        elo=$(sed -n 's/^Elo difference: \(.*\) (95%.*/\1/p' <<<"$gate")
        score=$(sed -n 's/^Score of [^:]*: \(.*\)$/\1/p' <<<"$gate")
        gates+="${gates:+; }$label $score, Elo $elo"
        lower=$(sed -n 's/^Elo difference: .* \[\([-+0-9.inf]*\), .*/\1/p' <<<"$gate")
        if ! grep -q '^SPRT.*: H1 accepted$' <<<"$gate" &&
            ! { grep -q '^SPRT.*: continue' <<<"$gate" && awk -v l="${lower:--1}" 'BEGIN { exit !(l + 0 > 0) }'; }; then
            verdict=rejected
            break
        fi
    done
    cpu; gate_cpu=$((CPU - start))
    reports=("$here_gen/train-eval.txt")
    [[ -f $here_gen/train-net.txt ]] && reports+=("$here_gen/train-net.txt")
    positions=$(sed -n 's/^.* games (.*), \([0-9]*\) training and \([0-9]*\) held-out positions.*/\1 + \2/p' "${reports[@]}" | head -1)
    line="generation $g: $verdict; self-play with gen $best: $((${#sets[@]} * games)) games"
    line+=" ($rules; sizes $sizes; $playouts playouts), positions $((${positions:-0})); CPU s: play $play_cpu,"
    line+=" train $train_cpu, gate $gate_cpu; gate vs gen $best: $gates"
    echo "$line" >&2
    echo "$line" | put "$here_gen/summary"
    cat "$dir"/gen-*/summary | put "$dir/generations.txt"
    if [[ $verdict == accepted ]]; then echo "$g" | put "$dir/best"; fi
    echo "$verdict" | put "$here_gen/verdict"
done
echo "best: generation $(<"$dir/best") ($(gen_dir "$(<"$dir/best")"))"
