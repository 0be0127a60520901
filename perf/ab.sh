#!/usr/bin/env bash
# Runs benchmark variants round-robin (the order rotates every pass), N passes, against the control plane
# started by perf/controlplane.sh, logging every output line prefixed with the variant's label and the
# machine's load average when the run started.
#
#   perf/ab.sh OUT.log PASSES 'label1::command1' 'label2::command2' ...
#
# Commands may use $SERVER $TOKEN $CA_FILE $APISERVER_PID $ETCD_PID (from /tmp/kubeevents-perf/env) and
# $JAR (benchmarks/target/benchmarks.jar) / $GOBIN (the client-go harness binary), e.g.
#   perf/ab.sh perf/results/base.log 3 \
#     'client-go::$GOBIN --rounds 3' \
#     'kube-events::java -cp $JAR io.github.kubeevents.benchmarks.EndToEndWrite --rounds 3'
# Common flags (--server/--token/--ca-file/--cpu-pids) are appended to every command.
set -euo pipefail
out="$1"; passes="$2"; shift 2
here="$(cd "$(dirname "$0")" && pwd)"
. "${CONTROLPLANE_DIR:-/tmp/kubeevents-perf}/env"
export SERVER TOKEN CA_FILE APISERVER_PID ETCD_PID
export JAR="${JAR:-$here/../benchmarks/target/benchmarks.jar}"
export GOBIN="${GOBIN:-$here/../benchmarks/client-go/clientgo-e2e}"
common="--server $SERVER --token $TOKEN --ca-file $CA_FILE --cpu-pids $APISERVER_PID,$ETCD_PID"
variants=("$@")
n=${#variants[@]}
mkdir -p "$(dirname "$out")"
echo "# $(date -u +%FT%TZ) passes=$passes variants=$n $(nproc) cores" | tee -a "$out"
for ((p = 0; p < passes; p++)); do
  for ((k = 0; k < n; k++)); do
    v="${variants[$(((k + p) % n))]}"
    label="${v%%::*}"; cmd="${v#*::}"
    load="$(cut -d' ' -f1-3 /proc/loadavg)"
    echo "# pass=$((p + 1)) label=$label load=$load cmd=$cmd" >> "$out"
    eval "$cmd $common" 2>&1 | sed -u "s|^|label=$label pass=$((p + 1)) load1=${load%% *} |" | tee -a "$out" | grep -v '^#' | grep -E 'round=' | cut -c1-250 || true
  done
done
