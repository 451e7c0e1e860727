#!/usr/bin/env bash
# A single-node Slurm on this machine, for testing array jobs: munged,
# slurmctld and slurmd started by hand (no systemd), everything (config, keys,
# sockets, state, logs) under one directory.
#
#   scripts/slurm_local.sh start DIR   # daemons in the background; prints the SLURM_CONF to export
#   scripts/slurm_local.sh stop DIR
#   scripts/slurm_local.sh run DIR     # daemons as children, until SIGTERM (for tests:
#                                      # DIR/ready appears once the node is idle)
#
# Needs root (slurmd starts jobs as their user) and Debian's slurm-wlm and
# munge. No cgroups are used (proctrack/linuxproc, task/none), so it also runs
# in containers without systemd or a delegated cgroup tree.
set -euo pipefail
cmd=${1:?usage: slurm_local.sh start|stop|run DIR}
dir=${2:?usage: slurm_local.sh start|stop|run DIR}

stop() {
    for p in slurmd slurmctld munged; do
        if [ -s "$dir/$p.pid" ]; then
            kill "$(cat "$dir/$p.pid")" 2>/dev/null || true
        fi
    done
    for p in slurmd slurmctld munged; do
        for _ in $(seq 50); do
            [ -s "$dir/$p.pid" ] && kill -0 "$(cat "$dir/$p.pid")" 2>/dev/null || break
            sleep 0.1
        done
        rm -f "$dir/$p.pid"
    done
}

if [ "$cmd" = stop ]; then
    stop
    exit 0
fi
case $cmd in start | run) ;; *) echo "usage: slurm_local.sh start|stop|run DIR" >&2; exit 2 ;; esac
for tool in munged slurmctld slurmd sbatch; do
    command -v "$tool" >/dev/null || PATH=$PATH:/usr/sbin
    command -v "$tool" >/dev/null || { echo "slurm_local.sh: $tool not found (apt-get install slurm-wlm munge)" >&2; exit 3; }
done
[ "$(id -u)" = 0 ] || { echo "slurm_local.sh: needs root (slurmd runs jobs as their user)" >&2; exit 3; }

mkdir -p "$dir/ctld" "$dir/spool" "$dir/munge"
dir=$(cd "$dir" && pwd)
chmod 700 "$dir/munge"
node=$(hostname -s)
# Ports away from the defaults, in case a real Slurm runs here.
ctld_port=${SLURM_LOCAL_CTLD_PORT:-16817}
slurmd_port=${SLURM_LOCAL_SLURMD_PORT:-16818}
cpus=$(nproc)

rm -f "$dir/munge/munge.key" "$dir/ready"
dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$dir/munge/munge.key"
munge_args=(--force --key-file="$dir/munge/munge.key" --socket="$dir/munge/munge.sock"
    --pid-file="$dir/munged.pid" --log-file="$dir/munged.log" --seed-file="$dir/munge/seed")

cat > "$dir/slurm.conf" <<CONF
ClusterName=chesstool-local
SlurmctldHost=$node
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge/munge.sock
StateSaveLocation=$dir/ctld
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MpiDefault=none
MailProg=/bin/true
NodeName=$node CPUs=$cpus State=UNKNOWN
PartitionName=local Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$dir/slurm.conf
if [ "$cmd" = run ]; then
    # Foreground daemons, children of this shell: killed and reaped with it.
    children=()
    finish() {
        trap - TERM INT EXIT
        kill "${children[@]}" 2>/dev/null || true
        wait
        exit 0
    }
    trap finish TERM INT EXIT
    munged --foreground "${munge_args[@]}" & children+=($!)
    sleep 0.3
    slurmctld -D -f "$SLURM_CONF" & children+=($!)
    slurmd -D -f "$SLURM_CONF" & children+=($!)
else
    munged "${munge_args[@]}"
    slurmctld -f "$SLURM_CONF"
    slurmd -f "$SLURM_CONF"
fi
up=false
for _ in $(seq 150); do
    if sinfo -h -o %t 2>/dev/null | grep -q idle; then
        up=true
        break
    fi
    sleep 0.2
done
if ! $up; then
    echo "slurm_local.sh: the node did not come up within 30 s; see $dir/slurmctld.log and $dir/slurmd.log" >&2
    sinfo >&2 || true
    tail -5 "$dir/slurmctld.log" "$dir/slurmd.log" >&2 || true
    [ "$cmd" = run ] || stop
    exit 3
fi
echo "SLURM_CONF=$SLURM_CONF"
if [ "$cmd" = run ]; then
    touch "$dir/ready"
    wait
fi
