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
 * <p>Packages below {@code io.github.dra4j.kubeletplugin.internal} are the implementation and not
 * API; they may change in any release.
 */
package io.github.dra4j.kubeletplugin;
