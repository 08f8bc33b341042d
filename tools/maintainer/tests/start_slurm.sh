#!/usr/bin/env bash
# Starts a single-node Slurm on this machine, as root (CI: .ci/run), for the class-grading test:
# munge with a fresh key, slurmctld and slurmd with one node (this machine, all its CPUs) in two
# partitions: `cpu` (the default) and `gpu`, a stand-in with no GPU (the node declares one
# generic resource `gpu` without a device, so that a GPU job's --gres=gpu:1 is accepted), so
# that a class graded with --gpu shows which phase runs where (its GPU phase finds no GPU there). Fails, saying why, when
# Slurm does not come up.
set -euo pipefail
[ "$(id -u)" -eq 0 ] || { echo "start_slurm.sh: must run as root"; exit 1; }
for tool in munged slurmctld slurmd sinfo sbatch; do
  command -v "$tool" >/dev/null || { echo "start_slurm.sh: $tool not found (apt-get install slurm-wlm munge)"; exit 1; }
done
host=$(hostname -s)
cpus=$(nproc)
memory=$(( $(awk '/MemTotal/ {print $2}' /proc/meminfo) / 1024 * 9 / 10 ))

# munge: a key of 1024 random bytes, owned by munge, mode 400.
mkdir -p /etc/munge /var/run/munge /var/lib/munge /var/log/munge
dd if=/dev/urandom of=/etc/munge/munge.key bs=1024 count=1 status=none
chown -R munge:munge /etc/munge /var/run/munge /var/lib/munge /var/log/munge
chmod 400 /etc/munge/munge.key
pkill -x munged 2>/dev/null || true
su -s /bin/sh munge -c munged || runuser -u munge -- munged

mkdir -p /etc/slurm /var/spool/slurmctld /var/spool/slurmd /var/log/slurm
cat >/etc/slurm/slurm.conf <<CONF
ClusterName=workbook-ci
SlurmctldHost=$host
SlurmUser=root
AuthType=auth/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
# Dependent jobs start within a second or two of what they wait for (the defaults wait up to
# 30-60 s: CI runs four job chains).
SchedulerParameters=sched_interval=1,bf_interval=1
StateSaveLocation=/var/spool/slurmctld
SlurmdSpoolDir=/var/spool/slurmd
SlurmctldLogFile=/var/log/slurm/slurmctld.log
SlurmdLogFile=/var/log/slurm/slurmd.log
ReturnToService=2
GresTypes=gpu
NodeName=$host CPUs=$cpus RealMemory=$memory Gres=gpu:1 State=UNKNOWN
PartitionName=cpu Nodes=$host Default=YES MaxTime=INFINITE State=UP
PartitionName=gpu Nodes=$host Default=NO MaxTime=INFINITE State=UP
CONF
echo "NodeName=$host Name=gpu Count=1 File=/dev/null" >/etc/slurm/gres.conf
pkill -x slurmd 2>/dev/null || true
pkill -x slurmctld 2>/dev/null || true
sleep 1
rm -rf /var/spool/slurmctld/* /var/spool/slurmd/*  # no jobs or node states from an earlier start
slurmctld
slurmd
for _ in $(seq 60); do
  if sinfo -h -o '%t' 2>/dev/null | grep -qE '^(idle|mix)'; then
    echo "slurm: node $host up ($cpus CPUs, partitions cpu and gpu)"
    exit 0
  fi
  sleep 1
done
echo "start_slurm.sh: the node did not come up:"
sinfo 2>&1 || true
tail -n 20 /var/log/slurm/slurmctld.log /var/log/slurm/slurmd.log 2>/dev/null || true
exit 1
