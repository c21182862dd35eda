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
# 67108864), SHARD (I/N: play only shard I of N of each setting), KEEP (with SHARD: where the
# shard's compressed records and memory lines are kept, data/soak).
# Each engine runs under GNU time (/usr/bin/time, via scripts/soak-engine.sh), which appends
# its peak resident set (KB) to OUT/<setting>.mem when the process exits; records go to
# OUT/<setting>.jsonl. With SHARD=I/N the files are OUT/<setting>.shard-I-of-N.*, and copies
# go to KEEP/<setting>/shard-I-of-N.jsonl.gz and .mem; scripts/soak-merge.sh merges them.
# Shards of one setting must share GAMES, SEED, HASH and GOMOKU_MEMORY (the merge refuses
# others) and should be played by one commit's build.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
known=(xq-ucci-20ms xq-uci-20ms xq-ucci-tc xq-uci-tc gm15-free gm20-free gm15-renju)
for arg in "$@"; do
    case " ${known[*]} " in
        *" $arg "*) ;;
        *)
            if [[ $arg == -h || $arg == --help ]]; then
                sed -n '2,24p' "$0" | sed 's/^# \{0,1\}//'
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
out=$(realpath -m "${OUT:-soak-$(date +%Y%m%d-%H%M%S)}")
qilin=$(realpath -m "${QILIN:-$root/target/release/qilin}")
shard=${SHARD:-}
keep=$(realpath -m "${KEEP:-$root/data/soak}")
if [[ -n $shard && ! $shard =~ ^[0-9]+/[0-9]+$ ]]; then
    echo "soak.sh: SHARD must be I/N, such as 0/4" >&2
    exit 2
fi
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
# The engine command is relative to the repository, its paths in the environment: the same
# settings (and fingerprint) on every machine.
cd "$root"
export SOAK_QILIN=$qilin
# Two engines, each wrapped so that its peak memory lands in the setting's .mem file.
engines() {
    local proto=$1 options=$2
    for name in a b; do
        echo "--engine name=$name cmd=scripts/soak-engine.sh arg=$name proto=$proto $options"
    done
}
for setting in "${settings[@]}"; do
    file=$setting
    common="--games $games --concurrency $concurrency --seed $seed"
    if [[ -n $shard ]]; then
        file=$setting.shard-${shard%/*}-of-${shard#*/}
        common="$common --shard $shard"
    fi
    common="$common --results $out/$file.jsonl"
    export SOAK_MEM=$out/$file.mem
    : > "$SOAK_MEM"
    case $setting in
        xq-ucci-20ms) args="$(engines ucci "option.hashsize=$hash_mb") --movetime 20" ;;
        xq-uci-20ms) args="$(engines uci "option.Hash=$hash_mb") --movetime 20" ;;
        xq-ucci-tc) args="$(engines ucci "option.hashsize=$hash_mb") --tc 10+0.1" ;;
        xq-uci-tc) args="$(engines uci "option.Hash=$hash_mb") --tc 10+0.1" ;;
        gm15-free | gm20-free | gm15-renju)
            case $setting in
                gm15-free) board="--size 15 --rule freestyle" ;;
                gm20-free) board="--size 20 --rule freestyle" ;;
                *) board="--size 15 --rule renju" ;;
            esac
            args="$(engines piskvork "option.max_memory=$gomoku_memory")"
            args="$args --game gomoku $board --turn-time 100 --match-time 10000"
            ;;
    esac
    echo "== $setting: $games games" >&2
    # shellcheck disable=SC2086 # the argument lists are word lists on purpose
    "$qilin" match $args $common > "$out/$file.txt" 2> "$out/$file.log" || true
    tail -n 3 "$out/$file.txt" >&2
    if [[ -n $shard ]]; then
        mkdir -p "$keep/$setting"
        gzip -9 -c "$out/$file.jsonl" > "$keep/$setting/${file#"$setting".}.jsonl.gz"
        cp "$out/$file.mem" "$keep/$setting/${file#"$setting".}.mem"
        echo "== kept in $keep/$setting/ (merge: scripts/soak-merge.sh $setting)" >&2
    fi
done
if [[ -z $shard ]]; then
    python3 "$root/scripts/soak-report.py" "$out" "${settings[@]}"
fi
