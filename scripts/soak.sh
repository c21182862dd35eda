#!/usr/bin/env bash
# Soak test: Qilin against itself with `qilin match`, GAMES games per setting, and a report of
# crashes, time losses, illegal moves and each engine's peak memory (scripts/soak-report.py).
#
#   scripts/soak.sh [SETTING...]
#
# Settings (default: all seven):
#   xq-ucci-20ms  xq-uci-20ms   Xiangqi over UCCI / UCI at 20 ms a move
#   xq-ucci-tc    xq-uci-tc     Xiangqi over UCCI / UCI at --tc 10+0.1
#   gm15-free     gm20-free     Gomoku 15x15 / 20x20 freestyle  } --turn-time 100
#   gm15-renju                  Gomoku 15x15 renju              } --match-time 10000
# Environment: GAMES (1000), CONCURRENCY (2), SEED (1), QILIN (target/release/qilin, built if
# missing), OUT (soak-<date>), HASH (Xiangqi Hash MB, 16), GOMOKU_MEMORY (max_memory bytes,
# 67108864).
# Each engine runs under GNU time (/usr/bin/time), which appends its peak resident set (KB)
# to OUT/<setting>.mem when the process exits; records go to OUT/<setting>.jsonl.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
known=(xq-ucci-20ms xq-uci-20ms xq-ucci-tc xq-uci-tc gm15-free gm20-free gm15-renju)
for arg in "$@"; do
    case " ${known[*]} " in
        *" $arg "*) ;;
        *)
            if [[ $arg == -h || $arg == --help ]]; then
                sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'
                exit 0
            fi
            echo "soak.sh: unknown setting '$arg' (settings: ${known[*]})" >&2
            exit 2
            ;;
    esac
done
games=${GAMES:-1000}
concurrency=${CONCURRENCY:-2}
seed=${SEED:-1}
hash_mb=${HASH:-16}
gomoku_memory=${GOMOKU_MEMORY:-67108864}
out=${OUT:-soak-$(date +%Y%m%d-%H%M%S)}
qilin=${QILIN:-$root/target/release/qilin}
if [ ! -x "$qilin" ]; then
    (cd "$root" && cargo build --release --quiet)
fi
if [ ! -x /usr/bin/time ]; then
    echo "soak.sh: needs GNU time at /usr/bin/time (Debian package 'time')" >&2
    exit 2
fi
mkdir -p "$out"
settings=("$@")
if [ ${#settings[@]} -eq 0 ]; then
    settings=("${known[@]}")
fi
# Two engines, each wrapped so that its peak memory lands in the setting's .mem file.
engines() {
    local setting=$1 proto=$2 options=$3
    for name in a b; do
        echo "--engine name=$name cmd=/usr/bin/time arg=-a arg=-o arg=$out/$setting.mem" \
             "arg=-f arg=$name:%M arg=$qilin proto=$proto $options"
    done
}
for setting in "${settings[@]}"; do
    common="--games $games --concurrency $concurrency --seed $seed --results $out/$setting.jsonl"
    : > "$out/$setting.mem"
    case $setting in
        xq-ucci-20ms) args="$(engines "$setting" ucci "option.hashsize=$hash_mb") --movetime 20" ;;
        xq-uci-20ms) args="$(engines "$setting" uci "option.Hash=$hash_mb") --movetime 20" ;;
        xq-ucci-tc) args="$(engines "$setting" ucci "option.hashsize=$hash_mb") --tc 10+0.1" ;;
        xq-uci-tc) args="$(engines "$setting" uci "option.Hash=$hash_mb") --tc 10+0.1" ;;
        gm15-free | gm20-free | gm15-renju)
            case $setting in
                gm15-free) board="--size 15 --rule freestyle" ;;
                gm20-free) board="--size 20 --rule freestyle" ;;
                *) board="--size 15 --rule renju" ;;
            esac
            args="$(engines "$setting" piskvork "option.max_memory=$gomoku_memory")"
            args="$args --game gomoku $board --turn-time 100 --match-time 10000"
            ;;
    esac
    echo "== $setting: $games games" >&2
    # shellcheck disable=SC2086 # the argument lists are word lists on purpose
    "$qilin" match $args $common > "$out/$setting.txt" 2> "$out/$setting.log" || true
    tail -n 3 "$out/$setting.txt" >&2
done
python3 "$root/scripts/soak-report.py" "$out" "${settings[@]}"
