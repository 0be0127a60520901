#!/usr/bin/env bash
# Proves the build reproducible: builds the working tree twice, in two different directories, with a different
# time zone, umask and locale, and compares the sha256 of every jar (main, sources, javadoc, tests) and SBOM.
# Prints both checksum lists and exits 1 on any difference in a published module.
#
#   scripts/reproducible-build.sh [maven args]
#
# Online: the CycloneDX plugin skips offline (the jars alone would then be compared).
# The timestamps in the archives come from project.build.outputTimestamp (root pom). Each build has its own
# temporary local repository reading ~/.m2/repository as a read-only tail, so nothing is installed there.
# The release profile runs (for the sources and javadoc jars and the SBOMs), without signing.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
tail_repo="${MAVEN_REPO_TAIL:-$HOME/.m2/repository}"
work="$(mktemp -d "${TMPDIR:-/tmp}/kube-events-repro.XXXXXX")"
# KEEP_WORK=1 keeps both trees and their target/ directories for a look at a difference
if [ "${KEEP_WORK:-}" = 1 ]; then echo "== work directory: $work (kept)"; else trap 'rm -rf "$work"' EXIT; fi

build() { # label, then env assignments for the build
  local label="$1"; shift
  local src="$work/$label/src"
  mkdir -p "$src"
  # the working tree as it is (tracked and untracked files, not ignored ones: no target/)
  git ls-files -z --cached --others --exclude-standard \
    | tar --null --ignore-failed-read -T - -cf - 2>/dev/null | tar -xf - -C "$src"
  echo "== build $label in $src ($*)"
  (cd "$src" && env "$@" bash -c 'umask "$UMASK_VALUE"; exec "$@"' _ \
    ./mvnw -B -ntp -q "${MAVEN_ARGS_EXTRA[@]}" -P release -Dgpg.skip -DskipTests \
      -Dmaven.repo.local="$work/$label/m2" -Dmaven.repo.local.tail="$tail_repo" package)
  (cd "$src" && find . -maxdepth 3 -path '*/target/*' -type f \( -name '*.jar' -o -name 'bom.json' \) \
    -exec sha256sum {} + | sed 's|  \./|  |' | sort -k2) > "$work/$label.sha256"
}

MAVEN_ARGS_EXTRA=("$@")
build a TZ=UTC UMASK_VALUE=0022 LC_ALL=C.UTF-8
build b TZ=Pacific/Kiritimati UMASK_VALUE=0002 LC_ALL=C

echo "== build a: sha256"
cat "$work/a.sha256"
echo "== build b: sha256"
cat "$work/b.sha256"
if [ ! -s "$work/a.sha256" ]; then
  echo "no jar was built" >&2
  exit 1
fi
# A difference in a module that is not published (maven.deploy.skip) is reported but does not fail: Spring Boot's
# repackaged sample-app jar carries time-zone-dependent timestamps on its directory entries (spring-boot#34424).
failed=0
while read -r file; do
  module="${file%%/*}"
  if [ -f "$root/$module/pom.xml" ] && grep -q '<maven.deploy.skip>true</maven.deploy.skip>' "$root/$module/pom.xml"; then
    echo "== differs, not published (ignored): $file"
  else
    echo "== DIFFERS: $file" >&2
    failed=1
  fi
done < <(diff <(cat "$work/a.sha256") <(cat "$work/b.sha256") | sed -n 's/^[<>] [0-9a-f]*  //p' | sort -u)
if [ "$failed" = 0 ]; then
  published=$(while read -r _ file; do module="${file%%/*}"
    grep -qs '<maven.deploy.skip>true</maven.deploy.skip>' "$root/$module/pom.xml" || echo "$file"; done < "$work/a.sha256" | wc -l)
  echo "== reproducible: all $published files of the published modules are byte-identical in both builds"
else
  echo "== NOT reproducible: the published files above differ between the two builds" >&2
  exit 1
fi
