#!/usr/bin/env bash
# SPRT between two git revisions of Qilin: builds each revision into its own temporary
# directory and plays them against each other with `qilin match --sprt` until the test
# decides (or GAMES games are played).
#
# usage: scripts/sprt.sh BASE_REV NEW_REV [more qilin match arguments...]
#   e.g. scripts/sprt.sh main HEAD --tc 10+0.1
#
# Environment (defaults in brackets):
#   TC           time control arguments            ["--tc 10+0.1"]
#   GAMES        maximum number of games           [20000]
#   CONCURRENCY  games at the same time            [number of cores]
#   ELO0 ELO1    SPRT hypotheses (logistic Elo)     [0 5]
#   ALPHA BETA   error rates                        [0.05 0.05]
#   OPENINGS     openings file    [tests/data/xiangqi/openings-book-sample.epd: 499 positions]
#   PROTO        protocol to use with both engines  [auto]
#   OUT          output directory                   [sprt-BASE-NEW-<time> under /tmp]
#   KEEP=1       keep the temporary build directories
set -euo pipefail
usage() {
    sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'
    exit "${1:-2}"
}
[[ ${1:-} == -h || ${1:-} == --help ]] && usage 0
[[ $# -lt 2 ]] && usage
base_rev=$1
new_rev=$2
shift 2

repo=$(git rev-parse --show-toplevel)
base_sha=$(git -C "$repo" rev-parse --short "$base_rev^{commit}")
new_sha=$(git -C "$repo" rev-parse --short "$new_rev^{commit}")
work=$(mktemp -d "${TMPDIR:-/tmp}/qilin-sprt.XXXXXX")
out=${OUT:-${TMPDIR:-/tmp}/sprt-$base_sha-$new_sha-$(date +%Y%m%d-%H%M%S)}
mkdir -p "$out"

cleanup() {
    for name in base new; do
        if [[ -d "$work/$name" ]]; then
            git -C "$repo" worktree remove --force "$work/$name" >/dev/null 2>&1 || true
        fi
    done
    if [[ "${KEEP:-0}" != 1 ]]; then
        rm -rf "$work"
    fi
}
trap cleanup EXIT

build() { # name revision
    local name=$1 rev=$2
    echo "building $name = $rev" >&2
    git -C "$repo" worktree add --detach --quiet "$work/$name" "$rev"
    cargo build --release --quiet --manifest-path "$work/$name/Cargo.toml" \
        --target-dir "$work/target-$name"
    cp "$work/target-$name/release/qilin" "$work/qilin-$name"
}
build base "$base_sha"
build new "$new_sha"

# The runner itself comes from the new revision.
runner="$work/qilin-new"
read -r -a tc <<<"${TC:---tc 10+0.1}"
# The built-in set has only ten openings: too few for thousands of games between two
# deterministic engines. The book sample has 499.
openings=(--openings "${OPENINGS:-$repo/tests/data/xiangqi/openings-book-sample.epd}")

"$runner" match \
    --engine "name=new-$new_sha" "cmd=$work/qilin-new" "proto=${PROTO:-auto}" \
    --engine "name=base-$base_sha" "cmd=$work/qilin-base" "proto=${PROTO:-auto}" \
    "${tc[@]}" \
    --games "${GAMES:-20000}" \
    --concurrency "${CONCURRENCY:-$(nproc)}" \
    --random-openings --seed "${SEED:-$RANDOM}" \
    "${openings[@]}" \
    --sprt "elo0=${ELO0:-0}" "elo1=${ELO1:-5}" "alpha=${ALPHA:-0.05}" "beta=${BETA:-0.05}" \
    --results "$out/results.jsonl" --pgn "$out/games.pgn" \
    "$@" | tee "$out/summary.txt"
echo "records in $out" >&2
