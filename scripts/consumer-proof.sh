#!/usr/bin/env bash
# A clean consumer of the build's published artifacts (issue 27): deploys them into a file repository under
# target/, then builds, tests and starts scripts/consumer (a Spring Boot application that is not a reactor module)
# with an EMPTY local Maven repository, so that everything it uses comes from Maven Central or that file repository,
# through event-recorder-bom. It fails on what a user would hit first: a parent POM that was not deployed, a property
# a published POM cannot resolve, a dependency the starter needs but declares optional or test-scoped, a test-jar
# that leaks into a consumer's dependencies.
#
#   scripts/consumer-proof.sh            (after ./mvnw verify; online: Maven refuses to deploy offline)
#
# - The build deploys with the default profile (no signatures, no SBOM: scripts/release-dry-run.sh proves those)
#   into target/consumer-repo; its local repository is a temporary one that reads ~/.m2/repository as a read-only
#   tail (maven.repo.local.tail), so ~/.m2 gets no SNAPSHOT of ours.
# - The consumer's local repository is a new empty directory, with no tail: Maven Central (through whatever the
#   default settings say) and target/consumer-repo are its only sources.
# - Its test, ConsumerApplicationTests, needs the control plane (KUBEBUILDER_ASSETS, from scripts/envtest-assets.sh
#   if unset) and runs with CI=true, so a missing control plane fails instead of skipping; the script also checks
#   that the test ran and was not skipped.
# - The repackaged jar then starts on its own (java -jar, no test classpath) with kubeevents.sink.mode=log and must
#   log the Event it records.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
repo="$root/target/consumer-repo"
consumer="$root/scripts/consumer"
tail_repo="${MAVEN_REPO_TAIL:-$HOME/.m2/repository}"
export CI=true

# the versions the consumer asks for: this build's version and Spring Boot line
version="$(sed -n '/<artifactId>kube-events-parent<\/artifactId>/{n;s:.*<version>\(.*\)</version>.*:\1:p;q}' pom.xml)"
boot="$(sed -n 's:.*<spring-boot.version>\(.*\)</spring-boot.version>.*:\1:p' pom.xml | head -1)"
if [ -z "$version" ] || [ -z "$boot" ]; then
  echo "== cannot read the project version or spring-boot.version from pom.xml" >&2
  exit 1
fi
if [ -z "${KUBEBUILDER_ASSETS:-}" ]; then
  KUBEBUILDER_ASSETS="$(scripts/envtest-assets.sh)"
  export KUBEBUILDER_ASSETS
fi

work="$(mktemp -d "${TMPDIR:-/tmp}/kube-events-consumer.XXXXXX")"
trap 'rm -rf "$work"' EXIT
mkdir "$work/empty-m2"

start=$(date +%s)
rm -rf "$repo"
echo "== deploy kube-events $version -> $repo"
./mvnw -B -ntp -q -DskipTests -Dkubeevents.it.skip=true \
  -Dmaven.repo.local="$work/build-m2" -Dmaven.repo.local.tail="$tail_repo" \
  deploy -DaltDeploymentRepository="kube-events-build::file:$repo"
(cd "$repo" && find . -name '*.jar' -o -name '*.pom' | grep -v '/maven-metadata' | sed 's:^\./:   :' | sort)
deployed=$(date +%s)
echo "   deployed in $(( deployed - start )) s"

echo "== consumer on Spring Boot $boot, empty local repository $work/empty-m2"
mvn_consumer=("$root/mvnw" -B -ntp -f "$consumer/pom.xml" -Dmaven.repo.local="$work/empty-m2"
  -Dkube-events.version="$version" -Dspring-boot.version="$boot" -Dkube-events.repository="file:$repo")
rm -rf "$consumer/target"
"${mvn_consumer[@]}" verify dependency:list -DoutputFile="$work/dependencies.txt" -DoutputAbsoluteArtifactFilename=false \
  > "$work/consumer-build.log" 2>&1 || { tail -80 "$work/consumer-build.log" >&2; echo "== consumer build failed" >&2; exit 1; }
grep -E 'Tests run:|BUILD' "$work/consumer-build.log" | sed 's/^/   /'
built=$(date +%s)

# the test ran and passed (not skipped for want of a control plane)
report="$consumer/target/surefire-reports/TEST-com.example.consumer.ConsumerApplicationTests.xml"
if ! grep -q 'tests="1"' "$report" || ! grep -q 'skipped="0"' "$report" || ! grep -q 'failures="0"' "$report" \
    || ! grep -q 'errors="0"' "$report"; then
  echo "== ConsumerApplicationTests did not run and pass:" >&2
  head -3 "$report" >&2
  exit 1
fi

# what the consumer resolved: no test-jar, and at run time only core and the starter of ours
sed -n 's/^ *\([^ ]*:[^ ]*\).*/\1/p' "$work/dependencies.txt" | grep ':' | sort > "$work/deps.sorted"
echo "   $(wc -l < "$work/deps.sorted") dependencies resolved; ours:"
grep '^io.github.kubeevents:' "$work/deps.sorted" | sed 's/^/     /'
if grep -E ':test-jar:|:tests:' "$work/deps.sorted"; then
  echo "== a test-jar leaked into the consumer's dependencies (above)" >&2
  exit 1
fi
ours_runtime="$(grep '^io.github.kubeevents:' "$work/deps.sorted" | grep -E ':(compile|runtime)$' | cut -d: -f2 | sort | tr '\n' ' ')"
if [ "$ours_runtime" != "event-recorder-core event-recorder-spring-boot-starter " ]; then
  echo "== the consumer's runtime has of ours: $ours_runtime(expected core and the starter only)" >&2
  exit 1
fi
total="$(cd "$work/empty-m2" && find . -name '*.jar' ! -name '*-SNAPSHOT.jar' | wc -l)"
echo "   the empty local repository now holds $total jars, $(du -sh "$work/empty-m2" | cut -f1), all from Maven Central" \
  "but our $(grep -c '^io.github.kubeevents:' "$work/deps.sorted") (from $repo)"

echo "== java -jar (kubeevents.sink.mode=log)"
jar="$consumer/target/kube-events-consumer-0.0.1.jar"
if ! timeout 120 java -jar "$jar" --kubeevents.sink.mode=log > "$work/run.log" 2>&1; then
  tail -40 "$work/run.log" >&2
  echo "== the consumer application did not start and stop cleanly" >&2
  exit 1
fi
if ! grep -q 'ConsumerStarted' "$work/run.log"; then
  tail -40 "$work/run.log" >&2
  echo "== the consumer application did not log its Event" >&2
  exit 1
fi
grep -m1 'ConsumerStarted' "$work/run.log" | cut -c1-200 | sed 's/^/   /'
end=$(date +%s)
echo "== consumer proof passed in $(( end - start )) s (deploy $(( deployed - start )) s, consumer build and test $(( built - deployed )) s)"
