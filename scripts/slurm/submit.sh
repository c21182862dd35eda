#!/bin/bash
# Queues a sharded `qilin match` on Slurm: SHARDS array tasks of CPUS CPUs each, then the
# merge as a job that depends on the whole array (afterany: it runs even if a shard failed).
#
#   QILIN=/path/qilin OUT=/shared/run1 SHARDS=8 CPUS=4 scripts/slurm/submit.sh \
#       --engine name=new cmd=/path/new --engine name=old cmd=/path/old --tc 10+0.1 \
#       --games 20000 --seed 42
#
# Environment: QILIN (default `qilin` on PATH; give an absolute path), OUT (default
# ./qilin-match-<date>; must be visible to every node), SHARDS (default 4), CPUS (default
# 2), RECORDS (pgn, sgf, psq), SBATCH_EXTRA (more sbatch options, such as --partition=...).
# Prints the two job ids; the result is OUT/merged.txt.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
export QILIN=${QILIN:-qilin}
export OUT=${OUT:-$PWD/qilin-match-$(date +%Y%m%d-%H%M%S)}
export SHARDS=${SHARDS:-4}
export RECORDS=${RECORDS:-}
CPUS=${CPUS:-2}
mkdir -p "$OUT"
# shellcheck disable=SC2086
array=$(sbatch --parsable ${SBATCH_EXTRA:-} --array="0-$((SHARDS - 1))" \
    --cpus-per-task="$CPUS" --output="$OUT/shard-%a.out" --export=ALL \
    "$here/match-shard.sbatch" "$@")
array=${array%%;*}
# shellcheck disable=SC2086
merge=$(sbatch --parsable ${SBATCH_EXTRA:-} --dependency="afterany:$array" \
    --output="$OUT/merge.out" --export=ALL "$here/merge.sbatch")
merge=${merge%%;*}
echo "array job $array ($SHARDS shards), merge job $merge; results in $OUT"
