#!/usr/bin/env bash
# A local etcd + kube-apiserver for the end-to-end write benchmarks, modelled on
# event-recorder-core/src/test/java/io/github/kubeevents/envtest/ControlPlane.java (loopback ports, static
# token file, the apiserver's self-signed serving certificate, RBAC, ServiceAccount admission off).
#
#   perf/controlplane.sh start [DIR]   # start both, wait until ready, write DIR/env (default /tmp/kubeevents-perf)
#   perf/controlplane.sh stop  [DIR]   # kill both (by the pids in DIR), delete DIR
#   . DIR/env                          # SERVER, TOKEN, CA_FILE, APISERVER_PID, ETCD_PID
#
# Extra kube-apiserver flags: APISERVER_ARGS="--max-requests-inflight=10" perf/controlplane.sh start
set -euo pipefail

cmd="${1:-}"
dir="${2:-/tmp/kubeevents-perf}"
here="$(cd "$(dirname "$0")" && pwd)"

free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'
}

stop() {
  for f in "$dir/apiserver.pid" "$dir/etcd.pid"; do
    if [ -f "$f" ]; then
      pid="$(cat "$f")"
      if kill -0 "$pid" 2>/dev/null; then
        kill "$pid" 2>/dev/null || true
        for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        kill -9 "$pid" 2>/dev/null || true
      fi
    fi
  done
  rm -rf "$dir"
}

case "$cmd" in
  start)
    assets="${KUBEBUILDER_ASSETS:-$("$here/../scripts/envtest-assets.sh")}"
    [ -e "$dir" ] && { echo "$dir exists: stop it first" >&2; exit 1; }
    mkdir -p "$dir/etcd-data" "$dir/certs"
    etcd_port=$(free_port); peer_port=$(free_port); api_port=$(free_port)
    token="$(openssl rand -hex 24)"
    echo "$token,admin,uid-admin,\"system:masters\"" > "$dir/tokens.csv"
    openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$dir/sa.key" 2>/dev/null
    openssl pkey -in "$dir/sa.key" -pubout -out "$dir/sa.pub"
    "$assets/etcd" --name=perf --data-dir="$dir/etcd-data" \
      --listen-client-urls="http://127.0.0.1:$etcd_port" --advertise-client-urls="http://127.0.0.1:$etcd_port" \
      --listen-peer-urls="http://127.0.0.1:$peer_port" --initial-advertise-peer-urls="http://127.0.0.1:$peer_port" \
      --initial-cluster="perf=http://127.0.0.1:$peer_port" --initial-cluster-state=new \
      --unsafe-no-fsync=true --log-level=warn >"$dir/etcd.log" 2>&1 </dev/null &
    echo $! > "$dir/etcd.pid"
    for _ in $(seq 300); do curl -sf "http://127.0.0.1:$etcd_port/health" | grep -q '"true"' && break; sleep 0.1; done
    # shellcheck disable=SC2086
    "$assets/kube-apiserver" --bind-address=127.0.0.1 --advertise-address=127.0.0.1 --secure-port="$api_port" \
      --etcd-servers="http://127.0.0.1:$etcd_port" --cert-dir="$dir/certs" --authorization-mode=RBAC \
      --token-auth-file="$dir/tokens.csv" --service-account-issuer=https://kubernetes.default.svc.cluster.local \
      --service-account-key-file="$dir/sa.pub" --service-account-signing-key-file="$dir/sa.key" \
      --service-cluster-ip-range=10.0.0.0/24 --disable-admission-plugins=ServiceAccount --allow-privileged=true \
      --endpoint-reconciler-type=none --event-ttl=1h ${APISERVER_ARGS:-} >"$dir/kube-apiserver.log" 2>&1 </dev/null &
    echo $! > "$dir/apiserver.pid"
    for _ in $(seq 900); do
      if grep -q 'END CERTIFICATE' "$dir/certs/apiserver.crt" 2>/dev/null \
        && [ "$(curl -s -o /dev/null -w '%{http_code}' --cacert "$dir/certs/apiserver.crt" \
                -H "Authorization: Bearer $token" "https://127.0.0.1:$api_port/readyz")" = 200 ] \
        && [ "$(curl -s -o /dev/null -w '%{http_code}' --cacert "$dir/certs/apiserver.crt" \
                -H "Authorization: Bearer $token" "https://127.0.0.1:$api_port/api/v1/namespaces/default")" = 200 ]; then
        break
      fi
      kill -0 "$(cat "$dir/apiserver.pid")" || { tail -40 "$dir/kube-apiserver.log" >&2; exit 1; }
      sleep 0.1
    done
    cat > "$dir/env" <<EOF
SERVER=https://127.0.0.1:$api_port
TOKEN=$token
CA_FILE=$dir/certs/apiserver.crt
APISERVER_PID=$(cat "$dir/apiserver.pid")
ETCD_PID=$(cat "$dir/etcd.pid")
EOF
    cat "$dir/env"
    ;;
  stop) stop ;;
  *) sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
esac
