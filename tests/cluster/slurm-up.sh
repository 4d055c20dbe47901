#!/bin/bash
# Brings up a one-node Slurm cluster for the cluster tests (root; Debian 12 packages; no
# systemd, no cgroups). Idempotent: a cluster this script started earlier is reused.
# State and logs under $SB_SLURM_DIR (default /tmp/sweepbench-slurm). slurm-down.sh stops it.
set -euo pipefail
dir=${SB_SLURM_DIR:-/tmp/sweepbench-slurm}
conf=/etc/slurm/slurm.conf
node=$(hostname -s)
say() { echo "[slurm-up] $*" >&2; }
running() { [ -s "$dir/$1.pid" ] && [ "$(cat "/proc/$(cat "$dir/$1.pid")/comm" 2>/dev/null)" = "$1" ]; }

[ "$(id -u)" -eq 0 ] || { say "needs root"; exit 1; }
mkdir -p "$dir/state" "$dir/spool" "$dir/log"

if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null || ! command -v sbatch >/dev/null || ! command -v munged >/dev/null; then
    say "installing slurmctld slurmd slurm-client munge"
    # The packages' maintainer scripts would start the daemons with the default config.
    blocker=/usr/sbin/policy-rc.d; ours=
    if [ ! -e $blocker ]; then printf '#!/bin/sh\nexit 101\n' > $blocker; chmod 755 $blocker; ours=1; fi
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends slurmctld slurmd slurm-client munge \
        > "$dir/log/apt.log" 2>&1 || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
        --no-install-recommends slurmctld slurmd slurm-client munge > "$dir/log/apt.log" 2>&1; } || { [ -z "$ours" ] || rm -f $blocker; tail "$dir/log/apt.log" >&2; exit 1; }
    [ -z "$ours" ] || rm -f $blocker
fi

if ! munge -n 2>/dev/null | unmunge >/dev/null 2>&1; then
    [ -s /etc/munge/munge.key ] || mungekey --create --keyfile=/etc/munge/munge.key --force
    chown munge:munge /etc/munge/munge.key && chmod 600 /etc/munge/munge.key
    install -d -o munge -g munge -m 755 /run/munge
    install -d -o munge -g munge -m 700 /var/log/munge
    install -d -o munge -g munge -m 711 /var/lib/munge
    runuser -u munge -- /usr/sbin/munged
    for _ in $(seq 50); do munge -n 2>/dev/null | unmunge >/dev/null 2>&1 && break; sleep 0.1; done
    cp /run/munge/munged.pid "$dir/munged.pid"
fi

if ! { running slurmctld && running slurmd; }; then
    mkdir -p /etc/slurm
    # ClusterName is required; MailProg silences a config error; linuxproc/none: no cgroups here.
    cat > "$conf" <<CONF
# written by sweepbench tests/cluster/slurm-up.sh
ClusterName=sweepbench-ci
SlurmctldHost=$node(127.0.0.1)
AuthType=auth/munge
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
MailProg=/bin/true
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MinJobAge=300
$(slurmd -C | head -1) NodeAddr=127.0.0.1
PartitionName=ci Nodes=$node Default=YES MaxTime=INFINITE State=UP
CONF
    for d in slurmd slurmctld; do running $d && kill "$(cat "$dir/$d.pid")" && sleep 1; rm -f "$dir/$d.pid"; done
    slurmctld
    slurmd
fi

for _ in $(seq 120); do
    case "$(sinfo -h -N -n "$node" -o %T 2>/dev/null | head -1)" in
        idle|mixed|allocated|completing) say "node $node ready"; exit 0 ;;
        down*|drain*) scontrol update NodeName="$node" State=RESUME 2>/dev/null || true ;;
    esac
    sleep 0.5
done
say "node not ready after 60 s; see $dir/log"; tail -5 "$dir/log/slurmctld.log" "$dir/log/slurmd.log" >&2 || true
exit 1
