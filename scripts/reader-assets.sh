#!/usr/bin/env bash
# Builds (once per machine) two real readers of Kubernetes Events with the Go toolchain from the Go module
# proxy, and prints the directory that holds them, for integration tests that check what readers show:
#   kubectl                the kubectl of the envtest kube-apiserver's version (kubectl events, describe)
#   otel-k8sevents-reader  the OpenTelemetry Collector's k8seventsreceiver, each record a JSON line on stdout:
#                          otel-k8sevents-reader --kubeconfig PATH [--namespace NS] [--duration 20s]
#                          (scripts/readers/otel-k8sevents-reader/main.go describes its output)
#
#   scripts/reader-assets.sh               # build if missing, print the readers directory on stdout
#   scripts/reader-assets.sh --cached-only # print the directory only if already built, else exit 3
#   KUBE_EVENTS_READERS=/dir scripts/...   # use that directory as is (must hold both binaries)
#
# Cache: ${XDG_CACHE_HOME:-~/.cache}/kube-events/readers/r<recipe>-kubectl<k8s>-otel<receiver>/
# (idempotent; a finished build is marked by a .complete file, which also names the reader's source, so an
# interrupted build or an edited reader is rebuilt). Kubernetes version (KUBE_EVENTS_K8S_VERSION), Go
# toolchain fallback and the k8s.io/kubernetes build are scripts/envtest-assets.sh's, sourced.
set -euo pipefail

# The one pin of collector-contrib's receiver/k8seventsreceiver: a copy of the reader's go.mod is set to it.
OTEL_RECEIVER_VERSION="${KUBE_EVENTS_OTEL_RECEIVER_VERSION:-v0.111.0}"
OTEL_RECEIVER_MODULE=github.com/open-telemetry/opentelemetry-collector-contrib/receiver/k8seventsreceiver

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=envtest-assets.sh
source "$here/envtest-assets.sh"
# Bump when the build recipe changes: a cache marked with another recipe is rebuilt.
RECIPE=1

log() { echo "reader-assets: $*" >&2; }
self="$0"
parse_args "$@"

if [ -n "${KUBE_EVENTS_READERS:-}" ]; then
  use_given_dir KUBE_EVENTS_READERS kubectl otel-k8sevents-reader
fi

reader_src="$here/readers/otel-k8sevents-reader"
reader_sum=$(cat "$reader_src/main.go" "$reader_src/go.mod" "$reader_src/go.sum" | cksum | cut -d' ' -f1)
cache="${XDG_CACHE_HOME:-$HOME/.cache}/kube-events/readers/r$RECIPE-kubectl${K8S_VERSION#v}-otel${OTEL_RECEIVER_VERSION#v}"
is_cached() {
  [ -f "$cache/.complete" ] && [ "$(cat "$cache/.complete")" = "recipe $RECIPE reader $reader_sum" ] \
    && [ -x "$cache/kubectl" ] && [ -x "$cache/otel-k8sevents-reader" ]
}
print_cached

if ! command -v go >/dev/null 2>&1 && ! fetch_go; then
  log "the Go toolchain ('go') is not on PATH and could not be fetched. Install Go >= 1.25 (it builds kubectl"
  log "$K8S_VERSION and the k8seventsreceiver $OTEL_RECEIVER_VERSION reader), or set KUBE_EVENTS_READERS."
  exit 1
fi

start_build

# --- kubectl: the wrapper module of kube-apiserver's build -------------------------------------
log "building kubectl $K8S_VERSION (staging modules at $staging_version)"
mkdir -p "$work/kubectl"
cd "$work/kubectl"
k8s_wrapper_module kubeevents.local/reader-kubectl k8s.io/kubernetes/cmd/kubectl
# kubectl version reads component-base's version; client-go's goes into the User-Agent
k8s_build k8s.io/kubernetes/cmd/kubectl "$cache/kubectl" k8s.io/component-base/version k8s.io/client-go/pkg/version

# --- otel-k8sevents-reader: our main.go around the receiver -----------------------------------
log "building otel-k8sevents-reader ($OTEL_RECEIVER_MODULE $OTEL_RECEIVER_VERSION)"
cp -R "$reader_src" "$work/reader"
cd "$work/reader"
go mod edit -require="$OTEL_RECEIVER_MODULE@$OTEL_RECEIVER_VERSION"
go mod tidy >&2
go build -trimpath -ldflags "-s -w" -o "$cache/otel-k8sevents-reader.tmp" . >&2
mv -f "$cache/otel-k8sevents-reader.tmp" "$cache/otel-k8sevents-reader"

echo "recipe $RECIPE reader $reader_sum" > "$cache/.complete"
log "built in $(( $(date +%s) - start )) s: $cache"
echo "$cache"
