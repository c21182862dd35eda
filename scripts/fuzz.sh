#!/usr/bin/env bash
# Runs the fuzz targets in fuzz/ (cargo fuzz, libFuzzer) one after another, each for SECONDS,
# on its committed corpus in fuzz/corpus/<target>; new inputs that add coverage are added to
# that corpus, a crash is saved under fuzz/artifacts/<target>/ and stops the script.
#
#   scripts/fuzz.sh SECONDS [TARGET...]     (default: every target)
#
# Needs cargo-fuzz (`cargo install cargo-fuzz`). The stable toolchain is used with
# RUSTC_BOOTSTRAP=1 and no sanitizer (the sanitizer runtimes are not needed to find panics,
# hangs and aborts, which is what the targets check). A run over -timeout seconds per input
# counts as a hang; -rss_limit_mb bounds memory.
set -euo pipefail
if [[ ${1:-} == -h || ${1:-} == --help ]]; then
    awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"
    exit 0
fi
cd "$(dirname "$0")/../fuzz"
seconds=${1:?usage: scripts/fuzz.sh SECONDS [TARGET...]}
if ! [[ $seconds =~ ^[0-9]+$ ]]; then
    echo "usage: scripts/fuzz.sh SECONDS [TARGET...] (SECONDS a whole number)" >&2
    exit 2
fi
shift
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    targets=(uci_line ucci_line piskvork_lines fen xiangqi_referee gomoku_referee engine_loop)
fi
export RUSTC_BOOTSTRAP=1
cargo fuzz build --sanitizer none -O
for target in "${targets[@]}"; do
    mkdir -p "corpus/$target"
    echo "== $target: ${seconds} s"
    cargo fuzz run --sanitizer none -O "$target" "corpus/$target" -- \
        -max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 -max_len=4096 \
        -print_final_stats=1 2>&1 | grep -E "^(stat::number_of_executed_units|stat::peak_rss_mb|Done|==[0-9]+== ERROR|.*panicked|SUMMARY|artifact_prefix|Test unit written)" || true
    if compgen -G "artifacts/$target/*" >/dev/null; then
        echo "$target: crash or hang saved in fuzz/artifacts/$target/" >&2
        exit 1
    fi
done
