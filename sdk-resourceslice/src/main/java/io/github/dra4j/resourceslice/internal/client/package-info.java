/**
 * ResourceSlice API access for the controller: a version-negotiating client (v1, v1beta2,
 * v1beta1) and informer that convert to the v1 model at the edge.
 */
package io.github.dra4j.resourceslice.internal.client;
