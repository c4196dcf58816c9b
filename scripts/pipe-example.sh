#!/usr/bin/env bash
# Piping protocol commands through the engine from a shell script, two ways:
#  1. a fixed list of commands on stdin, replies on stdout;
#  2. a conversation with a running engine (a bash coprocess): the engine plays a whole game
#     against itself, the script reading each reply before sending the next command.
#
# usage: [VELETAS=BINARY] scripts/pipe-example.sh [SIZE]
#
#   SIZE   board size 7, 9 or 10 (default 7)
#
# The engine is $VELETAS (default target/release/veletas), thinking $MOVETIME seconds per move
# (default 0.05).
set -euo pipefail

usage() { sed -n 's/^# \(usage: .*\)/\1/p' "$0" >&2; exit "${1:-2}"; }
case ${1:-} in -h|--help) usage 0 ;; -*) usage ;; esac

# The binary: $VELETAS, else this clone's target/release/veletas, else veletas on PATH.
if [[ -z ${VELETAS:-} ]]; then
    VELETAS=$(dirname "$0")/../target/release/veletas
    [[ -x $VELETAS ]] || VELETAS=$(command -v veletas || echo "$VELETAS")
fi
size=${1:-7}
movetime=${MOVETIME:-0.05}

echo "--- 1. commands in, replies out"
printf 'boardsize %s\nclear_board\ngenmove b\ngenmove w\nshowboard\nquit\n' "$size" | "$VELETAS" --movetime "$movetime"

echo "--- 2. a game through a coprocess"
coproc ENGINE { "$VELETAS" --movetime "$movetime"; }
# send COMMAND: writes it and sets $reply to the reply text (without '= '); fails on '?'.
send() {
    printf '%s\n' "$1" >&"${ENGINE[1]}"
    local line status=
    reply=
    while IFS= read -r line <&"${ENGINE[0]}"; do
        line=${line%$'\r'}
        [ -z "$line" ] && break
        if [ -z "$status" ]; then status=${line:0:1}; line=${line:1}; line=${line# }; fi
        reply+=${reply:+$'\n'}$line
    done
    [ "$status" = "=" ]
}
send "boardsize $size"
send clear_board
color=b turns=0
while ! send final_score; do
    send "genmove $color"
    turns=$((turns + 1))
    echo "$turns. $color $reply"
    if [ "$color" = b ]; then color=w; else color=b; fi
done
echo "result after $turns turns: $reply"
pid=$ENGINE_PID
if [ -n "${ENGINE[1]:-}" ]; then printf 'quit\n' >&"${ENGINE[1]}" || true; fi
wait "$pid" 2>/dev/null || true
