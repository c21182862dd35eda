# Shared parts of the gauntlet scripts (sourced, not run): argument parsing of
# `--ENGINE PATH ... [--only NAME]`, the Qilin binary and the output folder.
#
# gauntlet_args "ENGINE1 ENGINE2 ..." "$@" sets `engines[NAME]` (an associative array, the
# engine's binary, checked to be executable) and `only`; it calls `usage` (the script's own)
# on a bad or missing argument.
gauntlet_args() {
    local known=" $1 "
    shift
    declare -gA engines=()
    only=""
    while [[ $# -gt 0 ]]; do
        case "$1" in
        --only) only=${2:?}; shift 2 ;;
        --*)
            local name=${1#--}
            [[ "$known" == *" $name "* && -n "${2:-}" ]] || usage
            engines[$name]=$2
            shift 2
            ;;
        *) usage ;;
        esac
    done
    [[ ${#engines[@]} -eq 0 ]] && usage
    local bin
    for bin in "${engines[@]}"; do
        if [[ ! -x "$bin" ]]; then
            echo "not an executable: $bin" >&2
            exit 2
        fi
    done
}

# gauntlet_setup PREFIX sets `repo`, `qilin` (QILIN, or a release build of the repository)
# and `out` (OUT, or PREFIX-<time> under the temporary folder, created).
gauntlet_setup() {
    repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
    qilin=${QILIN:-}
    if [[ -z "$qilin" ]]; then
        cargo build --release --quiet --manifest-path "$repo/Cargo.toml"
        qilin="$repo/target/release/qilin"
    fi
    out=${OUT:-${TMPDIR:-/tmp}/$1-$(date +%Y%m%d-%H%M%S)}
    mkdir -p "$out"
}
