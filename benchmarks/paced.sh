#!/usr/bin/env bash
# The paced caller benchmark (issue 14): kube-events (io.github.kubeevents.benchmarks.PacedCaller) and client-go
# (benchmarks/client-go/cmd/paced) run alternately, each from a cold process, N rounds, then a table of the
# medians over the rounds (and every round's value) per rate, sink and implementation.
#
#   benchmarks/paced.sh [rounds]           # default 3 rounds, 20,000/s and 1,000/s, instant and stuck sinks
#
# Environment:
#   RATES="20000 1000"  SINKS="instant stuck"  WARMUP=5  DURATION=20  OBJECTS=200
#   KE="label=jar[,arg...] ..."   kube-events builds to compare; args starting with -D or -X go to the JVM, e.g.
#       KE="old=/tmp/old.jar new=/tmp/new.jar,--incoming-capacity,10000 tuned=/tmp/new.jar,-Dsome.property=1"
#     (default: kube-events=benchmarks/target/benchmarks.jar; build it first with
#      ./mvnw -B -ntp -q -pl benchmarks -am package -DskipTests)
#   CLIENT_GO=1         0 leaves client-go out
#   JAVA_OPTS="-Xms512m -Xmx512m"
#   OUT=dir             where each run's output goes (default a new temporary directory)
#
# The order of the implementations rotates from round to round, so none always runs first. Each RESULT line
# carries the one-minute load average at its end; the machine is shared, so read the table with it.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
rounds="${1:-3}"
rates="${RATES:-20000 1000}"
sinks="${SINKS:-instant stuck}"
warmup="${WARMUP:-5}"
duration="${DURATION:-20}"
objects="${OBJECTS:-200}"
java_opts="${JAVA_OPTS:--Xms512m -Xmx512m}"
out="${OUT:-$(mktemp -d -t paced.XXXXXX)}"
mkdir -p "$out"
read -r -a variants <<< "${KE:-kube-events=$here/target/benchmarks.jar}"

go_bin="$out/paced-client-go"
if [[ "${CLIENT_GO:-1}" == 1 ]]; then
  (cd "$here/client-go" && go build -o "$go_bin" ./cmd/paced)
  variants+=("client-go=go")
fi

run() { # variant rate sink
  local label="${1%%=*}" spec="${1#*=}" rate="$2" sink="$3"
  local log="$out/$label-$rate-$sink-$round.log"
  if [[ "$spec" == go ]]; then
    "$go_bin" -label "$label" -rate "$rate" -sink "$sink" -warmup "$warmup" -duration "$duration" \
      -objects "$objects" > "$log" 2>&1
  else
    IFS=, read -r -a parts <<< "$spec"
    local jvm=() args=() part
    for part in "${parts[@]:1}"; do
      if [[ "$part" == -D* || "$part" == -X* ]]; then jvm+=("$part"); else args+=("$part"); fi
    done
    # shellcheck disable=SC2086
    java $java_opts "${jvm[@]}" -cp "${parts[0]}" io.github.kubeevents.benchmarks.PacedCaller --label "$label" \
      --rate "$rate" --sink "$sink" --warmup "$warmup" --duration "$duration" --objects "$objects" \
      "${args[@]}" > "$log" 2>&1
  fi
  grep '^RESULT ' "$log" | sed "s/^RESULT /RESULT round=$round /" >> "$out/results.txt" \
    || echo "no RESULT in $log" >&2
  grep -v '^RESULT ' "$log" >&2 || true
}

echo "runs: $rounds round(s) x rates [$rates] x sinks [$sinks] x ${#variants[@]} implementation(s); logs in $out" >&2
for ((round = 1; round <= rounds; round++)); do
  for rate in $rates; do
    for sink in $sinks; do
      n=${#variants[@]}
      for ((k = 0; k < n; k++)); do
        run "${variants[$(((k + round - 1) % n))]}" "$rate" "$sink"
      done
    done
  done
done

python3 - "$out/results.txt" <<'EOF'
import statistics, sys
rows = []
for line in open(sys.argv[1]):
    fields = dict(f.split("=", 1) for f in line.split()[1:])
    rows.append(fields)
cols = [("p50", "p50 ns"), ("p99", "p99 ns"), ("p999", "p99.9 ns"), ("p9999", "p99.99 ns"),
        ("over10us", "calls >10us"), ("drop_incoming", "drops in"), ("drop_subscriber", "drops sub"),
        ("drop_incoming_warmup", "of which warm-up in"), ("drop_subscriber_warmup", "warm-up sub"),
        ("late_calls", "late calls"), ("cpu_s", "CPU s"), ("load", "load")]
groups = {}
for r in rows:
    groups.setdefault((int(r["rate"]), r["sink"]), {}).setdefault(r["impl"], []).append(r)
for (rate, sink) in sorted(groups, key=lambda k: (-k[0], k[1])):
    print(f"\n### {rate}/s, {sink} sink (median of rounds; every round in brackets)\n")
    print("| impl | " + " | ".join(c[1] for c in cols) + " |")
    print("|---" * (len(cols) + 1) + "|")
    for impl, runs in groups[(rate, sink)].items():
        cells = []
        for key, _ in cols:
            values = [r.get(key, "-") for r in runs]
            try:
                nums = [float(v) for v in values]
                med = statistics.median(nums)
                fmt = (lambda x: f"{x:.1f}") if key in ("load", "cpu_s") else (lambda x: f"{x:.0f}")
                cells.append(f"{fmt(med)} [{' '.join(fmt(x) for x in nums)}]")
            except ValueError:
                cells.append(" ".join(values))
        print(f"| {impl} | " + " | ".join(cells) + " |")
EOF
