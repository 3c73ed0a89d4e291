#!/usr/bin/env bash
# A one-node SLURM on localhost for tests/test_slurm.py: munged, slurmctld and slurmd (Debian's
# slurm-wlm and munge packages, installed with apt when absent). Needs root.
#
#   tests/cluster/start.sh [STATE_DIR]     (default /tmp/reprocompare-slurm)
#
# Everything lives in STATE_DIR (config, munge key and socket, spool, logs, pid files). The one
# thing outside it is a symlink /etc/slurm/slurm.conf -> STATE_DIR/slurm.conf: the executor
# plugin strips SLURM_* variables (SLURM_CONF too) from the jobs it submits, so srun inside a job
# only finds the cluster at the default path. A real /etc/slurm/slurm.conf is never touched: then
# this script stops (exit 77, the reason on stderr). Idempotent: a cluster that already answers
# is left alone. Stop it with tests/cluster/stop.sh STATE_DIR.
set -euo pipefail
STATE=${1:-/tmp/reprocompare-slurm}
export SLURM_CONF=$STATE/slurm.conf

if [[ $(id -u) -ne 0 ]]; then
    echo "reprocompare-slurm: needs root (munged and slurmd run as root here)" >&2; exit 77
fi
if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null; then
    if ! command -v apt-get >/dev/null; then
        echo "reprocompare-slurm: slurm-wlm and munge are not installed and there is no apt-get" >&2
        exit 77
    fi
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >&2
    apt-get install -y -qq slurm-wlm munge >&2
fi

LINK=/etc/slurm/slurm.conf
if [[ -e $LINK || -L $LINK ]] && [[ $(readlink "$LINK") != "$SLURM_CONF" ]]; then
    echo "reprocompare-slurm: $LINK exists (a real SLURM configuration); left alone" >&2; exit 77
fi

if [[ -f $STATE/slurm.conf ]] && sinfo -h -o %T 2>/dev/null | grep -qE '^(idle|mixed|allocated)'; then
    echo "SLURM_CONF=$SLURM_CONF"; exit 0
fi

# A cluster that does not answer: what is left of an earlier one goes first (its daemons by their
# pid files, its saved state and slurmd's spool), so that no job of an earlier run comes back to
# the new controller (seen: a spool holding a job whose script was gone made slurmctld exit).
"$(dirname "$0")/stop.sh" "$STATE" >/dev/null 2>&1 || true
rm -rf "$STATE/ctld" "$STATE/spool"
mkdir -p "$STATE"/{ctld,spool,log,munge}
chmod 700 "$STATE/munge"
# munge: its own socket and key in STATE, so a system munged (if any) is neither needed nor disturbed.
if [[ ! -f $STATE/munge/munge.key ]]; then
    dd if=/dev/urandom of="$STATE/munge/munge.key" bs=1 count=1024 status=none
    chmod 400 "$STATE/munge/munge.key"
fi
SOCKET=$STATE/munge/munge.socket
if ! munge -n -S "$SOCKET" >/dev/null 2>&1; then
    munged --force --key-file "$STATE/munge/munge.key" --socket "$SOCKET" \
        --pid-file "$STATE/munge/munged.pid" --log-file "$STATE/log/munged.log" \
        --seed-file "$STATE/munge/munged.seed"
fi

CPUS=2                                             # two job slots: jobs really queue and wait
MEM=$(awk '/MemTotal/ {print int($2 / 1024 / 2)}' /proc/meminfo)   # half the machine, in MB
HOST=$(hostname -s)
cat > "$SLURM_CONF" <<CONF
# One-node test cluster written by tests/cluster/start.sh
ClusterName=reprocompare
SlurmctldHost=$HOST(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$SOCKET
StateSaveLocation=$STATE/ctld
SlurmdSpoolDir=$STATE/spool
SlurmctldPidFile=$STATE/slurmctld.pid
SlurmdPidFile=$STATE/slurmd.pid
SlurmctldLogFile=$STATE/log/slurmctld.log
SlurmdLogFile=$STATE/log/slurmd.log
SlurmctldPort=16817
SlurmdPort=16818
# no cgroups in a container: track processes by parent id, no task binding
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
# no slurmdbd: finished jobs are recorded one line each in the job-completion log
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/filetxt
JobCompLoc=$STATE/log/jobcomp.log
# keep finished jobs visible to squeue/scontrol for 10 minutes (the executor polls squeue)
MinJobAge=600
ReturnToService=2
SchedulerType=sched/backfill
MpiDefault=none
NodeName=$HOST NodeAddr=127.0.0.1 CPUs=$CPUS RealMemory=$MEM State=UNKNOWN
PartitionName=debug Nodes=$HOST Default=YES MaxTime=INFINITE State=UP
CONF

mkdir -p /etc/slurm
ln -sfn "$SLURM_CONF" "$LINK"
slurmctld -f "$SLURM_CONF" -c        # -c: a fresh state, no jobs from an earlier run
slurmd -f "$SLURM_CONF"
for _ in $(seq 60); do
    if sinfo -h -o %T 2>/dev/null | grep -qE '^(idle|mixed|allocated)'; then
        echo "SLURM_CONF=$SLURM_CONF"; exit 0
    fi
    sleep 0.5
done
echo "reprocompare-slurm: the node did not come up; see $STATE/log/" >&2
sinfo >&2 || true
exit 1
