#!/bin/bash
# Tests the Slurm scripts for real: starts a private one-node Slurm cluster on this machine
# (munged, slurmctld and slurmd from Debian's packages: `apt-get install slurmctld slurmd
# slurm-client munge`), submits a sharded match of stand-in engines with
# scripts/slurm/submit.sh, waits for the merge job, checks that the merged table and records
# equal a local single run game for game, and shuts the cluster down. Needs root (slurmd runs
# jobs as their users). Everything lives in a scratch directory (its own munge key and
# socket, its own slurm.conf, unusual ports): /etc is not touched, and the cluster is stopped
# and the directory removed on any exit (KEEP=1 keeps the directory).
#
#   scripts/slurm-selftest.sh            # QILIN=path to skip the release build
#   SHARDS=3 GAMES=12 scripts/slurm-selftest.sh
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
SHARDS=${SHARDS:-3}
GAMES=${GAMES:-12}
for tool in munged slurmctld slurmd sbatch squeue sinfo python3; do
    command -v "$tool" >/dev/null || {
        echo "slurm-selftest: '$tool' not found (apt-get install slurmctld slurmd slurm-client munge)" >&2
        exit 2
    }
done
if [[ $(id -u) != 0 ]]; then
    echo "slurm-selftest: needs root (slurmd starts jobs as their users)" >&2
    exit 2
fi
if [[ -z ${QILIN:-} ]]; then
    (cd "$repo" && cargo build --release --quiet)
    QILIN=$repo/target/release/qilin
fi
work=$(mktemp -d /tmp/qilin-slurm-XXXXXX)
pids=()
cleanup() {
    local status=$?
    for pid in "${pids[@]}"; do
        kill "$pid" 2>/dev/null || true
    done
    for pid in "${pids[@]}"; do
        wait "$pid" 2>/dev/null || true
    done
    if [[ ${KEEP:-0} == 1 ]]; then
        echo "slurm-selftest: kept $work"
    else
        rm -rf "$work"
    fi
    exit "$status"
}
trap cleanup EXIT INT TERM
chmod 755 "$work"
mkdir -p "$work"/{munge,spool,state,log,out}

# munge: a private key and socket.
dd if=/dev/urandom of="$work/munge/key" bs=1024 count=1 status=none
chmod 400 "$work/munge/key"
munged -F --force --key-file="$work/munge/key" --socket="$work/munge/socket" \
    --pid-file="$work/munge/pid" --log-file="$work/log/munged.log" \
    --seed-file="$work/munge/seed" >>"$work/log/munged.out" 2>&1 &
pids+=($!)

# slurm.conf for this host: CPUs from nproc, memory a little below what slurmd -C sees.
host=$(hostname -s)
cpus=$(nproc)
memory=$(slurmd -C | sed -n 's/.*RealMemory=\([0-9]*\).*/\1/p')
memory=$((memory * 9 / 10))
export SLURM_CONF=$work/slurm.conf
cat >"$SLURM_CONF" <<CONF
ClusterName=qilinselftest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=16817
SlurmdPort=16818
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$work/munge/socket
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/log/slurmctld.log
SlurmdLogFile=$work/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$memory State=UNKNOWN
PartitionName=selftest Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
for _ in $(seq 50); do [[ -S $work/munge/socket ]] && break; sleep 0.1; done
slurmctld -D -i -f "$SLURM_CONF" >"$work/log/slurmctld.out" 2>&1 &
pids+=($!)
slurmd -D -f "$SLURM_CONF" >"$work/log/slurmd.out" 2>&1 &
pids+=($!)
echo "slurm-selftest: cluster up on $host ($cpus CPUs, RealMemory=$memory), waiting for the node"
for _ in $(seq 60); do
    state=$(sinfo -h -n "$host" -o %t 2>/dev/null || true)
    [[ $state == idle* ]] && break
    sleep 1
done
sinfo
[[ $state == idle* ]] || { echo "slurm-selftest: node not idle ($state)" >&2; tail "$work"/log/* >&2; exit 1; }

# The match: two stand-in engines that draw each move from their seed and the position.
match=(--engine name=a cmd="$QILIN" arg=test-engine arg=--seed arg=1
       --engine name=b cmd="$QILIN" arg=test-engine arg=--seed arg=2
       --movetime 5000 --maxplies 80 --games "$GAMES" --seed 7)
submitted=$(cd "$work/out" && QILIN=$QILIN OUT=$work/out SHARDS=$SHARDS CPUS=1 RECORDS=pgn \
    "$repo/scripts/slurm/submit.sh" "${match[@]}")
echo "slurm-selftest: $submitted"
merge_job=$(sed -n 's/.*merge job \([0-9]*\).*/\1/p' <<<"$submitted")
for _ in $(seq 600); do
    [[ -z $(squeue -h -j "$merge_job" 2>/dev/null) ]] && break
    sleep 1
done
[[ -z $(squeue -h -j "$merge_job" 2>/dev/null) ]] || { echo "slurm-selftest: merge job still queued after 10 minutes" >&2; squeue >&2; exit 1; }
echo "--- merge job output"
cat "$work/out/merge.out"

# The same match in one local run, and the comparison.
"$QILIN" match "${match[@]}" --concurrency 2 --results "$work/one.jsonl" >"$work/one.txt" 2>/dev/null
python3 - "$work/one.jsonl" "$work/out/merged.jsonl" "$work/one.txt" "$work/out/merged.txt" "$work/out/merged.pgn" "$GAMES" <<'PY'
import json, sys
one_path, merged_path, one_table, merged_table, pgn, games = sys.argv[1:]
def games_of(path):
    out = {}
    for line in open(path):
        record = json.loads(line)
        out[record["game"]] = {k: v for k, v in record.items() if not k.endswith("_time_ms") and k != "shard"}
    return out
one, merged = games_of(one_path), games_of(merged_path)
assert sorted(one) == list(range(1, int(games) + 1)), "the local run is incomplete"
assert sorted(merged) == sorted(one), f"merged games {sorted(merged)}"
different = [n for n in one if one[n] != merged[n]]
assert not different, f"games differ: {different}"
assert open(one_table).read() == open(merged_table).read(), "the tables differ"
shards = {json.loads(l)["shard"] for l in open(merged_path)}
rounds = [l for l in open(pgn) if l.startswith("[Round ")]
assert len(rounds) == len(one), f"{len(rounds)} PGN games"
print(f"slurm-selftest: PASS: {len(one)} games from shards {sorted(shards)} equal the local run game for game; same table, {len(rounds)} PGN games")
PY
