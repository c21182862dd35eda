#!/usr/bin/env bash
# Gauntlet: Qilin (built from the working tree, or QILIN=path) against each engine listed in
# a file, one engine a line as `qilin match --engine` settings:
#     name=pikafish cmd=/opt/pikafish/pikafish proto=uci option.Threads=1
#     name=eleeye cmd=/opt/eleeye/ELEEYE.EXE proto=ucci dir=/opt/eleeye
# (blank lines and lines starting with # are skipped; values cannot contain spaces).
#
# usage: scripts/gauntlet.sh ENGINES_FILE [more qilin match arguments...]
#   e.g. scripts/gauntlet.sh engines.txt --tc 10+0.1 --games 100
#
# Environment (defaults in brackets):
#   QILIN        Qilin binary to test (also the runner) [build target/release/qilin]
#   TC           time control arguments                 ["--tc 10+0.1"]
#   GAMES        games against each engine              [100]
#   CONCURRENCY  games at the same time                 [number of cores]
#   OUT          output directory                       [gauntlet-<time> under /tmp]
set -euo pipefail
usage() {
    sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'
    exit "${1:-2}"
}
[[ ${1:-} == -h || ${1:-} == --help ]] && usage 0
[[ $# -lt 1 || ! -f "$1" ]] && usage
engines_file=$1
shift

repo=$(cd "$(dirname "$0")/.." && pwd)
qilin=${QILIN:-}
if [[ -z "$qilin" ]]; then
    cargo build --release --quiet --manifest-path "$repo/Cargo.toml"
    qilin="$repo/target/release/qilin"
fi
out=${OUT:-${TMPDIR:-/tmp}/gauntlet-$(date +%Y%m%d-%H%M%S)}
mkdir -p "$out"

engine_args=(--engine name=qilin "cmd=$qilin")
while IFS= read -r line || [[ -n "$line" ]]; do
    [[ -z "${line// /}" || "$line" =~ ^[[:space:]]*# ]] && continue
    read -r -a settings <<<"$line"
    engine_args+=(--engine "${settings[@]}")
done <"$engines_file"
if [[ ${#engine_args[@]} -lt 5 ]]; then
    echo "gauntlet: no engines in $engines_file" >&2
    exit 2
fi

read -r -a tc <<<"${TC:---tc 10+0.1}"
"$qilin" match --gauntlet "${engine_args[@]}" "${tc[@]}" \
    --games "${GAMES:-100}" --concurrency "${CONCURRENCY:-$(nproc)}" \
    --results "$out/results.jsonl" --pgn "$out/games.pgn" \
    "$@" | tee "$out/summary.txt"
echo "records in $out" >&2
