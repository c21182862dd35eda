#!/usr/bin/env bash
# The Gomoku strength gauntlet: Qilin against Rapfi (classical evaluation) at 15x15 freestyle,
# 20x20 freestyle and 15x15 renju, and against AIWine at 15x15 freestyle, a fixed time a turn,
# one thread each, both colours of every opening. Each match reports Elo with its 95% interval;
# then the time each engine used per move and its losses on time (scripts/match-time-used.py).
#
# usage: scripts/gomoku-gauntlet.sh [--rapfi PATH] [--aiwine PATH] [--only SETTING]
#   Build the engines with scripts/build-gomoku-sparring.sh; either may be left out (its
#   matches are skipped). SETTING is one of rapfi-15-free, rapfi-20-free, rapfi-15-renju,
#   aiwine-15-free.
#
# Environment (defaults in brackets):
#   QILIN        Qilin binary to test (also the runner) [build target/release/qilin]
#   TURN         ms a turn (timeout_turn)               [200]
#   MATCH_TIME   ms a game for each side (timeout_match; 0: none) [0]
#   GAMES        games in each match                    [200]
#   OPENINGS15   15x15 openings (Piskvork format)       [the built-in Piskvork set]
#   OPENINGS20   20x20 openings                         [data/gomoku/openings-20.txt]
#   SEED         opening order seed                     [1]
#   CONCURRENCY  games at the same time                 [number of cores]
#   NODES        Qilin's nodes a move (INFO max_node; 0: none) [0]
#   OPPONENT_NODES  the opponent's nodes a move (0: none) [0]
#   OUT          output directory                       [gomoku-gauntlet-<time> under /tmp]
# With node limits (and TURN high enough that they decide, say 5000) a match does not depend
# on the machine's load: a screen for search and evaluation changes against the opponent.
# Held-out openings (not in the repository) are what the strength targets are judged on: make
# them with scripts/gomoku-balanced-openings.py and pass them as OPENINGS15 / OPENINGS20.
set -euo pipefail
usage() {
    sed -n '2,27p' "$0" | sed 's/^# \{0,1\}//'
    exit "${1:-2}"
}
[[ ${1:-} == -h || ${1:-} == --help ]] && usage 0
# shellcheck source=lib/gauntlet.sh
source "$(dirname "$0")/lib/gauntlet.sh"
gauntlet_args "rapfi aiwine" "$@"
gauntlet_setup gomoku-gauntlet
time_args=(--turn-time "${TURN:-200}")
if [[ "${MATCH_TIME:-0}" != 0 ]]; then
    time_args+=(--match-time "$MATCH_TIME")
fi
common=(--game gomoku "${time_args[@]}" --games "${GAMES:-200}"
    --concurrency "${CONCURRENCY:-$(nproc)}" --seed "${SEED:-1}")

# run_match NAME OPPONENT_PATH SIZE RULE [OPENINGS]
run_match() {
    local name=$1 opponent=$2 size=$3 rule=$4
    local -a openings=()
    [[ -n "${5:-}" ]] && openings=(--openings "$5")
    [[ -n "$only" && "$only" != "$name" ]] && return 0
    echo "== $name: qilin vs $(basename "$opponent"), size $size, rule $rule, ${time_args[*]}${NODES:+, qilin $NODES nodes}${OPPONENT_NODES:+, opponent $OPPONENT_NODES nodes}" |
        tee -a "$out/summary.txt"
    local -a qilin_nodes=() opponent_nodes=()
    [[ "${NODES:-0}" != 0 ]] && qilin_nodes=("option.max_node=$NODES")
    [[ "${OPPONENT_NODES:-0}" != 0 ]] && opponent_nodes=("option.max_node=$OPPONENT_NODES")
    "$qilin" match "${common[@]}" --size "$size" --rule "$rule" "${openings[@]}" \
        --engine name=qilin "cmd=$qilin" option.thread_num=1 "${qilin_nodes[@]}" \
        --engine "name=$name-opponent" "cmd=$opponent" "dir=$(dirname "$opponent")" \
        option.thread_num=1 "${opponent_nodes[@]}" \
        --results "$out/$name.jsonl" --psq "$out/$name-psq" | tail -n 4 | tee -a "$out/summary.txt"
    python3 "$repo/scripts/match-time-used.py" "$out/$name.jsonl" | tee -a "$out/summary.txt"
}

openings15=${OPENINGS15:-}
openings20=${OPENINGS20:-$repo/data/gomoku/openings-20.txt}
if [[ -n "${engines[rapfi]:-}" ]]; then
    run_match rapfi-15-free "${engines[rapfi]}" 15 0 "$openings15"
    run_match rapfi-20-free "${engines[rapfi]}" 20 0 "$openings20"
    run_match rapfi-15-renju "${engines[rapfi]}" 15 4 "$openings15"
fi
if [[ -n "${engines[aiwine]:-}" ]]; then
    run_match aiwine-15-free "${engines[aiwine]}" 15 0 "$openings15"
fi
echo "records in $out" >&2
