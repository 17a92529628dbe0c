/**
 * Container Device Interface (CDI) support for DRA drivers: write the spec files container
 * runtimes (containerd, CRI-O, podman) read, exactly as strict as the reference CDI library. This
 * module holds only what a driver uses in production; the container runtime's side (loading spec
 * directories, resolving device names, injecting edits into a container) is simulated for tests
 * in the test kit's {@code dra4j-testing-cdi}.
 *
 * <ul>
 *   <li>{@link io.github.dra4j.cdi.spec}: the spec model ({@code CdiSpec}, devices, container
 *       edits) and the minimum-version rule;
 *   <li>{@link io.github.dra4j.cdi.name}: kinds and qualified device names;
 *   <li>{@link io.github.dra4j.cdi.validation}: the library's rules and the stricter writer rules;
 *   <li>{@link io.github.dra4j.cdi.codec}: reading spec files exactly as runtimes read them
 *       (YAML and JSON), JSON writing;
 *   <li>{@link io.github.dra4j.cdi.store}: atomic, durable writes (optionally only when changed,
 *       optionally for runtimes that know older spec versions), removal and orphan clean-up in a
 *       spec directory.
 * </ul>
 *
 * <p>A driver's prepare step, typically:
 *
 * <pre>{@code
 * CdiSpec spec = CdiSpec.builder()
 *     .kind("k8s.gpu.example.com/gpu")
 *     .device(claimUid + "-gpu0", e -> e.deviceNode("/dev/gpu0").env("GPU", "0"))
 *     .build();
 * SpecDirectory.runtimeDefault().writeTransient(spec, claimUid);
 * List<QualifiedDeviceName> cdiIds = spec.qualifiedDeviceNames();
 * }</pre>
 *
 * <p>A driver that prepares the same claim again can skip the write when nothing changed, and
 * one that must support runtimes built with CDI 1.0.x can have every newer field refused:
 *
 * <pre>{@code
 * SpecDirectory specs = SpecDirectory.runtimeDefault().withMaximumVersion(CdiVersion.V1_0_0);
 * boolean written = specs.writeTransient(spec, claimUid, WriteMode.REPLACE_IF_CHANGED).written();
 * }</pre>
 */
package io.github.dra4j.cdi;
