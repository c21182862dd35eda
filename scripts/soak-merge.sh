#!/usr/bin/env bash
# Merges the soak shards kept by `SHARD=I/N scripts/soak.sh SETTING` (KEEP/<setting>/
# shard-I-of-N.jsonl.gz and .mem, KEEP default data/soak) with `qilin match-merge`: prints
# each setting's final table and missing games, then the soak report (crashes, time losses,
# illegal moves, protocol errors, peak memory) of all its shards together.
#
#   scripts/soak-merge.sh [SETTING...]     (default: every setting kept)
#
# Environment: QILIN (target/release/qilin, built if missing), KEEP.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
keep=${KEEP:-$root/data/soak}
qilin=${QILIN:-$root/target/release/qilin}
if [ ! -x "$qilin" ]; then
    (cd "$root" && cargo build --release --quiet)
fi
settings=("$@")
if [ ${#settings[@]} -eq 0 ]; then
    for dir in "$keep"/*/; do
        [ -d "$dir" ] && settings+=("$(basename "$dir")")
    done
fi
if [ ${#settings[@]} -eq 0 ]; then
    echo "soak-merge.sh: nothing kept in $keep" >&2
    exit 2
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for setting in "${settings[@]}"; do
    shopt -s nullglob
    shards=("$keep/$setting"/shard-*.jsonl.gz)
    shopt -u nullglob
    if [ ${#shards[@]} -eq 0 ]; then
        echo "soak-merge.sh: no shards of '$setting' in $keep" >&2
        exit 2
    fi
    inputs=()
    for shard in "${shards[@]}"; do
        name=$(basename "$shard" .jsonl.gz)
        gzip -dc "$shard" > "$work/$setting.$name.jsonl"
        inputs+=("$work/$setting.$name.jsonl")
    done
    echo "== $setting: ${#shards[@]} shard files"
    "$qilin" match-merge --results "$work/$setting.jsonl" "${inputs[@]}"
    cat "$keep/$setting"/shard-*.mem > "$work/$setting.mem" 2>/dev/null || : > "$work/$setting.mem"
done
python3 "$root/scripts/soak-report.py" "$work" "${settings[@]}"
