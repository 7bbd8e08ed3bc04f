#!/usr/bin/env bash
# one-node.sh: a Slurm cluster of this one machine, for trying slurm.sh and
# sprt.sh (and for `make test-cluster`): its own munge key and socket, its
# own slurm.conf, state, spool and logs, all in DIR, on loopback ports that
# were free; nothing in /etc is changed. Needs root (slurmd runs jobs as
# their users) and the Debian packages slurm-wlm and munge.
#
#   one-node.sh start DIR   starts munged, slurmctld and slurmd, waits until
#                           the node takes jobs, prints SLURM_CONF=DIR/slurm.conf
#                           (export it; sbatch, squeue and sinfo read it)
#   one-node.sh stop DIR    stops the daemons that start started (by the
#                           process ids it kept in DIR) and removes DIR
#
# CPUS (default: nproc) is the node's CPUs (more than the machine has are
# taken as said: slurmd's config_overrides); MAX_ARRAY_SIZE (default
# Slurm's 1001) its MaxArraySize, the bound of a job array's task indices.
# The scheduler looks at the queue every 0.1 s at most (Slurm's default is
# 2 s), so that a test's short jobs start promptly.
set -euo pipefail
cmd="${1:?usage: one-node.sh start|stop DIR}"
dir="${2:?usage: one-node.sh start|stop DIR}"

# Stops the daemons whose ids are in DIR/*.pid, checking that each id is
# still the daemon that was started (an id is reused once its process ended).
stop() {
    local f pid name
    for name in slurmd slurmctld munged; do
        f="$dir/$name.pid"
        [ -f "$f" ] || continue
        pid=$(cat "$f")
        if [ -n "$pid" ] && grep -qa "$name" "/proc/$pid/cmdline" 2>/dev/null; then
            kill "$pid" 2>/dev/null || true
            for _ in $(seq 50); do [ -e "/proc/$pid" ] || break; sleep 0.1; done
            if [ -e "/proc/$pid" ]; then kill -9 "$pid" 2>/dev/null || true; fi
        fi
        rm -f "$f"
    done
}

# A TCP port on loopback that nothing listens on (from /proc/net/tcp*, which
# lists ports in hex), above the ephemeral range's usual start.
free_port() {
    local p hex
    while :; do
        p=$((20000 + RANDOM % 12000))
        hex=$(printf ':%04X ' "$p")
        if ! grep -q "$hex" /proc/net/tcp /proc/net/tcp6 2>/dev/null && [[ " ${taken:-} " != *" $p "* ]]; then
            taken="${taken:-} $p"
            echo "$p"
            return
        fi
    done
}

die() {
    echo "one-node.sh: $*" >&2
    exit 1
}

case "$cmd" in
stop)
    stop
    rm -rf "$dir"
    exit 0
    ;;
start) ;;
*) die "the command is start or stop, not $cmd" ;;
esac

[ "$(id -u)" -eq 0 ] || die "needs root: slurmd starts each job as its user (sudo $0 start $dir)"
for b in munged slurmctld slurmd sbatch sinfo; do
    command -v "$b" >/dev/null 2>&1 || [ -x "/usr/sbin/$b" ] ||
        die "$b is missing: apt-get install slurm-wlm munge (make deps)"
done
export PATH="$PATH:/usr/sbin"
[ ! -e "$dir/slurmctld.pid" ] || die "$dir holds a cluster already (one-node.sh stop $dir)"
mkdir -p "$dir"
dir="$(cd "$dir" && pwd)"
# munged wants every directory above its socket open to all (it is the
# way in for clients) and none of them writable by others.
chmod 755 "$dir"
mkdir -p "$dir/state" "$dir/spool" "$dir/munge"
chmod 755 "$dir/munge"
# On failure from here on, the daemons started so far are stopped.
trap 'stop' ERR

# munge: its own key, socket, pid, log and seed files.
dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$dir/munge/munge.key"
sock="$dir/munge/munge.sock"
# --force: munged refuses a socket below a directory that others cannot
# enter (a private home, CI's mktemp clone) unless forced; there only root,
# who runs the daemons, reaches it.
munged -F --force --key-file="$dir/munge/munge.key" --socket="$sock" --pid-file="$dir/munge/munged.pid" \
    --log-file="$dir/munge/munged.log" --seed-file="$dir/munge/munged.seed" > "$dir/munge/munged.out" 2>&1 &
echo $! > "$dir/munged.pid"
for _ in $(seq 50); do [ -S "$sock" ] && break; sleep 0.1; done
[ -S "$sock" ] || { stop; die "munged did not start: $(cat "$dir/munge/munged.out" "$dir/munge/munged.log" 2>/dev/null)"; }

host=$(hostname -s)
cpus="${CPUS:-$(nproc)}"
max_array="${MAX_ARRAY_SIZE:-1001}"
[[ "$cpus" =~ ^[1-9][0-9]*$ ]] || die "CPUS is a number, not $cpus"
[[ "$max_array" =~ ^[0-9]+$ ]] || die "MAX_ARRAY_SIZE is a number, not $max_array"
ctld_port=$(free_port)
slurmd_port=$(free_port)
cat > "$dir/slurm.conf" << EOF
# A one-node cluster, written by bench/cluster/one-node.sh.
ClusterName=denham
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$sock
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/state/slurmctld.pid
SlurmdPidFile=$dir/spool/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
MpiDefault=none
SwitchType=switch/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
ReturnToService=2
SlurmdTimeout=30
InactiveLimit=0
KillWait=5
MinJobAge=300
MaxArraySize=$max_array
SchedulerParameters=sched_min_interval=100000,bf_interval=1
SlurmdParameters=config_overrides
NodeName=$host NodeHostname=$host NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=main Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF="$dir/slurm.conf"

slurmctld -D -i -f "$SLURM_CONF" > "$dir/slurmctld.out" 2>&1 &
echo $! > "$dir/slurmctld.pid"
slurmd -D -N "$host" -f "$SLURM_CONF" > "$dir/slurmd.out" 2>&1 &
echo $! > "$dir/slurmd.pid"

# Up once the node is idle (it registers with slurmctld within seconds).
state=""
for _ in $(seq 300); do
    state=$(sinfo -h -n "$host" -o %t 2>/dev/null || true)
    [ "$state" = idle ] && break
    for d in slurmctld slurmd; do
        [ -e "/proc/$(cat "$dir/$d.pid")" ] || {
            stop
            die "$d ended: $(tail -5 "$dir/$d.out" "$dir/$d.log" 2>/dev/null)"
        }
    done
    sleep 0.2
done
if [ "$state" != idle ]; then
    logs=$(tail -5 "$dir/slurmctld.log" "$dir/slurmd.log" 2>/dev/null || true)
    stop
    die "the node is '${state:-not known}', not idle, after 60 s: $logs"
fi
trap - ERR
echo "SLURM_CONF=$SLURM_CONF"
