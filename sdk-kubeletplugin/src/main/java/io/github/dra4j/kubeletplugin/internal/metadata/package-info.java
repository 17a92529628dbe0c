/**
 * Device metadata files (KEP-5304, alpha in Kubernetes 1.36): the {@code metadata.json} per
 * prepared claim and request, and the CDI spec that mounts it into containers. Internal: not API.
 */
package io.github.dra4j.kubeletplugin.internal.metadata;
