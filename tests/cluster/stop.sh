#!/usr/bin/env bash
# Stops the one-node SLURM started by tests/cluster/start.sh (same STATE_DIR): cancels what is
# left in the queue, then stops slurmd, slurmctld and munged by the pids they wrote, and removes
# the /etc/slurm/slurm.conf symlink.
#   tests/cluster/stop.sh [STATE_DIR]
set -uo pipefail
STATE=${1:-/tmp/reprocompare-slurm}
export SLURM_CONF=$STATE/slurm.conf
[[ -f $SLURM_CONF ]] && scancel --full --user="$(id -un)" 2>/dev/null
for daemon in slurmd slurmctld munge/munged; do
    pidfile=$STATE/$daemon.pid
    [[ -f $pidfile ]] || continue
    pid=$(cat "$pidfile")
    kill "$pid" 2>/dev/null
    for _ in $(seq 40); do kill -0 "$pid" 2>/dev/null || break; sleep 0.25; done
    kill -0 "$pid" 2>/dev/null && kill -9 "$pid" 2>/dev/null
    rm -f "$pidfile"
done
# the symlink start.sh made, only if it still points at this cluster's configuration
[[ $(readlink /etc/slurm/slurm.conf 2>/dev/null) == "$SLURM_CONF" ]] && rm -f /etc/slurm/slurm.conf
exit 0
