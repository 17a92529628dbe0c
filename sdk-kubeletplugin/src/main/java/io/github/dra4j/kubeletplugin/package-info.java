/**
 * Makes a Java process a DRA kubelet plugin: the counterpart of Go's {@code
 * k8s.io/dynamic-resource-allocation/kubeletplugin}.
 *
 * <ul>
 *   <li>{@link io.github.dra4j.kubeletplugin.DraDriver}: what a driver implements, prepare and
 *       unprepare of claims on this node, with {@link io.github.dra4j.kubeletplugin.PrepareResult},
 *       {@link io.github.dra4j.kubeletplugin.PreparedDevice} and {@link
 *       io.github.dra4j.kubeletplugin.UnprepareResult};
 *   <li>{@link io.github.dra4j.kubeletplugin.KubeletPlugin}, started by {@link
 *       io.github.dra4j.kubeletplugin.KubeletPluginBuilder}: registration with the kubelet, the DRA
 *       gRPC services v1 and v1beta1, device health ({@link
 *       io.github.dra4j.kubeletplugin.DeviceHealthReporter}), seamless upgrades, serialized calls,
 *       device metadata, ResourceSlice publishing and a clean stop;
 *   <li>{@link io.github.dra4j.kubeletplugin.FatalErrorPolicy} and {@link
 *       io.github.dra4j.kubeletplugin.RecoverableException}: what happens after background errors.
 * </ul>
 *
 * <p>A driver's {@code main}:
 *
 * <pre>{@code
 * try (KubernetesClient client = new KubernetesClientBuilder().build();
 *     KubeletPlugin plugin = KubeletPlugin.builder(driver)
 *         .driverName("gpu.example.com")
 *         .kubeClient(client)
 *         .nodeName(System.getenv("NODE_NAME"))
 *         .rollingUpdate(System.getenv("POD_UID"))
 *         .start()) {
 *   plugin.publishResources(DriverResources.of(nodeName, pool));
 *   plugin.awaitTermination();
 * }
 * }</pre>
 *
 * <p>Kubernetes versions: the kubelet speaks DRA v1beta1 from 1.32 and v1 from 1.34; seamless
 * upgrades ({@link io.github.dra4j.kubeletplugin.KubeletPluginBuilder#rollingUpdate}) need 1.33;
 * the device health stream is alpha (kubelet feature gate {@code ResourceHealthStatus}, v1alpha1
 * from 1.34, v1 from 1.37); device metadata is alpha (KEP-5304, 1.36). How the plugin behaves
 * toward the kubelet, and where it deliberately differs from the Go helper, is written down in the
 * repository's {@code docs/kubelet-contract.md}.
 *
 * <p>Options: the builder's own setters say who and where the plugin is (driver name, API client,
 * node, the kubelet's directories, probe and metrics addresses: what {@link
 * io.github.dra4j.kubeletplugin.KubeletPluginBuilder#fromEnvironment()} can also supply); every
 * other option belongs to the part of the plugin it tunes and lives in that part's immutable group
 * ({@link io.github.dra4j.kubeletplugin.SocketOptions}, {@link
 * io.github.dra4j.kubeletplugin.ServiceOptions}, {@link
 * io.github.dra4j.kubeletplugin.SerializationOptions}, {@link
 * io.github.dra4j.kubeletplugin.ApiServerOptions}, {@link
 * io.github.dra4j.kubeletplugin.ObservabilityOptions}, {@link
 * io.github.dra4j.kubeletplugin.ShutdownOptions}, {@link
 * io.github.dra4j.kubeletplugin.SliceOptions}, {@link
 * io.github.dra4j.kubeletplugin.MetadataOptions}, {@link
 * io.github.dra4j.kubeletplugin.HealthOptions}), changed through one builder method per group:
 * {@code .shutdown(s -> s.withCloseOnShutdown(false))}. The groups are public because the
 * builder's surface stays small that way, as grpc-java's {@code ServerBuilder} keeps its own to
 * what most servers set: 25 methods rather than one per option, each option reachable in exactly
 * one place and documented once, in the group of the part that reads it; an option added later is
 * a component and a {@code with} method of its group, without a new builder method. Build a group
 * from the one the lambda is given (or its {@code DEFAULTS}) with its {@code with} methods rather
 * than its constructor, which gains a parameter when the group gains an option.
 * The groups are values a driver writes, like {@link io.github.dra4j.kubeletplugin.ServerLimits};
 * the plugin hands each to the part that uses it and keeps no copy a driver could change.
 *
 * <p>Packages below {@code io.github.dra4j.kubeletplugin.internal} are the implementation and not
 * API; they may change in any release.
 */
package io.github.dra4j.kubeletplugin;
