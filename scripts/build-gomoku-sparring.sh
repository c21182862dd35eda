#!/usr/bin/env bash
# Builds a public Gomoku engine from its source folder, for gauntlets and as a judge. Nothing
# built here is part of Qilin or needed by its tests.
#
# usage: scripts/build-gomoku-sparring.sh rapfi-classical SOURCE_DIR NETWORKS_DIR
#        scripts/build-gomoku-sparring.sh aiwine SOURCE_DIR
#   rapfi-classical  SOURCE_DIR is a checkout of github.com/dhbloo/rapfi and NETWORKS_DIR one
#                    of github.com/dhbloo/rapfi-networks. Builds SOURCE_DIR/Rapfi/build/pbrain-rapfi
#                    (cmake and ninja; AVX2 and BMI2 when this CPU has them) and writes beside it
#                    a config.toml with the classical evaluation only (the newest model file of
#                    NETWORKS_DIR/classical, copied beside the binary, and no network section),
#                    one thread by default.
#   aiwine           SOURCE_DIR is a checkout of github.com/jinjiebang/AIWine; builds
#                    SOURCE_DIR/pbrain-wine with g++.
# Prints the path of the binary on success (Piskvork engines: give it to `qilin match` as
# `cmd=PATH`). Needs g++; rapfi-classical also needs cmake and ninja (Debian: cmake ninja-build).
set -euo pipefail
usage() {
    sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'
    exit "${1:-2}"
}
[[ ${1:-} == -h || ${1:-} == --help ]] && usage 0
[[ $# -lt 2 ]] && usage
kind=$1
src=$(cd "$2" && pwd)

has_cpu_flag() { grep -qw "$1" /proc/cpuinfo; }
on_off() { if has_cpu_flag "$1"; then echo ON; else echo OFF; fi; }

case "$kind" in
rapfi-classical)
    [[ $# -eq 3 ]] || usage
    networks=$(cd "$3" && pwd)
    [[ -f "$src/Rapfi/CMakeLists.txt" ]] || { echo "no Rapfi/CMakeLists.txt in $src" >&2; exit 1; }
    model=$(find "$networks/classical" -maxdepth 1 -name 'model*.bin' | sort | tail -n 1)
    [[ -n "$model" ]] || { echo "no classical/model*.bin in $networks" >&2; exit 1; }
    build="$src/Rapfi/build"
    cmake -S "$src/Rapfi" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
        -DUSE_AVX2="$(on_off avx2)" -DUSE_BMI2="$(on_off bmi2)" -DUSE_AVX512=OFF \
        -DUSE_VNNI=OFF >&2
    ninja -C "$build" >&2
    bin=$(find "$build" -maxdepth 1 -type f -name 'pbrain-rapfi*' -perm -u+x | head -n 1)
    [[ -n "$bin" ]] || { echo "the build produced no pbrain-rapfi in $build" >&2; exit 1; }
    cp "$model" "$build/"
    # Rapfi reads config.toml from its own folder. Classical evaluation: no [model.evaluator].
    cat >"$build/config.toml" <<EOF
# Written by Qilin's scripts/build-gomoku-sparring.sh: Rapfi with its classical evaluation.
[general]
default_thread_num = 1
message_mode = "brief"
coord_conversion_mode = "none"

[model]
binary_file = "$(basename "$model")"
EOF
    ;;
aiwine)
    [[ -f "$src/src/main.cpp" ]] || { echo "no src/main.cpp in $src" >&2; exit 1; }
    g++ -std=c++17 -O3 -msse4.2 -pthread -DNDEBUG -o "$src/pbrain-wine" "$src"/src/*.cpp >&2
    bin="$src/pbrain-wine"
    ;;
*)
    echo "unknown engine '$kind' (rapfi-classical or aiwine)" >&2
    exit 2
    ;;
esac
[[ -x "$bin" ]] || { echo "build did not produce $bin" >&2; exit 1; }
echo "$bin"
