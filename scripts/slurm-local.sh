#!/usr/bin/env bash
# A one-node Slurm on this machine (munged, slurmctld, slurmd), everything kept in one directory.
#
# usage: scripts/slurm-local.sh [-p PORT] start|stop|status DIR
#
#   start    writes DIR/slurm.conf and a MUNGE key, starts munged, slurmctld and slurmd (those not
#            already running from DIR) and waits until the node is idle; prints the line that points
#            Slurm's commands at it:  export SLURM_CONF=DIR/slurm.conf
#   stop     cancels the cluster's jobs and stops the three daemons (by the process ids in DIR's pid
#            files); nothing running is not an error
#   status   exit 0 when all three run, 1 otherwise
#   -p PORT  slurmctld's port (default 6817); slurmd listens on PORT+1
#
# Both are idempotent. The node is this machine's short host name at 127.0.0.1, with all its CPUs and
# one partition, `local`. Nothing outside DIR is written: munged has its own key and socket there, so
# a system-wide MUNGE or Slurm is left alone (give another -p if a Slurm already has the port).
# Needs Debian's slurm-wlm and munge (scripts/test.sh installs them) and root, as slurmd runs the jobs.
# Example: scripts/slurm-local.sh start /tmp/slurm && export SLURM_CONF=/tmp/slurm/slurm.conf &&
#          sbatch --array=1-3 scripts/tournament-slurm.sbatch --engine ... && scripts/slurm-local.sh stop /tmp/slurm
set -euo pipefail

usage() { sed -n 's/^# \{0,1\}//; 4p' "$0" >&2; exit "${1:-2}"; }
die() { echo "slurm-local.sh: $*" >&2; exit 1; }

port=6817
while getopts 'p:h' opt; do
    case $opt in
        p) port=$OPTARG ;;
        h) usage 0 ;;
        *) usage ;;
    esac
done
shift $((OPTIND - 1))
[[ $# -eq 2 ]] || usage
action=$1
[[ $action == start || $action == stop || $action == status ]] || usage
[[ $port =~ ^[1-9][0-9]*$ && $port -lt 65535 ]] || { echo "slurm-local.sh: -p must be a port number" >&2; exit 2; }

daemons=(munged slurmctld slurmd)

# The process id in DIR's pid file of a daemon when that process runs and was started from DIR.
running() {
    local file=$dir/$1.pid pid
    [[ -s $file ]] || return 1
    pid=$(<"$file")
    [[ $pid =~ ^[0-9]+$ && -r /proc/$pid/cmdline ]] || return 1
    # Its command line names DIR: not another process that got the same id later.
    tr '\0' ' ' <"/proc/$pid/cmdline" | grep -qF -- "$dir/" || return 1
    echo "$pid"
}

stop_daemon() {
    local pid
    pid=$(running "$1") || { rm -f "$dir/$1.pid"; return 0; }
    kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq 100); do
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.1
    done
    kill -0 "$pid" 2>/dev/null && kill -KILL "$pid" 2>/dev/null
    rm -f "$dir/$1.pid"
    echo "stopped $1 ($pid)"
}

write_conf() {
    local host cpus
    host=$(hostname -s)
    cpus=$(nproc)
    cat >"$dir/slurm.conf.new" <<EOF
# Written by scripts/slurm-local.sh: a one-node Slurm on $host, everything in $dir.
ClusterName=veletas-local
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge/munge.socket
# No cgroups (no systemd here): processes tracked through /proc, tasks not confined.
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
SlurmdSpoolDir=$dir/spool
StateSaveLocation=$dir/state
PlugStackConfig=$dir/plugstack.conf
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=1000 State=UNKNOWN
PartitionName=local Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
    mv "$dir/slurm.conf.new" "$dir/slurm.conf"
    : >"$dir/plugstack.conf"
}

start() {
    local missing=() cmd
    for cmd in munged mungekey munge unmunge slurmctld slurmd sinfo scontrol; do
        command -v "$cmd" >/dev/null || missing+=("$cmd")
    done
    [[ ${#missing[@]} -eq 0 ]] || die "${missing[*]} not found: install Debian's slurm-wlm and munge"
    [[ $(id -u) -eq 0 ]] || die "needs root (slurmd runs the jobs as their users)"
    # munged wants its socket's directories searchable by all, its key private.
    mkdir -p "$dir/munge" "$dir/spool" "$dir/state"
    chmod 755 "$dir" "$dir/munge"
    [[ -s $dir/munge/munge.key ]] || mungekey --create --keyfile="$dir/munge/munge.key"
    if ! running munged >/dev/null; then
        munged --key-file="$dir/munge/munge.key" --socket="$dir/munge/munge.socket" \
            --pid-file="$dir/munged.pid" --log-file="$dir/munge/munged.log" --seed-file="$dir/munge/munged.seed"
        echo "started munged ($(<"$dir/munged.pid"))"
    fi
    munge -n --socket="$dir/munge/munge.socket" | unmunge --socket="$dir/munge/munge.socket" >/dev/null ||
        die "munged does not answer (see $dir/munge/munged.log)"
    export SLURM_CONF=$dir/slurm.conf
    if ! running slurmctld >/dev/null; then
        write_conf
        slurmctld -f "$SLURM_CONF" || die "slurmctld did not start (see $dir/slurmctld.log)"
        wait_for_pid slurmctld
    fi
    if ! running slurmd >/dev/null; then
        slurmd -f "$SLURM_CONF" || die "slurmd did not start (see $dir/slurmd.log)"
        wait_for_pid slurmd
    fi
    # Until the node is idle: at most 30 s, each query at most 5 s, and not a moment longer
    # once a daemon has died (a port in use, a bad configuration).
    local state='' deadline=$((SECONDS + 30)) d
    while [[ $state != idle && $state != mix && $state != alloc ]]; do
        for d in "${daemons[@]}"; do
            running "$d" >/dev/null || die "$d stopped: $(log_tail "$d")"
        done
        ((SECONDS < deadline)) || die "the node is not up after 30 s (state '${state:-none}'): $(log_tail slurmd)"
        sleep 0.2
        state=$(timeout 5 sinfo -h -N -o %t 2>/dev/null || true)
    done
    echo "export SLURM_CONF=$SLURM_CONF"
}

# The last lines of a daemon's log, for an error message.
log_tail() {
    local log=$dir/$1.log
    [[ $1 == munged ]] && log=$dir/munge/munged.log
    printf '%s\n' "$log:"
    tail -n 5 "$log" 2>/dev/null || true
}

# The daemons fork into the background and write their pid file a moment later.
wait_for_pid() {
    for _ in $(seq 100); do
        if pid=$(running "$1"); then
            echo "started $1 ($pid)"
            return 0
        fi
        sleep 0.1
    done
    die "$1 did not stay up: $(log_tail "$1")"
}

stop() {
    [[ -d $dir ]] || return 0
    if running slurmctld >/dev/null && [[ -s $dir/slurm.conf ]]; then
        local jobs
        jobs=$(SLURM_CONF=$dir/slurm.conf timeout 10 squeue -h -o %A 2>/dev/null || true)
        # shellcheck disable=SC2086 # one job id a word
        [[ -z $jobs ]] || SLURM_CONF=$dir/slurm.conf timeout 10 scancel $jobs 2>/dev/null || true
    fi
    local d
    for d in slurmd slurmctld munged; do stop_daemon "$d"; done
}

dir=$2
if [[ $action == start ]]; then
    mkdir -p "$dir"
fi
if [[ -d $dir ]]; then
    dir=$(cd "$dir" && pwd -P)
fi
case $action in
    start) start ;;
    stop) stop ;;
    status)
        for d in "${daemons[@]}"; do running "$d" >/dev/null || exit 1; done
        ;;
esac
