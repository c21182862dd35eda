#!/usr/bin/env bash
# Writes Xiangqi gauntlet openings that are not in the repository: every 68th line of
# Fairy-Stockfish's xiangqi opening book (github.com/ianfab/books, xiangqi.epd, 33,921 lines)
# starting at line 35, i.e. the lines halfway between those of the repository's book sample
# (tests/data/xiangqi/openings-book-sample.epd takes lines 1, 69, 137, ...), less any position
# the sample also holds. Neither the data generator nor any test sees these positions.
#
# usage: scripts/xiangqi-heldout-openings.sh BOOKS_DIR OUT.epd
#   BOOKS_DIR is a checkout of github.com/ianfab/books. Prints the number of openings written.
set -euo pipefail
[[ $# -eq 2 ]] || { sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
book="$1/xiangqi.epd"
[[ -f "$book" ]] || { echo "no xiangqi.epd in $1" >&2; exit 1; }
sample="$(dirname "$0")/../tests/data/xiangqi/openings-book-sample.epd"
{
    echo "# Held-out openings: lines 35, 103, 171, ... (every 68th from 35) of xiangqi.epd from"
    echo "# github.com/ianfab/books (Fairy-Stockfish's opening book), made by"
    echo "# scripts/xiangqi-heldout-openings.sh; none is in the repository's book sample."
    awk 'NR % 68 == 35' "$book" | grep -v -x -F -f <(grep -v '^#' "$sample")
} >"$2"
grep -c -v '^#' "$2"
