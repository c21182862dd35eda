#!/usr/bin/env bash
# Builds the release binary and puts a copy named pbrain-qilin next to it, the name Gomocup
# managers (Piskvork, GomocupJudge, c-gomoku-cli) look for. The copy is the same program: with
# no arguments it speaks whatever protocol the first line chooses (Piskvork for a manager).
#   scripts/make-pbrain.sh [DEST_DIR]   (default: target/release)
set -euo pipefail
if [[ ${1:-} == -h || ${1:-} == --help ]]; then
    awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"
    exit 0
fi
cd "$(dirname "$0")/.."
cargo build --release
dest="${1:-target/release}"
mkdir -p "$dest"
cp target/release/qilin "$dest/pbrain-qilin"
echo "$dest/pbrain-qilin"
