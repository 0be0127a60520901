#!/usr/bin/env bash
# Builds (once per machine) the envtest control-plane binaries kube-apiserver and etcd with the Go
# toolchain from the Go module proxy, and prints the directory that holds them (KUBEBUILDER_ASSETS).
#
#   scripts/envtest-assets.sh            # build if missing, print the assets directory on stdout
#   scripts/envtest-assets.sh --cached-only  # print the directory only if already built, else exit 3
#   KUBEBUILDER_ASSETS=/dir scripts/...  # use that directory as is (must hold both binaries)
#
# Cache: ${XDG_CACHE_HOME:-~/.cache}/kube-events/envtest/<k8s>-etcd<etcd>/  (idempotent; a finished
# build is marked by a .complete file, so an interrupted build is redone, never half-used).
# The event-recorder-test jar carries this file; without this repository, run it from there:
#   java -cp event-recorder-test-<version>.jar io.github.kubeevents.test.cluster.EnvtestAssets [--cached-only]
set -euo pipefail

K8S_VERSION="${KUBE_EVENTS_K8S_VERSION:-v1.35.4}"
ETCD_VERSION="${KUBE_EVENTS_ETCD_VERSION:-v3.6.16}"
# Bump when the build recipe changes: a cache marked with another recipe is rebuilt.
RECIPE=2

log() { echo "envtest-assets: $*" >&2; }

# --- Functions shared with scripts/reader-assets.sh, which sources this file for them (the file stays
# self-contained: the event-recorder-test jar carries it alone). They use the caller's log, cache, is_cached.

# parse_args ARG...: no argument, --cached-only (sets cached_only=true) or --help (prints the header comment)
parse_args() {
  cached_only=false
  case "${1:-}" in
    "") ;;
    --cached-only) cached_only=true ;;
    -h|--help) sed -n '1d; /^#/!q; p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) log "unknown argument '$1' (expected --cached-only or --help)"; exit 2 ;;
  esac
}

# use_given_dir VAR BINARY...: the directory in the environment variable VAR must hold each BINARY; prints it, exits
use_given_dir() {
  local var="$1" dir="${!1}" b
  shift
  for b; do
    [ -x "$dir/$b" ] || { log "$var=$dir has no executable $b"; exit 1; }
  done
  echo "$dir"
  exit 0
}

# print_cached: prints $cache and exits when is_cached; else with --cached-only exits 3
print_cached() {
  if is_cached; then
    log "cached assets in $cache"
    echo "$cache"
    exit 0
  fi
  if $cached_only; then
    log "no cached assets in $cache (run $self to build them)"
    exit 3
  fi
}

# Without Go on PATH, fetch a toolchain the way Go's own GOTOOLCHAIN switching does: the module
# golang.org/toolchain from the module proxy (reachable wherever the module downloads below are).
GO_TOOLCHAIN_VERSION="${KUBE_EVENTS_GO_VERSION:-1.25.5}"
fetch_go() {
  local arch os zip dir proxy
  case "$(uname -m)" in x86_64|amd64) arch=amd64 ;; aarch64|arm64) arch=arm64 ;; *) return 1 ;; esac
  os="$(uname -s | tr '[:upper:]' '[:lower:]')"
  dir="${XDG_CACHE_HOME:-$HOME/.cache}/kube-events/go$GO_TOOLCHAIN_VERSION.$os-$arch"
  if [ ! -x "$dir/bin/go" ]; then
    proxy="${GOPROXY:-https://proxy.golang.org}"; proxy="${proxy%%,*}"
    case "$proxy" in http*) ;; *) proxy=https://proxy.golang.org ;; esac
    log "no 'go' on PATH: fetching go$GO_TOOLCHAIN_VERSION from $proxy"
    zip="$(mktemp)"
    curl -fsSL --retry 3 -o "$zip" \
      "$proxy/golang.org/toolchain/@v/v0.0.1-go$GO_TOOLCHAIN_VERSION.$os-$arch.zip" || { rm -f "$zip"; return 1; }
    rm -rf "$dir.tmp" && mkdir -p "$dir.tmp"
    (cd "$dir.tmp" && { unzip -q "$zip" 2>/dev/null || python3 -m zipfile -e "$zip" . ; }) || { rm -f "$zip"; return 1; }
    rm -f "$zip"
    # zip entries keep no mode bits with python's extractor
    chmod -R u+x "$dir.tmp"/golang.org/toolchain@*/bin "$dir.tmp"/golang.org/toolchain@*/pkg/tool
    rm -rf "$dir" && mv "$dir.tmp"/golang.org/toolchain@* "$dir" && rm -rf "$dir.tmp"
  fi
  export PATH="$dir/bin:$PATH" GOTOOLCHAIN=local
}

# start_build: takes the build lock of $cache (else prints the cache a concurrent run has built meanwhile, exits),
# then prepares the build: $work (a temporary directory, removed on exit), start (for the build time), Go settings
start_build() {
  mkdir -p "$cache"
  # one build at a time (parallel Maven modules / test JVMs); a waiter then finds the finished cache
  if command -v flock >/dev/null 2>&1; then
    exec 9>"$cache.lock"
    flock 9
    if is_cached; then
      log "cached assets in $cache (built by a concurrent run)"
      echo "$cache"
      exit 0
    fi
  fi
  start=$(date +%s)
  rm -f "$cache/.complete"
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  export GOFLAGS="${GOFLAGS:-} -mod=mod"
  export CGO_ENABLED=0
}

# k8s.io/kubernetes replaces its k8s.io/* staging modules with ./staging paths, which Go ignores
# when the module is a dependency. The wrapper module requires k8s.io/kubernetes and replaces each
# staging module with its published v0.x release of the same minor/patch.
staging_version="v0.${K8S_VERSION#v1.}"
# k8s_wrapper_module NAME PACKAGE: the wrapper module NAME, in the current directory, for building PACKAGE
k8s_wrapper_module() {
  local gomod
  gomod=$(go mod download -json "k8s.io/kubernetes@$K8S_VERSION" | sed -n 's/^[[:space:]]*"GoMod": "\(.*\)",$/\1/p')
  [ -f "$gomod" ] || { log "could not download k8s.io/kubernetes@$K8S_VERSION"; exit 1; }
  {
    echo "module $1"
    echo
    echo "go $(sed -n 's/^go \([0-9.]*\).*/\1/p' "$gomod")"
    echo
    echo "require k8s.io/kubernetes $K8S_VERSION"
    echo
    grep -E '^[[:space:]]*k8s\.io/[a-z0-9-]+ => \./staging/' "$gomod" \
      | awk -v v="$staging_version" '{print "replace " $1 " => " $1 " " v}'
  } > go.mod
  printf '//go:build tools\n\npackage tools\n\nimport _ "%s"\n' "$2" > tools.go
  go mod tidy >&2
}

# k8s_build PACKAGE OUTPUT [VERSION_PACKAGE...]: builds PACKAGE of the wrapper module to OUTPUT, with the version
# stamped into each VERSION_PACKAGE (default k8s.io/component-base/version) the way the Kubernetes release
# build does (else /version says v0.0.0-master)
k8s_build() {
  local pkg="$1" out="$2" k8s_minor k8s_major vpkg ldflags="-s -w"
  shift 2
  [ $# -gt 0 ] || set -- k8s.io/component-base/version
  k8s_minor="${K8S_VERSION#v*.}"; k8s_minor="${k8s_minor%%.*}"
  k8s_major="${K8S_VERSION#v}"; k8s_major="${k8s_major%%.*}"
  for vpkg; do
    ldflags+=" -X $vpkg.gitVersion=$K8S_VERSION -X $vpkg.gitMajor=$k8s_major -X $vpkg.gitMinor=$k8s_minor"
    ldflags+=" -X $vpkg.gitTreeState=clean -X $vpkg.buildDate=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
  done
  go build -trimpath -ldflags "$ldflags" -o "$out.tmp" "$pkg" >&2
  mv -f "$out.tmp" "$out"
}

# sourced (by scripts/reader-assets.sh): the functions only
if (return 0 2>/dev/null); then return 0; fi
# --- end of the shared functions ---------------------------------------------------------------

# how a user runs this recipe again: this file, or the java command of the jar that packages it (set by it)
self="${KUBE_EVENTS_RECIPE_COMMAND:-$0}"
parse_args "$@"

if [ -n "${KUBEBUILDER_ASSETS:-}" ]; then
  use_given_dir KUBEBUILDER_ASSETS kube-apiserver etcd
fi

cache="${XDG_CACHE_HOME:-$HOME/.cache}/kube-events/envtest/${K8S_VERSION#v}-etcd${ETCD_VERSION#v}"
is_cached() {
  [ -f "$cache/.complete" ] && [ "$(cat "$cache/.complete")" = "recipe $RECIPE" ] \
    && [ -x "$cache/kube-apiserver" ] && [ -x "$cache/etcd" ]
}
print_cached

if ! command -v go >/dev/null 2>&1 && ! fetch_go; then
  log "the Go toolchain ('go') is not on PATH and could not be fetched. Install Go >= 1.25 (it builds"
  log "kube-apiserver $K8S_VERSION and etcd $ETCD_VERSION from the Go module proxy), or set KUBEBUILDER_ASSETS"
  log "to a directory holding both binaries."
  exit 1
fi

start_build

# --- kube-apiserver -------------------------------------------------------------------------
log "building kube-apiserver $K8S_VERSION (staging modules at $staging_version)"
mkdir -p "$work/apiserver"
cd "$work/apiserver"
k8s_wrapper_module kubeevents.local/envtest-apiserver k8s.io/kubernetes/cmd/kube-apiserver
k8s_build k8s.io/kubernetes/cmd/kube-apiserver "$cache/kube-apiserver"

# --- etcd -----------------------------------------------------------------------------------
log "building etcd $ETCD_VERSION"
mkdir -p "$work/etcd"
cd "$work/etcd"
cat > go.mod <<GOMOD
module kubeevents.local/envtest-etcd

go 1.24

require go.etcd.io/etcd/server/v3 $ETCD_VERSION
GOMOD
cat > tools.go <<'GO'
//go:build tools

package tools

import _ "go.etcd.io/etcd/server/v3"
GO
go mod tidy >&2
go build -trimpath -ldflags "-s -w" -o "$cache/etcd.tmp" go.etcd.io/etcd/server/v3 >&2
mv -f "$cache/etcd.tmp" "$cache/etcd"

echo "recipe $RECIPE" > "$cache/.complete"
log "built in $(( $(date +%s) - start )) s: $cache"
echo "$cache"
