#!/usr/bin/env bash
# Qilin against Fairy-Stockfish (Debian's `fairy-stockfish` package: its binary is
# /usr/games/fairy-stockfish, UCI, ranks 1-10) at a fixed time per move.
#
# usage: scripts/fsf-match.sh [more qilin match arguments...]
# Environment (defaults in brackets):
#   QILIN        the Qilin binary                   [release build of this working tree]
#   FSF          the Fairy-Stockfish binary         [/usr/games/fairy-stockfish]
#   MOVETIME     ms per move                        [200]
#   GAMES        games                              [100]
#   CONCURRENCY  games at the same time             [number of cores]
#   SEED         seed of the opening shuffle        [1]
#   OUT          output directory                   [/tmp/qilin-fsf-<time>]
set -euo pipefail
if [[ ${1:-} == -h || ${1:-} == --help ]]; then
    awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"
    exit 0
fi
repo=$(git rev-parse --show-toplevel)
if [[ -z "${QILIN:-}" ]]; then
    cargo build --release --quiet --manifest-path "$repo/Cargo.toml"
    QILIN="$repo/target/release/qilin"
fi
fsf=${FSF:-/usr/games/fairy-stockfish}
if [[ ! -x "$fsf" ]]; then
    echo "no Fairy-Stockfish at $fsf (apt-get install fairy-stockfish, or set FSF)" >&2
    exit 2
fi
out=${OUT:-${TMPDIR:-/tmp}/qilin-fsf-$(date +%Y%m%d-%H%M%S)}
mkdir -p "$out"
"$QILIN" match \
    --engine name=qilin "cmd=$QILIN" proto=uci \
    --engine name=fairy-stockfish "cmd=$fsf" proto=uci ranks=1 option.UCI_Variant=xiangqi \
    --movetime "${MOVETIME:-200}" --games "${GAMES:-100}" \
    --concurrency "${CONCURRENCY:-$(nproc)}" \
    --openings "$repo/tests/data/xiangqi/openings-book-sample.epd" \
    --random-openings --seed "${SEED:-1}" \
    --results "$out/results.jsonl" --pgn "$out/games.pgn" \
    "$@" | tee "$out/summary.txt"
echo "records in $out" >&2
