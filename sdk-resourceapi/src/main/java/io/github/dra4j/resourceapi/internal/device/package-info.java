/** Field rules shared by several resource.k8s.io kinds. Internal. */
package io.github.dra4j.resourceapi.internal.device;
