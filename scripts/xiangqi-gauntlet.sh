#!/usr/bin/env bash
# The Xiangqi strength gauntlet: Qilin against Pikafish-HCE over UCI and against ElephantEye
# over UCCI at a fixed time a move, then against Pikafish-HCE at a clock time control. Each
# match reports Elo with its 95% interval; then the time each engine used per move and its
# losses on time (scripts/match-time-used.py).
#
# usage: scripts/xiangqi-gauntlet.sh --pikafish PATH --eleeye PATH [--only pikafish|eleeye|clock]
#   Build the two engines with scripts/build-xiangqi-sparring.sh; either may be left out
#   (its matches are skipped).
#
# Environment (defaults in brackets):
#   QILIN        Qilin binary to test (also the runner) [build target/release/qilin]
#   MOVETIME     ms a move for the fixed-time matches   [100]
#   TC           clock of the clock match               [10+0.1]
#   GAMES        games in each fixed-time match         [200]
#   CLOCK_GAMES  games in the clock match               [GAMES]
#   OPENINGS     EPD openings [tests/data/xiangqi/openings-book-sample.epd]
#   SEED         opening order seed                     [1]
#   CONCURRENCY  games at the same time                 [number of cores]
#   OUT          output directory                       [xiangqi-gauntlet-<time> under /tmp]
# Held-out openings (not in the repository) are what the strength targets are judged on: make
# them with scripts/xiangqi-heldout-openings.sh and pass them as OPENINGS.
set -euo pipefail
usage() {
    sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//'
    exit "${1:-2}"
}
[[ ${1:-} == -h || ${1:-} == --help ]] && usage 0
# shellcheck source=lib/gauntlet.sh
source "$(dirname "$0")/lib/gauntlet.sh"
gauntlet_args "pikafish eleeye" "$@"
gauntlet_setup xiangqi-gauntlet
games=${GAMES:-200}
common=(--openings "${OPENINGS:-$repo/tests/data/xiangqi/openings-book-sample.epd}"
    --concurrency "${CONCURRENCY:-$(nproc)}" --seed "${SEED:-1}")

# match NAME QILIN_PROTO OPPONENT_SETTINGS TIME_ARGS GAMES
run_match() {
    local name=$1 proto=$2 opponent=$3 time=$4 n=$5
    local -a opp time_args
    read -r -a opp <<<"$opponent"
    read -r -a time_args <<<"$time"
    echo "== $name: qilin ($proto) vs ${opp[0]#name=}, $time, $n games" | tee -a "$out/summary.txt"
    "$qilin" match --engine name=qilin "cmd=$qilin" "proto=$proto" --engine "${opp[@]}" \
        "${time_args[@]}" --games "$n" "${common[@]}" \
        --results "$out/$name.jsonl" --pgn "$out/$name.pgn" | tail -n 4 | tee -a "$out/summary.txt"
    python3 "$repo/scripts/match-time-used.py" "$out/$name.jsonl" | tee -a "$out/summary.txt"
}

if [[ -n "${engines[pikafish]:-}" && ( -z "$only" || "$only" == pikafish ) ]]; then
    run_match pikafish-uci uci "name=pikafish-hce cmd=${engines[pikafish]} proto=uci" \
        "--movetime ${MOVETIME:-100}" "$games"
fi
if [[ -n "${engines[eleeye]:-}" && ( -z "$only" || "$only" == eleeye ) ]]; then
    run_match eleeye-ucci ucci "name=eleeye cmd=${engines[eleeye]} proto=ucci option.usebook=false" \
        "--movetime ${MOVETIME:-100}" "$games"
fi
if [[ -n "${engines[pikafish]:-}" && ( -z "$only" || "$only" == clock ) ]]; then
    run_match pikafish-clock uci "name=pikafish-hce cmd=${engines[pikafish]} proto=uci" \
        "--tc ${TC:-10+0.1}" "${CLOCK_GAMES:-$games}"
fi
echo "records in $out" >&2
