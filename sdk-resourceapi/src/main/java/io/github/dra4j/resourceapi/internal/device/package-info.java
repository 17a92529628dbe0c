/**
 * What several resource.k8s.io kinds share: field rules (driver, pool, device and request names,
 * qualified names, UIDs, opaque JSON, taints, tolerations, binding conditions) and the printing
 * of their shared structures in the server's messages. Internal.
 */
package io.github.dra4j.resourceapi.internal.device;
