#!/usr/bin/env bash
# The release profile end to end, publishing nothing: sources and javadoc jars (doclint), a CycloneDX SBOM per
# module, GPG signatures made with a throwaway key, deployed into a file repository instead of Maven Central.
#
#   scripts/release-dry-run.sh [maven args]
#
# Online only: Maven refuses to deploy offline, and the CycloneDX plugin skips offline.
# - The key is generated on the fly, without a passphrase, in a temporary GNUPGHOME that is deleted at the end;
#   no key, no credential and nothing from ~/.gnupg is used.
# - Maven writes into a temporary local repository that reads ~/.m2/repository as a read-only tail
#   (maven.repo.local.tail, Maven 3.9), so the SNAPSHOTs in ~/.m2 are left as they are.
# - deploy:deploy is called as a goal after verify: the release profile's central-publishing-maven-plugin
#   replaces the deploy phase with its upload to the Central Portal, which this script never runs.
# Result: target/release-repo (a Maven repository layout), listed with sizes, every signature verified, and the
# number of components of each SBOM.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
repo="$root/target/release-repo"
tail_repo="${MAVEN_REPO_TAIL:-$HOME/.m2/repository}"

work="$(mktemp -d "${TMPDIR:-/tmp}/kube-events-release.XXXXXX")"
export GNUPGHOME="$work/gnupg"
cleanup() {
  gpgconf --kill all >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
mkdir -m 700 "$GNUPGHOME"

echo "== throwaway signing key in $GNUPGHOME"
gpg --batch --quiet --pinentry-mode loopback --passphrase '' \
  --quick-generate-key "kube-events release dry run <release-dry-run@kube-events.invalid>" rsa3072 sign 1d
key="$(gpg --batch --list-secret-keys --with-colons | awk -F: '/^fpr:/ { print $10; exit }')"
echo "   key $key"

rm -rf "$repo"
echo "== ./mvnw -P release ... verify deploy:deploy -> $repo"
./mvnw -B -ntp "$@" -P release -DskipTests \
  -Dgpg.keyname="$key" \
  -Dmaven.repo.local="$work/m2" -Dmaven.repo.local.tail="$tail_repo" \
  verify deploy:deploy -DaltDeploymentRepository="local::file:$repo"

echo "== artifacts (bytes, path under $repo; checksum files and maven-metadata.xml left out)"
(cd "$repo" && find . -type f ! -name '*.md5' ! -name '*.sha1' ! -name '*.sha256' ! -name '*.sha512' \
  ! -name 'maven-metadata.xml*' -printf '%10s  %P\n' | sort -k2)

echo "== signatures"
count=0
while IFS= read -r -d '' asc; do
  gpg --batch --quiet --verify "$asc" "${asc%.asc}" 2>/dev/null || { echo "BAD signature: $asc" >&2; exit 1; }
  count=$((count + 1))
done < <(find "$repo" -name '*.asc' -print0)
unsigned=$(find "$repo" -type f \( -name '*.jar' -o -name '*.pom' -o -name '*.json' \) | while read -r f; do
  [ -f "$f.asc" ] || echo "$f"; done)
if [ -n "$unsigned" ]; then
  echo "unsigned artifacts:" >&2
  echo "$unsigned" >&2
  exit 1
fi
echo "   $count signatures, all good; every jar, pom and SBOM is signed"

echo "== SBOM components (CycloneDX, runtime and compile scope)"
find "$repo" -name '*-cyclonedx.json' | sort | while read -r sbom; do
  python3 - "$sbom" <<'EOF'
import json, re, sys
path = sys.argv[1]
bom = json.load(open(path))
name = re.sub(r'-\d.*', '', path.rsplit('/', 1)[1])
print(f"   {len(bom.get('components', [])):4d}  {name} (specVersion {bom.get('specVersion')})")
EOF
done
