/**
 * Kubernetes semantic equality of ResourceSlice content, including the taint-tolerant device
 * comparison the controller uses to decide whether a slice needs an update.
 */
package io.github.dra4j.resourceslice.internal.compare;
