/**
 * Publishing a DRA driver's devices as ResourceSlices: the driver-side model ({@link
 * io.github.dra4j.resourceslice.DriverResources}, {@link io.github.dra4j.resourceslice.Pool},
 * {@link io.github.dra4j.resourceslice.Slice}) and the {@link
 * io.github.dra4j.resourceslice.ResourceSliceController} that keeps the cluster converged on it.
 */
package io.github.dra4j.resourceslice;
