/** Rules of object metadata and of the core API that resource.k8s.io reuses. Internal. */
package io.github.dra4j.resourceapi.internal.meta;
