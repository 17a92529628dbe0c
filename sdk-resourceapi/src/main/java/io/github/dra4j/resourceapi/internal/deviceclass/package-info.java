/** kube-apiserver's validation of DeviceClasses (Kubernetes 1.36). Internal. */
package io.github.dra4j.resourceapi.internal.deviceclass;
