#!/usr/bin/env bash
# Builds a public Xiangqi engine from its source folder, for gauntlets and as a judge. Nothing
# built here is part of Qilin or needed by its tests.
#
# usage: scripts/build-xiangqi-sparring.sh pikafish-hce|eleeye SOURCE_DIR
#   pikafish-hce  SOURCE_DIR is a checkout of github.com/skystarspython/Pikafish-HCE (Stockfish
#                 search, hand-written evaluation, UCI); builds SOURCE_DIR/src/pikafish for
#                 any x86-64 with SSE4.1 and popcnt (ARCH=x86-64-modern).
#   eleeye        SOURCE_DIR is a checkout of github.com/xqbase/eleeye (UCCI); builds
#                 SOURCE_DIR/eleeye/ELEEYE. Give it `option.usebook=false` in matches: its
#                 book file is not built.
# Prints the path of the binary on success. Needs g++ and make.
set -euo pipefail
usage() {
    sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'
    exit "${1:-2}"
}
[[ ${1:-} == -h || ${1:-} == --help ]] && usage 0
[[ $# -ne 2 ]] && usage
kind=$1
src=$(cd "$2" && pwd)

case "$kind" in
pikafish-hce)
    [[ -f "$src/src/Makefile" ]] || { echo "no src/Makefile in $src" >&2; exit 1; }
    make -C "$src/src" -j"$(nproc)" build ARCH=x86-64-modern >&2
    bin="$src/src/pikafish"
    ;;
eleeye)
    [[ -f "$src/eleeye/eleeye.cpp" ]] || { echo "no eleeye/eleeye.cpp in $src" >&2; exit 1; }
    (
        cd "$src/eleeye"
        g++ -DNDEBUG -O2 -w -o ELEEYE ../base/pipe.cpp ucci.cpp pregen.cpp position.cpp \
            genmoves.cpp hash.cpp book.cpp movesort.cpp preeval.cpp evaluate.cpp search.cpp \
            eleeye.cpp -lpthread
    )
    bin="$src/eleeye/ELEEYE"
    ;;
*)
    echo "unknown engine '$kind' (pikafish-hce or eleeye)" >&2
    exit 2
    ;;
esac
[[ -x "$bin" ]] || { echo "build did not produce $bin" >&2; exit 1; }
echo "$bin"
